"""`hipport check` (the CI gate), `hipport baseline` and `hipport rule`.

Exit codes (hipport.cli.errors): 0 clean, 1 findings at or above --fail-on (after the
findings policy, hipport.policy), 2 usage or internal error, 130 interrupted.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from hipport.cli.gate import load_baseline, policy_options, selection
from hipport.cli.output import output_options
from hipport.cli.translate import common_options, dash_hint, run_options
from hipport.policy import FAIL_LEVELS, exit_code
from hipport.report import FORMATS


def _load_config(paths: tuple[Path, ...]):
    from hipport.cli.options import load_config_for

    return load_config_for(list(paths))


def _run(paths: tuple[Path, ...], config, values: dict[str, Any], given=None, found=None):
    """The run over `paths`; `given` (a GivenSource, standard input): the one source, by
    content, run as that file named on the command line would be. `found`: discovery's
    answer, when the caller asked it already (_memo)."""
    from hipport.cli.progress import progress_bar
    from hipport.runner import run_paths

    opts = _check_options(paths, config, values, given)
    with progress_bar(values.get("progress"), "checking") as update:
        return run_paths(list(paths), config, opts, found=found, on_progress=update)


def _check_options(paths: tuple[Path, ...], config, values: dict[str, Any], given=None):
    # lexists: a symlink loop or a dangling link named here is a finding, not "missing"
    missing = [str(p) for p in paths if not os.path.lexists(p)] if given is None else []
    if missing:
        raise click.UsageError(
            f"no such file or directory: {', '.join(missing)}{dash_hint(missing)}"
        )
    opts = run_options(values, config)
    opts.given = given
    # Only files named (as pre-commit passes them): read those and the cached project index.
    opts.index_only_cached = given is not None or all(p.is_file() for p in paths)
    # the report reads results one at a time from the cache: memory stays flat with the tree
    opts.stream_results = True
    return opts


def _memo(paths, config, values, targets, invocation, baseline):
    """The run summary's slot for this check (hipport.runner.memo) and what discovery
    found, or (None, None) when the run is not one to summarise: no cache, a source from
    standard input or named files only (the hook reads just those), the semantic pass
    (it reads headers outside the tree), or a job summary to append to."""
    from hipport.cli.output import job_summary_wanted

    opts = _check_options(paths, config, values)
    if not opts.use_cache or opts.index_only_cached or opts.semantic:
        return None, None
    if job_summary_wanted(targets):
        return None, None
    from hipport.runner.discovery import discover_files
    from hipport.runner.memo import run_memo

    found = discover_files(list(paths), config, opts)
    memo = run_memo(invocation, found, config, baseline, opts.compile_commands)
    return memo, found


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
    help="Write the report to FILE instead of standard output (`-`: standard output).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_LEVELS),
    default=None,
    help="Exit 1 when reported findings reach this severity (default: error).",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings fail the gate.")
@click.option(
    "--statistics",
    type=click.Choice(["rules", "api"]),
    is_flag=False,
    flag_value="rules",
    default=None,
    help="Instead of the listing: one line per rule with its count, most first (as ruff's; "
    "`--statistics` alone), or `--statistics=api`: the per-family and per-API tables "
    "(text; markdown adds the API table).",
)
@click.option(
    "--show-branches",
    is_flag=True,
    help="Print each #if/#ifdef/#elif/#else arm of the FILEs with its verdict under the HIP "
    "build (live, dead, undecided) and the macros that decided it; no report.",
)
@click.option(
    "--show-settings",
    is_flag=True,
    help="Print the settings that apply to PATHS (the configuration file, the project root, "
    "every key with its value and the target) as JSON, and exit.",
)
@click.option(
    "--show-files",
    is_flag=True,
    help="Print the files a check of PATHS reads (after include, exclude, extend-exclude "
    "and the suffixes; vendored ones marked), one per line, and exit.",
)
@policy_options(
    "Baseline file (default: .hipport-baseline.json in the current directory, "
    "then the project root)."
)
@output_options
@common_options
def check(
    paths: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    fail_on: str | None,
    exit_zero: bool,
    statistics: str | None,
    show_branches: bool,
    show_settings: bool,
    show_files: bool,
    baseline_file: Path | None,
    no_baseline: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    **values: Any,
) -> int:
    """Report what cannot be ported to HIP for the target ROCm; exit 1 when findings reach
    --fail-on. Nothing is written except the reports. `hipport check -` checks one source
    read from standard input (name it with --stdin-filename)."""
    from dataclasses import replace

    from hipport.cli import output as out

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
    if show_branches:
        _show_branches(paths, config, values, stdin_path, stdin_data)
        return
    if show_settings:
        _show_settings(config, values, select, ignore)
        return
    if show_files:
        return _show_files(paths, config, values)
    fail_on = fail_on or config.get("fail-on") or "error"
    if fail_on not in FAIL_LEVELS:
        raise click.UsageError(f"fail-on must be one of {', '.join(FAIL_LEVELS)}, not {fail_on!r}")
    baseline = load_baseline(baseline_file, no_baseline, config)
    given = None
    if from_stdin:
        from hipport.runner import GivenSource

        given = GivenSource(stdin_path, stdin_data)
        paths = (Path(stdin_filename or os.path.relpath(stdin_path)),)  # as messages name it
    to_terminal = output is None and sys.stdout.isatty()
    options = out.render_options(values, fail_on, statistics, to_terminal)
    memo = found = None
    if given is None:
        invocation = {
            "command": "check",
            "paths": [str(p) for p in paths],
            "targets": [(d.fmt, str(d.path) if d.path else None) for d in targets],
            "fail_on": fail_on,
            "statistics": statistics,
            "select": select,
            "ignore": ignore,
            "values": sorted(values.items()),
            "render": repr(options),
        }
        memo, found = _memo(paths, config, values, targets, invocation, baseline)
        replay = memo.lookup() if memo is not None else None
        if replay is not None:  # nothing changed since: what that run printed, again
            out.write_rendered(targets, options, replay.outputs)
            _say_excluded(found.discovery.excluded if found is not None else {})
            return 0 if exit_zero else replay.code
    from hipport.report.model import build_report

    summary = _run(paths, config, values, given, found)
    report = build_report(
        summary,
        summary.target,
        root=str(config.root),
        selection=selection(config, select, ignore),
        baseline=baseline,
    )
    if given is not None:  # the renderers show its lines from the bytes given
        from hipport.policy import inputs_from

        shown = {item.relpath for item in inputs_from(summary)}
        options = replace(options, sources=lambda p: stdin_data if p in shown else None)
    written = out.write_reports(report, targets, options)
    _say_excluded(summary.excluded)
    code = exit_code(report.findings, fail_on)
    if memo is not None:
        from hipport.runner.memo import Replay

        # a report too long to keep (None) is made anew by the next run
        trusted = all(f.status != "failed" for f in summary.files) and all(
            text is not None for text, _ in written
        )
        memo.save(Replay(written, code), trusted)
    return 0 if exit_zero else code


def _say_excluded(excluded: dict[str, int]) -> None:
    """The sources the walk left out by default, counted on stderr (the report's bytes
    stay those of the files checked)."""
    from hipport.report.summary import excluded_line

    line = excluded_line(excluded)
    if line:
        click.echo(line, err=True)


def _show_branches(
    paths: tuple[Path, ...],
    config,
    values: dict[str, Any],
    stdin_path: Path | None,
    stdin_data: bytes | None,
) -> None:
    from hipport.engine import EngineOptions, explain_branches
    from hipport.runner.compile_db import load_compile_commands

    opts = run_options(values, config)
    try:
        compile_db = load_compile_commands(opts.compile_commands)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if stdin_path is not None and stdin_data is not None:
        sources = [(stdin_path, stdin_data)]
    else:
        if not all(p.is_file() for p in paths):
            raise click.UsageError("--show-branches takes files, not directories")
        sources = [(p, p.read_bytes()) for p in paths]
    headers, base = _project_headers(config, opts, compile_db)
    for path, data in sources:
        args = compile_db.get(os.path.realpath(path), ())
        options = EngineOptions(defines=opts.defines, compile_args=args, headers=headers)
        try:
            key = Path(os.path.abspath(path)).relative_to(base).as_posix()
        except ValueError:
            key = str(path)
        # lines name the file as the user named it (paths print relative to where they stand)
        for line in explain_branches(data, key, opts.target, options, shown=str(path)):
            click.echo(line)


def _project_headers(config: Any, opts: Any, compile_db: Any) -> tuple[Any, Path]:
    """The project's files under its root, for the model to follow #include into (as a
    run over the whole project would)."""
    from hipport.project import discover
    from hipport.runner.project_macros import project_headers

    # the configuration's directory, else where the command runs (a project's root, as a
    # run over `.` would take it)
    root = Path(config.root) if config.source is not None else Path.cwd()
    discovery = discover([root], suffixes=opts.suffixes)
    work = [f for f in discovery.files if f.kind != "other"]
    base = Path(os.path.abspath(discovery.base))
    headers = project_headers(
        work, discovery.base, opts.target, opts.defines, compile_db, opts.max_file_size
    )
    return headers, base


def _show_files(paths: tuple[Path, ...], config: Any, values: dict[str, Any]) -> int:
    """ruff's --show-files: what the run would read, as the report names files; the files
    discovery left out for a reason (unreadable, too large, ...) on standard error."""
    from hipport.project import display_path, match_globs
    from hipport.report.text import display_path as as_typed
    from hipport.runner.discovery import discover_files

    missing = [str(p) for p in paths if not os.path.lexists(p)]
    if missing:
        raise click.UsageError(
            f"no such file or directory: {', '.join(missing)}{dash_hint(missing)}"
        )
    found = discover_files(list(paths), config, run_options(values, config))
    vendored = list(config.vendored)
    cwd = os.getcwd()
    for f in found.work:
        shown = display_path(as_typed(str(f.path), cwd, cwd))
        mark = "  (vendored)" if vendored and match_globs(f.relpath, vendored) else ""
        click.echo(f"{shown}{mark}")
    for s in found.discovery.skipped:
        shown = display_path(as_typed(str(s.path), cwd, cwd))
        click.echo(f"hipport: skipped {shown}: {s.reason}", err=True)
    return 0


def _show_settings(config: Any, values: dict[str, Any], select: Any, ignore: Any) -> None:
    from hipport.config import KNOWN_KEYS
    from hipport.tables import load_tables

    target = run_options(values, config).target
    settings = {
        "config_file": str(config.source) if config.source else None,
        "root": str(config.root),
        "target": {
            "rocm": str(target.rocm or load_tables().newest_rocm),
            "cuda": str(target.cuda) if target.cuda else "any",
        },
        "select": list(config.selected(select)) or ["ALL"],
        "ignore": list(config.ignored(ignore)),
        "exclude": config.excluded,
        "per-path-ignore": config.per_path_ignore,
        "settings": {k: config.values[k] for k in sorted(KNOWN_KEYS) if k in config.values},
    }
    click.echo(json.dumps(settings, indent=2, sort_keys=False, default=str))


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write it (default: .hipport-baseline.json in the current directory; "
    "with --prune, the baseline check would use).",
)
@click.option(
    "--prune",
    is_flag=True,
    help="Only remove stale entries (work done since) from the existing baseline: no new "
    "finding is accepted. Entries of files not under PATHS are kept.",
)
@common_options
def baseline(
    paths: tuple[Path, ...], baseline_file: Path | None, prune: bool, **values: Any
) -> None:
    """Record the current findings in a baseline, so `check` fails only on new ones."""
    from hipport.baseline import BASELINE_NAME, Baseline, BaselineError, pruned
    from hipport.cli.gate import baseline_path
    from hipport.report.model import build_report

    config = _load_config(paths)
    old = None
    if prune:
        found = baseline_path(baseline_file, False, config)
        if found is None:
            raise click.UsageError("--prune: no baseline to prune (give --baseline FILE)")
        try:
            old = Baseline.load(found)
        except BaselineError as exc:
            raise click.UsageError(str(exc)) from None
        baseline_file = found
    summary = _run(paths, config, values)
    report = build_report(
        summary,
        summary.target,
        root=str(config.root),
        selection=selection(config, (), ()),
        baseline=old,
    )
    target = baseline_file or Path.cwd() / BASELINE_NAME
    if old is not None:
        recorded = pruned(old, report.stale)
        recorded.write(target)
        click.echo(
            f"hipport: pruned {target}: {len(report.stale)} stale entries shrunk or removed, "
            f"{len(recorded.counts)} entries left",
            err=True,
        )
        return
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
def rule(code: str | None, show_all: bool, fmt: str) -> None:
    """Explain a rule (by code, e.g. HIP001, or name, e.g. unsupported-api): what it finds,
    why it matters, an example and how to fix it."""
    from hipport.findings import RULES, rule_by_code_or_name
    from hipport.report.model import rule_dict

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
        data = [_with_alternatives(rule_dict(i), i) for i in infos]
        click.echo(json.dumps(data if show_all else data[0], indent=2))
        return
    if show_all:
        width = max(len(i.name) for i in infos)
        for i in infos:
            click.echo(f"{i.code}  {i.name:<{width}}  {i.severity.value:<7}  {i.summary}")
        return
    click.echo(explain(infos[0]))


def rule_alternatives(info) -> list:
    """The alternatives a rule's findings name (mappings/alternatives.tsv), exact first."""
    if not info.alternatives:
        return []
    from hipport.tables import load_tables

    rows = load_tables().alternatives.values()
    return sorted(rows, key=lambda a: (not a.exact, a.cuda))


def _with_alternatives(data: dict, info) -> dict:
    alternatives = rule_alternatives(info)
    if alternatives:
        data["alternatives"] = [
            {"cuda": a.cuda, "family": a.family, "hip": a.hip, "exact": a.exact,
             "since": str(a.since) if a.since else None, "note": a.note}
            for a in alternatives
        ]  # fmt: skip
    return data


def explain(info) -> str:
    from hipport.catalogue import ONCE_PER_FILE

    indent = "    "

    def block(text: str) -> str:
        return "\n".join(indent + line for line in text.splitlines())

    return (
        f"{info.code} {info.name} ({info.kind.value}, default severity: {info.severity.value})\n\n"
        f"What it finds\n{block(info.summary + ONCE_PER_FILE * info.once_per_file)}\n\n"
        f"Why it matters\n{block(info.why)}\n\n"
        f"Example\n{block(info.example)}\n\n"
        f"How to fix it\n{block(info.fix)}\n"
    ) + _alternatives_text(info)


def _alternatives_text(info) -> str:
    alternatives = rule_alternatives(info)
    if not alternatives:
        return ""
    lines = [
        f"    {a.cuda} -> {a.text()}" + ("" if a.exact else "  [suggested, never applied]")
        for a in alternatives
    ]
    return (
        "\nAlternatives (mappings/alternatives.tsv; exact ones are applied by translate and "
        "the shim)\n" + "\n".join(lines) + "\n"
    )
