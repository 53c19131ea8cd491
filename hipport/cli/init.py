"""`hipport init`: write a starter configuration and show the pre-commit snippet.

The user's files are only ever appended to: an existing `[tool.hipport]` (or `.hipport.toml`)
is left as it is, and the rest of `pyproject.toml` keeps every byte. The appended text is
parsed and validated before anything is written, so a project never ends up with a
configuration hipport itself rejects.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import click

from hipport.cli.options import _version

# Where pre-commit fetches the hooks from; users of a mirror change this line.
HOOK_REPO = "https://github.com/hipport/hipport"

# One template for both files: {t} is the table prefix ("tool.hipport." in pyproject.toml,
# "" in .hipport.toml, where the keys sit at the top level).
TEMPLATE = """\
{header}# hipport settings: keys are the command-line options' names; the command line wins.
# `hipport rule CODE` explains a rule code.
rocm = "{rocm}"                # the ROCm/HIP release the port must build with
# cuda = "12.4"                  # the CUDA release the code is written for
# exclude = ["third_party/**", "build/**"]   # on top of .gitignore
# include = ["src/**"]
# disable-mappings = ["cudaMallocManaged"]   # CUDA names to leave alone
# fail-on = "error"              # error | warning | note | never
# baseline = ".hipport-baseline.json"
# launch-syntax = "cuda"         # keep <<<...>>> (cuda) or use hipLaunchKernelGGL (hip)

# The project's own wrappers: CUDA-side name -> HIP-side name.
# [{t}renames]
# CUDA_CHECK = "HIP_CHECK"

# Rule code or name -> error | warning | note | off.
# [{t}severity]
# HIP004 = "warning"

# Glob -> rule codes or CUDA names not applied there.
# [{t}per-path-ignore]
# "legacy/**" = ["HIP004", "CUDA_CHECK"]
"""

PRE_COMMIT_SNIPPET = """\
repos:
  - repo: {repo}
    rev: v{version}
    hooks:
      - id: hipport-check
      # - id: hipport-translate   # rewrites CUDA to HIP in place
"""


@click.command()
@click.argument(
    "directory",
    required=False,
    default=".",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
)
@click.option(
    "--rocm",
    metavar="VERSION",
    callback=_version,
    help="The ROCm release to write as the target (default: the newest in the tables).",
)
@click.option("--dry-run", is_flag=True, help="Print what would be written; write nothing.")
def init(directory: Path, rocm, dry_run: bool) -> int:
    """Write a starter [tool.hipport] configuration in DIRECTORY (default: here).

    Into pyproject.toml when there is one, else a new .hipport.toml. Existing settings are
    never overwritten: if the project already configures hipport, nothing is written. Then
    prints the .pre-commit-config.yaml snippet that runs `hipport check` on every commit.
    """
    from hipport.config import ConfigError

    try:
        plan = plan_init(directory, str(rocm or _newest_rocm()))
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    if plan.text is None:
        click.echo(f"hipport: {plan.path} already configures hipport; left as it is")
    elif dry_run:
        click.echo(
            f"hipport: would append to {plan.path}:"
            if plan.path.exists()
            else f"hipport: would create {plan.path}:"
        )
        click.echo(plan.text.decode("utf-8"), nl=False)
    else:
        existed = plan.path.exists()
        write_plan(plan)
        click.echo(f"hipport: {'added [tool.hipport] to' if existed else 'wrote'} {plan.path}")
    click.echo("\nAdd this to .pre-commit-config.yaml to check every commit:\n")
    click.echo(pre_commit_snippet(), nl=False)
    return 0


class Plan:
    """What init would do: append `text` to `path` (or create it); `text` None: nothing."""

    def __init__(self, path: Path, text: bytes | None, before: bytes = b"") -> None:
        self.path, self.text, self.before = path, text, before


def plan_init(directory: Path, rocm: str) -> Plan:
    """Decide where the starter configuration goes and what it says (pure but for reads)."""
    from hipport.config import ConfigError, _read, _validate

    dotfile = directory / ".hipport.toml"
    pyproject = directory / "pyproject.toml"
    if dotfile.exists():
        return Plan(dotfile, None)  # it governs over pyproject.toml, whatever it holds
    if not pyproject.exists():
        text = TEMPLATE.format(header="", t="", rocm=rocm).encode()
        _validate(tomllib.loads(text.decode()), dotfile)
        return Plan(dotfile, text)
    before = pyproject.read_bytes()
    if _read(pyproject) is not None:  # raises ConfigError on invalid TOML
        return Plan(pyproject, None)
    newline = b"\r\n" if b"\r\n" in before else b"\n"
    section = TEMPLATE.format(header="[tool.hipport]\n", t="tool.hipport.", rocm=rocm)
    sep = b"" if not before or before.endswith(b"\n") else newline
    text = sep + (newline if before.strip() else b"") + section.encode().replace(b"\n", newline)
    try:
        after = tomllib.loads((before + text).decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{pyproject}: cannot add [tool.hipport] to this file ({exc}); "
            f"add it by hand or use .hipport.toml"
        ) from None
    _validate(after["tool"]["hipport"], pyproject)
    return Plan(pyproject, text, before)


def write_plan(plan: Plan) -> None:
    from hipport.fsio import atomic_write

    assert plan.text is not None
    if plan.path.exists() and plan.path.read_bytes() != plan.before:
        raise click.ClickException(f"{plan.path} changed while hipport init ran; run it again")
    atomic_write(plan.path, plan.before + plan.text)


def pre_commit_snippet() -> str:
    from hipport import __version__

    return PRE_COMMIT_SNIPPET.format(repo=HOOK_REPO, version=__version__)


def _newest_rocm():
    from hipport.tables import load_tables

    return load_tables().newest_rocm
