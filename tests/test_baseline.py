"""The baseline: keyed by file + rule + API + count, valid across line shifts, new findings
beyond the count fail, stale entries listed."""

from __future__ import annotations

import json

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
