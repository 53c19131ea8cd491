"""The list-based bracket matcher and argument splitter: a walk with a depth counter over
(kind, text) pairs, the code tokens of a file (no comments)."""

from __future__ import annotations

from collections.abc import Iterator

PUNCTUATION = "punctuation"
CLOSE = {"(": ")", "[": "]", "{": "}"}
CLOSERS = frozenset(CLOSE.values())

Tok = tuple[str, str]  # (kind, text)


def _walk(code: list[Tok], start: int, end: int) -> Iterator[tuple[int, str, int]]:
    """(index, text, bracket depth after it) of each punctuation token in [start, end)."""
    depth = 0
    for j in range(start, end):
        kind, text = code[j]
        if kind != PUNCTUATION:
            continue
        depth += (text in CLOSE) - (text in CLOSERS)
        yield j, text, depth


def match(code: list[Tok], i: int, limit: int | None = None) -> int | None:
    """The index of the bracket that closes the one at i (the first later bracket that brings
    the depth back), before `limit`; None if there is none or it is of another shape."""
    kind, text = code[i]
    if kind != PUNCTUATION or text not in CLOSE:
        return None
    end = len(code) if limit is None else min(limit, len(code))
    for j, t, depth in _walk(code, i, end):
        if depth == 0:
            return j if t == CLOSE[text] else None
    return None


def arguments(code: list[Tok], open_: int, close: int) -> list[tuple[int, int]]:
    """The top-level comma-separated arguments between a matched pair, as half-open index
    ranges; [] when nothing stands between the brackets."""
    if close == open_ + 1:
        return []
    commas = [j for j, t, depth in _walk(code, open_ + 1, close) if t == "," and depth == 0]
    starts = [open_ + 1] + [j + 1 for j in commas]
    return list(zip(starts, commas + [close], strict=True))
