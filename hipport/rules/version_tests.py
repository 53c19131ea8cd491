"""HIP113 preprocessor-branch-flip: #if tests on nvcc's predefined macros (CUDART_VERSION,
CUDA_VERSION, __CUDACC_VER_MAJOR__, __CUDA_ARCH__, __NVCC__, ...) that take a different
branch under hipcc, which does not define them; and those macros used in code.

A chain of #if arms decided by CUDA's version numbers alone (CUDART_VERSION, CUDA_VERSION,
__CUDA_API_VERSION, __CUDACC_VER_*__) whose arm the CUDA build takes is known (the release
`--cuda` names, else every sampled release agrees): translate makes HIP compile that arm, as
the CUDA build did. It tests `__HIP_PLATFORM_AMD__` in the conditions that decide it (the
arm's own condition `defined(__HIP_PLATFORM_AMD__) || (...)`, an earlier arm HIP would take
`!defined(__HIP_PLATFORM_AMD__) && (...)`, so HIP on NVIDIA, which has CUDA's macros, reads
them as before) and says so in a note. Unless that arm is CUDA-only (it uses a name the
target HIP lacks, a CUDA device construct the gate knows HIP lacks, an nvcc macro in code):
then the flip stays, a warning while HIP compiles another arm in its place (a fallback the
program wrote for older CUDA), an error when HIP compiles nothing there. A flip that drops an
#include the CUDA build compiles (a stub built instead of the kernel header) is an error.
Other flips (__CUDA_ARCH__, __NVCC__, a CUDA arm that depends on the release when no --cuda
is given) are warnings, an error when the arm HIP compiles holds an #error; a use of such a
macro in code is an error (undeclared under HIP)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from hipport.catalogue import PREPROCESSOR_BRANCH_FLIP as INFO
from hipport.edits import Edit
from hipport.facts import verdict
from hipport.findings import Finding, Severity
from hipport.lexer import COMMENT, IDENTIFIER
from hipport.rules.branches import Arm, Chain
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.tokens import Directive
from hipport.tables import Status

if TYPE_CHECKING:
    from hipport.mappings import Mappings

# nvcc's macros that are CUDA's version number (their value under CUDA comes from --cuda
# or branches' sampled releases); the others (__CUDA_ARCH__, __NVCC__, ...) are not
# a release's and a flip on them is never rewritten
VERSION_MACROS = frozenset(
    {
        "CUDA_VERSION",
        "CUDART_VERSION",
        "__CUDA_API_VERSION",
        "__CUDACC_VER_MAJOR__",
        "__CUDACC_VER_MINOR__",
        "__CUDACC_VER_BUILD__",
    }
)
_HIP = "defined(__HIP_PLATFORM_AMD__)"
_NOT_AVAILABLE = (Status.UNSUPPORTED, Status.NEEDS_NEWER_ROCM, Status.REMOVED_HIP)


def _nvcc_macros(mappings: Mappings) -> Collection[str]:
    return mappings.gate.macros.keys()


class VersionTestRule:
    name = "version-tests"
    priority = 55
    codes = (INFO.code,)
    # no #if can test an nvcc macro, no code can use one, in a file that does not name one
    triggers = Triggers(data=_nvcc_macros)
    vocabulary = staticmethod(_nvcc_macros)

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        if ctx.identifiers.isdisjoint(ctx.mappings.gate.macros):
            return out  # no #if can test an nvcc macro, no code can use one
        for chain in ctx.branches.chains:
            flips = [i for i, arm in enumerate(chain.arms) if arm.cuda_macros and _flips(arm)]
            if not flips:
                continue
            taken = _cuda_taken(chain)
            why_not = None if taken is None else _cuda_only(ctx, chain, taken)
            if taken is not None and why_not is None:
                out.edits.extend(_rewrite(ctx, chain, taken))
                out.findings.append(_rewritten(ctx, chain, taken))
                continue
            for i in flips:
                out.findings.append(_arm_finding(ctx, chain, i, taken, why_not))
        out.findings.extend(_uses_in_code(ctx.code))
        return out


def _flips(arm: Arm) -> bool:
    return arm.hip is not None and bool(arm.cuda) and arm.cuda != {arm.hip}


def _cuda_taken(chain: Chain) -> int | None:
    """The arm the CUDA build takes (len(arms): none) when the chain rests on CUDA's version
    numbers only and their value (--cuda, or every sampled release) decides each arm; else
    None."""
    if not any(a.cuda_macros for a in chain.arms):
        return None
    for i, arm in enumerate(chain.arms):
        if not set(arm.cuda_macros) <= VERSION_MACROS:
            return None
        if arm.cuda_macros:
            if len(arm.cuda) != 1:
                return None  # the release decides it (no --cuda), or it cannot be read
            value = next(iter(arm.cuda))
        else:
            value = arm.hip  # no nvcc macro: the same under both compilers
        if value is None:
            return None
        if value:
            return i
    return len(chain.arms)


def _cuda_only(ctx: Context, chain: Chain, taken: int) -> str | None:
    """Why the arm the CUDA build takes cannot be HIP's (None: it can)."""
    if taken == len(chain.arms):
        return None
    start, end = chain.arms[taken].body
    for use in ctx.api_uses:
        if not start <= use.start < end:
            continue
        res = use.resolution
        if res.status in _NOT_AVAILABLE:
            return f"it uses {use.name}, which ROCm {_rocm(ctx)} does not have"
        if res.condition:  # the HIP name needs a macro the translated build does not define
            return f"it uses {use.name}, whose HIP name needs {res.condition} defined"
    facts = ctx.mappings.gate.facts
    toks = ctx.tokens
    newest = ctx.tables.newest_rocm
    own = ctx.defined | ctx.options.project_names
    in_directive = ctx.directive_at
    for i in ctx.where(set(ctx.mappings.gate.macros) & ctx.identifiers - own):
        if start <= toks.starts[i] < end and i not in in_directive:
            return f"it uses {toks.texts[i]} in code, which hipcc does not define"
    for i in ctx.where(set(facts) & ctx.identifiers - own):
        if start <= toks.starts[i] < end:
            name = toks.texts[i]
            fact = facts[name]
            if fact.kind != "macro" and verdict(fact, ctx.target, newest) is not None:
                return f"it uses {name}, which HIP does not have"
    return None


def _rocm(ctx: Context) -> str:
    return str(ctx.target.rocm or ctx.tables.newest_rocm)


def _cuda_named(ctx: Context) -> str:
    if ctx.target.cuda is not None:
        return f"CUDA {ctx.target.cuda} (--cuda)"
    return "every sampled CUDA release (--cuda names yours)"


# --- the rewrite -----------------------------------------------------------------------------


def _rewrite(ctx: Context, chain: Chain, taken: int) -> list[Edit]:
    """Make HIP take arm `taken`: arms before it that HIP reads as true get
    `!defined(__HIP_PLATFORM_AMD__) && (...)`, the arm itself, if HIP reads it as false,
    `defined(__HIP_PLATFORM_AMD__) || (...)`."""
    edits: list[Edit] = []
    for i, arm in enumerate(chain.arms[: taken + 1]):
        if i < taken and arm.hip:
            edits += _prefix(ctx, arm.directive, f"!{_HIP} && ")
        elif i == taken and arm.hip is False:
            edits += _prefix(ctx, arm.directive, f"{_HIP} || ")
    return edits


def _prefix(ctx: Context, d: Directive, prefix: str) -> list[Edit]:
    """`prefix` before the directive's condition, parenthesized; #ifdef M / #ifndef M become
    #if / #elif with defined(M) / !defined(M)."""
    toks = ctx.tokens
    code = [j for j in range(d.hash + 2, d.end) if toks.kinds[j] != COMMENT]
    if not code:
        return []
    first, last = code[0], code[-1]
    name = d.hash + 1
    rule = RULE.name
    if d.name in ("ifdef", "ifndef", "elifdef", "elifndef"):
        keyword = "if" if d.name.startswith("if") else "elif"
        negate = "!" if d.name.endswith("ndef") else ""
        return [
            ctx.edit(toks.starts[name], toks.ends[name], keyword, rule),
            ctx.edit(toks.starts[first], toks.starts[first], f"{prefix}{negate}defined(", rule),
            ctx.edit(toks.ends[first], toks.ends[first], ")", rule),
        ]
    return [
        ctx.edit(toks.starts[first], toks.starts[first], f"{prefix}(", rule),
        ctx.edit(toks.ends[last], toks.ends[last], ")", rule),
    ]


def _rewritten(ctx: Context, chain: Chain, taken: int) -> Finding:
    first = chain.arms[0].directive
    macros = ", ".join(sorted({m for a in chain.arms for m in a.cuda_macros}))
    if taken == len(chain.arms):
        what = "none of its arms"
    else:
        d = chain.arms[taken].directive
        what = f"the #{d.name} arm at line {_line(ctx, d.line_start)}"
    finding = ctx.finding(
        INFO.code,
        first.line_start,
        _directive_end(first),
        f"#{first.name} on {macros}: hipcc does not define {macros}, so HIP would take "
        f"another arm; translate makes HIP compile {what}, as {_cuda_named(ctx)} does "
        f"(the deciding conditions test {_HIP})",
        api=chain.arms[0].cuda_macros[0] if chain.arms[0].cuda_macros else macros.split(", ")[0],
    )
    finding.severity = Severity.NOTE
    return finding


# --- the findings that stay --------------------------------------------------------------------


def _line(ctx: Context, offset: int) -> int:
    return ctx.tokens.position(offset)[0]


def _directive_end(d: Directive) -> int:
    return d.line_end - 1 if d.line_end > d.line_start else d.line_end


def _arm_finding(
    ctx: Context, chain: Chain, i: int, cuda_taken: int | None, why_not: str | None
) -> Finding:
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
        _directive_end(d),
        message,
        api=arm.cuda_macros[0],
        hint="; ".join(f"{m}: {hints[m].instead}" for m in arm.cuda_macros if m in hints),
    )
    if why_not is not None and cuda_taken is not None:
        finding.message += (
            f"; translate cannot make HIP compile the arm {_cuda_named(ctx)} takes, as {why_not}"
        )
        if not _compiles_something(chain, taken):
            finding.severity = Severity.ERROR
            finding.message += ", and HIP compiles nothing in its place"
    elif taken is not None and taken < len(chain.arms) and _holds_error(ctx, chain.arms[taken]):
        finding.severity = Severity.ERROR
        finding.message += "; the arm HIP compiles holds an #error"
    dropped = _dropped_include(ctx, chain, taken)
    if dropped is not None:
        finding.severity = Severity.ERROR
        finding.message += (
            f"; the arm HIP drops includes {dropped}, which the CUDA build compiles "
            "(HIP builds what the other arm holds instead)"
        )
    return finding


def _compiles_something(chain: Chain, taken: int | None) -> bool:
    """HIP compiles an arm with something in it (a fallback for the CUDA-only arm)."""
    if taken is None or taken >= len(chain.arms):
        return False
    start, end = chain.arms[taken].body
    return start < end


def _holds_error(ctx: Context, arm: Arm) -> bool:
    """An #error directly in the arm (not in a nested #if)."""
    return any(d.name == "error" for d in _top_level(ctx, arm))


def _top_level(ctx: Context, arm: Arm) -> list[Directive]:
    """The directives directly in the arm (not in a nested #if)."""
    depth = 0
    out = []
    for d in ctx.directives:
        if d.line_start < arm.body[0] or d.line_start >= arm.body[1]:
            continue
        if d.name in ("if", "ifdef", "ifndef"):
            depth += 1
        elif d.name == "endif":
            depth -= 1
        elif depth == 0:
            out.append(d)
    return out


def _dropped_include(ctx: Context, chain: Chain, taken: int | None) -> str | None:
    """The first quoted #include (the project's own header, as a kernel header) directly in
    an arm some CUDA build takes that HIP does not."""
    if taken is None:
        return None
    for k, arm in enumerate(chain.arms):
        if k == taken or True not in arm.cuda or not arm.cuda_macros:
            continue
        for d in _top_level(ctx, arm):
            if d.name == "include":
                text = ctx.source[d.line_start : d.line_end].decode("utf-8", "replace")
                target = text.strip().removeprefix("#").strip().removeprefix("include").strip()
                if target.startswith('"'):
                    return target
    return None


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


RULE = VersionTestRule()
