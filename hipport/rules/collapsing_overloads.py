"""HIP026 overloads-collapse: two definitions of one function that differ only in CUDA types
which map to the same HIP type (`_cudaGetErrorEnum(cudaError_t)` and
`_cudaGetErrorEnum(CUresult)`, both `hipError_t`) are one function defined twice under HIP.

translate keeps the first definition and guards each later one with
`#if !defined(__HIP_PLATFORM_AMD__)` ... `#endif` (a note says which it kept); the calls
that reached the later one reach the first, which takes the same HIP type. A definition it
cannot guard (it shares its lines with other code) is an error that names the fix.
Definitions in different arms of one #if chain never meet and are left alone."""

from __future__ import annotations

from dataclasses import replace

from hipport.catalogue import OVERLOAD_COLLAPSES as INFO
from hipport.findings import Severity
from hipport.lexer import IDENTIFIER
from hipport.rules.code_index import Body, CodeIndex
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.guards import GUARD_OPEN, declaration_extent, guard_edits, guardable
from hipport.rules.tokens import opening_bracket
from hipport.tables import Status

_AFTER_PARAMETERS = frozenset({"const", "noexcept", "volatile", "&", "&&", "override", "final"})


class CollapsingOverloadRule:
    name = "collapsing-overloads"
    priority = 46
    codes = (INFO.code,)
    # two parameter lists that differ as written and agree under HIP hold a mapped CUDA name
    triggers = Triggers(data=lambda mappings: mappings.tables.by_cuda.keys())

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        v = ctx.code
        by_name: dict[str, list[Body]] = {}
        for body in v.bodies:
            if body.name and body.name != "operator":
                by_name.setdefault(body.name, []).append(body)
        for name, bodies in by_name.items():
            if len(bodies) > 1:
                _collapse(ctx, v, name, bodies, out)
        return out


def _collapse(ctx: Context, v: CodeIndex, name: str, bodies: list[Body], out: RuleResult) -> None:
    kept: dict[tuple, tuple[Body, tuple, int]] = {}  # (scope, HIP types) -> the first
    for body in bodies:
        found = _signature(ctx, v, body)
        if found is None:
            continue
        cuda, hip, open_ = found
        key = (_scope(v, body.head), hip)
        first = kept.get(key)
        if first is None:
            kept[key] = (body, cuda, open_)
            continue
        if first[1] == cuda or _exclusive(ctx, v, first[0], body) or v.is_dead(body.open):
            continue
        _guard(ctx, v, name, open_, first[2], hip, out)


def _signature(ctx: Context, v: CodeIndex, body: Body) -> tuple[tuple, tuple, int] | None:
    """The parameter types as written and under HIP, and the parameter list's `(`."""
    toks = v.tokens
    p = body.open - 1
    while p >= 0 and toks.texts[p] in _AFTER_PARAMETERS:
        p -= 1
    open_ = opening_bracket(toks.texts, p) if toks.punct(p, ")") else None
    if open_ is None or "template" in toks.texts[body.head : open_]:
        return None
    args = toks.arguments(open_, p)
    if args is None:
        return None
    cuda, hip = [], []
    for a, b in args:
        words = toks.texts[a:b]
        if len(words) > 1 and toks.kinds[b - 1] == IDENTIFIER and "=" not in words:
            words = words[:-1]  # the parameter's name
        cuda.append(tuple(words))
        hip.append(tuple(_hip_name(ctx, w) for w in words))
    return tuple(cuda), tuple(hip), open_


def _hip_name(ctx: Context, word: str) -> str:
    if not word[:1].isalpha() and word[:1] != "_":
        return word
    res = ctx.resolve(word)
    return res.new_name if res.status is Status.MAPPED and res.new_name else word


def _scope(v: CodeIndex, k: int) -> int:
    """The code index of the `{` enclosing token k (-1: the file)."""
    texts = v.tokens.texts
    depth = 0
    for j in range(k - 1, -1, -1):
        t = texts[j]
        if t == "}" and v.tokens.punct(j, "}"):
            depth += 1
        elif t == "{" and v.tokens.punct(j, "{"):
            if depth == 0:
                return j
            depth -= 1
    return -1


def _exclusive(ctx: Context, v: CodeIndex, a: Body, b: Body) -> bool:
    """a and b sit in different arms of one #if chain."""
    at_a, at_b = v.tokens.start(a.open), v.tokens.start(b.open)
    for chain in ctx.branches.chains:
        arm_a = [i for i, arm in enumerate(chain.arms) if arm.body[0] <= at_a < arm.body[1]]
        arm_b = [i for i, arm in enumerate(chain.arms) if arm.body[0] <= at_b < arm.body[1]]
        if arm_a and arm_b and arm_a != arm_b:
            return True
    return False


def _guard(
    ctx: Context,
    v: CodeIndex,
    name: str,
    open_: int,
    first_open: int,
    hip: tuple,
    out: RuleResult,
) -> None:
    toks = v.tokens
    shown = f"{name}({', '.join(' '.join(t) for t in hip)})"
    first_line = toks[first_open - 1].line
    said = (
        f"this {name} and the one at line {first_line} are both {shown} under HIP (their CUDA "
        "parameter types map to the same HIP types): a redefinition"
    )
    extent = declaration_extent(v, open_ - 1, toks.match(open_) or open_)
    why_not = "it is not a whole declaration" if extent is None else guardable(ctx, v, *extent)
    if extent is not None and why_not is None:
        out.edits.extend(guard_edits(ctx, v, [extent], f"one {shown} under HIP", RULE.name))
        finding = v.finding(
            INFO,
            open_ - 1,
            open_ - 1,
            f"{said}; translate keeps the first and guards this one with {GUARD_OPEN}",
            api=name,
        )
        out.findings.append(finding)
        return
    finding = v.finding(
        INFO,
        open_ - 1,
        open_ - 1,
        f"{said}; translate leaves it, as {why_not}: guard it with {GUARD_OPEN} by hand",
        api=name,
        hint=INFO.fix,
    )
    out.findings.append(replace(finding, severity=Severity.ERROR))


RULE = CollapsingOverloadRule()
