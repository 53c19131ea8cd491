"""`hipport translate`: port a whole codebase."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from hipport.cli.gate import load_baseline, policy_options, selection
from hipport.cli.options import config_file_options, target_from, target_options
from hipport.cli.output import STDIN
from hipport.policy import FAIL_LEVELS


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
    if compile_commands and not values.get("compile_commands"):
        # the configuration's path is relative to its directory, as its baseline is
        compile_commands = config.root / str(compile_commands)
    semantic = bool(pick("semantic", False) or pick("cuda-path") or compile_commands)
    return RunOptions(
        target=target_from(values, config.values),
        jobs=int(pick("jobs", 0)),
        use_cache=not values.get("no_cache") and config.get("cache", True) is not False,
        # the configuration's include/exclude are relative to its directory: the runner
        # applies them; these are the command line's, relative to the paths given
        include=list(values.get("include") or ()),
        exclude=list(values.get("exclude") or ()),
        suffixes=tuple(suffixes) if suffixes else SOURCE_SUFFIXES,
        semantic=semantic,
        cuda_path=pick("cuda-path"),
        compile_commands=Path(compile_commands) if compile_commands else None,
        rename_suffix=dict(config.get("rename-suffix", {}))
        | dict(values.get("rename_suffix") or {}),
        max_file_size=int(pick("max-file-size", 16 * 1024 * 1024)),
        time_limit=_time_limit(pick("time-limit")),
        allow_empty=bool(values.get("allow_empty")),
        force_exclude=bool(values.get("force_exclude")),
        defines=config.defines
        + tuple("-D" + d for d in values.get("define") or ())
        + tuple("-U" + u for u in values.get("undefine") or ()),
    )


def _macro_names(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]):
    pattern = r"[A-Za-z_]\w*(=.*)?\Z" if param.name == "define" else r"[A-Za-z_]\w*\Z"
    for value in values:
        if not re.match(pattern, value, re.DOTALL):
            raise click.BadParameter(
                f"expected NAME{'[=VALUE]' if param.name == 'define' else ''}, not {value!r}"
            )
    return values


def dash_hint(missing: list[str]) -> str:
    """A missing path that looks like an option came after `--` (the pre-commit hooks end
    their entry with it): say where options go instead."""
    if not any(m.startswith("-") for m in missing):
        return ""
    return (
        " (everything after `--` is a path; the pre-commit hooks end their entry with `--`:"
        " set options in [tool.hipport] or in an overridden `entry:`)"
    )


def _time_limit(value: Any) -> float | None:
    return None if value is None else float(value)


def _use_cache_dir(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    """--cache-dir: the run's cache directory, as HIPPORT_CACHE_DIR would say (the worker
    processes inherit it)."""
    if value is not None:
        os.environ["HIPPORT_CACHE_DIR"] = os.path.abspath(value)


def common_options(func):
    """Options translate and check share: file selection, semantic mode, speed."""
    options = [
        click.option(
            "--include",
            multiple=True,
            metavar="GLOB",
            help="Only translate sources matching GLOB (repeatable).",
        ),
        click.option(
            "--exclude",
            multiple=True,
            metavar="GLOB",
            help="Skip paths matching GLOB (repeatable), on top of .gitignore.",
        ),
        click.option(
            "--extensions",
            metavar="LIST",
            help="Comma-separated source suffixes (default: .cu,.cuh,.hip,.cpp,.cc,"
            ".cxx,.c,.h,.hpp,.hh,.inl,.inc,.hxx,.tpp,.ipp,.tcc,.txx,.cuinl,.c++,.cp,.ixx,.cppm,"
            ".cu.in).",
        ),
        click.option(
            "--semantic/--no-semantic",
            default=None,
            help="Confirm launches and user declarations with a full libclang parse "
            "(needs a CUDA toolkit; slower).",
        ),
        click.option(
            "--cuda-path",
            type=click.Path(file_okay=False),
            default=None,
            help="CUDA toolkit for --semantic (implies it).",
        ),
        click.option(
            "-p",
            "compile_commands",
            type=click.Path(exists=True),
            default=None,
            metavar="DIR",
            help="Directory with compile_commands.json: include paths and macros for "
            "semantic mode (implies it).",
        ),
        click.option(
            "-D",
            "define",
            multiple=True,
            metavar="NAME[=VALUE]",
            callback=_macro_names,
            help="A macro the project's HIP build defines (repeatable; added to the "
            "configuration's `defines`): #if arms it rules out are not checked nor translated.",
        ),
        click.option(
            "-U",
            "undefine",
            multiple=True,
            metavar="NAME",
            callback=_macro_names,
            help="A macro the project's HIP build leaves undefined (repeatable; wins over -D "
            "and `defines`).",
        ),
        click.option(
            "-j",
            "--jobs",
            type=click.IntRange(0),
            default=None,
            help="Worker processes (default: all cores).",
        ),
        click.option("--no-cache", is_flag=True, help="Do not read or write the result cache."),
        click.option(
            "--time-limit",
            type=click.FloatRange(min=0, min_open=True),
            default=None,
            metavar="SECONDS",
            help="Give up on a file after SECONDS (default: 300): it becomes an error "
            "(HIP202) and the run goes on.",
        ),
        click.option(
            "--allow-empty",
            is_flag=True,
            help="Exit 0 when no source file is found (default: exit 2, the run checked nothing).",
        ),
        click.option(
            "--force-exclude",
            is_flag=True,
            help="Apply the configuration's exclude to files named on the command line too "
            "(the pre-commit hooks pass it).",
        ),
        click.option(
            "--cache-dir",
            type=click.Path(file_okay=False, path_type=Path),
            default=None,
            expose_value=False,
            is_eager=True,
            callback=_use_cache_dir,
            help="The result cache's directory (default: HIPPORT_CACHE_DIR, else the user "
            "cache directory; see hipport cache).",
        ),
        click.option(
            "--progress/--no-progress",
            default=None,
            help="Progress bar on standard error (default: when that is a terminal, outside CI).",
        ),
    ]
    for option in reversed([*options, *config_file_options]):
        func = option(func)
    return target_options(func)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    "outdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write the translated tree here, mirroring the input (unchanged files are "
    "copied as they are).",
)
@click.option("--in-place", is_flag=True, help="Rewrite files in place (atomically).")
@click.option(
    "--diff",
    "show_diff",
    is_flag=True,
    help="Print a unified diff; exit 1 if anything would change.",
)
@click.option("--stdout", "to_stdout", is_flag=True, help="Print translated sources.")
@click.option("--backup", is_flag=True, help="With --in-place, keep originals as FILE.orig.")
@click.option(
    "--rename-suffix",
    multiple=True,
    callback=_suffix_pair,
    metavar="OLD=NEW",
    help="Rename files by suffix (e.g. .cu=.hip, .cuh=.hpp); #includes of renamed files follow.",
)
@click.option("--hip-suffix", is_flag=True, help="Shorthand for --rename-suffix .cu=.hip.")
@click.option(
    "--stdin-filename",
    metavar="PATH",
    help="With `-` as the path: the name of the source read from standard input (its "
    "configuration, suffix and the name findings give); the translation goes to standard "
    "output (--stdout, the default there) or as a diff (--diff).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_LEVELS),
    default=None,
    help="Exit 1 when findings reach this severity (default: never).",
)
@policy_options(
    "Baseline file for --fail-on (default: as check, .hipport-baseline.json in the "
    "current directory, then the project root)."
)
@click.option("-q", "--quiet", is_flag=True, help="No summary.")
@click.option(
    "--stats-json",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Also write the summary as JSON to FILE ('-': stdout).",
)
@common_options
def translate(
    paths: tuple[Path, ...],
    outdir: Path | None,
    in_place: bool,
    show_diff: bool,
    to_stdout: bool,
    backup: bool,
    hip_suffix: bool,
    fail_on: str | None,
    baseline_file: Path | None,
    no_baseline: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    quiet: bool,
    stats_json: Path | None,
    progress: bool | None,
    stdin_filename: str | None,
    **values: Any,
) -> int:
    """Rewrite CUDA sources under PATHS to HIP.

    Choose one output: -o DIR (a mirrored tree), --in-place, --diff or --stdout
    (`hipport translate - < a.cu` translates standard input to standard output). Sources
    (.cu .cuh .cpp .h ... ; .hip passes through) and CMake files are translated; .gitignore,
    .git and build folders are skipped. Exit codes: 0 done, 1 findings at --fail-on, a
    pending change with --diff, or a file that could not be written; 2 usage or internal
    error.
    """
    from hipport.cli.options import load_config_for
    from hipport.config import ConfigError
    from hipport.policy import fail_level

    given = None
    if STDIN in (str(p) for p in paths):
        given, paths = _given(paths, stdin_filename, outdir, in_place, show_diff)
        to_stdout = not show_diff
    elif stdin_filename:
        raise click.UsageError("--stdin-filename needs `-` as the path")
    modes = [
        m
        for m, on in (
            ("-o", outdir),
            ("--in-place", in_place),
            ("--diff", show_diff),
            ("--stdout", to_stdout),
        )
        if on
    ]
    if len(modes) != 1:
        raise click.UsageError(
            "choose exactly one of -o DIR, --in-place, --diff, --stdout"
            + (f" (got {', '.join(modes)})" if modes else "")
        )
    if backup and not in_place:
        raise click.UsageError("--backup goes with --in-place")
    if hip_suffix:
        values["rename_suffix"] = {".cu": ".hip", **(values.get("rename_suffix") or {})}
    missing = [str(p) for p in paths if not os.path.lexists(p)] if given is None else []
    if missing:
        raise click.UsageError(
            f"no such file or directory: {', '.join(missing)}{dash_hint(missing)}"
        )
    config = load_config_for(list(paths))
    try:
        opts = run_options(values, config)
        opts.given = given
        if given is not None:  # as check -: read that file and the cached project index
            opts.index_only_cached = True
            paths = (Path(stdin_filename or os.path.relpath(given.path)),)
        fail_on = fail_level(fail_on or config.get("fail-on") or "never")
    except (ConfigError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    # the verdict of --fail-on is the findings policy's, as check's (hipport.policy)
    policy = (selection(config, select, ignore), baseline_file, no_baseline)
    if outdir is not None:
        _check_outdir(outdir, paths)
        opts.with_other = True
    # a writing run removes the temporary files dead runs left (check only names them)
    opts.clean_stale_temps = outdir is not None or in_place
    # writing a tree needs outputs and summary counts, not every cached result's findings
    opts.need_results = not (outdir is not None or in_place) or fail_on != "never"
    code = _translate(
        paths,
        config,
        opts,
        outdir,
        in_place,
        backup,
        show_diff,
        to_stdout,
        quiet,
        stats_json,
        fail_on,
        progress,
        policy,
    )
    return code


def _translate(
    paths,
    config,
    opts,
    outdir,
    in_place,
    backup,
    show_diff,
    to_stdout,
    quiet,
    stats_json,
    fail_on,
    progress,
    policy,
) -> int:  # click values
    """Run, write, print; returns the exit code."""
    from hipport.report.summary import KeptCounts, print_summary

    summary = _run(paths, config, opts, progress)
    errors = _write(summary, outdir, in_place, backup)
    pending = [f for f in summary.files if _pending(f)]
    if show_diff:
        out = sys.stdout.buffer
        for f in pending:
            out.write(_diff_text(f, summary.base))
        out.flush()
    if to_stdout:
        _print_stdout(summary)
    for relpath, error in errors:
        click.echo(f"hipport: {relpath}: {error}", err=True)
    # one verdict for the summary's counts, --stats-json and --fail-on: check's for the
    # same files (suppressions, --select/--ignore, severities and the baseline applied)
    verdict, kept = None, None
    if fail_on != "never":
        verdict = _verdict(summary, config, policy)  # a bad suppression: usage error (2)
        kept = KeptCounts.of(verdict)
    elif not quiet or stats_json is not None:
        kept = _summary_counts(summary, config, policy)
    if stats_json is not None:
        _write_stats(summary, stats_json, kept)
    if not quiet:
        print_summary(summary, err=True, kept=kept)
    code = 0
    if show_diff and pending:
        code = 1
    if verdict is not None and fail_on != "never" and verdict.exit_code(fail_on):
        code = 1
    if errors:  # a file that could not be written: the tree is not what was asked for
        code = 1
    return code


def _given(paths, stdin_filename, outdir, in_place, show_diff):
    """`-`: the one source from standard input (as `check -`), translated to standard
    output or as a diff; (the GivenSource, the paths the run takes)."""
    from hipport.cli.output import read_stdin_source
    from hipport.runner import GivenSource

    if len(paths) > 1:
        raise click.UsageError("`-` (standard input) cannot be mixed with other paths")
    if outdir is not None or in_place:
        raise click.UsageError("standard input is translated to standard output or --diff")
    path, data = read_stdin_source(stdin_filename)
    base = path.parent if path.parent.is_dir() else Path.cwd()
    return GivenSource(path, data), (base,)


def _pending(f) -> bool:  # a FileOutcome
    """The file would change: new content, or a new name."""
    if f.kind == "other" or f.handle is None:
        return False
    return f.handle.changed or bool(f.out_relpath and f.out_relpath != f.relpath)


def _write_stats(summary, path: Path, kept) -> None:
    import json

    stats = summary.stats()
    if kept is not None:  # the summary's counts: the findings policy's
        stats["findings_per_code"] = dict(sorted(kept.per_code.items()))
    text = json.dumps(stats, indent=2, sort_keys=True) + "\n"
    if str(path) == "-":
        click.echo(text, nl=False)
    else:
        from hipport.fsio import atomic_write

        atomic_write(path, text.encode("utf-8"))


def _diff_text(f, base: Path) -> bytes:  # a FileOutcome
    """The diff with paths relative to the current directory (so `patch -p1` or `git apply`
    run here applies it); files outside it keep paths relative to the common base."""
    from hipport.report.diff import unified_diff

    prefix = _display_prefix(base)
    new = f.out_relpath or f.relpath
    result = f.handle.load() if f.handle is not None else None
    source = result.source if result is not None else b""
    output = result.output if result is not None else source
    return unified_diff(source, output, prefix + f.relpath, prefix + new)


def _display_prefix(base: Path) -> str:
    try:
        rel = Path(os.path.abspath(base)).relative_to(Path.cwd().resolve())
    except ValueError:
        try:
            rel = Path(os.path.abspath(base)).relative_to(os.path.abspath(Path.cwd()))
        except ValueError:
            return ""
    return "" if rel == Path(".") else rel.as_posix() + "/"


def _check_outdir(outdir: Path, paths: tuple[Path, ...]) -> None:
    """-o must never overwrite an input: it is refused when it is an input, holds one
    (is an ancestor of an input, e.g. `translate src include -o .`) or lies inside an
    input directory (the next run would translate its own output). Paths are compared
    resolved, symlinks included; -o under a file cannot be."""
    for parent in (outdir, *outdir.parents):
        if parent.exists() and not parent.is_dir():
            raise click.UsageError(
                f"cannot write the output tree to {outdir}: {parent} is a file, not a directory"
            )
    real_out = os.path.realpath(outdir)
    out_ids = _identities(Path(real_out))
    for p in paths:
        real = os.path.realpath(p)
        p_ids = _identities(Path(real))
        # by device and inode too: a bind mount of the input has another real path
        if (_within(real_out, real) or (p_ids[:1] and p_ids[0] in out_ids)) and os.path.isdir(real):
            raise click.UsageError(
                f"refusing to write the output tree to {outdir}: it is inside the input "
                f"{p}; choose a directory outside it"
            )
        if (
            _within(real, real_out)
            or _within(os.path.abspath(p), real_out)
            or (os.path.isdir(real_out) and out_ids[0] in p_ids)
        ):
            raise click.UsageError(
                f"refusing to write the output tree to {outdir}: it holds the input {p}, "
                "which would be overwritten; use --in-place to rewrite it, or another "
                "directory"
            )


def _identities(path: Path) -> list[tuple[int, int]]:
    """(device, inode) of `path`'s nearest existing folder (or itself), then of each of
    its ancestors: the same folder reached through a bind mount has the same pair."""
    out = []
    for p in (path, *path.parents):
        try:
            st = os.stat(p)
        except OSError:
            continue
        out.append((st.st_dev, st.st_ino))
    return out


def _within(path: str, directory: str) -> bool:
    """`path` is `directory` or lies under it (both absolute)."""
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _run(paths, config, opts, progress):
    from hipport.cli.progress import progress_bar
    from hipport.runner import run_paths

    with progress_bar(progress, "translating") as update:
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
    sources = [f for f in summary.files if f.handle is not None]
    out = sys.stdout.buffer
    for f in sources:
        if len(sources) > 1:
            mark = "#" if f.kind == "cmake" else "//"
            out.write(f"{mark} ===== {f.out_relpath or f.relpath} =====\n".encode())
        out.write(f.handle.read_output())
    out.flush()


def _summary_counts(summary, config, policy):
    """The policy's counts for the summary alone (no --fail-on): a suppression that names
    no rule does not fail the translation; the counts are then the raw ones."""
    from hipport.policy import PolicyError

    try:
        return _policy_counts(summary, config, policy)
    except PolicyError as exc:
        click.echo(f"hipport: findings per kind are not filtered: {exc}", err=True)
        return None


@dataclass
class _Files:
    """Some of a run's files, as hipport.policy.judge reads a RunSummary."""

    root: Path
    files: list


def _policy_counts(summary, config, policy):
    """What the findings policy keeps, per code. A result the run left in its cache (a
    warm -o or --in-place run) is loaded only when the policy needs its findings: with a
    baseline, or when its source has a `hipport:` comment; otherwise its cached codes
    (already past the project filters) are counted as --select/--ignore/severity keep them,
    which is what judging the loaded result would give."""
    from hipport.policy import judge
    from hipport.report.summary import KeptCounts

    chosen, baseline_file, no_baseline = policy
    baseline = load_baseline(baseline_file, no_baseline, config)
    judged, counted = [], KeptCounts()
    for f in summary.files:
        stored = f.handle is not None and not f.handle.in_memory
        if (
            baseline is not None
            or not stored
            or f.status not in ("changed", "unchanged")
            or _has_suppression(f.path)
        ):
            judged.append(f)
            continue
        for code, n in f.handle.codes().items():
            if chosen.reports(code):
                counted.per_code[code] += n
            else:
                counted.silenced += n
    verdict = judge(_Files(summary.root, judged), chosen, baseline)
    return KeptCounts.of(verdict).add(counted)


def _has_suppression(path: Path) -> bool:
    """The source has a `hipport:` comment (or cannot be read: the policy then decides)."""
    try:
        return b"hipport:" in Path(path).read_bytes()
    except OSError:
        return True


def _verdict(summary, config, policy):
    """The findings policy over the run: what check would report for the same files."""
    from hipport.policy import judge

    chosen, baseline_file, no_baseline = policy
    return judge(summary, chosen, load_baseline(baseline_file, no_baseline, config))
