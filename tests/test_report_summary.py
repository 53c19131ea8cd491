"""The translate summary (hipport/report/summary.py): every code shown with its rule's
name (translate printed a bare HIP013 when the rule had not registered itself)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hipport.findings import RULES
from hipport.report.summary import minimum_rocm_line, rule_label
from hipport.target import Version


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_code_is_labelled_with_its_name(code: str) -> None:
    assert rule_label(code) == f"{code} {RULES[code].name}"


def test_an_unknown_code_is_shown_as_it_is() -> None:
    assert rule_label("HIP999") == "HIP999" and rule_label("") == ""


def test_minimum_rocm_line_names_at_most_five_deciders() -> None:
    apis = [f"hipApi{i}" for i in range(7)]
    line = minimum_rocm_line(Version.parse("6.2"), apis)
    assert line.endswith("6.2 (decided by hipApi0, hipApi1, hipApi2, hipApi3, hipApi4 ...)")
    assert "any" in minimum_rocm_line(None, [])


def test_a_real_translate_summary_names_each_rule(tmp_path: Path, subprocess_env) -> None:
    source = tmp_path / "a.cu"
    source.write_bytes(
        b"#include <cuda_runtime.h>\n"
        b"int main() {\n  cudaInitDevice(0, 0, 0);\n  cudaFrobnicate(0);\n  return 0;\n}\n"
    )
    env = subprocess_env | {"HIPPORT_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "hipport", "translate", str(source), "--stdout"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    labelled = [line for line in done.stderr.splitlines() if set(line.split()) & set(RULES)]
    assert labelled, done.stderr
    for line in labelled:
        code = next(w for w in line.split() if w in RULES)
        assert f"{code} {RULES[code].name}" in line, line
