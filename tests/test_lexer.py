"""The lexer: libclang tokens with byte spans, every #if arm, errors instead of raises."""

from __future__ import annotations

import pytest

from hipport.lexer import (
    COMMENT,
    IDENTIFIER,
    KEYWORD,
    LITERAL,
    PUNCTUATION,
    LexError,
    lex,
    line_starts,
    might_need_translation,
)


def texts(source: bytes) -> list[str]:
    return [t.text for t in lex(source)]


def test_kinds() -> None:
    toks = lex(b'int x = 1; // c\nfoo("s");')
    assert [(t.kind, t.text) for t in toks] == [
        (KEYWORD, "int"), (IDENTIFIER, "x"), (PUNCTUATION, "="), (LITERAL, "1"),
        (PUNCTUATION, ";"), (COMMENT, "// c"), (IDENTIFIER, "foo"), (PUNCTUATION, "("),
        (LITERAL, '"s"'), (PUNCTUATION, ")"), (PUNCTUATION, ";"),
    ]


def test_offsets_are_bytes_and_lines_columns_one_based() -> None:
    source = "// é\ncudaMalloc(p);".encode()
    tok = next(t for t in lex(source) if t.text == "cudaMalloc")
    assert source[tok.start:tok.end] == b"cudaMalloc"
    assert (tok.line, tok.column) == (2, 1)


def test_chevrons() -> None:
    assert texts(b"k<<<1, 2>>>(x);") == [
        "k", "<<", "<", "1", ",", "2", ">>", ">", "(", "x", ")", ";"]


def test_include_tokens() -> None:
    assert texts(b"#include <a/b.h>\n") == ["#", "include", "<", "a", "/", "b", ".", "h", ">"]


def test_every_preprocessor_arm() -> None:
    names = texts(b"#if 0\ncudaFree(p);\n#else\ncudaMalloc(p);\n#endif\n")
    assert "cudaFree" in names and "cudaMalloc" in names


def test_non_utf8_bytes_survive() -> None:
    source = b"// caf\xe9\nint x;\n"
    comment = lex(source)[0]
    assert comment.kind == COMMENT
    assert comment.text.encode("utf-8", "surrogateescape") == b"// caf\xe9"


def test_crlf_and_bom() -> None:
    source = b"\xef\xbb\xbfint a;\r\nint b;\r\n"
    toks = lex(source)
    assert [source[t.start:t.end] for t in toks] == [b"int", b"a", b";", b"int", b"b", b";"]
    assert toks[3].line == 2


def test_nul_bytes_are_an_error() -> None:
    with pytest.raises(LexError):
        lex(b"int a;\0int b;")


def test_empty() -> None:
    assert lex(b"") == []


def test_fast_path_filter() -> None:
    assert not might_need_translation(b"int main() { return 0; }\n")
    assert might_need_translation(b"cudaFree(p);")
    assert might_need_translation(b"k<<<1,1>>>();")
    assert might_need_translation(b"#include <x.h>")


def test_line_starts() -> None:
    assert line_starts(b"a\nbc\n") == [0, 2, 5]
