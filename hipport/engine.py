"""One source text in, translated text and findings out. Pure: no files, no processes.

CONTRACT (shared by the runner, the CLI, the checks and the benchmark; keep it stable):

    translate_source(source: bytes, path: str, target: Target,
                     options: EngineOptions | None = None) -> TranslationResult

`source` is the file's bytes exactly as read (any encoding, BOM, CRLF); `output` is bytes
too, and every byte outside `edits` is identical to the input. `path` is used for
locations and to pick the language (.cu/.cuh are CUDA; .hip passes through unchanged).
It never raises on bad input: a file it cannot lex gets `error` set and output == source.
"""

from __future__ import annotations

import gc
import os
from bisect import bisect_left
from dataclasses import dataclass, field, replace

from hipport.catalogue import RULES, SEMANTIC_PARSE_ERROR
from hipport.edits import Edit, OverlappingEdits, apply, compose, normalize
from hipport.findings import Finding, Use
from hipport.lexer import SPLICE, LexError, Tokens, lex, might_need_translation
from hipport.mappings import load_mappings
from hipport.options import EngineOptions
from hipport.rules import (
    Context,
    Rule,
    RuleResult,
    all_rules,
    rule_for,
    rule_priorities,
    triggered,
    vocabulary,
)
from hipport.rules.branches import only_live
from hipport.rules.declared import defined_names, names_defined_by
from hipport.semantic import analyze
from hipport.target import Target

__all__ = [
    "EngineOptions",
    "TranslationResult",
    "Use",
    "defined_names",
    "explain_branches",
    "names_defined_by",
    "run_rule",
    "translate_source",
]


@dataclass
class TranslationResult:
    path: str
    source: bytes
    output: bytes
    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)
    defined_names: frozenset[str] = frozenset()  # names this file defines (project index)
    error: str | None = None  # set when the file could not be processed
    skipped_dead: int = 0  # findings dropped: in arms the HIP build never compiles
    dead_macros: tuple[str, ...] = ()  # the macros that decided those arms
    # Edits a rule proposed that overlapped an edit of a rule with priority over it, so
    # were not applied (for tests and debugging; not rendered, not cached).
    dropped_edits: list[Edit] = field(default_factory=list, compare=False, repr=False)

    @property
    def changed(self) -> bool:
        return self.output != self.source


# Debug switch for whole test runs (other suites, the corpus): check every translation.
_CHECK_ALWAYS = os.environ.get("HIPPORT_CHECK_INVARIANTS") == "1"


def translate_source(
    source: bytes, path: str, target: Target, options: EngineOptions | None = None
) -> TranslationResult:
    """Translate one source text (see the CONTRACT above). Never raises on bad input."""
    options = options or EngineOptions()
    result = _translate(source, path, target, options)
    if (options.check_invariants or _CHECK_ALWAYS) and result.error is None:
        _check_invariants(result, target, options)
    return result


def _translate(
    source: bytes, path: str, target: Target, options: EngineOptions
) -> TranslationResult:
    if not might_need_translation(source):  # .hip files too: a half-ported one is finished
        defined = defined_names(source, path, options.mappings)
        return TranslationResult(path, source, source, defined_names=defined)
    try:
        tokens = lex(source, path)
    except LexError as exc:
        return TranslationResult(path, source, source, error=str(exc))
    return _translate_tokens(source, tokens, path, target, options)


def _translate_tokens(
    source: bytes, tokens: Tokens, path: str, target: Target, options: EngineOptions
) -> TranslationResult:
    # The file's objects are freed by reference counting when it is done (Context.release
    # breaks the cycles among its lookups), so the cyclic collector is paused meanwhile:
    # otherwise it walks the file's tokens again and again while the rules allocate.
    collecting = gc.isenabled()
    gc.disable()
    ctx: Context | None = None
    try:
        ctx = _context(source, tokens, path, target, options)
        return _run_rules(source, ctx)
    finally:
        if ctx is not None:
            ctx.release()
        if collecting:
            gc.enable()


def _run_rules(source: bytes, ctx: Context) -> TranslationResult:
    options, path = ctx.options, ctx.path
    findings: list[Finding] = []
    if options.semantic or options.cuda_path or options.compile_args:
        findings.extend(_semantic(ctx))
    _inputs(ctx)
    edits: list[Edit] = []
    uses: list[Use] = []
    for rule in all_rules():
        if not triggered(rule, ctx):
            continue  # the file has nothing the rule reacts to
        result = rule.run(ctx)
        edits.extend(result.edits)
        findings.extend(result.findings)
        uses.extend(result.uses)
    # code the HIP build never compiles reports nothing and is not rewritten
    edits, findings, uses, skipped = only_live(ctx, edits, findings, uses)
    findings = once_per_file(findings)
    dropped: list[Edit] = []
    edits = _keep_splices(source, ctx.tokens, edits)
    edits = _drop_overlaps(_by_priority(compose(source, edits, dropped)), dropped)
    output = apply(source, edits)
    _sort(findings)
    result = TranslationResult(path, source, output, edits, findings, uses, ctx.defined)
    result.skipped_dead = skipped.findings
    result.dead_macros = skipped.macros
    result.dropped_edits = dropped
    return result


def _keep_splices(source: bytes, tokens: Tokens, edits: list[Edit]) -> list[Edit]:
    """An edit replacing a name spelled across a line splice (`cudaMal\\` newline `loc`,
    which the lexer reads as cudaMalloc) starts its new text with the splices it replaces
    (`\\` newline `hipMalloc`), so every later line keeps its number, the name is still
    next to the bytes around it as the compiler reads them, and the token after it keeps
    its offset (a splice in front of a token is part of it)."""
    if b"\\" not in source:
        return edits
    starts, ends = tokens.starts, tokens.ends
    out = []
    for e in edits:
        i = bisect_left(starts, e.start)
        if i < len(starts) and starts[i] == e.start and ends[i] == e.end and not e.parts:
            splices = b"".join(m.group() for m in SPLICE.finditer(source, e.start, e.end))
            if splices:
                e = replace(e, new=splices + e.new)
        out.append(e)
    return out


def _context(
    source: bytes, tokens: Tokens, path: str, target: Target, options: EngineOptions
) -> Context:
    mappings = options.mappings or load_mappings()
    ctx = Context(source, tokens, path, target, mappings, options, vocabulary=vocabulary(mappings))
    # the directive lines are found once per file, for this and for every rule
    ctx.defined = names_defined_by(tokens, ctx.directives, mappings.gate.macro_names)
    return ctx


def _inputs(ctx: Context) -> None:
    """What the engine works out for the rules before they run (their declared inputs):
    the file's CUDA API uses, resolved for the target."""
    ctx.api_uses  # noqa: B018 (made now, once: rename, includes and HIP111 read it)


# Other lines a merged finding lists (the count says how many there are in all).
_LINES_LISTED = 8


def once_per_file(findings: list[Finding]) -> list[Finding]:
    """The findings of rules the catalogue reports once per API and file (once_per_file):
    the first use of each API stays, saying how many uses the file has and where the next
    ones are; the others go. Runs after the dead-arm filter, so only live uses count."""
    if not any(RULES[f.code].once_per_file for f in findings):
        return findings  # the common case: no sort, no copy (the engine sorts after)
    merged: dict[tuple[str, str | None], list[Finding]] = {}
    out: list[Finding] = []
    for f in sorted(findings, key=lambda f: (f.location.line, f.location.column)):
        if not RULES[f.code].once_per_file:
            out.append(f)
            continue
        same = merged.setdefault((f.code, f.api), [])
        if not same:
            out.append(f)
        same.append(f)
    for same in merged.values():
        if len(same) < 2:
            continue
        first = same[0]
        lines = sorted({f.location.line for f in same[1:]} - {first.location.line})
        shown = ", ".join(map(str, lines[:_LINES_LISTED])) + (
            ", ..." if len(lines) > _LINES_LISTED else ""
        )
        where = f"; also line{'s' if len(lines) > 1 else ''} {shown}" if lines else ""
        note = f" ({len(same)} uses in this file{where})"
        out[out.index(first)] = replace(first, message=first.message + note)
    return out


def _sort(findings: list[Finding]) -> None:
    findings.sort(key=lambda f: (f.location.line, f.location.column, f.code))


def run_rule(
    rule: str | Rule,
    source: bytes,
    path: str = "input.cu",
    target: Target | None = None,
    options: EngineOptions | None = None,
) -> RuleResult:
    """Run one rule on one source as the engine would, without the other rules (for tests
    and exploration). `rule`: a code ("HIP101"), a rule name ("inline-ptx"), a rule module
    ("rules.hazards.inline_ptx") or a Rule object. The rule's inputs (the file's API uses,
    the semantic pass when the options ask for one) are made as the engine makes them, and
    its results in arms the HIP build never compiles dropped, so it finds what it finds in
    a whole run."""
    options = options or EngineOptions()
    target = target or Target()
    the_rule = rule_for(rule) if isinstance(rule, str) else rule
    ctx = _context(source, lex(source, path), path, target, options)
    try:
        if options.semantic or options.cuda_path or options.compile_args:
            _semantic(ctx)
        _inputs(ctx)
        result = the_rule.run(ctx) if triggered(the_rule, ctx) else RuleResult()
        # as in a whole run: nothing in an arm the HIP build never compiles
        edits, findings, uses, _ = only_live(ctx, result.edits, result.findings, result.uses)
        findings = once_per_file(findings)
    finally:
        ctx.release()
    _sort(findings)
    return RuleResult(edits, findings, uses)


def _semantic(ctx: Context) -> list[Finding]:
    info = analyze(ctx.source, ctx.path, ctx.options.cuda_path, ctx.options.compile_args)
    if info.errors:
        return [
            ctx.finding(SEMANTIC_PARSE_ERROR.code, 0, 0, "semantic pass: " + "; ".join(info.errors))
        ]
    # Declared in this file and not by the toolkit: the user's own (never renamed/reported).
    ctx.user_declared = info.user_declared
    ctx.confirmed_launches = info.launches
    return []


def _by_priority(edits: list[Edit]) -> list[Edit]:
    """The edits in the order of their rules' priority (Rule.priority: lower first; a
    stable sort keeps each rule's own order)."""
    priority = rule_priorities()
    return sorted(edits, key=lambda e: priority.get(e.rule, 0))


def _drop_overlaps(edits: list[Edit], dropped: list[Edit]) -> list[Edit]:
    """Keep edits in priority order; an edit overlapping one kept earlier is dropped (the
    rule with priority wins) and recorded in `dropped`. Zero-width inserts touching a
    replacement do not overlap."""
    try:
        return normalize(edits)
    except OverlappingEdits:
        pass
    kept: list[Edit] = []
    for edit in edits:
        if any(_overlap(edit, k) for k in kept):
            dropped.append(edit)
        else:
            kept.append(edit)
    return normalize(kept)


def _overlap(a: Edit, b: Edit) -> bool:
    if a.start == a.end and b.start == b.end:
        return a.start == b.start and a.new != b.new
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def _check_invariants(result: TranslationResult, target: Target, options: EngineOptions) -> None:
    """Debug only: bytes outside edits are unchanged, and a second run changes nothing."""
    pos = 0
    out = 0
    for edit in sorted(result.edits, key=lambda e: (e.start, e.end)):
        gap = edit.start - pos
        assert result.source[pos : edit.start] == result.output[out : out + gap], "bytes changed"
        out += gap + len(edit.new)
        pos = edit.end
    assert result.source[pos:] == result.output[out:], "bytes changed after the last edit"
    again = _translate(result.output, result.path, target, options)
    assert again.output == result.output, f"{result.path}: a second translation changed it"


def explain_branches(
    source: bytes,
    path: str,
    target: Target,
    options: EngineOptions | None = None,
    shown: str | None = None,
) -> list[str]:
    """Each #if arm of `source` with its verdict under the HIP build and why, one line per
    arm after a heading line (hipport check --show-branches); lines name the file `shown`
    (default: `path`, the root-relative name the model looks headers up by)."""
    from hipport.rules.branches import explain

    options = options or EngineOptions()
    try:
        tokens = lex(source, path)
    except LexError as exc:
        return [f"{shown or path}: cannot read: {exc}"]
    ctx = _context(source, tokens, path, target, options)
    try:
        return explain(ctx, shown)
    finally:
        ctx.release()


# --- the names a file defines (for unknown-name checks and the project index) ----------
# defined_names and names_defined_by are hipport.rules.declared's, imported above (and
# part of this API: hipport.engine.defined_names).
