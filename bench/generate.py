"""A deterministic synthetic CUDA codebase for the benchmark.

    python bench/generate.py OUT_DIR [--scale 1] [--seed 1] [--files N]

At scale 1 it writes about 2,000 files and 400k lines under OUT_DIR: .cu kernels with
shared memory and <<<>>> launches, .cuh/.h headers with error-check macros and device
helpers, .cpp host code with streams, events and async copies, library calls (cuBLAS,
cuRAND, cuFFT, cuSPARSE), comments and #if branches, and about 30% plain C++ files with no
CUDA in them at all, plus one CMakeLists.txt per module and a copy of tests/corpus (when the
checkout has one) under `tests_corpus/`. The same seed and scale always give the same bytes.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

FILES_AT_SCALE_1 = 2000
FILES_PER_MODULE = 40
REPO = Path(__file__).resolve().parent.parent

# Share of each kind of file (they sum to 1); "plain" files hold no CUDA at all.
KINDS = (
    ("kernel_cu", 0.34),
    ("header_cuh", 0.10),
    ("host_cpp", 0.16),
    ("header_h", 0.10),
    ("plain_cpp", 0.20),
    ("plain_h", 0.10),
)

WORDS = (
    "grid",
    "block",
    "tile",
    "frame",
    "batch",
    "layer",
    "mesh",
    "field",
    "particle",
    "voxel",
    "sample",
    "signal",
    "matrix",
    "vector",
    "image",
    "stencil",
    "reduce",
    "scan",
    "sort",
    "hist",
    "lattice",
    "kernel",
    "solver",
    "buffer",
    "chunk",
    "wave",
    "flux",
    "cell",
    "node",
    "edge",
    "graph",
    "pixel",
    "band",
    "ray",
    "photon",
    "spin",
)
TYPES = ("float", "double", "int", "unsigned int", "float2", "float4", "int2", "half")
CTYPES = ("float", "double", "int", "std::size_t", "std::int64_t", "bool", "unsigned")

RUNTIME_CALLS = (
    "CUDA_CHECK(cudaMalloc(&{p}, {n} * sizeof({t})));",
    "CUDA_CHECK(cudaMemcpyAsync({p}, {h}, {n} * sizeof({t}), cudaMemcpyHostToDevice, {s}));",
    "CUDA_CHECK(cudaMemcpyAsync({h}, {p}, {n} * sizeof({t}), cudaMemcpyDeviceToHost, {s}));",
    "CUDA_CHECK(cudaMemsetAsync({p}, 0, {n} * sizeof({t}), {s}));",
    "CUDA_CHECK(cudaStreamSynchronize({s}));",
    "CUDA_CHECK(cudaEventRecord(start, {s}));",
    "CUDA_CHECK(cudaEventRecord(stop, {s}));",
    "CUDA_CHECK(cudaEventSynchronize(stop));",
    "CUDA_CHECK(cudaEventElapsedTime(&elapsedMs, start, stop));",
    "CUDA_CHECK(cudaGetLastError());",
    "CUDA_CHECK(cudaDeviceSynchronize());",
    "CUDA_CHECK(cudaFree({p}));",
    "CUDA_CHECK(cudaMallocHost(&{h}, {n} * sizeof({t})));",
    "CUDA_CHECK(cudaFreeHost({h}));",
    "CUDA_CHECK(cudaStreamWaitEvent({s}, stop, 0));",
    "CUDA_CHECK(cudaMemPrefetchAsync({p}, {n} * sizeof({t}), device, {s}));",
    "CUDA_CHECK(cudaFuncSetCacheConfig({k}, cudaFuncCachePreferShared));",
    "CUDA_CHECK(cudaMemcpyToSymbol(c_params, &params, sizeof(params)));",
    "CUDA_CHECK(cudaGetDeviceProperties(&prop, device));",
    "CUDA_CHECK(cudaSetDevice(device));",
    "CUDA_CHECK(cudaMallocManaged(&{p}, {n} * sizeof({t})));",
    "CUDA_CHECK(cudaHostRegister({h}, {n} * sizeof({t}), cudaHostRegisterDefault));",
)
LIBRARY_CALLS = (
    "CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, {p}, m, "
    "{q}, k, &beta, {r}, m));",
    "CUBLAS_CHECK(cublasSaxpy(handle, {n}, &alpha, {p}, 1, {q}, 1));",
    "CUBLAS_CHECK(cublasSetStream(handle, {s}));",
    "CUBLAS_CHECK(cublasDgemv(handle, CUBLAS_OP_T, m, n, &one, A, lda, x, 1, &zero, y, 1));",
    "CUBLAS_CHECK(cublasSnrm2(handle, {n}, {p}, 1, &norm));",
    "CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));",
    "CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL + seed));",
    "CURAND_CHECK(curandGenerateUniform(gen, {p}, {n}));",
    "CURAND_CHECK(curandGenerateNormal(gen, {p}, {n}, 0.0f, 1.0f));",
    "CURAND_CHECK(curandDestroyGenerator(gen));",
    "CUFFT_CHECK(cufftPlan1d(&plan, {n}, CUFFT_C2C, batch));",
    "CUFFT_CHECK(cufftExecC2C(plan, (cufftComplex *){p}, (cufftComplex *){q}, CUFFT_FORWARD));",
    "CUFFT_CHECK(cufftSetStream(plan, {s}));",
    "CUFFT_CHECK(cufftDestroy(plan));",
    "CUSPARSE_CHECK(cusparseCreateCsr(&matA, rows, cols, nnz, rowPtr, colInd, vals, "
    "CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));",
    "CUSPARSE_CHECK(cusparseCreateDnVec(&vecX, cols, {p}, CUDA_R_32F));",
    "CUSPARSE_CHECK(cusparseSpMV(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, "
    "vecX, &beta, vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, workspace));",
    "CUSPARSE_CHECK(cusparseDestroySpMat(matA));",
)
COMMENTS = (
    "// The {w} pass runs once per {v}; keep it cheap, it is on the critical path.",
    "// NOTE: {w} sizes are rounded up to a multiple of the warp size here.",
    "// TODO({v}): fuse this with the {w} step once the layout settles.",
    "// Each thread handles one {w}; out-of-range threads return early.",
    "// Bounds are inclusive on the left and exclusive on the right, as elsewhere.",
    "// {w} and {v} alias only when the caller passes the same buffer twice.",
    "// cudaMemcpy would do here too, but the async copy overlaps with the {w} kernel.",
)
PLAIN_COMMENTS = (
    "// Parse the {w} section of the configuration; unknown keys are ignored.",
    "// {v} entries are kept sorted so that lookups can use binary search.",
    "// This is deliberately simple: profiling showed {w} is never the bottleneck.",
    "// Returns false when the {w} could not be read; the caller logs the reason.",
)


@dataclass
class Namer:
    rng: random.Random
    module: int

    def word(self) -> str:
        return self.rng.choice(WORDS)

    def ident(self, prefix: str = "") -> str:
        a, b = self.word(), self.word().capitalize()
        return f"{prefix}{a}{b}{self.rng.randrange(100)}"

    def func(self) -> str:
        verb = self.rng.choice(
            (
                "compute",
                "update",
                "apply",
                "gather",
                "scatter",
                "pack",
                "unpack",
                "resolve",
                "blend",
                "normalize",
                "project",
            )
        )
        return f"{verb}{self.word().capitalize()}{self.word().capitalize()}"


def _comment(rng: random.Random, namer: Namer, plain: bool) -> str:
    pool = PLAIN_COMMENTS if plain else COMMENTS
    return rng.choice(pool).format(w=namer.word(), v=namer.word())


def _block_comment(rng: random.Random, namer: Namer, lines: int) -> list[str]:
    out = ["/*"]
    for _ in range(lines):
        out.append(
            f" * {namer.word().capitalize()} {namer.word()} handling: the "
            f"{namer.word()} is split into {rng.choice((2, 4, 8, 16))} parts and each "
            f"part is processed independently."
        )
    out.append(" */")
    return out


def _arith(rng: random.Random, a: str, b: str) -> str:
    ops = (
        f"{a} = {a} * 0.5f + {b};",
        f"{a} += {b} * {rng.randrange(2, 9)}.0f;",
        f"{a} = fmaxf({a}, {b});",
        f"{a} = ({a} - {b}) * scale;",
        f"{a} = {a} > {b} ? {a} - {b} : {b} - {a};",
    )
    return rng.choice(ops)


def kernel(rng: random.Random, namer: Namer) -> tuple[str, list[str]]:
    name = namer.func() + "Kernel"
    t = rng.choice(TYPES[:3])
    tile = rng.choice((16, 32, 64, 128, 256))
    lines = [
        f"__global__ void {name}(const {t} *__restrict__ in, {t} *__restrict__ out, "
        f"int n, float scale)",
        "{",
    ]
    lines.append(f"    __shared__ {t} tile[{tile}];")
    lines.append("    const int i = blockIdx.x * blockDim.x + threadIdx.x;")
    lines.append("    const int lane = threadIdx.x % warpSize;")
    lines.append(f"    tile[threadIdx.x % {tile}] = i < n ? in[i] : {t}(0);")
    lines.append("    __syncthreads();")
    lines.append("    if (i >= n) {")
    lines.append("        return;")
    lines.append("    }")
    lines.append(f"    {t} acc = tile[threadIdx.x % {tile}];")
    for _ in range(rng.randrange(4, 18)):
        r = rng.random()
        if r < 0.2:
            lines.append(f"    for (int k = 0; k < {rng.choice((4, 8, 16))}; ++k) {{")
            lines.append(f"        acc += tile[(threadIdx.x + k) % {tile}] * scale;")
            lines.append("    }")
        elif r < 0.3:
            lines.append("    acc += __shfl_down_sync(0xffffffff, acc, 16);")
        elif r < 0.4:
            lines.append("    " + _comment(rng, namer, False))
        elif r < 0.5:
            lines.append(f"    atomicAdd(&out[lane], acc * {rng.randrange(1, 5)}.0f);")
        else:
            lines.append("    " + _arith(rng, "acc", f"tile[lane % {tile}]"))
    lines.append("    __syncthreads();")
    lines.append("    out[i] = acc;")
    lines.append("}")
    return name, lines


def device_helper(rng: random.Random, namer: Namer) -> list[str]:
    name = namer.func()
    lines = [f"__device__ __forceinline__ float {name}(float a, float b)", "{"]
    for _ in range(rng.randrange(2, 7)):
        lines.append("    " + _arith(rng, "a", "b"))
    lines += ["    return a;", "}"]
    return lines


def host_function(rng: random.Random, namer: Namer, kernels: list[str], libs: bool) -> list[str]:
    name = namer.func()
    t = rng.choice(("float", "double"))
    lines = [f"void {name}(const {t} *hostIn, {t} *hostOut, int n, cudaStream_t stream)", "{"]
    lines += [
        f"    {t} *devIn = nullptr;",
        f"    {t} *devOut = nullptr;",
        f"    {t} *pinned = nullptr;",
        "    cudaEvent_t start, stop;",
        "    float elapsedMs = 0.0f;",
        "    int device = 0;",
        "    cudaDeviceProp prop;",
        "    CUDA_CHECK(cudaEventCreate(&start));",
        "    CUDA_CHECK(cudaEventCreate(&stop));",
    ]
    for _ in range(rng.randrange(6, 26)):
        r = rng.random()
        if r < 0.45:
            call = rng.choice(RUNTIME_CALLS)
            lines.append(
                "    "
                + call.format(
                    p=rng.choice(("devIn", "devOut")),
                    h="pinned",
                    n="n",
                    t=t,
                    s="stream",
                    k=rng.choice(kernels) if kernels else "nullptr",
                )
            )
        elif r < 0.6 and kernels:
            blocks = rng.choice(("(n + 255) / 256", "grid", "dim3(gx, gy)"))
            threads = rng.choice(("256", "block", "dim3(16, 16)"))
            shared = rng.choice(("", ", 0, stream", ", sharedBytes, stream"))
            lines.append(
                f"    {rng.choice(kernels)}<<<{blocks}, {threads}{shared}>>>("
                "devIn, devOut, n, 1.0f);"
            )
            lines.append("    CUDA_CHECK(cudaGetLastError());")
        elif r < 0.72 and libs:
            call = rng.choice(LIBRARY_CALLS)
            lines.append("    " + call.format(p="devIn", q="devOut", r="devOut", n="n", s="stream"))
        elif r < 0.8:
            lines.append("    " + _comment(rng, namer, False))
        elif r < 0.88:
            lines += [
                "#if CUDART_VERSION >= 11020",
                "    CUDA_CHECK(cudaMallocAsync(&devIn, n * sizeof(*devIn), stream));",
                "#else",
                "    CUDA_CHECK(cudaMalloc(&devIn, n * sizeof(*devIn)));",
                "#endif",
            ]
        else:
            lines += [
                f"    for (int i = 0; i < n; i += {rng.choice((64, 128, 1024))}) {{",
                "        hostOut[i] = hostIn[i] * 2;",
                "    }",
            ]
    lines += [
        "    CUDA_CHECK(cudaEventDestroy(start));",
        "    CUDA_CHECK(cudaEventDestroy(stop));",
        "}",
    ]
    return lines


def plain_function(rng: random.Random, namer: Namer) -> list[str]:
    name = namer.func()
    ret = rng.choice(CTYPES)
    arg = rng.choice(CTYPES)
    lines = [f"{ret} {name}(const std::vector<{arg}> &values, std::size_t limit)", "{"]
    lines.append(f"    {ret} total{{}};")
    for _ in range(rng.randrange(4, 24)):
        r = rng.random()
        if r < 0.3:
            lines += [
                "    for (std::size_t i = 0; i < values.size() && i < limit; ++i) {",
                f"        total += static_cast<{ret}>(values[i]) * {rng.randrange(2, 9)};",
                "    }",
            ]
        elif r < 0.45:
            lines.append("    " + _comment(rng, namer, True))
        elif r < 0.6:
            lines += [
                "    if (values.empty()) {",
                f'        throw std::runtime_error("{name}: no {namer.word()} values");',
                "    }",
            ]
        elif r < 0.75:
            lines.append(
                f"    auto {namer.ident('tmp')} = std::accumulate(values.begin(), "
                f"values.end(), {arg}{{}});"
            )
        else:
            lines.append(f"    total = std::max(total, static_cast<{ret}>(limit));")
    lines += ["    return total;", "}"]
    return lines


def _header_lines(rng: random.Random, namer: Namer, path: str, cuda: bool) -> list[str]:
    lines = [
        f"// {path} - part of the synthetic hipport benchmark corpus.",
        f"// Module {namer.module}: {namer.word()} and {namer.word()} processing.",
    ]
    lines += _block_comment(rng, namer, rng.randrange(1, 5))
    return lines


CHECK_MACROS = [
    "#define CUDA_CHECK(call)                                                      \\",
    "    do {                                                                      \\",
    "        cudaError_t err_ = (call);                                            \\",
    "        if (err_ != cudaSuccess) {                                            \\",
    '            std::fprintf(stderr, "%s:%d: %s\\n", __FILE__, __LINE__,          \\',
    "                         cudaGetErrorString(err_));                           \\",
    "            std::exit(EXIT_FAILURE);                                          \\",
    "        }                                                                     \\",
    "    } while (0)",
    "#define CUBLAS_CHECK(call) do { if ((call) != CUBLAS_STATUS_SUCCESS) std::abort(); }"
    " while (0)",
    "#define CURAND_CHECK(call) do { if ((call) != CURAND_STATUS_SUCCESS) std::abort(); }"
    " while (0)",
    "#define CUFFT_CHECK(call) do { if ((call) != CUFFT_SUCCESS) std::abort(); } while (0)",
    "#define CUSPARSE_CHECK(call) \\",
    "    do { if ((call) != CUSPARSE_STATUS_SUCCESS) std::abort(); } while (0)",
]


def cuda_file(rng: random.Random, namer: Namer, path: str, kind: str) -> list[str]:
    lines = _header_lines(rng, namer, path, True)
    header = kind in ("header_cuh", "header_h")
    if header:
        lines.append("#pragma once")
    lines += ["#include <cstdio>", "#include <cstdlib>", "#include <cuda_runtime.h>"]
    libs = rng.random() < 0.5
    if libs:
        lines += rng.sample(
            [
                "#include <cublas_v2.h>",
                "#include <curand.h>",
                "#include <cufft.h>",
                "#include <cusparse.h>",
            ],
            2,
        )
    lines.append(f'#include "module{namer.module}/common.cuh"')
    lines.append("")
    if header and rng.random() < 0.5:
        lines += CHECK_MACROS + [""]
    guard = f"{namer.word().upper()}_BLOCK"
    lines += [f"#ifndef {guard}", f"#define {guard} 256", "#endif", ""]
    if kind in ("kernel_cu", "header_cuh"):
        lines += [f"__constant__ float c_{namer.ident()}[{rng.choice((16, 64, 256))}];", ""]
    kernels: list[str] = []
    target_lines = rng.randrange(80, 420) if not header else rng.randrange(40, 200)
    while len(lines) < target_lines:
        r = rng.random()
        if kind in ("kernel_cu", "header_cuh") and r < 0.45:
            name, body = kernel(rng, namer)
            kernels.append(name)
            lines += body
        elif kind in ("kernel_cu", "header_cuh") and r < 0.6:
            lines += device_helper(rng, namer)
        elif r < 0.7 and not header or r < 0.3:
            lines += host_function(rng, namer, kernels, libs)
        elif r < 0.8:
            lines += [
                "#if defined(USE_DOUBLE_PRECISION)",
                f"typedef double {namer.ident('real')}_t;",
                "#else",
                f"typedef float {namer.ident('real')}_t;",
                "#endif",
            ]
        else:
            lines += plain_function(rng, namer)
        lines.append("")
    return lines


def plain_file(rng: random.Random, namer: Namer, path: str, kind: str) -> list[str]:
    lines = [
        f"// {path} - host-only helpers (plain C++, no GPU code).",
        f"// Module {namer.module}: configuration and {namer.word()} bookkeeping.",
    ]
    header = kind == "plain_h"
    if header:
        lines.append("#pragma once")
    lines += [
        "#include <algorithm>",
        "#include <numeric>",
        "#include <stdexcept>",
        "#include <string>",
        "#include <vector>",
        "",
        f"namespace module{namer.module} {{",
        "",
    ]
    target_lines = rng.randrange(60, 360) if not header else rng.randrange(30, 160)
    while len(lines) < target_lines:
        if rng.random() < 0.15:
            lines += [
                f"struct {namer.word().capitalize()}{namer.word().capitalize()}Options {{",
                f'    std::string name = "{namer.word()}";',
                f"    int count = {rng.randrange(1, 100)};",
                "    bool verbose = false;",
                "};",
            ]
        else:
            lines += plain_function(rng, namer)
        lines.append("")
    lines.append(f"}}  // namespace module{namer.module}")
    return lines


SUFFIX = {
    "kernel_cu": ".cu",
    "header_cuh": ".cuh",
    "host_cpp": ".cpp",
    "header_h": ".h",
    "plain_cpp": ".cpp",
    "plain_h": ".h",
}


def _kinds(rng: random.Random, count: int) -> list[str]:
    """Exactly the KINDS shares of `count`, shuffled deterministically."""
    out: list[str] = []
    for kind, share in KINDS:
        out += [kind] * round(count * share)
    while len(out) < count:
        out.append("kernel_cu")
    out = out[:count]
    rng.shuffle(out)
    return out


def generate(
    out: Path, scale: float = 1.0, seed: int = 1, files: int | None = None, with_corpus: bool = True
) -> dict[str, int]:
    """Write the corpus under `out` (created; must be empty or absent). Returns counts."""
    count = files if files is not None else max(10, round(FILES_AT_SCALE_1 * scale))
    rng = random.Random(f"hipport-bench:{seed}:{count}")
    out.mkdir(parents=True, exist_ok=True)
    stats = {"files": 0, "lines": 0, "bytes": 0, "plain_files": 0}
    modules = max(1, (count + FILES_PER_MODULE - 1) // FILES_PER_MODULE)
    for m in range(modules):
        mod = out / f"module{m}"
        mod.mkdir(exist_ok=True)
        (mod / "common.cuh").write_text(
            "#pragma once\n#include <cuda_runtime.h>\n" + "\n".join(CHECK_MACROS) + "\n"
        )
        cmake = (
            f"add_library(module{m} STATIC\n"
            + "".join(f"    part{i}.cu\n" for i in range(3))
            + ")\n"
            f'set_target_properties(module{m} PROPERTIES CUDA_ARCHITECTURES "70;80")\n'
            f"target_link_libraries(module{m} PRIVATE CUDA::cudart CUDA::cublas)\n"
        )
        (mod / "CMakeLists.txt").write_text(cmake)
    for i, kind in enumerate(_kinds(rng, count)):
        m = i % modules
        namer = Namer(rng, m)
        rel = f"module{m}/{namer.word()}_{i}{SUFFIX[kind]}"
        if kind.startswith("plain"):
            lines = plain_file(rng, namer, rel, kind)
            stats["plain_files"] += 1
        else:
            lines = cuda_file(rng, namer, rel, kind)
        data = ("\n".join(lines) + "\n").encode()
        (out / rel).write_bytes(data)
        stats["files"] += 1
        stats["lines"] += len(lines)
        stats["bytes"] += len(data)
    if with_corpus and (REPO / "tests" / "corpus").is_dir():
        shutil.copytree(REPO / "tests" / "corpus", out / "tests_corpus", dirs_exist_ok=True)
        for p in (out / "tests_corpus").iterdir():
            if p.is_file():
                stats["files"] += 1
                stats["lines"] += p.read_bytes().count(b"\n")
                stats["bytes"] += p.stat().st_size
    stats["files"] += 2 * modules  # common.cuh and CMakeLists.txt per module
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="1 = about 2,000 files and 400k lines; 0.05 for CI"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--files", type=int, default=None, help="exact number of files")
    parser.add_argument("--no-tests-corpus", action="store_true")
    args = parser.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out} is not empty")
    stats = generate(args.out, args.scale, args.seed, args.files, not args.no_tests_corpus)
    print(
        f"{args.out}: {stats['files']} files, {stats['lines']} lines, "
        f"{stats['bytes'] / 1e6:.1f} MB, {stats['plain_files']} plain C++"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
