"""Every rule hipport reports: code, kebab-case name, default severity and documentation,
in one static table (like ruff's codes table). `hipport rule CODE`, docs/rules.md, SARIF's
rule metadata and every renderer read it; nothing registers itself at import time.

Each entry names the module that makes its findings (`module`, relative to hipport/).
The engine runs the rule modules in RULE_MODULES: the rewrites in REWRITE_ORDER (the order
matters: where two rules edit the same bytes, the earlier one wins), then one module per
hazard code, in code order. tests/test_catalogue.py checks this table against the modules.

Each entry says its kind (Kind: rewrite, hazard, gate, run, build); sets of codes are taken
from it (codes_of), never from code ranges. Each code has one test home,
tests/cases/rules/<CODE>/ (tests/test_rule_cases.py).

Add a rule: write its module (see hipport/rules/__init__.py), add one RuleInfo entry here
with a free code and its kind, give it a home under tests/cases/rules/ and regenerate
docs/rules.md (python tools/gen_rules_doc.py). A hazard or gate module under rules/hazards/
is picked up from its entry; a new rewrite module is also placed in REWRITE_ORDER.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "note": 1}[self.value]

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls(text.lower())
        except ValueError:
            raise ValueError(f"unknown severity {text!r}: use error, warning or note") from None


class Kind(StrEnum):
    """What makes a rule's findings. Tests, the HTML report and the policy take their sets of
    codes from here (codes_of), never from code ranges."""

    # a rewrite module (REWRITE_ORDER): what it could not rename or rewrite, or did with a caveat
    REWRITE = "rewrite"
    # a module under rules/hazards/: a construct to port by hand (it may not build for AMD,
    # or build and behave differently: warp size, lane masks, texture references ...)
    HAZARD = "hazard"
    # a module under rules/hazards/ for the build-break gate: code the target HIP does not
    # compile (reviewed facts with evidence, confirmed with hipcc by tests/test_gate.py), or
    # #if arms that flip under HIP
    GATE = "gate"
    # the run around the rules: files, walks, suppressions, the semantic pass
    RUN = "run"
    # the build-file (CMake) translation
    BUILD = "build"

    @property
    def title(self) -> str:
        """A heading for the findings of this kind (the HTML report groups them so)."""
        return _KIND_TITLES[self]


_KIND_TITLES = {
    Kind.REWRITE: "Not rewritten, or rewritten with a caveat",
    Kind.HAZARD: "Hazards to port by hand",
    Kind.GATE: "Build breaks and #if arms that flip under HIP",
    Kind.RUN: "The run: files, suppressions, the semantic pass",
    Kind.BUILD: "Build files (CMake)",
}


@dataclass(frozen=True)
class RuleInfo:
    code: str  # stable, e.g. "HIP001"
    name: str  # kebab-case, e.g. "unsupported-api"
    severity: Severity  # default
    summary: str  # one line: what it finds
    why: str  # why it matters
    example: str  # a CUDA snippet that triggers it
    fix: str  # how to fix it
    module: str  # the module (under hipport/) that makes these findings
    kind: Kind
    # Reported once per API and file, at its first use, with the count and lines of the
    # others (a token-level rule whose every token would say the same: wmma::).
    once_per_file: bool = False
    # Its findings name what to write instead (mappings/alternatives.tsv): `hipport rule`
    # lists the alternatives.
    alternatives: bool = False


# What a once_per_file rule's summary adds (docs/rules.md and `hipport rule` say it).
ONCE_PER_FILE = " Reported once per API and file, at the first use, with the file's count."

# --------------------------------------------------------------------------- the rules

UNSUPPORTED = RuleInfo(
    "HIP001",
    "unsupported-api",
    Severity.ERROR,
    "A CUDA API with no HIP counterpart.",
    "The name is left as it is, so the translated file will not build with HIP until the "
    "call is replaced by hand.",
    "cudaDeviceFlushGPUDirectRDMAWrites(target, scope);",
    "Rewrite the code without the API, or guard it with #ifdef __HIP_PLATFORM_NVIDIA__. "
    "Check the finding's alternative for an AMD hipExt API that can stand in.",
    module="rules.rename",
    kind=Kind.REWRITE,
    alternatives=True,
)

NEEDS_NEWER_ROCM = RuleInfo(
    "HIP002",
    "needs-newer-rocm",
    Severity.ERROR,
    "The HIP counterpart exists, but only in a ROCm newer than the target.",
    "Renaming would produce code that does not build with the ROCm release you aim at, so "
    "the name is left unchanged.",
    "cudaMallocAsync(&p, n, stream);  // hipMallocAsync needs ROCm 5.2",
    "Raise the target (--rocm), or replace the call with one the target has.",
    module="rules.rename",
    kind=Kind.REWRITE,
)

EXPERIMENTAL = RuleInfo(
    "HIP003",
    "experimental-mapping",
    Severity.WARNING,
    "HIPIFY marks this mapping experimental; it is not applied by default.",
    "Experimental HIP APIs may change or behave differently from CUDA.",
    "cublasSgemm_64(...);",
    "Pass --experimental to apply the mapping, and test the result.",
    module="rules.rename",
    kind=Kind.REWRITE,
)

UNKNOWN = RuleInfo(
    "HIP004",
    "unknown-cuda-identifier",
    Severity.ERROR,
    "An identifier that looks like CUDA API but is not in hipport's tables; or a CUDA name "
    "in the project's own HIP code (a file already written for HIP, an #if arm only the HIP "
    "build compiles), which translate leaves as it is.",
    "It is left unchanged, so the HIP build will fail on it unless the project defines it; "
    "it may be a newer CUDA API, a typo, a name from a library hipport does not map, or a "
    "name the project's port does not define.",
    "cudaFrobnicate(ptr);",
    "Port the call by hand; if the project defines the name itself, list it in the "
    "project's names (or define it where hipport can see it) to silence this.",
    module="rules.unknown",
    kind=Kind.REWRITE,
)

DEPRECATED_CUDA = RuleInfo(
    "HIP005",
    "deprecated-in-cuda",
    Severity.WARNING,
    "The CUDA API is deprecated (by the target CUDA release); it was renamed anyway.",
    "Deprecated APIs tend to be removed from HIP too; now is a good time to move off them.",
    "cudaThreadSynchronize();",
    "Use the API CUDA recommends instead (e.g. cudaDeviceSynchronize).",
    module="rules.rename",
    kind=Kind.REWRITE,
)

REMOVED_CUDA = RuleInfo(
    "HIP006",
    "removed-from-cuda",
    Severity.WARNING,
    "The CUDA API was removed from CUDA (by the target CUDA release); it was renamed anyway.",
    "The original code no longer builds with current CUDA, and HIP may drop the API too.",
    "cudaBindTexture(0, tex, p, n);",
    "Port to the replacement API (texture objects, ...).",
    module="rules.rename",
    kind=Kind.REWRITE,
)

DEPRECATED_HIP = RuleInfo(
    "HIP007",
    "deprecated-in-hip",
    Severity.WARNING,
    "The HIP counterpart is deprecated in the target ROCm; it was renamed anyway.",
    "Deprecated HIP APIs print warnings and are removed in later ROCm releases.",
    "cudaMemcpyToArray(dst, 0, 0, src, n, kind);",
    "Use the replacement HIP API (e.g. hipMemcpy2DToArray).",
    module="rules.rename",
    kind=Kind.REWRITE,
)

REMOVED_HIP = RuleInfo(
    "HIP008",
    "removed-from-hip",
    Severity.WARNING,
    "The HIP counterpart was removed in the target ROCm; the name is left unchanged.",
    "The renamed call would not build with the target ROCm.",
    "cudaBindTexture(0, tex, p, n);  // hipBindTexture removed in ROCm 6",
    "Port to the replacement API, or aim at an older ROCm.",
    module="rules.rename",
    kind=Kind.REWRITE,
)

NEEDS_HUMAN = RuleInfo(
    "HIP009",
    "needs-human",
    Severity.WARNING,
    "A rewrite hipport cannot make safely from tokens; the code is left as it is.",
    "The construct is ambiguous without a compiler (an unusual launch, an argument that "
    "is not a plain symbol, a CUDA-only macro); a wrong edit would be worse than none.",
    "(*kernel_ptr)<<<grid, block>>>(x);",
    "Rewrite the code by hand as the message says, or use the default <<<...>>> syntax.",
    module="rules.launch",
    kind=Kind.REWRITE,
)

REQUIRES_MACRO = RuleInfo(
    "HIP010",
    "requires-macro",
    Severity.NOTE,
    "The HIP name exists only when a macro is defined before the HIP headers.",
    "Without the macro the renamed call does not build (e.g. the *_sync warp builtins).",
    "__shfl_down_sync(0xffffffff, v, 16);",
    "Define the macro (e.g. -DHIP_ENABLE_WARP_SYNC_BUILTINS) in the build; note that HIP "
    "warp masks are 64-bit.",
    module="rules.rename",
    kind=Kind.REWRITE,
)

HIPEXT = RuleInfo(
    "HIP011",
    "hipext-alternative",
    Severity.NOTE,
    "An AMD-only hipExt API can stand in for this CUDA construct.",
    "Where HIP has no direct counterpart, or offers an AMD-specific better fit, a hipExt API "
    "may do the job; it is never applied silently, as it ties the code to AMD GPUs.",
    "cuGreenCtxCreate(&ctx, desc, dev, flags);",
    "Read the hipExt API's documentation and rewrite the call by hand if it fits.",
    module="rules.rename",
    kind=Kind.REWRITE,
)

CUDA_SIGNATURE_CHANGED = RuleInfo(
    "HIP014",
    "cuda-signature-changed",
    Severity.ERROR,
    "The mapping does not hold for the CUDA release the code is written for (HIPIFY's U "
    "column): CUDA changed the API there, and HIP follows the older signature.",
    "The HIP name is renamed in, but a call written for the newer CUDA signature passes "
    "arguments the HIP function does not take. Without --cuda, hipport assumes the newest "
    "CUDA its tables know and says so.",
    "cudaMemcpyBatchAsync(dsts, srcs, sizes, n, attrs, idx, nattrs, stream);  // --cuda 13.0",
    "Pass --cuda with the release the code is written for; for CUDA at or after the change, "
    "rewrite the call to the older signature HIP has (see the HIP function's declaration).",
    module="rules.rename",
    kind=Kind.REWRITE,
)

UNMAPPED_INCLUDE = RuleInfo(
    "HIP012",
    "unmapped-include",
    Severity.WARNING,
    "A CUDA header with no HIP counterpart.",
    "The include is left as it is, so the file will not build with HIP until the header "
    "(and what the code uses from it) is replaced. A header is known to be NVIDIA's from "
    "the toolkit's header list (mappings/cuda_headers.tsv: cuda/barrier, cuda_awbarrier.h, "
    "cuda_pipeline.h, the platform-only cudla.h, ...) or from its name (cuda*, cu[A-Z]*, "
    "cub/, nvtx3/ ...); thrust/ headers are not reported (rocThrust keeps their paths). An "
    'include ("quoted" or <angle>) outside any #if (the include guard aside) is an error: '
    "the HIP build stops there; inside an #if it is a warning. The finding is dropped, not "
    "downgraded, when the project ships a header of that name (a project file of that name "
    "in any directory, or at that relative path for names such as cuda/barrier): the "
    "compiler then includes the project's own file, not NVIDIA's, so the include is not "
    "the problem (what the project's header itself uses is checked in that file).",
    "#include <cuda_awbarrier.h>",
    "Remove the include and port the code that needs it, or guard it with "
    "#ifdef __HIP_PLATFORM_NVIDIA__.",
    module="rules.includes",
    kind=Kind.REWRITE,
)

SEMANTIC_PARSE_ERROR = RuleInfo(
    "HIP013",
    "semantic-parse-error",
    Severity.NOTE,
    "The semantic (AST) pass could not parse the file; tokens alone were used.",
    "Without the AST, hipport cannot tell a user's own `cudaFoo` from CUDA's or confirm "
    "kernel launches; the token path still translates everything it knows.",
    "hipport --semantic file.cu  # with no CUDA toolkit or clang resource headers",
    "Pass --cuda-path, install the clang-tidy wheel matching libclang (its resource "
    "headers are used), or give the compile flags with a compilation database.",
    module="semantic",
    kind=Kind.RUN,
)

INLINE_PTX = RuleInfo(
    "HIP101",
    "inline-ptx",
    Severity.ERROR,
    "Inline assembly (asm / asm volatile / __asm__) in device code: PTX does not exist on AMD.",
    "Inline asm strings are passed to the target assembler untouched. On NVIDIA they are PTX "
    "(mov.u32 %0, %%laneid; ld.global.cs; shfl.sync ...); hipcc compiles device code for "
    "AMDGPU (GCN/CDNA/RDNA ISA), whose assembler rejects PTX, so the file stops building for "
    "AMD — or, behind an #ifdef, silently takes a different path. hipify tools leave asm "
    "untouched. An error rather than a warning, unlike the other hazards: PTX in AMD "
    "device code does not compile. Fires on asm statements inside __device__/__global__ "
    "functions, inside "
    "#define bodies, or whose strings look like PTX anywhere (host-only x86 asm does not "
    "fire).",
    "__device__ unsigned lane_id() {\n"
    "    unsigned lane;\n"
    '    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n'
    "    return lane;\n"
    "}",
    "Replace the PTX with portable code or HIP device functions: %laneid -> __lane_id(), "
    "%clock64/%globaltimer -> clock64()/wall_clock64(), ld.global.nc -> __ldg(), "
    "shfl/vote PTX -> __shfl*/__ballot; for AMD-only tuning use __builtin_amdgcn_* "
    "intrinsics. Keep unavoidable PTX behind #if defined(__HIP_PLATFORM_NVIDIA__) with an "
    "AMD branch.",
    module="rules.hazards.inline_ptx",
    kind=Kind.HAZARD,
)

HARDCODED_WARP_SIZE = RuleInfo(
    "HIP102",
    "hardcoded-warp-size",
    Severity.WARNING,
    "Warp size hard-coded as 32 (lane arithmetic, per-warp arrays, WARP_SIZE macros).",
    "AMD CDNA/GCN GPUs run 64-lane wavefronts (RDNA can run 32 or 64), so warpSize is 64 "
    "there. Lane and warp indices computed as tid % 32, tid & 31 (0x1f), tid / 32 or "
    "tid >> 5 next to warp intrinsics split every wavefront into two halves that the "
    "shuffles, votes and ballots do not respect; reductions return partial sums, per-lane "
    "shared arrays sized 32 overflow for lanes 32-63, and a `#define WARP_SIZE 32` spreads "
    "the same wrong constant through the program. Fires on: % 32, & 31, & 0x1f, / 32, "
    ">> 5 (and their compound assignments) and __shared__ arrays with a dimension of 32 "
    "(literal, or a warp-size macro worth 32), all inside a function body that uses a warp "
    "intrinsic (__shfl*, __ballot*, __any*, __all*, __activemask, __syncwarp, __match_*, "
    "__reduce_*_sync, tiled_partition); and on definitions of warp-size-named macros or "
    "constants (WARP_SIZE, kWarpSize, THREADS_PER_WARP, ...) as 32, unless the file also "
    "defines the same name to another value (an #if branch for AMD).",
    "#define WARP_SIZE 32\n"
    "__global__ void reduce(const float* in, float* out) {\n"
    "    __shared__ float partial[32];\n"
    "    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
    "    float v = in[threadIdx.x];\n"
    "    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
    "    if (lane == 0) partial[warp] = v;\n"
    "}",
    "Use the built-in warpSize (a run-time value in HIP; on AMD it is 64, or 32 on RDNA in "
    "wave32 mode) for lane = threadIdx.x % warpSize and warp = threadIdx.x / warpSize; "
    "size per-warp arrays by the maximum (e.g. 1024 / 32 covers both) or by a compile-time "
    "constant chosen per platform (#if defined(__HIP_PLATFORM_AMD__) 64), and loop "
    "shuffle offsets from warpSize / 2.",
    module="rules.hazards.hardcoded_warp_size",
    kind=Kind.HAZARD,
)

LANE_MASK_32BIT = RuleInfo(
    "HIP103",
    "lane-mask-32bit",
    Severity.WARNING,
    "A 32-bit lane mask: 0xffffffff / ~0u / a FULL_MASK macro passed to a *_sync intrinsic, "
    "or a ballot/activemask result kept in a 32-bit integer.",
    "On AMD a wavefront has up to 64 lanes, so lane masks are 64-bit: HIP's __ballot, "
    "__activemask and the *_sync intrinsics use unsigned long long. 0xffffffff (or ~0u) "
    "names only lanes 0-31, so the upper half of the wavefront is left out of the shuffle, "
    "vote or sync; HIP's *_sync intrinsics (ROCm 6.2+) go further and reject masks that "
    "are not 64-bit integers at compile time. Storing __ballot_sync/__ballot/__activemask "
    "in unsigned, unsigned int, int or uint32_t (or passing it to the 32-bit __popc, "
    "__ffs, __clz, __brev) silently drops the votes of lanes 32-63, so counts and "
    "leader election are wrong on AMD.",
    "#define FULL_MASK 0xffffffff\n"
    "__global__ void count(const int* x, int* n) {\n"
    "    unsigned mask = __ballot_sync(FULL_MASK, x[threadIdx.x] > 0);\n"
    "    if (threadIdx.x == 0) *n = __popc(mask);\n"
    "}",
    "Keep masks in unsigned long long (or auto / uint64_t) and use the 64-bit bit helpers "
    "(__popcll, __ffsll, __clzll, __brevll); pass __activemask() (or ~0ull for a full "
    "wavefront) as the mask instead of 0xffffffff.",
    module="rules.hazards.lane_mask_32bit",
    kind=Kind.HAZARD,
)

WMMA = RuleInfo(
    "HIP104",
    "wmma",
    Severity.WARNING,
    "NVIDIA tensor-core WMMA (nvcuda::wmma, <mma.h>).",
    "nvcuda::wmma is NVIDIA's warp-level matrix API for tensor cores; HIP has no "
    "nvcuda::wmma and no <mma.h>, and hipify leaves it alone. AMD's counterpart, rocWMMA "
    "(rocwmma::fragment, load_matrix_sync, mma_sync, ...), is a separate library with its "
    "own header, supported fragment shapes and data types that differ per GPU (MFMA on "
    "CDNA, WMMA on RDNA3), and fragments spread over a 64-lane wavefront, so code that "
    "indexes fragment elements per lane or assumes 32 threads per fragment must be "
    "revisited.",
    "#include <mma.h>\n"
    "using namespace nvcuda;\n"
    "__global__ void gemm(const half* a, const half* b, float* c) {\n"
    "    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
    "    wmma::load_matrix_sync(fa, a, 16);\n"
    "}",
    "Port to rocWMMA (#include <rocwmma/rocwmma.hpp>, namespace rocwmma) after checking the "
    "shapes and types the target GPU supports, or call a GEMM library (hipBLAS/rocBLAS, "
    "hipBLASLt); keep the CUDA path behind #if defined(__HIP_PLATFORM_NVIDIA__).",
    module="rules.hazards.wmma",
    kind=Kind.HAZARD,
    once_per_file=True,
)

TEXTURE_REFERENCE = RuleInfo(
    "HIP105",
    "texture-reference",
    Severity.WARNING,
    "Legacy texture/surface references (texture<T, dim, mode>, surface<...>, "
    "cudaBindTexture*, fetches through a reference).",
    "Texture and surface references are the pre-Kepler binding model: a file-scope "
    "texture<> or surface<> object bound at run time with cudaBindTexture*/"
    "cudaBindSurfaceToArray. CUDA deprecated them in 11 and removed them in CUDA 12, and "
    "HIP only carries them as deprecated API (hipBindTexture and friends, with partial "
    "support on AMD, slated for removal), so code using them builds with neither current "
    "toolkit or depends on API about to go. Texture objects (cudaTextureObject_t with "
    "cudaCreateTextureObject, tex1Dfetch<T>(obj, i)) are supported by both and do not "
    "fire.",
    "texture<float, 1, cudaReadModeElementType> tex;\n"
    "__global__ void k(float* out) { out[threadIdx.x] = tex1Dfetch(tex, threadIdx.x); }\n"
    "// host: cudaBindTexture(nullptr, tex, d_in, n * sizeof(float));",
    "Switch to texture objects: describe the memory with cudaResourceDesc/cudaTextureDesc, "
    "create a cudaTextureObject_t with cudaCreateTextureObject, pass it to the kernel and "
    "fetch with tex1Dfetch<T>(obj, i) / tex2D<T>(obj, x, y); surfaces likewise with "
    "cudaSurfaceObject_t. hipify maps texture objects one to one.",
    module="rules.hazards.texture_reference",
    kind=Kind.HAZARD,
)

LAUNCH_BOUNDS_MIN_BLOCKS = RuleInfo(
    "HIP106",
    "launch-bounds-min-blocks",
    Severity.WARNING,
    "__launch_bounds__ with a second (min blocks per SM) or third (max blocks per cluster) "
    "argument.",
    "In CUDA the second argument of __launch_bounds__ is the minimum number of resident "
    "blocks per multiprocessor. HIP keeps the spelling but maps the second argument to "
    "amdgpu_waves_per_eu: the minimum number of wavefronts per execution unit (SIMD), a "
    "different unit, so the same number asks the compiler for a different register budget "
    "(too many registers freed means spills, too few means lower occupancy than intended). "
    "The third argument (CUDA 12 maxBlocksPerCluster, Hopper clusters) has no HIP meaning, "
    "and HIP's __launch_bounds__ macro takes at most two arguments, so it does not build.",
    "__global__ void __launch_bounds__(256, 4) kernel(float* x) { x[threadIdx.x] = 0.f; }",
    "Keep only the first argument (max threads per block) for HIP, and if occupancy matters "
    "express it in AMD's unit: wavefronts per EU = blocks per CU x waves per block / 4 "
    "SIMDs (e.g. 256 threads = 4 waves of 64, 4 blocks per CU -> 4 waves per EU), or use "
    "__attribute__((amdgpu_waves_per_eu(N))) behind #if defined(__HIP_PLATFORM_AMD__).",
    module="rules.hazards.launch_bounds_min_blocks",
    kind=Kind.HAZARD,
)

COOPERATIVE_GROUPS_UNSUPPORTED = RuleInfo(
    "HIP107",
    "cooperative-groups-unsupported",
    Severity.WARNING,
    "A cooperative-groups feature that HIP does not provide.",
    "HIP's cooperative groups (hip/hip_cooperative_groups.h) cover thread_block, "
    "grid_group, multi_grid_group, coalesced_group, thread_block_tile<N> and "
    "tiled_partition with shfl*/sync/size/thread_rank/group_index/thread_index. HIP 5.2's "
    "headers lack (mappings/cooperative_groups.tsv lists each with the newest release "
    "known to lack it and the first known to have it, so the check follows the target as "
    "the evidence grows): thread block clusters (this_cluster, "
    "cluster_group: Hopper hardware); cg::memcpy_async / cg::wait / cg::wait_prior and "
    "<cooperative_groups/memcpy_async.h>; cg::reduce, cg::inclusive_scan, "
    "cg::exclusive_scan with cg::plus/less/greater/bit_* and <cooperative_groups/reduce.h>, "
    "<cooperative_groups/scan.h>; labeled_partition, binary_partition, invoke_one, "
    "invoke_one_broadcast, block_tile_memory; the newer accessors num_threads(), "
    "dim_threads(), meta_group_rank(), meta_group_size(), num_blocks(), block_rank(), "
    "block_index(), dim_blocks(). thread_block_tile<N> / tiled_partition<N> must be a "
    "power of two no larger than the wavefront size (64; CUDA allows larger tiles with "
    "block_tile_memory), so N > 64 or a non-power-of-two does not compile. (Not a "
    "finding: grid_group::sync needs a cooperative launch, hipLaunchCooperativeKernel, "
    "exactly as in CUDA.)",
    "#include <cooperative_groups.h>\n"
    "#include <cooperative_groups/reduce.h>\n"
    "namespace cg = cooperative_groups;\n"
    "__global__ void sum(const int* x, int* out) {\n"
    "    auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
    "    int s = cg::reduce(tile, x[threadIdx.x], cg::plus<int>());\n"
    "    if (tile.thread_rank() == 0) atomicAdd(out, s);\n"
    "}",
    "Write the missing pieces by hand on what HIP has: reductions and scans with "
    "tile.shfl_down / shfl_xor loops (or hipCUB's WarpReduce/BlockReduce), asynchronous "
    "copies as ordinary loads to shared memory plus __syncthreads(), size() and "
    "thread_rank() instead of num_threads()/block_rank(); keep tiles at or below 64 "
    "threads; clusters have no AMD equivalent.",
    module="rules.hazards.cooperative_groups_unsupported",
    kind=Kind.HAZARD,
)

DEVICE_PROP_FIELD = RuleInfo(
    "HIP108",
    "device-prop-field",
    Severity.ERROR,
    "A cudaDeviceProp field that hipDeviceProp_t does not have.",
    "hipify renames cudaDeviceProp to hipDeviceProp_t and cudaGetDeviceProperties to "
    "hipGetDeviceProperties, but the two structs are not the same, and which CUDA fields "
    "hipDeviceProp_t lacks depends on the ROCm release: HIP 5.2 lacks asyncEngineCount, "
    "uuid, luid and 50-odd more; ROCm 6.0 reworked the struct and added most of them; "
    "mpsEnabled, the NUMA and the PCI device fields are still missing in ROCm 7.2. "
    "hipport checks the field list of the target's release (mappings/, from HIP 5.2's "
    "header and ROCm 6.2-7.2's hip-python): an error when that release, or the next one "
    "hipport has a list for, lacks the field (the port does not compile); a warning when "
    "only an earlier release's list lacks it and hipport has none for the target's own "
    "(ROCm 6.0/6.1, or newer than the last list). Fires on .field / ->field accesses of "
    "the listed names in files that mention cudaDeviceProp or hipDeviceProp_t.",
    "cudaDeviceProp prop;\n"
    "cudaGetDeviceProperties(&prop, 0);\n"
    'printf("MPS: %d\\n", prop.mpsEnabled);',
    "Query the value with hipDeviceGetAttribute(&value, hipDeviceAttribute..., device) "
    "where HIP has an attribute and the target's runtime answers it (the finding names the "
    "call and says when it would not), target a ROCm whose struct has the field, or guard "
    "the access with #if defined(__HIP_PLATFORM_NVIDIA__). A field HIP spells otherwise "
    "(sharedMemPerMultiprocessor -> maxSharedMemoryPerMultiProcessor before ROCm 6.2) is "
    "HIP031's, a read translate turns into an attribute query HIP032's.",
    module="rules.hazards.device_prop_field",
    kind=Kind.HAZARD,
)

MIXED_WARP_WIDTH = RuleInfo(
    "HIP109",
    "mixed-warp-width",
    Severity.WARNING,
    "A kernel that reduces over 32-lane tiles but counts or indexes warps with warpSize, or "
    "takes a lane id as % 32 (warp id as / 32) in warpSize-wide code.",
    "On NVIDIA warpSize is 32 and the two widths agree, so the program is right there and "
    "builds everywhere. On a 64-lane AMD wavefront they disagree and the result changes "
    "silently: after a reduction over 32-thread tiles (tiled_partition<32>, a shuffle loop "
    "from offset 16, a shuffle of width 32) each wavefront holds two tiles' sums, and "
    "`warpSum[threadIdx.x / warpSize]` stores both into one slot (or drops one); a lane id "
    "`threadIdx.x % 32` next to a warpSize-wide reduction makes lanes 0 and 32 both act as "
    "lane 0; a warp id `threadIdx.x >> 5` next to `% warpSize` lane ids leaves half the slots "
    "unwritten. Fires on `/ warpSize` in a function whose reduction (its own, or that of a "
    "function of the file it calls) works on 32-lane tiles, and on `% 32`, `& 31` lane ids (a "
    "lane-named variable, or compared with 0) and `/ 32`, `>> 5` warp ids (a warp-named "
    "variable, or a subscript) in a function that also uses warpSize. Consistent code (every "
    "width 32, or every width warpSize) is silent; HIP102 reports the 32s on their own.",
    "__device__ float warpReduce(float v) {\n"
    "    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
    "    return v;\n"
    "}\n"
    "__global__ void blockSum(const float* in, float* out) {\n"
    "    __shared__ float warpSum[32];\n"
    "    float v = warpReduce(in[threadIdx.x]);\n"
    "    if (threadIdx.x % 32 == 0) warpSum[threadIdx.x / warpSize] = v;\n"
    "}",
    "Pick one width. Index per-warp storage by the 32-lane tile (threadIdx.x / 32, or "
    "tile.meta_group_rank(), with storage sized blockDim.x / 32) when the reduction works on "
    "32-lane tiles; or reduce over warpSize lanes throughout (shuffle offsets from "
    "warpSize / 2, lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, storage "
    "sized for the smallest warp: blockDim.x / 32 slots cover both).",
    module="rules.hazards.mixed_warp_width",
    kind=Kind.HAZARD,
)

UNUSED_SUPPRESSION = RuleInfo(
    "HIP201",
    "unused-suppression",
    Severity.WARNING,
    "A `hipport: ignore` comment that silences no finding.",
    "Suppressions outlive the code they were written for; an unused one hides nothing today "
    "but would silently hide a new finding on that line tomorrow.",
    "hipMalloc(&p, n);  // hipport: ignore[HIP001]",
    "Delete the comment, or narrow it to the codes that still fire on that line.",
    module="suppressions",
    kind=Kind.RUN,
)

FILE_ERROR = RuleInfo(
    "HIP202",
    "file-error",
    Severity.ERROR,
    "A file hipport could not read, tokenize or translate.",
    "Nothing in the file was checked, so a clean report would be a false promise.",
    "hipport check binary.cu  # a file holding NUL bytes, or unreadable",
    "Fix or exclude the file (exclude = [...] in [tool.hipport]); the message says why it failed.",
    module="runner",
    kind=Kind.RUN,
)

SKIPPED_SOURCE = RuleInfo(
    "HIP203",
    "skipped-source",
    Severity.ERROR,
    "A source file hipport skipped for what it holds: NUL bytes (binary, or UTF-16), or "
    "over the size limit.",
    "Nothing in the file was checked; a gate that passed it would pass unchecked code.",
    "hipport check src/  # src/big.cu is 20 MiB, src/wide.cu is UTF-16",
    "Convert the file to UTF-8, raise max-file-size in [tool.hipport], or exclude the file; "
    'set [tool.hipport.severity] HIP203 = "warning" to keep it out of the gate.',
    module="findings",
    kind=Kind.RUN,
)

SYMLINK_LOOP = RuleInfo(
    "HIP204",
    "symlink-loop",
    Severity.ERROR,
    "A symbolic link that leads back to itself (a -> b -> a), found in the tree or named on "
    "the command line.",
    "The path can be neither read nor walked; whatever it was meant to point at was not checked.",
    "ln -s self.cu self.cu; hipport check .",
    "Remove or repair the link, or exclude the path.",
    module="findings",
    kind=Kind.RUN,
)

PERMISSION_DENIED = RuleInfo(
    "HIP205",
    "permission-denied",
    Severity.ERROR,
    "A file or directory hipport may not read.",
    "Sources in or behind it were not checked; the rest of the run goes on.",
    "chmod 000 src/private; hipport check src",
    "Make it readable for the user running hipport, or exclude it (exclude = [...]).",
    module="findings",
    kind=Kind.RUN,
)

INVALID_SUPPRESSION = RuleInfo(
    "HIP206",
    "invalid-suppression",
    Severity.WARNING,
    "A `hipport: ignore` comment that names no rule (a misspelt code) or is cut off (an "
    "unclosed `[`).",
    "It silences nothing, so the finding it was written for still shows; the run goes on "
    "and says which comment to fix instead of stopping (ruff and clang-tidy do the same).",
    "hipMalloc(&p, n);  // hipport: ignore[HIP0001]",
    "Spell the code as `hipport rule --all` lists it (the message suggests the nearest), or "
    "close the bracket.",
    module="suppressions",
    kind=Kind.RUN,
)

UNTRANSLATABLE = RuleInfo(
    code="HIP301",
    name="cmake-untranslatable",
    severity=Severity.WARNING,
    summary="A CMake construct that is CUDA-specific and has no exact HIP counterpart.",
    why=(
        "Legacy FindCUDA macros, nvcc compiler settings, separable compilation, CUDA-only "
        "libraries and `$<COMPILE_LANGUAGE:CUDA>` option blocks carry nvcc semantics. "
        "Renaming them to HIP would hand nvcc options to clang or silently change how "
        "the project links, so hipport leaves them as they are and asks for a decision."
    ),
    example="cuda_add_executable(app main.cu)\nset(CMAKE_CUDA_SEPARABLE_COMPILATION ON)",
    fix=(
        "Rewrite by hand with CMake's HIP language: `enable_language(HIP)`, "
        "`find_package(hip)`, `set_source_files_properties(<.cu files> PROPERTIES "
        "LANGUAGE HIP)`, `add_executable`; use `-fgpu-rdc` for relocatable device code "
        "and `$<COMPILE_LANGUAGE:HIP>` with clang options."
    ),
    module="cmake",
    kind=Kind.BUILD,
)

ARCHITECTURE = RuleInfo(
    code="HIP302",
    name="cmake-architecture",
    severity=Severity.WARNING,
    summary="A CUDA architecture value (e.g. 80, native) kept in a HIP_ARCHITECTURES setting.",
    why=(
        "CUDA compute capabilities (70, 80, 90a, all-major, native) name NVIDIA GPUs. "
        "HIP_ARCHITECTURES takes AMD gfx targets; there is no one-to-one map between the "
        "two, so hipport renames the variable or property but keeps the value."
    ),
    example="set(CMAKE_CUDA_ARCHITECTURES 80)",
    fix=(
        "List the AMD GPUs you build for, e.g. `set(CMAKE_HIP_ARCHITECTURES "
        '"gfx90a;gfx942")` for MI200/MI300 or `gfx1100` for RDNA3, or pass '
        "-DCMAKE_HIP_ARCHITECTURES=... at configure time."
    ),
    module="cmake",
    kind=Kind.BUILD,
)


DATA_LOSS = RuleInfo(
    "HIP020",
    "argument-dropped",
    Severity.WARNING,
    "The HIP function has no parameter for an argument the CUDA call passes; it was dropped.",
    "The translated call builds, but what the dropped argument did is lost: e.g. "
    "hipModuleOccupancyMaxPotentialBlockSize takes no blockSizeToDynamicSMemSize callback, "
    "so a block size that depends on the dynamic shared memory is no longer taken into "
    "account.",
    "cuOccupancyMaxPotentialBlockSize(&grid, &block, f, smemForBlock, 0, 0);",
    "Check that the call still computes what the code needs; where the dropped argument "
    "mattered, compute it by hand (e.g. loop over block sizes with "
    "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor).",
    module="rules.arguments",
    kind=Kind.REWRITE,
)

ARGUMENTS_NOT_REWRITTEN = RuleInfo(
    "HIP021",
    "argument-rewrite-skipped",
    Severity.WARNING,
    "A call needs its arguments rewritten for HIP, but they could not be parsed safely; the "
    "call is left as it is.",
    "The HIP function takes its arguments differently (wrapped in HIP_SYMBOL, cast, "
    "reordered, one dropped or added); without the rewrite the call does not build or does "
    "the wrong thing. hipport makes no edit it cannot make safely: the message says what "
    "stopped it (an #if inside the call, arguments coming from a macro, too few arguments, "
    "a symbol given as a string, an argument with a side effect that would be passed twice).",
    'cudaMemcpyToSymbol("table", host, n);  // a symbol by name: removed in CUDA 5',
    "Rewrite the call by hand as `hipport tables show NAME` describes, or restructure the "
    "code so that the call's arguments are written out in one place.",
    module="rules.arguments",
    kind=Kind.REWRITE,
)


DYNAMIC_PARALLELISM = RuleInfo(
    "HIP110",
    "dynamic-parallelism",
    Severity.ERROR,
    "A kernel launch (<<<...>>>) inside a __global__ or __device__ function.",
    "CUDA's dynamic parallelism lets a kernel launch kernels; HIP has no device-side "
    "launch (no device runtime on AMD GPUs), so hipcc rejects the launch in device code "
    "and the port does not build. A launch inside a __host__ __device__ function is "
    "reported as a warning: it breaks only when the function is compiled for the device. "
    "Launches in an #if arm that hipcc does not compile (e.g. #if __CUDA_ARCH__ >= 350) "
    "are not reported.",
    "__global__ void child(float* x) { x[threadIdx.x] *= 2.f; }\n"
    "__global__ void parent(float* x, int n) {\n"
    "    if (threadIdx.x == 0) child<<<n / 256, 256>>>(x);\n"
    "}",
    "Move the launch to the host: split the parent kernel at the launch, launch the child "
    "from the host after it (on the same stream, so it runs in order), or fold the child's "
    "work into the parent as a loop over its blocks; keep the device-side launch behind "
    "#if defined(__HIP_PLATFORM_NVIDIA__) if the CUDA build needs it.",
    module="rules.hazards.dynamic_parallelism",
    kind=Kind.GATE,
)


DEVICE_RUNTIME_CALL = RuleInfo(
    "HIP111",
    "device-runtime-call",
    Severity.ERROR,
    "A CUDA runtime API call (cudaDeviceSynchronize, cudaMalloc, cudaStreamCreateWithFlags, "
    "cudaGetLastError, ...) inside a __global__ or __device__ function.",
    "CUDA's device runtime (cudadevrt) makes part of the runtime API callable from "
    "kernels, for dynamic parallelism. HIP has no device runtime: every hip* runtime "
    'function is host-only (checked against HIP 5.2: hipcc says "no matching function" '
    "for hipDeviceSynchronize, hipMalloc, hipMemcpyAsync, hipStreamCreateWithFlags, "
    "hipGetLastError, hipGetDevice, hipDeviceGetAttribute, hipEventRecord ... called from "
    "a kernel), so the renamed call does not build. Calls in an #if arm hipcc does not "
    "compile are not reported; in a __host__ __device__ function it is a warning.",
    "__global__ void parent(float* x) {\n"
    "    float* tmp;\n"
    "    cudaMalloc(&tmp, 256 * sizeof(float));\n"
    "    cudaDeviceSynchronize();\n"
    "}",
    "Do the runtime work on the host: allocate buffers before the launch and pass them in, "
    "synchronize on the host (or split the kernel), report errors through a device flag "
    "the host reads; device-side malloc/free (not cudaMalloc) exist in HIP for heap "
    "memory.",
    module="rules.hazards.device_runtime_call",
    kind=Kind.GATE,
)


CUDA_ONLY_DEVICE_API = RuleInfo(
    "HIP112",
    "cuda-only-device-api",
    Severity.ERROR,
    "A CUDA device function, keyword or attribute the target HIP does not have "
    "(atomic*_block, __nanosleep, __activemask, __syncwarp, "
    "__reduce_*_sync, __dp4a, __isShared, __cvta_generic_to_shared, __grid_constant__, "
    "__cluster_dims__, ...).",
    "hipport's mapping tables do not list these names, so nothing renames them and the HIP "
    'compiler stops at them ("use of undeclared identifier", "unknown type name"). The '
    "list is reviewed data (mappings/gate_facts.tsv, built from tools/gate_facts.tsv) with "
    "its evidence: each name was compiled with Debian's HIP 5.2 and is absent from the "
    "HIP header scans up to 6.3-dev. For a target up to the release the evidence covers it "
    "is an error; for a newer ROCm, which the evidence does not cover, a warning that says "
    "so. A name the program defines itself, or that sits in an #if arm hipcc does not "
    "compile, is not reported.",
    "__global__ void k(unsigned* counter, const int n) {\n"
    "    atomicInc_block(counter, n);\n"
    "    __nanosleep(100);\n"
    "}",
    "Use what the finding suggests (atomicAdd_block -> atomicAdd, __activemask -> "
    "__ballot(1), __grid_constant__ -> drop it), or keep the CUDA code behind "
    "#if defined(__HIP_PLATFORM_NVIDIA__) with an AMD branch.",
    module="rules.hazards.cuda_only_device_api",
    kind=Kind.GATE,
)


PREPROCESSOR_BRANCH_FLIP = RuleInfo(
    "HIP113",
    "preprocessor-branch-flip",
    Severity.WARNING,
    "An #if/#ifdef on a macro nvcc predefines and hipcc does not (CUDART_VERSION, "
    "CUDA_VERSION, __CUDACC_VER_MAJOR__, __CUDA_ARCH__, __NVCC__, ...) that takes a "
    "different branch under HIP; or such a macro used in code.",
    "hipcc defines none of nvcc's macros (checked with hipcc -dM -E for HIP 5.2), so "
    "under HIP `#if CUDART_VERSION >= 11000` reads CUDART_VERSION as 0 and "
    "`#ifdef __CUDA_ARCH__` is false even in device code. Reported only when the branch "
    "differs from a CUDA compilation (a test that comes out the same is silent). Where the "
    "chain rests on CUDA's version numbers alone (CUDART_VERSION, CUDA_VERSION, "
    "__CUDACC_VER_*__) and the arm the CUDA build takes is known (--cuda's release, or "
    "every sampled release agrees), translate makes HIP compile that arm: the conditions "
    "that decide it test __HIP_PLATFORM_AMD__ (`defined(__HIP_PLATFORM_AMD__) || (...)`), "
    "and a note says so. Unless that arm is CUDA-only (it uses a name the target HIP lacks, "
    "or an nvcc macro in code): then the flip stays, a warning while HIP compiles a fallback "
    "arm in its place, an error when it compiles nothing there. Other flips (__CUDA_ARCH__, "
    "__NVCC__, a version test whose outcome depends on the CUDA release when --cuda is not "
    "given) are warnings that say which arm HIP compiles; an error when that arm holds an "
    "#error, when the arm HIP drops holds an #include the CUDA build compiles (a stub built "
    "instead of the kernel header), or when the macro is used in code (an undeclared "
    "identifier under HIP).",
    "#if CUDART_VERSION >= 11000\n"
    "    cudaMemPrefetchAsync(p, n, device, stream);\n"
    "#else\n"
    "    cudaMemcpyAsync(p, host, n, cudaMemcpyHostToDevice, stream);\n"
    "#endif",
    "Nothing to do where translate rewrote the condition; otherwise test what you mean under "
    "HIP too: #if defined(__HIP_PLATFORM_AMD__) || CUDART_VERSION >= 11000; use "
    "__HIP_DEVICE_COMPILE__ alongside __CUDA_ARCH__ for device-side code, HIP_VERSION for "
    "ROCm versions, __HIPCC__ for __NVCC__; pass --cuda for the release the code is built "
    "with.",
    module="rules.version_tests",
    kind=Kind.REWRITE,
)


VECTOR_OPERATOR_AMBIGUOUS = RuleInfo(
    "HIP114",
    "vector-operator-ambiguous",
    Severity.WARNING,
    "A free operator the program defines for two CUDA vector operands (float3, int2, "
    "double4, uchar4, ...) that the target HIP's vector types define too: += -= *= /= "
    "(HIP 5.2 and later), binary * and / (HIP 6.3).",
    "CUDA's vector types are plain structs without operators, so programs (and NVIDIA's "
    "helper_math.h) define their own. HIP's vector types define operators of their own; "
    "those that are non-template functions (read from each release's amd_hip_vector_types.h "
    "into mappings/vector_operators.tsv) match two vector operands exactly as the "
    "program's free operator does, and every use fails with \"use of overloaded operator "
    "'+=' is ambiguous\". Binary + and -, scalar operands and unary - resolve to the "
    "program's operator (HIP's are templates) and build. translate keeps each clashing "
    "definition out of the HIP build with #if !defined(__HIP_PLATFORM_AMD__) ... #endif "
    "(HIP's operator does the same component-wise arithmetic) and says so in a note. Where "
    "it cannot (the definition shares its lines with other code, sits in a macro, or "
    "returns another type than HIP's operator), a warning; an error when the same file "
    "visibly applies the operator to a variable declared with that vector type.",
    "inline __host__ __device__ void operator+=(float3 &a, float3 b) {\n"
    "    a.x += b.x; a.y += b.y; a.z += b.z;\n"
    "}",
    "Nothing to do where translate guards the definition; otherwise guard the program's "
    "vector operators with #if !defined(__HIP_PLATFORM_AMD__) by hand (HIP's own operators "
    "do the same arithmetic), or rename an operator that computes something else.",
    module="rules.vector_operators",
    kind=Kind.REWRITE,
)


MISSING_DEFAULT_ARGUMENT = RuleInfo(
    "HIP115",
    "missing-default-argument",
    Severity.ERROR,
    "A call that omits an argument CUDA gives a default to and the target HIP does not "
    "(cudaStreamWaitEvent(stream, event), cudaGraphInstantiate(&exec, graph), "
    "cudaLaunchCooperativeKernel with 4 or 5 arguments, cudaStreamGetCaptureInfo(s, &st)).",
    "The rename is right but the call is not: CUDA's declaration defaults the trailing "
    'parameters, HIP\'s does not, so hipcc reports "no matching function for call". The '
    "facts are reviewed data with their evidence and CUDA's default values (CUDA 13.0's "
    "declarations, Debian's HIP 5.2 headers and compiler). Where the evidence says the "
    "target lacks the default, translate passes CUDA's values itself and notes it; for a "
    "ROCm newer than the evidence covers the call is left, with a warning; a call inside a "
    "macro's definition is left, with an error.",
    "cudaEvent_t done;\n"
    "cudaEventCreate(&done);\n"
    "cudaEventRecord(done, producer);\n"
    "cudaStreamWaitEvent(consumer, done);",
    "Nothing to do where translate passes the values; otherwise pass the argument HIP needs "
    "(the finding names it): cudaStreamWaitEvent(consumer, done, 0).",
    module="rules.default_arguments",
    kind=Kind.REWRITE,
)


DEVICEPTR_ARITHMETIC = RuleInfo(
    "HIP116",
    "deviceptr-arithmetic",
    Severity.ERROR,
    "Integer arithmetic on a CUdeviceptr variable (base + offset, ptr & ~mask).",
    "CUDA's CUdeviceptr is an unsigned integer (unsigned long long); HIP's hipDeviceptr_t, "
    "its counterpart, is a void*. The rename is right, but `base + offset` becomes "
    "arithmetic on a pointer to void and `base & ~255` a bitwise operation on a pointer, "
    "which clang rejects (checked with Debian's HIP 5.2 and the HIP 6.3 headers). hipport "
    "cannot tell from tokens whether the expression wants a pointer or an integer back, so "
    "it reports the use with the cast instead of rewriting it. Variables are recognised by "
    "their declaration in the same function.",
    "void slices() {\n"
    "    CUdeviceptr base;\n"
    "    cuMemAlloc(&base, 4096);\n"
    "    CUdeviceptr slice = base + 1024;\n"
    "}",
    "Keep byte offsets on a char pointer: (hipDeviceptr_t)((char *)base + offset); cast to "
    "uintptr_t where the code needs the address as an integer (alignment tests).",
    module="rules.hazards.deviceptr_arithmetic",
    kind=Kind.GATE,
)


CUDA_NAMESPACE = RuleInfo(
    "HIP022",
    "cuda-namespace-unsupported",
    Severity.ERROR,
    "A CUDA C++ namespace with no HIP counterpart (libcu++'s cuda::, cuda::std::, nvtx3::).",
    "HIP has no libcu++ and no NVTX C++ API: every use of the namespace stays as it is and "
    "the translated file does not build until it is replaced.",
    "cuda::std::atomic<int> counter;\ncuda::barrier<cuda::thread_scope_block> bar;",
    "Use the std:: facility (std::atomic, std::complex, ...), HIP's own atomics and "
    "__syncthreads(), or rocPRIM/hipCUB; the finding's hint names the usual replacement.",
    module="rules.namespaces",
    kind=Kind.REWRITE,
)


WARP_MASK_WIDENED = RuleInfo(
    "HIP023",
    "warp-mask-widened",
    Severity.NOTE,
    "A full-warp 32-bit lane mask (0xffffffff, ~0u, (unsigned)-1, or a macro or constant "
    "defined as one) passed to a *_sync intrinsic, rewritten to the 64-bit all-lanes mask.",
    "HIP's *_sync intrinsics (ROCm 6.2 and later) take a 64-bit mask and reject any other "
    "width at compile time (static_assert in amd_warp_sync_functions.h); CUDA's full-warp "
    "mask means every lane, which on a 64-lane wavefront is 0xffffffffffffffff. Before ROCm "
    "7.0 the intrinsics also need HIP_ENABLE_WARP_SYNC_BUILTINS defined before the HIP "
    "headers: translate inserts it, guarded, at the top of the file.",
    "#define FULL_MASK 0xffffffff\n"
    "__device__ float sum(float v) { return v + __shfl_xor_sync(FULL_MASK, v, 16); }",
    "Nothing to do: the mask is rewritten. Review the shuffle offsets and widths, which may "
    "assume 32 lanes (HIP102).",
    module="rules.warp_masks",
    kind=Kind.REWRITE,
)

WARP_MASK_NARROW = RuleInfo(
    "HIP024",
    "warp-mask-narrow",
    Severity.ERROR,
    "A *_sync intrinsic's lane mask that is a 32-bit integer but not the full-warp mask: an "
    "unsigned variable, a cast to unsigned, a literal expression such as 0xffff.",
    "HIP's *_sync intrinsics (ROCm 6.2 and later) accept only a 64-bit mask "
    "(static_assert(sizeof(MaskT) == 8)): the translated call does not compile, and widening "
    "the value by hand must also say which of lanes 32-63 take part.",
    "__device__ int f(int v, unsigned m) { return __shfl_sync(m, v, 0); }",
    "Keep the mask in unsigned long long (or uint64_t), e.g. `unsigned long long m = "
    "__activemask();` or `(1ull << n) - 1`, and decide which upper lanes it names.",
    module="rules.warp_masks",
    kind=Kind.REWRITE,
)

MISSING_OVERLOAD = RuleInfo(
    "HIP025",
    "missing-overload",
    Severity.WARNING,
    "A call to a HIP function that exists only for some argument types (HIP's __ldcs and "
    "__ldcg take only const __half* and const __half2*), with an argument of another type.",
    "The name is renamed like any other, but the call does not compile unless HIP has the "
    "overload: an error where the argument is declared with another type in the function, a "
    "warning where hipport cannot see the type.",
    "__global__ void k(const float* in, float* out) { out[0] = __ldcs(in); }",
    "Use the finding's alternative (mappings/alternatives.tsv), e.g. "
    "__builtin_nontemporal_load(p) for a streaming load of a float.",
    module="rules.overloads",
    kind=Kind.REWRITE,
    alternatives=True,
)

OVERLOAD_COLLAPSES = RuleInfo(
    "HIP026",
    "overloads-collapse",
    Severity.NOTE,
    "Two definitions of one function that differ only in CUDA types which map to the same "
    "HIP type (_cudaGetErrorEnum(cudaError_t) and _cudaGetErrorEnum(CUresult), both "
    "hipError_t).",
    "CUDA's runtime and driver APIs have types of their own that HIP merges (cudaError_t "
    "and CUresult are both hipError_t, cudaStream_t and CUstream both hipStream_t), so "
    "overloads that helper headers define for each become one function defined twice under "
    "HIP (\"redefinition of '_cudaGetErrorEnum'\"). translate keeps the first definition "
    "and guards each later one with #if !defined(__HIP_PLATFORM_AMD__) ... #endif, and says "
    "so in a note; the calls that reached the later one reach the first, which takes the "
    "same HIP type. One it cannot guard (it shares its lines with other code) is an error. "
    "Definitions in different arms of one #if chain are left alone.",
    "static const char *_cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }\n"
    "static const char *_cudaGetErrorEnum(CUresult error) {\n"
    '    return error == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA error";\n'
    "}",
    "Nothing to do where translate guards it; otherwise guard the later definition with "
    "#if !defined(__HIP_PLATFORM_AMD__) by hand, or merge the two.",
    module="rules.collapsing_overloads",
    kind=Kind.REWRITE,
)

EMPTY_MACRO_DROPPED = RuleInfo(
    "HIP027",
    "empty-macro-dropped",
    Severity.NOTE,
    "A CUDA macro that expands to nothing on Linux and that HIP does not define "
    "(CUDART_CB in a stream callback's declaration), dropped by translate.",
    "CUDA's headers define CUDART_CB as __stdcall on Windows and as nothing elsewhere; HIP's "
    "AMD headers have no such macro, so the word left in place is an unknown identifier "
    "and the declaration does not compile. Removing it keeps the meaning on every platform "
    "HIP's AMD side builds for. The names are reviewed facts with their evidence "
    "(mappings/gate_facts.tsv, kind empty-macro); a program that defines the macro itself "
    "keeps it.",
    "void CUDART_CB done(cudaStream_t stream, cudaError_t status, void *data) {}",
    "Nothing to do: the word is removed.",
    module="rules.empty_macros",
    kind=Kind.REWRITE,
)

COORDINATE_CAST = RuleInfo(
    "HIP028",
    "coordinate-cast",
    Severity.NOTE,
    "A built-in coordinate (threadIdx.x, blockDim.x, ...) passed to min or max where, under "
    "the target HIP, its type makes the call ambiguous; translate casts it to unsigned int.",
    "CUDA's coordinates are unsigned int. HIP 5.2's are proxy types that convert to "
    "unsigned int, so min(rem, blockDim.x) with an unsigned rem (or a size_t, an unsigned "
    "literal, another coordinate) matches several of clang's min/max overloads and does not "
    "compile (\"call to 'min' is ambiguous\"); the HIP 6.3 headers resolve it. The cast to "
    "the coordinate's CUDA type keeps the meaning. The functions and the releases are "
    "reviewed facts (mappings/gate_facts.tsv, kind coordinate-argument); a call whose other "
    "argument's type hipport cannot see is left alone (a plain int resolves).",
    "__global__ void tail(float *out, unsigned n) {\n"
    "    unsigned rem = n - blockIdx.x * blockDim.x;\n"
    "    unsigned count = min(rem, blockDim.x);\n"
    "    if (threadIdx.x < count) out[threadIdx.x] = 0.f;\n"
    "}",
    "Nothing to do: the coordinate is cast.",
    module="rules.coordinate_casts",
    kind=Kind.REWRITE,
)

UNSIGNED_MIN_MAX = RuleInfo(
    "HIP029",
    "unsigned-min-max",
    Severity.NOTE,
    "CUDA's umin/umax (ullmin/ullmax), which HIP does not declare; translate calls min/max "
    "with both arguments cast to the CUDA parameter type.",
    "HIP declares no umin, umax, ullmin or ullmax (Debian's HIP 5.2 and the 6.3 headers; "
    "mappings/gate_facts.tsv, kind unsigned-min-max, with the evidence), so the call does not "
    "compile. Renaming it to min/max is not enough: min(u, 1) with an unsigned u picks HIP's "
    "int min(int, int), and an unsigned value above INT_MAX then compares as negative. Casting "
    "both arguments to the CUDA parameter type selects the unsigned overload and converts "
    "them as CUDA's call does. A use that is not a two-argument call (its address, a macro "
    "that supplies the arguments) is an error that names the form to write.",
    "__global__ void clamp(unsigned *k, unsigned lo, unsigned hi) {\n"
    "    k[threadIdx.x] = umax(lo, umin(k[threadIdx.x], hi));\n"
    "}",
    "Nothing to do for a call: it is rewritten. Elsewhere write "
    "min((unsigned int)(a), (unsigned int)(b)) (unsigned long long for ullmin/ullmax).",
    module="rules.unsigned_min_max",
    kind=Kind.REWRITE,
)

SYSTEM_ATOMIC_HELPER = RuleInfo(
    "HIP030",
    "system-atomic-helper",
    Severity.NOTE,
    "atomicInc_system/atomicDec_system, which the target HIP lacks; translate calls a "
    "compare-and-swap helper with CUDA's semantics that it defines once in the file.",
    "HIP has atomicInc/atomicDec and atomicCAS_system but no system-scope atomicInc_system "
    "or atomicDec_system (Debian's HIP 5.2 and the 6.3 headers; mappings/gate_facts.tsv, kind "
    "system-atomic, with the evidence), so the call does not compile. translate renames the "
    "call to hipport_atomicInc_system / hipport_atomicDec_system, a loop over "
    "atomicCAS_system that stores CUDA's value ((old >= val) ? 0 : old + 1 for Inc; "
    "((old == 0) | (old > val)) ? val : old - 1 for Dec) and returns the old one, and "
    "defines it, guarded by its own macro, before the first file-level declaration that uses "
    "it. Translating the output again changes nothing.",
    "__global__ void claim(unsigned *cursor, unsigned *owner, unsigned slots) {\n"
    "    owner[atomicInc_system(cursor, slots - 1)] = threadIdx.x;\n"
    "}",
    "Nothing to do: the call is rewritten and the helper defined.",
    module="rules.system_atomics",
    kind=Kind.REWRITE,
)

STRUCT_FIELD_RENAMED = RuleInfo(
    "HIP031",
    "struct-field-renamed",
    Severity.NOTE,
    "A field of a CUDA struct that the HIP struct spells otherwise "
    "(CUmemAllocationProp::requestedHandleTypes -> requestedHandleType); translate renames it "
    "where the object's type can be told.",
    "hipify renames the struct (CUmemAllocationProp -> hipMemAllocationProp) but a few HIP "
    "structs spell a field differently: requestedHandleType, the graph instantiation "
    "parameters' uploadStream and errNode_out, and before ROCm 6.2 hipDeviceProp_t's "
    "maxSharedMemoryPerMultiProcessor for sharedMemPerMultiprocessor. The CUDA spelling does "
    "not compile. The renames are reviewed data with each release's header:line "
    "(mappings/struct_fields.tsv). translate renames `obj.field`, `ptr->field` and designated "
    "initializers where the object is a variable or parameter of the function declared with "
    "the CUDA struct, or the initializer's declaration names it; where the type cannot be "
    "told (a global, an array element, a call's result) in a file that names the CUDA "
    "struct, the finding is an error naming the HIP field. A field of another type is "
    "left alone.",
    "void setup(int dev) {\n"
    "    CUmemAllocationProp prop = {};\n"
    "    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;\n"
    "}",
    "Nothing to do where it is renamed; elsewhere rename the field as the finding says.",
    module="rules.struct_fields",
    kind=Kind.REWRITE,
)

DEVICE_PROP_ATTRIBUTE = RuleInfo(
    "HIP032",
    "device-prop-attribute",
    Severity.NOTE,
    "A read of a cudaDeviceProp field the target's hipDeviceProp_t lacks, whose device "
    "attribute the target's runtime answers; translate queries the attribute.",
    "hipDeviceProp_t of HIP 5.2 lacks memoryPoolsSupported, sharedMemPerBlockOptin, "
    "maxBlocksPerMultiProcessor and 50-odd more (HIP108). hipDeviceGetAttribute has an "
    "attribute for many of them, but a release whose struct lacks the field mostly does not "
    "answer its attribute either (HIP 5.2's runtime returns hipErrorInvalidValue for the "
    "ones its header marks 'Cuda only'), so only a query the target answers keeps the "
    "meaning: which ones is reviewed data with its evidence "
    "(mappings/device_prop_attributes.tsv; today hipDeviceAttributeMemoryPoolsSupported on "
    "5.2). translate replaces `prop.field` by hipport_device_attribute(hipDeviceAttributeX, "
    "device), converted to the field's CUDA type, where cudaGetDeviceProperties(&prop, device) "
    "filled prop in the same function and block and device is unchanged since; the helper is "
    "defined once in the file. Every other read of a missing field stays HIP108's error, "
    "which names the exact call.",
    "int pools(int device) {\n"
    "    cudaDeviceProp prop;\n"
    "    cudaGetDeviceProperties(&prop, device);\n"
    "    return prop.memoryPoolsSupported;\n"
    "}",
    "Nothing to do: the read is rewritten and the helper defined.",
    module="rules.device_attributes",
    kind=Kind.REWRITE,
)

# --------------------------------------------------------------------------- the index

# The rewrite rules, in the order the engine runs them (earlier edits win overlaps).
# rules.types comes first: its roc-mode type names win over the plain renames.
REWRITE_ORDER: tuple[str, ...] = (
    "rules.types",
    "rules.rename",
    "rules.empty_macros",
    "rules.warp_masks",
    "rules.overloads",
    "rules.vector_operators",
    "rules.collapsing_overloads",
    "rules.coordinate_casts",
    "rules.unsigned_min_max",
    "rules.system_atomics",
    "rules.struct_fields",
    "rules.device_attributes",
    "rules.version_tests",
    "rules.namespaces",
    "rules.includes",
    "rules.launch",
    "rules.arguments",
    "rules.default_arguments",
    "rules.unknown",
)
HAZARDS_PACKAGE = "rules.hazards."  # one module per hazard code, under rules/hazards/


def _index(entries: dict[str, object]) -> dict[str, RuleInfo]:
    """code -> RuleInfo of every entry above, in code order; a code or name used twice,
    or a name that is not kebab-case, is an error at import time."""
    rules: dict[str, RuleInfo] = {}
    names: set[str] = set()
    for info in entries.values():
        if not isinstance(info, RuleInfo):
            continue
        if info.code in rules or info.name in names:
            raise ValueError(f"rule {info.code} {info.name}: code or name used twice")
        if info.name != info.name.lower() or " " in info.name or "_" in info.name:
            raise ValueError(f"rule {info.code}: name {info.name!r} is not kebab-case")
        rules[info.code] = info
        names.add(info.name)
    return dict(sorted(rules.items()))


RULES: dict[str, RuleInfo] = _index(dict(globals()))


def _rule_modules() -> tuple[str, ...]:
    hazards = (info.module for info in RULES.values() if info.module.startswith(HAZARDS_PACKAGE))
    return REWRITE_ORDER + tuple(dict.fromkeys(hazards))


# Every module the engine runs, in run order (each exposes RULE, see hipport/rules).
RULE_MODULES: tuple[str, ...] = _rule_modules()


def codes_of(*kinds: Kind) -> tuple[str, ...]:
    """The codes of the rules of these kinds, in code order."""
    return tuple(code for code, info in RULES.items() if info.kind in kinds)


def rule_by_code_or_name(key: str) -> RuleInfo | None:
    key_up = key.upper()
    if key_up in RULES:
        return RULES[key_up]
    for info in RULES.values():
        if info.name == key.lower():
            return info
    return None
