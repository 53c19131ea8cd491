"""No silent pass (issue 30 item 5): `.hip` files are scanned, headers with every common
C++/CUDA header suffix are read, a suppression comment inside a string literal is no
suppression (after `u'"'`, `u8'"'`, `L'"'` or a backslash-newline in a string), and a
FIFO or socket named like a source is a finding, not a quiet skip."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tests.reliability_support import hipport

UNPORTED = b"#include <cuda_runtime.h>\nint main() { cudaInitDevice(0, 0, 0); return 0; }\n"
HALF_PORTED = b"#include <hip/hip_runtime.h>\nint main() { cudaInitDevice(0, 0, 0); return 0; }\n"


def test_a_half_ported_hip_file_fails_the_gate(tmp_path: Path) -> None:
    (tmp_path / "k.hip").write_bytes(HALF_PORTED)
    r = hipport(["check", tmp_path / "k.hip"], tmp_path / "c")
    assert r.returncode == 1, r.stdout + r.stderr
    assert b"cudaInitDevice" in r.stdout and b"HIP001" in r.stdout


def test_check_of_hip_suffix_output_sees_what_is_left(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_bytes(UNPORTED)
    out = tmp_path / "out"
    hipport(["translate", src, "-o", out, "--hip-suffix", "--no-progress"], tmp_path / "c")
    assert (out / "k.hip").is_file()
    r = hipport(["check", out], tmp_path / "c")
    assert r.returncode == 1 and b"cudaInitDevice" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize(
    "suffix",
    [".hxx", ".tpp", ".ipp", ".tcc", ".txx", ".cuinl", ".c++", ".cp", ".ixx", ".cppm", ".cu.in"],
)
def test_every_common_source_suffix_is_read(tmp_path: Path, suffix: str) -> None:
    (tmp_path / f"detail{suffix}").write_bytes(b"inline void f() { cudaInitDevice(0, 0, 0); }\n")
    r = hipport(["check", tmp_path], tmp_path / "c")
    assert r.returncode == 1 and b"cudaInitDevice" in r.stdout, r.stdout + r.stderr


# each: a line where a `// hipport: ignore` sits inside a string literal, so it silences
# nothing, and the unported call on that line must still be reported
IN_STRINGS = {
    "u": b"""char16_t q = u'"'; const char *s = "// hipport: ignore"; cudaInitDevice(0, 0, 0);""",
    "u8": b"""char q = u8'"'; const char *s = "// hipport: ignore"; cudaInitDevice(0, 0, 0);""",
    "L": b"""wchar_t q = L'"'; const char *s = "// hipport: ignore"; cudaInitDevice(0, 0, 0);""",
    "U": b"""char32_t q = U'"'; const char *s = "// hipport: ignore"; cudaInitDevice(0, 0, 0);""",
    "splice-crlf": b'const char *s = "a\\\r\n// hipport: ignore"; cudaInitDevice(0, 0, 0);',
}


@pytest.mark.parametrize("case", IN_STRINGS)
def test_a_suppression_inside_a_string_literal_is_no_suppression(case: str) -> None:
    from hipport.suppressions import parse

    source = b"#include <cuda_runtime.h>\nvoid f() {\n" + IN_STRINGS[case] + b"\n}\n"
    assert parse(source, "a.cu") == []


@pytest.mark.parametrize("case", ["u", "splice-crlf"])
def test_a_suppression_inside_a_string_literal_does_not_pass_the_gate(
    tmp_path: Path, case: str
) -> None:
    source = b"#include <cuda_runtime.h>\nvoid f() {\n" + IN_STRINGS[case] + b"\n}\n"
    (tmp_path / "a.cu").write_bytes(source)
    r = hipport(["check", tmp_path / "a.cu"], tmp_path / "c")
    assert r.returncode == 1 and b"cudaInitDevice" in r.stdout, r.stdout + r.stderr


def test_digit_separators_are_still_no_quotes() -> None:
    from hipport.suppressions import parse

    source = b"int n = 1'000'000; int h = 0xFF'FF; // hipport: ignore[HIP001]\n"
    assert [s.line for s in parse(source, "a.cu")] == [1]


@pytest.mark.parametrize("kind", ["fifo", "socket"])
def test_a_fifo_or_socket_named_like_a_source_is_a_finding(tmp_path: Path, kind: str) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(b"int a;\n")
    special = tree / "x.cu"
    if kind == "fifo":
        os.mkfifo(special)
        r = hipport(["check", tree], tmp_path / "c")
    else:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.bind(str(special))
            r = hipport(["check", tree], tmp_path / "c")
    assert r.returncode == 1, r.stdout + r.stderr
    assert b"x.cu" in r.stdout and b"HIP20" in r.stdout, r.stdout
