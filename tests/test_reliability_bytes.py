"""One bad byte never loses the report (issue 30 item 6): a byte that is not UTF-8 in an
include's name or after `wmma::` reaches findings' messages and APIs; every report format,
to a file and to stdout, is still written (exit 1 for the findings, never 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability_support import hipport

FORMATS = ["text", "json", "sarif", "junit", "github", "csv", "markdown", "html", "gitlab"]
SOURCES = {
    "include": b'#include <cuda_runtime.h>\n#include "caf\xe9_kernels.cuh"\n'
    b"int main() { cudaInitDevice(0, 0, 0); return 0; }\n",
    "wmma": b"#include <mma.h>\nusing namespace nvcuda;\n"
    b"__global__ void k() { wmma::\xff\xfefragment<int> f; }\n"
    b"int main() { cudaInitDevice(0, 0, 0); return 0; }\n",
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", SOURCES)
def test_a_non_utf8_byte_in_a_name_never_loses_the_report(
    tmp_path: Path, case: str, fmt: str
) -> None:
    (tmp_path / "a.cu").write_bytes(SOURCES[case])
    out = tmp_path / f"report.{fmt}"
    r = hipport(["check", tmp_path / "a.cu", "--format", fmt, "-o", out], tmp_path / "c")
    assert r.returncode == 1, r.stderr.decode()
    assert b"internal error" not in r.stderr
    assert out.stat().st_size > 0
    to_stdout = hipport(["check", tmp_path / "a.cu", "--format", fmt], tmp_path / "c")
    assert to_stdout.returncode == 1, to_stdout.stderr.decode()
    assert out.read_bytes() == to_stdout.stdout or fmt in ("text", "html")
