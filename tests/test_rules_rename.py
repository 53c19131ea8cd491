"""Rename rule details the pairs cannot show: a HIP counterpart removed by the target
(no such row in today's tables, so a copy of the tables with one edited row)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hipport.engine import EngineOptions, translate_source
from hipport.tables import Tables
from hipport.tables.model import mappings_dir
from hipport.target import Target

SRC = b"#include <cuda_runtime.h>\ncudaProfilerStart();\n"


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    directory = tmp_path_factory.mktemp("mappings") / "m"
    shutil.copytree(mappings_dir(), directory)
    path = Path(directory) / "runtime.tsv"
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        cells = line.split("\t")
        if cells[0] == "cudaProfilerStart":
            cells[12] = "6.0.0"  # hip_removed
            lines[i] = "\t".join(cells)
    path.write_text("\n".join(lines) + "\n")
    return Tables(Path(directory))


def test_removed_from_hip_left_unchanged(tables: Tables) -> None:
    r = translate_source(SRC, "a.cu", Target(rocm="6.1"), EngineOptions(tables=tables))
    assert b"cudaProfilerStart();" in r.output
    assert [f.code for f in r.findings] == ["HIP008"]


def test_before_removal_renamed_and_deprecated(tables: Tables) -> None:
    r = translate_source(SRC, "a.cu", Target(rocm="5.7"), EngineOptions(tables=tables))
    assert b"hipProfilerStart();" in r.output
    assert [f.code for f in r.findings] == ["HIP007"]


def test_every_finding_has_a_location() -> None:
    src = (
        b"#include <cuda_awbarrier.h>\n#if CUDA_VERSION\n#endif\ncudaFoo(); __shfl_sync(m, v, 0);\n"
    )
    r = translate_source(src, "a.cu", Target(rocm="6.0"))
    assert {f.code for f in r.findings} >= {"HIP012", "HIP113", "HIP004", "HIP002"}
    for f in r.findings:
        assert f.location.line >= 1 and f.location.column >= 1
        assert (f.location.end_line, f.location.end_column) > (f.location.line, f.location.column)
