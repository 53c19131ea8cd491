"""The run summary (hipport.runner.memo): a warm `check` over an unchanged tree prints what
the last run printed without running again, and after any kind of change it prints what
a cold run (--no-cache) prints, byte for byte: content, options, tables, configuration,
baseline, a file added, removed or renamed, a header's project names changed.

Every step checks twice, with the cache: the first run after the change (it must see the
change) and the one after it (which must answer from the summary: the run itself is made
to fail if it is called). Each file a step writes gets an mtime in the past, as a tree checked
out a while ago has (a file written within the racy window is never trusted, so without
that no summary would be kept and the second run would prove nothing); the others keep
their stat, so each step differs from the last by its change alone."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import hipport.cli.check as check_cli
from hipport.cli import main
from hipport.tsv import mappings_dir

HEAD = "#include <cuda_runtime.h>\n"
LIMIT = HEAD + "void f(){ cudaDeviceSetLimit(cudaLimitStackSize, 1024); }\n"
UNSUPPORTED = HEAD + "void g(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n"
# cudaMyHelper is no CUDA API: HIP004 unless the project defines it (the header does)
USES_HELPER = HEAD + '#include "helper.h"\nvoid k(){ cudaMyHelper(); cudaThreadSynchronize(); }\n'
HELPER = "#pragma once\nvoid cudaMyHelper();\n"
NOT_HELPER = "#pragma once\nvoid somethingElse();\n"


@pytest.fixture
def tree(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / ".hipport.toml").write_text("")
    files = {"src/a.cu": LIMIT, "src/b.cu": UNSUPPORTED, "src/c.cu": USES_HELPER}
    files["src/helper.h"] = HELPER
    for name, text in files.items():
        (root / name).write_text(text)
    monkeypatch.chdir(root)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    return root


def settle(root: Path) -> None:
    """The mtime of every file written in the last minute set a minute back (outside the
    racy window); the other files keep their stat, so only what a step changed differs."""
    past = time.time() - 60
    for path in root.rglob("*"):
        if path.is_file() and path.stat().st_mtime > past:
            os.utime(path, (past - 60, past - 60))


def invoke(args: list[str], forbid_run: bool = False):
    """(exit code, output) of `hipport check ARGS`; `forbid_run`: the run summary must
    answer (the run itself is not called)."""
    real_run = check_cli._run
    calls = []

    def counted(*a, **k):
        calls.append(a)
        return real_run(*a, **k)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(check_cli, "_run", counted)
        result = CliRunner().invoke(main, ["check", *args], catch_exceptions=False)
    if forbid_run:
        assert not calls, "the run summary should have answered"
    return result.exit_code, result.output


def same_as_cold(root: Path, args: list[str], outputs: tuple[str, ...] = ()):
    """The cached run twice (the second from the summary) against a cold run: the same
    exit code, standard output and report files."""

    def files():
        return {name: (root / name).read_bytes() for name in outputs}

    settle(root)
    cold = invoke([*args, "--no-cache"]), files()
    first = invoke(args), files()
    second = invoke(args, forbid_run=True), files()
    assert first == cold
    assert second == cold
    return cold[0]


def test_each_kind_of_change_gives_the_cold_run_bytes(tree):
    args = ["src", "--color", "never"]
    base = same_as_cold(tree, args)
    assert "[HIP004]" not in base[1]  # the header defines cudaMyHelper
    assert "cudaDeviceFlushGPUDirectRDMAWrites" in base[1]

    # content
    (tree / "src/b.cu").write_text(UNSUPPORTED + "void h(){ cudaThreadSynchronize(); }\n")
    changed = same_as_cold(tree, args)
    assert changed != base

    # options (and other formats, written to a file)
    same_as_cold(tree, [*args, "--rocm", "5.2"])
    same_as_cold(tree, [*args, "--select", "HIP001"])
    same_as_cold(tree, ["src", "--format", "json", "-o", "r.json"], ("r.json",))
    same_as_cold(tree, ["src", "--output-format", "concise", "-q"])

    # configuration
    (tree / ".hipport.toml").write_text('[severity]\nunsupported-api = "warning"\n')
    configured = same_as_cold(tree, args)
    assert configured != changed

    # baseline: accepted findings stop failing; a later change makes entries stale
    CliRunner().invoke(main, ["baseline", "src"], catch_exceptions=False)
    baselined = same_as_cold(tree, args)
    assert baselined[0] == 0 and baselined != configured
    (tree / "src/a.cu").write_text(HEAD + "void f(){}\n")
    stale = same_as_cold(tree, args)
    assert stale != baselined

    # a file added, removed, renamed
    (tree / "src/d.cu").write_text(UNSUPPORTED)
    added = same_as_cold(tree, args)
    assert "src/d.cu" in added[1]
    (tree / "src/d.cu").rename(tree / "src/e.cu")
    renamed = same_as_cold(tree, args)
    assert "src/e.cu" in renamed[1] and "src/d.cu" not in renamed[1]
    (tree / "src/e.cu").unlink()
    removed = same_as_cold(tree, args)
    assert "src/e.cu" not in removed[1]

    # a header's project names: c.cu is unchanged, its finding comes and goes
    (tree / "src/helper.h").write_text(NOT_HELPER)
    unhelped = same_as_cold(tree, args)
    assert "cudaMyHelper looks like CUDA" in unhelped[1] and "[HIP004]" in unhelped[1]
    (tree / "src/helper.h").write_text(HELPER)
    helped = same_as_cold(tree, args)
    assert "[HIP004]" not in helped[1]


def test_a_tables_change_gives_the_cold_run_bytes(tree, monkeypatch, tmp_path):
    args = ["src", "--color", "never"]
    before = same_as_cold(tree, args)
    assert "5.3.0 (decided by cudaDeviceSetLimit" in before[1]
    changed = tmp_path / "mappings"
    shutil.copytree(mappings_dir(), changed)
    runtime = changed / "runtime.tsv"
    text = runtime.read_text()
    row = next(line for line in text.splitlines() if line.startswith("cudaDeviceSetLimit\t"))
    runtime.write_text(text.replace(row, row.replace("\t5.3.0\t", "\t6.1.0\t")))
    import hipport.mappings
    import hipport.tsv

    monkeypatch.setattr(hipport.tsv, "mappings_dir", lambda: changed)
    monkeypatch.setattr(hipport.mappings, "mappings_dir", lambda: changed)
    after = same_as_cold(tree, args)
    assert "6.1.0 (decided by cudaDeviceSetLimit" in after[1]


def test_a_forged_summary_is_a_miss(tree, tmp_path):
    """The summary is a cache file with a keyed checksum: one written without the key
    (planted to turn a failing gate into a pass) is not read."""
    from hipport.cache_format import FORMAT, MAGIC

    args = ["src", "--color", "never"]
    code, output = same_as_cold(tree, args)
    assert code == 1
    (summary,) = (tmp_path / "cache").rglob("runs/*.json")
    header, body = summary.read_bytes().split(b"\n", 1)
    payload = json.loads(body)
    assert payload[2] == 1  # the exit code
    payload[2] = 0
    payload[3] = [["all clean\n", []]]
    forged = json.dumps(payload, separators=(",", ":")).encode()
    summary.write_bytes(b"%s %d run %s\n" % (MAGIC, FORMAT, b"0" * 32) + forged)
    assert invoke(args) == (code, output)
    # the same payload under the right checksum would be read: the test can fail
    from hipport.cache_format import dumps

    summary.write_bytes(dumps("run", payload, raw=True))
    assert invoke(args, forbid_run=True) == (0, "all clean\n")


def test_a_file_written_within_the_racy_window_is_not_summarised(tree):
    """A file whose mtime is not clearly in the past (here: in the future, as a clock
    skew or a write in the same tick gives) could change again without its stat showing
    it: the run is not summarised."""
    args = ["src", "--color", "never"]
    settle(tree)
    future = time.time() + 3600
    os.utime(tree / "src/b.cu", (future, future))
    invoke(args)
    with pytest.raises(AssertionError, match="should have answered"):
        invoke(args, forbid_run=True)
    settle(tree)  # the same tree, its times settled: summarised
    invoke(args)
    assert invoke(args, forbid_run=True)[0] == 1


def test_names_from_outside_the_run_come_from_the_project_index(tree, tmp_path):
    """A run over src/ knows the names lib/ defines from the project index an earlier run
    over the whole tree left (a --no-cache run does not: the reference here is the same
    cached run without its summary): when that index changes, the summary is stale."""

    def without_summary(args):
        shutil.rmtree(next((tmp_path / "cache").glob("v*")) / "runs", ignore_errors=True)
        return invoke(args)

    (tree / "lib").mkdir()
    (tree / "src/helper.h").rename(tree / "lib/helper.h")
    (tree / "src/c.cu").write_text(USES_HELPER.replace('"helper.h"', '"../lib/helper.h"'))
    args = ["src", "--color", "never"]
    settle(tree)
    invoke([".", "--color", "never"])  # the index learns lib/helper.h's names
    helped = without_summary(args)
    assert "[HIP004]" not in helped[1]
    assert invoke(args, forbid_run=True) == helped
    (tree / "lib/helper.h").write_text(NOT_HELPER)
    settle(tree)
    invoke([".", "--color", "never"])  # the index forgets cudaMyHelper
    code, output = invoke(args)
    assert "cudaMyHelper looks like CUDA" in output
    assert invoke(args, forbid_run=True) == (code, output) == without_summary(args)
