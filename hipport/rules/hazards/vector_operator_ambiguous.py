"""HIP114 vector-operator-ambiguous: compound assignment operators the program defines for
CUDA vector types, which HIP's vector types already define."""

from __future__ import annotations

import re

from hipport.catalogue import VECTOR_OPERATOR_AMBIGUOUS as INFO
from hipport.catalogue import Severity
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, KEYWORD
from hipport.rules.code_index import CodeIndex
from hipport.rules.hazards import HazardRule

_OPERATORS = frozenset({"+=", "-=", "*=", "/="})
_VECTOR = re.compile(r"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]\Z")


def check(v: CodeIndex) -> list[Finding]:
    out: list[Finding] = []
    operators = v.indices(("operator",), (KEYWORD, IDENTIFIER))
    if not operators:
        return out
    for k in operators:
        op = v.tokens.text(k + 1)
        if op not in _OPERATORS or not v.tokens.punct(k + 2, "("):
            continue
        close = v.tokens.match(k + 2)
        args = v.tokens.arguments(k + 2, close) if close is not None else None
        if not args or len(args) != 2:
            continue  # a member operator, or not a declaration we read
        types = [_vector_type(v, a, b) for a, b in args]
        if types[0] is None or types[0] != types[1] or v.is_dead(k):
            continue
        vector = types[0]
        finding = v.finding(
            INFO,
            k,
            close,
            f"operator{op}({vector}&, {vector}) is also defined by HIP's {vector}: uses become "
            "ambiguous under HIP; guard it with #ifndef __HIP_PLATFORM_AMD__",
            api=f"operator{op}",
            hint=INFO.fix,
        )
        if _used(v, vector, op, k, close):
            finding.severity = Severity.ERROR
            finding.message += f" (this file applies {op} to a {vector}: it does not compile)"
        out.append(finding)
    return out


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


RULE = HazardRule(INFO, check, frozenset({"operator"}) | _OPERATORS)
