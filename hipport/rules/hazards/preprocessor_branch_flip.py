"""HIP113 preprocessor-branch-flip: #if tests on nvcc's predefined macros (CUDART_VERSION,
CUDA_VERSION, __CUDACC_VER_MAJOR__, __CUDA_ARCH__, __NVCC__, ...) that take a different
branch under hipcc, which does not define them; and those macros used in code."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from hipport.catalogue import PREPROCESSOR_BRANCH_FLIP as INFO
from hipport.catalogue import Severity
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER
from hipport.rules.branches import Arm, Chain
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule

if TYPE_CHECKING:
    from hipport.mappings import Mappings
    from hipport.rules.context import Context


def check(v: CodeIndex) -> list[Finding]:
    ctx = v.ctx
    if ctx.identifiers.isdisjoint(ctx.mappings.gate.macros):
        return []  # no #if can test an nvcc macro, no code can use one
    found = ctx.branches
    out: list[Finding] = []
    for chain in found.chains:
        for i, arm in enumerate(chain.arms):
            if arm.cuda_macros and _flips(arm):
                out.append(_arm_finding(ctx, chain, i))
    out.extend(_uses_in_code(v))
    return out


def _flips(arm: Arm) -> bool:
    return arm.hip is not None and bool(arm.cuda) and arm.cuda != {arm.hip}


def _line(ctx: Context, offset: int) -> int:
    return ctx.tokens.position(offset)[0]


def _arm_finding(ctx: Context, chain: Chain, i: int) -> Finding:
    arm = chain.arms[i]
    d = arm.directive
    macros = ", ".join(arm.cuda_macros)
    taken = chain.taken_by_hip
    if taken is None:
        which = "which arm HIP compiles depends on the program's own macros"
    elif taken == len(chain.arms):
        which = "HIP compiles no arm of this #if chain"
    else:
        t = chain.arms[taken]
        which = (
            f"HIP compiles the #{t.directive.name} arm at line {_line(ctx, t.directive.line_start)}"
        )
    dead = [a for k, a in enumerate(chain.arms) if k != taken and a.body[0] < a.body[1]]
    dead_lines = ", ".join(
        f"{_line(ctx, a.body[0])}-{max(_line(ctx, a.body[0]), _line(ctx, a.body[1]) - 1)}"
        for a in dead
    )
    message = (
        f"#{d.name} on {macros}: hipcc does not define {macros} (read as 0 / undefined), so "
        f"this condition is {'true' if arm.hip else 'false'} under HIP where CUDA can take "
        f"the other way; {which}"
        + (f"; lines {dead_lines} are dead under HIP" if taken is not None and dead_lines else "")
    )
    hints = ctx.mappings.gate.macros
    finding = ctx.finding(
        INFO.code,
        d.line_start,
        d.line_end - 1 if d.line_end > d.line_start else d.line_end,
        message,
        api=arm.cuda_macros[0],
        hint="; ".join(f"{m}: {hints[m].instead}" for m in arm.cuda_macros if m in hints),
    )
    if taken is not None and taken < len(chain.arms) and _holds_error(ctx, chain.arms[taken]):
        finding.severity = Severity.ERROR
        finding.message += "; the arm HIP compiles holds an #error"
    return finding


def _holds_error(ctx: Context, arm: Arm) -> bool:
    """An #error directly in the arm (not in a nested #if)."""
    depth = 0
    for d in ctx.directives:
        if d.line_start < arm.body[0] or d.line_start >= arm.body[1]:
            continue
        if d.name in ("if", "ifdef", "ifndef"):
            depth += 1
        elif d.name == "endif":
            depth -= 1
        elif d.name == "error" and depth == 0:
            return True
    return False


def _uses_in_code(v: CodeIndex) -> list[Finding]:
    """An nvcc macro used in code (not in a directive): undeclared under HIP."""
    macros = v.ctx.mappings.gate.macros
    ks = v.indices(macros, (IDENTIFIER,))
    if not ks:
        return []
    ctx = v.ctx
    own = ctx.defined | ctx.options.project_names
    out = []
    for k in ks:
        name = v.tokens[k].text
        if name in own or v.in_directive_at(k) or v.is_dead(k):
            continue
        out.append(
            v.finding(
                INFO,
                k,
                k,
                f"{name} is defined by nvcc, not by hipcc: this use does not compile under HIP "
                f"(use {macros[name].instead})",
                api=name,
                hint=macros[name].instead,
            )
        )
        out[-1].severity = Severity.ERROR
    return out


def _nvcc_macros(mappings: Mappings) -> Collection[str]:
    return mappings.gate.macros.keys()


# no #if can test an nvcc macro, no code can use one, in a file that does not name one
RULE = HazardRule(INFO, check, Triggers(data=_nvcc_macros), _nvcc_macros)
