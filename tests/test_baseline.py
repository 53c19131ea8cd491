"""The baseline: keyed by file + rule + API + count, valid across line shifts, new findings
beyond the count fail, stale entries listed."""

from __future__ import annotations

import json
import subprocess

import pytest

from hipport.baseline import BASELINE_NAME, Baseline, BaselineError, compare, find_baseline
from tests.report_support import report_of

HEAD = "#include <cuda_runtime.h>\n"
BAD = "cudaDeviceFlushGPUDirectRDMAWrites(t, s);"


def _baseline_for(files):
    return Baseline.from_findings(report_of(files).findings)


def test_write_load_round_trip(tmp_path):
    baseline = _baseline_for({"a.cu": HEAD + f"void f(){{ {BAD} {BAD} }}\n"})
    path = tmp_path / BASELINE_NAME
    baseline.write(path)
    data = json.loads(path.read_text())
    assert data["entries"] == [
        {"path": "a.cu", "code": "HIP001", "api": "cudaDeviceFlushGPUDirectRDMAWrites", "count": 2}
    ]
    assert Baseline.load(path).counts == baseline.counts


def test_line_shifts_keep_it_valid():
    baseline = _baseline_for({"a.cu": HEAD + f"void f(){{ {BAD} }}\n"})
    shifted = HEAD + "// a comment\n\n\nint x;\n" + f"void f(){{ {BAD} }}\n"
    report = report_of({"a.cu": shifted}, baseline=baseline)
    assert report.findings == [] and len(report.baselined) == 1 and report.stale == []
    assert not report.fails("note")


def test_new_findings_beyond_the_count_fail():
    baseline = _baseline_for({"a.cu": HEAD + f"void f(){{ {BAD} }}\n"})
    report = report_of(
        {
            "a.cu": HEAD + f"void f(){{ {BAD} }}\nvoid g(){{ {BAD} }}\n",
            "b.cu": HEAD + f"void h(){{ {BAD} }}\n",
        },
        baseline=baseline,
    )
    assert [(f.location.path, f.location.line) for f in report.findings] == [
        ("a.cu", 3),
        ("b.cu", 2),
    ]
    assert len(report.baselined) == 1 and report.fails("error")


def test_stale_entries_are_listed_not_failing():
    baseline = _baseline_for({"a.cu": HEAD + f"void f(){{ {BAD} {BAD} }}\n"})
    report = report_of({"a.cu": HEAD + f"void f(){{ {BAD} }}\n"}, baseline=baseline)
    assert report.findings == []
    assert [(s.path, s.code, s.baselined, s.found) for s in report.stale] == [
        ("a.cu", "HIP001", 2, 1)
    ]
    assert report.to_dict()["stale_baseline"][0]["found"] == 1


def test_compare_orders_by_position():
    report = report_of({"a.cu": HEAD + f"void f(){{ {BAD} }}\nvoid g(){{ {BAD} }}\n"})
    first, second = report.findings
    result = compare(Baseline.from_findings([first]), [second, first])
    assert result.baselined == [first] and result.new == [second]


@pytest.mark.parametrize(
    "text",
    ["not json", "[]", '{"entries": [{"path": 1}]}', '{"schema_version": 99, "entries": []}'],
)
def test_bad_files_are_errors(tmp_path, text):
    path = tmp_path / BASELINE_NAME
    path.write_text(text)
    with pytest.raises(BaselineError):
        Baseline.load(path)


def test_found_in_cwd_then_root(tmp_path):
    root, cwd = tmp_path, tmp_path / "sub"
    cwd.mkdir()
    assert find_baseline(cwd, root) is None
    (root / BASELINE_NAME).write_text('{"entries": []}')
    assert find_baseline(cwd, root) == root / BASELINE_NAME
    (cwd / BASELINE_NAME).write_text('{"entries": []}')
    assert find_baseline(cwd, root) == cwd / BASELINE_NAME


# --- a run over some files judges only their entries (issue 28) -------------------------


@pytest.fixture
def hipport_run(hipport_cmd, subprocess_env, tmp_path):
    env = subprocess_env | {"HIPPORT_CACHE_DIR": str(tmp_path / ".cache-dir")}
    env = {k: v for k, v in env.items() if k not in ("NO_COLOR", "FORCE_COLOR", "CI")}

    def run(*args, cwd, input=None):
        return subprocess.run(
            [*hipport_cmd, *args],
            cwd=cwd,
            env=env,
            input=input,
            capture_output=True,
            text=True,
            check=False,
        )

    return run


def _tree_with_baseline(tmp_path, hipport_run, files):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    made = hipport_run("baseline", ".", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    return json.loads((tmp_path / BASELINE_NAME).read_text())["entries"]


def _stale_paths(output: str) -> list[str]:
    return sorted(line.split(":")[0] for line in output.splitlines() if "stale baseline" in line)


@pytest.mark.slow
def test_partial_run_reports_stale_entries_only_for_the_files_it_checked(tmp_path, hipport_run):
    one = HEAD + f"void f(){{ {BAD} }}\n"
    files = {f"m{i}.cu": one for i in range(5)}
    _tree_with_baseline(tmp_path, hipport_run, files)
    for rel in files:  # the work is done everywhere: every entry is stale
        (tmp_path / rel).write_text(HEAD + "void f(){}\n")
    partial = hipport_run("check", "m0.cu", "--no-cache", "--color", "never", cwd=tmp_path)
    assert partial.returncode == 0, partial.stderr
    assert _stale_paths(partial.stdout) == ["m0.cu"]
    whole = hipport_run("check", ".", "--no-cache", "--color", "never", cwd=tmp_path)
    assert _stale_paths(whole.stdout) == sorted(files)
    github = hipport_run("check", "m1.cu", "--no-cache", "--format", "github", cwd=tmp_path)
    assert github.stdout.count("stale baseline entry") == 1, github.stdout


@pytest.mark.slow
def test_a_deleted_files_entries_are_stale_in_any_run(tmp_path, hipport_run):
    one = HEAD + f"void f(){{ {BAD} }}\n"
    _tree_with_baseline(tmp_path, hipport_run, {"a.cu": one, "gone.cu": one})
    (tmp_path / "gone.cu").unlink()
    partial = hipport_run("check", "a.cu", "--no-cache", "--color", "never", cwd=tmp_path)
    assert _stale_paths(partial.stdout) == ["gone.cu"]


@pytest.mark.slow
def test_stdin_judges_only_its_own_entries(tmp_path, hipport_run):
    one = HEAD + f"void f(){{ {BAD} }}\n"
    _tree_with_baseline(tmp_path, hipport_run, {"a.cu": one, "b.cu": one})
    (tmp_path / "b.cu").write_text(HEAD + "void f(){}\n")
    done = hipport_run(
        "check",
        "-",
        "--stdin-filename",
        "a.cu",
        "--no-cache",
        "--color",
        "never",
        cwd=tmp_path,
        input=HEAD + "void f(){}\n",
    )
    assert _stale_paths(done.stdout) == ["a.cu"], done.stdout


@pytest.mark.slow
def test_prune_shrinks_stale_entries_and_accepts_nothing_new(tmp_path, hipport_run):
    two = HEAD + f"void f(){{ {BAD} {BAD} }}\n"
    before = _tree_with_baseline(tmp_path, hipport_run, {"a.cu": two, "b.cu": two, "c.cu": two})
    assert [e["count"] for e in before] == [2, 2, 2]
    (tmp_path / "a.cu").write_text(HEAD + f"void f(){{ {BAD} }}\n")  # one fixed
    (tmp_path / "b.cu").write_text(HEAD + "void f(){}\n")  # both fixed
    (tmp_path / "c.cu").write_text(two + f"void g(){{ {BAD} }}\n")  # one new
    pruned = hipport_run("baseline", ".", "--prune", "--no-cache", cwd=tmp_path)
    assert pruned.returncode == 0, pruned.stderr
    after = json.loads((tmp_path / BASELINE_NAME).read_text())["entries"]
    assert [(e["path"], e["count"]) for e in after] == [("a.cu", 1), ("c.cu", 2)]
    check = hipport_run("check", ".", "--no-cache", "--color", "never", cwd=tmp_path)
    assert check.returncode == 1 and "c.cu:3:" in check.stdout, check.stdout
    assert "stale baseline" not in check.stdout


def test_prune_needs_a_baseline(tmp_path, hipport_run):
    (tmp_path / "a.cu").write_text(HEAD)
    done = hipport_run("baseline", ".", "--prune", cwd=tmp_path)
    assert done.returncode == 2 and "no baseline to prune" in done.stderr
