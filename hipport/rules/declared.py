"""The names a file defines itself (macros, functions, types, variables, parameters,
members, enumerators, template parameters, typedefs), for the unknown-name checks and the
project index: a token heuristic, no preprocessor, no parser.

The heuristic reads each identifier with its neighbours (`int x =`, `T *p,`, `} name;`)
plus three pieces of state: the brace depth of an open `enum` body, and the declaration
whose declarators are being read (`int a = 0, b;`). Most tokens can never be a name it
takes: only an identifier that follows a type-like token and comes before a declarator
follower (`=`, `;`, `,`, `(`, ...), or that follows `struct`/`enum`/`typedef`/`#`, can.
Those candidates are found at C speed, with one class byte per code token (a dict lookup
of its text) and big-integer masks over the class bytes for "the token before" and "the
token after"; only the candidates are then read in Python, in order, and the state is
brought up to date at each one from the tokens between (the brace depth only in a file
that has an `enum`; the declaration's bracket nesting only from the declaration's start,
and only when an identifier after a comma asks for it).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, compress, repeat

from hipport.lexer import COMMENT, IDENTIFIER, KEYWORD, Columns, Token, TokenList, columns
from hipport.rules.gate_facts import macro_names
from hipport.rules.tokens import Directive
from hipport.rules.tokens import directives as find_directives

# Words after which a name is a type (or a template parameter before `>`).
TYPE_KEYWORDS = frozenset(
    {
        "void",
        "int",
        "float",
        "double",
        "char",
        "bool",
        "long",
        "short",
        "unsigned",
        "signed",
        "auto",
        "const",
        "volatile",
        "size_t",
        "static",
        "inline",
        "extern",
        "constexpr",
        "__global__",
        "__device__",
        "__host__",
        "__forceinline__",
        "__inline__",
        "__shared__",
        "__constant__",
        "__managed__",
        "wchar_t",
        "char16_t",
        "char32_t",
        "char8_t",
    }
)
# Words that are never the type of a declaration (`return x;`, `case X:`, `#if X`).
NOT_TYPES = frozenset(
    {
        "return",
        "else",
        "case",
        "do",
        "throw",
        "goto",
        "new",
        "delete",
        "sizeof",
        "typeid",
        "co_return",
        "co_await",
        "co_yield",
        "decltype",
        "alignof",
        "noexcept",
        "operator",
        "define",
        "undef",
        "ifdef",
        "ifndef",
        "if",
        "elif",
        "defined",
        "include",
        "pragma",
        "while",
        "for",
        "switch",
        "catch",
        "static_assert",
        "using",
        "namespace",
        "template",
        "typename",
        "class",
        "struct",
        "union",
        "enum",
        "typedef",
        "public",
        "private",
        "protected",
        "friend",
        "virtual",
        "explicit",
        "asm",
        "__asm__",
    }
)
# The tokens that may follow a declarator's name.
AFTER_DECLARATOR = frozenset({"=", ";", ",", "[", "{", "(", ")", ":"})
# The words whose next identifier is the name they introduce.
INTRODUCERS = frozenset({"struct", "class", "union", "enum", "namespace", "concept", "typename"})
# Directives whose identifiers are configuration macros the program tests.
TESTS = frozenset({"ifdef", "ifndef", "if", "elif", "elifdef", "elifndef"})

_WORD_KINDS = (IDENTIFIER, KEYWORD)
# What may stand between a declarator's `,` and its name: int a, *b, &c, *const d;
_DECLARATOR_PREFIX = frozenset({"*", "&", "&&", "**", "const", "volatile", "__restrict__"})
_POINTERS = frozenset({"*", "&", "&&", "**", ">"})
_BEFORE_TYPE = frozenset({";", "{", "}", "(", ",", ")", ">", "<", "::", "#"})
_OPENS_DECLARATORS = frozenset({"=", ",", ";", "["})


def names_defined_by(
    tokens: list[Token] | Columns, source: bytes = b"", directives: list[Directive] | None = None
) -> frozenset[str]:
    """Names the file itself defines: macros (and the configuration macros it only tests
    with #ifdef / #if), functions, types, variables (every declarator of a declaration),
    parameters, members, enumerators, template parameters, typedefs.

    Good enough to know that a `CUDA_CHECK` macro, a `cudaCheck` function or a
    `cuda_out_buf` variable is the project's own. `tokens`: a list of Token or the lexer's
    columns. `directives`: the file's directive lines when the caller has them already.
    nvcc's predefined macros (CUDART_VERSION, ...) tested in an #if are not the program's:
    they are left out. Directive lines are left out of the code (their tokens would glue
    onto the code around them); so is everything when `source` is empty.
    """
    cols = columns(tokens)
    if directives is None:
        directives = find_directives(source, cols) if source else []
    in_lines = directives if source else []
    names = _directive_names(cols.texts, cols.kinds, in_lines)
    texts, kinds = _code_columns(cols, source, in_lines)
    _code_names(texts, kinds, names)
    return frozenset(names)


def _directive_names(texts: list[str], kinds: list[str], directives: list[Directive]) -> set[str]:
    """The macros #define makes and the ones #if / #ifdef / ... test."""
    names: set[str] = set()
    nvcc_macros: frozenset[str] | None = None  # loaded at the first test
    for d in directives:
        first = d.hash + 2
        if first >= d.end or kinds[first] not in _WORD_KINDS:
            continue
        if d.name == "define":
            names.add(texts[first])
        elif d.name in TESTS:
            if nvcc_macros is None:
                nvcc_macros = macro_names()
            line = slice(first, d.end)
            tested = set(compress(texts[line], map(IDENTIFIER.__eq__, kinds[line])))
            tested.discard("defined")
            names |= tested - nvcc_macros
    return names


def _code_columns(
    cols: TokenList | Columns, source: bytes, directives: list[Directive]
) -> tuple[list[str], list[str]]:
    """The texts and kinds of the code tokens: comments and directive lines left out."""
    texts, kinds = cols.texts, cols.kinds
    cuts = [(d.hash, d.end) for d in directives]
    cuts += ((i, i + 1) for i in _comments(cols, source))
    if not cuts:
        return texts, kinds
    cuts.sort()
    code_texts: list[str] = []
    code_kinds: list[str] = []
    at = 0
    for start, end in cuts:
        if start > at:
            code_texts += texts[at:start]
            code_kinds += kinds[at:start]
        if end > at:
            at = end
    code_texts += texts[at:]
    code_kinds += kinds[at:]
    return code_texts, code_kinds


# Inside every comment token: its opening `/` and the `/`, `*` or line splice after it.
_COMMENT_OPENING = re.compile(rb"/[/*\\]")


def _comments(cols: TokenList | Columns, source: bytes) -> list[int]:
    """Indices of the comment tokens. Their openings are found in the source (a regex at C
    speed), each checked against the token it falls in (which may start before it, at a
    line splice); without the source (tokens made by hand), the kinds are searched."""
    kinds, starts, ends = cols.kinds, cols.starts, cols.ends
    if not source:
        return list(compress(range(len(kinds)), map(COMMENT.__eq__, kinds)))
    out: list[int] = []
    lo = 0
    pos = 0
    search = _COMMENT_OPENING.search
    while (found := search(source, pos)) is not None:
        at = found.start()
        i = bisect_right(starts, at, lo) - 1
        if i >= 0 and kinds[i] == COMMENT and at < ends[i]:
            out.append(i)
            pos = ends[i]
        else:
            pos = at + 1  # in a literal, or a division by a dereference
        lo = max(i, 0)
    return out


# --- the candidates, from one class byte per code token ---------------------------------

# Texts with a role of their own; every other text (an identifier, a literal, another
# keyword) is class 0.
_PUNCTUATION_CLASSES = (
    "=",
    ";",
    ",",
    "[",
    "{",
    "(",
    ")",
    ":",
    "}",
    ">",
    ">>",
    "*",
    "&",
    "&&",
    "**",
    "#",
    "]",
    "<",
    ".",
    "->",
    "::",
    "+",
    "-",
    "/",
    "%",
    "++",
    "--",
    "+=",
    "-=",
    "*=",
    "/=",
    "==",
    "!=",
    "<=",
    ">=",
    "<<",
    "!",
    "?",
    "|",
    "||",
    "^",
    "~",
)
_CLASS_TEXTS = (
    *_PUNCTUATION_CLASSES,
    *sorted(TYPE_KEYWORDS | NOT_TYPES | INTRODUCERS),
)
_CLASS = {text: i + 1 for i, text in enumerate(_CLASS_TEXTS)}
_PUNCTUATION_SET = frozenset(_PUNCTUATION_CLASSES)


def _role(test: object) -> bytes:
    """A bytes.translate table: class byte -> 1 where `test(text)` holds (class 0: the
    test of an identifier nobody lists, spelled "")."""
    return bytes([int(bool(test("")))] + [int(bool(test(t))) for t in _CLASS_TEXTS]).ljust(
        256, b"\0"
    )


def _is_word(text: str) -> bool:
    return text not in _PUNCTUATION_SET


# May stand before a name the main checks take: a type-like word, a declarator prefix,
# `}` (struct {...} name;), `[` (auto [a, b]), `,` (the next declarator), `using`.
def _is_before(text: str) -> bool:
    return (_is_word(text) and text not in NOT_TYPES) or text in {
        "*",
        "&",
        "&&",
        "**",
        ">",
        "}",
        "[",
        ",",
        "using",
    }


_WORD = _role(_is_word)
_BEFORE = _role(_is_before)
_BEFORE_IN_ENUM = _role(lambda t: _is_before(t) or t == "{")  # { A = 1, B }
_AFTER = _role(lambda t: t in AFTER_DECLARATOR or t in (">", ">>"))
_AFTER_IN_ENUM = _role(lambda t: t in AFTER_DECLARATOR or t in (">", ">>", "}"))
# bit 0: introduces the next name; bit 1: `#` (before `define`); bit 2: `typedef`
_RARE = bytes(
    (t in INTRODUCERS) | (t == "#") << 1 | (t == "typedef") << 2 for t in ("", *_CLASS_TEXTS)
).ljust(256, b"\0")
_BRACES = _role(lambda t: t in ("{", "}"))
_ENUM = _CLASS["enum"]


def _candidates(texts: list[str]) -> tuple[list[int], bytes]:
    """Indices (> 0, in order) of the code tokens any check may take or that change the
    enum state, and the class bytes. A superset: each is checked in full afterwards."""
    n = len(texts)
    classes = bytes(map(_CLASS.get, texts, repeat(0)))
    in_enum = _ENUM in classes
    word = int.from_bytes(classes.translate(_WORD), "big")
    before = int.from_bytes(classes.translate(_BEFORE_IN_ENUM if in_enum else _BEFORE), "big")
    after = int.from_bytes(classes.translate(_AFTER_IN_ENUM if in_enum else _AFTER), "big")
    rare = int.from_bytes(classes.translate(_RARE), "big")
    # token k is byte k from the left: >> 8 moves a byte one token on, << 8 one token back
    ones = int.from_bytes(b"\1" * n, "big")
    picked = word & (
        (before >> 8) & (after << 8)
        # after struct/enum/...; `define` after `#`; two after `typedef`
        | ((rare >> 8) | (rare >> 9) | (rare >> 18)) & ones
    )
    if in_enum:
        picked |= int.from_bytes(classes.translate(_role(lambda t: t == "enum")), "big")
    found = _ones(picked.to_bytes(n, "big"))
    if found and found[0] == 0:
        del found[0]  # the first token has nothing before it
    return found, classes


def _ones(marks: bytes) -> list[int]:
    """Indices of the 1 bytes of `marks` (the others are 0), at C speed."""
    pieces = marks.split(b"\1")
    if len(pieces) == 1:
        return []
    return list(accumulate(map((1).__add__, map(len, pieces[1:-1])), initial=len(pieces[0])))


# --- the checks, at the candidates -------------------------------------------------------


class _Declaration:
    """The declaration whose declarators are being read: where its last name was, and how
    far the tokens after it were read (open parentheses since, or ended by `;`/`{`/`}`
    or by a `)` closing one opened before it)."""

    __slots__ = ("at", "depth", "ended", "texts")

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.at = -1  # the index read up to; -1: no declaration
        self.depth = 0
        self.ended = True

    def start(self, k: int) -> None:
        self.at, self.depth, self.ended = k + 1, 0, False

    def continues_at(self, k: int) -> bool:
        """A declarator at k belongs to the declaration (same braces and parentheses)."""
        if self.ended:
            return False
        depth = self.depth
        for text in self.texts[self.at : k]:
            if text == "(":
                depth += 1
            elif text == ")":
                depth -= 1
                if depth < 0:
                    self.ended = True
                    return False
            elif text == ";" or text == "{" or text == "}":
                self.ended = True
                return False
        self.at, self.depth = k, depth
        return depth == 0


class _Braces:
    """The brace depth and the open enum body's depth, brought up to date at each
    candidate (only in a file that has an `enum`)."""

    __slots__ = ("depth", "enum_depth", "next", "positions", "texts")

    def __init__(self, texts: list[str], classes: bytes) -> None:
        self.texts = texts
        self.positions = list(compress(range(len(texts)), classes.translate(_BRACES)))
        self.next = 0
        self.depth = 0
        self.enum_depth = -1

    def advance(self, k: int) -> None:
        positions, texts = self.positions, self.texts
        i = self.next
        while i < len(positions) and positions[i] < k:
            if texts[positions[i]] == "{":
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth < self.enum_depth:
                    self.enum_depth = -1
            i += 1
        self.next = i


def _code_names(texts: list[str], kinds: list[str], names: set[str]) -> None:  # noqa: C901, PLR0912 (the checks, in their order)
    """Add the names the code tokens declare (see the module docstring)."""
    n = len(texts)
    if n < 2:
        return
    candidates, classes = _candidates(texts)
    declaration = _Declaration(texts)
    braces = _Braces(texts, classes) if _ENUM in classes else None
    add = names.add
    last = n - 1
    for k in candidates:
        kind = kinds[k]
        if kind != IDENTIFIER and kind != KEYWORD:
            continue
        if braces is not None:
            braces.advance(k)
        text = texts[k]
        prev = texts[k - 1]
        nxt = texts[k + 1] if k < last else None
        if text == "define" and prev == "#" and nxt is not None and kinds[k + 1] in _WORD_KINDS:
            add(nxt)
            continue
        if kind != IDENTIFIER:
            if braces is not None and (text == "enum" or text == "class" and prev == "enum"):
                braces.enum_depth = braces.depth + 1
            continue
        if prev in INTRODUCERS:
            add(text)
            if braces is not None and (prev == "enum" or (k >= 2 and texts[k - 2] == "enum")):
                braces.enum_depth = braces.depth + 1
            continue
        if text == "enum" or text == "class" and prev == "enum":
            if braces is not None:
                braces.enum_depth = braces.depth + 1
            continue
        if (
            braces is not None
            and braces.enum_depth != -1
            and braces.depth == braces.enum_depth
            and prev in ("{", ",")
            and nxt in ("=", ",", "}")
        ):
            add(text)  # an enumerator
            continue
        if prev == "using" and nxt == "=":
            add(text)
            continue
        if nxt not in AFTER_DECLARATOR:
            if (nxt == ">" or nxt == ">>") and (prev in TYPE_KEYWORDS or prev == "typename"):
                add(text)  # a template parameter: template <int CUDA_N>
            continue
        if prev == "}":
            if nxt == ";" or nxt == ",":
                add(text)  # struct {...} name; / typedef struct {...} name_t;
                declaration.start(k)
                continue
        elif nxt == ";" and k >= 2 and texts[k - 2] == "typedef":
            add(text)
            continue
        elif (
            (prev == "," or prev in _DECLARATOR_PREFIX)
            and _after_comma(texts, k)
            and declaration.continues_at(k)
        ):
            add(text)  # a further declarator: int a = 0, b; Buffer *x, *y;
            continue
        elif prev == "[":
            if k >= 2 and texts[k - 2] in ("auto", "&", "&&"):
                _add_binding(texts, kinds, k, names)
                continue
        elif prev == "*" and nxt == ")" and k >= 2 and texts[k - 2] == "(":
            add(text)  # a function pointer: void (*callback)(int)
            continue
        if prev in _POINTERS:
            if not _looks_declaration(texts, kinds, k):
                continue
        elif not (kinds[k - 1] == IDENTIFIER and prev not in NOT_TYPES or prev in TYPE_KEYWORDS):
            continue
        add(text)
        if nxt in _OPENS_DECLARATORS:
            declaration.start(k)


def _add_binding(texts: list[str], kinds: list[str], k: int, names: set[str]) -> None:
    """The names of a structured binding: auto [cuda_key, cuda_value] = ..."""
    j = k
    n = len(texts)
    while j < n and texts[j] != "]" and j - k < 64:
        if kinds[j] == IDENTIFIER:
            names.add(texts[j])
        j += 1


def _after_comma(texts: list[str], k: int) -> bool:
    """texts[k] follows `,` (past `*`, `&`, `const` of its declarator)."""
    j = k - 1
    while j >= 0 and texts[j] in _DECLARATOR_PREFIX:
        j -= 1
    return j >= 0 and texts[j] == ","


def _looks_declaration(texts: list[str], kinds: list[str], k: int) -> bool:
    """`T * name` / `T<X> name`: the token before the operator is a type-like word."""
    j = k - 1
    while j >= 0 and texts[j] in ("*", "&", "&&", "**", "const"):
        j -= 1
    if j < 0:
        return False
    if texts[j] == ">":
        return True
    return (
        kinds[j] in _WORD_KINDS
        and texts[j] not in NOT_TYPES
        and (
            j == 0
            or texts[j - 1] in _BEFORE_TYPE
            or kinds[j - 1] in _WORD_KINDS
            or texts[j - 1] in TYPE_KEYWORDS
        )
    )
