"""The gate on projects that already build for AMD (issue 25): `hipport check` sees the code
as the HIP build sees it.

On the dual-build corpus (tests/dualbuild/, which tests/test_dualbuild.py builds with nvcc and
hipcc) check reports no error; each defect of DEFECTS.toml is reported where the HIP build
compiles it (where tests/test_dualbuild.py shows the HIP compiler rejecting it) and not at
all in a CUDA-only arm; translate leaves the projects' own port alone. The README section
"Projects that already build for AMD" shows what the tool prints. Every run is the real
CLI with the program's own configuration.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT
from .dualbuild_support import (
    REPLACEMENT,
    Defect,
    Program,
    copy_program,
    drop_replacement,
    hipcc_build,
    inject,
    nvcc_build,
    program_named,
    read_defects,
    read_manifest,
)

PROGRAMS = read_manifest()
DEFECTS = read_defects()


def hipport(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "hipport", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
        check=False,
    )


def check(root: Path, *args: str) -> list[dict]:
    """The findings of `hipport check root` (JSON report), with the project's config."""
    proc = hipport(
        "check",
        str(root),
        "--format",
        "json",
        "--fail-on",
        "never",
        "--no-baseline",
        *args,
        cwd=root,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["findings"]


def shown(findings: list[dict]) -> str:
    return "\n".join(
        f"  {f['location']['path']}:{f['location']['line']}: {f['severity']} {f['code']} "
        f"{f['message']}"
        for f in findings
    )


def at(findings: list[dict], file: str, lines: list[int]) -> list[dict]:
    return [f for f in findings if f["location"]["path"] == file and f["location"]["line"] in lines]


def translated(program: Program, where: Path) -> Program:
    """The program translated by `hipport translate` (with its configuration) into `where`."""
    out = where / program.name
    proc = hipport("translate", str(program.root), "-o", str(out), "--no-cache", cwd=where)
    assert proc.returncode == 0, proc.stderr
    return dataclasses.replace(program, root=out)


@pytest.mark.parametrize("defect", DEFECTS, ids=lambda d: d.name)
@pytest.mark.slow
def test_check_reports_a_defect_in_a_live_arm(defect: Defect, tmp_path: Path):
    program = copy_program(program_named(defect.program), tmp_path)
    lines = inject(program.root, defect.file, defect.after, defect.code)
    findings = check(program.root)
    caught = [f for f in at(findings, defect.file, lines) if f["severity"] == "error"]
    assert {f["code"] for f in caught} & defect.rules, (
        f"expected {sorted(defect.rules)} at {defect.file}:{lines}; all findings:\n"
        f"{shown(findings)}"
    )


@pytest.mark.slow
def test_check_reports_a_call_whose_replacement_is_gone(tmp_path: Path):
    """The project's __vsub4 is its own name only while its compat header defines it."""
    program, user, line = drop_replacement(tmp_path)
    caught = [f for f in at(check(program.root), user, [line]) if f["severity"] == "error"]
    assert caught, f"nothing at {user}:{line}"


@pytest.mark.slow
def test_a_replacement_reached_only_through_a_dead_arm_is_not_the_projects():
    """quantize's compat header, which defines __vsub4, is included only under #ifdef
    QNT_USE_HIP: without that macro no file the HIP build reads defines it (dualbuild
    finding 10)."""
    name, _, _, user, use = REPLACEMENT
    program = program_named(name)
    line = (program.root / user).read_text(encoding="utf-8").split("\n").index(use) + 1
    assert not errors_of(at(check(program.root), user, [line]))
    caught = errors_of(at(check(program.root, "-U", "QNT_USE_HIP"), user, [line]))
    assert [f["api"] for f in caught] == ["__vsub4"], shown(caught)


def without_config_defines(program: Program, where: Path) -> Program:
    """A copy of the program whose configuration no longer lists its defines."""
    copy = copy_program(program, where)
    for name in (".hipport.toml", "pyproject.toml"):
        config = copy.root / name
        if config.is_file():
            text = config.read_text(encoding="utf-8")
            config.write_text(re.sub(r"(?m)^defines = .*\n", "", text), encoding="utf-8")
    return copy


def errors_of(findings: list[dict]) -> list[dict]:
    return [f for f in findings if f["severity"] == "error"]


@pytest.mark.slow
def test_defines_from_the_command_line(tmp_path: Path):
    program = without_config_defines(program_named("pyext"), tmp_path)
    assert errors_of(check(program.root)), "the project macro should matter"
    flags = [arg for d in program_named("pyext").defines for arg in ("-D", d)]
    assert not errors_of(found := check(program.root, *flags)), shown(found)


@pytest.mark.slow
def test_undefine_on_the_command_line_wins_over_the_configuration():
    program = program_named("pyext")
    assert not errors_of(check(program.root))
    assert errors_of(check(program.root, "-U", "USE_ROCM"))


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
@pytest.mark.slow
def test_check_reports_no_error_on_the_corpus(program: Program):
    errors = [f for f in check(program.root) if f["severity"] == "error"]
    assert not errors, f"{program.name} builds both ways, yet:\n{shown(errors)}"


@pytest.mark.parametrize("defect", DEFECTS, ids=lambda d: d.name)
@pytest.mark.slow
def test_check_reports_nothing_in_a_dead_arm(defect: Defect, tmp_path: Path):
    program = copy_program(program_named(defect.program), tmp_path)
    lines = inject(program.root, defect.dead_file, defect.dead_after, defect.dead_code)
    findings = at(check(program.root), defect.dead_file, lines)
    assert not findings, f"in a CUDA-only arm:\n{shown(findings)}"


@pytest.mark.parametrize("program", [p for p in PROGRAMS if p.port], ids=lambda p: p.name)
@pytest.mark.slow
def test_translate_leaves_the_project_port_alone(program: Program, tmp_path: Path):
    """Compat headers and HIP-only files are the project's port, not CUDA to rename."""
    out = translated(program, tmp_path)
    changed = [
        f for f in program.port if (out.root / f).read_bytes() != (program.root / f).read_bytes()
    ]
    assert not changed, f"translate rewrote the project's port: {changed}"


README_SECTION = "## Projects that already build for AMD"


def readme_examples() -> list[tuple[str, str]]:
    """(command, shown output) of each ```console block of the README's section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    if README_SECTION not in text:
        return []
    section = text.split(README_SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```console\n(.*?)```", section, re.DOTALL)
    examples = []
    for block in blocks:
        command, _, output = block.partition("\n")
        assert command.startswith("$ hipport "), command
        examples.append((command[2:], output))
    return examples


def test_readme_section_has_worked_examples():
    assert len(readme_examples()) >= 2


@pytest.mark.parametrize(("command", "output"), readme_examples(), ids=lambda v: v[:60])
@pytest.mark.slow
def test_readme_shows_what_hipport_prints(command: str, output: str, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")

    args = shlex.split(command)[1:]
    proc = hipport(*args, "--color", "never", cwd=ROOT)
    assert proc.stdout == output, f"$ {command}\n{proc.stdout}{proc.stderr}"


def test_defines_from_compile_commands(tmp_path: Path):
    """The -D flags of the HIP build's compile_commands.json are the project's macros, in the
    headers its entries compile too (pyext's macros.h has an #ifdef USE_ROCM)."""
    program = without_config_defines(program_named("pyext"), tmp_path)
    entries = [
        {
            "directory": str(program.root),
            "file": str(program.root / source),
            "arguments": ["hipcc", "-x", "hip", *program_named("pyext").define_flags()]
            + [*program.include_flags(), "-c", str(program.root / source)],
        }
        for source in program.hip_sources
    ]
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "compile_commands.json").write_text(json.dumps(entries))
    found = check(program.root, "-p", str(tmp_path / "build"))
    assert not errors_of(found), shown(found)


SHIMMED = {
    # A project that builds for AMD through `hipport shim`, with its own replacement for
    # what HIP lacks under the HIP platform macro.
    "src/compat.cuh": """#pragma once
#if defined(__HIP_PLATFORM_AMD__)
// HIP has no streaming store: a plain store.
template <typename T>
static __device__ __forceinline__ void __stcs(T *ptr, T value) {
    *ptr = value;
}
#endif
""",
    "src/kernels.cu": """#include <cuda_runtime.h>
#include "compat.cuh"

__global__ void fill(float *p, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) __stcs(p + i, 1.0f);
}

cudaError_t run(float *p, int n) {
    fill<<<(n + 255) / 256, 256>>>(p, n);
    return cudaGetLastError();
}
""",
}


def _shimmed(where: Path) -> Program:
    for name, text in SHIMMED.items():
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_text(text, encoding="utf-8")
    return Program("shimmed", where, ("src/kernels.cu",), ("src/kernels.cu",), (), ())


def test_check_leaves_a_replacement_under_the_hip_platform_macro_alone(tmp_path: Path):
    program = _shimmed(tmp_path / "shimmed")
    errors = errors_of(check(program.root, "--rocm", "5.2"))
    assert not errors, shown(errors)


@pytest.mark.nvcc
def test_the_shimmed_program_is_real_cuda(tmp_path: Path):
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc is not installed")
    program = _shimmed(tmp_path / "shimmed")
    build = nvcc_build(program, program.root / "src/kernels.cu", tmp_path)
    assert build.ok, build.report()


@pytest.mark.hipcc
def test_shim_leaves_the_projects_own_replacement_compiling(tmp_path: Path):
    """Issue 25: the shim's poison macro for __stcs broke a project defining its own."""
    if shutil.which("hipcc") is None:
        pytest.skip("hipcc is not installed")
    program = _shimmed(tmp_path / "shimmed")
    shim = tmp_path / "shim"
    proc = hipport("shim", "src", "-o", str(shim), "--rocm", "5.2", cwd=program.root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    program = dataclasses.replace(program, include=(str(shim),))
    build = hipcc_build(program, program.root / "src/kernels.cu", tmp_path)
    assert build.ok, build.report()


@pytest.mark.slow
@pytest.mark.hipcc
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_translated_program_still_builds_with_hip(program: Program, tmp_path: Path):
    """Translating a project that already builds for AMD must not break its HIP build."""
    if shutil.which("hipcc") is None:
        pytest.skip("hipcc is not installed")
    out = translated(program, tmp_path)
    for source in out.hip_sources:
        build = hipcc_build(out, out.root / source, tmp_path)
        assert build.ok, build.report()
