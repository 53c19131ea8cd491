"""A warm check builds its report from each file's cached report part (hipport.runner.
report_part: findings, uses counted by kind, edit totals), never decoding a whole result,
and prints what a cold run (--no-cache) prints, byte for byte, in every format.

The tree is the test corpus (real CUDA: dead arms, unported APIs, edits of every kind)
plus files that reach the report's other inputs: a suppression (used and unused), a name
the project defines in a header (its unknown-identifier finding and use filtered out),
and a file already written for HIP. The warm runs are made with the full result load
forbidden, so a test that passes cannot have read the results instead of the parts."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import hipport.cache as cache_mod
from hipport.cli import main

CORPUS = Path(__file__).resolve().parent / "corpus"
EXTRA = {
    "extra/suppressed.cu": (
        "#include <cuda_runtime.h>\n"
        "void f(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }  // hipport: ignore\n"
        "void g(){ cudaThreadSynchronize(); }  // hipport: ignore[HIP101]\n"
    ),
    "extra/helper.h": "#pragma once\nvoid cudaMyHelper();\n",
    "extra/uses_helper.cu": (
        '#include <cuda_runtime.h>\n#include "helper.h"\n'
        "void k(){ cudaMyHelper(); cudaMyOther(); cudaThreadSynchronize(); }\n"
    ),
    "extra/dead.cu": (
        "#include <cuda_runtime.h>\n#ifdef __NVCC__\nvoid d(){ cudaThreadSynchronize(); }\n"
        "#endif\nvoid e(){ cudaDeviceSynchronize(); cudaNoSuchThing(); }\n"
    ),
}
FORMATS = (
    ["--format", "text", "--color", "never"],
    ["--format", "json"],
    ["--format", "sarif"],
    ["--format", "markdown"],
    ["--format", "csv"],
    ["--format", "junit"],
    ["--format", "html"],
    ["--format", "text", "--statistics=api"],
)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    shutil.copytree(CORPUS, root / "corpus")
    for name, text in EXTRA.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / ".hipport.toml").write_text("")
    past = time.time() - 120  # outside the racy window: the stat index is trusted
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (past, past))
    monkeypatch.chdir(root)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    return root


def check(args: list[str]) -> tuple[int, bytes]:
    out = Path("report.out")
    out.unlink(missing_ok=True)
    result = CliRunner().invoke(main, ["check", ".", "--fail-on", "warning", "-o", str(out), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, out.read_bytes()


def test_the_report_from_parts_is_the_cold_report_in_every_format(tree, monkeypatch):
    check(["--format", "text"])  # fills the cache: results and their parts
    parts = list((Path(os.environ["HIPPORT_CACHE_DIR"])).rglob("*.part.json"))
    assert len(parts) >= len(list(CORPUS.glob("*.cu")))
    cold = {tuple(args): check([*args, "--no-cache"]) for args in FORMATS}

    def no_full_load(*args, **kwargs):
        raise AssertionError("a warm check loaded a whole result, not its report part")

    monkeypatch.setattr(cache_mod.ResultStore, "load", no_full_load)
    for args in FORMATS:
        # each format is another invocation: the run summary cannot answer for it
        assert check(args) == cold[tuple(args)], args
    text = cold[tuple(FORMATS[0])][1].decode()
    assert "cudaMyOther looks like CUDA" in text  # no name the project defines:
    assert "cudaMyHelper looks like CUDA" not in text
    assert "suppressed.cu:2" not in text and "HIP201" in text  # used and unused suppression


def test_a_missing_or_damaged_part_falls_back_to_the_result(tree):
    check(["--format", "text"])
    cold = check(["--format", "json", "--no-cache"])
    parts = sorted(Path(os.environ["HIPPORT_CACHE_DIR"]).rglob("*.part.json"))
    parts[0].unlink()
    damaged = parts[1].read_bytes()[:-1] + b"0"  # its checksum no longer holds
    parts[1].write_bytes(damaged)
    assert check(["--format", "json"]) == cold
    # both were written again from their results: the next run reads parts again
    assert parts[0].exists() and parts[1].read_bytes() != damaged
    assert check(["--format", "json", "--select", "ALL"]) == check(
        ["--format", "json", "--select", "ALL", "--no-cache"]
    )


def test_a_part_is_plain_json_that_gives_back_the_results_findings_and_uses():
    """The part's fields are plain JSON (decoded without an object hook): through a JSON
    round trip they give back every finding as the result has it, field for field, and
    the uses counted by kind; a finding of the wrong shape is a miss (TypeError)."""
    import json

    from hipport.engine import translate_source
    from hipport.runner.report_part import make_part, part_fields
    from hipport.target import Target

    source = (CORPUS / "warp_vote.cu").read_bytes()
    result = translate_source(source, "corpus/warp_vote.cu", Target())
    assert result.findings and result.uses
    fields = json.loads(json.dumps(part_fields(result)))
    part = make_part(source, fields)
    assert part.findings == result.findings
    assert sum(u.count for u in part.uses) == len(result.uses)
    assert {(u.api, u.status, u.min_rocm) for u in part.uses} == {
        (u.api, u.status, u.min_rocm) for u in result.uses
    }
    for damaged in (["HIP001"], [*fields[1][0][:1], "fatal", *fields[1][0][2:]]):
        with pytest.raises(TypeError):
            make_part(source, [fields[0], [damaged], *fields[2:]])


def test_a_use_row_of_the_wrong_shape_is_a_miss():
    """Each field of a use kind's row checked: a row a hand-edited or older part holds with
    another type, an unknown status or a ragged list of places is a miss (TypeError); the
    row part_fields writes gives its UseCount, places in threes."""
    from hipport.runner.report_part import _use_count
    from hipport.tables import Status
    from hipport.target import Version

    good = ["cudaMalloc", "runtime", "unsupported", None, "6.2.0", 2, [0, 3, 4, 1, 5, 6]]
    use = _use_count(good)
    assert (use.api, use.family, use.status, use.new_name, use.count) == (
        "cudaMalloc", "runtime", Status.UNSUPPORTED, None, 2,
    )  # fmt: skip
    assert use.min_rocm == Version.parse("6.2.0") and use.places == ((0, 3, 4), (1, 5, 6))
    assert _use_count([*good[:6], []]).places == ()
    damaged = {
        0: 7, 1: 3, 2: "no such status", 3: ["x"], 4: 6.2, 5: -1, 6: [0, 3],
    }  # fmt: skip
    for index, value in damaged.items():
        row = list(good)
        row[index] = value
        with pytest.raises(TypeError):
            _use_count(row)
    for flat in ([0, 3, "4"], [0, 3, True], "0 3 4"):
        with pytest.raises(TypeError):
            _use_count([*good[:6], flat])
    with pytest.raises(TypeError):
        _use_count([*good[:5], True, []])  # a bool is no count
