"""Portability hazards: CUDA that ports cleanly token by token but breaks, fails to build or
behaves differently on AMD GPUs (64-lane wavefronts, no PTX, a different HIP API).

Checks only: every hazard is a Finding (a warning by default), never an edit, because the
right fix depends on what the code means. Each hazard has its own rule code (HIP101-HIP108)
and its own documentation below, which `hipport rule CODE` prints.

All matching is on code tokens (comments dropped first; string literals are single LITERAL
tokens), so nothing inside a comment or a string ever fires.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import itemgetter

from hipport.catalogue import (
    COOPERATIVE_GROUPS_UNSUPPORTED,
    DEVICE_PROP_FIELD,
    HARDCODED_WARP_SIZE,
    INLINE_PTX,
    LANE_MASK_32BIT,
    LAUNCH_BOUNDS_MIN_BLOCKS,
    TEXTURE_REFERENCE,
    WMMA,
)
from hipport.findings import Finding, RuleInfo, Severity
from hipport.lexer import COMMENT, IDENTIFIER, KEYWORD, LITERAL, PUNCTUATION, Token
from hipport.rules.context import Context, RuleResult
from hipport.rules.tokens import matching, split_args
from hipport.target import Version

# --------------------------------------------------------------------------- rule docs


# --------------------------------------------------------------------------- data

WARP_INTRINSICS = frozenset(
    {
        "__shfl",
        "__shfl_up",
        "__shfl_down",
        "__shfl_xor",
        "__shfl_sync",
        "__shfl_up_sync",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__ballot",
        "__ballot_sync",
        "__any",
        "__any_sync",
        "__all",
        "__all_sync",
        "__activemask",
        "__syncwarp",
        "__match_any_sync",
        "__match_all_sync",
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
        "tiled_partition",
    }
)

# Intrinsics whose first argument is a lane mask.
MASKED_SYNC = frozenset(
    {
        "__shfl_sync",
        "__shfl_up_sync",
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__ballot_sync",
        "__any_sync",
        "__all_sync",
        "__match_any_sync",
        "__match_all_sync",
        "__syncwarp",
        "__reduce_add_sync",
        "__reduce_min_sync",
        "__reduce_max_sync",
        "__reduce_and_sync",
        "__reduce_or_sync",
        "__reduce_xor_sync",
    }
)

BALLOTS = frozenset({"__ballot_sync", "__ballot", "__activemask"})

# 32-bit bit helpers and their 64-bit HIP/CUDA counterparts.
NARROW_BIT_OPS = {
    "__popc": "__popcll",
    "__ffs": "__ffsll",
    "__clz": "__clzll",
    "__brev": "__brevll",
}

# (operator, literal value) pairs that compute a lane or warp index for 32-lane warps.
LANE_ARITHMETIC = {"%": 32, "%=": 32, "/": 32, "/=": 32, "&": 31, "&=": 31, ">>": 5, ">>=": 5}

# Type spellings (qualifiers dropped, sorted) that hold only 32 bits on every platform.
NARROW_TYPES = frozenset(
    {
        ("unsigned",),
        ("int", "unsigned"),
        ("int",),
        ("signed",),
        ("int", "signed"),
        ("uint32_t",),
        ("int32_t",),
        ("uint",),
    }
)
TYPE_QUALIFIERS = frozenset({"const", "volatile", "static", "register", "std", "::"})

ASM_WORDS = frozenset({"asm", "__asm__", "__asm"})
ASM_QUALIFIERS = frozenset({"volatile", "__volatile__", "__volatile", "goto", "inline"})
# Text typical of PTX inside an asm string: special registers, typed instructions, .reg.
_PTX = re.compile(
    r"%%(?:laneid|warpid|smid|nsmid|clock|globaltimer|lanemask)|\.reg\b|\.pred\b|"
    r"\.[busf](?:8|16|32|64)\b|\b(?:ld|st|mov|cvt|shfl|vote|bar|membar|prmt|bfe|bfi|lop3|"
    r"setp|selp|mma|ldmatrix|cp|red|atom|fma|mad)\.[a-z]"
)

# Function names of lane/warp index helpers: laneId, lane_id, warpId, get_warp_index, ...
_LANE_HELPER = re.compile(
    r"(?i)(?:^|_)(?:lane|warp)(?:_?id|_?idx|_?index)?$|"
    r"^(?:get_?)?(?:lane|warp)_?(?:id|idx|index)$"
)

TEXTURE_TEMPLATES = frozenset({"texture", "surface"})
TEXTURE_REFERENCE_APIS = frozenset(
    {
        "cudaBindTexture",
        "cudaBindTexture2D",
        "cudaBindTextureToArray",
        "cudaBindTextureToMipmappedArray",
        "cudaUnbindTexture",
        "cudaGetTextureAlignmentOffset",
        "cudaGetTextureReference",
        "cudaBindSurfaceToArray",
        "cudaGetSurfaceReference",
        "textureReference",
        "surfaceReference",
    }
)
TEXTURE_FETCHES = frozenset(
    {
        "tex1Dfetch",
        "tex1D",
        "tex2D",
        "tex3D",
        "tex1DLayered",
        "tex2DLayered",
        "texCubemap",
        "texCubemapLayered",
        "tex2Dgather",
        "tex1DLod",
        "tex2DLod",
        "tex3DLod",
        "tex1DGrad",
        "tex2DGrad",
        "tex3DGrad",
        "surf1Dread",
        "surf2Dread",
        "surf3Dread",
        "surf1Dwrite",
        "surf2Dwrite",
        "surf3Dwrite",
        "surf1DLayeredread",
        "surf2DLayeredread",
        "surf1DLayeredwrite",
        "surf2DLayeredwrite",
    }
)

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

DEVICE_PROP_TYPES = frozenset({"cudaDeviceProp", "hipDeviceProp_t"})
# cudaDeviceProp fields (CUDA 13 driver_types.h, plus two removed in CUDA 13 that older code
# still reads) with no field of that name in HIP 5.2's hipDeviceProp_t
# (/usr/include/hip/hip_runtime_api.h, HIP_VERSION 5.2.21153), mapped to what HIP 5.2 offers
# instead: a hipDeviceAttribute_t for hipDeviceGetAttribute, another API, or None.
DEVICE_PROP_HIP_VERSION = "5.2"
DEVICE_PROP_MISSING: dict[str, str | None] = {
    "uuid": "hipDeviceGetUuid()",
    "luid": "hipDeviceAttributeLuid",
    "luidDeviceNodeMask": "hipDeviceAttributeLuidDeviceNodeMask",
    "maxTexture1DMipmap": "hipDeviceAttributeMaxTexture1DMipmap",
    "maxTexture2DMipmap": "hipDeviceAttributeMaxTexture2DMipmap",
    "maxTexture2DLinear": "hipDeviceAttributeMaxTexture2DLinear",
    "maxTexture2DGather": "hipDeviceAttributeMaxTexture2DGather",
    "maxTexture3DAlt": "hipDeviceAttributeMaxTexture3DAlt",
    "maxTextureCubemap": "hipDeviceAttributeMaxTextureCubemap",
    "maxTexture1DLayered": "hipDeviceAttributeMaxTexture1DLayered",
    "maxTexture2DLayered": "hipDeviceAttributeMaxTexture2DLayered",
    "maxTextureCubemapLayered": "hipDeviceAttributeMaxTextureCubemapLayered",
    "maxSurface1D": "hipDeviceAttributeMaxSurface1D",
    "maxSurface2D": "hipDeviceAttributeMaxSurface2D",
    "maxSurface3D": "hipDeviceAttributeMaxSurface3D",
    "maxSurface1DLayered": "hipDeviceAttributeMaxSurface1DLayered",
    "maxSurface2DLayered": "hipDeviceAttributeMaxSurface2DLayered",
    "maxSurfaceCubemap": "hipDeviceAttributeMaxSurfaceCubemap",
    "maxSurfaceCubemapLayered": "hipDeviceAttributeMaxSurfaceCubemapLayered",
    "surfaceAlignment": "hipDeviceAttributeSurfaceAlignment",
    "asyncEngineCount": "hipDeviceAttributeAsyncEngineCount",
    "unifiedAddressing": "hipDeviceAttributeUnifiedAddressing",
    "persistingL2CacheMaxSize": "hipDeviceAttributePersistingL2CacheMaxSize",
    "streamPrioritiesSupported": "hipDeviceAttributeStreamPrioritiesSupported",
    "globalL1CacheSupported": "hipDeviceAttributeGlobalL1CacheSupported",
    "localL1CacheSupported": "hipDeviceAttributeLocalL1CacheSupported",
    "sharedMemPerMultiprocessor": "the maxSharedMemoryPerMultiProcessor field",
    "regsPerMultiprocessor": "hipDeviceAttributeMaxRegistersPerMultiprocessor",
    "multiGpuBoardGroupID": "hipDeviceAttributeMultiGpuBoardGroupID",
    "hostNativeAtomicSupported": "hipDeviceAttributeHostNativeAtomicSupported",
    "computePreemptionSupported": "hipDeviceAttributeComputePreemptionSupported",
    "canUseHostPointerForRegisteredMem": "hipDeviceAttributeCanUseHostPointerForRegisteredMem",
    "sharedMemPerBlockOptin": "hipDeviceAttributeSharedMemPerBlockOptin",
    "maxBlocksPerMultiProcessor": "hipDeviceAttributeMaxBlocksPerMultiProcessor",
    "accessPolicyMaxWindowSize": "hipDeviceAttributeAccessPolicyMaxWindowSize",
    "reservedSharedMemPerBlock": "hipDeviceAttributeReservedSharedMemPerBlock",
    "hostRegisterSupported": None,
    "sparseCudaArraySupported": None,
    "hostRegisterReadOnlySupported": None,
    "timelineSemaphoreInteropSupported": None,
    "memoryPoolsSupported": "hipDeviceAttributeMemoryPoolsSupported",
    "gpuDirectRDMASupported": None,
    "gpuDirectRDMAFlushWritesOptions": None,
    "gpuDirectRDMAWritesOrdering": None,
    "memoryPoolSupportedHandleTypes": None,
    "deferredMappingCudaArraySupported": None,
    "ipcEventSupported": None,
    "clusterLaunch": None,
    "unifiedFunctionPointers": None,
    "deviceNumaConfig": None,
    "deviceNumaId": None,
    "mpsEnabled": None,
    "hostNumaId": None,
    "gpuPciDeviceID": None,
    "gpuPciSubsystemID": None,
    "hostNumaMultinodeIpcSupported": None,
    # removed from cudaDeviceProp in CUDA 13, still read by older code
    "deviceOverlap": "hipDeviceAttributeDeviceOverlap (or asyncEngineCount > 0)",
    "singleToDoublePrecisionPerfRatio": "hipDeviceAttributeSingleToDoublePrecisionPerfRatio",
}

_CG_NAMES = frozenset(CG_MISSING) | frozenset(CG_MISSING_MEMBERS) | CG_TILE_TEMPLATES
# Every fixed text a check looks up through View.indices (indexed when the View is built).
_INDEXED = frozenset().union(
    ASM_WORDS,
    WARP_INTRINSICS,
    MASKED_SYNC,
    BALLOTS,
    LANE_ARITHMETIC,
    TEXTURE_TEMPLATES,
    TEXTURE_REFERENCE_APIS,
    TEXTURE_FETCHES,
    _CG_NAMES,
    DEVICE_PROP_TYPES,
    DEVICE_PROP_MISSING,
    {CG_NAMESPACE, "nvcuda", "wmma", "__launch_bounds__", "__shared__", "{", "="},
)
_TEXT = itemgetter(1)  # Token.text
_KIND = itemgetter(0)  # Token.kind

# --------------------------------------------------------------------------- token view


def int_value(text: str) -> int | None:
    """The value of an integer literal token (0x1f, 32u, 0b11, 1'000), else None."""
    body = text.replace("'", "").rstrip("uUlLzZ")
    try:
        if body[:2] in ("0x", "0X"):
            return int(body[2:], 16)
        if body[:2] in ("0b", "0B"):
            return int(body[2:], 2)
        if len(body) > 1 and body[0] == "0":
            return int(body[1:], 8)
        return int(body, 10)
    except ValueError:
        return None


def _unsigned_only_suffix(text: str) -> bool:
    """A literal typed unsigned int: a u/U suffix and no l/L (so ~0u is 32 bits wide)."""
    suffix = text[len(text.rstrip("uUlLzZ")) :]
    return "u" in suffix.lower() and "l" not in suffix.lower()


@lru_cache(maxsize=1 << 16)  # asked of every distinct name of every file
def _warp_size_name(name: str) -> bool:
    flat = name.lower().replace("_", "")
    # kWarp / WARP / warp_lanes: constants that hold a warp's width (set to 32 they are a
    # hazard; the value test is done by the caller)
    return flat in ("warp", "kwarp", "warplanes", "warplen") or flat.endswith(
        ("warpsize", "warpsz", "threadsperwarp", "warpthreads", "lanesperwarp", "warpwidth")
    )


@dataclass(frozen=True)
class Body:
    """A function body: code-token indices of its header start, `{` and `}`."""

    head: int
    open: int
    close: int
    name: str  # the function's name ("" when not found, e.g. a lambda)


@dataclass(frozen=True)
class Define:
    name: str
    name_index: int  # code-token index of the macro name
    value: tuple[int, ...]  # code-token indices of the replacement list
    function_like: bool


class View:
    """The file's code tokens (comments dropped) and the structure the checks share.

    Built once per file: the token texts and kinds as lists, and every text's code-token
    indices, so that a check visits only the names or operators it looks for instead of
    walking every token again."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.orig = [i for i, t in enumerate(ctx.tokens) if t.kind != COMMENT]
        self.toks: list[Token] = [ctx.tokens[i] for i in self.orig]
        self.texts: list[str] = list(map(_TEXT, self.toks))
        self.kinds: list[str] = list(map(_KIND, self.toks))
        self.n = len(self.toks)
        # text -> ascending code-token indices of the tokens spelled so (any kind), for
        # the texts in self._indexed: the checks' own vocabulary up front, others on demand
        self.at: dict[str, list[int]] = {}
        self._indexed: set[str] = set()
        self._index(_INDEXED)

    def _index(self, texts: Collection[str]) -> None:
        """Add the positions of `texts` to self.at, in one pass over the tokens."""
        missing = {t for t in texts if t not in self._indexed}
        if not missing:
            return
        at, all_texts = self.at, self.texts
        for k in [k for k, t in enumerate(all_texts) if t in missing]:
            ks = at.get(all_texts[k])
            if ks is None:
                at[all_texts[k]] = [k]
            else:
                ks.append(k)
        self._indexed |= missing

    def text(self, k: int | None) -> str:
        return self.texts[k] if k is not None and 0 <= k < self.n else ""

    def punct(self, k: int | None, text: str) -> bool:
        return (
            k is not None
            and 0 <= k < self.n
            and self.texts[k] == text
            and self.kinds[k] == PUNCTUATION
        )

    def is_member(self, k: int) -> bool:
        """tokens[k] follows `.` or `->`."""
        return k > 0 and self.kinds[k - 1] == PUNCTUATION and self.texts[k - 1] in (".", "->")

    def indices(self, texts: Collection[str], kinds: Collection[str] = (IDENTIFIER,)) -> list[int]:
        """Ascending code-token indices of the tokens spelled as one of `texts` and of one
        of `kinds` (identifiers by default)."""
        self._index(texts)
        at, own = self.at, self.kinds
        hits = [at[t] for t in texts if t in at]
        if not hits:
            return []
        ks = hits[0] if len(hits) == 1 else sorted(k for h in hits for k in h)
        return [k for k in ks if own[k] in kinds]

    def mentions(self, texts: Collection[str]) -> bool:
        """Some identifier is spelled as one of `texts`."""
        return bool(self.indices(texts))

    def names_where(self, test: Callable[[str], bool]) -> list[str]:
        """Distinct token texts passing `test` (each text tested once)."""
        return [t for t in set(self.texts) if test(t)]

    def finding(self, info: RuleInfo, a: int, b: int, message: str, **fields: object) -> Finding:
        """A finding spanning code tokens a..b inclusive."""
        return self.ctx.finding(info.code, self.toks[a].start, self.toks[b].end, message, **fields)

    @cached_property
    def directive_ranges(self) -> list[tuple[str, int, int]]:
        """(name, first, end) of every directive, in code-token indices."""
        out = []
        orig = self.orig
        for d in self.ctx.directives:
            # the code tokens of [hash, end) are consecutive in orig (which is ascending)
            first, end = bisect_left(orig, d.hash), bisect_left(orig, d.end)
            if first < end:
                out.append((d.name, first, end))
        return out

    @cached_property
    def in_directive(self) -> frozenset[int]:
        return frozenset(k for _, a, b in self.directive_ranges for k in range(a, b))

    @cached_property
    def defines(self) -> list[Define]:
        out = []
        for name, a, b in self.directive_ranges:
            if name != "define" or b - a < 3:
                continue
            n = a + 2
            fn = self.punct(n + 1, "(") and self.toks[n].end == self.toks[n + 1].start
            out.append(Define(self.toks[n].text, n, tuple(range(n + 1, b)), fn))
        return out

    @cached_property
    def includes(self) -> list[tuple[str, int, int]]:
        """(header text, first, last) of every #include, in code-token indices."""
        out = []
        for name, a, b in self.directive_ranges:
            if name not in ("include", "include_next", "import") or b - a < 3:
                continue
            first = self.toks[a + 2]
            if first.kind == LITERAL:
                header = first.text.strip('"')
            else:
                raw = self.ctx.source[first.start : self.toks[b - 1].end]
                header = raw.decode("utf-8", "replace").strip("<> \t")
            out.append((header, a, b - 1))
        return out

    @cached_property
    def bodies(self) -> list[Body]:
        """Outermost function bodies: a `{` after `)` (or a trailing const/noexcept/...)
        outside any other function body. Namespace, class and initializer braces are
        walked into, never taken as bodies."""
        out: list[Body] = []
        toks = self.toks
        after = 0  # braces before this index are inside a body already taken
        for k in self.indices(("{",), (PUNCTUATION,)):
            if k < after or k in self.in_directive or not self._opens_function(k):
                continue
            close = matching(toks, k)
            if close is not None:
                out.append(Body(self._head(k), k, close, self._name(k)))
                after = close + 1
        return out

    def _opens_function(self, k: int) -> bool:
        p = k - 1
        while p >= 0 and toks_text(self.toks, p) in (
            "const",
            "noexcept",
            "override",
            "final",
            "mutable",
            "volatile",
            "&",
            "&&",
        ):
            p -= 1
        return self.punct(p, ")")

    def _name(self, k: int) -> str:
        """The identifier before the parameter list that ends right before `{` at k."""
        p = k - 1
        while p >= 0 and not self.punct(p, ")"):
            p -= 1
        depth = 0
        while p >= 0:
            if self.punct(p, ")"):
                depth += 1
            elif self.punct(p, "("):
                depth -= 1
                if depth == 0:
                    break
            p -= 1
        return self.toks[p - 1].text if p >= 1 and self.toks[p - 1].kind == IDENTIFIER else ""

    def _head(self, k: int) -> int:
        """Start of the declaration a body belongs to: after the previous ; { } or
        directive line."""
        p = k - 1
        depth = 0
        while p >= 0:
            t = self.toks[p]
            if p in self.in_directive:
                break
            if t.kind == PUNCTUATION:
                if t.text in (")", "]"):
                    depth += 1
                elif t.text in ("(", "["):
                    depth -= 1
                elif depth <= 0 and t.text in (";", "{", "}"):
                    break
            p -= 1
        return p + 1

    def body_at(self, k: int) -> Body | None:
        for b in self.bodies:
            if b.open < k < b.close:
                return b
        return None

    def between(self, ks: list[int], a: int, b: int) -> list[int]:
        """The indices of ascending `ks` in [a, b)."""
        return ks[bisect_left(ks, a) : bisect_left(ks, b)]

    @cached_property
    def warp_bodies(self) -> list[Body]:
        """Function bodies that use a warp intrinsic, or lane/warp index helpers (a function
        named like laneId / warp_id)."""
        uses = self.indices(WARP_INTRINSICS)
        return [
            b
            for b in self.bodies
            if _LANE_HELPER.search(b.name) or self.between(uses, b.open, b.close)
        ]

    def is_device_body(self, body: Body) -> bool:
        return any(
            self.toks[k].text in ("__device__", "__global__") for k in range(body.head, body.open)
        )

    def value_of(self, ks: tuple[int, ...] | list[int]) -> tuple[Token, ...]:
        """Tokens of an expression with one level of surrounding parentheses dropped."""
        toks = [self.toks[k] for k in ks]
        while len(toks) >= 2 and toks[0].text == "(" and toks[-1].text == ")":
            toks = toks[1:-1]
        return tuple(toks)


def toks_text(toks: list[Token], k: int) -> str:
    return toks[k].text if 0 <= k < len(toks) else ""


def _int_tokens(toks: tuple[Token, ...]) -> int | None:
    if len(toks) == 1 and toks[0].kind == LITERAL:
        return int_value(toks[0].text)
    return None


# --------------------------------------------------------------------------- HIP101


def check_inline_ptx(v: View) -> list[Finding]:
    out = []
    defines = {k for name, a, b in v.directive_ranges if name == "define" for k in range(a, b)}
    for k in v.indices(ASM_WORDS, (KEYWORD, IDENTIFIER)):
        t = v.toks[k]
        p = k + 1
        while v.text(p) in ASM_QUALIFIERS:
            p += 1
        if not v.punct(p, "("):
            continue
        close = matching(v.toks, p)
        if close is None:
            continue
        strings = " ".join(
            v.toks[j].text
            for j in range(p, close)
            if v.toks[j].kind == LITERAL and '"' in v.toks[j].text
        )
        body = v.body_at(k)
        if not (
            _PTX.search(strings) or k in defines or (body is not None and v.is_device_body(body))
        ):
            continue
        out.append(
            v.finding(
                INLINE_PTX,
                k,
                close,
                f"inline assembly `{t.text}(...)` in device code is PTX, which does not assemble "
                "for AMD GPUs: replace it with a HIP device function or __builtin_amdgcn_* "
                "intrinsic, or guard it with #if defined(__HIP_PLATFORM_NVIDIA__)",
                api=t.text,
                hint=INLINE_PTX.fix,
            )
        )
    return out


# --------------------------------------------------------------------------- HIP102


def _warp_size_macros(v: View) -> dict[str, list[tuple[int, int]]]:
    """Warp-size-named macros and constants set to 32: name -> (name, value) code-token
    index pairs, unless the same name is also given another value (an AMD #if branch)."""
    values: dict[str, set[int | None]] = {}
    sites: dict[str, list[tuple[int, int]]] = {}
    for d in v.defines:
        if d.function_like or not _warp_size_name(d.name):
            continue
        val = _int_tokens(v.value_of(d.value))
        values.setdefault(d.name, set()).add(val)
        if val == 32:
            sites.setdefault(d.name, []).append((d.name_index, d.value[-1]))
    for k in v.indices(v.names_where(_warp_size_name)):
        t = v.toks[k]
        if not v.punct(k + 1, "=") or v.is_member(k):
            continue
        end = k + 2
        while end < len(v.toks) and v.text(end) not in (";", ",", "}", ">", ")"):
            end += 1
        val = _int_tokens(v.value_of(list(range(k + 2, end))))
        values.setdefault(t.text, set()).add(val)
        if val == 32:
            sites.setdefault(t.text, []).append((k, end - 1))
    return {name: ks for name, ks in sites.items() if values[name] == {32}}


def check_hardcoded_warp_size(v: View) -> list[Finding]:
    out = []
    macros = _warp_size_macros(v)
    for name, sites in macros.items():
        for a, b in sites:
            out.append(
                v.finding(
                    HARDCODED_WARP_SIZE,
                    a,
                    b,
                    f"{name} is hard-coded as 32, but AMD wavefronts are 64 lanes: use warpSize, "
                    "or define it per platform (#if defined(__HIP_PLATFORM_AMD__) 64)",
                    api=name,
                    hip="warpSize",
                    hint=HARDCODED_WARP_SIZE.fix,
                )
            )
    bodies = v.warp_bodies
    if not bodies:
        return out
    ops = v.indices(LANE_ARITHMETIC, (PUNCTUATION,))
    shared = v.indices(("__shared__",), _ANY_KIND)
    for body in bodies:
        out.extend(_lane_arithmetic(v, body, ops))
        out.extend(_shared_per_warp(v, body, set(macros), shared))
    return out


_ANY_KIND = (IDENTIFIER, KEYWORD, LITERAL, PUNCTUATION)


def _lane_arithmetic(v: View, body: Body, ops: list[int]) -> list[Finding]:
    out = []
    for k in v.between(ops, body.open + 1, body.close - 1):
        op = v.toks[k]
        lit = v.toks[k + 1]
        if lit.kind != LITERAL or int_value(lit.text) != LANE_ARITHMETIC[op.text]:
            continue
        if v.text(k + 2) in ("(", "["):  # part of a longer expression starting there: skip
            continue
        if v.toks[k - 1].kind == LITERAL:  # a constant such as 1024 / 32 (a bound): skip
            continue
        what = {32: "32 lanes", 31: "a 32-lane mask", 5: "log2(32)"}[LANE_ARITHMETIC[op.text]]
        out.append(
            v.finding(
                HARDCODED_WARP_SIZE,
                k,
                k + 1,
                f"`{op.text} {lit.text}` assumes {what} per warp in warp-level code; AMD "
                "wavefronts have 64 lanes: compute lane and warp indices from warpSize",
                api=f"{op.text} {lit.text}",
                hip="warpSize",
                hint=HARDCODED_WARP_SIZE.fix,
            )
        )
    return out


def _shared_per_warp(v: View, body: Body, macros: set[str], shared: list[int]) -> list[Finding]:
    out = []
    after = body.open + 1  # a __shared__ before this is part of the declaration just seen
    for k in v.between(shared, body.open + 1, body.close):
        if k < after:
            continue
        end = k
        while end < body.close and v.text(end) not in (";", "="):
            end += 1
        for j in range(k, end):
            if not v.punct(j, "["):
                continue
            close = matching(v.toks, j, end + 1)
            if close is None:
                continue
            dim = v.value_of(list(range(j + 1, close)))
            if _int_tokens(dim) == 32 or (len(dim) == 1 and dim[0].text in macros):
                out.append(
                    v.finding(
                        HARDCODED_WARP_SIZE,
                        j,
                        close,
                        f"__shared__ array sized [{dim[0].text}] per warp lane or warp next to "
                        "warp intrinsics assumes 32-lane warps; AMD wavefronts have 64 lanes: size "
                        "it for 64 (or the maximum over platforms) and index it with warpSize",
                        api=f"[{dim[0].text}]",
                        hip="warpSize",
                        hint=HARDCODED_WARP_SIZE.fix,
                    )
                )
        after = end + 1
    return out


# --------------------------------------------------------------------------- HIP103


def _full_mask_at(v: View, k: int) -> int | None:
    """If a 32-bit all-ones mask starts at code token k, the index of its last token."""
    t = v.toks[k]
    if t.kind == LITERAL and int_value(t.text) == 0xFFFFFFFF:
        return k
    if t.text == "~" and t.kind == PUNCTUATION and k + 1 < len(v.toks):
        lit = v.toks[k + 1]
        if lit.kind == LITERAL and int_value(lit.text) == 0 and _unsigned_only_suffix(lit.text):
            return k + 1
    return None


def _full_mask_names(v: View) -> set[str]:
    """Macros and constants whose value is a 32-bit all-ones mask."""
    names = set()
    for d in v.defines:
        val = [k for k in d.value if v.text(k) not in ("(", ")")]
        if not d.function_like and val and _full_mask_at(v, val[0]) == val[-1]:
            names.add(d.name)
    for j in v.indices(("=",), (PUNCTUATION,)):
        k = j - 1
        if k >= 0 and v.kinds[k] == IDENTIFIER and not v.is_member(k) and k + 2 < v.n:
            last = _full_mask_at(v, k + 2)
            if last is not None and v.text(last + 1) in (";", ",", "}"):
                names.add(v.texts[k])
    return names


def check_lane_mask_32bit(v: View) -> list[Finding]:
    out = []
    calls = v.indices(MASKED_SYNC | BALLOTS)
    if not calls:
        return out
    names = _full_mask_names(v)
    for k in calls:
        t = v.toks[k]
        if v.is_member(k) or not v.punct(k + 1, "("):
            continue
        if t.text in MASKED_SYNC:
            out.extend(_mask_argument(v, k, names))
        if t.text in BALLOTS:
            f = _narrow_ballot(v, k)
            if f is not None:
                out.append(f)
    return out


def _mask_argument(v: View, k: int, names: set[str]) -> list[Finding]:
    close = matching(v.toks, k + 1)
    args = split_args(v.toks, k + 1, close) if close is not None else None
    if not args:
        return []
    a, b = args[0]
    name = v.toks[k].text
    for j in range(a, b):
        last = _full_mask_at(v, j)
        if last is None and v.toks[j].kind == IDENTIFIER and v.toks[j].text in names:
            last = j
        if last is None:
            continue
        text = " ".join(v.toks[i].text for i in range(j, last + 1)).replace("~ ", "~")
        return [
            v.finding(
                LANE_MASK_32BIT,
                j,
                last,
                f"{name} mask `{text}` covers only lanes 0-31; AMD wavefronts have 64 lanes and "
                "HIP masks are 64-bit: pass __activemask() or a 64-bit mask (~0ull)",
                api=name,
                hint=LANE_MASK_32BIT.fix,
            )
        ]
    return []


def _narrow_ballot(v: View, k: int) -> Finding | None:
    """__ballot*/__activemask result stored, cast or passed into 32 bits."""
    name = v.toks[k].text
    p = k - 1
    narrow: str | None = None
    if v.punct(p, "=") and p >= 1 and v.toks[p - 1].kind == IDENTIFIER:
        narrow = _declared_narrow(v, p - 1)
    elif v.punct(p, ")"):  # C-style cast (unsigned)__ballot(...)
        q = p - 1
        words = []
        while q >= 0 and v.toks[q].kind in (KEYWORD, IDENTIFIER):
            words.append(v.toks[q].text)
            q -= 1
        if v.punct(q, "(") and _narrow_type(words):
            narrow = " ".join(reversed(words))
    elif v.punct(p, "(") and v.punct(p - 1, ">"):  # static_cast<unsigned>(...)
        q = p - 2
        words = []
        while q >= 0 and v.toks[q].kind in (KEYWORD, IDENTIFIER) or v.text(q) == "::":
            words.append(v.toks[q].text)
            q -= 1
        if v.punct(q, "<") and v.text(q - 1) == "static_cast" and _narrow_type(words):
            narrow = " ".join(reversed(words))
    elif v.punct(p, "(") and v.text(p - 1) in NARROW_BIT_OPS:
        op = v.text(p - 1)
        return v.finding(
            LANE_MASK_32BIT,
            p - 1,
            k,
            f"{op} takes a 32-bit value, so {op}({name}(...)) drops lanes 32-63 of a 64-lane "
            f"AMD wavefront: use {NARROW_BIT_OPS[op]}",
            api=name,
            hip=NARROW_BIT_OPS[op],
            hint=LANE_MASK_32BIT.fix,
        )
    if narrow is None:
        return None
    return v.finding(
        LANE_MASK_32BIT,
        k,
        k,
        f"{name} result kept in 32-bit `{narrow}` loses lanes 32-63 of a 64-lane AMD "
        "wavefront: store it in unsigned long long (or auto)",
        api=name,
        hip="unsigned long long",
        hint=LANE_MASK_32BIT.fix,
    )


def _narrow_type(words_reversed: list[str]) -> bool:
    words = tuple(sorted(w for w in words_reversed if w not in TYPE_QUALIFIERS))
    return words in NARROW_TYPES


def _type_before(v: View, k: int) -> list[str]:
    """Type words right before code token k (a declared name), nearest first."""
    words = []
    q = k - 1
    while q >= 0 and (v.toks[q].kind in (KEYWORD, IDENTIFIER) or v.text(q) == "::"):
        words.append(v.toks[q].text)
        q -= 1
    return words


def _declared_narrow(v: View, k: int) -> str | None:
    """The 32-bit type the variable at code token k is declared with, if it is: either
    declared right here (`unsigned m = ...`) or earlier in the same function."""
    words = _type_before(v, k)
    if words:
        return " ".join(reversed(words)) if _narrow_type(words) else None
    body = v.body_at(k)
    if body is None:
        return None
    name = v.toks[k].text
    for j in range(k - 1, body.head - 1, -1):
        if v.toks[j].text != name or v.toks[j].kind != IDENTIFIER:
            continue
        if v.text(j + 1) not in (";", ",", "=", ")", "["):
            continue
        words = _type_before(v, j)
        if words:
            return " ".join(reversed(words)) if _narrow_type(words) else None
    return None


# --------------------------------------------------------------------------- HIP104


def check_wmma(v: View) -> list[Finding]:
    out = []
    for header, a, b in v.includes:
        if header == "mma.h":
            out.append(
                v.finding(
                    WMMA,
                    a,
                    b,
                    "<mma.h> (NVIDIA WMMA) has no HIP counterpart: port to rocWMMA "
                    "(<rocwmma/rocwmma.hpp>) or a GEMM library",
                    api="mma.h",
                    hip="rocwmma/rocwmma.hpp",
                    hint=WMMA.fix,
                )
            )
    for k in v.indices(("nvcuda", "wmma")):
        t = v.toks[k]
        if t.text == "nvcuda" and v.punct(k + 1, "::") and v.text(k + 2) == "wmma":
            out.append(
                v.finding(
                    WMMA,
                    k,
                    k + 2,
                    "nvcuda::wmma (tensor-core WMMA) does not exist in HIP: port "
                    "to rocWMMA (namespace rocwmma), checking the shapes and types the AMD GPU "
                    "supports",
                    api="nvcuda::wmma",
                    hip="rocwmma",
                    hint=WMMA.fix,
                )
            )
        elif (
            t.text == "wmma"
            and v.punct(k + 1, "::")
            and not (v.punct(k - 1, "::") and v.text(k - 2) == "nvcuda")
            and not v.is_member(k)
        ):
            api = f"wmma::{v.text(k + 2)}"
            out.append(
                v.finding(
                    WMMA,
                    k,
                    k + 2 if k + 2 < len(v.toks) else k + 1,
                    f"{api} is NVIDIA WMMA, absent from HIP: port to rocWMMA (rocwmma::"
                    f"{v.text(k + 2)}) after checking AMD's supported fragment shapes",
                    api=api,
                    hip=f"rocwmma::{v.text(k + 2)}",
                    hint=WMMA.fix,
                )
            )
    return out


# --------------------------------------------------------------------------- HIP105


def _angle_close(v: View, k: int) -> int | None:
    """Index of the `>` closing the `<` at k (template arguments), or None."""
    depth = 0
    for j in range(k, min(len(v.toks), k + 64)):
        t = v.toks[j]
        if t.kind != PUNCTUATION:
            continue
        if t.text == "<":
            depth += 1
        elif t.text == ">":
            depth -= 1
        elif t.text == ">>":
            depth -= 2
        elif t.text in (";", "{", "}", "(", ")"):
            return None
        if depth <= 0:
            return j if depth == 0 else None
    return None


def check_texture_reference(v: View) -> list[Finding]:
    out = []
    refs: set[str] = set()
    for k in v.indices(TEXTURE_TEMPLATES | TEXTURE_REFERENCE_APIS):
        t = v.toks[k]
        if v.is_member(k) or v.punct(k - 1, "::"):
            continue
        if t.text in TEXTURE_TEMPLATES and v.punct(k + 1, "<"):
            obj = (
                "texture object (cudaTextureObject_t)"
                if t.text == "texture"
                else "surface object (cudaSurfaceObject_t)"
            )
            close = _angle_close(v, k + 1)
            if close is None:
                continue
            j = close + 1
            while v.text(j) in ("&", "*", "const"):
                j += 1
            if j < len(v.toks) and v.toks[j].kind == IDENTIFIER:
                refs.add(v.toks[j].text)
                out.append(
                    v.finding(
                        TEXTURE_REFERENCE,
                        k,
                        close,
                        f"{t.text} reference `{v.toks[j].text}`: texture and surface references "
                        "were removed in CUDA 12 and are deprecated in HIP: use a "
                        f"{obj}",
                        api=f"{t.text}<>",
                        hint=TEXTURE_REFERENCE.fix,
                    )
                )
        elif t.text in TEXTURE_REFERENCE_APIS:
            out.append(
                v.finding(
                    TEXTURE_REFERENCE,
                    k,
                    k,
                    f"{t.text} belongs to the texture/surface reference API (removed in CUDA 12, "
                    "deprecated in HIP): use texture objects (cudaCreateTextureObject)",
                    api=t.text,
                    hint=TEXTURE_REFERENCE.fix,
                )
            )
    if not refs:
        return out
    for k in v.indices(TEXTURE_FETCHES):
        t = v.toks[k]
        if not v.punct(k + 1, "(") or v.is_member(k):
            continue
        close = matching(v.toks, k + 1)
        args = split_args(v.toks, k + 1, close) if close is not None else None
        for a, b in args or ():
            if b - a == 1 and v.toks[a].text in refs:
                out.append(
                    v.finding(
                        TEXTURE_REFERENCE,
                        k,
                        close,
                        f"{t.text} through texture/surface reference `{v.toks[a].text}`: pass a "
                        f"texture object instead and call {t.text}<T>(obj, ...)",
                        api=t.text,
                        hint=TEXTURE_REFERENCE.fix,
                    )
                )
                break
    return out


# --------------------------------------------------------------------------- HIP106


def check_launch_bounds(v: View) -> list[Finding]:
    out = []
    for k in v.indices(("__launch_bounds__",)):
        if not v.punct(k + 1, "("):
            continue
        close = matching(v.toks, k + 1)
        args = split_args(v.toks, k + 1, close) if close is not None else None
        if not args or len(args) < 2 or k in v.in_directive:
            continue
        if len(args) == 2:
            message = (
                "__launch_bounds__ second argument means min blocks per SM in CUDA but "
                "min waves per EU (amdgpu_waves_per_eu) in HIP: drop it or recompute "
                "it for AMD"
            )
        else:
            message = (
                "__launch_bounds__ with a third argument (max blocks per cluster) does "
                "not build with HIP, which takes at most two and reads the second as "
                "min waves per EU: keep only the first for HIP"
            )
        out.append(
            v.finding(
                LAUNCH_BOUNDS_MIN_BLOCKS,
                k,
                close,
                message,
                api="__launch_bounds__",
                hint=LAUNCH_BOUNDS_MIN_BLOCKS.fix,
            )
        )
    return out


# --------------------------------------------------------------------------- HIP107


def _cg_aliases(v: View) -> tuple[set[str], bool]:
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


def check_cooperative_groups(v: View) -> list[Finding]:
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


def _tile_size(v: View, k: int) -> list[Finding]:
    name = v.toks[k].text
    size_ks: list[int] = []
    end = k
    if v.punct(k + 1, "<"):
        close = _angle_close(v, k + 1)
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
    size = _int_tokens(v.value_of(size_ks))
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


# --------------------------------------------------------------------------- HIP108


def check_device_prop_field(v: View) -> list[Finding]:
    if not v.mentions(DEVICE_PROP_TYPES):
        return []
    out = []
    for k in v.indices(DEVICE_PROP_MISSING):
        t = v.toks[k]
        if not v.is_member(k):
            continue
        instead = DEVICE_PROP_MISSING[t.text]
        tail = (
            f": use {instead}"
            if instead and not instead.startswith("hipDeviceAttribute")
            else f": query hipDeviceGetAttribute(..., {instead}, dev)"
            if instead
            else ": HIP has no equivalent; guard it with #if defined(__HIP_PLATFORM_NVIDIA__)"
        )
        finding = v.finding(
            DEVICE_PROP_FIELD,
            k,
            k,
            f"cudaDeviceProp field {t.text} does not exist in hipDeviceProp_t (HIP "
            f"{DEVICE_PROP_HIP_VERSION}){tail}",
            api=f"cudaDeviceProp::{t.text}",
            hip=instead,
            hint=DEVICE_PROP_FIELD.fix,
        )
        if not _before_rocm6(v.ctx):
            finding.severity = Severity.WARNING
            finding.message += " (checked against HIP 5.2; ROCm 6.0 added many fields)"
        out.append(finding)
    return out


def _before_rocm6(ctx: Context) -> bool:
    rocm = ctx.target.rocm
    if rocm is None:  # the default target: the newest ROCm the tables know
        rocm = ctx.tables.newest_rocm
    return rocm < Version.parse("6.0")


# --------------------------------------------------------------------------- the rule

Check = Callable[[View], list[Finding]]

CHECKS: tuple[tuple[RuleInfo, Check], ...] = (
    (INLINE_PTX, check_inline_ptx),
    (HARDCODED_WARP_SIZE, check_hardcoded_warp_size),
    (LANE_MASK_32BIT, check_lane_mask_32bit),
    (WMMA, check_wmma),
    (TEXTURE_REFERENCE, check_texture_reference),
    (LAUNCH_BOUNDS_MIN_BLOCKS, check_launch_bounds),
    (COOPERATIVE_GROUPS_UNSUPPORTED, check_cooperative_groups),
    (DEVICE_PROP_FIELD, check_device_prop_field),
)

CODES = tuple(info.code for info, _ in CHECKS)


class HazardsRule:
    name = "hazards"
    codes = CODES

    def run(self, ctx: Context) -> RuleResult:
        view = View(ctx)
        findings: list[Finding] = []
        for _, check in CHECKS:
            findings.extend(check(view))
        findings.sort(key=lambda f: (f.location.line, f.location.column, f.code))
        return RuleResult(findings=findings)


RULE = HazardsRule()
