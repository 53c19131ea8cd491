"""`hipport shim`: the generated layer, run through the real CLI and compiled unchanged with
Debian's HIP 5.2 (and, as CUDA, with nvcc where the toolkit has the headers)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tools.consistency import FALSE_ALARM, MISSED, reviewed

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
EXAMPLE = ROOT / "examples" / "saxpy_project"
HIPCC = shutil.which("hipcc")
NVCC = shutil.which("nvcc")
needs_hipcc = pytest.mark.skipif(
    HIPCC is None and not os.environ.get("CI"), reason="hipcc is not installed"
)

# Corpus programs whose HIP build fails for a reason outside hipport's reach: Debian's
# HIP 5.2 ships no hipBLAS and no hipFFT (tests/setup-system.sh installs what it has).
DEBIAN_LACKS = {
    "cublas_gemm.cu": "hipblas/hipblas.h",
    "cublas_saxpy.cu": "hipblas/hipblas.h",
    "cufft_c2c.cu": "hipfft/hipfft.h",
}
# Reviewed: `check` reports an error the HIP build never meets, since it sits in a branch
# HIP does not compile, so the shim build rightly succeeds: memory_unified.cu's is under
# `#if CUDA_VERSION >= 13000`; the other two include error_string_compat.cuh, whose
# cuGetErrorName call is under `#ifdef __cuda_cuda_h__` (cuda.h's guard, never set under HIP).
ERROR_IN_DEAD_BRANCH = {"memory_unified.cu", "error_checking.cu", "multi_gpu_peer.cu"}
# Errors about the CUDA side, not HIP's: HIP014 says the CUDA 13 signature of
# cudaGraphCreate / cudaGraphAddDependencies is not HIP's, but this program is written for the
# older one (no --cuda given), which HIP has: it compiles through the shim.
CUDA_SIDE_ERRORS = {"graph_explicit.cu"}


_CACHE = tempfile.mkdtemp(prefix="hipport-shim-tests-")  # never inside the checkout


def hipport(*args: object, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HIPPORT_CACHE_DIR=_CACHE)
    return subprocess.run(
        [sys.executable, "-m", "hipport", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=600,
    )


def compile_hip(source: Path, shim: Path, *include: Path) -> subprocess.CompletedProcess[str]:
    cmd = ["hipcc", "-x", "hip", "--offload-arch=gfx90a", "-fsyntax-only", "-nogpulib"]
    cmd += ["-Wno-unused-command-line-argument", "-std=c++17", f"-I{shim}"]
    cmd += [f"-I{d}" for d in include] + [str(source)]
    env = dict(os.environ, HIP_PLATFORM="amd")  # hipcc picks nvcc when CUDA is installed
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)


def tree_bytes(directory: Path) -> dict[str, bytes]:
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def error_files(paths: list[Path], tmp: Path) -> set[str]:
    """Files in which `hipport check --rocm 5.2` reports an error (from its JSON report)."""
    out = tmp / "check.json"
    hipport("check", *paths, "--rocm", "5.2", "--format", "json", "-o", out, "--fail-on", "never")
    report = json.loads(out.read_text())
    return {
        Path(f["location"]["path"]).name for f in report["findings"] if f["severity"] == "error"
    }


def local_includes(source: Path) -> set[str]:
    """The quoted includes of a source, transitively (its project headers)."""
    seen: set[str] = set()
    todo = [source]
    while todo:
        text = todo.pop().read_text(encoding="utf-8", errors="replace")
        for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
            path = source.parent / name
            if name not in seen and path.is_file():
                seen.add(name)
                todo.append(path)
    return seen


# --------------------------------------------------------------------------- generation


@pytest.mark.slow
def test_shim_is_deterministic_and_check_detects_staleness(tmp_path: Path) -> None:
    project = tmp_path / "p"
    shutil.copytree(EXAMPLE, project)
    a, b = tmp_path / "a", tmp_path / "b"
    assert hipport("shim", project, "-o", a, "--rocm", "5.2").returncode in (0, 1)
    assert hipport("shim", project, "-o", b, "--rocm", "5.2").returncode in (0, 1)
    assert tree_bytes(a) == tree_bytes(b)
    assert "hipport_shim.h" in tree_bytes(a) and "cuda_runtime.h" in tree_bytes(a)

    current = hipport("shim", "--check", a, project, "--rocm", "5.2")
    assert current.returncode == 0, current.stderr
    # another target is another shim
    assert hipport("shim", "--check", a, project, "--rocm", "6.2").returncode == 1
    # a hand edit is stale
    header = a / "hipport_shim.h"
    header.write_bytes(header.read_bytes() + b"/* edited */\n")
    stale = hipport("shim", "--check", a, project, "--rocm", "5.2")
    assert stale.returncode == 1 and "hipport_shim.h" in stale.stderr
    # so is a shim that misses an API the sources started to use
    shutil.copytree(b, a, dirs_exist_ok=True)
    assert hipport("shim", "--check", a, project, "--rocm", "5.2").returncode == 0
    (project / "src" / "extra.cu").write_text(
        "#include <cuda_runtime.h>\nvoid f(cudaStream_t s){ cudaStreamQuery(s); }\n"
    )
    assert hipport("shim", "--check", a, project, "--rocm", "5.2").returncode == 1


@pytest.mark.slow
def test_a_shim_inside_the_scanned_tree_is_not_read_as_the_project(tmp_path: Path) -> None:
    """`hipport shim . -o hip-shim` run again (issue 28): the shim's own cuda_runtime.h is
    not a project header that shadows CUDA's (the second run dropped it, --check failed)."""
    project = tmp_path / "p"
    shutil.copytree(EXAMPLE, project)
    outside = tmp_path / "outside"
    assert hipport("shim", project, "-o", outside, "--rocm", "5.2").returncode in (0, 1)
    inside = project / "hip-shim"
    for _ in range(2):
        assert hipport("shim", project, "-o", inside, "--rocm", "5.2").returncode in (0, 1)
        assert tree_bytes(inside) == tree_bytes(outside)
    current = hipport("shim", "--check", inside, project, "--rocm", "5.2")
    assert current.returncode == 0, current.stderr


@pytest.mark.slow
def test_names_are_exactly_the_projects(tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text(
        "#include <cuda_runtime.h>\n"
        "int main(){ float *p; cudaMalloc(&p, 4); cudaFree(p); return 0; }\n"
    )
    proc = hipport("shim", tmp_path / "a.cu", "-o", tmp_path / "s", "--rocm", "5.2")
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "s" / "hipport_shim.h").read_text()
    defined = set(re.findall(r"^#define (\w+)", text, re.M))
    assert defined == {"cudaMalloc", "cudaFree"}, text


@pytest.mark.slow
def test_shim_exits_1_on_errors_a_header_cannot_fix(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_text(
        "__global__ void child(){}\n__global__ void parent(){ child<<<1, 1>>>(); }\n"
    )
    proc = hipport("shim", tmp_path, "-o", tmp_path / "s", "--rocm", "5.2", "--report")
    assert proc.returncode == 1, proc.stderr
    assert "HIP110" in proc.stdout or "HIP110" in proc.stderr


@pytest.mark.slow
def test_usage_needs_exactly_one_output(tmp_path: Path) -> None:
    assert hipport("shim", EXAMPLE).returncode == 2
    assert hipport("shim", EXAMPLE, "-o", tmp_path / "a", "--check", tmp_path / "b").returncode == 2


@pytest.mark.slow
def test_cmake_module_is_written(tmp_path: Path) -> None:
    proc = hipport("shim", EXAMPLE, "-o", tmp_path / "s", "--cmake", "--rocm", "5.2")
    assert proc.returncode in (0, 1), proc.stderr
    text = (tmp_path / "s" / "hipport-shim.cmake").read_text()
    assert "function(hipport_shim_target target)" in text and "LANGUAGE HIP" in text


# --------------------------------------------------------------------------- real compiles


@pytest.mark.hipcc
@needs_hipcc
def test_example_compiles_unchanged_except_the_api_hip_5_2_lacks(tmp_path: Path) -> None:
    shim = tmp_path / "shim"
    hipport("shim", EXAMPLE, "-o", shim, "--rocm", "5.2")
    src = EXAMPLE / "src"
    for name in ("main.cu", "random.cu"):
        proc = compile_hip(src / name, shim, src)
        assert proc.returncode == 0, proc.stderr
    # reduce.cu uses __shfl_down_sync, which HIP has only from ROCm 6.2: the error is the
    # shim's own, at the point of use, naming the API, the release and the rule
    proc = compile_hip(src / "reduce.cu", shim, src)
    assert proc.returncode != 0
    first = next(line for line in proc.stderr.splitlines() if "error:" in line)
    assert "reduce.cu" in first and "__shfl_down_sync" in first, proc.stderr
    assert "ROCm 6.2" in first and "HIP002" in first, first


@pytest.mark.hipcc
@needs_hipcc
def test_missing_api_fails_only_where_used(tmp_path: Path) -> None:
    (tmp_path / "uses.cu").write_text(
        "#include <cuda.h>\nvoid f(CUresult r){ const char *s; cuGetErrorName(r, &s); }\n"
    )
    (tmp_path / "plain.cu").write_text(
        "#include <cuda.h>\n#include <cuda_runtime.h>\nvoid g(){ cudaDeviceSynchronize(); }\n"
    )
    shim = tmp_path / "shim"
    assert hipport("shim", tmp_path, "-o", shim, "--rocm", "5.2").returncode == 1
    assert compile_hip(tmp_path / "plain.cu", shim).returncode == 0
    proc = compile_hip(tmp_path / "uses.cu", shim)
    assert proc.returncode != 0
    assert re.search(r"uses\.cu:2:\d+: error: hipport: cuGetErrorName .*5\.4", proc.stderr), (
        proc.stderr
    )


@pytest.mark.hipcc
@needs_hipcc
@pytest.mark.slow
def test_corpus_compiles_through_the_shim_where_check_finds_no_error(tmp_path: Path) -> None:
    """Every corpus program: the shim build succeeds exactly when `check` finds no error in
    it or in the project headers it includes (disagreements: the reviewed lists above)."""
    shim = tmp_path / "shim"
    hipport("shim", CORPUS, "-o", shim, "--rocm", "5.2")
    errors = error_files([CORPUS], tmp_path)
    programs = sorted(CORPUS.glob("*.cu"))
    with ThreadPoolExecutor(2) as pool:
        procs = pool.map(lambda p: compile_hip(p, shim, CORPUS), programs)
        results = dict(zip(programs, procs, strict=True))
    wrong = []
    compiled = 0
    for program, proc in results.items():
        compiled += proc.returncode == 0
        if program.name in DEBIAN_LACKS:
            assert DEBIAN_LACKS[program.name] in proc.stderr, proc.stderr
            continue
        expect_ok = not ({program.name} | local_includes(program)) & errors
        if program.name in ERROR_IN_DEAD_BRANCH | CUDA_SIDE_ERRORS:
            expect_ok = True
        if (proc.returncode == 0) != expect_ok:
            wrong.append(f"{program.name}: compiled={proc.returncode == 0}\n{proc.stderr[-800:]}")
    print(f"shim: {compiled} of {len(programs)} corpus programs compile with HIP 5.2")
    assert not wrong, "\n".join(wrong)
    assert compiled >= 24


@pytest.mark.nvcc
@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
def test_as_cuda_the_shim_changes_nothing(tmp_path: Path) -> None:
    """Compiled as CUDA, every forwarding header is the real CUDA header: nvcc's
    preprocessed output is the same with and without the shim on the include path."""
    shim = tmp_path / "shim"
    hipport("shim", CORPUS, "-o", shim, "--rocm", "5.2")
    for name in ("memory_plain.cu", "events_timing.cu", "texture_object.cu"):
        source = CORPUS / name
        plain = _nvcc_e(source, [])
        shimmed = _nvcc_e(source, [shim])
        assert plain == shimmed, name


def _nvcc_e(source: Path, include: list[Path]) -> str:
    cmd = ["nvcc", "-E", "-x", "cu", *[f"-I{d}" for d in include], f"-I{source.parent}"]
    proc = subprocess.run([*cmd, str(source)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    # line markers name the files read, and the shim's comments leave blank lines: neither
    # is code
    lines = proc.stdout.splitlines()
    return "\n".join(line for line in lines if line.strip() and not line.startswith("#"))


SHIM_PROJECT = ROOT / "examples" / "shim_project"


@pytest.mark.hipcc
@needs_hipcc
def test_shim_example_builds_as_hip_through_the_shim(tmp_path: Path) -> None:
    shim = tmp_path / "shim"
    proc = hipport("shim", SHIM_PROJECT / "src", "-o", shim, "--cmake", "--rocm", "5.2")
    assert proc.returncode == 0, proc.stderr
    build = compile_hip(SHIM_PROJECT / "src" / "saxpy.cu", shim)
    assert build.returncode == 0, build.stderr


@pytest.mark.nvcc  # through cmake, which the marker guard does not see into
@pytest.mark.skipif(NVCC is None or shutil.which("cmake") is None, reason="needs nvcc and cmake")
def test_shim_example_builds_as_cuda_with_cmake(tmp_path: Path) -> None:
    """The same CMakeLists.txt, without a shim directory, is a plain CUDA build."""
    build = tmp_path / "build"
    configure = subprocess.run(
        ["cmake", "-S", SHIM_PROJECT, "-B", build, "-DCMAKE_CUDA_ARCHITECTURES=80"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert configure.returncode == 0, configure.stdout + configure.stderr
    made = subprocess.run(["cmake", "--build", build], capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stdout + made.stderr
    assert (build / "saxpy").is_file()


# The gate's corpus through the shim (tests/consistency, one shim per program: a program and
# the corpus headers it includes are a project of their own, as the gate translates them).
# Reviewed for the shim only, per release: program -> the disagreement and why. Each one is
# a program translate makes compile and the shim does not, where a header cannot do what
# translate does; the test fails when one goes away, so the list stays true.
_OPERATORS = (
    "HIP114: the program defines vector operators HIP's vector types already define; "
    "translate guards the program's definitions, a header cannot edit them (and cannot "
    "remove HIP's)"
)
_COLLAPSE = (
    "issue 27 item 2: helper_errors.h overloads _cudaGetErrorEnum on cudaError_t and CUresult, "
    "one type (hipError_t) under HIP; translate guards the second definition, a header cannot"
)
_WIDENED = (
    "HIP024 is translate's error: a computed 32-bit mask fails the 64-bit static_assert of "
    "HIP 6.3's warp functions; the shim's warp wrappers widen it to the lanes it names, so "
    "the shim build compiles (check's error still asks for a 64-bit mask)"
)
_FIELD = (
    "HIP031: translate renames the struct field requestedHandleTypes to HIP's "
    "requestedHandleType; the shim has no macro for field names yet (a macro would rename the "
    "word everywhere)"
)
SHIM_ONLY: dict[str, dict[str, tuple[str | None, str]]] = {
    "5.2": {
        # the gate's false alarm (DISAGREEMENTS.tsv) is a real failure through the shim
        "helper_check_curand.cu": (None, _COLLAPSE),
        "helper_check_cusparse.cu": (None, _COLLAPSE),
        "vecmath_nbody_step.cu": (None, _OPERATORS + " (helper_vecmath.h's float3 +=)"),
        "vector_math_compound.cu": (MISSED, _OPERATORS),
        "vmm_export_handle.cu": (MISSED, _FIELD),
    },
    "6.3": {
        "vmm_export_handle.cu": (MISSED, _FIELD),
        "helper_check_curand.cu": (MISSED, _COLLAPSE),
        "helper_check_cusparse.cu": (MISSED, _COLLAPSE),
        "vecmath_grid_coords.cu": (MISSED, _OPERATORS + " (6.3 defines uint3 * uint3)"),
        "vecmath_nbody_step.cu": (MISSED, _OPERATORS),
        "vector_math_compound.cu": (MISSED, _OPERATORS),
        "ml_partial_mask_shuffle.cu": (FALSE_ALARM, _WIDENED),
        "warp_vote_ballot.cu": (FALSE_ALARM, _WIDENED),
    },
}


def release_compiler(rocm: str) -> tuple[list[str], str, list[Path]]:
    """The compiler, offload target and include directories for a HIP release: Debian's
    hipcc for 5.2, clang-15 with ../shared/hip-6.3 for 6.3 (as tools/consistency.py)."""
    from hipport.verify import find_compiler
    from tools.hip63 import OFFLOAD_ARCH, hip63_compiler

    if rocm == "6.3":
        compiler, arch, include = hip63_compiler(), OFFLOAD_ARCH, []
    else:
        compiler, arch, include = find_compiler(), "gfx90a", [Path("/usr/include")]
    if compiler is None:
        pytest.skip(f"no HIP {rocm} compiler (clang++-15 and ../shared/hip-6.3 for 6.3)")
    return compiler, arch, include


def compile_through(shim: Path, source: Path, rocm: str):
    """`source` compiled unchanged, syntax only, through `shim` with the release's HIP."""
    from hipport.verify import compile_one

    compiler, arch, include = release_compiler(rocm)
    return compile_one(compiler, source, arch, [shim, *include])


def _shim_compiles(rocm: str, tmp: Path) -> tuple[dict[str, bool], dict[str, str], dict[str, str]]:
    """Per program of tests/consistency: whether its translation has an error finding (as
    the gate counts them, its headers' too), and whether it compiles unchanged through the
    shim generated for it and the release (with that release's HIP), with the first error."""
    from importlib.metadata import version

    from hipport.mappings import load_mappings
    from hipport.shim import build_model, render
    from hipport.shim.build import BASE_HEADER
    from hipport.target import Target
    from hipport.verify import compile_one
    from tools.consistency import programs, translate

    compiler, arch, include = release_compiler(rocm)
    target = Target(rocm=rocm)
    mappings = load_mappings()
    errors: dict[str, bool] = {}
    jobs = []
    for program in programs():
        results = translate(program, target)
        errors[program.name] = any(f.severity.value == "error" for r in results for f in r.findings)
        project = frozenset(n for r in results for n in (r.path, Path(r.path).name))
        model = build_model(results, mappings, target, project, always=(BASE_HEADER,))
        shim = tmp / program.stem
        for rel, data in render(model, version("hipport")).items():
            (shim / rel).parent.mkdir(parents=True, exist_ok=True)
            (shim / rel).write_bytes(data)
        jobs.append((program, [shim, *include]))
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda j: compile_one(compiler, j[0], arch, j[1]), jobs))
    compiles = {p.name: c.ok for (p, _), c in zip(jobs, done, strict=True)}
    first = {p.name: c.first_error or "" for (p, _), c in zip(jobs, done, strict=True)}
    return errors, compiles, first


@pytest.mark.hipcc
@needs_hipcc
@pytest.mark.slow
@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
def test_consistency_programs_compile_through_the_shim_where_check_finds_no_error(
    rocm: str, tmp_path: Path
) -> None:
    """The gate's own corpus, built unchanged through the shim: the shim build fails exactly
    where `check` reports an error, except the disagreements reviewed for the translated
    build (DISAGREEMENTS.tsv: the same causes) and the shim-only ones above."""
    errors, compiles, first = _shim_compiles(rocm, tmp_path)
    known = {p: d for p, (d, _) in reviewed(rocm).items()}
    known.update({p: d for p, (d, _) in SHIM_ONLY[rocm].items()})
    wrong = []
    for program, compiled in compiles.items():
        found = MISSED if not compiled and not errors[program] else None
        found = FALSE_ALARM if compiled and errors[program] else found
        if found != known.get(program):
            wrong.append(f"{program}: {found} (listed: {known.get(program)}) {first[program]}")
    print(
        f"shim: {sum(compiles.values())} of {len(compiles)} consistency programs compile "
        f"with HIP {rocm}"
    )
    assert not wrong, "\n".join(wrong)
    assert sum(compiles.values()) >= 10


DEBIAN_CMAKE = Path("/usr/lib/x86_64-linux-gnu/cmake")


@pytest.mark.hipcc  # through cmake, which the marker guard does not see into
@pytest.mark.skipif(
    shutil.which("cmake") is None or not (DEBIAN_CMAKE / "hip-lang").is_dir(),
    reason="needs cmake and Debian's hip-lang CMake package (libamdhip64-dev)",
)
def test_shim_example_builds_as_hip_with_cmake(tmp_path: Path) -> None:
    """CMake's HIP language builds the unchanged .cu through hipport-shim.cmake. Debian
    installs hip-lang under its multiarch directory, where CMake 3.25 does not look for a
    ROCm root, so the test hands CMake a root of links to Debian's files."""
    shim = tmp_path / "shim"
    assert (
        hipport("shim", SHIM_PROJECT / "src", "-o", shim, "--cmake", "--rocm", "5.2").returncode
        == 0
    )
    root = tmp_path / "rocm"
    (root / "lib" / "cmake").mkdir(parents=True)
    (root / "lib" / "cmake" / "hip-lang").symlink_to(DEBIAN_CMAKE / "hip-lang")
    (root / "bin").symlink_to("/usr/bin")
    bitcode = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
    build = tmp_path / "build"
    env = dict(os.environ, CMAKE_PREFIX_PATH=str(DEBIAN_CMAKE))
    configure = subprocess.run(
        [
            "cmake", "-S", SHIM_PROJECT, "-B", build, f"-DHIPPORT_SHIM_DIR={shim}",
            "-DCMAKE_HIP_COMPILER=clang++-15", f"-DCMAKE_HIP_COMPILER_ROCM_ROOT={root}",
            "-DCMAKE_HIP_ARCHITECTURES=gfx90a",
            f"-DCMAKE_HIP_FLAGS=--rocm-path=/usr --rocm-device-lib-path={bitcode}",
        ],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert configure.returncode == 0, configure.stdout + configure.stderr
    made = subprocess.run(
        ["cmake", "--build", build], capture_output=True, text=True, timeout=600, env=env
    )
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Building HIP object" in made.stdout and (build / "saxpy").is_file()


@pytest.mark.slow
def test_headers_rocm_keeps_are_not_shimmed(tmp_path: Path) -> None:
    """rocThrust ships thrust/... under CUDA's paths: the shim must not shadow them (a
    forwarding header there would stand between the source and rocThrust)."""
    (tmp_path / "t.cu").write_text(
        "#include <cuda_runtime.h>\n#include <thrust/device_vector.h>\n"
        "void f(){ thrust::device_vector<int> v(4); cudaDeviceSynchronize(); }\n"
    )
    proc = hipport("shim", tmp_path, "-o", tmp_path / "s", "--rocm", "5.2")
    assert proc.returncode in (0, 1), proc.stderr
    assert (tmp_path / "s" / "cuda_runtime.h").is_file()
    assert not (tmp_path / "s" / "thrust").exists()


# --------------------------------------------------------------------------- alternatives

ALTERNATIVES = ROOT / "mappings" / "alternatives.tsv"
ENGINE_CASES = ROOT / "tests" / "cases" / "engine" / "rename" / "device"  # nvcc-proven inputs


def _alternatives() -> list[dict[str, str]]:
    import csv

    with ALTERNATIVES.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


@pytest.mark.slow
@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
def test_the_shim_provides_every_exact_alternative_and_no_approximate_one(
    rocm: str, tmp_path: Path
) -> None:
    """Issue 26 item 3, from mappings/alternatives.tsv: a project that uses every name the
    table lists gets each exact replacement from the shim where the target has it (a macro,
    or a wrapper where the arguments move) and the shim's error where it does not; an
    approximate one is never written in its place."""
    from hipport.target import Version

    rows = _alternatives()
    body = "".join(f"  (void){row['cuda']};\n" for row in rows)
    (tmp_path / "uses.cu").write_text(f"#include <cuda_runtime.h>\nvoid f() {{\n{body}}}\n")
    shim = tmp_path / "shim"
    proc = hipport("shim", tmp_path / "uses.cu", "-o", shim, "--rocm", rocm)
    assert proc.returncode in (0, 1), proc.stderr
    header = (shim / "hipport_shim.h").read_text()
    exact = [r for r in rows if r["exactness"] == "exact"]
    assert len(exact) >= 4
    for row in rows:
        cuda, hip = row["cuda"], row["hip"]
        said = f"/* {cuda} -> {hip} "
        if row["exactness"] != "exact":
            assert f"/* {cuda} -> " not in header, cuda
            assert not re.search(rf"^#define {cuda} (?!_Pragma)", header, re.M), cuda
            assert f"auto {cuda}(" not in header, cuda
        elif Version.parse(row["since"]) <= Version.parse(rocm):
            assert said in header, (cuda, header)
            provided = f"#define {cuda} {hip}\n" in header or re.search(
                rf"auto {cuda}\(.*\{{ return {hip}\(", header
            )
            assert provided, (cuda, header)
        else:
            assert re.search(rf"^#define {cuda} _Pragma\(.*needs ROCm {row['since']}", header, re.M)


@pytest.mark.hipcc
@needs_hipcc
@pytest.mark.parametrize(
    ("case", "rocm"),
    [
        ("alternatives_exact.cu", "5.2"),
        ("alternatives_exact.cu", "6.3"),
        ("alternatives_bf16_rn.cu", "6.3"),
    ],
)
def test_exact_alternatives_compile_through_the_shim(case: str, rocm: str, tmp_path: Path) -> None:
    """__trap, __stcs on float (the arguments swapped: HIP has no __stcs) and
    __float2bfloat16_rn (from ROCm 5.7) through the shim, with each release's HIP. The inputs
    are nvcc-proven (tests/test_modern_releases.py)."""
    source = ENGINE_CASES / case
    shim = tmp_path / "shim"
    assert hipport("shim", source, "-o", shim, "--rocm", rocm).returncode == 0
    built = compile_through(shim, source, rocm)
    assert built.ok, built.stderr[-2000:]


@pytest.mark.hipcc
@needs_hipcc
@pytest.mark.slow
@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
@pytest.mark.parametrize("case", ["fires_01.cu", "fires_02.cu", "silent_02.cu"])
def test_min_max_on_coordinates_compile_through_the_shim(case: str, rocm: str, tmp_path) -> None:
    """HIP028's inputs (nvcc-checked rule cases) unchanged through the shim: the calls HIP
    5.2's coordinate proxy types make ambiguous (min(unsigned, blockDim.x), max(blockDim.x,
    32u), min(threadIdx.y, blockDim.y)) take the overloads that cast the coordinate as
    translate does, and the calls HIP resolves (an int, a float) still compile."""
    source = tmp_path / "src" / case.replace(".cu", "_k.cu")
    source.parent.mkdir()
    source.write_bytes((ROOT / "tests" / "cases" / "rules" / "HIP028" / case).read_bytes())
    shim = tmp_path / "shim"
    assert hipport("shim", source.parent, "-o", shim, "--rocm", rocm).returncode == 0
    built = compile_through(shim, source, rocm)
    assert built.ok, built.stderr[-2000:]


# --------------------------------------------------------------------------- version macros

_NEEDS_11 = (
    "#include <cuda_runtime.h>\n"
    "#if !defined(CUDART_VERSION) || CUDART_VERSION < 11000\n"
    '#error "needs CUDA 11"\n'
    "#endif\n"
    "void f() { cudaDeviceSynchronize(); }\n"
)
# the CUDA arm uses __float2bfloat16, which ROCm 5.2 lacks: translate keeps HIP on the
# fallback (HIP113 warning), so the shim must not define CUDA_VERSION for 5.2
_BF16_OR_HALF = (
    "#include <cuda.h>\n#include <cuda_fp16.h>\n#include <cuda_runtime.h>\n"
    "#if CUDA_VERSION >= 11000\n#include <cuda_bf16.h>\n"
    "__device__ __nv_bfloat16 low(float x) { return __float2bfloat16(x); }\n"
    "#else\n__device__ __half low(float x) { return __float2half(x); }\n#endif\n"
)


@pytest.mark.slow
@pytest.mark.parametrize(("cuda", "value"), [("12.4", "12040"), (None, "13000")])
def test_version_macros_take_the_cuda_releases_values(
    cuda: str | None, value: str, tmp_path: Path
) -> None:
    """--cuda's release (else the newest sampled one, nvcc_macro_samples.tsv: CUDA 13.0)."""
    (tmp_path / "a.cu").write_text(_NEEDS_11)
    options = ["--cuda", cuda] if cuda else []
    proc = hipport("shim", tmp_path / "a.cu", "-o", tmp_path / "s", "--rocm", "5.2", *options)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "s" / "hipport_shim.h").read_text()
    assert f"#define CUDART_VERSION {value}\n" in text, text
    assert "CUDA_VERSION " not in text.replace("CUDART_VERSION", "")  # only what it tests


@pytest.mark.slow
def test_version_macros_stay_undefined_where_a_cuda_arm_is_cuda_only(tmp_path: Path) -> None:
    """One version test translate leaves (its CUDA arm needs what ROCm 5.2 lacks) keeps the
    macros undefined for the whole project, and the header says which; for 6.3, which has
    the bf16 names, both tests take CUDA's arm."""
    (tmp_path / "a.cu").write_text(_NEEDS_11)
    (tmp_path / "b.cu").write_text(_BF16_OR_HALF)
    proc = hipport("shim", tmp_path, "-o", tmp_path / "s52", "--rocm", "5.2")
    text = (tmp_path / "s52" / "hipport_shim.h").read_text()
    assert "#define CUDA_VERSION" not in text and "#define CUDART_VERSION" not in text, text
    assert re.search(r"version macros stay undefined: .*b\.cu:4 ", text), text
    proc = hipport("shim", tmp_path, "-o", tmp_path / "s63", "--rocm", "6.3")
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "s63" / "hipport_shim.h").read_text()
    assert "#define CUDA_VERSION 13000\n" in text and "#define CUDART_VERSION 13000\n" in text


@pytest.mark.hipcc
@needs_hipcc
@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
def test_a_version_requirement_compiles_through_the_shim(rocm: str, tmp_path: Path) -> None:
    source = tmp_path / "a.cu"
    source.write_text(_NEEDS_11)
    assert hipport("shim", source, "-o", tmp_path / "s", "--rocm", rocm).returncode == 0
    built = compile_through(tmp_path / "s", source, rocm)
    assert built.ok, built.stderr[-2000:]


@pytest.mark.nvcc
@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
@pytest.mark.parametrize("text", [_NEEDS_11, _BF16_OR_HALF], ids=["needs_11", "bf16_or_half"])
def test_version_inputs_are_real_cuda(text: str, tmp_path: Path) -> None:
    (tmp_path / "a.cu").write_text(text)
    cmd = ["nvcc", "-std=c++17", "-c", "-o", os.devnull, str(tmp_path / "a.cu")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
