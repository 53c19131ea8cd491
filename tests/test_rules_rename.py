"""Rename rule details the pairs cannot show (a HIP counterpart removed by the target, with
no such row in today's tables, is a case with edited tables: tests/cases/rules/HIP008/)."""

from __future__ import annotations

from hipport.engine import translate_source
from hipport.target import Target


def test_every_finding_has_a_location() -> None:
    src = (
        b"#include <cuda_awbarrier.h>\n#if CUDA_VERSION\n#endif\ncudaFoo(); __shfl_sync(m, v, 0);\n"
    )
    r = translate_source(src, "a.cu", Target(rocm="6.0"))
    assert {f.code for f in r.findings} >= {"HIP012", "HIP113", "HIP004", "HIP002"}
    for f in r.findings:
        assert f.location.line >= 1 and f.location.column >= 1
        assert (f.location.end_line, f.location.end_column) > (f.location.line, f.location.column)
