"""Shared token helpers: neighbours, matching brackets, call arguments, directives."""

from __future__ import annotations

from hipport.lexer import lex
from hipport.rules.tokens import (
    code_range,
    directives,
    is_launch_close,
    is_launch_open,
    matching,
    next_code,
    prev_code,
    split_args,
)


def test_prev_next_skip_comments() -> None:
    toks = lex(b"a /* c */ b")
    assert next_code(toks, 0) == 2
    assert prev_code(toks, 2) == 0
    assert prev_code(toks, 0) is None


def test_matching_nested() -> None:
    toks = lex(b"f(a, (b), [c], {d})")
    assert matching(toks, 1) == len(toks) - 1
    assert matching(toks, 0) is None


def test_matching_unbalanced() -> None:
    toks = lex(b"f(a, (b]")
    assert matching(toks, 1) is None


def test_split_args() -> None:
    toks = lex(b"f(a, g(b, c), d[1, 2])")
    args = split_args(toks, 1, len(toks) - 1)
    got = [" ".join(t.text for t in toks[a:b]) for a, b in args]
    assert got == ["a", "g ( b , c )", "d [ 1 , 2 ]"]


def test_split_args_empty() -> None:
    toks = lex(b"f()")
    assert split_args(toks, 1, 2) == []
    toks = lex(b"f(/* none */)")
    assert split_args(toks, 1, 3) == []


def test_code_range_strips_comments() -> None:
    toks = lex(b"/*a*/ x /*b*/")
    assert code_range(toks, 0, 3) == (1, 2)
    assert code_range(toks, 0, 1) is None


def test_launch_chevrons() -> None:
    toks = lex(b"k<<<1,1>>>(); a << b; c >> d;")
    opens = [i for i in range(len(toks)) if is_launch_open(toks, i)]
    closes = [i for i in range(len(toks)) if is_launch_close(toks, i)]
    assert len(opens) == 1 and len(closes) == 1


def test_directives_with_continuations() -> None:
    source = b"#define A(x) \\\n  x + 1\nint y;\n  #  include <a.h>\n"
    toks = lex(source)
    ds = directives(source, toks)
    assert [d.name for d in ds] == ["define", "include"]
    assert source[ds[0].line_start : ds[0].line_end] == b"#define A(x) \\\n  x + 1\n"
    assert toks[ds[0].end].text == "int"


def test_hash_inside_line_is_not_a_directive() -> None:
    source = b"#define S(x) #x\n"
    assert len(directives(source, lex(source))) == 1
