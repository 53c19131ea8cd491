"""Semantic mode with a real toolkit and clang resource headers (skipped without them:
set HIPPORT_CLANG_RESOURCE_DIR, e.g. to the clang-tidy 18 wheel's data/lib/clang/18)."""

from __future__ import annotations

import os

import pytest

from hipport.engine import EngineOptions, translate_source
from hipport.semantic import analyze, resource_dir
from hipport.target import Target

CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
pytestmark = pytest.mark.skipif(
    resource_dir() is None or not os.path.isfile(os.path.join(CUDA, "include", "cuda_runtime.h")),
    reason="needs a CUDA toolkit and clang 18 resource headers",
)

SRC = b"""#include <cuda_runtime.h>
__global__ void k(float* p) { p[threadIdx.x] = 0.f; }
static int cudaHelperCount(int n) { return n; }
int main() {
  float* d;
  cudaMalloc(&d, 4);
  k<<<1, 1>>>(d);
  return cudaHelperCount(1);
}
"""


@pytest.mark.slow
def test_launch_confirmed_and_user_names() -> None:
    info = analyze(SRC, "s.cu", CUDA)
    assert not info.errors, info.errors
    assert SRC.index(b"k<<<") in info.launches
    assert "cudaHelperCount" in info.user_declared
    assert "cudaMalloc" not in info.user_declared


@pytest.mark.slow
def test_semantic_translation_matches_token_mode() -> None:
    tokens = translate_source(SRC, "s.cu", Target())
    semantic = translate_source(SRC, "s.cu", Target(), EngineOptions(semantic=True))
    assert semantic.output == tokens.output
    assert "HIP013" not in [f.code for f in semantic.findings]


LAUNCHES = b"""#include <cuda_runtime.h>
__global__ void k(float* p) { p[threadIdx.x] = 0.f; }
void run(float* d) {
  k<<<1, 1>>>(d);
#if 0
  undeclared_kernel<<<1, 1>>>(d);
#endif
}
"""


def test_semantic_mode_rewrites_only_confirmed_launches() -> None:
    """The AST confirms the real launch; the one in a dead #if 0 arm is not a launch the
    compiler sees. Both paths leave the dead arm as it is and report nothing there (issue
    25: the HIP build's preprocessor model is every rule's, the token path's too)."""
    target = Target(launch_syntax="hip")
    tokens = translate_source(LAUNCHES, "l.cu", target)
    semantic = translate_source(LAUNCHES, "l.cu", target, EngineOptions(semantic=True))
    for result in (tokens, semantic):
        assert result.output.count(b"hipLaunchKernelGGL(") == 1
        assert b"hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, d)" in result.output
        assert b"undeclared_kernel<<<1, 1>>>(d)" in result.output
        assert not [f for f in result.findings if f.location.line == 6]
