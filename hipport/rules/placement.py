"""Where a rule inserts lines at the top of a file: the first code line, after leading
comments, a `#pragma once` or an include guard. The includes rule puts the HIP runtime
include there and the warp-mask rule the guarded HIP_ENABLE_WARP_SYNC_BUILTINS before it
(two insertions at one offset apply in the order of their bytes: `#ifndef` < `#include`)."""

from __future__ import annotations

from hipport.edits import Edit
from hipport.lexer import PUNCTUATION
from hipport.rules.context import Context
from hipport.rules.tokens import Directive


def insertion_point(ctx: Context) -> int | None:
    """The start of the first code line, after leading comments and an include guard."""
    texts = ctx.tokens.texts
    v = ctx.tokens.code()
    n = len(v)
    if not n:
        return None
    k = 0
    dirs = {d.hash: d for d in ctx.directives}
    d = dirs.get(v.to_all(0))
    if d is not None and d.name == "pragma" and _is_once(ctx, d):
        k = v.from_all(d.end)
    elif d is not None and d.name == "ifndef" and d.hash + 2 < d.end:
        guard = texts[d.hash + 2]
        k2 = v.from_all(d.end)
        d2 = dirs.get(v.to_all(k2)) if k2 < n else None
        if (
            d2 is not None
            and d2.name == "define"
            and d2.hash + 2 < d2.end
            and texts[d2.hash + 2] == guard
        ):
            k = v.from_all(d2.end)
    if k >= n:
        return len(ctx.source)
    start = v.start(k)
    pos = _logical_line_start(ctx.source, start)
    # `/* licence ... */ int x;`: the first code line starts inside the comment that ends
    # on it; insert after that comment's end (the inserted text starts a line of its own:
    # needs_newline), never in it, where the next run would not see it
    starts, ends = ctx.tokens.starts, ctx.tokens.ends
    i = v.to_all(k) - 1
    while i >= 0 and ends[i] > pos:
        if starts[i] < pos:
            return ends[i]
        i -= 1
    if pos == 0 and ctx.source.startswith(b"\xef\xbb\xbf"):
        pos = 3  # after the byte order mark
    return pos


def needs_newline(ctx: Context, pos: int) -> bool:
    """Text inserted at `pos` must start with a line break: `pos` is not at a line start
    (after a comment's `*/`, or at the end of a last line without one); right after a
    leading byte order mark is a line start."""
    if pos == 3 and ctx.source.startswith(b"\xef\xbb\xbf"):
        return False
    return pos > 0 and ctx.source[pos - 1 : pos] not in (b"\n", b"\r")


def _logical_line_start(source: bytes, offset: int) -> int:
    """The start of the line holding `offset`, counting lines spliced by a backslash-newline
    as one (a line inserted after a continuation would join the line before it)."""
    pos = source.rfind(b"\n", 0, offset) + 1
    while pos > 0:
        end = pos - 1  # the newline ending the previous physical line
        if end > 0 and source[end - 1] == 0x0D:
            end -= 1
        if end == 0 or source[end - 1] != 0x5C:  # no backslash before it
            break
        pos = source.rfind(b"\n", 0, end) + 1
    return pos


def _is_once(ctx: Context, d: Directive) -> bool:
    return d.hash + 2 < d.end and ctx.tokens.texts[d.hash + 2] == "once"


def before_top_level_declaration(ctx: Context, k: int) -> tuple[int, bool]:
    """Where to insert a definition that code token `k` needs: the start of the line of the
    file-level declaration that holds `k` (the outermost one, outside every brace: a
    namespace, a class, an extern "C" block), or of `k`'s directive line. Returns the offset
    and whether the inserted text must start with a line break (the declaration starts
    after other code, or a comment, on its line)."""
    v = ctx.tokens.code()
    texts, kinds = v.texts, v.kinds
    directive_at = ctx.directive_at
    stack: list[int] = []
    for j in range(k):
        if kinds[j] != PUNCTUATION or v.to_all(j) in directive_at:
            continue
        if texts[j] == "{":
            stack.append(j)
        elif texts[j] == "}" and stack:
            stack.pop()
    if stack:
        first = v.to_all(ctx.code.declaration_start(stack[0]))
    elif v.to_all(k) in directive_at:
        first = directive_at[v.to_all(k)].hash
    else:
        first = v.to_all(ctx.code.declaration_start(k))
    start = ctx.tokens.starts[first]
    pos = _logical_line_start(ctx.source, start)
    ends = ctx.tokens.ends
    if first > 0 and ends[first - 1] > pos:
        return ends[first - 1], True  # code or a comment ends on the declaration's line
    return pos, False


def definition_before(ctx: Context, k: int, text: str, rule: str) -> Edit:
    """The edit that defines `text` (a helper written with `\n` line ends) once, before the
    file-level declaration holding code token `k` (its first use), in the file's own line
    ends."""
    pos, newline = before_top_level_declaration(ctx, k)
    eol = ctx.newline.decode()
    text = text.replace("\n", eol)
    return ctx.edit(pos, pos, eol + text if newline else text, rule)
