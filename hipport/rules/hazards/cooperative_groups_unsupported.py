"""HIP107 cooperative-groups-unsupported: cooperative-groups features HIP does not provide."""

from __future__ import annotations

from hipport.catalogue import COOPERATIVE_GROUPS_UNSUPPORTED
from hipport.findings import Finding
from hipport.rules.code_index import CodeIndex
from hipport.rules.hazards import HazardRule
from hipport.rules.tokens import matching, split_args, template_close

WAVEFRONT_MAX = 64


CG_NAMESPACE = "cooperative_groups"


CG_HEADERS_MISSING = frozenset(
    {
        "cooperative_groups/reduce.h",
        "cooperative_groups/memcpy_async.h",
        "cooperative_groups/scan.h",
    }
)


# Names in namespace cooperative_groups that HIP 5.2's headers do not declare. Qualified
# uses (cg::reduce) always fire; only the distinctive ones fire unqualified.
CG_MISSING = {
    "this_cluster": "thread block clusters are NVIDIA Hopper hardware; there is no AMD equivalent",
    "cluster_group": "thread block clusters are NVIDIA Hopper hardware; there is no AMD equivalent",
    "memcpy_async": "copy to shared memory with ordinary loads and __syncthreads()",
    "wait": "not needed once memcpy_async is replaced by plain loads and __syncthreads()",
    "wait_prior": "not needed once memcpy_async is replaced by plain loads and __syncthreads()",
    "reduce": "reduce with a tile.shfl_down/shfl_xor loop or hipCUB WarpReduce",
    "inclusive_scan": "scan with a tile.shfl_up loop or hipCUB WarpScan",
    "exclusive_scan": "scan with a tile.shfl_up loop or hipCUB WarpScan",
    "plus": "part of cg::reduce; reduce by hand or with hipCUB",
    "less": "part of cg::reduce; reduce by hand or with hipCUB",
    "greater": "part of cg::reduce; reduce by hand or with hipCUB",
    "bit_and": "part of cg::reduce; reduce by hand or with hipCUB",
    "bit_or": "part of cg::reduce; reduce by hand or with hipCUB",
    "bit_xor": "part of cg::reduce; reduce by hand or with hipCUB",
    "labeled_partition": "partition by hand with __ballot and a 64-bit mask",
    "binary_partition": "partition by hand with __ballot and a 64-bit mask",
    "invoke_one": "use if (g.thread_rank() == 0) and a shuffle to broadcast",
    "invoke_one_broadcast": "use if (g.thread_rank() == 0) and g.shfl(value, 0)",
    "block_tile_memory": "HIP tiles are at most one wavefront (64) and need no extra memory",
}


CG_MISSING_UNQUALIFIED = frozenset(
    {
        "this_cluster",
        "cluster_group",
        "memcpy_async",
        "wait_prior",
        "labeled_partition",
        "binary_partition",
        "invoke_one",
        "invoke_one_broadcast",
        "block_tile_memory",
    }
)


CG_MISSING_MEMBERS = {
    "num_threads": "size()",
    "dim_threads": "group_dim()",
    "meta_group_rank": "parent.thread_rank() / tile.size()",
    "meta_group_size": "parent.size() / tile.size()",
    "num_blocks": "gridDim.x * gridDim.y * gridDim.z",
    "block_rank": "the linear blockIdx",
    "block_index": "blockIdx",
    "dim_blocks": "gridDim",
    "cluster_rank": None,
    "num_clusters": None,
    "dim_clusters": None,
}


CG_TILE_TEMPLATES = frozenset({"thread_block_tile", "tiled_partition"})


_CG_NAMES = frozenset(CG_MISSING) | frozenset(CG_MISSING_MEMBERS) | CG_TILE_TEMPLATES


def check_cooperative_groups(v: CodeIndex) -> list[Finding]:
    out = []
    mentions_cg = v.mentions((CG_NAMESPACE,)) or any(
        h.startswith("cooperative_groups") for h, _, _ in v.includes
    )
    if not mentions_cg:
        return out
    for header, a, b in v.includes:
        if header in CG_HEADERS_MISSING:
            out.append(
                v.finding(
                    COOPERATIVE_GROUPS_UNSUPPORTED,
                    a,
                    b,
                    f"<{header}> has no HIP counterpart: write the reduction/scan/copy with tile "
                    "shuffles or hipCUB",
                    api=header,
                    hint=COOPERATIVE_GROUPS_UNSUPPORTED.fix,
                )
            )
    aliases, using = _cg_aliases(v)
    for k in v.indices(_CG_NAMES):
        name = v.texts[k]
        qualified = v.punct(k - 1, "::") and v.text(k - 2) in aliases
        if (
            name in CG_MISSING
            and not v.is_member(k)
            and (
                qualified
                or (
                    name in CG_MISSING_UNQUALIFIED
                    and not v.punct(k - 1, "::")
                    and (using or name in ("this_cluster", "cluster_group"))
                )
            )
        ):
            out.append(
                v.finding(
                    COOPERATIVE_GROUPS_UNSUPPORTED,
                    k,
                    k,
                    f"cooperative_groups::{name} is not provided by HIP: {CG_MISSING[name]}",
                    api=f"cooperative_groups::{name}",
                    hint=COOPERATIVE_GROUPS_UNSUPPORTED.fix,
                )
            )
        elif name in CG_MISSING_MEMBERS and v.is_member(k) and v.punct(k + 1, "("):
            instead = CG_MISSING_MEMBERS[name]
            tail = f": use {instead}" if instead else ": clusters have no AMD equivalent"
            out.append(
                v.finding(
                    COOPERATIVE_GROUPS_UNSUPPORTED,
                    k,
                    k,
                    f"group member {name}() is not provided by HIP's cooperative groups{tail}",
                    api=name,
                    hip=instead,
                    hint=COOPERATIVE_GROUPS_UNSUPPORTED.fix,
                )
            )
        elif name in CG_TILE_TEMPLATES:
            out.extend(_tile_size(v, k))
    return out


def _cg_aliases(v: CodeIndex) -> tuple[set[str], bool]:
    """Names that mean namespace cooperative_groups, and whether it is `using`'d."""
    aliases = {CG_NAMESPACE, "cg"}
    using = False
    for k in v.indices((CG_NAMESPACE,)):
        if v.punct(k - 1, "=") and v.text(k - 3) == "namespace":
            aliases.add(v.text(k - 2))
        if v.text(k - 1) == "namespace" and v.text(k - 2) == "using":
            using = True
    return aliases, using


def _bad_tile(size: int) -> bool:
    return size > WAVEFRONT_MAX or size <= 0 or size & (size - 1) != 0


def _tile_size(v: CodeIndex, k: int) -> list[Finding]:
    name = v.toks[k].text
    size_ks: list[int] = []
    end = k
    if v.punct(k + 1, "<"):
        close = template_close(v.toks, k + 1, min(v.n, k + 65))
        if close is None:
            return []
        # thread_block_tile<N, Parent>: the size is the first template argument
        comma = next((j for j in range(k + 2, close) if v.punct(j, ",")), close)
        size_ks, end = list(range(k + 2, comma)), close
    elif name == "tiled_partition" and v.punct(k + 1, "("):
        close = matching(v.toks, k + 1)
        args = split_args(v.toks, k + 1, close) if close is not None else None
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


RULE = HazardRule(
    COOPERATIVE_GROUPS_UNSUPPORTED, check_cooperative_groups, _CG_NAMES | {CG_NAMESPACE}
)
