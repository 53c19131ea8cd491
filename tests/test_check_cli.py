"""`hipport check`, `baseline` and `rule` as users run them: exit codes 0/1/2, --exit-zero,
--fail-on, formats to files, the baseline found in the current directory or the root, and
the minimum-ROCm gate (cudaDeviceSetLimit needs ROCm 5.3)."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import main

HEAD = "#include <cuda_runtime.h>\n"
LIMIT = HEAD + "void f(){ cudaDeviceSetLimit(cudaLimitStackSize, 1024); }\n"
UNSUPPORTED = HEAD + "void g(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n"
WARNING_ONLY = HEAD + "void h(){ cudaThreadSynchronize(); }\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project root (.hipport.toml) with src/; the tests run from the root."""
    (tmp_path / ".hipport.toml").write_text("")
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path)

    def write(files: dict[str, str]):
        for name, text in files.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return tmp_path

    return write


def cli(*args: str):
    return CliRunner().invoke(main, ["check", *args, "--no-cache"], catch_exceptions=False)


def run(cmd, env, *args: str, cwd=None):
    return subprocess.run(
        [*cmd, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120
    )


# --- the minimum-ROCm gate, as real subprocesses ---------------------------------------------


@pytest.mark.slow
def test_set_limit_needs_rocm_5_3(project, hipport_cmd, subprocess_env):
    root = project({"src/limit.cu": LIMIT})
    low = run(hipport_cmd, subprocess_env, "check", "src", "--rocm", "5.2", "--no-cache", cwd=root)
    assert low.returncode == 1, low.stderr
    assert (
        "src/limit.cu:2:11: error: cudaDeviceSetLimit -> hipDeviceSetLimit needs ROCm "
        "5.3.0 or newer [HIP002]" in low.stdout
    )
    assert "minimum ROCm   5.3.0" in low.stdout
    ok = run(
        hipport_cmd,
        subprocess_env,
        "check",
        "src",
        "--rocm",
        "5.3",
        "--no-cache",
        "--format",
        "json",
        cwd=root,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    data = json.loads(ok.stdout)
    assert data["rocm"]["minimum"] == "5.3.0" and data["rocm"]["satisfied"]
    assert data["rocm"]["deciding_apis"] == ["cudaDeviceSetLimit", "cudaLimitStackSize"]


@pytest.mark.slow
def test_usage_and_internal_errors_exit_2(project, hipport_cmd, subprocess_env):
    root = project({"src/a.cu": HEAD})
    for args in (
        ["check", "missing-dir"],
        ["check", "src", "--fail-on", "sometimes"],
        ["check", "src", "--rocm", "not-a-version"],
        ["check"],
        ["rule", "HIP999"],
        ["rule"],
    ):
        proc = run(hipport_cmd, subprocess_env, *args, cwd=root)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
    (root / "bad.json").write_text("{")
    proc = run(hipport_cmd, subprocess_env, "check", "src", "--baseline", "bad.json", cwd=root)
    assert proc.returncode == 2 and proc.stderr.startswith("hipport: error: cannot read")


@pytest.mark.slow
def test_baseline_then_new_findings_subprocess(project, hipport_cmd, subprocess_env):
    root = project({"src/a.cu": UNSUPPORTED})
    wrote = run(hipport_cmd, subprocess_env, "baseline", "src", "--no-cache", cwd=root)
    assert wrote.returncode == 0, wrote.stderr
    assert (root / ".hipport-baseline.json").is_file()
    assert run(hipport_cmd, subprocess_env, "check", "src", "--no-cache", cwd=root).returncode == 0
    (root / "src/a.cu").write_text("// moved down\n" + UNSUPPORTED + "void k(){ cudaFoo(); }\n")
    again = run(hipport_cmd, subprocess_env, "check", "src", "--no-cache", cwd=root)
    assert again.returncode == 1
    assert "[HIP004]" in again.stdout and "[HIP001]" not in again.stdout


# --- exit codes and options, in-process -------------------------------------------------------


def test_clean_exits_0(project):
    project({"src/a.cu": HEAD + "void f(){ cudaMalloc(&p, 4); }\n"})
    result = cli("src")
    assert result.exit_code == 0, result.output
    assert "no findings at or above error" in result.output


@pytest.mark.parametrize("fail_on, code", [("error", 0), ("warning", 1), ("note", 1), ("never", 0)])
def test_fail_on_levels(project, fail_on, code):
    project({"src/a.cu": WARNING_ONLY})
    assert cli("src", "--fail-on", fail_on).exit_code == code


def test_fail_on_from_config(project):
    root = project({"src/a.cu": WARNING_ONLY})
    (root / ".hipport.toml").write_text('fail-on = "warning"\n')
    assert cli("src").exit_code == 1
    assert cli("src", "--fail-on", "error").exit_code == 0


def test_exit_zero(project):
    project({"src/a.cu": UNSUPPORTED})
    assert cli("src").exit_code == 1
    assert cli("src", "--exit-zero").exit_code == 0


def test_severity_from_config(project):
    root = project({"src/a.cu": UNSUPPORTED})
    (root / ".hipport.toml").write_text('[severity]\nunsupported-api = "warning"\n')
    result = cli("src")
    assert result.exit_code == 0 and "warning: cudaDeviceFlushGPUDirectRDMAWrites" in result.output


def test_select_and_ignore(project):
    project({"src/a.cu": UNSUPPORTED + "void k(){ cudaFoo(); }\n"})
    assert "[HIP004]" not in cli("src", "--ignore", "HIP004").output
    out = cli("src", "--select", "unknown-cuda-identifier").output
    assert "[HIP004]" in out and "[HIP001]" not in out


@pytest.mark.parametrize("fmt", ["json", "sarif", "junit", "github", "csv", "markdown", "text"])
def test_formats_to_a_file(project, fmt):
    root = project({"src/a.cu": UNSUPPORTED})
    result = cli("src", "--format", fmt, "-o", "out.txt")
    assert result.exit_code == 1
    text = (root / "out.txt").read_text()
    if fmt in ("json", "sarif"):
        json.loads(text)
    elif fmt == "junit":
        ET.fromstring(text)
    assert "cudaDeviceFlushGPUDirectRDMAWrites" in text


def test_html_is_clear_when_unavailable(project):
    import importlib.util

    project({"src/a.cu": UNSUPPORTED})
    result = cli("src", "--format", "html", "-o", "r.html")
    if importlib.util.find_spec("hipport.report.html") is None:
        assert result.exit_code == 2 and "html report is not available" in result.output
    else:
        assert result.exit_code in (0, 1)


def test_statistics(project):
    project({"src/a.cu": LIMIT, "src/b.cu": UNSUPPORTED})
    out = cli("src", "--statistics=api").output
    assert "API uses per family" in out and "cudaDeviceSetLimit" in out
    assert "src/b.cu:" not in out  # the tables stand in for the listing
    per_rule = cli("src", "--statistics").output.splitlines()
    assert "src/b.cu:" not in "".join(per_rule) and "API uses per family" not in "".join(per_rule)
    assert per_rule[0].split() == ["1", "HIP001", "unsupported-api", "error"], per_rule


def test_baseline_in_cwd_then_root(project, monkeypatch):
    root = project({"src/a.cu": UNSUPPORTED})
    runner = CliRunner()
    result = runner.invoke(main, ["baseline", "src", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert cli("src").exit_code == 0
    assert cli("src", "--no-baseline").exit_code == 1
    monkeypatch.chdir(root / "src")  # not in the cwd: found in the project root
    assert cli(".").exit_code == 0


def test_explicit_baseline_file_and_stale_entries(project):
    root = project({"src/a.cu": UNSUPPORTED + UNSUPPORTED.split("\n", 1)[1]})
    runner = CliRunner()
    assert (
        runner.invoke(main, ["baseline", "src", "--baseline", "b.json", "--no-cache"]).exit_code
        == 0
    )
    assert not (root / ".hipport-baseline.json").exists()
    (root / "src/a.cu").write_text(UNSUPPORTED)
    result = cli("src", "--baseline", "b.json")
    assert result.exit_code == 0
    assert (
        "stale baseline entry: HIP001 cudaDeviceFlushGPUDirectRDMAWrites baselined 2, "
        "found 1" in result.output
    )
    data = json.loads(cli("src", "--baseline", "b.json", "--format", "json").output)
    assert data["stale_baseline"][0]["baselined"] == 2
    assert cli("src", "--baseline", "missing.json").exit_code == 2


def test_binary_file_is_skipped_and_fails_the_gate(project):
    """Skipped, not failed: but nothing in it was checked, so HIP203 fails the gate."""
    root = project({})
    (root / "src/bin.cu").write_bytes(b"cudaMalloc(\0);\n")
    result = cli("src", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["files"][0]["status"] == "skipped"
    assert [f["code"] for f in data["findings"]] == ["HIP203"]


def test_failed_file_exits_1(project, monkeypatch):
    from hipport.engine import TranslationResult

    project({"src/a.cu": HEAD + "void f(){ cudaMalloc(&p, 4); }\n"})

    def fail(data, relpath, kind, options, target):
        return TranslationResult(relpath, data, data, error="libclang refused it")

    monkeypatch.setattr("hipport.runner.pool.translate_one", fail)
    result = cli("src", "--jobs", "1")
    assert result.exit_code == 1, result.output
    assert (
        "src/a.cu:1:1: error: could not process the file: libclang refused it [HIP202]"
        in result.output
    )


def test_internal_error_is_reported(project, monkeypatch):
    project({"src/a.cu": HEAD})

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr("hipport.report.model.build_report", boom)
    result = CliRunner().invoke(main, ["check", "src", "--no-cache"])
    assert result.exit_code == 2 and "hipport: error: kaboom" in result.output


def test_rule_explains_by_code_and_name():
    runner = CliRunner()
    by_code = runner.invoke(main, ["rule", "HIP002"])
    assert by_code.exit_code == 0
    for heading in ("What it finds", "Why it matters", "Example", "How to fix it"):
        assert heading in by_code.output
    assert runner.invoke(main, ["rule", "needs-newer-rocm"]).output == by_code.output
    listing = runner.invoke(main, ["rule", "--all"]).output
    from hipport.findings import RULES

    assert all(code in listing for code in RULES)
    data = json.loads(runner.invoke(main, ["rule", "HIP201", "--format", "json"]).output)
    assert data["name"] == "unused-suppression"


def test_rule_lists_the_alternatives_its_findings_name():
    """Issue 26 item 3: `hipport rule` shows mappings/alternatives.tsv for the rules whose
    findings name an alternative (HIP001, HIP025), exact and approximate apart."""
    import csv

    from hipport.tables.model import mappings_dir

    with (mappings_dir() / "alternatives.tsv").open() as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    runner = CliRunner()
    for code in ("HIP001", "HIP025"):
        text = runner.invoke(main, ["rule", code]).output
        assert "Alternatives (mappings/alternatives.tsv" in text
        for row in rows:
            line = next(x for x in text.splitlines() if x.startswith(f"    {row['cuda']} -> "))
            assert row["hip"] in line
            assert ("[suggested, never applied]" in line) == (row["exactness"] != "exact")
        data = json.loads(runner.invoke(main, ["rule", code, "--format", "json"]).output)
        assert {a["cuda"] for a in data["alternatives"]} == {r["cuda"] for r in rows}
    assert "Alternatives" not in runner.invoke(main, ["rule", "HIP002"]).output


def test_output_dash_is_standard_output(project):
    """`-o -` writes to standard output, as other tools do (it wrote a file named `-`)."""
    root = project({"src/a.cu": UNSUPPORTED})
    result = cli("src", "--format", "json", "-o", "-")
    assert result.exit_code == 1, result.output
    assert json.loads(result.output)["findings"][0]["code"] == "HIP001"
    assert not (root / "-").exists() and not (Path.cwd() / "-").exists()
    both = cli("src", "-o", "-", "--report", "sarif=-")
    assert both.exit_code == 2 and "two reports would be written to standard output" in (
        both.output
    )


def test_a_long_json_report_is_streamed_alike_to_a_file_and_stdout_and_not_replayed(
    project, monkeypatch, tmp_path
):
    """A JSON report to a file is written as it is made; one longer than REPLAY_LIMIT is
    not kept for the warm run's replay, so the next run makes it anew: the file of a cold
    run, of a warm run and the text on stdout are the same bytes."""
    from hipport.cli import output

    names = " ".join(f"cudaNoSuchThing{i}();" for i in range(400))
    project({"src/many.cu": f"void f() {{ {names} }}\n"})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(output, "REPLAY_LIMIT", 10_000)
    runner = CliRunner()
    args = ["check", "src", "--format", "json", "--cache-dir", str(tmp_path / "cache")]
    cold = runner.invoke(main, [*args, "-o", "cold.json"], catch_exceptions=False)
    warm = runner.invoke(main, [*args, "-o", "warm.json"], catch_exceptions=False)
    shown = runner.invoke(main, args, catch_exceptions=False)
    assert cold.exit_code == warm.exit_code == shown.exit_code == 1
    text = Path("cold.json").read_text()
    assert len(text) > 10 * 10_000 and json.loads(text)["summary"]["findings"] == 400
    assert Path("warm.json").read_text() == text == shown.output


@pytest.mark.parametrize("layout", ["full", "grouped"])
def test_a_long_text_report_comes_in_pieces_with_the_bytes_of_one(project, monkeypatch, layout):
    """The text report goes out in pieces of whole lines (to stdout as they are made, past
    REPLAY_LIMIT): cut every few hundred characters, the bytes on stdout and in a file are
    those of the report made in one piece. The source lines the carets show end in blanks
    and tabs (each line's trailing blanks are stripped, piece by piece) and hold non-ASCII
    text; two files, so grouped has two headings."""
    from hipport.cli import output
    from hipport.report import text

    line = "void f{i}() {{ cudaNoSuchThing{i}(); \u00e9 }} \t \n"
    project(
        {
            "src/a.cu": "".join(line.format(i=i) for i in range(60)),
            "src/b.cu": "".join(line.format(i=i) for i in range(60, 90)),
        }
    )
    args = ["check", "src", "--no-cache", "--output-format", layout]
    runner = CliRunner()
    whole = runner.invoke(main, args, catch_exceptions=False)
    pieces: list[str] = []
    chunks = text.chunks

    def counted(*a, **k):
        for piece in chunks(*a, **k):
            pieces.append(piece)
            yield piece

    monkeypatch.setattr(text, "CHUNK_CHARS", 300)
    monkeypatch.setattr(text, "_BATCH_LINES", 7)  # lines reach the buffer 7 at a time
    monkeypatch.setattr(text, "chunks", counted)
    monkeypatch.setattr(output, "REPLAY_LIMIT", 2_000)
    cut = runner.invoke(main, args, catch_exceptions=False)
    to_file = runner.invoke(main, [*args, "-o", "report.txt"], catch_exceptions=False)
    assert whole.exit_code == cut.exit_code == to_file.exit_code == 1
    assert "cudaNoSuchThing89" in whole.output
    assert ("\u00e9" in whole.output) == (layout == "full")  # the carets' source lines
    assert len(pieces) > 20 and all(p.endswith("\n") for p in pieces)
    assert cut.output == whole.output == Path("report.txt").read_text(encoding="utf-8")
    assert " \n" not in whole.output and "\t\n" not in whole.output
