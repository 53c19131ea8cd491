"""Declared rule inputs: the engine resolves the file's API uses before the rules run,
so every rule works alone (run_rule finds what the engine finds); a rule's triggers decide
whether it runs; rewrite priority decides overlapping edits, and a dropped edit is
recorded."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import hipport.engine
from hipport.catalogue import REWRITE_ORDER
from hipport.engine import EngineOptions, TranslationResult, run_rule, translate_source
from hipport.lexer import lex
from hipport.rules import RuleResult, Triggers, all_rules, load_rule, rule_priorities
from hipport.rules.context import Context
from hipport.target import Target, Version
from tests.test_engine_pairs import load_case
from tests.test_rule_cases import load

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


def test_every_rule_declares_what_it_reacts_to() -> None:
    """Each rule says what it reacts to; one that must see every file says why."""
    for rule in all_rules():
        triggers = rule.triggers
        assert isinstance(triggers, Triggers), rule.name
        declared = (triggers.names, triggers.data, triggers.texts, triggers.folded)
        assert triggers.every_file or any(declared), rule.name


class _Recorder:
    """A real rule of the engine, run as it is, that notes each call."""

    def __init__(self, rule: object, called: list[str]) -> None:
        self.rule, self.called = rule, called
        self.name, self.codes, self.triggers = rule.name, rule.codes, rule.triggers  # type: ignore[attr-defined]

    def run(self, ctx: Context) -> RuleResult:
        self.called.append(self.name)
        return self.rule.run(ctx)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("source", "target", "called"),
    [
        # reviewed by hand: `__device__` is a device marker (includes) and the device word
        # of HIP110 and HIP111; nothing else in it is anything a rule reacts to
        (
            b"__device__ int f(int x) { return x + 1; }\n",
            Target(),
            {"includes"} | {"dynamic-parallelism", "device-runtime-call"},
        ),
        # cudaMalloc: a table name (rename, includes, collapsing-overloads); `cu` is unknown's
        # bytes
        (
            b"void f(void **p) { cudaMalloc(p, 4); }\n",
            Target(),
            {"rename", "includes", "collapsing-overloads", "unknown"},
        ),
        # strings translated: the rename rule reads every file
        (
            b"__device__ int f(int x) { return x + 1; }\n",
            Target(translate_strings=True),
            {"rename", "includes", "dynamic-parallelism", "device-runtime-call"},
        ),
        (b"int asm_count; // a comment\n", Target(), {"inline-ptx"}),
    ],
    ids=["device-function", "runtime-call", "strings", "asm-bytes"],
)
def test_a_rule_whose_triggers_are_absent_is_not_called(
    monkeypatch: pytest.MonkeyPatch, source: bytes, target: Target, called: set[str]
) -> None:
    seen: list[str] = []
    recorders = tuple(_Recorder(rule, seen) for rule in all_rules())
    monkeypatch.setattr(hipport.engine, "all_rules", lambda: recorders)
    translate_source(source, "a.cu", target)
    assert set(seen) == called
    assert len(seen) == len(called)  # once each


def _case_files() -> list[tuple[Path, str, Target, EngineOptions | None]]:
    """Every corpus and consistency file (default target) and every rule and engine case
    under tests/cases, with its own target and options (the user's renames, ...)."""
    out: list[tuple[Path, str, Target, EngineOptions | None]] = [
        (p, p.name, Target(), None) for p in FILES
    ]
    for path in sorted((TESTS / "cases" / "rules").rglob("*.cu")):
        name, target, options = load(path)
        out.append((path, name, target, options))
    for path in sorted((TESTS / "cases" / "engine").rglob("*.cu")):
        _, _, target, options, name, _ = load_case(path)
        out.append((path, name, target, replace(options, check_invariants=False)))
    return out


def _everything(result: TranslationResult) -> tuple[object, ...]:
    return (result.output, result.edits, result.findings, result.uses, result.dropped_edits)


@pytest.mark.slow
@pytest.mark.parametrize(
    "extra",
    [
        None,
        Target(rocm=Version.parse("5.2"), launch_syntax="hip", translate_strings=True),
        Target(roc=True, amd_ext=True, experimental=True),
    ],
    ids=["own-target", "hip52-launch-strings", "roc-ext"],
)
def test_triggers_miss_nothing_a_rule_reacts_to(
    monkeypatch: pytest.MonkeyPatch, extra: Target | None
) -> None:
    """The engine with the trigger filter finds, edits and counts exactly what it does when
    every rule runs on every file, on every corpus file and test case: a name missing from
    a rule's triggers would lose that rule's results on a file holding only that name."""
    cases = _case_files()
    assert len(cases) > 600
    filtered = []
    for path, name, target, options in cases:
        filtered.append(
            _everything(translate_source(path.read_bytes(), name, extra or target, options))
        )
    monkeypatch.setattr(hipport.engine, "triggered", lambda rule, ctx: True)
    for (path, name, target, options), want in zip(cases, filtered, strict=True):
        got = _everything(translate_source(path.read_bytes(), name, extra or target, options))
        assert got == want, path
    by_code = {code: rule.name for rule in all_rules() for code in rule.codes}
    results = {e.rule for f in filtered for e in f[1]}  # type: ignore[attr-defined]
    results |= {by_code.get(x.code) for f in filtered for x in f[2]}  # type: ignore[attr-defined]
    # every rule had something to lose (each code has firing cases under tests/cases, for
    # their own targets; HIP 5.2 has no *_sync intrinsic for the warp-masks rule to widen)
    assert extra is not None or results >= {rule.name for rule in all_rules()}, {
        r.name for r in all_rules()
    } - results
