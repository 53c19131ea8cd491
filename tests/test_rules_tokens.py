"""Shared token helpers (neighbours, launches, directives) and the code view's brackets and
call arguments."""

from __future__ import annotations

from hipport.lexer import lex
from hipport.rules.tokens import (
    code_range,
    directives,
    is_launch_close,
    is_launch_open,
    next_code,
    prev_code,
)


def test_prev_next_skip_comments() -> None:
    toks = lex(b"a /* c */ b")
    assert next_code(toks, 0) == 2
    assert prev_code(toks, 2) == 0
    assert prev_code(toks, 0) is None


def test_match_nested() -> None:
    code = lex(b"f(a, (b), [c], {d})").code()
    assert code.match(1) == len(code) - 1
    assert code.match(0) is None


def test_match_unbalanced() -> None:
    assert lex(b"f(a, (b]").code().match(1) is None


def test_arguments() -> None:
    code = lex(b"f(a, g(b, c), d[1, 2])").code()
    args = code.arguments(1, len(code) - 1)
    assert args is not None
    got = [" ".join(code.texts[a:b]) for a, b in args]
    assert got == ["a", "g ( b , c )", "d [ 1 , 2 ]"]


def test_arguments_empty() -> None:
    assert lex(b"f()").code().arguments(1, 2) == []
    # the comment is no code token: `(` and `)` are code tokens 1 and 2
    assert lex(b"f(/* none */)").code().arguments(1, 2) == []


def test_arguments_with_template_lists() -> None:
    code = lex(b"f(g<int, 2>(x), a < b && c, d)").code()
    close = code.match(1)
    assert close == len(code) - 1
    plain = code.arguments(1, close)
    templates = code.arguments(1, close, templates=True)
    assert plain is not None and templates is not None
    assert len(plain) == 4  # every top-level comma splits
    # `g<int, 2>` reads as a template argument list (its comma does not split), `a < b &&`
    # does not (`&&` cannot stand in one)
    assert len(templates) == 3
    assert [" ".join(code.texts[a:b]) for a, b in templates][0] == "g < int , 2 > ( x )"


def test_code_index_conversion() -> None:
    tokens = lex(b"a /* c */ b // d\n")
    code = tokens.code()
    assert code.texts == ["a", "b"]
    assert [code.to_all(k) for k in range(2)] == [0, 2]
    assert [code.from_all(i) for i in range(len(tokens))] == [0, 1, 1, 2]


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
