"""names_defined_by (hipport.rules.declared): the names a file defines, on the cases its
candidate search at C speed must not miss (further declarators, enumerators, comments that
start at a line splice, directive lines, structured bindings) and on the ones it must not
take. The expected sets are the heuristic's own answers; the directive lines found by the
call or given by the caller give the same."""

from __future__ import annotations

import pytest

from hipport.engine import names_defined_by
from hipport.lexer import lex
from hipport.rules.tokens import directives

CASES = [
    (
        b"int a = f(x, y), b;\nBuffer *p, *q;\nconst float &r = s, t;\n",
        {"a", "b", "p", "q", "r", "t"},
    ),
    # the declarator list inside the call ends at its `)`: c is not a declarator
    (b"int x = g(int a, b), c;\n", {"a", "b", "x"}),
    (
        b"enum Color { RED, GREEN = 2, BLUE };\nenum class Mode : int { FAST, SLOW };\n"
        b"int use = RED + other;\n",
        {"BLUE", "Color", "FAST", "GREEN", "Mode", "RED", "SLOW", "use"},
    ),
    (
        b"struct { int m; } inst, other;\ntypedef struct { float v; } vec_t;\n"
        b"typedef unsigned int uint_t;\n",
        {"inst", "m", "other", "uint_t", "v", "vec_t"},
    ),
    # a comment token may start at the line splice before its `//`, or have one inside `/*`
    (
        b"int kept; \\\n// a comment after a line splice\nint after;\n"
        b"/\\\n* spliced */ int last;\n",
        {"after", "kept", "last"},
    ),
    (
        b"#define CUDA_CHECK(x) (x)\n#if defined(HAVE_FOO) && CUDART_VERSION >= 11000\n"
        b"#endif\n#ifdef USE_BAR\n#endif\n",
        {"CUDA_CHECK", "HAVE_FOO", "USE_BAR"},
    ),
    (
        b"auto [key, value] = lookup();\nfor (auto &[k2, v2] : table) {}\n",
        {"k2", "key", "v2", "value"},
    ),
    (
        b"void (*callback)(int);\ntemplate <typename T, int CUDA_N> struct Holder;\n"
        b"using Alias = int;\n",
        {"Alias", "CUDA_N", "Holder", "T", "callback"},
    ),
    (b"x = a * b;\nf(&y, z);\nvector<int> items;\nreturn w;\n", {"items"}),
    # a `#` that does not start its line is code; one in a comment is nothing
    (b"/* #define NOT_A_MACRO 1 */\nint v; # define GLUED 1\n", {"GLUED", "v"}),
]


@pytest.mark.parametrize(("source", "expected"), CASES)
def test_names_defined_by(source: bytes, expected: set[str]) -> None:
    tokens = lex(source, "a.cu")
    names = names_defined_by(tokens, directives(source, tokens))
    assert names == frozenset(expected)
    assert names_defined_by(lex(source)) == names
