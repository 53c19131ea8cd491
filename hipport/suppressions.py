"""Inline suppressions: comments that silence findings on a line, the next line or a file.

    cudaFoo();  // hipport: ignore                 every rule, this line
    cudaFoo();  // hipport: ignore[HIP001]         only HIP001 (a code or a rule name)
    // hipport: ignore-next-line[unsupported-api]  the line after the comment
    /* hipport: ignore-file[HIP101, HIP102] */     the whole file, wherever it stands

Comments are found by a small scanner over the source bytes (it knows string, character
and raw-string literals, so a `//` inside "http://..." is not a comment); CMake files use
`# hipport: ignore...`. A suppression that silences nothing is itself reported (HIP201),
so stale ones do not pile up.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field

from hipport.catalogue import UNUSED_SUPPRESSION
from hipport.findings import Finding, Location, rule_by_code_or_name
from hipport.tokens import line_starts

LINE, NEXT_LINE, FILE = "ignore", "ignore-next-line", "ignore-file"

_DIRECTIVE = re.compile(
    r"hipport:\s*(ignore-next-line|ignore-file|ignore)(?![\w-])(?:\s*\[([^\]]*)(\])?)?"
)
_CMAKE_NAMES = ("CMakeLists.txt",)


@dataclass(frozen=True)
class Suppression:
    kind: str  # LINE, NEXT_LINE or FILE
    codes: tuple[str, ...]  # rule codes as resolved; () means every rule
    written: tuple[str, ...]  # the codes or names as written, for messages
    unknown: tuple[str, ...]  # written names that are no rule
    line: int  # the line it silences (0 for FILE)
    location: Location  # where the comment directive is
    malformed: str | None = None  # why it silences nothing (an unclosed `[`)

    def covers(self, finding: Finding) -> bool:
        if self.malformed:
            return False
        if self.kind != FILE and finding.location.line != self.line:
            return False
        return not self.codes and not self.unknown or finding.code in self.codes


@dataclass
class Outcome:
    kept: list[Finding] = field(default_factory=list)
    suppressed: list[Finding] = field(default_factory=list)
    unused: list[Finding] = field(default_factory=list)  # HIP201 findings


def is_cmake(path: str) -> bool:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name in _CMAKE_NAMES or name.endswith(".cmake")


def comments(source: bytes, path: str = "") -> Iterator[tuple[int, int]]:
    """Byte spans (start, end) of every comment in `source`."""
    if is_cmake(path):
        yield from _cmake_comments(source)
    else:
        yield from _c_comments(source)


def _c_comments(src: bytes) -> Iterator[tuple[int, int]]:
    i, n = 0, len(src)
    while i < n:
        # only a slash or a quote can open a comment or a literal: jump to the next one
        found = _OPENER.search(src, i)
        if found is None:
            return
        i = found.start()
        c = src[i]
        if c == 0x2F and i + 1 < n and src[i + 1] == 0x2F:  # //
            end = _line_comment_end(src, i)
            yield i, end
            i = end
        elif c == 0x2F and i + 1 < n and src[i + 1] == 0x2A:  # /*
            end = src.find(b"*/", i + 2)
            end = n if end == -1 else end + 2
            yield i, end
            i = end
        elif c == 0x22 and (m := _raw_string(src, i)):  # R"delim( ... )delim"
            close = b")" + m.group(1) + b'"'
            end = src.find(close, m.end())
            i = n if end == -1 else end + len(close)
        elif c == 0x27 and _in_number(src, i):  # 1'000'000, 0xFF'FF: a digit separator
            i += 1
        elif c in (0x22, 0x27):  # " or '
            i = _skip_quoted(src, i, c)
        else:
            i += 1


_OPENER = re.compile(rb"[/\"']")
_RAW_OPEN = re.compile(rb'"([^()\\\s"]{0,16})\(')
_RAW_PREFIX = re.compile(rb"(?<![\w])(?:u8|u|U|L)?R$")


def _raw_string(src: bytes, i: int) -> re.Match[bytes] | None:
    """The opening of a raw string literal whose quote is at i (R, u8R, LR ... before it)."""
    if i == 0 or src[i - 1] != 0x52 or not _RAW_PREFIX.search(src[max(0, i - 3) : i]):
        return None
    return _RAW_OPEN.match(src, i)


def _skip_quoted(src: bytes, i: int, quote: int) -> int:
    """Index after the literal opening at i; a literal never crosses a line end (LF, CRLF
    or a lone CR) except a backslash-newline splice, which joins the next line to it."""
    j, n = i + 1, len(src)
    while j < n:
        c = src[j]
        if c == 0x5C:  # backslash: an escape, or a splice (\ LF, \ CR LF, \ CR)
            j += 3 if src[j + 1 : j + 3] == b"\r\n" else 2
            continue
        if c == quote or c == 0x0A or c == 0x0D:
            return j + 1
        j += 1
    return n


def _in_number(src: bytes, i: int) -> bool:
    """The quote at i is inside a pp-number (a digit separator, as in 1'000 or 0xFF'FF),
    not the opening of a character literal such as u'"', u8'"' or L'"': the word before
    it starts with a digit."""
    start = i
    while start > 0 and (chr(src[start - 1]).isalnum() or src[start - 1] in b"_.'"):
        start -= 1
    word = src[start:i]
    return bool(word) and (word[:1].isdigit() or (word[:1] == b"." and word[1:2].isdigit()))


# the end of a // comment: a line end (LF, CRLF, a lone CR) not spliced by a backslash
_LINE_COMMENT_END = re.compile(rb"(?<!\\)(?<!\\\r)\n|(?<!\\)\r(?!\n)")


def _line_comment_end(src: bytes, i: int) -> int:
    """End of the // comment at i: the line end, unless a backslash right before it splices
    the next line into the comment (as the compiler reads it)."""
    m = _LINE_COMMENT_END.search(src, i)
    return len(src) if m is None else m.start()


def _cmake_comments(src: bytes) -> Iterator[tuple[int, int]]:
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == 0x22:
            i = _skip_cmake_string(src, i)
        elif c == 0x23:  # #
            m = re.compile(rb"#\[(=*)\[").match(src, i)
            if m:
                close = b"]" + m.group(1) + b"]"
                end = src.find(close, m.end())
                end = n if end == -1 else end + len(close)
            else:
                end = src.find(b"\n", i)
                end = n if end == -1 else end
            yield i, end
            i = end
        else:
            i += 1


def _skip_cmake_string(src: bytes, i: int) -> int:
    j, n = i + 1, len(src)
    while j < n:
        if src[j] == 0x5C:
            j += 2
            continue
        if src[j] == 0x22:
            return j + 1
        j += 1
    return n


def _cmake_line_starts(source: bytes) -> list[int]:
    """CMake's lines (its findings' lines): broken at \n only."""
    starts = [0]
    pos = source.find(b"\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = source.find(b"\n", pos + 1)
    return starts


def parse(source: bytes, path: str) -> list[Suppression]:
    """Every suppression comment in `source`, with the line each one silences."""
    if b"hipport:" not in source:
        return []
    # the lines the findings are counted in: clang's for sources (a lone \r breaks a line,
    # as \n and \r\n do), CMake's for its files
    starts = _cmake_line_starts(source) if is_cmake(path) else line_starts(source)

    def position(offset: int) -> tuple[int, int]:
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    out: list[Suppression] = []
    for start, end in comments(source, path):
        text = source[start:end].decode("utf-8", "replace")
        for m in _DIRECTIVE.finditer(text):
            line, col = position(start + m.start())
            end_line, end_col = position(start + m.end())
            written = tuple(w.strip() for w in (m.group(2) or "").split(",") if w.strip())
            codes, unknown = _resolve_codes(written)
            kind = m.group(1)
            unclosed = m.group(2) is not None and m.group(3) is None
            malformed = "unclosed `[`: write the codes as [HIP001, HIP004]" if unclosed else None
            if kind == LINE:
                target_line = position(start)[0]
            elif kind == NEXT_LINE:
                target_line = position(max(start, end - 1))[0] + 1
            else:
                target_line = 0
            out.append(
                Suppression(
                    kind,
                    codes,
                    written,
                    unknown,
                    target_line,
                    Location(path, line, col, end_line, end_col),
                    malformed,
                )
            )
    return out


def _resolve_codes(written: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    codes: list[str] = []
    unknown: list[str] = []
    for word in written:
        info = rule_by_code_or_name(word)
        if info is None:
            unknown.append(word)
        elif info.code not in codes:
            codes.append(info.code)
    return tuple(codes), tuple(unknown)


def apply(findings: list[Finding], suppressions: list[Suppression]) -> Outcome:
    """Split findings into kept and suppressed; report suppressions that matched nothing."""
    outcome = Outcome()
    used: dict[int, set[str]] = {i: set() for i in range(len(suppressions))}
    # by the line they silence (a file-wide one: every line), so each finding looks only
    # at the few that can cover it, not at every suppression of the file
    file_wide = [i for i, s in enumerate(suppressions) if s.kind == FILE]
    on_line: dict[int, list[int]] = {}
    for i, s in enumerate(suppressions):
        if s.kind != FILE:
            on_line.setdefault(s.line, []).append(i)
    for finding in findings:
        near = on_line.get(finding.location.line, [])
        hits = [i for i in sorted(near + file_wide) if suppressions[i].covers(finding)]
        if not hits:
            outcome.kept.append(finding)
            continue
        outcome.suppressed.append(finding)
        for i in hits:
            used[i].add(finding.code)
    for i, s in enumerate(suppressions):
        message = _unused_message(s, used[i])
        if message:
            outcome.unused.append(_unused_finding(s, message))
    return outcome


def _unused_message(s: Suppression, used: set[str]) -> str | None:
    where = f"`hipport: {s.kind}`"
    parts = []  # unknown names and unclosed brackets are HIP206 (policy), not said twice
    if s.malformed or (s.unknown and not s.codes):
        return None
    if not s.codes and not s.unknown:
        if not used:
            return f"unused suppression {where}: no finding here to silence"
        return None
    idle = [c for c in s.codes if c not in used]
    if idle:
        parts.append(f"no {', '.join(idle)} finding to silence")
    if not parts:
        return None
    return f"unused suppression {where}[{', '.join(s.written)}]: {'; '.join(parts)}"


def _unused_finding(s: Suppression, message: str) -> Finding:
    return Finding(
        UNUSED_SUPPRESSION.code,
        UNUSED_SUPPRESSION.severity,
        message,
        s.location,
        hint="delete the comment or narrow its codes",
    )


def filter_findings(source: bytes, path: str, findings: list[Finding]) -> Outcome:
    """parse + apply for one file; findings elsewhere than `path` are kept as they are."""
    suppressions = parse(source, path)
    if not suppressions:
        return Outcome(kept=list(findings))
    outcome = apply(findings, suppressions)
    # The unused-suppression findings answer to ignore-file[HIP201] too.
    silencers = [s for s in suppressions if s.kind == FILE and UNUSED_SUPPRESSION.code in s.codes]
    if silencers:
        outcome.unused = [f for f in outcome.unused if not any(s.covers(f) for s in silencers)]
    return outcome
