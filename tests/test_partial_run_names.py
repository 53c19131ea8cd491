"""A run on named files (the pre-commit hook, `check one.cu`) knows the names the project
headers they include define, with no cache (a fresh clone in CI): the hook judged
`CUDA_CHECK`, defined by the file's own header, as unknown CUDA (HIP004 errors)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import main

HEADER = b"""#pragma once
#include <cstdio>
#include <cuda_runtime.h>
#include "deeper/inner.cuh"
#define CUDA_CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) \\
  printf("%s\\n", cudaGetErrorString(e)); } while (0)
"""
INNER = b"""#pragma once
#include <cuda_runtime.h>
#define CUDA_SYNC_ALL() cudaDeviceSynchronize()
"""
SOURCE = b"""#include "common.cuh"
int main() {
  float *p;
  CUDA_CHECK(cudaMalloc(&p, 4));
  CUDA_SYNC_ALL();
  CUDA_UNDEFINED_THING();
  return 0;
}
"""


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src" / "deeper").mkdir(parents=True)
    (tmp_path / "src" / "common.cuh").write_bytes(HEADER)
    (tmp_path / "src" / "deeper" / "inner.cuh").write_bytes(INNER)
    (tmp_path / "src" / "main.cu").write_bytes(SOURCE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / ".cache"))
    return tmp_path


def unknown(*args: str) -> list[str]:
    result = CliRunner().invoke(main, ["check", *args, "--format", "json", "--fail-on", "never"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    return sorted(f["api"] for f in report["findings"] if f["code"] == "HIP004")


@pytest.mark.parametrize("cache", [[], ["--no-cache"]])
def test_one_file_knows_its_headers_names_without_a_cache(tree: Path, cache) -> None:
    # the whole tree and the one file agree; only the name nobody defines is unknown
    assert unknown("src/main.cu", *cache) == ["CUDA_UNDEFINED_THING"]
    assert unknown("src", "--no-cache") == ["CUDA_UNDEFINED_THING"]


def test_a_header_outside_the_project_is_not_followed(tree: Path, tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-outside.cuh"
    outside.write_bytes(b"#pragma once\n#define CUDA_UNDEFINED_THING() 0\n")
    (tree / "src" / "main.cu").write_bytes(
        SOURCE.replace(
            b'"common.cuh"', b'"common.cuh"\n#include "../../' + outside.name.encode() + b'"'
        )
    )
    assert unknown("src/main.cu", "--no-cache") == ["CUDA_UNDEFINED_THING"]
