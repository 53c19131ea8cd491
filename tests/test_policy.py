"""One findings policy: `check` and `translate --fail-on` give the same verdict on the same
files (suppressions, --select/--ignore, severity overrides, the baseline), through the
real CLI. The pre-commit hook's side (real pre-commit) is in tests/test_precommit.py."""

from __future__ import annotations

import os
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


@pytest.mark.slow
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


# --- words that name no rule are usage errors (exit 2), never a silent pass -------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--select", "HIP999"], "--select: unknown rule 'HIP999'"),
        (["--select", "unsuported-api"], "did you mean unsupported-api?"),
        (["--ignore", "HIP9"], "--ignore: unknown rule 'HIP9'"),
        (["--select", "HIP001,no-such-rule"], "unknown rule 'no-such-rule'"),
    ],
)
def test_an_unknown_rule_in_select_or_ignore_is_a_usage_error(
    tree: Path, args: list[str], message: str
) -> None:
    (tree / "src" / "a.cu").write_bytes(UNPORTED)
    runner = CliRunner()
    for command in (["check", "src"], ["translate", "src", "--stdout", "--fail-on", "error"]):
        result = runner.invoke(main, [*command, *args])
        assert result.exit_code == 2, result.output
        assert message in result.output


@pytest.mark.parametrize("prefix", ["HIP0", "HIP10", "ALL", "hip001", "inline-ptx"])
def test_code_prefixes_and_names_are_accepted(tree: Path, prefix: str) -> None:
    (tree / "src" / "a.cu").write_bytes(UNPORTED)
    result = CliRunner().invoke(main, ["check", "src", "--select", prefix])
    assert result.exit_code in (0, 1), result.output


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('[severity]\nHIP999 = "off"\n', "severity: unknown rule 'HIP999'"),
        ('[severity]\nunsupported-apis = "off"\n', "did you mean unsupported-api?"),
        ('[per-path-ignore]\n"src/**" = ["HIP0001"]\n', "per-path-ignore 'src/**'"),
    ],
)
def test_an_unknown_rule_in_the_configuration_is_a_usage_error(
    tree: Path, config: str, message: str
) -> None:
    (tree / ".hipport.toml").write_text(config)
    (tree / "src" / "a.cu").write_bytes(UNPORTED)
    runner = CliRunner()
    for command in (["check", "src"], ["translate", "src", "--stdout", "--fail-on", "error"]):
        result = runner.invoke(main, command)
        assert result.exit_code == 2, result.output
        assert message in result.output


def test_per_path_cuda_names_are_not_rule_codes(tree: Path) -> None:
    (tree / ".hipport.toml").write_text('[per-path-ignore]\n"src/**" = ["CUDA_CHECK"]\n')
    (tree / "src" / "a.cu").write_bytes(UNPORTED)
    assert CliRunner().invoke(main, ["check", "src"]).exit_code == 1


@pytest.mark.parametrize(
    ("comment", "message"),
    [
        ("// hipport: ignore[HIP01]", "unknown rule 'HIP01' (did you mean HIP001"),
        ("// hipport: ignore[HIP0001]", "unknown rule 'HIP0001' (did you mean HIP001"),
        ("// hipport: ignore[no-such-rule]", "unknown rule 'no-such-rule'"),
        ("// hipport: ignore[HIP001", "unclosed `[`"),
        ("/* hipport: ignore-next-line[HIP001 */", "unclosed `[`"),
    ],
)
@pytest.mark.slow
def test_a_broken_inline_suppression_is_a_finding_and_the_run_goes_on(
    tree: Path, comment: str, message: str
) -> None:
    """Before, an unclosed `ignore[HIP001` silenced every rule on its line; then a broken
    comment stopped the whole run with exit 2 and no report (issue 28). Now it is a HIP206
    finding, it silences nothing, and every other file is still reported."""
    source = UNPORTED.replace(b"0, 0, 0);", b"0, 0, 0);  " + comment.encode())
    (tree / "src" / "a.cu").write_bytes(source)
    (tree / "src" / "b.cu").write_bytes(UNPORTED)
    runner = CliRunner()
    result = runner.invoke(main, ["check", "src"])
    assert result.exit_code == 1, result.output
    assert message in result.output and "[HIP206]" in result.output
    assert "src/a.cu:3:3: error: cudaInitDevice" in result.output  # not silenced
    assert "src/b.cu:3:3: error: cudaInitDevice" in result.output
    result = runner.invoke(main, ["translate", "src", "--stdout", "--fail-on", "error"])
    assert result.exit_code == 1, result.output
    assert "HIP206 invalid-suppression" in result.output and "===== b.cu =====" in result.output


def test_jobs_is_capped_by_the_cores_the_files_and_a_maximum():
    from hipport.runner.pool import MAX_JOBS, worker_count

    cores = len(os.sched_getaffinity(0))
    assert worker_count(8, 3) == min(3, cores)
    assert worker_count(100_000, 10_000) == min(MAX_JOBS, cores)  # jobs = 100000 in a config
    assert worker_count(0, 1) == 1
    assert worker_count(2, 100) == min(2, cores)
