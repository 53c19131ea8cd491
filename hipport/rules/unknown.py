"""Unknown names: identifiers that look like CUDA API (cuda*, cu[A-Z]*, CU_*, cublas*, ...)
but that the tables do not know and the project does not define (HIP004). Names the gate
facts know (nvcc's predefined macros, device functions HIP lacks: mappings/gate_facts.tsv)
are reported by their hazards with the evidence (HIP112, HIP113), and code in an #if arm
hipcc does not compile is skipped."""

from __future__ import annotations

import re
from collections.abc import Container
from itertools import repeat

from hipport.catalogue import UNKNOWN
from hipport.findings import Use
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.names import PRESERVE
from hipport.rules.tokens import is_member_or_qualified
from hipport.tables import Status
from hipport.tokens import COMMENT

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


class UnknownRule:
    name = "unknown"
    priority = 60

    codes = (UNKNOWN.code,)
    # every name LOOKS_CUDA accepts holds one of these bytes (cu/CU: cuda*, cu[A-Z]*,
    # CU_*, CUDA_*, cublas*, __cuda*, ...; nv/NV: nvrtc*, NVTX_*, __nv_*; _sync)
    triggers = Triggers(texts=(b"cu", b"CU", b"nv", b"NV", b"_sync"))

    def run(self, ctx: Context) -> RuleResult:
        # the file's distinct names that look like CUDA (one regex pass over them all),
        # then the tests that depend on the name only, once per name
        # (each whole, so a LOOKS_CUDA match: the test is not made again per name)
        looks = _LOOKS_CUDA_LINES.findall("\n".join(ctx.identifiers))
        candidates = _reportable(ctx, set(looks))
        if not candidates:
            return RuleResult()
        toks = ctx.tokens
        texts, kinds = toks.texts, toks.kinds
        directive_at = ctx.directive_at
        dead = None
        dead_at = None  # Branches.is_dead, once read (None: no arm is dead)
        found: list[int] = []
        for i in ctx.where(candidates):
            d = directive_at.get(i)
            if d is not None and d.name == "include":
                continue
            # is_member_or_qualified, without the call when the token before is code and
            # no `.`, `->` or `::` (then it is neither): the common case
            p = i - 1
            if (p < 0 or kinds[p] == COMMENT or texts[p] in _QUALIFIERS) and (
                is_member_or_qualified(toks, i, directive_at)
            ):
                continue
            if dead is None:
                dead = ctx.branches
                dead_at = dead.is_dead if dead.dead else None
            if dead_at is not None and dead_at(toks.starts[i]):
                continue  # in an #if arm hipcc does not compile
            found.append(i)
        if not found:
            return RuleResult()
        # ctx.use(token, Resolution(name, Status.UNKNOWN)) and ctx.finding(...) of each,
        # made for all at once: no Token, one location lookup for the lot
        names = list(map(texts.__getitem__, found))
        locations = ctx.token_locations(found)
        uses = list(map(Use, names, repeat(None), repeat(Status.UNKNOWN), locations))
        messages = map(_MESSAGE.format, names)
        findings = ctx.findings(UNKNOWN.code, messages, locations, names)
        return RuleResult(findings=findings, uses=uses)


_MESSAGE = "{} looks like CUDA but is not in hipport's tables"
# the tokens before a name that may make it a member or qualified (is_member_or_qualified)
_QUALIFIERS = frozenset({".", "->", "::"})


def _reportable(ctx: Context, names: set[str]) -> set[str]:
    """Those of `names` (each a match of LOOKS_CUDA; the set is emptied of the rest, in
    place where it can be) in no table and not the project's own (wherever it is), tested
    a set at a time: each lookup walks the smaller side."""
    # a header's include guard (mappings/include_guards.tsv), not API
    names.difference_update([name for name in names if name.endswith(("_h__", "_H__"))])
    tables, opts, mappings = ctx.tables, ctx.options, ctx.mappings
    for known in (
        tables.by_cuda,
        tables.by_hip,  # tables.is_hip_name: a HIP/ROC name of the tables or a hipExt API
        tables.hipext,
        # the sets are looked in, not joined per file: the project's names can be many
        ctx.defined,
        opts.project_names,
        ctx.user_declared,
        opts.user_renames,
        opts.disabled_mappings,
        PRESERVE,
        mappings.include_guards.known,
        # reported by the gate with its evidence (HIP112, HIP113)
        mappings.gate.facts,
    ):
        if not names:
            break
        names = _without(names, known)
    return names


def _without(names: set[str], known: Container[str]) -> set[str]:
    """`names` less those in `known`: for a set or a dict, `names` itself with the
    known ones removed when `known` is the smaller (a file of many names: no copy of
    them), else a new set of the names not known (each looked up)."""
    if type(known) is dict or isinstance(known, set | frozenset):
        if len(known) < len(names):
            names.difference_update(known)
            return names
        return names.difference(known)
    return {name for name in names if name not in known}


RULE = UnknownRule()
