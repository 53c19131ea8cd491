"""`hipport translate` end to end: real subprocesses on temporary trees.

Every run gets its own HIPPORT_CACHE_DIR so the user's cache is never touched, and every
test builds the tree it needs with `make_tree`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from hipport.catalogue import Kind, codes_of

ROOT = Path(__file__).resolve().parent.parent

SAXPY = b"""#include <cuda_runtime.h>
#include "common.cuh"
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
int main() {
  float *x;
  CUDA_CHECK(cudaMalloc(&x, 4));
  saxpy<<<1, 1>>>(1, 2.0f, x, x);
  cudaDeviceSynchronize();
  cudaFree(x);
  return 0;
}
"""
COMMON = b"""#pragma once
#include <cstdio>
#define CUDA_CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) \\
  printf("%s\\n", cudaGetErrorString(e)); } while (0)
"""
PLAIN = b"int add(int a, int b) { return a + b; }\n"


def make_tree(root: Path, files: dict[str, bytes | str]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    return root


class Hipport:
    """Runs `python -m hipport translate` with its own cache directory."""

    def __init__(self, cache: Path) -> None:
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = str(ROOT) + os.pathsep + self.env.get("PYTHONPATH", "")
        self.env["HIPPORT_CACHE_DIR"] = str(cache)
        self.env.pop("CI", None)

    def __call__(
        self, *args: str | Path, cwd: Path, stats: bool = False
    ) -> subprocess.CompletedProcess:
        cmd = [sys.executable, "-m", "hipport", "translate", *map(str, args)]
        if stats:
            cmd += ["--stats-json", str(cwd / ".stats.json")]
        proc = subprocess.run(cmd, cwd=cwd, env=self.env, capture_output=True, timeout=300)
        if stats and (cwd / ".stats.json").exists():
            proc.stats = json.loads((cwd / ".stats.json").read_text())  # type: ignore[attr-defined]
            (cwd / ".stats.json").unlink()
        return proc


@pytest.fixture
def hipport(tmp_path: Path) -> Hipport:
    return Hipport(tmp_path / "cache")


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    return make_tree(
        tmp_path / "proj",
        {
            "src/main.cu": SAXPY,
            "src/common.cuh": COMMON,
            "src/plain.cpp": PLAIN,
            "README.md": "readme\n",
        },
    )


def files_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.name.startswith(".stats")
    }


def err(proc: subprocess.CompletedProcess) -> str:
    return proc.stderr.decode(errors="replace")


# --- file selection -------------------------------------------------------------------------


@pytest.mark.slow
def test_gitignore_nested_and_negation(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "p",
        {
            ".gitignore": "generated/\n*.gen.cu\n",
            "a.cu": SAXPY,
            "x.gen.cu": SAXPY,
            "generated/g.cu": SAXPY,
            "build/b.cu": SAXPY,
            "lib/.gitignore": "*.cu\n!keep.cu\n",
            "lib/drop.cu": SAXPY,
            "lib/keep.cu": SAXPY,
            "other/drop.cu": SAXPY,  # lib's .gitignore does not reach here
        },
    )
    proc = hipport(".", "--diff", "--jobs", "1", cwd=root, stats=True)
    assert proc.returncode == 1, err(proc)
    assert sorted(proc.stats["files"]) == ["a.cu", "lib/keep.cu", "other/drop.cu"]


@pytest.mark.slow
def test_include_and_exclude_globs(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "p",
        {
            "src/a.cu": SAXPY,
            "src/b.cuh": COMMON,
            "third_party/t.cu": SAXPY,
            "src/c.cpp": PLAIN,
        },
    )
    proc = hipport(
        ".",
        "--diff",
        "--exclude",
        "third_party/**",
        "--include",
        "*.cu",
        "--jobs",
        "1",
        cwd=root,
        stats=True,
    )
    assert sorted(proc.stats["files"]) == ["src/a.cu"], err(proc)
    out = tmp_path / "out"
    proc = hipport(
        ".", "-o", out, "--exclude", "third_party", "--include", "*.cu", cwd=root, stats=True
    )
    assert proc.returncode == 0, err(proc)
    # not included: copied as it is; excluded: left out of the output
    assert (out / "src/b.cuh").read_bytes() == COMMON
    assert not (out / "third_party").exists()


# --- renames --------------------------------------------------------------------------------


@pytest.mark.slow
def test_rename_suffixes_update_includes_and_cmake(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "p",
        {
            "main.cu": SAXPY.replace(b'"common.cuh"', b'"sub/common.cuh"'),
            "sub/common.cuh": COMMON,
            "sub/k.cu": SAXPY,
            "sub/common.cuh.txt": "not a header\n",
            "CMakeLists.txt": "project(p LANGUAGES CXX CUDA)\nadd_executable(p main.cu sub/k.cu)\n",
        },
    )
    sub_k = (root / "sub/k.cu").read_bytes()
    assert b'#include "common.cuh"' in sub_k
    out = tmp_path / "out"
    proc = hipport(
        ".",
        "-o",
        out,
        "--rename-suffix",
        ".cu=.hip",
        "--rename-suffix",
        ".cuh=.hpp",
        cwd=root,
        stats=True,
    )
    assert proc.returncode == 0, err(proc)
    got = files_of(out)
    assert sorted(got) == [
        "CMakeLists.txt",
        "main.hip",
        "sub/common.cuh.txt",
        "sub/common.hpp",
        "sub/k.hip",
    ]
    assert b'#include "sub/common.hpp"' in got["main.hip"]
    assert b'#include "common.hpp"' in got["sub/k.hip"]
    assert b"add_executable(p main.hip sub/k.hip)" in got["CMakeLists.txt"]
    assert b"LANGUAGES CXX HIP" in got["CMakeLists.txt"]
    assert proc.stats["renamed_files"]["sub/common.cuh"] == "sub/common.hpp"


@pytest.mark.slow
def test_hip_suffix_in_place_renames_files(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(tmp_path / "p", {"a.cu": SAXPY, "common.cuh": COMMON})
    proc = hipport(".", "--in-place", "--hip-suffix", cwd=root)
    assert proc.returncode == 0, err(proc)
    assert sorted(files_of(root)) == ["a.hip", "common.cuh"]
    assert b"hipMalloc" in (root / "a.hip").read_bytes()


# --- -o -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_outdir_mirrors_tree_into_existing_directory(
    hipport: Hipport, proj: Path, tmp_path: Path
) -> None:
    out = make_tree(tmp_path / "out", {"mine.txt": "keep me\n"})
    proc = hipport(".", "-o", out, cwd=proj, stats=True)
    assert proc.returncode == 0, err(proc)
    got = files_of(out)
    assert sorted(got) == [
        "README.md",
        "mine.txt",
        "src/common.cuh",
        "src/main.cu",
        "src/plain.cpp",
    ]
    assert got["mine.txt"] == b"keep me\n"
    assert got["src/plain.cpp"] == PLAIN and got["README.md"] == b"readme\n"
    assert b"hipMalloc" in got["src/main.cu"]
    assert files_of(proj)["src/main.cu"] == SAXPY  # the input is untouched
    assert proc.stats["changed"] == 2 and proc.stats["unchanged"] == 1
    # a second run writes nothing that is already right
    before = {p: (out / p).stat().st_mtime_ns for p in got}
    time.sleep(0.05)
    proc = hipport(".", "-o", out, cwd=proj)
    assert proc.returncode == 0, err(proc)
    assert before == {p: (out / p).stat().st_mtime_ns for p in got}


@pytest.mark.slow
def test_outdir_inside_input_is_refused(hipport: Hipport, proj: Path) -> None:
    proc = hipport(".", "-o", "src/out", cwd=proj)
    assert proc.returncode == 2
    assert "inside the input" in err(proc)
    assert not (proj / "src/out").exists()
    proc = hipport("src/main.cu", "-o", "src", cwd=proj)
    assert proc.returncode == 2


# --- in place -------------------------------------------------------------------------------


@pytest.mark.slow
def test_in_place_keeps_modes_and_backup(hipport: Hipport, proj: Path) -> None:
    main = proj / "src/main.cu"
    main.chmod(0o755)
    (proj / "src/plain.cpp").chmod(0o640)
    proc = hipport(".", "--in-place", "--backup", cwd=proj, stats=True)
    assert proc.returncode == 0, err(proc)
    assert stat.S_IMODE(main.stat().st_mode) == 0o755
    assert b"hipMalloc" in main.read_bytes()
    assert (proj / "src/main.cu.orig").read_bytes() == SAXPY
    assert (proj / "src/plain.cpp").read_bytes() == PLAIN  # unchanged: not rewritten
    assert stat.S_IMODE((proj / "src/plain.cpp").stat().st_mode) == 0o640
    assert not (proj / "src/plain.cpp.orig").exists()
    assert not [p for p in proj.rglob("*hipport*")], "temporary files left behind"
    # translated code is stable: a second run changes nothing
    proc = hipport(".", "--diff", cwd=proj)
    assert proc.returncode == 0, err(proc)


# --- --diff, --stdout -----------------------------------------------------------------------


@pytest.mark.slow
def test_diff_exit_codes(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(tmp_path / "p", {"plain.cpp": PLAIN, "x.hip": "hipMalloc(0, 0);\n"})
    proc = hipport(".", "--diff", cwd=root)
    assert proc.returncode == 0, err(proc)
    assert proc.stdout == b""
    (root / "a.cu").write_bytes(SAXPY)
    proc = hipport(".", "--diff", cwd=root)
    assert proc.returncode == 1, err(proc)
    assert b"+++ b/a.cu" in proc.stdout and b"+  CUDA_CHECK(hipMalloc" in proc.stdout
    assert (root / "a.cu").read_bytes() == SAXPY  # --diff writes nothing


@pytest.mark.parametrize("tool", ["patch", "git"])
@pytest.mark.slow
def test_diff_applies_to_give_the_translated_tree(
    hipport: Hipport, tmp_path: Path, tool: str
) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} not installed")
    files = {
        "src/main.cu": SAXPY,
        "src/common.cuh": COMMON + b"// no newline at the end",
        "src/plain.cpp": PLAIN,
        "CMakeLists.txt": "enable_language(CUDA)\n",
    }
    root = make_tree(tmp_path / "p", files)
    expected = tmp_path / "expected"
    args = ("--rename-suffix", ".cu=.hip")
    proc = hipport(".", "-o", expected, *args, cwd=root)
    assert proc.returncode == 0, err(proc)
    proc = hipport(".", "--diff", *args, cwd=root)
    assert proc.returncode == 1, err(proc)
    patch_file = tmp_path / "change.patch"
    patch_file.write_bytes(proc.stdout)
    if tool == "patch":
        cmd = ["patch", "-p1", "-s", "-i", str(patch_file)]
    else:
        cmd = ["git", "apply", str(patch_file)]
    subprocess.run(cmd, cwd=root, check=True, capture_output=True)
    assert files_of(root) == files_of(expected)


@pytest.mark.slow
def test_diff_paths_are_relative_to_the_current_directory(hipport: Hipport, proj: Path) -> None:
    proc = hipport("proj/src", "--diff", cwd=proj.parent)
    assert proc.returncode == 1, err(proc)
    assert b"--- a/proj/src/main.cu\n" in proc.stdout


@pytest.mark.slow
def test_stdout(hipport: Hipport, proj: Path) -> None:
    proc = hipport("src/main.cu", "--stdout", "-q", cwd=proj)
    assert proc.returncode == 0, err(proc)
    assert b"hipMalloc" in proc.stdout and b"=====" not in proc.stdout
    assert proc.stderr == b""
    proc = hipport("src", "--stdout", "-q", cwd=proj)
    assert b"// ===== main.cu =====" in proc.stdout


# --- configuration --------------------------------------------------------------------------


@pytest.mark.slow
def test_config_found_walking_up_and_command_line_wins(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "p",
        {
            "pyproject.toml": '[project]\nname = "x"\n[tool.hipport]\nlaunch-syntax = "hip"\n',
            "deep/er/a.cu": SAXPY,
        },
    )
    sub = root / "deep/er"
    proc = hipport("a.cu", "--stdout", "-q", cwd=sub)
    assert b"hipLaunchKernelGGL" in proc.stdout, err(proc)
    proc = hipport("a.cu", "--stdout", "-q", "--launch-syntax", "cuda", cwd=sub)
    assert b"<<<1, 1>>>" in proc.stdout, err(proc)
    # .hipport.toml nearer to the file wins over pyproject.toml further up
    make_tree(root, {"deep/.hipport.toml": 'launch-syntax = "cuda"\n'})
    proc = hipport("a.cu", "--stdout", "-q", cwd=sub)
    assert b"<<<1, 1>>>" in proc.stdout, err(proc)


@pytest.mark.slow
def test_config_rocm_and_cli_rocm(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "p",
        {
            ".hipport.toml": 'rocm = "5.0"\n',
            "a.cu": "__global__ void k(float *v) { v[0] = __shfl_down_sync(0xffffffff, v[0], 1);"
            " }\n",
        },
    )
    old = hipport("a.cu", "--diff", cwd=root, stats=True)
    new = hipport("a.cu", "--diff", "--rocm", "6.2", cwd=root, stats=True)
    assert "HIP002" in old.stats["findings_per_code"], err(old)
    assert "HIP002" not in new.stats["findings_per_code"], err(new)


@pytest.mark.slow
def test_config_include_exclude_relative_to_the_config(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "p",
        {
            ".hipport.toml": 'exclude = ["src/vendor/**"]\n',
            "src/a.cu": SAXPY,
            "src/vendor/v.cu": SAXPY,
        },
    )
    for cwd, path in ((root, "."), (root / "src", ".")):
        proc = hipport(path, "--diff", cwd=cwd, stats=True)
        assert [p.rsplit("/", 1)[-1] for p in proc.stats["files"]] == ["a.cu"], err(proc)


@pytest.mark.parametrize(
    "args, config, message",
    [
        ((), "", "choose exactly one"),
        (("--diff", "--stdout"), "", "choose exactly one"),
        (("--diff", "--rocm", "six"), "", "not a version"),
        (("--diff",), "colour = 1\n", "unknown key"),
        (("--diff",), 'rocm = "six"\n', "'rocm' must be a release such as \"6.2\", not 'six'"),
        (("--diff",), 'fail-on = "sometimes"\n', "fail-on"),
        (("--diff",), "renames = 3\n", "must be a table"),
        (("--diff",), 'jobs = "two"\n', "whole number"),
        (("--diff",), '[rename-suffix]\ncu = "hip"\n', "rename-suffix"),
        (("--backup", "--diff"), "", "--backup goes with --in-place"),
        (("--diff", "missing.cu"), "", "no such file"),
    ],
)
def test_usage_errors_exit_2(
    hipport: Hipport, tmp_path: Path, args: tuple[str, ...], config: str, message: str
) -> None:
    root = make_tree(tmp_path / "p", {"a.cu": SAXPY, ".hipport.toml": config})
    proc = hipport("a.cu", *args, cwd=root)
    assert proc.returncode == 2, err(proc)
    assert message in err(proc)
    assert (root / "a.cu").read_bytes() == SAXPY


@pytest.mark.slow
def test_user_rules(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "p",
        {
            ".hipport.toml": "\n".join(
                [
                    'disable-mappings = ["cudaDeviceSynchronize"]',
                    "[renames]",
                    'CUDA_CHECK = "HIP_CHECK"',
                    "[per-path-ignore]",
                    '"legacy/**" = ["cudaFree", "HIP010"]',
                    "",
                ]
            ),
            "a.cu": SAXPY,
            "legacy/old.cu": SAXPY,
        },
    )
    proc = hipport(".", "-o", tmp_path / "out", cwd=root, stats=True)
    assert proc.returncode == 0, err(proc)
    a = (tmp_path / "out/a.cu").read_bytes()
    old = (tmp_path / "out/legacy/old.cu").read_bytes()
    assert b"HIP_CHECK(hipMalloc" in a and b"CUDA_CHECK" not in a
    assert b"cudaDeviceSynchronize();" in a and b"hipFree(x)" in a
    assert b"cudaFree(x)" in old and b"HIP_CHECK(hipMalloc" in old


# --- the cache ------------------------------------------------------------------------------


@pytest.mark.slow
def test_cache_hit_then_miss_after_edit_and_option_change(hipport: Hipport, proj: Path) -> None:
    first = hipport(".", "--diff", cwd=proj, stats=True)
    assert first.stats["cached"] == 0 and first.stats["scanned"] == 3, err(first)
    again = hipport(".", "--diff", cwd=proj, stats=True)
    assert again.stats["cached"] == 3, err(again)
    assert "3 from the cache" in err(again)
    assert again.stdout == first.stdout
    for key in ("changed", "unchanged", "findings_per_code", "renamed_per_family", "min_rocm"):
        assert again.stats[key] == first.stats[key], key
    (proj / "src/plain.cpp").write_bytes(PLAIN + b"int sub(int a);\n")
    edited = hipport(".", "--diff", cwd=proj, stats=True)
    assert edited.stats["cached"] == 2, err(edited)
    option = hipport(".", "--diff", "--launch-syntax", "hip", cwd=proj, stats=True)
    assert option.stats["cached"] == 0, err(option)
    bypass = hipport(".", "--diff", "--no-cache", cwd=proj, stats=True)
    assert bypass.stats["cached"] == 0, err(bypass)


@pytest.mark.slow
def test_cache_sees_same_size_edit(hipport: Hipport, proj: Path) -> None:
    hipport(".", "--diff", cwd=proj)
    main = proj / "src/main.cu"
    st = main.stat()
    main.write_bytes(SAXPY.replace(b"cudaFree(x)", b"cudaXxxx(x)"))
    os.utime(main, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size, same time
    proc = hipport(".", "--stdout", "-q", cwd=proj)
    assert b"cudaXxxx" in proc.stdout


# --- parallel -------------------------------------------------------------------------------


@pytest.mark.slow
def test_jobs_1_and_2_give_identical_trees(hipport: Hipport, tmp_path: Path) -> None:
    files: dict[str, bytes | str] = {
        f"d{i % 3}/f{i}.cu": SAXPY.replace(b"saxpy", b"k%d" % i) for i in range(12)
    }
    files.update({"d0/common.cuh": COMMON, "CMakeLists.txt": "enable_language(CUDA)\n"})
    root = make_tree(tmp_path / "p", files)
    one, two = tmp_path / "one", tmp_path / "two"
    p1 = hipport(".", "-o", one, "--jobs", "1", "--no-cache", cwd=root, stats=True)
    p2 = hipport(".", "-o", two, "--jobs", "2", "--no-cache", cwd=root, stats=True)
    assert p1.returncode == p2.returncode == 0, err(p1) + err(p2)
    assert files_of(one) == files_of(two)
    for key in ("changed", "findings_per_code", "renamed_per_family"):
        assert p1.stats[key] == p2.stats[key]


# --- CMake ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_cmake_files_translated_and_findings_reported(hipport: Hipport, tmp_path: Path) -> None:
    root = make_tree(
        tmp_path / "p",
        {
            "CMakeLists.txt": "project(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\n"
            "add_executable(p main.cu)\n"
            "target_link_libraries(p CUDA::cudart CUDA::cublas)\n"
            "set_target_properties(p PROPERTIES CUDA_ARCHITECTURES 80)\n",
            "cmake/gpu.cmake": "enable_language(CUDA)\n",
            "main.cu": SAXPY,
        },
    )
    out = tmp_path / "out"
    proc = hipport(".", "-o", out, cwd=root, stats=True)
    assert proc.returncode == 0, err(proc)
    cml = (out / "CMakeLists.txt").read_text()
    assert "LANGUAGES CXX HIP" in cml and "find_package(hip" in cml
    assert "hip::host" in cml and "roc::hipblas" in cml
    assert (out / "cmake/gpu.cmake").read_text() == "enable_language(HIP)\n"
    assert proc.stats["files"]["CMakeLists.txt"] == "changed"
    build = codes_of(Kind.BUILD)
    assert set(build) & set(proc.stats["findings_per_code"])
    assert any(code in err(proc) for code in build)


# --- exit codes, failures, the summary ------------------------------------------------------


@pytest.mark.slow
def test_fail_on(hipport: Hipport, proj: Path) -> None:
    make_tree(
        proj,
        {
            "src/warp.cu": "__global__ void k(float *v) { v[0] = "
            "__shfl_down_sync(0xffffffff, v[0], 1); }\n"
        },
    )
    proc = hipport(".", "--diff", "--no-cache", cwd=proj, stats=True)
    assert proc.stats["findings_per_code"], "the example should have a finding"
    assert hipport(".", "-o", proj.parent / "o1", cwd=proj).returncode == 0
    proc = hipport(".", "-o", proj.parent / "o2", "--fail-on", "note", cwd=proj)
    assert proc.returncode == 1, err(proc)
    assert (proj.parent / "o2/src/main.cu").exists()  # still written
    make_tree(proj, {".hipport.toml": 'fail-on = "note"\n'})
    assert hipport(".", "-o", proj.parent / "o3", cwd=proj).returncode == 1
    assert hipport(".", "-o", proj.parent / "o4", "--fail-on", "never", cwd=proj).returncode == 0


@pytest.mark.slow
def test_unreadable_file_is_reported_and_the_run_goes_on(hipport: Hipport, proj: Path) -> None:
    (proj / "src/gone.cu").symlink_to("nowhere.cu")
    out = proj.parent / "out"
    proc = hipport(".", "-o", out, cwd=proj, stats=True)
    assert proc.returncode == 0, err(proc)
    assert proc.stats["failed"] == 1 and proc.stats["files"]["src/gone.cu"] == "failed"
    assert "src/gone.cu" in err(proc) and "1 failed" in err(proc)
    assert b"hipMalloc" in (out / "src/main.cu").read_bytes()
    proc = hipport(".", "-o", out, "--fail-on", "error", cwd=proj)
    assert proc.returncode == 1, err(proc)
    # named explicitly, too
    proc = hipport("src/gone.cu", "src/main.cu", "--diff", cwd=proj, stats=True)
    assert proc.returncode == 1 and proc.stats["failed"] == 1, err(proc)
    assert b"+++ b/src/main.cu" in proc.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a chmod 000 file")
def test_permission_denied_is_reported(hipport: Hipport, proj: Path) -> None:
    (proj / "src/plain.cpp").chmod(0)
    proc = hipport(".", "--diff", cwd=proj, stats=True)
    assert proc.stats["files"]["src/plain.cpp"] == "failed", err(proc)
    assert proc.stats["changed"] == 2


@pytest.mark.slow
def test_summary_is_plain_when_piped(hipport: Hipport, proj: Path) -> None:
    proc = hipport(".", "--diff", cwd=proj)
    text = err(proc)
    assert "\x1b[" not in text
    assert "3 files scanned: 2 changed, 1 unchanged, 0 failed" in text
    assert "runtime" in text  # renamed per family
    assert "findings per kind" in text
    assert "minimum ROCm for the translated code:" in text


def test_help_imports_nothing_heavy(hipport: Hipport) -> None:
    """`--help` must not load libclang, the tables or rich (start-up time itself is measured
    by bench/run.py, not asserted here)."""
    script = (
        "import sys\n"
        "from hipport.cli import main\n"
        "for args in (['--help'], ['translate', '--help'], ['check', '--help']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = [m for m in ('clang.cindex', 'hipport.tables.model', 'rich.console',\n"
        "                     'hipport.engine') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], env=hipport.env, capture_output=True, text=True, check=True
    )
    assert "HEAVY []" in proc.stdout, proc.stdout


@pytest.mark.slow
def test_config_severity_applies_to_fail_on(hipport: Hipport, proj: Path) -> None:
    make_tree(
        proj,
        {
            "src/warp.cu": "__global__ void k(float *v) { v[0] = "
            "__shfl_down_sync(0xffffffff, v[0], 1); }\n"
        },
    )
    proc = hipport(".", "--diff", cwd=proj, stats=True)
    codes = list(proc.stats["findings_per_code"])
    assert codes, err(proc)
    severity = "\n".join(f'{code} = "error"' for code in codes)
    make_tree(proj, {".hipport.toml": f"[severity]\n{severity}\n"})
    proc = hipport(".", "-o", proj.parent / "o", "--fail-on", "error", cwd=proj)
    assert proc.returncode == 1, err(proc)
    severity = "\n".join(f'{code} = "off"' for code in codes)
    make_tree(proj, {".hipport.toml": f"[severity]\n{severity}\n"})
    proc = hipport(".", "-o", proj.parent / "o", "--fail-on", "note", cwd=proj)
    assert proc.returncode == 0, err(proc)


@pytest.mark.slow
def test_unwritable_output_exits_1_and_names_the_file(
    hipport: Hipport, proj: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    # a directory where the translated file must go: the write fails, the rest is written
    (out / "src" / "main.cu").mkdir(parents=True)
    proc = hipport(proj, "-o", out, cwd=tmp_path)
    assert proc.returncode == 1, err(proc)
    assert "src/main.cu" in err(proc) and "cannot write" in err(proc)
    assert (out / "src" / "plain.cpp").read_bytes() == PLAIN


def test_output_under_a_regular_file_is_a_usage_error(
    hipport: Hipport, proj: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    proc = hipport(proj, "-o", blocker / "out", cwd=tmp_path)
    assert proc.returncode == 2
    assert "is a file, not a directory" in err(proc)
    assert blocker.read_text() == "x"


# --- the summary counts what the findings policy keeps (check's findings) -------------------

SUPPRESSED_PTX = (
    "#include <cuda_runtime.h>\n"
    "__global__ void k(unsigned *p, float *v) {\n"
    "  unsigned id;\n"
    '  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id)); // hipport: ignore[HIP101]\n'
    "  p[0] = id;\n"
    "  v[0] = __shfl_down_sync(0xffffffff, v[0], 1);\n"
    "}\n"
)


def _check_codes(hipport: Hipport, root: Path, *args: str) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "hipport", "check", "src", "--format", "json", *args],
        capture_output=True,
        env=hipport.env,
        cwd=root,
        timeout=120,
    )
    return sorted(f["code"] for f in json.loads(proc.stdout)["findings"])


@pytest.mark.slow
def test_summary_counts_what_check_reports(hipport: Hipport, tmp_path: Path) -> None:
    unsuppressed = SUPPRESSED_PTX.replace(" // hipport: ignore[HIP101]", "")
    root = make_tree(
        tmp_path / "p",
        {".hipport.toml": "", "src/a.cu": SUPPRESSED_PTX, "src/b.cu": unsuppressed},
    )
    proc = hipport("src", "-o", tmp_path / "out", cwd=root, stats=True)
    assert proc.returncode == 0, err(proc)
    reported = _check_codes(hipport, root)
    # b.cu's PTX; both files' full-warp masks are HIP023 notes (widened) at the default target
    assert reported.count("HIP101") == 1 and reported.count("HIP023") == 2, reported
    assert "1 suppressed or deselected" in err(proc), err(proc)
    assert _kept(proc) == Counter(reported), err(proc)
    # deselected (--ignore) is not counted either, in warm runs from the cache
    reported = _check_codes(hipport, root, "--ignore", "HIP023")
    assert "HIP023" not in reported, reported
    for mode in (("-o", str(tmp_path / "out")), ("--diff",)):
        proc = hipport("src", *mode, "--ignore", "HIP023", cwd=root, stats=True)
        assert "from the cache" in err(proc) and "3 suppressed or deselected" in err(proc)
        assert _kept(proc) == Counter(reported), err(proc)


def _kept(proc: subprocess.CompletedProcess) -> Counter[str]:
    """The summary's findings per kind, which its --stats-json must repeat."""
    table = Counter(
        {code: int(n) for code, n in re.findall(r"\b(HIP\d{3}) [a-z0-9-]+ +(\d+)", err(proc))}
    )
    assert table == Counter(proc.stats["findings_per_code"]), err(proc)
    return table


def test_standard_input_translates_as_the_named_file(tmp_path: Path, hipport: Hipport) -> None:
    """`translate -` (issue 28): standard input to standard output, as `translate FILE
    --stdout` translates FILE; --stdin-filename picks the configuration, the target and the
    name a diff or a finding gives."""
    proj = make_tree(
        tmp_path / "p",
        {
            "old/.hipport.toml": 'rocm = "5.2"\n',
            "old/k.cu": SAXPY,
            "new/k.cu": SAXPY,
        },
    )
    env = dict(hipport.env)
    for sub in ("old", "new"):
        named = hipport(f"{sub}/k.cu", "--stdout", "-q", cwd=proj)
        piped = subprocess.run(
            [sys.executable, "-m", "hipport", "translate", "-", "-q"]
            + ["--stdin-filename", f"{sub}/k.cu"],
            cwd=proj, env=env, input=SAXPY, capture_output=True, timeout=300,
        )  # fmt: skip
        assert piped.returncode == 0, piped.stderr
        assert piped.stdout == named.stdout and piped.stdout != SAXPY
    diff = subprocess.run(
        [sys.executable, "-m", "hipport", "translate", "-", "--diff", "-q"]
        + ["--stdin-filename", "new/k.cu"],
        cwd=proj, env=env, input=SAXPY, capture_output=True, timeout=300,
    )  # fmt: skip
    assert diff.returncode == 1 and diff.stdout.startswith(b"diff --git a/new/k.cu b/new/k.cu")
    assert files_of(proj / "new") == {"k.cu": SAXPY}  # nothing written


@pytest.mark.parametrize(
    "args,message",
    [
        (["-", "-o", "out"], "standard input is translated to standard output or --diff"),
        (["-", "--in-place"], "standard input is translated to standard output or --diff"),
        (["-", "src"], "cannot be mixed with other paths"),
        (["src", "--stdout", "--stdin-filename", "a.cu"], "--stdin-filename needs `-`"),
    ],
)
def test_standard_input_misuse_is_a_usage_error(proj: Path, hipport: Hipport, args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "hipport", "translate", *args],
        cwd=proj, env=hipport.env, input=SAXPY, capture_output=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 2 and message in proc.stderr.decode(), proc.stderr
    assert not (proj / "out").exists()
