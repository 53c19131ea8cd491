"""`hipport translate`: port a whole codebase."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from hipport.cli.options import target_from, target_options

FAIL_LEVELS = ("error", "warning", "note", "never")


def _suffix_pair(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict:
    out = {}
    for value in values:
        old, sep, new = value.partition("=")
        if not sep or not old.startswith(".") or not new.startswith("."):
            raise click.BadParameter(f"expected OLD=NEW suffixes such as .cu=.hip, not {value!r}")
        out[old] = new
    return out


def run_options(values: dict[str, Any], config) -> Any:
    """RunOptions from command-line values and configuration (the command line wins)."""
    from hipport.project import SOURCE_SUFFIXES
    from hipport.runner import RunOptions

    def pick(key: str, default: Any = None) -> Any:
        value = values.get(key.replace("-", "_"))
        if value in (None, (), [], {}):
            value = config.get(key)
        return default if value is None else value

    suffixes = pick("extensions")
    if isinstance(suffixes, str):
        suffixes = [s.strip() for s in suffixes.split(",") if s.strip()]
    compile_commands = pick("compile-commands")
    semantic = bool(pick("semantic", False) or pick("cuda-path") or compile_commands)
    return RunOptions(
        target=target_from(values, config.values),
        jobs=int(pick("jobs", 0)),
        use_cache=not values.get("no_cache") and config.get("cache", True) is not False,
        include=list(values.get("include") or ()) + list(config.get("include", [])),
        exclude=list(values.get("exclude") or ()) + list(config.get("exclude", [])),
        suffixes=tuple(suffixes) if suffixes else SOURCE_SUFFIXES,
        semantic=semantic,
        cuda_path=pick("cuda-path"),
        compile_commands=Path(compile_commands) if compile_commands else None,
        rename_suffix=dict(config.get("rename-suffix", {})) | dict(values.get("rename_suffix")
                                                                    or {}),
        max_file_size=int(pick("max-file-size", 16 * 1024 * 1024)),
    )


def common_options(func):
    """Options translate and check share: file selection, semantic mode, speed."""
    options = [
        click.option("--include", multiple=True, metavar="GLOB",
                     help="Only translate sources matching GLOB (repeatable)."),
        click.option("--exclude", multiple=True, metavar="GLOB",
                     help="Skip paths matching GLOB (repeatable), on top of .gitignore."),
        click.option("--extensions", metavar="LIST",
                     help="Comma-separated source suffixes (default: .cu,.cuh,.hip,.cpp,.cc,"
                          ".cxx,.c,.h,.hpp,.hh,.inl,.inc)."),
        click.option("--semantic/--no-semantic", default=None,
                     help="Confirm launches and user declarations with a full libclang parse "
                          "(needs a CUDA toolkit; slower)."),
        click.option("--cuda-path", type=click.Path(file_okay=False), default=None,
                     help="CUDA toolkit for --semantic (implies it)."),
        click.option("-p", "compile_commands", type=click.Path(exists=True), default=None,
                     metavar="DIR",
                     help="Directory with compile_commands.json: include paths and macros for "
                          "semantic mode (implies it)."),
        click.option("-j", "--jobs", type=click.IntRange(0), default=None,
                     help="Worker processes (default: all cores)."),
        click.option("--no-cache", is_flag=True, help="Do not read or write the result cache."),
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar (default: on a terminal, outside CI)."),
    ]
    for option in reversed(options):
        func = option(func)
    return target_options(func)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False, path_type=Path),
              help="Write the translated tree here, mirroring the input (unchanged files are "
                   "copied as they are).")
@click.option("--in-place", is_flag=True, help="Rewrite files in place (atomically).")
@click.option("--diff", "show_diff", is_flag=True,
              help="Print a unified diff; exit 1 if anything would change.")
@click.option("--stdout", "to_stdout", is_flag=True, help="Print translated sources.")
@click.option("--backup", is_flag=True, help="With --in-place, keep originals as FILE.orig.")
@click.option("--rename-suffix", multiple=True, callback=_suffix_pair, metavar="OLD=NEW",
              help="Rename files by suffix (e.g. .cu=.hip, .cuh=.hpp); #includes of renamed "
                   "files follow.")
@click.option("--hip-suffix", is_flag=True, help="Shorthand for --rename-suffix .cu=.hip.")
@click.option("--fail-on", type=click.Choice(FAIL_LEVELS), default=None,
              help="Exit 1 when findings reach this severity (default: never).")
@click.option("-q", "--quiet", is_flag=True, help="No summary.")
@common_options
def translate(paths: tuple[Path, ...], outdir: Path | None, in_place: bool, show_diff: bool,
              to_stdout: bool, backup: bool, hip_suffix: bool, fail_on: str | None,
              quiet: bool, progress: bool | None, **values: Any) -> None:
    """Rewrite CUDA sources under PATHS to HIP.

    Choose one output: -o DIR (a mirrored tree), --in-place, --diff or --stdout. Sources
    (.cu .cuh .cpp .h ... ; .hip passes through) and CMake files are translated; .gitignore,
    .git and build folders are skipped. Exit codes: 0 done, 1 findings at --fail-on or a
    pending change with --diff, 2 usage or internal error.
    """
    from hipport.config import ConfigError, load_config

    modes = [m for m, on in (("-o", outdir), ("--in-place", in_place), ("--diff", show_diff),
                             ("--stdout", to_stdout)) if on]
    if len(modes) != 1:
        raise click.UsageError("choose exactly one of -o DIR, --in-place, --diff, --stdout"
                               + (f" (got {', '.join(modes)})" if modes else ""))
    if backup and not in_place:
        raise click.UsageError("--backup goes with --in-place")
    if hip_suffix:
        values["rename_suffix"] = {".cu": ".hip", **(values.get("rename_suffix") or {})}
    try:
        config = load_config(list(paths))
        opts = run_options(values, config)
    except (ConfigError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if outdir is not None:
        _check_outdir(outdir, paths)
        opts.with_other = True
    fail_on = fail_on or config.get("fail-on") or "never"
    try:
        summary = _run(paths, config, opts, progress)
        errors = _write(summary, outdir, in_place, backup)
    except KeyboardInterrupt:
        click.echo("hipport: interrupted; every file is either as it was or fully written",
                   err=True)
        sys.exit(130)
    changed = [f for f in summary.files if f.status == "changed" or (
        f.out_relpath and f.out_relpath != f.relpath and f.kind != "other")]
    if show_diff:
        for f in changed:
            if f.result is not None:
                click.echo(_diff_text(f), nl=False)
    if to_stdout:
        _print_stdout(summary)
    for relpath, error in errors:
        click.echo(f"hipport: {relpath}: {error}", err=True)
    if not quiet:
        print_summary(summary, err=True)
    code = 0
    if show_diff and changed:
        code = 1
    if _fails(summary, fail_on):
        code = 1
    sys.exit(code)


def _diff_text(f) -> str:
    from hipport.runner import unified_diff

    return unified_diff(f)


def _check_outdir(outdir: Path, paths: tuple[Path, ...]) -> None:
    import os

    real_out = os.path.realpath(outdir)
    for p in paths:
        real = os.path.realpath(p)
        if real_out == real or real_out.startswith(real.rstrip(os.sep) + os.sep):
            if Path(p).is_dir():
                raise click.UsageError(f"the output directory {outdir} is inside the input "
                                       f"{p}; choose a directory outside it")


def _run(paths, config, opts, progress):
    from hipport.runner import progress_wanted, run_paths

    if not progress_wanted(progress):
        return run_paths(list(paths), config, opts)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), transient=True) as bar:
        task = bar.add_task("translating", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run_paths(list(paths), config, opts, on_progress=update)


def _write(summary, outdir, in_place, backup):
    from hipport.runner import write_outputs

    if outdir is not None:
        outdir.mkdir(parents=True, exist_ok=True)
        return write_outputs(summary, "outdir", outdir)
    if in_place:
        return write_outputs(summary, "in-place", backup=backup)
    return []


def _print_stdout(summary) -> None:
    sources = [f for f in summary.files if f.result is not None]
    out = sys.stdout.buffer
    for f in sources:
        if len(sources) > 1:
            out.write(f"// ===== {f.out_relpath or f.relpath} =====\n".encode())
        out.write(f.result.output)
    out.flush()


def _fails(summary, fail_on: str) -> bool:
    from hipport.findings import Severity

    if fail_on == "never":
        return False
    level = Severity.parse(fail_on).rank
    return any(f.severity.rank >= level for f in summary.findings)


def print_summary(summary, err: bool = True) -> None:
    """The closing summary: files, renames per family, findings per rule, minimum ROCm."""
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=err, highlight=False)
    counts = summary.counts()
    scanned = sum(counts.values())
    console.print(
        f"hipport: {scanned} files scanned: {counts.get('changed', 0)} changed, "
        f"{counts.get('unchanged', 0)} unchanged, {counts.get('failed', 0)} failed, "
        f"{counts.get('skipped', 0)} skipped ({summary.elapsed:.2f} s)")
    for f in summary.files:
        if f.status in ("failed", "skipped") and f.error:
            console.print(f"  {f.relpath}: {f.error}")
    for rel, reason in summary.skipped:
        console.print(f"  {rel}: skipped: {reason}")
    renamed = summary.renamed_per_family()
    findings = summary.findings_per_code()
    if renamed or findings:
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column("renamed per family")
        table.add_column("", justify="right")
        table.add_column("findings per rule")
        table.add_column("", justify="right")
        left = sorted(renamed.items(), key=lambda kv: (-kv[1], kv[0]))
        right = sorted(findings.items())
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else ("", "")
            b = right[i] if i < len(right) else ("", "")
            table.add_row(str(a[0]), str(a[1]), _rule_label(b[0]), str(b[1]))
        console.print(table)
    rocm, deciders = summary.min_rocm()
    if rocm is not None:
        shown = ", ".join(deciders[:5]) + (" ..." if len(deciders) > 5 else "")
        console.print(f"minimum ROCm for the translated code: {rocm} (decided by {shown})")


def _rule_label(code: str) -> str:
    from hipport.findings import RULES

    if not code:
        return ""
    info = RULES.get(code)
    return f"{code} {info.name}" if info else code
