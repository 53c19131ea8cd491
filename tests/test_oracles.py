"""The fast code agrees with its reference implementations (tests/oracles/): the names a
file declares (rules/declared.py's candidate search against the plain declaration walk it
replaced) and the code index's bracket matching and argument splitting (against a list
walk), on hypothesis token soups, every C/C++/CUDA source under tests/ and the bench corpus
generator's output."""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipport.lexer import LexError
from tests.oracles import adapter, brackets, declared

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".c", ".hip", ".inl")
NEAR = (None, 0)  # the code's own walk-or-depths choice; the whole file's depths always


def source_files() -> list[Path]:
    return sorted(p for p in (ROOT / "tests").rglob("*") if p.suffix in SUFFIXES and p.is_file())


@pytest.fixture(scope="module")
def bench_sources(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("bench")
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "generate.py"), str(out), "--files", "30"],
        check=True,
        capture_output=True,
    )
    found = sorted(p for p in out.rglob("*") if p.suffix in SUFFIXES)
    assert len(found) >= 30
    return found


def names_disagree(source: bytes) -> str | None:
    try:
        lexed = adapter.lexed(source)
    except LexError:
        return None
    want = declared.names_defined_by(lexed.tokens, lexed.directives, adapter.nvcc_macros())
    got = adapter.fast_names(source)
    if got == want:
        return None
    return f"fast only: {sorted(got - want)}; oracle only: {sorted(want - got)}"


def brackets_disagree(source: bytes, near: int | None) -> str | None:
    try:
        lexed = adapter.lexed(source)
    except LexError:
        return None
    code = lexed.code
    with adapter.fast_brackets(source, near) as fast:
        if fast.code != code:
            return "the code index's tokens are not the code tokens"
        for k in range(len(code)):
            want = brackets.match(code, k)
            limits = [None, k + 1, k + 2, k + 8] + ([want, want + 1] if want is not None else [])
            for limit in limits:
                got = fast.match(k, limit)
                expected = brackets.match(code, k, limit)
                if got != expected:
                    return f"match({k}, {limit}): fast {got}, oracle {expected}"
            if want is not None:
                got_args, want_args = fast.arguments(k, want), brackets.arguments(code, k, want)
                if got_args != want_args:
                    return f"arguments({k}, {want}): fast {got_args}, oracle {want_args}"
    return None


def _disagreements(paths: list[Path], check) -> list[str]:  # check: bytes -> str | None
    out = []
    for path in paths:
        why = check(path.read_bytes())
        if why:
            out.append(f"{path}: {why}")
    return out


@pytest.mark.slow
def test_names_agree_on_the_test_sources() -> None:
    paths = source_files()
    assert len(paths) > 100
    assert _disagreements(paths, names_disagree) == []


@pytest.mark.slow
def test_names_agree_on_the_bench_corpus(bench_sources: list[Path]) -> None:
    assert _disagreements(bench_sources, names_disagree) == []


@pytest.mark.parametrize("near", NEAR)
@pytest.mark.slow
def test_brackets_agree_on_the_test_sources(near: int | None) -> None:
    assert _disagreements(source_files(), partial(brackets_disagree, near=near)) == []


@pytest.mark.parametrize("near", NEAR)
@pytest.mark.slow
def test_brackets_agree_on_the_bench_corpus(bench_sources: list[Path], near: int | None) -> None:
    assert _disagreements(bench_sources, partial(brackets_disagree, near=near)) == []


# --- token soups --------------------------------------------------------------------------

WORDS = [
    "int", "float", "unsigned", "const", "static", "auto", "void", "struct", "class", "enum",
    "union", "typedef", "using", "template", "typename", "namespace", "return", "if", "for",
    "__global__", "__device__", "operator", "Buffer", "cudaStream_t", "x", "y", "cuda_n",
    "CUDA_CHECK", "CUDART_VERSION", "T", "N", "defined", "define", "ifdef", "sizeof",
]  # fmt: skip
PUNCT = [
    "(", ")", "[", "]", "{", "}", "<", ">", ">>", ",", ";", "=", "*", "&", "&&", "**", "::",
    ":", "+", "<<<", ">>>", ".", "->",
]  # fmt: skip
OTHER = ["0", "32", '"s(,)"', "'c'", "/* c, ( */", "// line\n", "\\\n"]
PIECE = st.sampled_from(WORDS + PUNCT + OTHER)
SPACE = st.sampled_from([" ", " ", " ", "\n", "\n#", "\n# define ", "\n#if ", "\n#ifdef "])


@st.composite
def soups(draw: st.DrawFn) -> bytes:
    pieces = draw(st.lists(st.tuples(PIECE, SPACE), max_size=80))
    return "".join(p + s for p, s in pieces).encode()


SOUP = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SOUP
@given(soups())
@pytest.mark.slow
def test_names_agree_on_token_soups(source: bytes) -> None:
    assert names_disagree(source) is None


@SOUP
@given(soups(), st.sampled_from(NEAR))
@pytest.mark.slow
def test_brackets_agree_on_token_soups(source: bytes, near: int | None) -> None:
    assert brackets_disagree(source, near) is None


def test_the_oracles_see_what_they_should() -> None:
    """The oracles are not vacuous: they find names and pairs where there are some."""
    lexed = adapter.lexed(b"#define M 1\nint a = f(x, g(y, z)), b;\nenum E { R, G };\n")
    found = declared.names_defined_by(lexed.tokens, lexed.directives, frozenset())
    assert found == {"M", "a", "b", "E", "R", "G"}
    code = lexed.code
    k = [t for _, t in code].index("(")
    close = brackets.match(code, k)
    assert close is not None and code[close][1] == ")"
    assert len(brackets.arguments(code, k, close)) == 2
