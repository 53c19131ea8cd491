"""Helpers the rewrites that keep a declaration out of the HIP build share (a program's vector
operators HIP already defines, overloads that collapse into one under HIP): the extent of a
declaration in code tokens, and the edits that put whole lines of it inside
`#if !defined(__HIP_PLATFORM_AMD__)` ... `#endif`.

A guard goes around whole lines only: a declaration that shares a line with other code, or
that sits in a macro's definition, cannot be guarded (None), and the rule says so instead."""

from __future__ import annotations

from hipport.edits import Edit
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context
from hipport.rules.placement import insertion_point

GUARD_OPEN = "#if !defined(__HIP_PLATFORM_AMD__)"
GUARD_CLOSE = "#endif"
# words that may stand between a parameter list's `)` and the body or the `;`
_AFTER_PARAMETERS = frozenset({"const", "noexcept", "volatile", "&", "&&", "override", "final"})


def declaration_extent(v: CodeIndex, k: int, close: int) -> tuple[int, int] | None:
    """(first, last) code-token indices of the declaration whose declarator holds token k
    and whose parameter list closes at `close`: from after the previous `;`, `{`, `}` or
    directive line to its body's `}` (a definition) or its `;` (a declaration). None in a
    directive or when no body or `;` follows."""
    if v.in_directive_at(k):
        return None
    toks = v.tokens
    p = close + 1
    while p < len(toks) and toks.texts[p] in _AFTER_PARAMETERS:
        p += 1
    if toks.punct(p, "{"):
        last = toks.match(p)
    elif toks.punct(p, ";"):
        last = p
    else:
        return None
    if last is None:
        return None
    return v.declaration_start(k), last


def is_definition(v: CodeIndex, last: int) -> bool:
    """The declaration ending at `last` has a body."""
    return v.tokens.punct(last, "}")


def guard_edits(
    ctx: Context, v: CodeIndex, runs: list[tuple[int, int]], comment: str, rule: str
) -> list[Edit]:
    """The edits that guard each run of whole lines, given as (first, last) code tokens
    that guardable() accepted; `comment` follows the `#if` (why the guard is there)."""
    nl = ctx.newline.decode()
    src = ctx.source
    edits = []
    for first, last in runs:
        start = _line_start(src, v.tokens.start(first))
        end = src.find(b"\n", v.tokens.end(last))
        opening = f"{GUARD_OPEN}  // {comment}{nl}" if comment else f"{GUARD_OPEN}{nl}"
        edits.append(ctx.edit(start, start, opening, rule))
        if end < 0:
            edits.append(ctx.edit(len(src), len(src), f"{nl}{GUARD_CLOSE}{nl}", rule))
        else:
            edits.append(ctx.edit(end + 1, end + 1, f"{GUARD_CLOSE}{nl}", rule))
    return edits


def guardable(ctx: Context, v: CodeIndex, first: int, last: int) -> str | None:
    """None when the lines of tokens first..last hold nothing else (a guard can go around
    them); else why not."""
    src = ctx.source
    start = v.tokens.start(first)
    line = _line_start(src, start)
    if src[line:start].strip(b" \t"):
        return "it shares its first line with other text"
    if line == insertion_point(ctx):
        return "it starts the file's code, where the HIP runtime include goes"
    end = v.tokens.end(last)
    stop = src.find(b"\n", end)
    rest = src[end : len(src) if stop < 0 else stop].strip(b" \t\r")
    if rest and not rest.startswith(b"//"):
        return "it shares its last line with other text"
    return None


def merge_runs(v: CodeIndex, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Adjacent runs (nothing but comments and blank lines between them) as one run."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(runs):
        if out and out[-1][1] + 1 == first:
            out[-1] = (out[-1][0], last)
        else:
            out.append((first, last))
    return out


def _line_start(src: bytes, pos: int) -> int:
    return src.rfind(b"\n", 0, pos) + 1
