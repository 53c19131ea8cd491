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


# --- a file whose lines end in a lone CR (clang's convention: \n, \r and \r\n break lines) --

LONE_CR = b"\r".join(
    (
        b"#include <cuda_runtime.h>",
        b"void g() { cudaNoSuch0(); }",
        b"void f() {",
        b"  cudaNoSuch1(); // hipport: ignore",
        b"  int x; // hipport: ignore[HIP004]",
        b"  cudaNoSuch2();",
        b"}",
        b"",
    )
)


def test_a_lone_cr_file_is_read_in_clang_lines(tmp_path: Path) -> None:
    """Each suppression silences its own line (counted as the findings are: before, the
    whole file was line 1 for suppressions, and the #include directive ran to the end of
    the file, so no name after it was reported) and each excerpt shows the line it names."""
    import json

    (tmp_path / "cr.cu").write_bytes(LONE_CR)
    r = hipport(["check", tmp_path / "cr.cu", "--format", "json", "--no-cache"], tmp_path / "c")
    assert r.returncode == 1, r.stderr
    report = json.loads(r.stdout)
    got = [(f["code"], f["location"]["line"], f["location"]["column"]) for f in report["findings"]]
    assert got == [("HIP004", 2, 12), ("HIP201", 5, 13), ("HIP004", 6, 3)]
    assert report["summary"]["suppressed"] == 1
    assert report["totals"]["lines"] == 7
    text = hipport(["check", tmp_path / "cr.cu", "--no-cache"], tmp_path / "c").stdout
    assert b"cr.cu:5:13: warning: unused suppression" in text, text
    assert b"    5 |   int x; // hipport: ignore[HIP004]\n" in text, text
    assert b"    6 |   cudaNoSuch2();\n" in text, text


# --- a line splice inside a name --------------------------------------------------------

SPLICED = (
    b"#include <cuda_runtime.h>\n"
    b"void f() {\n"
    b"  float *p;\n"
    b"  cudaMal\\\nloc(&p, 4);\n"
    b"  cudaFr\\\r\n\\\nee(p);\n"
    b"  cudaNoSu\\\nch(); int after_it;\n"
    b"}\n"
)
# Each name is renamed; the splices it held come before the new name, so every line keeps
# its number (the name is next to the bytes around it as the compiler reads them).
SPLICED_HIP = (
    b"#include <hip/hip_runtime.h>\n"
    b"void f() {\n"
    b"  float *p;\n"
    b"  \\\nhipMalloc(&p, 4);\n"
    b"  \\\r\n\\\nhipFree(p);\n"
    b"  cudaNoSu\\\nch(); int after_it;\n"
    b"}\n"
)


def test_a_line_splice_inside_a_name_is_translated_or_reported(tmp_path: Path) -> None:
    """`cudaMal\\` newline `loc` is cudaMalloc to the compiler: before, it was neither
    translated nor reported (and an unknown name so spelled was no HIP004)."""
    import json

    src = tmp_path / "sp.cu"
    src.write_bytes(SPLICED)
    r = hipport(["translate", src, "--stdout", "--no-cache"], tmp_path / "c")
    assert r.stdout == SPLICED_HIP, r.stdout
    r = hipport(["check", src, "--format", "json", "--no-cache"], tmp_path / "c")
    report = json.loads(r.stdout)
    got = [(f["code"], f["api"], f["location"]["line"]) for f in report["findings"]]
    assert got == [("HIP004", "cudaNoSuch", 9)]  # where the name starts
    assert {a["api"] for a in report["apis"]} >= {"cudaMalloc", "cudaFree"}


@pytest.mark.hipcc
def test_a_spliced_name_translated_compiles(tmp_path: Path) -> None:
    import subprocess

    out = tmp_path / "sp.hip"
    out.write_bytes(SPLICED_HIP.replace(b"  cudaNoSu\\\nch(); int after_it;\n", b""))
    cmd = ["hipcc", "-x", "hip", "--offload-arch=gfx90a", "-fsyntax-only", "-nogpulib", out]
    env = dict(os.environ, HIP_PLATFORM="amd")  # hipcc picks nvcc when CUDA is installed
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr


# --- a path longer than PATH_MAX ---------------------------------------------------------


def _deep_tree(top: Path, depth: int) -> None:
    """Directories of 200-byte names, `depth` deep, a source at the bottom: made through
    directory descriptors, as no path to it can be named."""
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d" * 200, dir_fd=fd)
            fd, old = os.open("d" * 200, os.O_RDONLY, dir_fd=fd), fd
            os.close(old)
        src = os.open("deep.cu", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(src, UNPORTED)
        os.close(src)
    finally:
        os.close(fd)


def test_a_path_longer_than_path_max_is_a_finding(tmp_path: Path) -> None:
    """Before, the directory the walk could not name was skipped with no finding and the
    gate passed."""
    import json

    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(b"int a;\n")
    _deep_tree(tree, 4500 // 201)  # past PATH_MAX (4096) whatever tmp_path is
    r = hipport(["check", tree, "--format", "json", "--no-cache"], tmp_path / "c")
    assert r.returncode == 1, r.stderr
    [finding] = json.loads(r.stdout)["findings"]
    assert finding["code"] == "HIP202", finding
    assert "path longer than the system allows" in finding["message"], finding


# --- what the walk leaves out by default is counted ----------------------------------------


def test_sources_left_out_by_default_are_counted(tmp_path: Path) -> None:
    """Build folders (build/, out/, cmake-build-*) and tracked files that .gitignore names
    are not checked, but no longer silently: the summary line counts them (before: no
    word). Version control and cache folders are not counted; a tree with nothing left
    out prints no such line."""
    import subprocess

    tree = tmp_path / "t"
    for folder in ("build/sub", "out", "cmake-build-debug", "node_modules", "gen"):
        (tree / folder).mkdir(parents=True)
    for name in ("a.cu", "build/b.cu", "build/sub/c.cuh", "out/d.cu", "cmake-build-debug/e.cu"):
        (tree / name).write_bytes(UNPORTED)
    for name in ("node_modules/n.cu", "gen/g.cu", "gen/untracked.cu", "ignored.cu"):
        (tree / name).write_bytes(UNPORTED)
    (tree / "build" / "notes.txt").write_bytes(b"not a source\n")
    (tree / ".gitignore").write_bytes(b"gen/\nignored.cu\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q", str(tree)], check=True)
    subprocess.run(
        [*git, "-C", str(tree), "add", "-f", "a.cu", "gen/g.cu", "ignored.cu"], check=True
    )
    want = (
        b"hipport: 6 files excluded by default: build/, cmake-build-debug/, out/, "
        b"tracked files .gitignore names\n"
    )
    for command in (["check", tree, "--no-cache"], ["translate", tree, "--diff", "--no-cache"]):
        r = hipport(command, tmp_path / "c")
        assert r.returncode == 1, r.stderr
        assert want in r.stderr, r.stderr
    r = hipport(["check", tree / "build", "--no-cache"], tmp_path / "c")  # nothing left out
    assert b"excluded by default" not in r.stderr, r.stderr
