"""Rules the catalogue reports once per API and file (RuleInfo.once_per_file, issue 28:
229 HIP104 findings in 5 files said the same thing per token): the first live use of each
API stays, with the file's count and the other lines; uses in arms the HIP build never
compiles do not count; other rules keep one finding per use."""

from __future__ import annotations

from hipport.catalogue import RULES
from hipport.engine import translate_source
from hipport.target import Target

FRAGMENTS = "\n".join(
    f"    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> f{i};"
    for i in range(12)
)
SOURCE = f"""#include <mma.h>
using namespace nvcuda;
#if 0
__global__ void dead() {{ wmma::fill_fragment(x, 0.0f); wmma::fragment<int> unused; }}
#endif
__global__ void gemm(const half *a) {{
{FRAGMENTS}
    wmma::load_matrix_sync(f0, a, 16);
    cudaFooBarBaz();
    cudaFooBarBaz();
}}
""".encode()


def findings(code: str):
    result = translate_source(SOURCE, "gemm.cu", Target(rocm="6.3"))
    return [f for f in result.findings if f.code == code]


def test_one_finding_per_api_and_file_with_the_count_and_lines() -> None:
    assert RULES["HIP104"].once_per_file
    wmma = findings("HIP104")
    by_api = {f.api: f for f in wmma}
    assert len(by_api) == len(wmma)  # one per API
    fragment = by_api["wmma::fragment"]
    assert fragment.location.line == 7  # the first live use, not the dead arm's line 4
    assert "(12 uses in this file; also lines 8, 9, 10, 11, 12, 13, 14, 15, ...)" in (
        fragment.message
    )
    assert "wmma::fill_fragment" not in by_api  # only in the dead arm
    assert "uses in this file" not in by_api["wmma::load_matrix_sync"].message  # one use


def test_other_rules_report_every_use() -> None:
    assert not RULES["HIP004"].once_per_file
    assert [f.location.line for f in findings("HIP004")] == [20, 21]
