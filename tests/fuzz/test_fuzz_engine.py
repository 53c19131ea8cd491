"""Any bytes in, no crash: translate_source never raises, and keeps its contract.

CI runs a bounded budget (HIPPORT_FUZZ_SECONDS, default 30 s over the two random tests; the
whole directory stays under 60 s). A longer run:

    HIPPORT_FUZZ_SECONDS=600 python -m pytest tests/fuzz -q
    python tests/fuzz/run.py --seconds 600          # plain loop, no hypothesis

Both print the number of inputs tried.
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz import conftest
from tests.fuzz.mutate import INSERTS, check_one, mutate, ops_from_bytes, seeds

BUDGET = float(os.environ.get("HIPPORT_FUZZ_SECONDS", "30"))
SEEDS = seeds()
# About what the budget allows on an idle core; the time budget is the hard bound (examples
# past it return at once, but hypothesis still spends a few ms generating each one).
MAX_EXAMPLES = max(50, int(BUDGET * 30))

_fuzz_settings = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class _Budget:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start: float | None = None

    def spent(self) -> bool:
        now = time.monotonic()
        if self.start is None:
            self.start = now
        return now - self.start > self.seconds


_bytes_budget = _Budget(BUDGET * 0.3)
_mutation_budget = _Budget(BUDGET * 0.7)


def _run(data: bytes, path: str = "fuzz.cu") -> None:
    start = time.monotonic()
    check_one(data, path)
    conftest.FUZZ_COUNT["inputs"] += 1
    conftest.FUZZ_COUNT["seconds"] += time.monotonic() - start


@_fuzz_settings
@given(st.binary(max_size=4096), st.sampled_from(["fuzz.cu", "fuzz.cuh", "fuzz.cpp"]))
@pytest.mark.slow
def test_random_bytes_never_crash(data: bytes, path: str) -> None:
    if _bytes_budget.spent():
        return
    _run(data, path)


@_fuzz_settings
@given(st.integers(0, len(SEEDS) - 1), st.binary(min_size=5, max_size=60))
@pytest.mark.slow
def test_mutated_cuda_never_crashes(seed: int, blob: bytes) -> None:
    if _mutation_budget.spent():
        return
    _run(mutate(SEEDS[seed], ops_from_bytes(blob)))


@pytest.mark.slow
def test_each_fragment_at_start_middle_end_and_truncations() -> None:
    """Deterministic part: every stress fragment at the start, the middle and the end of one
    seed, and each seed truncated at every 97th byte."""
    seed = min(SEEDS, key=len)
    for fragment in INSERTS:
        for at in (0, len(seed) // 2, len(seed)):
            _run(seed[:at] + fragment + seed[at:])
    for data in SEEDS[:3]:
        for cut in range(0, len(data), 1499):
            _run(data[:cut])


def test_check_detects_a_broken_contract(monkeypatch) -> None:
    """The fuzz check is not vacuous: an engine that changes a byte outside its edits, or
    raises, is caught."""
    import pytest

    from hipport import engine
    from tests.fuzz import mutate as mutate_mod

    real = engine.translate_source

    def corrupting(source, path, target, options=None):
        result = real(source, path, target, options)
        result.output = result.output + b" "
        return result

    monkeypatch.setattr(mutate_mod, "translate_source", corrupting)
    with pytest.raises(AssertionError):
        check_one(SEEDS[0])
