"""Unknown names: identifiers that look like CUDA API (cuda*, cu[A-Z]*, CU_*, cublas*, ...)
but that the tables do not know and the project does not define (HIP004). Names the gate
facts know (nvcc's predefined macros, device functions HIP lacks: mappings/gate_facts.tsv)
are reported by their hazards with the evidence (HIP112, HIP113), and code in an #if arm
hipcc does not compile is skipped."""

from __future__ import annotations

import re

from hipport.catalogue import UNKNOWN
from hipport.findings import Finding, Use
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.names import PRESERVE
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

# LOOKS_CUDA over the file's names joined by newlines: the names that look like CUDA,
# found in one pass (a name holding a line splice may yield a part of it: harmless, the
# candidates are only looked up among the identifier tokens)
_LOOKS_CUDA_LINES = re.compile(f"(?m)^(?:{LOOKS_CUDA.pattern.removesuffix(chr(92) + 'Z')})$")

_UNKNOWN = Resolution("", Status.UNKNOWN)


class UnknownRule:
    name = "unknown"
    priority = 60

    codes = (UNKNOWN.code,)
    # every name LOOKS_CUDA accepts holds one of these bytes (cu/CU: cuda*, cu[A-Z]*,
    # CU_*, CUDA_*, cublas*, __cuda*, ...; nv/NV: nvrtc*, NVTX_*, __nv_*; _sync)
    triggers = Triggers(texts=(b"cu", b"CU", b"nv", b"NV", b"_sync"))

    def run(self, ctx: Context) -> RuleResult:
        findings: list[Finding] = []
        uses: list[Use] = []
        opts = ctx.options
        # the sets are looked in, not joined per file: the project's names can be many
        known = (ctx.defined, opts.project_names, ctx.user_declared)
        # the file's distinct names that look like CUDA (one regex pass over them all),
        # then the tests that depend on the name only, once per name
        looks = _LOOKS_CUDA_LINES.findall("\n".join(ctx.identifiers))
        candidates = {name for name in looks if _may_report(ctx, name, known)}
        if not candidates:
            return RuleResult()
        toks = ctx.tokens
        texts, starts, ends = toks.texts, toks.starts, toks.ends
        directive_at = ctx.directive_at
        dead = None
        for i in ctx.where(candidates):
            d = directive_at.get(i)
            if d is not None and d.name == "include":
                continue
            if is_member_or_qualified(toks, i, directive_at):
                continue
            if dead is None:
                dead = ctx.branches
            if dead.is_dead(starts[i]):
                continue  # in an #if arm hipcc does not compile
            name = texts[i]
            # ctx.use(token, Resolution(name, Status.UNKNOWN)), without making the token
            loc = ctx.token_location(i)
            uses.append(Use(name, None, Status.UNKNOWN, loc))
            findings.append(
                ctx.finding(
                    UNKNOWN.code,
                    starts[i],
                    ends[i],
                    f"{name} looks like CUDA but is not in hipport's tables",
                    loc,
                    api=name,
                )
            )
        return RuleResult(findings=findings, uses=uses)


def _may_report(ctx: Context, name: str, known: tuple[frozenset[str], ...]) -> bool:
    """Looks like CUDA, is in no table and is not the project's own (wherever it is)."""
    if name.endswith(("_h__", "_H__")):
        return False  # a header's include guard (mappings/include_guards.tsv), not API
    tables, opts = ctx.tables, ctx.options
    if not LOOKS_CUDA.match(name) or name in tables.by_cuda or tables.is_hip_name(name):
        return False
    return not (
        any(name in names for names in known)
        or name in opts.user_renames
        or name in opts.disabled_mappings
        or name in PRESERVE
        or name in ctx.mappings.include_guards.known
        # reported by the gate with its evidence (HIP112, HIP113)
        or name in ctx.mappings.gate.facts
    )


RULE = UnknownRule()
