"""Encodings and layout through the CLI: every byte outside the renamed tokens is kept.

The expectation is computed without hipport: the input with the few CUDA names it must
rename replaced byte for byte (tests/reliability_support.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.reliability_support import cuda_file, expected, hipport

MB = 1024 * 1024

CASES: dict[str, bytes] = {
    "utf8.cu": cuda_file(
        b'    const char *s = "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac"; // \xe2\x9c\x93 a comment'
    ),
    "utf8_bom.cu": b"\xef\xbb\xbf" + cuda_file(b"    // BOM first \xc3\xa9"),
    "latin1.cu": cuda_file(b'    const char *s = "\xe9t\xe9 \xff"; /* caf\xe9 \xb5s */'),
    "crlf.cu": cuda_file(b"    int crlf = 1;", nl=b"\r\n"),
    "lf.cu": cuda_file(b"    int lf = 1;"),
    "mixed.cu": cuda_file(b"    int a = 1;\r\n    int b = 2;\r    int c = 3;", nl=b"\n").replace(
        b"{\n", b"{\r\n"
    ),
    "tabs.cu": cuda_file(b"\tint\ttab\t=\t1;\t\t").replace(b"    ", b"\t"),
    "no_final_newline.cu": cuda_file().rstrip(b"\n"),
    "crlf_no_final_newline.cu": cuda_file(nl=b"\r\n").rstrip(b"\r\n"),
    "trailing_spaces.cu": cuda_file(b"    int x = 1;   \t ").replace(b";\n", b";  \n"),
    # a 1 MB line with code after a long literal, and one after a long comment (a 1 MB line
    # of dense tokens, e.g. a generated table, works too but takes ~40 s: lexing is linear
    # at ~40 us per token)
    "long_line.cu": cuda_file(
        b'    const char *s = "'
        + b"y" * MB
        + b'"; cudaFree(0); int a[] = {'
        + b"0," * 2000
        + b"0};"
    ),
    "long_block_comment.cu": cuda_file(b"    /* " + b"z\t" * (MB // 2) + b" */ cudaMalloc(0, 0);"),
    "long_comment.cu": cuda_file(b"    // " + b"x" * MB),
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("enc")
    for name, data in CASES.items():
        (root / name).write_bytes(data)
    (root / "binary.cu").write_bytes(b"cudaMalloc(\0\1\2);\n" + bytes(range(256)))
    return root


def test_inputs_are_what_they_claim() -> None:
    assert CASES["utf8_bom.cu"].startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in CASES["mixed.cu"] and b"\r " in CASES["mixed.cu"]
    assert b"\n" not in CASES["crlf.cu"].replace(b"\r\n", b"")
    assert not CASES["no_final_newline.cu"].endswith(b"\n")
    assert max(map(len, CASES["long_line.cu"].split(b"\n"))) > MB
    with pytest.raises(UnicodeDecodeError):
        CASES["latin1.cu"].decode("utf-8")


@pytest.mark.parametrize("mode", ["in-place", "outdir"])
@pytest.mark.slow
def test_bytes_outside_edits_are_preserved(tree: Path, tmp_path: Path, mode: str) -> None:
    work = tmp_path / "src"
    work.mkdir()
    for p in tree.iterdir():
        (work / p.name).write_bytes(p.read_bytes())
    binary_before = (work / "binary.cu").stat()
    if mode == "in-place":
        proc = hipport(
            ["translate", work, "--in-place", "-j", "2", "--no-progress"], tmp_path / "cache"
        )
        out = work
    else:
        out = tmp_path / "out"
        proc = hipport(
            ["translate", work, "-o", out, "-j", "2", "--no-progress"], tmp_path / "cache"
        )
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0, stderr
    for name, data in CASES.items():
        got = (out / name).read_bytes()
        want = expected(data)
        assert got == want, f"{name}: {_first_difference(got, want)}"
    # the binary file: skipped with a message, left exactly as it was
    assert (out / "binary.cu").read_bytes() == (tree / "binary.cu").read_bytes()
    assert "binary.cu: skipped: binary file (contains NUL bytes)" in stderr
    if mode == "in-place":
        after = (work / "binary.cu").stat()
        assert (after.st_ino, after.st_mtime_ns) == (
            binary_before.st_ino,
            binary_before.st_mtime_ns,
        )


def _first_difference(got: bytes, want: bytes) -> str:
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return f"differs at byte {i}: {got[i - 20 : i + 20]!r} vs {want[i - 20 : i + 20]!r}"
    return f"length {len(got)} vs {len(want)}"


@pytest.mark.slow
def test_second_run_changes_nothing(tmp_path: Path) -> None:
    """Idempotence on odd layouts: translating the translation is a no-op."""
    work = tmp_path / "src"
    work.mkdir()
    for name in ("crlf.cu", "mixed.cu", "latin1.cu", "utf8_bom.cu", "no_final_newline.cu"):
        (work / name).write_bytes(expected(CASES[name]))
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in work.iterdir()}
    proc = hipport(
        ["translate", work, "--in-place", "-j", "1", "--no-progress"], tmp_path / "cache"
    )
    assert proc.returncode == 0, proc.stderr
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in work.iterdir()} == before


@pytest.mark.slow
def test_binary_named_explicitly_is_skipped_not_failed(tmp_path: Path) -> None:
    f = tmp_path / "blob.cu"
    data = b"\x7fELF\0\0cudaMalloc"
    f.write_bytes(data)
    os.utime(f, ns=(1, 1))
    proc = hipport(["translate", f, "--in-place", "--no-progress"], tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    assert f.read_bytes() == data and f.stat().st_mtime_ns == 1
    assert b"skipped: binary file" in proc.stderr
