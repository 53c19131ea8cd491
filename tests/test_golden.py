"""Whole-file golden cases: the examples project and the corpus, translated for the newest
ROCm, equal their reviewed translations in tests/golden/ (regenerate with
`python tools/update_golden.py`, then review the diff)."""

from __future__ import annotations

import difflib

import pytest

from tools.update_golden import ROOT, cases, translate

CASES = cases()


def test_there_are_golden_cases_for_both_trees():
    names = {golden.relative_to(ROOT / "tests" / "golden").parts[0] for _, golden in CASES}
    assert names == {"examples", "corpus"} and len(CASES) >= 40


@pytest.mark.parametrize(
    "source,golden", CASES, ids=[str(g.relative_to(ROOT / "tests" / "golden")) for _, g in CASES]
)
def test_golden(source, golden):
    assert golden.exists(), f"missing {golden}: run python tools/update_golden.py and review"
    expected = golden.read_bytes()
    actual = translate(source)
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.decode("utf-8", "replace").splitlines(keepends=True),
                actual.decode("utf-8", "replace").splitlines(keepends=True),
                "golden",
                "actual",
            )
        )
        pytest.fail(f"{source.relative_to(ROOT)} translates differently:\n{diff}")


@pytest.mark.parametrize(
    "source,golden", CASES[:: max(1, len(CASES) // 10)], ids=lambda v: getattr(v, "name", str(v))
)
def test_golden_is_stable(source, golden):
    """Translating the translation changes nothing (the second run is a fixed point)."""
    from hipport.engine import translate_source
    from hipport.target import Target

    once = golden.read_bytes()
    rel = source.relative_to(ROOT).as_posix()
    assert translate_source(once, rel, Target()).output == once
