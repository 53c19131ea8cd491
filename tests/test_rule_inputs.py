"""Declared rule inputs: the engine resolves the file's API uses before the rules run,
so every rule works alone (run_rule finds what the engine finds); a rule's triggers decide
whether it runs; rewrite priority decides overlapping edits, and a dropped edit is
recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipport.catalogue import REWRITE_ORDER
from hipport.engine import run_rule, translate_source
from hipport.lexer import lex
from hipport.rules import RuleResult, Triggers, all_rules, load_rule, rule_priorities
from hipport.rules.context import Context
from hipport.target import Target

TESTS = Path(__file__).parent
SUFFIXES = (".cu", ".cuh", ".cpp", ".h", ".hpp", ".cc")
FILES = sorted(
    p
    for folder in ("corpus", "consistency")
    for p in (TESTS / folder).rglob("*")
    if p.suffix in SUFFIXES
)
TARGETS = [Target(), Target(launch_syntax="hip", translate_strings=True)]


def test_the_corpora_are_there() -> None:
    assert len(FILES) > 40


@pytest.mark.parametrize("target", TARGETS, ids=["default", "hip-launch-strings"])
def test_every_rule_alone_finds_what_the_engine_finds(target: Target) -> None:
    """run_rule(rule, file) == the engine's findings of that rule's codes, for every rule
    on every corpus file (HIP111 used to find nothing alone: it read the uses the rename
    rule had left in the context)."""
    by_code = {code: rule for rule in all_rules() for code in rule.codes}
    assert len(by_code) == sum(len(rule.codes) for rule in all_rules())  # a code, one rule
    compared = 0
    for path in FILES:
        source = path.read_bytes()
        whole = translate_source(source, path.name, target)
        assert whole.error is None, path
        for rule in all_rules():
            expected = [f for f in whole.findings if by_code.get(f.code) is rule]
            alone = run_rule(rule, source, path.name, target).findings
            assert alone == expected, (path.name, rule.name)
            compared += len(expected)
    assert compared > 100  # the corpora fire many rules


def test_device_runtime_call_alone() -> None:
    source = (
        b"#include <cuda_runtime.h>\n"
        b"__global__ void k(float *p) {\n"
        b"  cudaDeviceSynchronize();\n"
        b"  cudaMalloc(&p, 4);\n"
        b"}\n"
    )
    alone = run_rule("HIP111", source, "a.cu").findings
    assert [(f.code, f.api, f.location.line) for f in alone] == [
        ("HIP111", "cudaDeviceSynchronize", 3),
        ("HIP111", "cudaMalloc", 4),
    ]
    whole = translate_source(source, "a.cu", Target())
    assert [f for f in whole.findings if f.code == "HIP111"] == alone


def test_api_uses_carry_offsets_and_resolutions() -> None:
    source = b"void f() { cudaFree(p); obj.cudaFree(q); }\n"
    result = translate_source(source, "a.cu", Target())
    [use] = result.uses
    assert use.api == "cudaFree" and source[use.start : use.end] == b"cudaFree"
    assert (use.location.line, use.location.column) == (1, 12)


class _Marker:
    """A real rule (no edits): one finding at the first token of a file it runs on."""

    name = "marker"
    codes = ("HIP001",)
    triggers = Triggers(names=frozenset({"wanted"}), texts=(b"<<<",))

    def run(self, ctx: Context) -> RuleResult:
        return RuleResult(findings=[ctx.finding("HIP001", 0, 1, "ran")])


@pytest.mark.parametrize(
    ("source", "runs"),
    [
        (b"int wanted;\n", True),
        (b"k<<<1, 1>>>();\n", True),
        (b"int other; // wanted\n", False),  # a comment is no identifier
        (b"int other;\n", False),
    ],
)
def test_a_rule_runs_only_on_what_it_reacts_to(source: bytes, runs: bool) -> None:
    assert bool(run_rule(_Marker(), source).findings) == runs


def test_every_rewrite_declares_its_own_priority() -> None:
    """Overlapping edits are decided by the rules' declared priorities, never by the order
    they happen to run in: each rewrite states one, and no two are the same."""
    rewrites = [load_rule(module) for module in REWRITE_ORDER]
    priorities = [getattr(rule, "priority", None) for rule in rewrites]
    assert all(isinstance(p, int) for p in priorities), [r.name for r in rewrites]
    assert len(set(priorities)) == len(priorities)


def test_types_win_over_rename_and_the_dropped_edit_is_recorded() -> None:
    priority = rule_priorities()
    assert priority["types"] < priority["rename"]
    source = b"enum cudaDataType_t t;\n"
    result = translate_source(source, "a.cu", Target())
    assert result.output == b"hipDataType t;\n"
    assert [(e.rule, e.old) for e in result.edits] == [("types", b"enum cudaDataType_t")]
    assert [(e.rule, e.old) for e in result.dropped_edits] == [("rename", b"cudaDataType_t")]
    assert lex(result.output).texts[0] == "hipDataType"
