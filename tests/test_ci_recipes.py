"""The CI recipes in docs/ci/ name only hipport commands and options that exist."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import click
import pytest
import yaml

from hipport.cli import main

RECIPES = Path(__file__).resolve().parent.parent / "docs" / "ci"


def shell_lines(recipe: Path) -> list[str]:
    """Every shell line the recipe runs: `run:`/`script:` values in YAML, lines in shell."""
    if recipe.suffix == ".sh":
        return recipe.read_text().splitlines()
    lines: list[str] = []

    def walk(node, key: str | None = None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for item in node:
                walk(item, key)
        elif isinstance(node, str) and key in ("run", "script", "before_script"):
            lines.extend(node.splitlines())

    walk(yaml.safe_load(recipe.read_text()))
    return lines


def hipport_commands(recipe: Path) -> list[list[str]]:
    out = []
    for line in shell_lines(recipe):
        words = shlex.split(line, comments=True)
        if words and words[0] == "hipport":
            out.append(words[1:])
    return out


def parse(args: list[str]) -> click.Context:
    """Parse like the real CLI (options, choices, required arguments), without running."""
    name, rest = args[0], args[1:]
    with main.make_context("hipport", [name], resilient_parsing=True) as group_ctx:
        command = main.get_command(group_ctx, name)
        assert command is not None, f"no command `hipport {name}`"
        return command.make_context(name, rest, parent=group_ctx)


@pytest.mark.parametrize("recipe", ["github-actions.yml", "gitlab-ci.yml", "ci-shell.sh"])
def test_every_hipport_command_parses(recipe: str) -> None:
    commands = hipport_commands(RECIPES / recipe)
    assert commands, f"{recipe} runs no hipport command"
    for args in commands:
        try:
            parse(args)
        except click.UsageError as exc:
            pytest.fail(f"{recipe}: `hipport {shlex.join(args)}`: {exc.format_message()}")


def test_the_parser_rejects_what_does_not_exist() -> None:
    """The check above has teeth."""
    with pytest.raises(click.UsageError):
        parse(["check", ".", "--format", "sarif2"])
    with pytest.raises(click.UsageError):
        parse(["check", ".", "--no-such-flag"])
    with pytest.raises(AssertionError):
        parse(["no-such-command", "."])


def reports_of(args: list[str]) -> dict[str, str | None]:
    """format -> path of every report one `hipport check` writes (None: stdout)."""
    out: dict[str, str | None] = {
        _option(args, "--format") or "text": _option(args, "-o", "--output")
    }
    for i, word in enumerate(args):
        if word == "--report" and i + 1 < len(args):
            fmt, _, path = args[i + 1].partition("=")
            out[fmt] = path
    return out


# The newest major version of each action in December 2026 (their release pages; the
# CodeQL Action deprecates v3 in December 2026).
PINNED = {
    "actions/checkout": "v6",
    "actions/setup-python": "v6",
    "actions/cache": "v5",
    "github/codeql-action/upload-sarif": "v4",
}


@pytest.mark.parametrize("recipe", ["github-actions.yml", "gitlab-ci.yml", "ci-shell.sh"])
def test_each_recipe_checks_once(recipe: str) -> None:
    checks = [c for c in hipport_commands(RECIPES / recipe) if c[0] == "check"]
    assert len(checks) == 1, f"{recipe} runs the check {len(checks)} times"


def test_github_workflow_uploads_the_sarif_it_writes() -> None:
    workflow = yaml.safe_load((RECIPES / "github-actions.yml").read_text())
    job = next(iter(workflow["jobs"].values()))
    steps = job["steps"]
    (check,) = [c for c in hipport_commands(RECIPES / "github-actions.yml") if c[0] == "check"]
    reports = reports_of(check)
    assert reports.get("github", "missing") is None  # annotations on stdout
    upload = next(
        s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")
    )
    assert upload["with"]["sarif_file"] == reports["sarif"]
    assert upload.get("if") == "always()"
    assert _option(check, "--exit-zero") is None and "--exit-zero" not in check  # the gate
    assert job["permissions"]["security-events"] == "write"
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads `on` as True
    assert "pull_request" in triggers


def test_github_workflow_pins_current_actions_and_caches_hipport() -> None:
    workflow = yaml.safe_load((RECIPES / "github-actions.yml").read_text())
    job = next(iter(workflow["jobs"].values()))
    uses = {s["uses"].split("@")[0]: s["uses"].split("@")[1] for s in job["steps"] if "uses" in s}
    assert uses == PINNED
    cache = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/cache@"))
    assert cache["with"]["path"] == "${{ env.HIPPORT_CACHE_DIR }}"
    assert job["env"]["HIPPORT_CACHE_DIR"]
    assert "restore-keys" in cache["with"]  # a new commit starts from the last cache
    names = [s.get("uses", s.get("run", "")) for s in job["steps"]]
    check_at = next(i for i, n in enumerate(names) if n.startswith("hipport check"))
    assert names.index(cache["uses"]) < check_at  # restored before the check


def test_gitlab_job_reports_what_it_writes_and_caches_hipport() -> None:
    config = yaml.safe_load((RECIPES / "gitlab-ci.yml").read_text())
    job = config["hipport"]
    (check,) = [c for c in hipport_commands(RECIPES / "gitlab-ci.yml") if c[0] == "check"]
    reports = reports_of(check)
    assert job["artifacts"]["reports"]["junit"] == reports["junit"]
    assert job["artifacts"]["reports"]["codequality"] == reports["gitlab"]
    assert job["artifacts"]["when"] == "always"
    cache_dir = job["variables"]["HIPPORT_CACHE_DIR"]
    assert cache_dir.startswith("$CI_PROJECT_DIR/")  # GitLab caches only paths in the project
    relative = cache_dir.removeprefix("$CI_PROJECT_DIR/").rstrip("/") + "/"
    assert job["cache"]["paths"] == [relative]


def test_shell_recipe_is_valid_sh_and_keeps_the_exit_code() -> None:
    sh = shutil.which("sh")
    if sh is None:
        pytest.skip("no sh")
    recipe = RECIPES / "ci-shell.sh"
    done = subprocess.run([sh, "-n", str(recipe)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = recipe.read_text()
    assert 'exit "$status"' in text and "set -e\n" not in text


def test_recipes_exit_code_meanings_match_the_cli() -> None:
    """The shell recipe explains 0/1/2 as `hipport --help` does."""
    help_text = main.get_help(click.Context(main))
    assert "0 clean, 1 findings" in help_text and "2" in help_text


def _option(args: list[str], *names: str) -> str | None:
    for i, word in enumerate(args):
        for name in names:
            if word == name and i + 1 < len(args):
                return args[i + 1]
            if word.startswith(name + "="):
                return word.split("=", 1)[1]
    return None
