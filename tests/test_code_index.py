"""The code-token index (hipport.rules.code_index): what it builds from the lexer's
columns at C speed must be what a plain walk over the tokens gives."""

from __future__ import annotations

import pytest

from hipport.engine import _context
from hipport.lexer import COMMENT, IDENTIFIER, PUNCTUATION, lex_columns
from hipport.options import EngineOptions
from hipport.rules import code_index
from hipport.rules.code_index import CodeIndex
from hipport.rules.tokens import OPENERS, matching, split_args
from hipport.target import Target

SOURCES = [
    b"",
    b"// only a comment\n",
    b"int x;\n",
    b"/* a */ /* b */ int f(int a) { return a % 32; } // tail",
    b"#include <mma.h> // wmma\n#define W 32 /* w */\n"
    b"__global__ void k(float *p) { /* c */ int lane = threadIdx.x & 31; p[lane] = (p[0]); }\n"
    b"void h() const { if (x) { y(); } }\n",
    b"void bad() { ( ] } int g() { [ ( ) }\n",  # brackets that do not match
    b"f(a[1], {b, c}) ) ( { [\n",  # unbalanced at both ends
    b"int a; /* x */ // y\n/* z */ int b = a /* q */ + 1;\n#if 1 // c\n#endif\n",
]


def _index(source: bytes) -> CodeIndex:
    ctx = _context(source, lex_columns(source), "t.cu", Target(), EngineOptions())
    return CodeIndex(ctx, frozenset({"%", "&", "x"}))


@pytest.mark.parametrize("moves", [code_index._MAX_MOVES, 0])  # deleted or joined
@pytest.mark.parametrize("source", SOURCES)
def test_columns_are_the_code_tokens(
    source: bytes, moves: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(code_index, "_MAX_MOVES", moves)
    v = _index(source)
    made_first = bool(moves)  # the Token objects made before the index reads them, or not
    tokens = v.ctx.tokens if made_first else v.ctx.lexed.tokens()
    assert ("tokens" in v.ctx.__dict__) == made_first
    code = [i for i, t in enumerate(tokens) if t.kind != COMMENT]
    assert v.orig == code
    assert list(v.toks) == [tokens[i] for i in code]
    assert v.toks[-1:] == [tokens[i] for i in code[-1:]]
    assert v.texts == [tokens[i].text for i in code]
    assert v.kinds == [tokens[i].kind for i in code]
    assert v.n == len(code)


@pytest.mark.parametrize("source", SOURCES)
def test_indices_are_a_scan_of_the_code_tokens(source: bytes) -> None:
    v = _index(source)
    asks = [("%",), ("&", "%"), ("x", "lane"), ("{",), ("return", "int"), ("absent",)]
    for texts in asks:
        for kinds in ((IDENTIFIER,), (PUNCTUATION,), ("keyword", IDENTIFIER)):
            expected = [k for k, t in enumerate(v.toks) if t.text in texts and t.kind in kinds]
            assert v.indices(texts, kinds) == expected, (texts, kinds)


@pytest.mark.parametrize("near", [code_index._NEAR, 2, 0])  # walked, both, depths only
@pytest.mark.parametrize("source", SOURCES)
def test_match_is_tokens_matching(
    source: bytes, near: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(code_index, "_NEAR", near)
    v = _index(source)
    for k in range(v.n):
        assert v.match(k) == matching(v.toks, k), k
        if v.texts[k] in OPENERS:
            for limit in range(k, v.n + 1):
                assert v.match(k, limit) == matching(v.toks, k, limit), (k, limit)


@pytest.mark.parametrize("source", SOURCES + [b"f(a, g(b, c), d[1, 2], {e, f}) h() k( x ) m(,)"])
@pytest.mark.parametrize("near", [code_index._NEAR, 0])  # walked, from the depths
def test_arguments_are_tokens_split_args(
    source: bytes, near: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(code_index, "_NEAR", near)
    v = _index(source)
    for k in range(v.n):
        close = v.match(k)
        if close is not None:
            assert v.arguments(k, close) == split_args(v.toks, k, close), k


@pytest.mark.parametrize("source", SOURCES)
def test_directive_lines(source: bytes) -> None:
    v = _index(source)
    inside = {k for _, a, b in v.directive_ranges for k in range(a, b)}
    assert [k for k in range(v.n) if v.in_directive_at(k)] == sorted(inside)
    for _, a, b in v.directive_ranges:
        assert v.toks[a].text == "#"
        assert all(v.toks[k].end <= v.toks[b - 1].end for k in range(a, b))


def test_bodies_skip_nested_braces_and_directives() -> None:
    v = _index(SOURCES[4])
    assert [(v.texts[b.head], b.name) for b in v.bodies] == [("__global__", "k"), ("void", "h")]
    for b in v.bodies:
        assert v.texts[b.open] == "{"
        assert b.close == matching(v.toks, b.open)
