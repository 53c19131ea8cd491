"""Every registered rule code has a case that fires and one that must not, run the way
`hipport check` runs them (engine, then the report: suppressions, file errors, CMake)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from hipport.engine import EngineOptions
from hipport.findings import RULES
from hipport.target import Target, Version
from tests.report_support import codes, report_of

HEAD = "#include <cuda_runtime.h>\n"


def _removed_tables():
    """The real tables, with hipMalloc removed in ROCm 6.0 (no real row is removed yet)."""
    from hipport.tables import load_tables

    real = load_tables()
    tables = copy.copy(real)
    tables.by_cuda = dict(real.by_cuda)
    row = real.by_cuda["cudaMalloc"][0]
    tables.by_cuda["cudaMalloc"] = [row._replace(hip_removed=Version.parse("6.0"))]
    return tables


# (code, path, firing source, non-firing source, target, engine options)
CASES = [
    (
        "HIP001",
        "a.cu",
        HEAD + "void f(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n",
        HEAD + "void f(){ cudaDeviceSynchronize(); }\n",
        Target(),
        None,
    ),
    (
        "HIP002",
        "a.cu",
        HEAD + "void f(){ cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1); }\n",
        HEAD + "void f(){ cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1); }\n",
        Target(rocm="5.2"),
        "rocm=5.3",
    ),
    (
        "HIP003",
        "a.cu",
        HEAD + "void f(){ cudaMemPrefetchBatchAsync(p, s, n, l, i, c, 0, st); }\n",
        HEAD + "void f(){ cudaMalloc(&p, n); }\n",
        Target(rocm="7.14"),
        None,
    ),
    (
        "HIP014",
        "a.cu",
        HEAD + "void f(){ cudaMemcpyBatchAsync(d, s, z, n, a, i, c, st); }\n",
        HEAD + "void f(){ cudaMemcpyBatchAsync(d, s, z, n, a, i, c, f, st); }\n",
        Target(cuda="13.0"),
        "cuda=12.8",  # quiet: the same API for CUDA 12.8, whose signature HIP has
    ),
    (
        "HIP004",
        "a.cu",
        HEAD + "void f(){ cudaFrobnicateWidget(); }\n",
        HEAD + "void f(){ frobnicate_widget(); }\n",
        Target(),
        None,
    ),
    (
        "HIP005",
        "a.cu",
        HEAD + "void f(){ cudaThreadSynchronize(); }\n",
        HEAD + "void f(){ cudaDeviceSynchronize(); }\n",
        Target(),
        None,
    ),
    (
        "HIP006",
        "a.cu",
        HEAD + "void f(){ cudaBindTexture(0, tex, p, n); }\n",
        HEAD + "void f(){ cudaCreateTextureObject(&t, &r, &d, 0); }\n",
        Target(),
        None,
    ),
    (
        "HIP007",
        "a.cu",
        HEAD + "void f(){ cudaMemcpyToArray(d, 0, 0, s, n, k); }\n",
        HEAD + "void f(){ cudaMemcpy2DToArray(d, 0, 0, s, p, w, h, k); }\n",
        Target(),
        None,
    ),
    (
        "HIP008",
        "a.cu",
        HEAD + "void f(){ cudaMalloc(&p, n); }\n",
        HEAD + "void f(){ cudaFree(p); }\n",
        Target(rocm="6.1"),
        "removed",
    ),
    (
        "HIP009",
        "a.cu",
        "void f(){ (*kernel_ptr)<<<grid, block>>>(x); }\n",
        "__global__ void k(int); void f(){ k<<<grid, block>>>(x); }\n",
        Target(launch_syntax="hip"),
        None,
    ),
    (
        "HIP010",
        "a.cu",
        HEAD + "__global__ void k(int v){ v = __shfl_down_sync(m, v, 16); }\n",
        HEAD + "__global__ void k(int v){ v = __shfl_down(v, 16); }\n",
        Target(),
        None,
    ),
    (
        "HIP011",
        "a.cu",
        HEAD + "void f(){ cuGreenCtxCreate(&c, d, dev, 0); }\n",
        HEAD + "void f(){ cuCtxCreate(&c, 0, dev); }\n",
        Target(),
        None,
    ),
    (
        "HIP012",
        "a.cu",
        "#include <cuda_awbarrier.h>\n",
        "#include <cuda_runtime.h>\n",
        Target(),
        None,
    ),
    (
        "HIP020",
        "a.cu",
        "#include <cuda.h>\nvoid f(CUfunction fn, CUoccupancyB2DSize s, int* g, int* b)"
        "{ cuOccupancyMaxPotentialBlockSize(g, b, fn, s, 0, 0); }\n",
        "#include <cuda.h>\nvoid f(CUfunction fn, int* g, int* b)"
        "{ cuOccupancyMaxActiveBlocksPerMultiprocessor(g, fn, 128, 0); }\n",
        Target(),
        None,
    ),
    (
        "HIP021",
        "a.cu",
        HEAD + '__constant__ int t[4];\nvoid f(int* h){ cudaMemcpyToSymbol("t", h, 16); }\n',
        HEAD + "__constant__ int t[4];\nvoid f(int* h){ cudaMemcpyToSymbol(t, h, 16); }\n",
        Target(),
        None,
    ),
    (
        "HIP022",
        "a.cu",
        HEAD + "__device__ cuda::std::size_t n;\n",
        HEAD + "namespace cuda { using size_t = unsigned long; }\n__device__ cuda::size_t n;\n",
        Target(),
        None,
    ),
    (
        "HIP013",
        "a.cu",
        HEAD + "__global__ void k(){}\n",
        HEAD + "__global__ void k(){}\n",
        Target(),
        "semantic",
    ),
    (
        "HIP101",
        "a.cu",
        HEAD + '__global__ void k(){ asm volatile("membar.gl;"); }\n',
        HEAD + "__global__ void k(){ __threadfence(); }\n",
        Target(),
        None,
    ),
    (
        "HIP102",
        "a.cu",
        HEAD + "__global__ void k(){ int lane = threadIdx.x % 32;"
        " int v = __shfl_down(lane, 1); }\n",
        HEAD + "__global__ void k(){ int lane = threadIdx.x % warpSize;"
        " int v = __shfl_down(lane, 1); }\n",
        Target(),
        None,
    ),
    (
        "HIP103",
        "a.cu",
        HEAD + "__global__ void k(int v){ v = __shfl_down_sync(0xffffffff, v, 1); }\n",
        HEAD + "__global__ void k(int v){ v = __shfl_down_sync(__activemask(), v, 1); }\n",
        Target(),
        None,
    ),
    (
        "HIP104",
        "a.cu",
        "#include <mma.h>\nusing namespace nvcuda;\n"
        "__global__ void k(){ wmma::fragment<wmma::matrix_a, 16, 16, 16, half> a; }\n",
        HEAD + "__global__ void k(){ float a[16]; }\n",
        Target(),
        None,
    ),
    (
        "HIP105",
        "a.cu",
        HEAD + "texture<float, 1, cudaReadModeElementType> tex;\n",
        HEAD + "cudaTextureObject_t tex;\n",
        Target(),
        None,
    ),
    (
        "HIP106",
        "a.cu",
        HEAD + "__global__ void __launch_bounds__(256, 2) k(){}\n",
        HEAD + "__global__ void __launch_bounds__(256) k(){}\n",
        Target(),
        None,
    ),
    (
        "HIP107",
        "a.cu",
        RULES["HIP107"].example + "\n" if "HIP107" in RULES else "",
        HEAD + "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
        "__global__ void k(){ cg::thread_block b = cg::this_thread_block(); b.sync(); }\n",
        Target(),
        None,
    ),
    (
        "HIP108",
        "a.cu",
        HEAD + "int f(cudaDeviceProp p){ return p.luid[0]; }\n",
        HEAD + "int f(cudaDeviceProp p){ return p.multiProcessorCount; }\n",
        Target(rocm="5.2"),  # ROCm 6.2 and later have luid
        None,
    ),
    (
        "HIP110",
        "a.cu",
        HEAD + "__global__ void c(int *p){}\n__global__ void k(int *p){ c<<<1, 1>>>(p); }\n",
        HEAD + "__global__ void c(int *p){}\nvoid h(int *p){ c<<<1, 1>>>(p); }\n",
        Target(rocm="5.2"),
        None,
    ),
    (
        "HIP111",
        "a.cu",
        HEAD + "__global__ void k(){ cudaDeviceSynchronize(); }\n",
        HEAD + "__global__ void k(){}\nvoid h(){ k<<<1, 1>>>(); cudaDeviceSynchronize(); }\n",
        Target(rocm="5.2"),
        None,
    ),
    (
        "HIP112",
        "a.cu",
        HEAD + "__global__ void k(unsigned *p){ atomicInc_system(p, 4u); }\n",
        HEAD + "__global__ void k(unsigned *p){ atomicInc(p, 4u); }\n",
        Target(rocm="5.2"),
        None,
    ),
    (
        "HIP113",
        "a.cu",
        HEAD + "#if CUDART_VERSION >= 11000\nint v = 1;\n#endif\n",
        HEAD + "#if defined(__HIPCC__) || CUDART_VERSION >= 11000\nint v = 1;\n#endif\n",
        Target(rocm="5.2"),
        None,
    ),
    (
        "HIP114",
        "a.cu",
        HEAD + "__device__ void operator+=(float3 &a, float3 b){ a.x += b.x; }\n",
        HEAD + "#ifndef __HIP_PLATFORM_AMD__\n"
        "__device__ void operator+=(float3 &a, float3 b){ a.x += b.x; }\n#endif\n",
        Target(rocm="5.2"),
        None,
    ),
    (
        "HIP115",
        "a.cu",
        HEAD + "void f(cudaStream_t s, cudaEvent_t e){ cudaStreamWaitEvent(s, e); }\n",
        HEAD + "void f(cudaStream_t s, cudaEvent_t e){ cudaStreamWaitEvent(s, e, 0); }\n",
        Target(rocm="5.2"),
        None,
    ),
    (
        "HIP201",
        "a.cu",
        HEAD + "void f(){ cudaFree(p); }  // hipport: ignore[HIP001]\n",
        HEAD + "void f(){ cudaFrobnicateWidget(); }  // hipport: ignore[HIP004]\n",
        Target(),
        None,
    ),
    ("HIP202", "a.cu", HEAD.encode() + b"void f(){ \0 }\n", HEAD + "void f(){}\n", Target(), None),
    (
        "HIP301",
        "CMakeLists.txt",
        "cuda_add_executable(app main.cu)\n",
        "add_executable(app main.cpp)\n",
        Target(),
        None,
    ),
    (
        "HIP302",
        "CMakeLists.txt",
        "project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80)\n",
        "project(p LANGUAGES CXX)\nset(CMAKE_CXX_STANDARD 17)\n",
        Target(),
        None,
    ),
]


def _setup(special: str | None, target: Target) -> tuple[Target, EngineOptions | None]:
    if special == "removed":
        return target, EngineOptions(tables=_removed_tables())
    if special == "semantic":
        return target, EngineOptions(semantic=True, cuda_path="/nonexistent-cuda")
    return target, None


# Codes raised by the walk over a tree (not by one source text), so a case here cannot reach
# them: each is pinned, firing and quiet, by real trees in the test file named.
WALK_CODES = {
    "HIP203": "tests/test_reliability_walks.py",
    "HIP204": "tests/test_reliability_walks.py",
    "HIP205": "tests/test_reliability_walks.py",
}


def test_every_registered_rule_has_cases():
    covered = {case[0] for case in CASES} | set(WALK_CODES)
    missing = sorted(set(RULES) - covered)
    assert not missing, f"rules with no firing/non-firing case in CASES: {missing}"


@pytest.mark.parametrize("code", sorted(WALK_CODES))
def test_walk_codes_are_tested_where_named(code):
    root = Path(__file__).resolve().parent.parent
    assert code in RULES, f"{code} is listed as a walk code but is not a registered rule"
    assert code in (root / WALK_CODES[code]).read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_rule_fires(case):
    code, path, firing, _, target, special = case
    target, options = _setup(special, target)
    found = codes(report_of({path: firing}, target, options))
    assert code in found, f"{code} did not fire on:\n{firing}\nfound {sorted(found)}"


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_rule_stays_quiet(case):
    code, path, _, clean, target, special = case
    options = None
    if special == "rocm=5.3":
        target = Target(rocm="5.3")
    elif special == "cuda=12.8":
        target = Target(cuda="12.8")
    elif special == "removed":
        target, options = _setup(special, target)
    found = codes(report_of({path: clean}, target, options))
    assert code not in found, f"{code} fired on:\n{clean}"
