"""The declaration walk that rules/declared.py's names_defined_by replaced (git 057e7fd^,
hipport/engine.py): one pass over every code token with every check, in order. The word
lists are the heuristic's vocabulary and are shared with the fast code; the walk is not."""

from __future__ import annotations

from hipport.rules.declared import AFTER_DECLARATOR, INTRODUCERS, NOT_TYPES, TESTS, TYPE_KEYWORDS

IDENTIFIER = "identifier"
KEYWORD = "keyword"
PUNCTUATION = "punctuation"
COMMENT = "comment"
WORDS = (IDENTIFIER, KEYWORD)

Tok = tuple[str, str]  # (kind, text)


def names_defined_by(
    tokens: list[Tok], directives: list[tuple[str, int, int]], nvcc_macros: frozenset[str]
) -> frozenset[str]:
    """`tokens`: every token of the file, comments included; `directives`: (name, index of
    the `#`, end index) of each directive line; `nvcc_macros`: the macros nvcc predefines,
    which a file tests but does not define."""
    names: set[str] = set()
    in_directive: set[int] = set()
    for name, hash_, end in directives:
        in_directive.update(range(hash_, end))
        if hash_ + 2 >= end or tokens[hash_ + 2][0] not in WORDS:
            continue
        if name == "define":
            names.add(tokens[hash_ + 2][1])
        elif name in TESTS:
            names.update(
                text
                for kind, text in tokens[hash_ + 2 : end]
                if kind == IDENTIFIER and text != "defined" and text not in nvcc_macros
            )
    code = [t for i, t in enumerate(tokens) if t[0] != COMMENT and i not in in_directive]
    _walk(code, names)
    return frozenset(names)


def _walk(code: list[Tok], names: set[str]) -> None:
    n = len(code)
    enum_depth = -1
    depth = 0
    paren = 0
    # (brace depth, paren depth) of the declaration whose declarators are being read
    declaring: tuple[int, int] | None = None
    for k, (kind, text) in enumerate(code):
        if kind == PUNCTUATION:
            if text == "(":
                paren += 1
            elif text == ")":
                paren -= 1
                if declaring is not None and paren < declaring[1]:
                    declaring = None
            elif text == ";":
                declaring = None
            elif text == "{":
                depth += 1
                declaring = None
            elif text == "}":
                depth -= 1
                declaring = None
                if depth < enum_depth:
                    enum_depth = -1
            continue
        if kind not in WORDS or k == 0:
            continue
        prev_kind, prev = code[k - 1]
        nxt_kind, nxt = code[k + 1] if k + 1 < n else (None, None)
        two_before = code[k - 2][1] if k >= 2 else None
        if text == "define" and prev == "#" and nxt_kind in WORDS:
            names.add(nxt)
            continue
        if prev in INTRODUCERS and kind == IDENTIFIER:
            names.add(text)
            if prev == "enum" or two_before == "enum":
                enum_depth = depth + 1
            continue
        if text == "enum" or (text == "class" and prev == "enum"):
            enum_depth = depth + 1
            continue
        if kind != IDENTIFIER:
            continue
        if (
            enum_depth != -1
            and depth == enum_depth
            and prev in ("{", ",")
            and nxt in ("=", ",", "}")
        ):
            names.add(text)
            continue
        if prev == "using" and nxt == "=":
            names.add(text)
            continue
        if nxt is None:
            continue
        if nxt in (">", ">>") and (prev in TYPE_KEYWORDS or prev == "typename"):
            names.add(text)  # a template parameter: template <int CUDA_N>
            continue
        if nxt not in AFTER_DECLARATOR:
            continue
        if prev == "}" and nxt in (";", ","):
            names.add(text)  # struct {...} name; / typedef struct {...} name_t;
            declaring = (depth, paren)
            continue
        if nxt == ";" and two_before == "typedef":
            names.add(text)
            continue
        if declaring == (depth, paren) and _after_comma(code, k):
            names.add(text)  # a further declarator: int a = 0, b; Buffer *x, *y;
            continue
        if prev == "[" and two_before in ("auto", "&", "&&"):
            j = k  # a structured binding: auto [cuda_key, cuda_value] = ...
            while j < n and code[j][1] != "]" and j - k < 64:
                if code[j][0] == IDENTIFIER:
                    names.add(code[j][1])
                j += 1
            continue
        if prev == "*" and nxt == ")" and two_before == "(":
            names.add(text)  # a function pointer: void (*callback)(int)
            continue
        pointer = prev in ("*", "&", "&&", ">", "**")
        if (prev_kind == IDENTIFIER and prev not in NOT_TYPES) or prev in TYPE_KEYWORDS or pointer:
            if pointer and not _looks_declaration(code, k):
                continue
            names.add(text)
            if nxt in ("=", ",", ";", "["):
                declaring = (depth, paren)


def _after_comma(code: list[Tok], k: int) -> bool:
    """code[k] follows `,` (past `*`, `&`, `const` of its declarator)."""
    j = k - 1
    while j >= 0 and code[j][1] in ("*", "&", "&&", "**", "const", "volatile", "__restrict__"):
        j -= 1
    return j >= 0 and code[j][1] == ","


def _looks_declaration(code: list[Tok], k: int) -> bool:
    """`T * name` / `T<X> name`: the token before the operator is a type-like word."""
    j = k - 1
    while j >= 0 and code[j][1] in ("*", "&", "&&", "**", "const"):
        j -= 1
    if j < 0:
        return False
    kind, text = code[j]
    if text == ">":
        return True
    if kind not in WORDS or text in NOT_TYPES:
        return False
    if j == 0:
        return True
    before_kind, before = code[j - 1]
    return (
        before in (";", "{", "}", "(", ",", ")", ">", "<", "::", "#")
        or before_kind in WORDS
        or before in TYPE_KEYWORDS
    )
