"""A CUDA name the tables know is renamed or reported whatever precedes it (issue 19 item 3):
a keyword (or a CUDA qualifier macro) before a global `::` is not a namespace, so
`static ::cudaStream_t s;` and `return ::cudaMemcpy3DPeer(...)` are translated like the
unqualified names; `mylib::cudaMalloc` (a user's namespace) stays the user's.

Every snippet is real CUDA: one test compiles them all with nvcc where it is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.engine import translate_source
from hipport.target import Target

HEADER = b"#include <cuda_runtime.h>\n"

# (keyword or context, a declaration or function that uses a CUDA name after it, the name)
CASES: list[tuple[str, str, str]] = [
    ("return", "cudaError_t f1() { return ::cudaDeviceSynchronize(); }", "cudaDeviceSynchronize"),
    (
        "return-3dpeer",
        "cudaError_t f2(cudaMemcpy3DPeerParms *p) { return ::cudaMemcpy3DPeer(p); }",
        "cudaMemcpy3DPeer",
    ),
    ("static", "static ::cudaStream_t s3;", "cudaStream_t"),
    ("const", "const ::cudaMemcpyKind k4 = cudaMemcpyHostToHost;", "cudaMemcpyKind"),
    ("volatile", "volatile ::cudaError_t e5;", "cudaError_t"),
    ("extern", "extern ::cudaStream_t s6;", "cudaStream_t"),
    ("inline", "inline ::cudaError_t f7() { return cudaSuccess; }", "cudaError_t"),
    ("constexpr", "constexpr ::cudaMemcpyKind k8 = cudaMemcpyHostToHost;", "cudaMemcpyKind"),
    ("thread_local", "thread_local ::cudaStream_t s9;", "cudaStream_t"),
    ("typedef", "typedef ::cudaStream_t stream10;", "cudaStream_t"),
    ("using", "using stream11 = ::cudaStream_t;", "cudaStream_t"),
    ("using-decl", "namespace n12 { using ::cudaMalloc; }", "cudaMalloc"),
    ("struct", "struct ::cudaDeviceProp prop13;", "cudaDeviceProp"),
    ("enum", "enum ::cudaMemcpyKind k14 = cudaMemcpyHostToHost;", "cudaMemcpyKind"),
    ("typename", "template <class T> void f15() { typename ::cudaStream_t s; }", "cudaStream_t"),
    ("sizeof", "unsigned long n16 = sizeof ::cudaMemcpyHostToDevice;", "cudaMemcpyHostToDevice"),
    ("alignof-paren", "unsigned long n17 = alignof(::cudaDeviceProp);", "cudaDeviceProp"),
    ("new", "::cudaStream_t *f18() { return new ::cudaStream_t; }", "cudaStream_t"),
    ("throw", "void f20() { throw ::cudaErrorInvalidValue; }", "cudaErrorInvalidValue"),
    (
        "case",
        "int f21(int v) { switch (v) { case ::cudaMemcpyHostToDevice: return 1; } return 0; }",
        "cudaMemcpyHostToDevice",
    ),
    (
        "else",
        "cudaError_t f22(int v) { if (v) return cudaSuccess; else ::cudaDeviceReset(); "
        "return cudaSuccess; }",
        "cudaDeviceReset",
    ),
    ("do", "void f23() { do ::cudaDeviceSynchronize(); while (0); }", "cudaDeviceSynchronize"),
    ("public", "struct B24 : public ::cudaDeviceProp {};", "cudaDeviceProp"),
    ("private", "struct B25 : private ::cudaDeviceProp {};", "cudaDeviceProp"),
    ("protected", "struct B26 : protected ::cudaDeviceProp {};", "cudaDeviceProp"),
    ("virtual", "struct B27 : virtual ::cudaDeviceProp {};", "cudaDeviceProp"),
    ("friend", "struct F28 { friend ::cudaError_t f28b(); };", "cudaError_t"),
    ("mutable", "struct M29 { mutable ::cudaStream_t s; };", "cudaStream_t"),
    ("explicit", "struct E30 { explicit E30(::cudaStream_t s); };", "cudaStream_t"),
    ("operator", "struct O31 { operator ::cudaStream_t() const; };", "cudaStream_t"),
    ("not", "bool f32(int v) { return not ::cudaGetLastError(); }", "cudaGetLastError"),
    ("and", "bool f33(int v) { return v and ::cudaGetLastError(); }", "cudaGetLastError"),
    ("__host__", "__host__ ::cudaError_t f34();", "cudaError_t"),
    ("__host__ __device__", "__host__ __device__ ::cudaError_t f35();", "cudaError_t"),
    ("paren", "cudaError_t f36() { return (::cudaDeviceSynchronize()); }", "cudaDeviceSynchronize"),
    ("initialiser", "int k37 = ::cudaMemcpyHostToDevice;", "cudaMemcpyHostToDevice"),
    ("braced", "int k38[] = {::cudaMemcpyHostToDevice};", "cudaMemcpyHostToDevice"),
    ("template-arg", "template <class T> struct W39 {}; W39<::cudaStream_t> w39;", "cudaStream_t"),
    (
        "template-arg-2",
        "template <class A, class B> struct W40 {}; W40<int, ::cudaStream_t> w40;",
        "cudaStream_t",
    ),
    ("attribute", "[[maybe_unused]] ::cudaStream_t s41;", "cudaStream_t"),
    ("gnu-attribute", "__attribute__((unused)) ::cudaStream_t s42;", "cudaStream_t"),
    ("alignas", "alignas(16) ::cudaStream_t s43;", "cudaStream_t"),
]


def _translated(body: str):
    return translate_source(HEADER + body.encode() + b"\n", "a.cu", Target(rocm="6.2"))


@pytest.mark.parametrize(("context", "body", "name"), CASES, ids=[c[0] for c in CASES])
def test_cuda_name_after_global_qualifier_is_handled(context: str, body: str, name: str) -> None:
    r = _translated(body)
    line = r.output.splitlines()[-1].decode()
    reported = {f.api for f in r.findings}
    # the name is gone from its line (renamed) or a finding names it
    assert not re.search(rf"\b{name}\b", line) or name in reported, (context, line)


def test_user_namespace_stays_the_users() -> None:
    r = _translated("namespace mylib { int cudaMalloc(int); } int v = mylib::cudaMalloc(0);")
    assert b"mylib::cudaMalloc(0)" in r.output
    assert not [f for f in r.findings if f.api == "cudaMalloc"]


def test_template_qualified_name_stays_the_users() -> None:
    r = _translated(
        "template <class T> struct Lib { static int cudaMalloc(int); };"
        " int v = Lib<int>::cudaMalloc(0);"
    )
    assert b"Lib<int>::cudaMalloc(0)" in r.output


@pytest.mark.nvcc
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_cases_are_real_cuda(tmp_path: Path) -> None:
    source = HEADER + b"\n".join(c[1].encode() for c in CASES) + b"\n"
    path = tmp_path / "cases.cu"
    path.write_bytes(source)
    done = subprocess.run(
        ["nvcc", "-std=c++17", "-c", "-o", str(tmp_path / "cases.o"), str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
