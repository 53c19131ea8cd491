"""What `check` and `translate --fail-on` share to reach one verdict: the findings
policy's options (--select, --ignore, --baseline, --no-baseline) and turning them, with
the configuration, into a Selection and a Baseline for hipport.policy."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click


def _codes(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """--select/--ignore: repeatable and comma-separated."""
    return tuple(c.strip() for v in value for c in v.split(",") if c.strip())


def policy_options(baseline_help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--baseline, --no-baseline, --select, --ignore."""
    options = [
        click.option(
            "--baseline",
            "baseline_file",
            type=click.Path(dir_okay=False, path_type=Path),
            help=baseline_help,
        ),
        click.option("--no-baseline", is_flag=True, help="Ignore any baseline."),
        click.option(
            "--select",
            multiple=True,
            callback=_codes,
            metavar="CODES",
            help="Only report these rule codes, code prefixes or names (comma-separated).",
        ),
        click.option(
            "--ignore",
            multiple=True,
            callback=_codes,
            metavar="CODES",
            help="Do not report these rule codes, code prefixes or names.",
        ),
    ]

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def selection(config: Any, select: tuple[str, ...], ignore: tuple[str, ...]) -> Any:
    """The Selection of the options and configuration; a word that names no rule is a
    usage error (exit 2, with the nearest rule names)."""
    from hipport.policy import PolicyError, Selection, check_configured_rules

    try:
        check_configured_rules(config)
        return Selection(
            severity=config.severity,
            select=config.selected(select),
            ignore=config.ignored(ignore),
            vendored=config.vendored,
        ).check()
    except PolicyError as exc:
        raise click.UsageError(str(exc)) from None


def baseline_path(option: Path | None, no_baseline: bool, config: Any) -> Path | None:
    """--baseline, else the configuration's `baseline`, else .hipport-baseline.json in the
    current directory or the project root; None with --no-baseline or when there is none."""
    from hipport.baseline import find_baseline

    if no_baseline:
        return None
    if option is not None:
        if not option.is_file():
            raise click.UsageError(
                f"baseline {option} does not exist (write it with "
                f"`hipport baseline PATH... --baseline {option}`)"
            )
        return option
    configured = config.get("baseline")
    if configured:
        path = Path(configured)
        path = path if path.is_absolute() else config.root / path
        return path if path.is_file() else None
    return find_baseline(Path.cwd(), config.root)


def load_baseline(option: Path | None, no_baseline: bool, config: Any) -> Any:
    from hipport.baseline import Baseline

    found = baseline_path(option, no_baseline, config)
    return Baseline.load(found) if found else None
