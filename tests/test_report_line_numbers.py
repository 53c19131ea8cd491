"""Line numbers stay numbers: rich turns ":100:" into an emoji unless told not to, so a
finding at line 100 printed as "a.cu💯23" and one at 1234 as "a.cu🔢5" (issue 28). Every
text layout, with colour on and off, on stdout and in an `-o` file, must print
"a.cu:100:23:"; the summary on stderr must print a path holding an emoji code as it is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

UNKNOWN = "cudaFooBarBaz"  # looks like CUDA, in no table: a HIP004 error at its column
LINE = f"void f() {{ int x = 0; {UNKNOWN}(&x); }}"
COLUMN = LINE.index(UNKNOWN) + 1


def _tree(tmp_path: Path, lines: int) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_text("// filler\n" * (lines - 1) + LINE + "\n")
    return src


def _check(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "hipport", "check", "--no-cache", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


@pytest.mark.parametrize("line", [100, 1234])
@pytest.mark.parametrize("layout", ["full", "concise", "grouped"])
@pytest.mark.parametrize("color", ["always", "never"])
@pytest.mark.slow
def test_line_number_prints_as_digits(tmp_path: Path, line: int, layout: str, color: str) -> None:
    src = _tree(tmp_path, line)
    args = ("a.cu", "--output-format", layout, "--color", color)
    shown = _check(src, *args)
    assert shown.returncode == 1, shown.stderr
    report = tmp_path / "report.txt"
    written = _check(src, *args, "-o", str(report))
    assert written.returncode == 1, written.stderr
    expected = f":{line}:{COLUMN}:" if layout != "grouped" else f" {line}:{COLUMN} "
    for text in (shown.stdout, report.read_text(encoding="utf-8")):
        assert expected in text, text
        assert "\N{HUNDRED POINTS SYMBOL}" not in text
        assert "\N{INPUT SYMBOL FOR NUMBERS}" not in text


@pytest.mark.slow
def test_summary_prints_emoji_codes_in_paths_as_text(tmp_path: Path) -> None:
    src = _tree(tmp_path, 3)
    odd = src / ":fire:"
    odd.mkdir()
    (odd / "b.cu").write_text(LINE + "\n")
    result = _check(src, ".")
    assert result.returncode == 1, result.stderr
    both = result.stdout + result.stderr
    assert "top files      :fire:/b.cu (1 E, 0 W)" in both
    assert "\N{FIRE}" not in both
