"""The lexer: libclang tokens with byte spans, every #if arm, errors instead of raises."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from hipport.lexer import (
    COMMENT,
    IDENTIFIER,
    KEYWORD,
    LITERAL,
    PUNCTUATION,
    LexError,
    Token,
    lex,
    lex_by_full_parse,
    might_need_translation,
)
from hipport.tokens import line_starts


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
    assert list(lex(b"")) == []


def test_fast_path_filter() -> None:
    assert not might_need_translation(b"int main() { return 0; }\n")
    assert might_need_translation(b"cudaFree(p);")
    assert might_need_translation(b"k<<<1,1>>>();")
    assert might_need_translation(b"#include <x.h>")


def test_line_starts() -> None:
    assert line_starts(b"a\nbc\n") == [0, 2, 5]
    # clang's convention: a lone \r breaks a line, \r\n is one break, \n\r two
    assert line_starts(b"a\rb\r\nc\n\rd") == [0, 2, 5, 7, 8]


def test_a_lone_cr_counts_the_same_for_tokens_and_findings() -> None:
    """One line table: a finding and the Use of the same token have one position, also
    after a lone \r (there were two numberings: 1:26 for the finding, 3:12 for its Use)."""
    from hipport.engine import translate_source
    from hipport.target import Target

    source = b"int a;\r// x\rvoid f() { cudaDeviceSynchronizeX(); }\n"
    tok = next(t for t in lex(source) if t.text == "cudaDeviceSynchronizeX")
    assert (tok.line, tok.column) == (3, 12)
    result = translate_source(source, "a.cu", Target())
    [use] = [u for u in result.uses if u.api == "cudaDeviceSynchronizeX"]
    [finding] = [f for f in result.findings if f.api == "cudaDeviceSynchronizeX"]
    assert (use.location.line, use.location.column) == (3, 12)
    assert (finding.location.line, finding.location.column) == (3, 12)


def test_positions_of_is_position_of_each_offset() -> None:
    """The batched lookup gives what `position` gives, offset by offset, whatever the line
    ends (\n, \r\n, a lone \r, \n\r) and for offsets at a line's start and end."""
    source = b"int a;\r\nint b;\rint c;\n\rint d;\n\nint e;"
    toks = lex(source)
    offsets = list(range(len(source) + 1))
    lines, columns = toks.positions_of(offsets)
    assert list(zip(lines, columns, strict=True)) == [toks.position(o) for o in offsets]
    assert toks.positions_of([]) == ([], [])


def test_token_locations_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Context.token_locations, in batches smaller than the tokens, gives each token's
    location as the lexer numbers it (a lone \r and \r\n among the line ends)."""
    import hipport.rules.context as context
    from hipport.engine import translate_source
    from hipport.target import Target

    monkeypatch.setattr(context, "_BATCH", 3)
    names = [f"cudaNoSuch{i}" for i in range(8)]
    source = (
        b"void f() {\r"
        + b"".join(
            f"  {n}();{end}".encode() for n, end in zip(names, ["\n", "\r\n"] * 4, strict=True)
        )
        + b"}\n"
    )
    want = {
        t.text: (t.line, t.column, t.column + len(t.text)) for t in lex(source) if t.text in names
    }
    result = translate_source(source, "a.cu", Target())
    got = {
        f.api: (f.location.line, f.location.column, f.location.end_column)
        for f in result.findings
        if f.code == "HIP004"
    }
    assert got == want and len(got) == 8
    assert [u.location for u in result.uses if u.api in names] == [
        f.location for f in result.findings if f.code == "HIP004"
    ]


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


_EDGE_CASES += [
    b"#endif\ncudaFree(p);\n#else\nint a;\n#elif 1\nint b;\n#endif\n#endif\nint c;\n",
    b"#\\\nendif\n# /* c */ endif\nint d; #endif\n",
    b"\rint a;\n",  # a first line break that would pair with the one before it
    b"\n\rint a;\r",
    b"\xef\xbb\xbf",  # only a byte order mark
    b"\xef\xbb\xbf\rint a;",
    b"\xef\xbb\xbf\xef\xbb\xbfint a;",  # a second mark is not skipped
    b"int a; /* unterminated at the end",
    b"int a; // a comment ending in a backslash \\",
    b"int a = 1 \\",  # a backslash as the last byte
    b"int a = 1 \\  ",  # a backslash and spaces at the end: no line splice
    b"int a = 1 \\  \n  + 2;",  # backslash, spaces, newline: a splice
    b"char c = 'x",
    b'auto s = R"x(unterminated raw',
    b"x = 1;" * 2000,  # one long line (the full parse of more would take minutes)
    b"?" + b"?/\nint t;\n",  # a trigraph splice (off in C++17)
    b"@interface X @end __is_pod __is_same(int, int) typeof(x) co_await\n",
]


def _source_files() -> list[Path]:
    """Every source in the test corpus, the test cases and the examples."""
    root = Path(__file__).parent
    dirs = [root / "corpus", root / "cases", root.parent / "examples"]
    return sorted(p for d in dirs for p in d.rglob("*") if p.suffix in _SUFFIXES and p.is_file())


_SUFFIXES = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".inl", ".inc"}


def _case_sources() -> list[bytes]:
    return [p.read_bytes() for p in _source_files()] + _EDGE_CASES


def _fields(tokens: list[Token]) -> list[tuple]:
    return [(t.kind, t.text, t.start, t.end, t.line, t.column) for t in tokens]


@pytest.fixture(scope="module")
def bench_sources(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """A small copy of the benchmark's generated corpus (bench/generate.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from generate import generate

    out = tmp_path_factory.mktemp("bench-corpus")
    generate(out, files=120, with_corpus=False, seed=7)
    return [p.read_bytes() for p in sorted(out.rglob("*")) if p.suffix in _SUFFIXES]


@pytest.mark.slow
def test_lex_equals_the_full_parse_on_every_corpus_file(bench_sources: list[bytes]) -> None:
    """The trivial parse (`#if 0` lines before the source) gives, byte for byte, the tokens
    of the declaration parse with every token read through the documented calls."""
    sources = [s for s in _case_sources() + bench_sources if b"\0" not in s]
    assert len(sources) > 450
    for source in sources:
        assert _fields(lex(source)) == _fields(lex_by_full_parse(source)), source[:200]


def test_the_parse_sees_none_of_the_code() -> None:
    """The unit libclang parses holds no declaration, even when the source closes more
    conditionals than it opens (so the cost cannot grow with what the code declares)."""
    from hipport import lexer

    for source in (
        b"int f(int);\n" * 50,
        b"#endif\n#endif\nint g();\n#else\nint h();\n#elif 1\nint k();\n",
        b"#\\\nendif\nint m();\n",
    ):
        lex(source)
        tu = lexer._PARSER._tu
        assert tu is not None
        assert list(tu.cursor.get_children()) == [], source


@pytest.mark.slow
def test_fast_tokens_equal_documented_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from hipport import lexer

    convert = lexer._convert
    fallbacks = []

    def counting(lib, tu, array, wrapped, source):
        out = convert(lib, tu, array, wrapped, source)
        fallbacks.append(len(out))
        return out

    sources = [s for s in _case_sources() if s and b"\0" not in s]
    assert len(sources) > 300
    for source in sources:
        wrapped = lexer._wrap(source)
        tu = lexer._PARSER.parse(wrapped.buffer, "<test>")
        slow = lexer._tokens(tu, wrapped, source, fast=False)
        monkeypatch.setattr(lexer, "_convert", counting)
        fallbacks.clear()
        fast = lexer._tokens(tu, wrapped, source)
        monkeypatch.setattr(lexer, "_convert", convert)
        if isinstance(fast, lexer.Tokens):
            # the columns are the tokens' own fields
            assert fast.texts == [t.text for t in fast]
            assert list(fast.starts) == [t.start for t in fast]
            fast = list(fast)
        assert _fields(fast) == _fields(slow), source[:200]
        # only the validation sample went through the documented path, not every token
        assert sum(fallbacks) <= 2 * lexer._SAMPLE + 2 or len(slow) <= 2 * lexer._SAMPLE + 2


def test_token_api() -> None:
    """What the rules use: fields by name and index, line/column on demand, equality,
    hashing and pickling, and a Token built by hand."""
    source = b"int a;\r\n  cudaFree(p);\n"
    tok = next(t for t in lex(source) if t.text == "cudaFree")
    assert (tok.kind, tok.text, tok.start, tok.end) == (IDENTIFIER, "cudaFree", 10, 18)
    assert (tok[0], tok[1], tok[2], tok[3]) == (tok.kind, tok.text, tok.start, tok.end)
    assert (tok.line, tok.column) == (2, 3)
    by_hand = Token(IDENTIFIER, "cudaFree", 10, 18, 2, 3)
    assert by_hand == tok and hash(by_hand) == hash(tok) and not by_hand != tok
    assert Token(IDENTIFIER, "cudaFree", 10, 18, 2, 4) != tok
    assert pickle.loads(pickle.dumps(tok)) == tok
    assert repr(tok) == (
        "Token(kind='identifier', text='cudaFree', start=10, end=18, line=2, column=3)"
    )
    assert list(lex(source)) == list(lex(source))


def test_fast_path_falls_back_when_the_layout_does_not_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hipport import lexer

    source = b"int a;\ncudaMalloc(&p, 4);\n// done\n"
    expected = list(lex(source, "<test>"))
    monkeypatch.setattr(lexer, "_LAYOUT_OK", False)
    assert list(lex(source)) == expected
    monkeypatch.setattr(lexer, "_LAYOUT_OK", True)
    monkeypatch.setattr(lexer, "_TOKEN_WORDS", 5)  # a wrong stride reads garbage
    assert list(lex(source)) == expected


def test_threads_lexing_at_once_get_their_own_tokens() -> None:
    """The one reparsed unit is shared by the process: lexing from threads stays correct."""
    from concurrent.futures import ThreadPoolExecutor

    sources = [f"int v{i};\ncudaFree(p{i});\n".encode() * (i + 1) for i in range(24)]
    expected = [_fields(lex(s)) for s in sources]
    with ThreadPoolExecutor(6) as pool:
        got = list(pool.map(lambda s: _fields(lex(s)), sources * 4))
    assert got == expected * 4


def test_documented_path_translates_as_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the fast path declines a file (lexer._fast_convert returns None), the columns
    come from the documented path's tokens, and the translation (edits, findings with
    their locations, uses) is the same (the fuzzer found a crash here: no line table)."""
    from hipport import lexer
    from hipport.engine import translate_source
    from hipport.target import Target

    sources = [s for s in _case_sources() if b"cuda" in s and b"\0" not in s][:40]
    assert len(sources) >= 20
    fast = [translate_source(s, "case.cu", Target()) for s in sources]
    monkeypatch.setattr(lexer, "_fast_convert", lambda *args: None)
    slow = [translate_source(s, "case.cu", Target()) for s in sources]
    for a, b in zip(fast, slow, strict=True):
        assert a.error is None and b.error is None
        assert (a.output, a.edits, a.findings, a.uses) == (b.output, b.edits, b.findings, b.uses)
