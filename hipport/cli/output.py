"""`hipport check`'s output options: where reports go, how text looks, and one source from
standard input. The command parses them; this module turns them into RenderOptions,
checks every output path before the scan, and writes each report.

One run can write several reports (`--format github --report sarif=hipport.sarif`), so a
CI job checks the tree once and gets annotations, code scanning and a job summary from it.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from hipport.report import FORMATS, TEXT_LAYOUTS, RenderOptions

COLOR_CHOICES = ("auto", "always", "never")
STDIN = "-"


def _extra_reports(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[tuple[str, Path], ...]:
    out = []
    for item in value:
        fmt, sep, path = item.partition("=")
        if not sep or not path:
            raise click.BadParameter(f"{item!r}: use FORMAT=PATH, e.g. sarif=hipport.sarif")
        if fmt not in FORMATS:
            raise click.BadParameter(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
        out.append((fmt, Path(path)))
    return tuple(out)


OUTPUT_OPTIONS = [
    click.option(
        "--output-format",
        "layout",
        type=click.Choice(TEXT_LAYOUTS),
        default="full",
        show_default=True,
        help="Text layout: full (source line, caret and hints), concise (one line per "
        "finding) or grouped (by file).",
    ),
    click.option("-q", "--quiet", is_flag=True, help="Text: print the findings only, no summary."),
    click.option("--no-hints", is_flag=True, help="Text: leave out the fix hints."),
    click.option(
        "--color",
        type=click.Choice(COLOR_CHOICES),
        default="auto",
        show_default=True,
        help="Colour the text: auto (at a terminal, unless NO_COLOR is set; FORCE_COLOR "
        "forces it), always or never.",
    ),
    click.option(
        "--report",
        "extra_reports",
        multiple=True,
        callback=_extra_reports,
        metavar="FORMAT=PATH",
        help="Also write a FORMAT report to PATH from the same run (repeatable), e.g. "
        "--report sarif=hipport.sarif.",
    ),
    click.option(
        "--sarif-max-results",
        type=click.IntRange(min=0),
        default=None,
        metavar="N",
        help="SARIF: keep the N most severe results (default 25000, GitHub's limit; 0: all).",
    ),
    click.option(
        "--stdin-filename",
        metavar="PATH",
        help="With `-` as the path: the name of the source read from standard input "
        "(for its configuration, suffix and the reported path).",
    ),
]


def output_options(func: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(OUTPUT_OPTIONS):
        func = option(func)
    return func


@dataclass(frozen=True)
class Destination:
    fmt: str
    path: Path | None  # None: standard output


def use_color(choice: str, to_terminal: bool, env: dict[str, str] | None = None) -> bool:
    """--color: always/never win; auto colours a terminal unless NO_COLOR is set, and
    FORCE_COLOR colours even a pipe (https://no-color.org, https://force-color.org)."""
    env = os.environ if env is None else env
    if choice != "auto":
        return choice == "always"
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    return to_terminal


def destinations(
    fmt: str, output: Path | None, extra: tuple[tuple[str, Path], ...]
) -> list[Destination]:
    def where(path: Path | None) -> Path | None:
        return None if path is not None and str(path) == STDIN else path  # `-`: stdout

    out = [Destination(fmt, where(output))] + [Destination(f, where(p)) for f, p in extra]
    if sum(d.path is None for d in out) > 1:
        raise click.UsageError("two reports would be written to standard output")
    seen: set[Path] = set()
    for d in out:
        if d.path is None:
            continue
        key = Path(os.path.abspath(d.path))
        if key in seen:
            raise click.UsageError(f"two reports would be written to {d.path}")
        seen.add(key)
    return out


def check_writable(targets: list[Destination]) -> None:
    """Fail before the scan (exit 2) when a report could not be written: the directory is
    missing or refuses a new file (the report is written as a temp file there, then
    renamed), or the path is a directory. The probe is real, not os.access, which says
    yes to root on any directory."""
    from hipport.fsio import probe_writable

    for d in targets:
        if d.path is None:
            continue
        path = d.path
        parent = path.parent if str(path.parent) else Path(".")
        if path.is_dir():
            raise click.UsageError(f"cannot write the report to {path}: it is a directory")
        if not parent.is_dir():
            raise click.UsageError(f"cannot write the report to {path}: no directory {parent}")
        try:
            probe_writable(parent)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise click.UsageError(f"cannot write the report to {path}: {reason}") from None


def render_options(
    values: dict[str, Any], fail_on: str, statistics: str | None, to_terminal: bool
) -> RenderOptions:
    return RenderOptions(
        fail_on=fail_on,
        statistics=statistics,
        color=use_color(values.get("color") or "auto", to_terminal),
        width=_terminal_width() if to_terminal else None,
        layout=values.get("layout") or "full",
        hints=not values.get("no_hints"),
        quiet=bool(values.get("quiet")),
        cwd=os.getcwd(),
        sarif_max_results=values.get("sarif_max_results"),
    )


def _terminal_width() -> int:
    import shutil

    return shutil.get_terminal_size((100, 24)).columns


# a report text longer than this is written as it is made and not kept for the warm
# run's replay (hipport.runner.memo): a 300,000-finding JSON report is 270 MB
REPLAY_LIMIT = 64 * 1024 * 1024


def write_reports(
    report: Any, targets: list[Destination], options: RenderOptions
) -> list[tuple[str | None, list[str]]]:
    """Render and write each report (atomically); the one without a path to stdout.
    Returns each destination's text and warnings (what write_rendered writes again); the
    text is None when it was too long to keep (REPLAY_LIMIT)."""
    from hipport.report import FormatUnavailable, render_chunks
    from hipport.report.sarif import limit_warnings, size_warning

    written: list[tuple[str | None, list[str]]] = []
    for d in targets:
        own = _own_options(d, options)
        try:
            pieces = render_chunks(report, d.fmt, own)
        except FormatUnavailable as exc:
            raise click.UsageError(str(exc)) from None
        # a byte that was not UTF-8 reaches messages as a lone surrogate: \xNN
        pieces = map(escape_lone_surrogates, pieces)
        warnings: list[str] = []
        if d.fmt == "sarif":
            text = "".join(pieces)
            warnings = [w for w in [*limit_warnings(report, own), size_warning(text)] if w]
            pieces = iter((text,))
        if d.fmt == "github":
            _job_summary(report, own)
        written.append((_write_pieces(d, pieces, warnings, own), warnings))
    return written


def _print_pieces(pieces: Iterator[str], own: RenderOptions) -> str | None:
    """Print a report's text to stdout as it is made; returns the text, or None when it is
    longer than REPLAY_LIMIT (a text report's pieces end at line ends)."""
    kept: list[str] | None = []
    size = 0
    for piece in pieces:
        click.echo(piece, nl=False, color=own.color)  # click strips ANSI from pipes
        if kept is not None:
            size += len(piece)
            if size <= REPLAY_LIMIT:
                kept.append(piece)
            else:
                kept = None
    return "".join(kept) if kept is not None else None


def job_summary_wanted(targets: list[Destination]) -> bool:
    """A github report appends to $GITHUB_STEP_SUMMARY when GitHub Actions set it."""
    return any(d.fmt == "github" for d in targets) and bool(os.environ.get("GITHUB_STEP_SUMMARY"))


def write_rendered(
    targets: list[Destination], options: RenderOptions, written: list[tuple[str, list[str]]]
) -> None:
    """Write what write_reports rendered for the same targets and options, again."""
    for d, (text, warnings) in zip(targets, written, strict=True):
        _write(d, text, warnings, _own_options(d, options))


def _own_options(d: Destination, options: RenderOptions) -> RenderOptions:
    from dataclasses import replace

    return options if d.path is None else replace(options, color=False, width=None)


def _write(d: Destination, text: str, warnings: list[str], own: RenderOptions) -> None:
    _write_pieces(d, iter((text,)), warnings, own)


def _write_pieces(
    d: Destination, pieces: Iterator[str], warnings: list[str], own: RenderOptions
) -> str | None:
    """Write a report's text as it is made (to a file: atomically); returns the text, or
    None when it is longer than REPLAY_LIMIT."""
    from hipport.fsio import atomic_write

    for warning in warnings:
        click.echo(f"hipport: warning: {warning}", err=True)
    if d.path is None:
        return _print_pieces(pieces, own)
    kept: list[str] | None = []
    size = 0

    def encoded() -> Iterator[bytes]:
        nonlocal kept, size
        for piece in pieces:
            if kept is not None:
                size += len(piece)
                if size > REPLAY_LIMIT:
                    kept = None
                else:
                    kept.append(piece)
            yield piece.encode("utf-8")

    atomic_write(d.path, encoded())
    return "".join(kept) if kept is not None else None


def escape_lone_surrogates(text: str) -> str:
    """Report text as valid Unicode: a byte of the source that is not UTF-8 reaches
    messages as a lone surrogate (surrogateescape); it becomes `\\xNN`, as in file names
    (hipport.project.display_path), so every format, to a file or stdout, encodes it the
    same way instead of failing on it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(_escaped, text)
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escaped(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def _job_summary(report: Any, options: RenderOptions) -> None:
    """Append the markdown summary to $GITHUB_STEP_SUMMARY (a file GitHub shows on the
    run's page), when GitHub Actions set it."""
    from hipport.report.github import job_summary

    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    try:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(escape_lone_surrogates(job_summary(report, options)))
    except OSError as exc:
        click.echo(f"hipport: warning: cannot write the job summary to {target}: {exc}", err=True)


# ----------------------------------------------------------------------------- stdin


def read_stdin_source(stdin_filename: str | None) -> tuple[Path, bytes]:
    """The path the source stands for (absolute) and its bytes, from standard input."""
    name = Path(stdin_filename) if stdin_filename else Path("stdin.cu")
    data = sys.stdin.buffer.read()
    return Path(os.path.abspath(name)), data
