"""HIP028 coordinate-cast: a built-in coordinate (`threadIdx.x`, `blockDim.x`, ...) passed to
a function whose overloads its HIP type makes ambiguous (`min(rem, blockDim.x)` with an
unsigned `rem`). In CUDA the coordinates are `unsigned int`; in HIP 5.2 they are proxy types
that convert to it, so a call that needs the conversion on one side and another on the
other matches several overloads of clang's min/max. The facts, with the releases they hold
for, are the gate's reviewed data (mappings/gate_facts.tsv, kind `coordinate-argument`).

translate casts the coordinate to `unsigned int`, its CUDA type (the meaning is unchanged),
where the call is ambiguous: the other argument is another coordinate, an unsigned literal
(`256u`), or a variable the function declares unsigned, size_t or long. Where the other
argument's type is unseen, nothing is done (a plain `int` resolves without help)."""

from __future__ import annotations

from hipport.catalogue import COORDINATE_CAST as INFO
from hipport.facts import verdict
from hipport.lexer import IDENTIFIER, LITERAL
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.lane_masks import declared_type

COORDINATES = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim"})
CAST = "(unsigned int)"
# declared with one of these, a variable makes min(var, blockDim.x) ambiguous under HIP 5.2
_WIDE_OR_UNSIGNED = frozenset(
    {"unsigned", "size_t", "uint32_t", "uint64_t", "long", "uint", "ulong", "unsigned_int"}
)


class CoordinateCastRule:
    name = "coordinate-casts"
    priority = 47
    codes = (INFO.code,)
    triggers = Triggers(names=COORDINATES)

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        facts = ctx.mappings.gate.coordinate_arguments
        names = ctx.present(facts.keys())
        if not names:
            return out
        v = ctx.code
        for k in v.indices(names):
            fact = facts[v.tokens.texts[k]]
            if verdict(fact, ctx.target, ctx.tables.newest_rocm) is None:
                continue  # the target's coordinates resolve
            if v.tokens.is_member(k) or v.tokens.text(k - 1) == "::":
                continue
            if not v.tokens.punct(k + 1, "("):
                continue
            close = v.tokens.match(k + 1)
            args = v.tokens.arguments(k + 1, close) if close is not None else None
            if not args or len(args) != 2 or v.in_directive_at(k):
                continue
            coords = [a for a, b in args if _coordinate(v, a, b)]
            if not coords or not _ambiguous(v, args) or v.is_dead(k):
                continue
            for a in coords:
                out.edits.append(ctx.edit(v.tokens.start(a), v.tokens.start(a), CAST, self.name))
                shown = "".join(v.tokens.texts[a : a + 3])
                out.findings.append(
                    v.finding(
                        INFO,
                        a,
                        a + 2,
                        f"{shown} cast to unsigned int, its CUDA type: under HIP "
                        f"{fact.checked_absent_in} its proxy type makes this "
                        f"{v.tokens.texts[k]}() call ambiguous",
                        api=v.tokens.texts[k],
                    )
                )
        return out


def _coordinate(v: CodeIndex, a: int, b: int) -> bool:
    t = v.tokens
    return (
        b - a == 3
        and t.texts[a] in COORDINATES
        and t.punct(a + 1, ".")
        and t.texts[a + 2] in ("x", "y", "z")
    )


def _ambiguous(v: CodeIndex, args: list[tuple[int, int]]) -> bool:
    """The call matches several overloads: both arguments are coordinates, or the other one
    is an unsigned literal or a variable declared unsigned or wider than int."""
    others = [(a, b) for a, b in args if not _coordinate(v, a, b)]
    if not others:
        return True
    (a, b) = others[0]
    t = v.tokens
    if b - a != 1:
        return False
    if t.kinds[a] == LITERAL:
        return t.texts[a].rstrip("lL").lower().endswith("u")
    if t.kinds[a] != IDENTIFIER:
        return False
    words = declared_type(v, a)
    return words is not None and not _WIDE_OR_UNSIGNED.isdisjoint(words)


RULE = CoordinateCastRule()
