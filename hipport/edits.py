"""Edits: byte-range replacements on a source, and applying them safely."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Edit:
    """Replace source[start:end] (byte offsets) with `new`. `rule` names who proposed it."""

    start: int
    end: int
    new: bytes
    rule: str = ""
    old: bytes = b""  # what was there, for reports and the "only intended bytes" check


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
