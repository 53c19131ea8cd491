"""Text for people at a terminal: the findings in one of three layouts, then a summary.

- full (default): a compiler-style line, the source line with a caret under the column
  (as clang prints it), and the rule's fix hint the first time the rule fires in the run;
- concise: one line per finding, nothing else;
- grouped: a heading per file, then one indented line per finding.

Paths are shown relative to the directory the user stands in (`options.cwd`), without a
`./`, and absolute when the file is outside it, so they open from where the command ran.
Tables are never truncated: when not writing to a terminal they are as wide as their
content; at a terminal long names fold onto the next line.
"""

from __future__ import annotations

import io
import os
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console
from rich.table import Table

from hipport.findings import RULES, Finding
from hipport.report import RenderOptions
from hipport.report.model import Report

_STYLES = {"error": "bold red", "warning": "yellow", "note": "cyan"}
UNBOUNDED_WIDTH = 10_000  # "as wide as the content" for rich, which needs a number
_BATCH_LINES = 1000  # lines per print without colour: rich's cost per print, bounded memory
SOURCE_LINE_MAX = 300  # characters of a source line shown under a finding
_PLAIN = re.compile(r"[\x20-\x7e]*")  # a line rich prints unchanged (without colour)


LONG_MESSAGE = 100  # characters: a longer message is printed whole once a run, then cut


def finding_line(f: Finding, path: str | None = None, message: str | None = None) -> str:
    loc = f.location
    where = path if path is not None else loc.path
    said = f.message if message is None else message
    return f"{where}:{loc.line}:{loc.column}: {f.severity.value}: {said} [{f.code}]"


class _Repeats:
    """A long message seen before in the run is cut to its first clause, "(as above)": the
    reader has the whole text once (HIP014's 330 characters repeated 853 times)."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def __call__(self, message: str) -> str:
        if len(message) <= LONG_MESSAGE:
            return message
        if message not in self._seen:
            self._seen.add(message)
            return message
        head = message.split(": ", 1)[0].split("; ", 1)[0]
        return (head if len(head) < len(message) else message[:LONG_MESSAGE]) + " (as above)"


def display_path(path: str, root: str, cwd: str | None) -> str:
    """`path` (relative to `root`) as the user at `cwd` would type it."""
    if cwd is None:
        return path
    absolute = Path(root, path) if not Path(path).is_absolute() else Path(path)
    absolute = Path(os.path.abspath(Path(cwd, absolute)))
    try:
        return absolute.relative_to(os.path.abspath(cwd)).as_posix()
    except ValueError:
        return str(absolute)


def render(report: Report, options: RenderOptions | None = None) -> str:
    return "".join(chunks(report, options))


CHUNK_CHARS = 1 << 20  # the listing is handed on about this many characters at a time


def chunks(report: Report, options: RenderOptions | None = None) -> Iterator[str]:
    """`render`'s text in pieces of whole lines: the listing of a large report goes out as
    it is made (300,000 findings print 140 MB of text; held whole, with its copies, they
    took 1.1 GB)."""
    options = options or RenderOptions()
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=options.color,
        no_color=not options.color,
        color_system="standard" if options.color else None,
        width=options.width or UNBOUNDED_WIDTH,
        highlight=False,
        soft_wrap=True,
        emoji=False,  # ":100:" in "a.cu:100:22" is a line number, not an emoji code
    )
    out = _Printer(console, options.color)
    paths = _PathNames(report.root, options.cwd)
    if options.statistics == "rules":  # as ruff's --statistics: instead of the listing
        for line in rule_statistics(report):
            out.line(line)
        out.flush()
        console.print(_verdict(report, options), markup=False)
        yield _without_trailing_spaces(buffer)
        return
    if options.statistics == "api":
        pass  # the per-family and per-API tables stand in for the listing (below)
    elif options.layout == "grouped":
        yield from _grouped(out, report.findings, paths, buffer)
    else:
        full = options.layout == "full"
        sources = _SourceLines(options.sources or _disk_reader(report.root)) if full else None
        hinted: set[str] = set()
        repeats = _Repeats()
        for f in report.findings:
            line = finding_line(f, paths(f.location.path), repeats(f.message))
            out.line(line, _STYLES[f.severity.value])
            if sources is not None:
                for text in _caret(f, sources):
                    out.line(text, "dim")
            if full and options.hints and f.code not in hinted and (hint := _hint(f)):
                hinted.add(f.code)
                out.line(f"    hint: {hint}", "dim")
            if buffer.tell() > CHUNK_CHARS:
                yield _lines_so_far(buffer)
    for s in report.stale:
        out.line(
            f"{paths(s.path)}: stale baseline entry: {s.code} {s.api or '(no API)'} "
            f"baselined {s.baselined}, found {s.found}"
        )
    out.flush()
    if options.quiet:
        yield _without_trailing_spaces(buffer)
        return
    if report.findings or report.stale:
        console.print()
    console.print(_summary(report, paths), markup=False, soft_wrap=False)
    if options.statistics == "api":
        console.print(_families(report), soft_wrap=False)
        console.print(_apis(report), soft_wrap=False)
    console.print(_verdict(report, options), markup=False)
    yield _without_trailing_spaces(buffer)


def _lines_so_far(buffer: io.StringIO) -> str:
    """The whole lines printed so far, trailing blanks stripped (as
    _without_trailing_spaces does: a piece ends with a newline, so a line is never cut);
    the buffer then holds only what follows the last newline."""
    text = buffer.getvalue()
    end = text.rfind("\n") + 1
    buffer.seek(0)
    buffer.truncate()
    buffer.write(text[end:])
    return _rstripped(text[:end])


def _without_trailing_spaces(buffer: io.StringIO) -> str:
    """The text printed, each line rstripped: rich pads table cells to the column width;
    a line's trailing blanks carry nothing. The listing of a large report comes in pieces
    (_lines_so_far), so the rest is small."""
    text = buffer.getvalue()
    buffer.close()
    return _rstripped(text)


def _rstripped(text: str) -> str:
    """Each line of `text` (lines end at \n) rstripped, at C speed: a regular expression
    for trailing blanks took 3 s over 140 MB of listing (a scan at every blank), split,
    rstrip and join take 0.2 s."""
    return "\n".join(map(str.rstrip, text.split("\n")))


class _Printer:
    """Lines to the console. Without colour they are printed in batches (`flush`): rich
    treats each line of a text alike (no wrapping: soft wrap), so the bytes are those of one
    print per line, without rich's per-print cost for each of 100,000 findings."""

    def __init__(self, console: Console, color: bool) -> None:
        self.console, self.color = console, color
        self.pending: list[str] = []

    def line(self, text: str, style: str | None = None) -> None:
        if self.color:
            self.console.print(text, style=style, markup=False)
        else:
            self.pending.append(text)
            if len(self.pending) >= _BATCH_LINES:
                self.flush()

    def flush(self) -> None:
        """Printable ASCII lines are written as they are: rich would write each so and a
        newline (nothing to strip, no tab to expand, no wide character, no wrap: soft
        wrap); any other line goes through rich, in runs, so the order holds."""
        batch = "".join(self.pending)
        if batch.isascii() and batch.isprintable():  # every line plain: the usual batch
            if self.pending:
                self.console.file.write("\n".join(self.pending) + "\n")
            self.pending = []
            return
        odd: list[str] = []
        plain: list[str] = []
        for line in self.pending:
            if _PLAIN.fullmatch(line):
                if odd:
                    self.console.print("\n".join(odd), markup=False)
                    odd = []
                plain.append(line)
            else:
                if plain:
                    self.console.file.write("\n".join(plain) + "\n")
                    plain = []
                odd.append(line)
        if odd:
            self.console.print("\n".join(odd), markup=False)
        if plain:
            self.console.file.write("\n".join(plain) + "\n")
        self.pending = []


class _PathNames:
    """Root-relative path -> the path shown (memoised: a file has many findings)."""

    def __init__(self, root: str, cwd: str | None) -> None:
        self.root, self.cwd, self.seen = root, cwd, {}

    def __call__(self, path: str) -> str:
        if path not in self.seen:
            self.seen[path] = display_path(path, self.root, self.cwd)
        return self.seen[path]


def _disk_reader(root: str) -> Callable[[str], bytes | None]:
    from hipport.fsio import read_regular

    def read(path: str) -> bytes | None:
        try:
            # non-blocking and regular files only: a FIFO named like a source never hangs
            return read_regular(Path(root, path))
        except OSError:
            return None

    return read


class _SourceLines:
    """The lines of the file last asked for (findings come sorted by path), and the line
    last asked for, decoded once: thousands of findings on one long line each cost the
    width of their excerpt, not the length of the line."""

    def __init__(self, read: Callable[[str], bytes | None]) -> None:
        self.read, self.path, self.lines = read, None, []
        self.number, self.last = 0, None

    def line(self, path: str, number: int) -> _Line | None:
        if path != self.path:
            data = self.read(path)
            self.path, self.number, self.last = path, 0, None
            self.lines = data.splitlines() if data else []
        if number != self.number:
            self.number = number
            in_file = 0 < number <= len(self.lines)
            self.last = _Line(self.lines[number - 1]) if in_file else None
        return self.last


class _Line:
    """One source line as the excerpt shows it: `text` (decoded, undecodable bytes
    replaced), `raw` (that text in UTF-8, where the finding's byte columns count)."""

    def __init__(self, data: bytes) -> None:
        self.text = data.decode("utf-8", "replace")
        self.ascii = data.isascii()
        self.raw = data if self.ascii else self.text.encode("utf-8")
        self.blank = not self.text.strip()
        # the UTF-8 continuation bytes of `raw`, whose count before an offset is what its
        # byte count exceeds its character count by (made on the first non-ASCII ask)
        self._continuations: list[int] | None = None

    def chars(self, byte_offset: int) -> int:
        """Characters in the first `byte_offset` bytes (a character cut by the offset
        counts once, as its replacement character does)."""
        k = min(max(byte_offset, 0), len(self.raw))
        if self.ascii:
            return k
        if self._continuations is None:
            self._continuations = [i for i, b in enumerate(self.raw) if 0x80 <= b < 0xC0]
        return k - bisect_left(self._continuations, k)


def _caret(f: Finding, sources: _SourceLines) -> Iterator[str]:
    """`   12 | source line` and `      |     ^~~~` under the finding's columns."""
    loc = f.location
    line = sources.line(loc.path, loc.line)
    if line is None or line.blank:
        return
    text = line.text
    start = line.chars(loc.column - 1)
    end = line.chars(loc.end_column - 1) if loc.end_line == loc.line else len(text)
    if start > SOURCE_LINE_MAX:  # a minified line: show the part around the column
        text, end, start = (
            "..." + text[start - 20 : start - 23 + SOURCE_LINE_MAX],
            end - start + 23,
            23,
        )
    text = text[:SOURCE_LINE_MAX]
    number = str(loc.line)
    gutter = " " * max(5 - len(number), 1)
    before = text[:start]
    pad = " " * len(before)
    if "\t" in before:
        pad = "".join("\t" if ch == "\t" else " " for ch in before)
    width = max(min(end, len(text)) - start, 1)
    yield f"{gutter}{number} | {text}"
    yield f"{' ' * (len(gutter) + len(number))} | {pad}^{'~' * (width - 1)}"


def _grouped(
    out: _Printer, findings: list[Finding], paths: _PathNames, buffer: io.StringIO
) -> Iterator[str]:
    current = None
    repeats = _Repeats()
    for f in findings:
        if f.location.path != current:
            if current is not None:
                out.line("")
            current = f.location.path
            out.line(paths(current), "bold")
        loc = f.location
        out.line(
            f"  {loc.line}:{loc.column}  {f.severity.value:<7}  {repeats(f.message)} [{f.code}]",
            _STYLES[f.severity.value],
        )
        if buffer.tell() > CHUNK_CHARS:
            yield _lines_so_far(buffer)


def _hint(f: Finding) -> str:
    if f.hint:
        return f.hint
    if not f.hip:
        return ""
    text = f"HIP name {f.hip}"
    return text + (f" (ROCm {f.min_rocm}+)" if f.min_rocm else "")


def rule_statistics(report: Report) -> list[str]:
    """One line per rule, most findings first, as ruff's --statistics: count, code, name,
    severity, in aligned columns."""
    counted: Counter[tuple[str, str]] = Counter((f.code, f.severity.value) for f in report.findings)
    ranked = sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))
    rows = [
        (str(n), code, RULES[code].name if code in RULES else "", level)
        for (code, level), n in ranked
    ]
    if not rows:
        return []
    count_w, code_w, name_w = (max(len(r[i]) for r in rows) for i in range(3))
    return [
        f"{n:>{count_w}}  {code:<{code_w}}  {name:<{name_w}}  {level}"
        for n, code, name, level in rows
    ]


TRIAGE_TOP = 5  # rules per severity and files the summary names before "and N more"


def plural(count: int, word: str) -> str:
    """`1 error`, `2 errors`."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _first(items: list[str], total: int) -> str:
    return ", ".join(items) + (f" and {total - len(items)} more" if total > len(items) else "")


def _triage(report: Report, table: Table, paths: Callable[[str], str]) -> None:
    """What to fix first: reported findings per rule for each severity, most first, and the
    files with the most errors and warnings."""
    per_rule: dict[str, Counter[str]] = {}
    for f in report.findings:
        per_rule.setdefault(f.severity.value, Counter())[f.code] += 1
    for level in ("error", "warning", "note"):
        counted = per_rule.get(level)
        if not counted:
            continue
        ranked = sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))
        names = [
            f"{code} {RULES[code].name if code in RULES else ''} {n}".replace("  ", " ")
            for code, n in ranked[:TRIAGE_TOP]
        ]
        table.add_row(f"top {level}s", _first(names, len(ranked)))
    files = [w for w in report.files if w.kind == "file" and w.errors + w.warnings]
    if files:
        files.sort(key=lambda w: (-w.errors, -w.warnings, w.path))
        shown = [f"{paths(w.path)} ({w.errors} E, {w.warnings} W)" for w in files[:TRIAGE_TOP]]
        table.add_row("top files", _first(shown, len(files)))


def _summary(report: Report, paths: Callable[[str], str]) -> Table:
    t, r = report.totals, report.rocm
    table = Table(title="hipport check", show_header=False, box=None, pad_edge=False)
    table.add_column("what", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    _triage(report, table, paths)
    table.add_row("files", f"{t.files} ({t.files_changed} to change, {t.files_failed} failed)")
    table.add_row("lines", f"{t.lines} ({t.lines_changed} to change)")
    table.add_row(
        "CUDA API uses",
        f"{t.counts.uses}: {t.counts.mapped} mapped "
        f"({t.conversion_percent}%), {t.counts.unconverted} not",
    )
    minimum = r.minimum or "any"
    deciding = f" (decided by {', '.join(r.deciding_apis[:5])})" if r.deciding_apis else ""
    table.add_row("minimum ROCm", f"{minimum}{deciding}")
    table.add_row("target ROCm", f"{r.target}" + ("" if r.satisfied else "  (too old)"))
    if report.numeric_formats:
        table.add_row("number formats", "\n".join(c.line() for c in report.numeric_formats))
    if r.blocking_apis:
        uses = {a.api: a.uses for a in report.apis}
        shown = [f"{api} ({uses.get(api, 0)})" for api in r.blocking_apis[:TRIAGE_TOP]]
        table.add_row("no HIP port", _first(shown, len(r.blocking_apis)))
    c = report.counts()
    table.add_row(
        "findings",
        f"{plural(c['error'], 'error')}, {plural(c['warning'], 'warning')}, "
        f"{plural(c['note'], 'note')}"
        + (f"; {len(report.baselined)} baselined" if report.baselined else "")
        + (f"; {len(report.suppressed)} suppressed" if report.suppressed else ""),
    )
    v = report.vendored
    if v.findings:
        table.add_row(
            "third-party",
            f"{plural(v.findings, 'finding')} in {plural(v.files, 'vendored file')} not "
            "reported ([tool.hipport] vendored; vendored = [] reports them)",
        )
    if t.skipped_dead:
        macros = ", ".join(t.dead_macros[:8]) + (", ..." if len(t.dead_macros) > 8 else "")
        table.add_row(
            "skipped as dead",
            f"{plural(t.skipped_dead, 'finding')} in code the HIP build never compiles"
            + (f" (decided by {macros})" if macros else ""),
        )
    return table


def _columns(table: Table, names: tuple[str, ...], right: tuple[str, ...]) -> Table:
    for name in names:
        table.add_column(
            name, justify="right" if name in right else "left", overflow="fold", min_width=len(name)
        )
    return table


def _families(report: Report) -> Table:
    names = ("family", "APIs", "uses", "mapped", "newer ROCm", "unsupported", "unknown", "other")
    table = _columns(Table(title="API uses per family"), names, names[1:])
    for fam in report.families:
        c = fam.counts
        table.add_row(
            fam.family,
            str(fam.apis),
            str(c.uses),
            str(c.mapped),
            str(c.needs_newer_rocm),
            str(c.unsupported),
            str(c.unknown),
            str(c.experimental + c.removed_hip),
        )
    return table


def _apis(report: Report) -> Table:
    names = ("API", "family", "status", "uses", "files", "HIP", "ROCm")
    table = _columns(Table(title="API uses"), names, ("uses", "files"))
    for api in report.apis:
        table.add_row(
            api.api,
            api.family or "",
            api.status,
            str(api.uses),
            str(api.files),
            api.hip or "",
            api.min_rocm or "",
        )
    return table


def _verdict(report: Report, options: RenderOptions) -> str:
    failing = report.failing(options.fail_on)
    if options.fail_on == "never":
        return "hipport: --fail-on never: not failing"
    if failing:
        return f"hipport: {plural(len(failing), 'finding')} at or above {options.fail_on}"
    return f"hipport: no findings at or above {options.fail_on}"
