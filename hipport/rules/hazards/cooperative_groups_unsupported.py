"""HIP107 cooperative-groups-unsupported: cooperative-groups features HIP does not provide."""

from __future__ import annotations

from hipport.catalogue import COOPERATIVE_GROUPS_UNSUPPORTED
from hipport.facts import CgFeature
from hipport.findings import Finding
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule
from hipport.target import Version

# AMD wavefronts are 64 lanes wide on every GPU HIP supports (RDNA can also run 32).
WAVEFRONT_MAX = 64
CG_NAMESPACE = "cooperative_groups"
CG_TILE_TEMPLATES = frozenset({"thread_block_tile", "tiled_partition"})
# Names that fire without a cg:: qualifier even without `using namespace`.
ALWAYS_UNQUALIFIED = frozenset({"this_cluster", "cluster_group"})


def check_cooperative_groups(v: CodeIndex) -> list[Finding]:
    out: list[Finding] = []
    # an #include's header is spelled in the source (tokens.include_spelling)
    mentions_cg = v.mentions((CG_NAMESPACE,)) or (
        b"cooperative_groups" in v.ctx.source
        and any(h.startswith("cooperative_groups") for h, _, _ in v.includes)
    )
    if not mentions_cg:
        return out
    facts = v.ctx.mappings.cooperative_groups
    rocm = v.ctx.target.rocm or v.ctx.tables.newest_rocm  # the default: the newest known
    for header, a, b in v.includes:
        feature = facts.headers.get(header)
        if feature is None or feature.missing(rocm) is False:
            continue
        out.append(
            v.finding(
                COOPERATIVE_GROUPS_UNSUPPORTED,
                a,
                b,
                f"<{header}> has no HIP counterpart{_evidence(feature, rocm)}: {feature.instead}",
                api=header,
                hint=COOPERATIVE_GROUPS_UNSUPPORTED.fix,
            )
        )
    aliases, using = _cg_aliases(v)
    for k in v.indices(facts.names.keys() | facts.members.keys() | CG_TILE_TEMPLATES):
        name = v.tokens.texts[k]
        qualified = v.tokens.punct(k - 1, "::") and v.tokens.text(k - 2) in aliases
        feature = facts.names.get(name)
        member = facts.members.get(name)
        if (
            feature is not None
            and not v.tokens.is_member(k)
            and (
                qualified
                or (
                    feature.unqualified
                    and not v.tokens.punct(k - 1, "::")
                    and (using or name in ALWAYS_UNQUALIFIED)
                )
            )
        ):
            if feature.missing(rocm) is False:
                continue
            out.append(
                v.finding(
                    COOPERATIVE_GROUPS_UNSUPPORTED,
                    k,
                    k,
                    f"cooperative_groups::{name} is not provided by HIP"
                    f"{_evidence(feature, rocm)}: {feature.instead}",
                    api=f"cooperative_groups::{name}",
                    hint=COOPERATIVE_GROUPS_UNSUPPORTED.fix,
                )
            )
        elif member is not None and v.tokens.is_member(k) and v.tokens.punct(k + 1, "("):
            if member.missing(rocm) is False:
                continue
            instead = member.instead
            tail = f": use {instead}" if instead else ": clusters have no AMD equivalent"
            out.append(
                v.finding(
                    COOPERATIVE_GROUPS_UNSUPPORTED,
                    k,
                    k,
                    f"group member {name}() is not provided by HIP's cooperative groups"
                    f"{_evidence(member, rocm)}{tail}",
                    api=name,
                    hip=instead,
                    hint=COOPERATIVE_GROUPS_UNSUPPORTED.fix,
                )
            )
        elif name in CG_TILE_TEMPLATES:
            out.extend(_tile_size(v, k))
    return out


def _evidence(feature: CgFeature, rocm: Version) -> str:
    """Nothing when the feature is known missing in `rocm`; else which release it is known
    missing in (hipport has no evidence for the newer target)."""
    if feature.missing(rocm):
        return ""
    return f" (missing in HIP {feature.absent_through}; no evidence for ROCm {rocm})"


def _cg_aliases(v: CodeIndex) -> tuple[set[str], bool]:
    """Names that mean namespace cooperative_groups, and whether it is `using`'d."""
    aliases = {CG_NAMESPACE, "cg"}
    using = False
    for k in v.indices((CG_NAMESPACE,)):
        if v.tokens.punct(k - 1, "=") and v.tokens.text(k - 3) == "namespace":
            aliases.add(v.tokens.text(k - 2))
        if v.tokens.text(k - 1) == "namespace" and v.tokens.text(k - 2) == "using":
            using = True
    return aliases, using


def _bad_tile(size: int) -> bool:
    return size > WAVEFRONT_MAX or size <= 0 or size & (size - 1) != 0


def _tile_size(v: CodeIndex, k: int) -> list[Finding]:
    name = v.tokens[k].text
    size_ks: list[int] = []
    end = k
    if v.tokens.punct(k + 1, "<"):
        close = v.tokens.template_close(k + 1, min(len(v.tokens), k + 65))
        if close is None:
            return []
        # thread_block_tile<N, Parent>: the size is the first template argument
        comma = next((j for j in range(k + 2, close) if v.tokens.punct(j, ",")), close)
        size_ks, end = list(range(k + 2, comma)), close
    elif name == "tiled_partition" and v.tokens.punct(k + 1, "("):
        close = v.tokens.match(k + 1)
        args = v.tokens.arguments(k + 1, close) if close is not None else None
        if not args or len(args) != 2:
            return []
        size_ks, end = list(range(*args[1])), close
    size = v.int_of(size_ks)
    if size is None or not _bad_tile(size):
        return []
    return [
        v.finding(
            COOPERATIVE_GROUPS_UNSUPPORTED,
            k,
            end,
            f"{name} of {size} threads: HIP tiles must be a power of two no larger than the "
            f"wavefront ({WAVEFRONT_MAX}); split the work into tiles of at most {WAVEFRONT_MAX}",
            api=name,
            hint=COOPERATIVE_GROUPS_UNSUPPORTED.fix,
        )
    ]


# The feature names come from mappings/ and are indexed on demand, in files that mention
# cooperative groups only.
RULE = HazardRule(
    COOPERATIVE_GROUPS_UNSUPPORTED,
    check_cooperative_groups,
    # the namespace's name, or a cooperative_groups/... header: both spell it
    Triggers(texts=(CG_NAMESPACE.encode(),)),
    CG_TILE_TEMPLATES | {CG_NAMESPACE},
)
