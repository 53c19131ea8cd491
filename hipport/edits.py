"""Edits: byte-range replacements on a source, and applying them safely."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True, slots=True)
class Edit:
    """Replace source[start:end] (byte offsets) with `new`. `rule` names who proposed it."""

    start: int
    end: int
    new: bytes
    rule: str = ""
    old: bytes = b""  # what was there, for reports and the "only intended bytes" check
    # A composite edit (an argument list rewritten: arguments moved, dropped, copied): its
    # text is built by `compose` from these parts, each literal bytes or a source range
    # (start, end) taken as the other edits inside it translate it. Empty: `new` is final.
    parts: tuple[bytes | tuple[int, int], ...] = ()


class OverlappingEdits(ValueError):
    pass


def normalize(edits: list[Edit]) -> list[Edit]:
    """Sort edits, drop exact duplicates, and refuse overlaps (two rules fighting over bytes)."""
    out: list[Edit] = []
    for edit in sorted(set(edits), key=lambda e: (e.start, e.end, e.new)):
        if out and edit.start < out[-1].end:
            prev = out[-1]
            raise OverlappingEdits(
                f"edits overlap: [{prev.start},{prev.end}) by {prev.rule} and "
                f"[{edit.start},{edit.end}) by {edit.rule}"
            )
        out.append(edit)
    return out


def apply(source: bytes, edits: list[Edit]) -> bytes:
    """Apply non-overlapping edits; every byte outside them is copied as it is."""
    pieces: list[bytes] = []
    pos = 0
    for edit in normalize(edits):
        pieces.append(source[pos : edit.start])
        pieces.append(edit.new)
        pos = edit.end
    pieces.append(source[pos:])
    return b"".join(pieces)


def compose(source: bytes, edits: list[Edit], dropped: list[Edit] | None = None) -> list[Edit]:
    """Resolve composite edits (see Edit.parts), innermost first: each takes the edits that
    lie inside its range into the source ranges it copies and replaces them. A composite
    that another edit straddles (half inside, half out) is dropped (and appended to
    `dropped` when given): two rules disagree on the bytes, and the plain edit wins."""
    composites = sorted((e for e in edits if e.parts), key=lambda e: e.end - e.start)
    if not composites:
        return edits
    plain = [e for e in edits if not e.parts]
    for comp in composites:
        inner = [e for e in plain if _inside(e, comp)]
        if any(_straddles(e, comp) for e in plain):
            if dropped is not None:
                dropped.append(comp)
            continue
        pieces = [
            part if isinstance(part, bytes) else _translated(source, part, inner)
            for part in comp.parts
        ]
        taken = set(map(id, inner))
        plain = [e for e in plain if id(e) not in taken]
        plain.append(Edit(comp.start, comp.end, b"".join(pieces), comp.rule, comp.old))
    return plain


def _inside(e: Edit, comp: Edit) -> bool:
    """e lies within comp's range; a zero-width insert at either end belongs outside."""
    if e.start == e.end:
        return comp.start < e.start < comp.end
    return comp.start <= e.start and e.end <= comp.end


def _straddles(e: Edit, comp: Edit) -> bool:
    if e.start == e.end:
        return False
    return e.start < comp.end and comp.start < e.end and not _inside(e, comp)


def _translated(source: bytes, span: tuple[int, int], inner: list[Edit]) -> bytes:
    start, end = span
    local = [
        Edit(e.start - start, e.end - start, e.new, e.rule)
        for e in inner
        if start <= e.start and e.end <= end and (e.start != e.end or start < e.start < end)
    ]
    return apply(source[start:end], local)
