"""One findings policy: `check` and `translate --fail-on` give the same verdict on the same
files (suppressions, --select/--ignore, severity overrides, the baseline), through the
real CLI. The pre-commit hook's side (real pre-commit) is in tests/test_precommit.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import main

PTX = b"""#include <cuda_runtime.h>
__device__ unsigned lane_id() {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}
"""
PTX_SUPPRESSED = PTX.replace(b': "=r"(lane));', b': "=r"(lane));  // hipport: ignore[HIP101]')
PTX_SUPPRESSED_BY_NAME = PTX.replace(
    b': "=r"(lane));', b': "=r"(lane));  // hipport: ignore[inline-ptx]'
)
UNPORTED = b"""#include <cuda_runtime.h>
int main() {
  cudaInitDevice(0, 0, 0);
  return 0;
}
"""


@pytest.fixture
def tree(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / ".hipport.toml").write_text("")
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def verdicts(*args: str) -> dict[str, int]:
    """The exit code of check and of translate --fail-on error on src/ with `args`."""
    runner = CliRunner()
    check = runner.invoke(main, ["check", "src", "--fail-on", "error", *args])
    translate = runner.invoke(
        main, ["translate", "src", "--stdout", "-q", "--fail-on", "error", *args]
    )
    assert check.exit_code in (0, 1), check.output
    assert translate.exit_code in (0, 1), translate.output
    return {"check": check.exit_code, "translate": translate.exit_code}


CASES = {
    # name: (source, extra args, expected verdict)
    "ptx": (PTX, (), 1),
    "ptx suppressed by code": (PTX_SUPPRESSED, (), 0),  # translate failed it before
    "ptx suppressed by name": (PTX_SUPPRESSED_BY_NAME, (), 0),
    "unported": (UNPORTED, (), 1),
    "unported, another code selected": (UNPORTED, ("--select", "HIP002"), 0),
    "unported, its code selected": (UNPORTED, ("--select", "HIP001"), 1),
    "unported, prefix selected": (UNPORTED, ("--select", "HIP0"), 1),
    "unported, ignored by name": (UNPORTED, ("--ignore", "unsupported-api"), 0),
}


@pytest.mark.parametrize("case", CASES)
def test_check_and_translate_agree(tree: Path, case: str) -> None:
    source, args, expected = CASES[case]
    (tree / "src" / "a.cu").write_bytes(source)
    assert verdicts(*args) == {"check": expected, "translate": expected}


@pytest.mark.parametrize(
    ("severity", "expected"), [("off", 0), ("warning", 0), ("error", 1), ("note", 0)]
)
def test_configured_severity_gives_one_verdict(tree: Path, severity: str, expected: int) -> None:
    (tree / ".hipport.toml").write_text(f'[severity]\nunsupported-api = "{severity}"\n')
    (tree / "src" / "a.cu").write_bytes(UNPORTED)
    assert verdicts() == {"check": expected, "translate": expected}


def test_the_baseline_gives_one_verdict(tree: Path) -> None:
    (tree / "src" / "a.cu").write_bytes(UNPORTED)
    assert verdicts() == {"check": 1, "translate": 1}
    made = CliRunner().invoke(main, ["baseline", "src"])
    assert made.exit_code == 0, made.output
    assert verdicts() == {"check": 0, "translate": 0}
    assert verdicts("--no-baseline") == {"check": 1, "translate": 1}
    # a new finding the baseline does not cover fails both
    (tree / "src" / "b.cu").write_bytes(UNPORTED)
    assert verdicts() == {"check": 1, "translate": 1}


def test_an_unused_suppression_is_a_finding_in_both(tree: Path) -> None:
    """HIP201 (a warning) counts alike: --fail-on warning fails both on a stale comment."""
    (tree / "src" / "a.cu").write_bytes(b"int x;  // hipport: ignore[HIP001]\n")
    runner = CliRunner()
    check = runner.invoke(main, ["check", "src", "--fail-on", "warning"])
    translate = runner.invoke(main, ["translate", "src", "--stdout", "--fail-on", "warning"])
    assert (check.exit_code, translate.exit_code) == (1, 1), check.output + translate.output
    assert "HIP201" in check.output


def test_exit_code_follows_fail_on():
    from hipport.findings import Finding, Location, Severity
    from hipport.policy import FAIL_LEVELS, exit_code

    warning = Finding("HIP201", Severity.WARNING, "m", Location("a", 1, 1, 1, 1))
    assert [exit_code([warning], level) for level in FAIL_LEVELS] == [0, 1, 1, 0]
    assert [exit_code([], level) for level in FAIL_LEVELS] == [0, 0, 0, 0]
