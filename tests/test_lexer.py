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
        (KEYWORD, "int"),
        (IDENTIFIER, "x"),
        (PUNCTUATION, "="),
        (LITERAL, "1"),
        (PUNCTUATION, ";"),
        (COMMENT, "// c"),
        (IDENTIFIER, "foo"),
        (PUNCTUATION, "("),
        (LITERAL, '"s"'),
        (PUNCTUATION, ")"),
        (PUNCTUATION, ";"),
    ]


def test_offsets_are_bytes_and_lines_columns_one_based() -> None:
    source = "// é\ncudaMalloc(p);".encode()
    tok = next(t for t in lex(source) if t.text == "cudaMalloc")
    assert source[tok.start : tok.end] == b"cudaMalloc"
    assert (tok.line, tok.column) == (2, 1)


def test_chevrons() -> None:
    assert texts(b"k<<<1, 2>>>(x);") == [
        "k",
        "<<",
        "<",
        "1",
        ",",
        "2",
        ">>",
        ">",
        "(",
        "x",
        ")",
        ";",
    ]


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
    assert [source[t.start : t.end] for t in toks] == [b"int", b"a", b";", b"int", b"b", b";"]
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


# --- the fast path (CXToken.int_data) gives the documented path's tokens exactly --------

_EDGE_CASES = [
    b"int a;\rint b;\r\rcudaFree(p);\r",  # CR-only line ends (clang counts lone \r)
    b"int a;\n\rint b;\r\n\n\rint c;\n",  # \n\r counts as one line break for clang
    b"\xef\xbb\xbf#include <cuda.h>\r\nint x;\r\n",
    b"int cuda\\\nMalloc = 1; /* multi\nline */ // c \\\n continued\nint y;\n",
    b'const char* s = R"(raw\nstring)"; char c = \'\\n\'; auto u = u8"\xc3\xa9";\n',
    b"/* unterminated comment\nint z;\n",
    b'const char* t = "unterminated;\nint w;\n',
    b"int x\xff = 1; // caf\xe9 \xe2\x82\xac\n\tint\t\ty;\n",
    b"a<:1:> <% %> %: ??= x >>= y ... ->* .* <=> k<<<g, b>>>(x);\n",
    b"#define M(a, b) a ## b #a \\\n  more\nM(x, y)\n",
    b"x",
    b"// only a comment",
    b"\n\n\n   \n",
]


def _case_sources() -> list[bytes]:
    from pathlib import Path

    root = Path(__file__).parent
    files = sorted(
        p
        for d in ("corpus", "cases/engine", "cases/hazards")
        for p in (root / d).rglob("*")
        if p.suffix in (".cu", ".cuh")
    )
    return [p.read_bytes() for p in files] + _EDGE_CASES


def test_fast_tokens_equal_documented_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from hipport import lexer

    convert = lexer._convert
    fallbacks = []

    def counting(lib, tu, array, source):  # noqa: ANN001, ANN202
        out = convert(lib, tu, array, source)
        fallbacks.append(len(out))
        return out

    sources = [s for s in _case_sources() if s and b"\0" not in s]
    assert len(sources) > 300
    for source in sources:
        tu = lexer._parse(source, "<test>")
        slow = lexer._tokens(tu, source, fast=False)
        monkeypatch.setattr(lexer, "_convert", counting)
        fallbacks.clear()
        fast = lexer._tokens(tu, source)
        monkeypatch.setattr(lexer, "_convert", convert)
        assert fast == slow, source[:200]
        # only the validation sample went through the documented path, not every token
        assert sum(fallbacks) <= 2 * lexer._SAMPLE + 2 or len(slow) <= 2 * lexer._SAMPLE + 2


def test_fast_path_falls_back_when_the_layout_does_not_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hipport import lexer

    source = b"int a;\ncudaMalloc(&p, 4);\n// done\n"
    expected = lex(source, "<test>")
    monkeypatch.setattr(lexer, "_LAYOUT_OK", False)
    assert lex(source) == expected
    monkeypatch.setattr(lexer, "_LAYOUT_OK", True)
    monkeypatch.setattr(lexer, "_TOKEN_WORDS", 5)  # a wrong stride reads garbage
    assert lex(source) == expected
    monkeypatch.setattr(lexer, "_TOKEN_WORDS", 6)
    monkeypatch.setattr(lexer, "_clang_line_starts", lambda s: [0])  # wrong lines
    assert lex(source) == expected
