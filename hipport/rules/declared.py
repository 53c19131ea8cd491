"""The names a file defines itself (macros, functions, types, variables, parameters,
members, enumerators, template parameters, typedefs), for the unknown-name checks and the
project index: a token heuristic, no preprocessor, no parser.

The heuristic reads each identifier with its neighbours (`int x =`, `T *p,`, `} name;`)
plus some state: the brace depth and that of an open `enum` body, and the declaration
whose declarators are being read (`int a = 0, b;`). Most tokens can never be a name it
takes: only an identifier that follows a type-like token and comes before a declarator
follower (`=`, `;`, `,`, `(`, ...), or that follows `struct`/`enum`/`typedef`/`#`, can.
Those candidates are found at C speed: one class byte per code token (a dict lookup of
its text), four bytes.translate tables of it (the token, the one before, the one after,
the one two before) and one big-integer AND that leaves eight lanes of tests per token.
An identifier after a type keyword or another identifier is then taken as it is (when
the kinds agree); the other candidates are read in Python, in order, and the state is
brought up to date at each one from the tokens between (the brace depth only in a file
that has an `enum`; the declaration's bracket nesting only from the declaration's start,
and only when an identifier after a comma asks for it). The result is the same as a walk
over every code token with all the checks (tests/test_declared.py pins the tricky cases).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from itertools import accumulate, compress, repeat
from typing import TYPE_CHECKING, NamedTuple

from hipport.rules.tokens import Directive
from hipport.rules.tokens import directives as find_directives

if TYPE_CHECKING:
    from hipport.mappings import Mappings
from hipport.tokens import COMMENT, IDENTIFIER, KEYWORD, Tokens, positions

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
    tokens: Tokens,
    directives: list[Directive] | None = None,
    nvcc_macros: AbstractSet[str] | None = None,
) -> frozenset[str]:
    """Names the file itself defines: macros (and the configuration macros it only tests
    with #ifdef / #if), functions, types, variables (every declarator of a declaration),
    parameters, members, enumerators, template parameters, typedefs.

    Good enough to know that a `CUDA_CHECK` macro, a `cudaCheck` function or a
    `cuda_out_buf` variable is the project's own. `directives`: the file's directive lines
    when the caller has them already. nvcc's predefined macros (CUDART_VERSION, ...) tested
    in an #if are not the program's: they are left out (`nvcc_macros`: the run's,
    Mappings.gate.macro_names; None: those of the package's mappings/, read at the first
    #if). Directive lines are left out of the code (their tokens would glue onto the code
    around them).
    """
    if directives is None:
        directives = find_directives(tokens.source, tokens)
    names = _directive_names(tokens.texts, tokens.kinds, directives, nvcc_macros)
    texts, kinds = _code_columns(tokens.texts, tokens.kinds, directives)
    _code_names(texts, kinds, names)
    return frozenset(names)


def _directive_names(
    texts: list[str],
    kinds: list[str],
    directives: list[Directive],
    nvcc_macros: AbstractSet[str] | None,
) -> set[str]:
    """The macros #define makes and the ones #if / #ifdef / ... test."""
    names: set[str] = set()
    for d in directives:
        first = d.hash + 2
        if first >= d.end or kinds[first] not in _WORD_KINDS:
            continue
        if d.name == "define":
            names.add(texts[first])
        elif d.name in TESTS:
            if nvcc_macros is None:
                from hipport.mappings import load_mappings

                nvcc_macros = load_mappings().gate.macro_names
            line = slice(first, d.end)
            tested = set(compress(texts[line], map(IDENTIFIER.__eq__, kinds[line])))
            tested.discard("defined")
            names |= tested - nvcc_macros
    return names


def _code_columns(
    texts: list[str], kinds: list[str], directives: list[Directive]
) -> tuple[list[str], list[str]]:
    """The texts and kinds of the code tokens: comments and directive lines left out."""
    comments = positions(kinds, COMMENT)
    if not directives and not comments:
        return texts, kinds
    # the runs between the cuts joined, in one pass: deleting each cut in turn moved the
    # rest of the file once per comment (80,000 comment lines: 16 s)
    code_texts: list[str] = []
    code_kinds: list[str] = []
    last = 0
    for start, end in _merged([(d.hash, d.end) for d in directives], comments):
        code_texts += texts[last:start]
        code_kinds += kinds[last:start]
        last = end
    code_texts += texts[last:]
    code_kinds += kinds[last:]
    return code_texts, code_kinds


def _merged(spans: list[tuple[int, int]], singles: list[int]) -> list[tuple[int, int]]:
    """The ascending index ranges covered by `spans` and `singles`, touching ones joined."""
    spans += ((i, i + 1) for i in singles)
    spans.sort()
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
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
    *sorted(TYPE_KEYWORDS | NOT_TYPES | INTRODUCERS | {"__restrict__"}),
)
_CLASS = {text: i + 1 for i, text in enumerate(_CLASS_TEXTS)}
_PUNCTUATION_SET = frozenset(_PUNCTUATION_CLASSES)


def _roles(*tests: Callable[[str], bool]) -> bytes:
    """A bytes.translate table: class byte -> bit i set where `tests[i](text)` holds (class
    0, a text nobody lists, is tested as "")."""
    return bytes(
        sum(1 << i for i, test in enumerate(tests) if test(text)) for text in ("", *_CLASS_TEXTS)
    ).ljust(256, b"\0")


def _is_word(text: str) -> bool:
    return text not in _PUNCTUATION_SET


# The candidates are found in eight lanes (the bits of one byte per token): a lane is
# a test of the token itself, of the one before, of the one after and of the one two
# before, each a bytes.translate table of the class bytes. Lanes 0 and 1 are `typed`:
#   0  a plain identifier after a type keyword, before a follower or `>`: int x = / <int N>
#   1  a plain identifier after another, before a follower: Buffer buf;
# the others are read one by one:
#   2  a word after `,` `>` `using` `__restrict__` `[`, before a follower: , y = / auto [a,
#      (in a file with an enum, after `{` too, and before `}` too: the enumerators)
#   3  a word after `&` `&&` `**` after a type-like word, before a follower: T &x)
#   4  a word after `*` after a type-like word or `(`, before a follower: T *x, / (*cb)
#   5  a word after `}`, before `;` or `,`: struct {...} name;
#   6  a listed word (size_t, ...) after a type keyword or a plain word, before a follower
#   7  a word after struct/class/enum/... or `#`: struct name / # define
# (Two after `typedef`, and `enum` itself, are looked up on their own: they are rare.)
_TYPED_LANES, _OTHER_LANES = 0b11, 0b11111100
_ALWAYS_BEFORE_TWO = 0b11100111  # the lanes that do not test the token two before


def _is_plain(text: str) -> bool:
    return text == ""


def _lanes(cur: tuple, before: tuple, after: tuple, before_two: tuple) -> tuple[bytes, ...]:
    """The four translate tables, from each lane's tests (None: any token)."""
    return tuple(
        _roles(*(test or (lambda _t: True) for test in tests))
        for tests in (cur, before, after, before_two)
    )


def _type_like(text: str) -> bool:
    return (_is_word(text) and text not in NOT_TYPES) or text in ("*", "&", "&&", "**", ">", ",")


def _tables(in_enum: bool) -> tuple[bytes, ...]:
    follower = AFTER_DECLARATOR | ({"}"} if in_enum else set())
    before_list = {",", ">", "using", "__restrict__", "["} | ({"{"} if in_enum else set())
    return _lanes(
        (
            _is_plain,
            _is_plain,
            _is_word,
            _is_word,
            _is_word,
            _is_word,
            lambda t: _is_word(t) and not _is_plain(t),
            _is_word,
        ),
        (
            lambda t: t in TYPE_KEYWORDS,
            _is_plain,
            lambda t: t in before_list,
            lambda t: t in ("&", "&&", "**"),
            lambda t: t == "*",
            lambda t: t == "}",
            lambda t: t in TYPE_KEYWORDS or _is_plain(t),
            lambda t: t in INTRODUCERS or t == "#",
        ),
        (
            lambda t: t in AFTER_DECLARATOR or t in (">", ">>"),
            lambda t: t in AFTER_DECLARATOR,
            lambda t: t in follower,
            lambda t: t in AFTER_DECLARATOR,
            lambda t: t in AFTER_DECLARATOR,
            lambda t: t in (";", ","),
            lambda t: t in AFTER_DECLARATOR or t in (">", ">>"),
            None,
        ),
        (None, None, None, _type_like, lambda t: _type_like(t) or t == "(", None, None, None),
    )


_TABLES = _tables(in_enum=False)
_TABLES_IN_ENUM = _tables(in_enum=True)
_LANE_SETS = (
    bytes(int(bool(b & _TYPED_LANES)) for b in range(256)),
    bytes(int(bool(b & _OTHER_LANES)) for b in range(256)),
)
_BRACES = _roles(lambda t: t in ("{", "}"))
_ENUM = _CLASS["enum"]
_TYPEDEF = _CLASS["typedef"]


class _Candidates(NamedTuple):
    """The code tokens worth reading (indices > 0, in order): `typed`, an identifier
    right after a type keyword or another identifier and before a declarator follower,
    which every check takes (when the kinds agree); `others`, those the checks must read
    one by one. And the class bytes."""

    typed: list[int]
    others: list[int]
    classes: bytes


def _candidates(texts: list[str]) -> _Candidates:
    """A superset of the tokens a check may take or that change the enum state."""
    n = len(texts)
    classes = bytes(map(_CLASS.get, texts, repeat(0)))
    if n < 2:
        return _Candidates([], [], classes)
    in_enum = _ENUM in classes
    cur, before, after, before_two = (
        int.from_bytes(classes.translate(table), "big")
        for table in (_TABLES_IN_ENUM if in_enum else _TABLES)
    )
    # token k is byte k from the left: >> 8 moves a byte one token on, << 8 one token back
    lanes = (
        cur
        & (before >> 8)
        & ((after << 8) | 0x80)  # the last token has no next: only lane 7 goes on
        & (
            (before_two >> 16)
            | int.from_bytes(bytes([_ALWAYS_BEFORE_TWO]) * 2, "big") << 8 * (n - 2)
        )
    ).to_bytes(n, "big")
    typed, others = (_ones(lanes.translate(table)) for table in _LANE_SETS)
    extra = _all_positions(classes, _TYPEDEF, 2)
    if in_enum:
        extra += _all_positions(classes, _ENUM, 0)
    if extra:
        others = sorted({*others, *(k for k in extra if 0 < k < n)})
    return _Candidates(typed, others, classes)


def _all_positions(classes: bytes, value: int, offset: int) -> list[int]:
    """The indices of the bytes equal to `value`, plus `offset`."""
    out: list[int] = []
    i = classes.find(value)
    while i != -1:
        out.append(i + offset)
        i = classes.find(value, i + 1)
    return out


def _ones(marks: bytes) -> list[int]:
    """Indices of the 1 bytes of `marks` (the others are 0), at C speed."""
    pieces = marks.split(b"\1")
    if len(pieces) == 1:
        return []
    return list(accumulate(map((1).__add__, map(len, pieces[1:-1])), initial=len(pieces[0])))


# --- the checks, at the candidates -------------------------------------------------------


class _Declaration:
    """The declaration whose declarators are being read: where its last name was (the
    latest of the names the checks started one at and of `starts`, the typed names that
    open one), and how far the tokens after it were read (open parentheses since, or
    ended by `;`/`{`/`}` or by a `)` closing one opened before it)."""

    __slots__ = ("at", "depth", "ended", "started", "starts", "texts")

    def __init__(self, texts: list[str], starts: list[int]) -> None:
        self.texts = texts
        self.starts = starts
        self.started = -1
        self.at = 0  # the index read up to
        self.depth = 0
        self.ended = True

    def start(self, k: int) -> None:
        self.started, self.at, self.depth, self.ended = k, k + 1, 0, False

    def continues_at(self, k: int) -> bool:
        """A declarator at k belongs to the declaration (same braces and parentheses)."""
        i = bisect_left(self.starts, k) - 1
        if i >= 0 and self.starts[i] > self.started:
            self.start(self.starts[i])
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


def _code_names(texts: list[str], kinds: list[str], names: set[str]) -> None:
    """Add the names the code tokens declare (see the module docstring)."""
    n = len(texts)
    if n < 2:
        return
    typed, candidates, classes = _candidates(texts)
    declaration = _Declaration(texts, _typed_names(texts, kinds, typed, names))
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
        if prev == "," and braces is None:  # only a typedef or a further declarator
            if kind == IDENTIFIER and nxt in AFTER_DECLARATOR:
                if nxt == ";" and k >= 2 and texts[k - 2] == "typedef":
                    add(text)
                elif declaration.continues_at(k):
                    add(text)
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
            prev == "," or prev in _DECLARATOR_PREFIX and _after_comma(texts, k)
        ) and declaration.continues_at(k):
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


def _typed_names(
    texts: list[str], kinds: list[str], typed: list[int], names: set[str]
) -> list[int]:
    """Add the typed candidates that are names (`int x`, `Buffer buf`: every check takes
    them); return those that open a declaration (`int x = 0, y;`)."""
    opens: list[int] = []
    add = names.add
    for k in typed:
        if kinds[k] == IDENTIFIER and (kinds[k - 1] == IDENTIFIER or texts[k - 1] in TYPE_KEYWORDS):
            add(texts[k])
            if texts[k + 1] in _OPENS_DECLARATORS:
                opens.append(k)
    return opens


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


def defined_names(source: bytes, path: str, mappings: Mappings | None = None) -> frozenset[str]:
    """The names `source` defines (macros, functions, types, variables), for the
    project-wide index; empty for a file that cannot be lexed."""
    from hipport.lexer import LexError, lex, might_need_translation

    if not might_need_translation(source):
        return frozenset()
    try:
        macros = mappings.gate.macro_names if mappings is not None else None
        return names_defined_by(lex(source, path), nvcc_macros=macros)
    except LexError:
        return frozenset()
