"""Invariants over every pair input and mutations of it (hypothesis):

- translating twice equals translating once;
- HIP input (an expected output, a .hip file) passes through unchanged;
- re-lexing the output gives the input's tokens except at the edits;
- every byte outside the edits is identical (CRLF, tabs, Latin-1 comments, BOM).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipport.edits import Edit
from hipport.engine import EngineOptions, TranslationResult, translate_source
from hipport.lexer import lex
from hipport.target import Target

CASES = Path(__file__).parent / "cases" / "engine"
PAIRS = sorted(CASES.rglob("*.cu"))
TARGETS = [
    Target(),
    Target(rocm="5.2", launch_syntax="hip"),
    Target(roc=True, translate_strings=True),
]


def _target(path: Path) -> Target:
    cfg_file = path.with_suffix(".target.json")
    cfg = json.loads(cfg_file.read_text()) if cfg_file.exists() else {}
    cfg.pop("options", None)
    cfg.pop("path", None)
    return Target(**cfg)


def translate(source: bytes, target: Target, path: str = "m.cu") -> TranslationResult:
    return translate_source(source, path, target, EngineOptions())


def check_bytes_outside_edits(result: TranslationResult) -> None:
    src, out = result.source, result.output
    pos = shift = 0
    for edit in sorted(result.edits, key=lambda e: (e.start, e.end)):
        assert src[pos : edit.start] == out[pos + shift : edit.start + shift]
        shift += len(edit.new) - (edit.end - edit.start)
        pos = edit.end
    assert src[pos:] == out[pos + shift :]


def _shifted(edits: list[Edit], offset: int) -> int | None:
    """Where input byte `offset` lands in the output; None if an edit replaced it."""
    shift = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start <= offset < edit.end:
            return None
        if edit.end <= offset:
            shift += len(edit.new) - (edit.end - edit.start)
    return offset + shift


def check_tokens_outside_edits(result: TranslationResult) -> None:
    if b"\0" in result.source or not result.edits:
        return
    out_tokens = {(t.start, t.text) for t in lex(result.output)}
    for tok in lex(result.source):
        if any(e.start < tok.end and tok.start < e.end for e in result.edits):
            continue  # the token was edited
        if any(tok.start < e.start < tok.end for e in result.edits):
            continue  # an insert inside (never happens for whole-token rules)
        at = _shifted(result.edits, tok.start)
        assert at is not None and (at, tok.text) in out_tokens, f"token {tok.text!r} lost"


def check_all(source: bytes, target: Target, path: str = "m.cu") -> TranslationResult:
    once = translate(source, target, path)
    assert once.error is None
    check_bytes_outside_edits(once)
    check_tokens_outside_edits(once)
    twice = translate(once.output, target, path)
    assert twice.output == once.output, "translation is not idempotent"
    return once


@pytest.mark.parametrize("path", PAIRS, ids=lambda p: p.relative_to(CASES).as_posix())
def test_pair_invariants(path: Path) -> None:
    source = path.read_bytes()
    target = _target(path)
    check_all(source, target)
    expected = path.with_suffix(".hip.expected").read_bytes()
    if not path.with_suffix(".target.json").exists():
        # the expected output is HIP: translating it changes nothing
        assert translate(expected, target).output == expected


def _mutate(source: bytes, crlf: bool, bom: bool, tabs: bool, comment_at: int) -> bytes:
    lines = source.split(b"\n")
    if lines:
        k = comment_at % len(lines)
        if not lines[k].rstrip().endswith(b"\\"):
            lines[k] = lines[k] + b" /* caf\xe9 cudaMalloc \xff */"
    if tabs:
        lines = [b"\t" + line if line and not line.startswith(b"#") else line for line in lines]
    out = b"\n".join(lines)
    if crlf:
        out = out.replace(b"\n", b"\r\n")
    if bom:
        out = b"\xef\xbb\xbf" + out
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(PAIRS),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(min_value=0, max_value=50),
    st.sampled_from(TARGETS),
)
@pytest.mark.slow
def test_mutated_invariants(
    path: Path, crlf: bool, bom: bool, tabs: bool, comment_at: int, target: Target
) -> None:
    source = _mutate(path.read_bytes(), crlf, bom, tabs, comment_at)
    result = check_all(source, target)
    if crlf and result.output != result.source:
        # no bare LF is introduced into a CRLF file
        assert result.output.count(b"\n") == result.output.count(b"\r\n")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PAIRS), st.sampled_from(TARGETS))
def test_hip_suffix_translates_as_cu(path: Path, target: Target) -> None:
    """A .hip file is translated like any source (issue 30: a half-ported .hip file was
    passed through unscanned)."""
    source = path.read_bytes()

    def body(output: bytes) -> list[bytes]:  # a .cu file may get the runtime include added
        # the include's text goes, not its line: after a BOM, the BOM stays on the line
        output = re.sub(rb'#include [<"]hip/hip_runtime\.h[>"]\r?\n', b"", output, count=1)
        return output.splitlines()

    as_hip, as_cu = translate(source, target, "m.hip"), translate(source, target, "m.cu")
    assert body(as_hip.output) == body(as_cu.output)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                b"cudaMalloc",
                b"(",
                b")",
                b"<<<",
                b">>>",
                b",",
                b";",
                b"\n",
                b" ",
                b"::",
                b".",
                b"->",
                b"#include <cuda.h>\n",
                b"#define X ",
                b"\\\n",
                b"//c\n",
                b"/*c*/",
                b'"cudaFree"',
                b"k",
                b"<",
                b">",
                b"__global__",
                b"cudaMemcpyToSymbol",
                b"CUDA_X",
                b"\r\n",
                b"\xe9",
            ]
        ),
        max_size=40,
    ),
    st.sampled_from(TARGETS),
)
@pytest.mark.slow
def test_random_token_soup(parts: list[bytes], target: Target) -> None:
    check_all(b"".join(parts), target)
