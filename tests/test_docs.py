"""Docs generated from data stay in step with the data."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT


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
