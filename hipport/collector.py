"""Pausing Python's cyclic garbage collector while plain data is made in bulk.

Unpickling a large result or reducing its hundred thousand uses makes objects with no
cycle among them; the collector, triggered by the allocations, would only walk the whole
heap again and again while they are made."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off for the block (left as it was found afterwards)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
