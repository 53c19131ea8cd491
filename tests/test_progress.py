"""The progress bar (issue 28 item 6): check, translate, shim and verify draw it on standard
error when that is a terminal outside CI, or when --progress asks; --no-progress and CI
turn it off; it never touches the report or the translation on standard output.

Standard error is a real pseudo-terminal here (rich decides by isatty, as users' shells do);
standard output is a pipe, as in `hipport check . > report.txt`."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.terminal_support import read_terminal

EXAMPLE = ROOT / "examples" / "saxpy_project"
pytestmark = pytest.mark.slow  # a dozen CLI runs


def run_with_terminal_stderr(args: list[str], cwd, extra_env: dict[str, str]):
    """Run hipport with stderr on a pseudo-terminal and stdout on a pipe: (stdout, what the
    terminal showed, exit code)."""
    env = dict(os.environ)
    env.pop("CI", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["TERM"] = "xterm-256color"
    env["COLUMNS"] = "100"
    env.update(extra_env)
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hipport", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=follower,
    )
    os.close(follower)
    terminal = read_terminal(leader, proc)
    return proc.stdout.read(), terminal.decode("utf-8", "replace"), proc.returncode


COMMANDS = {
    "check": (["check", ".", "--no-cache", "--color", "never"], "checking"),
    "translate": (["translate", ".", "--diff", "--no-cache"], "translating"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_terminal_gets_a_bar_and_the_report_is_unchanged(command):
    args, label = COMMANDS[command]
    out, terminal, code = run_with_terminal_stderr(args, EXAMPLE, {})
    assert label in terminal, terminal
    # MofNCompleteColumn: the file count the run went through, e.g. "5/5"
    assert "/" in terminal.split(label, 1)[1]
    quiet_out, quiet_terminal, quiet_code = run_with_terminal_stderr(
        [*args, "--no-progress"], EXAMPLE, {}
    )
    assert label not in quiet_terminal
    assert (out, code) == (quiet_out, quiet_code)
    assert out  # the report or the diff is there, on stdout


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_ci_turns_the_bar_off_unless_asked(command):
    args, label = COMMANDS[command]
    _, terminal, _ = run_with_terminal_stderr(args, EXAMPLE, {"CI": "true"})
    assert label not in terminal
    _, asked, _ = run_with_terminal_stderr([*args, "--progress"], EXAMPLE, {"CI": "true"})
    assert label in asked


def test_shim_draws_the_bar_while_it_reads_the_sources(tmp_path):
    _, terminal, code = run_with_terminal_stderr(
        ["shim", ".", "-o", str(tmp_path / "shim"), "--no-cache"], EXAMPLE, {}
    )
    assert "reading sources" in terminal
    assert (tmp_path / "shim" / "hipport_shim.h").is_file()
    assert code in (0, 1)  # 1: check reports an error a header cannot fix


def test_a_pipe_gets_no_bar():
    proc = subprocess.run(
        [sys.executable, "-m", "hipport", "check", ".", "--no-cache", "--color", "never"],
        cwd=EXAMPLE,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CI": ""},
        capture_output=True,
        text=True,
    )
    assert "checking" not in proc.stderr
