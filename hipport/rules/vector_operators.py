"""HIP114 vector-operator-ambiguous: a free operator the program defines for two CUDA vector
operands (float3, int2, ...) that the target HIP's vector types define too, as non-template
functions (mappings/vector_operators.tsv, read from each release's headers: += -= *= /= in
HIP 5.2, and binary * and / from 6.3). Under HIP both match exactly and every use is
ambiguous.

HIP's operator does the same component-wise arithmetic, so translate keeps the program's
definition out of the HIP build: it guards it with `#if !defined(__HIP_PLATFORM_AMD__)` ...
`#endif` (adjacent definitions share one guard) and says so in a note. Where it cannot (the
definition shares its lines with other code or sits in a macro, or returns something else
than HIP's operator does), the finding is a warning, an error where the file visibly applies
the operator to a variable of that vector type."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from hipport.catalogue import VECTOR_OPERATOR_AMBIGUOUS as INFO
from hipport.findings import Finding, Severity
from hipport.lexer import IDENTIFIER, KEYWORD
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.guards import (
    GUARD_OPEN,
    declaration_extent,
    guard_edits,
    guardable,
    merge_runs,
)
from hipport.target import Version

_VECTOR = re.compile(r"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]\Z")
# the operators a release can list (mappings/vector_operators.tsv)
_OPERATORS = frozenset({"+", "-", "*", "/", "+=", "-=", "*=", "/="})
# words of a declaration's head that are not its result type
_SPECIFIERS = frozenset(
    {
        "inline",
        "static",
        "extern",
        "constexpr",
        "__host__",
        "__device__",
        "__forceinline__",
        "__inline__",
        "const",
        "&",
    }
)
_COMMENT = "HIP's vector types define these operators"


@dataclass(frozen=True)
class _Definition:
    k: int  # the `operator` token
    close: int  # its parameter list's `)`
    op: str
    vector: str
    extent: tuple[int, int] | None  # (first, last) code tokens of the whole declaration
    why_not: str | None  # why translate does not guard it (None: it does)


class VectorOperatorRule:
    name = "vector-operators"
    priority = 45
    codes = (INFO.code,)
    triggers = Triggers(texts=(b"operator",))
    vocabulary = frozenset({"operator"}) | _OPERATORS

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        v = ctx.code
        ks = v.indices(("operator",), (KEYWORD, IDENTIFIER))
        if not ks:
            return out
        rocm = ctx.target.rocm or ctx.tables.newest_rocm
        release, hip_ops = ctx.mappings.vector_operators.for_target(rocm)
        found = [d for k in ks if (d := _definition(ctx, v, k, hip_ops)) is not None]
        if not found:
            return out
        runs = [d.extent for d in found if d.why_not is None and d.extent is not None]
        out.edits.extend(guard_edits(ctx, v, merge_runs(v, runs), _COMMENT, self.name))
        for d in found:
            out.findings.append(_finding(v, d, release, rocm, hip_ops[d.op]))
        return out


def _definition(ctx: Context, v: CodeIndex, k: int, hip_ops: dict[str, str]) -> _Definition | None:
    """The program's operator at token k when it is one HIP defines for its operands."""
    toks = v.tokens
    op = toks.text(k + 1)
    if op not in hip_ops or not toks.punct(k + 2, "("):
        return None
    close = toks.match(k + 2)
    args = toks.arguments(k + 2, close) if close is not None else None
    if close is None or not args or len(args) != 2:
        return None  # a member operator, or not a declaration we read
    types = [_vector_type(v, a, b) for a, b in args]
    if types[0] is None or types[0] != types[1] or v.is_dead(k):
        return None
    vector = types[0]
    extent = declaration_extent(v, k, close)
    if extent is not None:
        head = toks.texts[extent[0] : k]
        if "friend" in head or "template" in head:
            return None  # a class's friend or a template: not a free non-template clash
    return _Definition(k, close, op, vector, extent, _why_not(ctx, v, k, op, vector, extent))


def _why_not(
    ctx: Context, v: CodeIndex, k: int, op: str, vector: str, extent: tuple[int, int] | None
) -> str | None:
    if extent is None:
        return "it is not a whole declaration outside a macro"
    first, last = extent
    if not op.endswith("="):  # binary: HIP's returns the vector
        result = [
            t
            for t in v.tokens.texts[first:k]
            if t not in _SPECIFIERS and not t.startswith("__attribute__")
        ]
        if vector not in result:
            shown = " ".join(result) or "no type"
            return f"it returns {shown} where HIP's operator returns {vector}"
    return guardable(ctx, v, first, last)


def _finding(
    v: CodeIndex, d: _Definition, release: Version, rocm: Version, hip_declaration: str
) -> Finding:
    signature = f"operator{d.op}({d.vector}, {d.vector})"
    evidence = f"HIP {release}"
    if rocm > release:
        evidence += f" (the newest headers read; the target is ROCm {rocm})"
    said = (
        f"{signature} is also defined by {evidence} for its {d.vector} "
        f"({hip_declaration}), so a use is ambiguous under HIP"
    )
    if d.why_not is None:
        return replace(
            v.finding(
                INFO,
                d.k,
                d.close,
                f"{said}: translate guards this definition with {GUARD_OPEN} (HIP's operator "
                "does the same component-wise arithmetic)",
                api=f"operator{d.op}",
            ),
            severity=Severity.NOTE,
        )
    finding = v.finding(
        INFO,
        d.k,
        d.close,
        f"{said}; translate leaves it, as {d.why_not}: {_advice(d.why_not)}",
        api=f"operator{d.op}",
        hint=INFO.fix,
    )
    if _used(v, d.vector, d.op, d.k, d.close):
        finding = replace(
            finding,
            severity=Severity.ERROR,
            message=finding.message + f" (this file applies {d.op} to a {d.vector})",
        )
    return finding


def _advice(why_not: str) -> str:
    if why_not.startswith("it returns"):  # it computes something else: guarding changes meaning
        return "give it a name of its own (a function such as dot())"
    return f"guard it with {GUARD_OPEN} by hand"


def _vector_type(v: CodeIndex, a: int, b: int) -> str | None:
    names = [v.tokens.texts[j] for j in range(a, b) if v.tokens.kinds[j] == IDENTIFIER]
    return next((n for n in names if _VECTOR.match(n)), None)


def _used(v: CodeIndex, vector: str, op: str, a: int, b: int) -> bool:
    """Some variable declared as `vector name` is the left operand of `op` outside [a, b]."""
    declared = {
        v.tokens.texts[k + 1]
        for k in v.indices((vector,))
        if k + 1 < len(v.tokens) and v.tokens.kinds[k + 1] == IDENTIFIER
    }
    if not declared:
        return False
    for k in v.indices((op,), ("punctuation",)):
        if a <= k <= b or k == 0:
            continue
        if v.tokens.texts[k - 1] in declared or (
            v.tokens.texts[k - 1] == "]" and _indexed_name(v, k - 1) in declared
        ):
            return True
    return False


def _indexed_name(v: CodeIndex, close: int) -> str:
    """`name` of `name[...]` whose `]` is at `close`."""
    depth = 0
    for j in range(close, -1, -1):
        if v.tokens.texts[j] == "]":
            depth += 1
        elif v.tokens.texts[j] == "[":
            depth -= 1
            if depth == 0:
                return v.tokens.texts[j - 1] if j else ""
    return ""


RULE = VectorOperatorRule()
