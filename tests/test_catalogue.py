"""The rule catalogue (hipport.catalogue) against the rule modules: every module the engine
runs exists and exposes a RULE, every code a rule reports is catalogued with its docs, every
module under hipport/rules/ that defines a RULE is run, and no rule imports another."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from hipport.catalogue import (
    HAZARDS_PACKAGE,
    REWRITE_ORDER,
    RULE_MODULES,
    RULES,
    Kind,
    Severity,
    codes_of,
    rule_by_code_or_name,
)
from hipport.rules import MissingRule, all_rules, load_rule, rule_for
from tests.test_imports import import_graph

RULES_DIR = Path(__file__).resolve().parent.parent / "hipport" / "rules"
CODE = re.compile(r"HIP\d{3}")
KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _defines_rule(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Assign | ast.AnnAssign)
        and any(
            isinstance(t, ast.Name) and t.id == "RULE"
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
        for node in tree.body
    )


def _module_of(path: Path) -> str:
    rel = path.relative_to(RULES_DIR.parent).with_suffix("")
    return ".".join(rel.parts)


def test_every_entry_is_documented() -> None:
    assert RULES, "the catalogue is empty"
    for code, info in RULES.items():
        assert info.code == code and CODE.fullmatch(code), code
        assert KEBAB.fullmatch(info.name), (code, info.name)
        assert isinstance(info.severity, Severity), code
        for field in ("summary", "why", "example", "fix"):
            assert getattr(info, field).strip(), (code, field)


def test_every_kind_is_made_where_it_says() -> None:
    """A rewrite code comes from a rewrite module, a hazard or gate code from a module under
    rules/hazards/, a build code from the CMake translation, a run code from no rule."""
    for code, info in RULES.items():
        assert isinstance(info.kind, Kind), code
        if info.kind is Kind.REWRITE:
            assert info.module in REWRITE_ORDER, code
        elif info.kind in (Kind.HAZARD, Kind.GATE):
            assert info.module.startswith(HAZARDS_PACKAGE), code
        elif info.kind is Kind.BUILD:
            assert info.module == "cmake", code
        else:
            assert info.module not in RULE_MODULES and info.module != "cmake", code
    assert sorted(c for k in Kind for c in codes_of(k)) == sorted(RULES)


def test_every_entry_names_a_module_that_exists() -> None:
    for code, info in RULES.items():
        assert importlib.util.find_spec(f"hipport.{info.module}") is not None, (code, info.module)


def test_every_rule_module_exposes_a_rule() -> None:
    assert set(REWRITE_ORDER) <= set(RULE_MODULES)
    assert len(set(RULE_MODULES)) == len(RULE_MODULES)
    rules = all_rules()
    assert len(rules) == len(RULE_MODULES)
    for module, rule in zip(RULE_MODULES, rules, strict=True):
        assert isinstance(rule.name, str) and rule.name, module
        assert callable(rule.run), module
        assert isinstance(rule.codes, tuple), module


def test_codes_a_rule_reports_are_catalogued() -> None:
    for module, rule in zip(RULE_MODULES, all_rules(), strict=True):
        for code in rule.codes:
            assert code in RULES, (module, code)


def test_catalogued_codes_are_reported_by_their_module() -> None:
    for code, info in RULES.items():
        if info.module in RULE_MODULES:
            assert code in load_rule(info.module).codes, (code, info.module)


def test_a_rule_defined_under_rules_is_run() -> None:
    """A module with a RULE that the catalogue does not list would silently never run."""
    found = {_module_of(p) for p in RULES_DIR.rglob("*.py") if _defines_rule(p)}
    assert found, "no rule module found"
    assert found == set(RULE_MODULES)


@pytest.mark.slow
def test_no_rule_imports_another() -> None:
    graph = import_graph()
    rule_modules = {f"hipport.{m}" for m in RULE_MODULES}
    for module in rule_modules:
        others = graph[module] & rule_modules
        assert not others, f"{module} imports rule module(s) {sorted(others)}"


def test_a_missing_module_is_an_error() -> None:
    with pytest.raises(MissingRule):
        load_rule("rules.no_such_rule")
    with pytest.raises(MissingRule):
        load_rule("rules.tokens")  # exists, but is no rule


def test_rule_for_finds_by_code_name_and_module() -> None:
    info = RULES["HIP001"]
    assert rule_for("HIP001") is rule_for(info.name) is rule_for(info.module)
    assert rule_by_code_or_name(info.name.upper()) is info
    with pytest.raises(MissingRule):
        rule_for("HIP202")  # made by the runner, not by an engine rule
