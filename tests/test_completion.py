"""Shell completion (issue 28 item 9): click's, as the README documents it. The scripts the
README tells users to eval come out of the installed command's entry point; completing
`hipport ch` gives `check`, `check --format s` gives `sarif`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

# what the `hipport` console script runs (pyproject's [project.scripts]), named as it is
ENTRY = [sys.executable, "-c", "from hipport.cli import main; main(prog_name='hipport')"]


def complete(shell: str, words: str | None = None) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "_HIPPORT_COMPLETE": f"{shell}_source"}
    if words is not None:
        parts = words.split(" ")
        env.update(
            _HIPPORT_COMPLETE=f"{shell}_complete", COMP_WORDS=words, COMP_CWORD=str(len(parts) - 1)
        )
    proc = subprocess.run(ENTRY, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize(
    "shell,marker",
    [
        ("bash", "complete -o nosort -F _hipport_completion hipport"),
        ("zsh", "compdef _hipport_completion hipport"),
        ("fish", "complete --no-files --command hipport"),
    ],
)
def test_the_readme_scripts(shell: str, marker: str) -> None:
    assert marker in complete(shell)
    readme = (ROOT / "README.md").read_text()
    assert f"_HIPPORT_COMPLETE={shell}_source hipport" in readme


def test_bash_completes_commands_options_and_choices() -> None:
    assert "plain,check" in complete("bash", "hipport ch").splitlines()
    assert "plain,--output-format" in complete("bash", "hipport check --output-f").splitlines()
    assert "plain,sarif" in complete("bash", "hipport check --format s").splitlines()
