"""Projects that already build for AMD (issue 25): the dual-build corpus in tests/dualbuild/.

Each program there is one source tree that nvcc compiles as CUDA and Debian's HIP 5.2
compiles, untranslated, through the project's own compat header once the project macro
([tool.hipport] defines) is set. These tests prove both builds with the real compilers.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from .dualbuild_support import (
    CORPUS,
    Defect,
    Program,
    copy_program,
    drop_replacement,
    hipcc_build,
    hipport_defines,
    inject,
    nvcc_build,
    program_named,
    read_defects,
    read_manifest,
)

PROGRAMS = read_manifest()
DEFECTS = read_defects()
EXAMPLE_ROOT = Path(__file__).parent.parent / "examples" / "dualbuild_project"
# The README's worked example, built as CMakeLists.txt builds it.
EXAMPLE = Program(
    name="dualbuild_project",
    root=EXAMPLE_ROOT,
    cuda_sources=("src/stats.cu",),
    hip_sources=("src/stats.cu", "src/rocm_info.hip"),
    include=(),
    defines=hipport_defines(EXAMPLE_ROOT),
)
SOURCE_SUFFIXES = {".cu", ".cuh", ".h", ".hpp", ".hip", ".cpp"}
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.MULTILINE)


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        if os.environ.get("CI"):
            raise RuntimeError(f"CI must have {tool}: tests/setup-system.sh installs it")
        pytest.skip(f"{tool} is not installed")


def _cases(which: str) -> list:
    return [
        pytest.param(p, s, id=f"{p.name}/{s}")
        for p in (*PROGRAMS, EXAMPLE)
        for s in (p.cuda_sources if which == "cuda" else p.hip_sources)
    ]


def _reachable(program: Program) -> set[Path]:
    """Project files the builds read: the sources and, transitively, the project headers
    they include (quote includes beside the includer first, then the -I directories)."""
    todo = [program.root / s for s in (*program.cuda_sources, *program.hip_sources)]
    seen: set[Path] = set()
    while todo:
        path = todo.pop().resolve()
        if path in seen:
            continue
        seen.add(path)
        for delimiter, name in _INCLUDE.findall(path.read_text(encoding="utf-8")):
            bases = [path.parent] if delimiter == '"' else []
            bases += [program.root / d for d in program.include]
            found = next((b / name for b in bases if (b / name).is_file()), None)
            if found is not None:
                todo.append(found)
    return seen


def test_corpus_has_ten_programs_each_with_a_project_macro():
    assert len(PROGRAMS) >= 10
    assert {p.name for p in PROGRAMS} == {d.name for d in CORPUS.iterdir() if d.is_dir()}
    for program in PROGRAMS:
        assert program.defines, f"{program.name}: no [tool.hipport] defines"
        assert program.cuda_sources and program.hip_sources, program.name


def test_every_corpus_file_is_compiled_by_a_build():
    """A header no build includes would be checked by hipport but by no compiler."""
    for program in (*PROGRAMS, EXAMPLE):
        files = {p.resolve() for p in program.root.rglob("*") if p.suffix in SOURCE_SUFFIXES}
        unread = sorted(str(p.relative_to(program.root)) for p in files - _reachable(program))
        assert not unread, f"{program.name}: no build reads {unread}"


def test_layouts_of_dual_build_projects_are_covered():
    """The layouts issue 25 names, each in at least one program."""
    text = {
        p.name: "\n".join(
            f.read_text(encoding="utf-8") for f in p.root.rglob("*") if f.suffix in SOURCE_SUFFIXES
        )
        for p in PROGRAMS
    }
    assert any((p.root / "src" / "vendors" / "hip.h").is_file() for p in PROGRAMS)
    assert any(re.search(r"#if !defined\(\w+_USE_HIP\) &&", t) for t in text.values())
    assert any(p.hip_sources != p.cuda_sources for p in PROGRAMS)  # HIP-only sources
    assert any("__HIP_PLATFORM_NVIDIA__" in t and "asm volatile" in t for t in text.values())
    assert any("#ifndef __HIPCC__" in t for t in text.values())
    assert any("CUDART_VERSION >= 12000" in t for t in text.values())
    assert any('#include "cuda.h"' in t and "#include <cuda.h>" in t for t in text.values())
    assert any("=" in d for p in PROGRAMS for d in p.defines)  # a define with a value
    configs = [(p.root / ".hipport.toml").is_file() for p in PROGRAMS]
    assert any(configs) and not all(configs)  # both .hipport.toml and pyproject.toml


@pytest.mark.slow
@pytest.mark.nvcc
@pytest.mark.parametrize(("program", "source"), _cases("cuda"))
def test_cuda_build(program: Program, source: str, tmp_path: Path):
    _need("nvcc")
    build = nvcc_build(program, program.root / source, tmp_path)
    assert build.ok, build.report()


@pytest.mark.slow
@pytest.mark.hipcc
@pytest.mark.parametrize(("program", "source"), _cases("hip"))
def test_hip_build(program: Program, source: str, tmp_path: Path):
    """The untranslated source, with the project's defines, through its compat header."""
    _need("hipcc")
    build = hipcc_build(program, program.root / source, tmp_path)
    assert build.ok, build.report()
    # the device code also gets through the assembler (inline asm is read there)
    assembled = hipcc_build(program, program.root / source, tmp_path, assemble=True)
    assert not assembled.source_errors(), assembled.report()


def _hip_errors(program: Program, out: Path, assemble: bool) -> set[tuple[Path, int]]:
    errors: set[tuple[Path, int]] = set()
    for source in program.hip_sources:
        build = hipcc_build(program, program.root / source, out, assemble=assemble)
        errors |= set(build.source_errors())
        if not assemble:
            assert build.ok or build.source_errors(), build.report()
    return errors


def test_defects_cover_ten_constructs_in_six_programs():
    assert len(DEFECTS) >= 10
    assert len({d.program for d in DEFECTS}) >= 6
    assert len({d.name for d in DEFECTS}) == len(DEFECTS)


@pytest.mark.slow
@pytest.mark.hipcc
@pytest.mark.parametrize("defect", DEFECTS, ids=lambda d: d.name)
def test_defect_in_a_live_arm_breaks_the_hip_build(defect: Defect, tmp_path: Path):
    """The injected construct is a real defect: the HIP compiler rejects it there."""
    _need("hipcc")
    program = copy_program(program_named(defect.program), tmp_path)
    lines = inject(program.root, defect.file, defect.after, defect.code)
    errors = _hip_errors(program, tmp_path, defect.assemble)
    where = (program.root / defect.file).resolve()
    assert any(file == where and line in lines for file, line in errors), (
        f"no HIP compile error at {defect.file}:{lines}; errors at {sorted(errors)}"
    )


@pytest.mark.slow
@pytest.mark.nvcc
@pytest.mark.hipcc
@pytest.mark.parametrize("defect", DEFECTS, ids=lambda d: d.name)
def test_defect_in_a_dead_arm_builds_both_ways(defect: Defect, tmp_path: Path):
    """In a CUDA-only arm the same construct is real CUDA (nvcc builds it) and dead under
    HIP (hipcc, with the project's defines, still builds the program)."""
    _need("nvcc")
    _need("hipcc")
    program = copy_program(program_named(defect.program), tmp_path)
    inject(program.root, defect.dead_file, defect.dead_after, defect.dead_code)
    for source in program.cuda_sources:
        build = nvcc_build(program, program.root / source, tmp_path, defect.nvcc_flags)
        assert build.ok, build.report()
    assert not _hip_errors(program, tmp_path, assemble=False)
    if defect.assemble:
        assert not _hip_errors(program, tmp_path, assemble=True)


@pytest.mark.slow
@pytest.mark.hipcc
def test_without_its_replacement_a_cuda_only_call_breaks_the_hip_build(tmp_path: Path):
    _need("hipcc")
    program, user, line = drop_replacement(tmp_path)
    errors = _hip_errors(program, tmp_path, assemble=False)
    assert ((program.root / user).resolve(), line) in errors, sorted(errors)
