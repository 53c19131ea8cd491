"""The oldest ROCm a port can target: the newest first release among the HIP APIs it uses.

Computed here only; the run summary (per file and for the tree) and the report use it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from hipport.tables import Status
from hipport.target import Version

DECIDING = (Status.MAPPED, Status.NEEDS_NEWER_ROCM)  # the uses that decide it


def rocm_needs(uses: Iterable[Any]) -> Iterator[tuple[Version, str]]:
    """(the ROCm release that added it, api) for each use that decides the minimum ROCm:
    mapped, or needing a newer ROCm than the target, with a known first release."""
    for use in uses:
        if use.status in DECIDING and use.min_rocm:
            yield use.min_rocm, use.api


def oldest_rocm(needs: Iterable[tuple[Version, str]]) -> tuple[Version | None, frozenset[str]]:
    """The oldest ROCm that has every API in `needs` (their newest first release), and the
    APIs that decide it (None and no APIs when nothing is versioned)."""
    best: Version | None = None
    deciders: set[str] = set()
    for version, api in needs:
        if best is None or version > best:
            best, deciders = version, {api}
        elif version == best:
            deciders.add(api)
    return best, frozenset(deciders)
