"""The code view (hipport.tokens.CodeTokens) and the code-token index
(hipport.rules.code_index): what they build from the lexer's columns at C speed must be
what a plain walk over the tokens gives (the oracle matcher of tests/oracles/brackets.py,
and `_split_args` below, the list-based splitter the code view replaced)."""

from __future__ import annotations

import pytest

from hipport import tokens as token_model
from hipport.engine import _context
from hipport.lexer import COMMENT, IDENTIFIER, PUNCTUATION, Token, lex
from hipport.options import EngineOptions
from hipport.rules.code_index import CodeIndex
from hipport.target import Target
from hipport.tokens import CLOSERS, OPENERS
from tests.oracles import brackets

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
    ctx = _context(source, lex(source), "t.cu", Target(), EngineOptions())
    return CodeIndex(ctx, frozenset({"%", "&", "x"}))


def _split_args(tokens: list[Token], open_i: int, close_i: int) -> list[tuple[int, int]] | None:
    """The reference splitter between any two tokens (tests/oracles/brackets.py splits a
    matched pair): top-level comma-separated ranges, None if the brackets do not balance."""
    args: list[tuple[int, int]] = []
    depth = 0
    start = open_i + 1
    for j in range(open_i + 1, close_i):
        tok = tokens[j]
        if tok.kind != PUNCTUATION:
            continue
        if tok.text in OPENERS:
            depth += 1
        elif tok.text in CLOSERS:
            depth -= 1
            if depth < 0:
                return None
        elif tok.text == "," and depth == 0:
            args.append((start, j))
            start = j + 1
    if depth != 0:
        return None
    if not args and not any(tokens[k].kind != COMMENT for k in range(start, close_i)):
        return []
    args.append((start, close_i))
    return args


@pytest.mark.parametrize("moves", [token_model._MAX_MOVES, 0])  # deleted or joined
@pytest.mark.parametrize("source", SOURCES)
def test_columns_are_the_code_tokens(
    source: bytes, moves: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(token_model, "_MAX_MOVES", moves)
    all_tokens = lex(source)
    view = all_tokens.code()
    assert all_tokens.code() is view
    tokens = list(all_tokens)
    code = [i for i, t in enumerate(tokens) if t.kind != COMMENT]
    assert [view.to_all(k) for k in range(len(view))] == code
    assert [view.from_all(i) for i in code] == list(range(len(code)))
    # a comment maps to the next code token (or to the end)
    for i, t in enumerate(tokens):
        if t.kind == COMMENT:
            assert view.from_all(i) == sum(1 for j in code if j < i)
    assert list(view) == [tokens[i] for i in code]
    assert view[-1:] == [tokens[i] for i in code[-1:]]
    assert view.texts == [tokens[i].text for i in code]
    assert view.kinds == [tokens[i].kind for i in code]
    assert [view.start(k) for k in range(len(view))] == [tokens[i].start for i in code]
    assert len(view) == len(code)


@pytest.mark.parametrize("source", SOURCES)
def test_indices_are_a_scan_of_the_code_tokens(source: bytes) -> None:
    v = _index(source)
    asks = [("%",), ("&", "%"), ("x", "lane"), ("{",), ("return", "int"), ("absent",)]
    for texts in asks:
        for kinds in ((IDENTIFIER,), (PUNCTUATION,), ("keyword", IDENTIFIER)):
            expected = [k for k, t in enumerate(v.tokens) if t.text in texts and t.kind in kinds]
            assert v.indices(texts, kinds) == expected, (texts, kinds)


@pytest.mark.parametrize("near", [token_model._NEAR, 2, 0])  # walked, both, depths only
@pytest.mark.parametrize("source", SOURCES)
def test_match_is_the_reference_matcher(
    source: bytes, near: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(token_model, "_NEAR", near)
    view = lex(source).code()
    pairs = list(zip(view.kinds, view.texts, strict=True))
    for k in range(len(view)):
        assert view.match(k) == brackets.match(pairs, k), k
        if view.texts[k] in OPENERS:
            for limit in range(k, len(view) + 1):
                assert view.match(k, limit) == brackets.match(pairs, k, limit), (k, limit)


@pytest.mark.parametrize("source", SOURCES + [b"f(a, g(b, c), d[1, 2], {e, f}) h() k( x ) m(,)"])
@pytest.mark.parametrize("near", [token_model._NEAR, 0])  # walked, from the depths
def test_arguments_are_the_reference_splitter(
    source: bytes, near: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(token_model, "_NEAR", near)
    view = lex(source).code()
    tokens = list(view)
    for k in range(len(view)):
        close = view.match(k)
        if close is not None:
            assert view.arguments(k, close) == _split_args(tokens, k, close), k
        # any two tokens: unbalanced brackets between them give None, as the reference
        for end in range(k + 1, min(len(view), k + 6)):
            assert view.arguments(k, end) == _split_args(tokens, k, end), (k, end)


@pytest.mark.parametrize("source", SOURCES)
def test_directive_lines(source: bytes) -> None:
    v = _index(source)
    inside = {k for _, a, b in v.directive_ranges for k in range(a, b)}
    assert [k for k in range(len(v.tokens)) if v.in_directive_at(k)] == sorted(inside)
    for _, a, b in v.directive_ranges:
        assert v.tokens[a].text == "#"
        assert all(v.tokens[k].end <= v.tokens[b - 1].end for k in range(a, b))


def test_bodies_skip_nested_braces_and_directives() -> None:
    v = _index(SOURCES[4])
    texts = v.tokens.texts
    assert [(texts[b.head], b.name) for b in v.bodies] == [("__global__", "k"), ("void", "h")]
    for b in v.bodies:
        assert texts[b.open] == "{"
        pairs = list(zip(v.tokens.kinds, texts, strict=True))
        assert b.close == brackets.match(pairs, b.open)
