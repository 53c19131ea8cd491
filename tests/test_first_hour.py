"""The README's "Your first hour" walkthrough matches what hipport prints (issue 28 item 9):
each ```console block's `$ ` lines run in order, in a copy of the repository's example
(`cd` moves), with `hipport` as this checkout's CLI; the lines after a command are lines of
its output in that order, `…` alone stands for any lines, `…` inside a line for any text; a
trailing `# exit N` is the exit code (else 0)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # a handful of whole-example runs


def walkthrough() -> list[tuple[str, int, list[str]]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Your first hour", 1)[1].split("\n## ", 1)[0]
    steps: list[tuple[str, int, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", section, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                command, _, comment = line[2:].partition("  # exit ")
                steps.append((command.strip(), int(comment or 0), []))
            else:
                steps[-1][2].append(line)
    return steps


def matches(expected: list[str], actual: list[str]) -> bool:
    """`expected` is a subsequence of `actual` where `…` lines skip; other expected lines
    must follow one another unless a `…` line separates them."""
    pos, gap = 0, False
    for want in expected:
        if want == "…":
            gap = True
            continue
        pattern = re.compile(".*".join(map(re.escape, want.split("…"))))
        while pos < len(actual) and not pattern.fullmatch(actual[pos]):
            if not gap:
                return False
            pos += 1
        if pos == len(actual):
            return False
        pos, gap = pos + 1, False
    return True


def test_the_walkthrough_has_steps() -> None:
    steps = walkthrough()
    assert len(steps) >= 6 and any(code == 1 for _, code, _ in steps)


def test_the_matcher_rejects_what_is_not_printed() -> None:
    assert matches(["a", "…", "c"], ["a", "b", "c"])
    assert not matches(["a", "c"], ["a", "b", "c"])
    assert matches(["x … z"], ["x y z"]) and not matches(["x … z"], ["x y"])


def test_the_readme_walkthrough_prints_what_it_says(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples" / "saxpy_project", tmp_path / "examples" / "saxpy_project")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HIPPORT_CACHE_DIR": str(tmp_path / ".c")}
    env.pop("CI", None)
    env["COLUMNS"] = "200"
    cwd = tmp_path
    for command, code, expected in walkthrough():
        argv = shlex.split(command)
        if argv[0] == "cd":
            cwd = cwd / argv[1]
            continue
        assert argv[0] == "hipport", command
        proc = subprocess.run(
            [sys.executable, "-m", "hipport", *argv[1:]],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        printed = (proc.stdout + proc.stderr).splitlines()
        assert proc.returncode == code, (command, proc.stderr)
        assert matches(expected, printed), (command, expected, printed)
