"""Docs generated from data stay in step with the data."""

from __future__ import annotations

import re
import subprocess
import sys

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_rules_doc_is_generated_from_the_registry():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_rules_doc.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_rule_has_a_section():
    from hipport.catalogue import RULES

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for code, info in RULES.items():
        assert f"## {code}" in text and info.why in text, code


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def test_readme_coverage_figures_are_the_tables():
    """The README's coverage sentence says what `hipport tables coverage` counts."""
    from hipport.tables import load_tables
    from hipport.tables.queries import coverage
    from hipport.target import Target

    found = re.search(
        r"For ROCm ([\d.]+), `hipport tables\s+coverage` counts ([\d,]+) rows in (\d+) "
        r"families: ([\d,]+) mapped, ([\d,]+) without a HIP counterpart.*?([\d,]+) needing "
        r"a newer ROCm.*?and ([\d,]+) removed from HIP",
        README,
        re.S,
    )
    assert found, "the README's coverage sentence is gone"
    rocm, *figures = found.groups()
    families = coverage(load_tables(), Target(rocm=rocm))
    keys = ("total", "mapped", "unsupported", "needs_newer_rocm", "removed_hip")
    total = {key: sum(getattr(f, key) for f in families) for key in keys}
    said = dict(zip(("total", "families", *keys[1:]), map(_number, figures), strict=True))
    assert said == {**total, "families": len(families)}
