"""`hipport check` (the CI gate), `hipport baseline` and `hipport rule`.

Exit codes, as ruff's: 0 clean, 1 findings at or above --fail-on (after the baseline),
2 usage or internal error.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

import click

from hipport.cli.output import output_options
from hipport.cli.translate import common_options, run_options
from hipport.report import FORMATS

FAIL_ON = ("error", "warning", "note", "never")


def _codes(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """--select/--ignore: repeatable and comma-separated."""
    return tuple(c.strip() for v in value for c in v.split(",") if c.strip())


def guarded(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn unexpected exceptions into `hipport: error: ...` and exit status 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("hipport: interrupted", err=True)
            sys.exit(2)
        except Exception as exc:  # noqa: BLE001 (the CLI's last line of defence)
            if os.environ.get("HIPPORT_DEBUG"):
                raise
            click.echo(f"hipport: error: {exc}", err=True)
            sys.exit(2)

    return wrapper


def _load_config(paths: tuple[Path, ...]):  # noqa: ANN202
    from hipport.config import ConfigError, load_config

    try:
        return load_config(list(paths))
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def _run(paths: tuple[Path, ...], config, values: dict[str, Any]):  # noqa: ANN001, ANN202
    from hipport.runner import run_paths

    # lexists: a symlink loop or a dangling link named here is a finding, not "missing"
    missing = [str(p) for p in paths if not os.path.lexists(p)]
    if missing:
        raise click.UsageError(f"no such file or directory: {', '.join(missing)}")
    opts = run_options(values, config)
    opts.progress = False
    # Only files named (as pre-commit passes them): read those and the cached project index.
    opts.index_only_cached = all(p.is_file() for p in paths)
    # the report reads results one at a time from the cache: memory stays flat with the tree
    opts.stream_results = True
    return run_paths(list(paths), config, opts)


def _selection(config, select: tuple[str, ...], ignore: tuple[str, ...]):  # noqa: ANN001, ANN202
    from hipport.report.model import Selection

    return Selection(severity=config.severity, select=select, ignore=ignore)


def _baseline_path(option: Path | None, no_baseline: bool, config) -> Path | None:  # noqa: ANN001
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


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(FORMATS)),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to FILE instead of standard output.",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default=None,
    help="Exit 1 when reported findings reach this severity (default: error).",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings fail the gate.")
@click.option(
    "--statistics", is_flag=True, help="Add per-family and per-API statistics (text and markdown)."
)
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Baseline file (default: .hipport-baseline.json in the current directory, "
    "then the project root).",
)
@click.option("--no-baseline", is_flag=True, help="Ignore any baseline.")
@click.option(
    "--select",
    multiple=True,
    callback=_codes,
    metavar="CODES",
    help="Only report these rule codes, code prefixes or names (comma-separated).",
)
@click.option(
    "--ignore",
    multiple=True,
    callback=_codes,
    metavar="CODES",
    help="Do not report these rule codes, code prefixes or names.",
)
@output_options
@common_options
@guarded
def check(
    paths: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    exit_zero: bool,
    statistics: bool,
    baseline_file: Path | None,
    no_baseline: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    **values: Any,
) -> None:
    """Report what cannot be ported to HIP for the target ROCm; exit 1 when findings reach
    --fail-on. Nothing is written except the reports. `hipport check -` checks one source
    read from standard input (name it with --stdin-filename)."""
    from dataclasses import replace

    from hipport.baseline import Baseline
    from hipport.cli import output as out
    from hipport.report import load_rules
    from hipport.report.model import build_report

    targets = out.destinations(fmt, output, values.pop("extra_reports"))
    out.check_writable(targets)
    from_stdin = tuple(str(p) for p in paths) == (out.STDIN,)
    stdin_filename = values.pop("stdin_filename")
    if out.STDIN in (str(p) for p in paths) and not from_stdin:
        raise click.UsageError("`-` (standard input) cannot be mixed with other paths")
    if stdin_filename and not from_stdin:
        raise click.UsageError("--stdin-filename needs `-` as the path")
    stdin_path = stdin_data = None
    if from_stdin:
        stdin_path, stdin_data = out.read_stdin_source(stdin_filename)
        paths = (stdin_path.parent if stdin_path.parent.is_dir() else Path.cwd(),)
    config = _load_config(paths)
    fail_on = fail_on or config.get("fail-on") or "error"
    if fail_on not in FAIL_ON:
        raise click.UsageError(f"fail-on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
    load_rules()
    baseline_at = _baseline_path(baseline_file, no_baseline, config)
    baseline = Baseline.load(baseline_at) if baseline_at else None
    if from_stdin:
        target = run_options(values, config).target
        result = out.stdin_result(stdin_path, stdin_data, config.root, config, target)
        summary, run_target = [result], target
    else:
        summary = _run(paths, config, values)
        run_target = summary.target
    report = build_report(
        summary,
        run_target,
        root=str(config.root),
        selection=_selection(config, select, ignore),
        baseline=baseline,
    )
    to_terminal = output is None and sys.stdout.isatty()
    options = out.render_options(values, fail_on, statistics, to_terminal)
    if from_stdin:
        relpath = result.path
        options = replace(options, sources=lambda p: stdin_data if p == relpath else None)
    out.write_reports(report, targets, options)
    if report.fails(fail_on) and not exit_zero:
        sys.exit(1)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write it (default: .hipport-baseline.json in the current directory).",
)
@common_options
@guarded
def baseline(paths: tuple[Path, ...], baseline_file: Path | None, **values: Any) -> None:
    """Record the current findings in a baseline, so `check` fails only on new ones."""
    from hipport.baseline import BASELINE_NAME, Baseline
    from hipport.report import load_rules
    from hipport.report.model import build_report

    config = _load_config(paths)
    load_rules()
    summary = _run(paths, config, values)
    report = build_report(
        summary, summary.target, root=str(config.root), selection=_selection(config, (), ())
    )
    target = baseline_file or Path.cwd() / BASELINE_NAME
    recorded = Baseline.from_findings(report.findings)
    recorded.write(target)
    click.echo(
        f"hipport: wrote {target} ({len(report.findings)} findings in "
        f"{len(recorded.counts)} entries)",
        err=True,
    )


@click.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@guarded
def rule(code: str | None, show_all: bool, fmt: str) -> None:
    """Explain a rule (by code, e.g. HIP001, or name, e.g. unsupported-api): what it finds,
    why it matters, an example and how to fix it."""
    from hipport.findings import RULES, rule_by_code_or_name
    from hipport.report import load_rules
    from hipport.report.model import rule_dict

    load_rules()
    if show_all == bool(code):
        raise click.UsageError("give a rule CODE or --all")
    if show_all:
        infos = [RULES[c] for c in sorted(RULES)]
    else:
        info = rule_by_code_or_name(code or "")
        if info is None:
            raise click.UsageError(f"unknown rule {code!r} (hipport rule --all lists them)")
        infos = [info]
    if fmt == "json":
        data = [rule_dict(i) for i in infos]
        click.echo(json.dumps(data if show_all else data[0], indent=2))
        return
    if show_all:
        width = max(len(i.name) for i in infos)
        for i in infos:
            click.echo(f"{i.code}  {i.name:<{width}}  {i.severity.value:<7}  {i.summary}")
        return
    click.echo(explain(infos[0]))


def explain(info) -> str:  # noqa: ANN001
    indent = "    "

    def block(text: str) -> str:
        return "\n".join(indent + line for line in text.splitlines())

    return (
        f"{info.code} {info.name} (default severity: {info.severity.value})\n\n"
        f"What it finds\n{block(info.summary)}\n\n"
        f"Why it matters\n{block(info.why)}\n\n"
        f"Example\n{block(info.example)}\n\n"
        f"How to fix it\n{block(info.fix)}\n"
    )
