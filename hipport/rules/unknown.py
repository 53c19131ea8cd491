"""Unknown names: identifiers that look like CUDA API (cuda*, cu[A-Z]*, CU_*, cublas*, ...)
but that the tables do not know and the project does not define (HIP004). CUDA's
predefined macros (CUDA_VERSION, __CUDA_ARCH__, ...) that HIP does not define get a
needs-human finding instead: an `#if` on them silently changes branch under HIP."""

from __future__ import annotations

import re

from hipport.catalogue import NEEDS_HUMAN, UNKNOWN
from hipport.findings import Finding, Severity, Use
from hipport.lexer import IDENTIFIER
from hipport.rules.context import Context, RuleResult
from hipport.rules.names import INCLUDE_GUARDS, PRESERVE
from hipport.rules.tokens import is_member_or_qualified
from hipport.tables import Resolution, Status

LOOKS_CUDA = re.compile(
    r"(?:cuda[A-Z_]\w*|cu[A-Z]\w*|CU_\w+|CUDA_\w+|CUDART_\w+|cublas\w*|CUBLAS_\w+|"
    r"curand\w*|CURAND_\w+|cusparse\w*|CUSPARSE_\w+|cusolver\w*|CUSOLVER_\w+|cufft\w*|"
    r"CUFFT_\w+|cudnn\w*|CUDNN_\w+|nvrtc\w*|NVRTC_\w+|cutensor\w*|CUTENSOR_\w+|"
    r"nvtx[A-Z]\w*|NVTX_\w+|__nv_\w+|__cuda\w*|"
    # the *_sync warp intrinsics: HIP has them only recently, the tables list a few
    r"__(?:ballot|all|any|uni|match_any|match_all|reduce_\w+)_sync)\Z"
)

# CUDA's predefined macros and what HIP offers instead.
CUDA_MACROS = {
    "CUDA_VERSION": "HIP_VERSION (ROCm's version, not CUDA's), or test __HIP_PLATFORM_AMD__",
    "CUDART_VERSION": "HIP_VERSION, or test __HIP_PLATFORM_AMD__",
    "__CUDA_ARCH__": "__HIP_DEVICE_COMPILE__ for device-side code; the architecture macros "
    "(__gfx90a__, ...) for a specific GPU",
    "__CUDA_ARCH_LIST__": "__HIP_DEVICE_COMPILE__ / gfx architecture macros",
    "__NVCC__": "__HIPCC__",
    "__CUDACC_VER_MAJOR__": "HIP_VERSION_MAJOR",
    "__CUDACC_VER_MINOR__": "HIP_VERSION_MINOR",
    "__CUDACC_VER_BUILD__": "HIP_VERSION_PATCH",
    "__CUDACC_RTC__": "__HIPCC_RTC__",
    "__CUDA_API_VERSION": "HIP_VERSION",
}
_UNKNOWN = Resolution("", Status.UNKNOWN)


class UnknownRule:
    name = "unknown"

    codes = (UNKNOWN.code, NEEDS_HUMAN.code)

    def run(self, ctx: Context) -> RuleResult:
        findings: list[Finding] = []
        uses: list[Use] = []
        tokens = ctx.tokens
        opts = ctx.options
        known = ctx.defined | opts.project_names | ctx.user_declared
        directive_at = ctx.directive_at
        seen_macro: set[str] = set()
        # name -> whether it may be reported (the tests that depend on the name only),
        # decided once per distinct name of the file
        candidate: dict[str, bool] = {}
        for i, tok in enumerate(tokens):
            if tok.kind != IDENTIFIER:
                continue
            name = tok.text
            macro_hint = CUDA_MACROS.get(name)
            if macro_hint is not None:
                if name not in known and name not in seen_macro:
                    seen_macro.add(name)
                    finding = ctx.finding(
                        NEEDS_HUMAN.code,
                        tok.start,
                        tok.end,
                        f"{name} is defined by nvcc, not by HIP: code testing it takes a "
                        f"different branch under HIP",
                        api=name,
                        hint=macro_hint,
                    )
                    if _guards_error(ctx, i):
                        finding.severity = Severity.ERROR
                        finding.message += "; an #error in this #if chain will fire"
                    findings.append(finding)
                continue
            ok = candidate.get(name)
            if ok is None:
                ok = candidate[name] = _may_report(ctx, name, known)
            if not ok:
                continue
            d = directive_at.get(i)
            if d is not None and d.name == "include":
                continue
            if is_member_or_qualified(tokens, i, ctx.directive_at):
                continue
            uses.append(ctx.use(tok, Resolution(name, Status.UNKNOWN)))
            findings.append(
                ctx.finding(
                    UNKNOWN.code,
                    tok.start,
                    tok.end,
                    f"{name} looks like CUDA but is not in hipport's tables",
                    api=name,
                )
            )
        return RuleResult(findings=findings, uses=uses)


def _may_report(ctx: Context, name: str, known: frozenset[str]) -> bool:
    """Looks like CUDA, is in no table and is not the project's own (wherever it is)."""
    if name.endswith(("_h__", "_H__")):
        return False  # a header's include guard (see names.INCLUDE_GUARDS), not API
    tables, opts = ctx.tables, ctx.options
    if not LOOKS_CUDA.match(name) or name in tables.by_cuda or tables.is_hip_name(name):
        return False
    return not (
        name in known
        or name in opts.user_renames
        or name in opts.disabled_mappings
        or name in PRESERVE
        or name in INCLUDE_GUARDS
    )


_OPENS = ("if", "ifdef", "ifndef")
_ARMS = ("elif", "else", "elifdef", "elifndef")


def _guards_error(ctx: Context, i: int) -> bool:
    """tokens[i] sits in an #if/#elif condition whose chain holds an #error directly."""
    d = ctx.directive_at.get(i)
    if d is None or d.name not in _OPENS + _ARMS:
        return False
    dirs = ctx.directives
    k = dirs.index(d)
    # back to the chain's #if, then forward through its arms at depth 0
    depth = 0
    while k > 0 and not (dirs[k].name in _OPENS and depth == 0):
        name = dirs[k].name
        if name == "endif":
            depth += 1
        elif name in _OPENS:
            depth -= 1
        k -= 1
    depth = 0
    for other in dirs[k + 1 :]:
        if other.name in _OPENS:
            depth += 1
        elif other.name == "endif":
            if depth == 0:
                return False
            depth -= 1
        elif other.name == "error" and depth == 0:
            return True
    return False


RULE = UnknownRule()
