"""Reading lane masks on the code-token index: the 32-bit all-lanes masks CUDA code writes
(`0xffffffff`, `0xFFFFFFFFu`, `~0u`, `(unsigned)-1`, `-1`, a macro or constant defined as one
of them) and masks typed 32-bit (an `unsigned` variable, a literal expression). Shared by the
HIP103 hazard and the warp-mask rewrite (rules/warp_masks.py); no RULE here."""

from __future__ import annotations

from hipport.lexer import IDENTIFIER, KEYWORD, LITERAL, PUNCTUATION
from hipport.rules.code_index import CodeIndex
from hipport.rules.tokens import int_value

# Type spellings (qualifiers dropped, sorted) that hold only 32 bits on every platform.
NARROW_TYPES = frozenset(
    {
        ("unsigned",),
        ("int", "unsigned"),
        ("int",),
        ("signed",),
        ("int", "signed"),
        ("uint32_t",),
        ("int32_t",),
        ("uint",),
    }
)
TYPE_QUALIFIERS = frozenset({"const", "volatile", "static", "register", "std", "::"})
# what a 64-bit all-lanes mask is written as (HIP's masks are unsigned long long)
FULL_MASK_64 = "0xffffffffffffffffull"
# operators a literal-only mask expression may use
_MASK_OPERATORS = frozenset({"~", "|", "&", "^", "<<", ">>", "+", "-", "(", ")"})


def unsigned_only_suffix(text: str) -> bool:
    """A literal typed unsigned int: a u/U suffix and no l/L (so ~0u is 32 bits wide)."""
    suffix = text[len(text.rstrip("uUlLzZ")) :].lower()
    return "u" in suffix and "l" not in suffix


def _narrow_literal(text: str) -> bool:
    """An integer literal without an l/L suffix whose value fits 32 bits."""
    value = int_value(text)
    suffix = text[len(text.rstrip("uUlLzZ")) :].lower()
    return value is not None and value <= 0xFFFFFFFF and "l" not in suffix


def full_mask_at(v: CodeIndex, k: int) -> int | None:
    """If a 32-bit all-ones mask starts at code token k, the index of its last token:
    0xffffffff (any suffix without l), ~0 / ~0u, -1, (unsigned)-1 / (unsigned int)-1."""
    t = v.tokens[k]
    if t.kind == LITERAL and int_value(t.text) == 0xFFFFFFFF and _narrow_literal(t.text):
        return k
    if t.kind != PUNCTUATION or k + 1 >= len(v.tokens):
        return None
    if t.text == "~":
        lit = v.tokens[k + 1]
        if lit.kind == LITERAL and int_value(lit.text) == 0 and _narrow_literal(lit.text):
            return k + 1
        return None
    if t.text == "-":  # a negation, not `x - 1`
        first = v.tokens.text(k - 1) in ("(", ",", "=") if k else True
        return k + 1 if first and v.tokens.text(k + 1) == "1" else None
    if t.text == "(":
        words = []
        q = k + 1
        while q < len(v.tokens) and v.tokens[q].kind in (KEYWORD, IDENTIFIER):
            words.append(v.tokens.texts[q])
            q += 1
        if words and narrow_type(words) and v.tokens.punct(q, ")") and v.tokens.punct(q + 1, "-"):
            return q + 2 if v.tokens.text(q + 2) == "1" else None
    return None


def full_mask_names(v: CodeIndex) -> set[str]:
    """Macros and constants whose value is a 32-bit all-ones mask."""
    names = set()
    for d in v.defines:
        val = list(d.value)
        while len(val) > 2 and v.tokens.text(val[0]) == "(" and v.tokens.match(val[0]) == val[-1]:
            val = val[1:-1]
        minus_one = [v.tokens.text(q) for q in val] == ["-", "1"]
        if not d.function_like and val and (minus_one or full_mask_at(v, val[0]) == val[-1]):
            names.add(d.name)
    for j in v.indices(("=",), (PUNCTUATION,)):
        k = j - 1
        if (
            k >= 0
            and v.tokens.kinds[k] == IDENTIFIER
            and not v.tokens.is_member(k)
            and k + 2 < len(v.tokens)
        ):
            last = full_mask_at(v, k + 2)
            if last is not None and v.tokens.text(last + 1) in (";", ",", "}"):
                names.add(v.tokens.texts[k])
    return names


def strip_parens(v: CodeIndex, a: int, b: int) -> tuple[int, int]:
    """The argument [a, b) without parentheses around all of it."""
    while b - a > 2 and v.tokens.punct(a, "(") and v.tokens.match(a) == b - 1:
        a, b = a + 1, b - 1
    return a, b


def narrow_type(words: list[str]) -> bool:
    return tuple(sorted(w for w in words if w not in TYPE_QUALIFIERS)) in NARROW_TYPES


def type_before(v: CodeIndex, k: int) -> list[str]:
    """Type words right before code token k (a declared name), nearest first."""
    words = []
    q = k - 1
    while q >= 0 and (v.tokens[q].kind in (KEYWORD, IDENTIFIER) or v.tokens.text(q) == "::"):
        words.append(v.tokens[q].text)
        q -= 1
    return words


_DECLARATOR = frozenset({"::", "*", "&", "<", ">"})


_DECLARATOR = frozenset({"::", "*", "&", "<", ">"})


def declared_type(v: CodeIndex, k: int) -> list[str] | None:
    """The words of the declaration of the variable at code token k (`const float * in` ->
    ["const", "float", "*"]), found in its function (parameters included); None if unseen."""
    body = v.body_at(k)
    if body is None:
        return None
    t = v.tokens
    texts, kinds = t.texts, t.kinds
    name = texts[k]
    for j in range(k - 1, body.head - 1, -1):
        if texts[j] != name or kinds[j] != IDENTIFIER:
            continue
        if t.text(j + 1) not in (";", ",", "=", ")", "[") or t.text(j - 1) in (".", "->"):
            continue
        words = []
        q = j - 1
        while q >= 0 and (kinds[q] in (KEYWORD, IDENTIFIER) or texts[q] in _DECLARATOR):
            words.append(texts[q])
            q -= 1
        if any(kinds[j - 1 - i] in (KEYWORD, IDENTIFIER) for i in range(len(words))):
            return list(reversed(words))
    return None


def declared_narrow(v: CodeIndex, k: int) -> str | None:
    """The 32-bit type the variable at code token k is declared with, if it is: either
    declared right here (`unsigned m = ...`) or earlier in the same function."""
    words = type_before(v, k)
    if words:
        return " ".join(reversed(words)) if narrow_type(words) else None
    body = v.body_at(k)
    if body is None:
        return None
    name = v.tokens[k].text
    for j in range(k - 1, body.head - 1, -1):
        if v.tokens[j].text != name or v.tokens[j].kind != IDENTIFIER:
            continue
        if v.tokens.text(j + 1) not in (";", ",", "=", ")", "["):
            continue
        words = type_before(v, j)
        if words:
            return " ".join(reversed(words)) if narrow_type(words) else None
    return None


def narrow_mask(v: CodeIndex, a: int, b: int) -> str | None:
    """Why the mask argument [a, b) (not a full mask) is a 32-bit integer, or None when it
    may be 64-bit or its type is not known: a variable declared with a 32-bit type, a cast
    to one, or an expression of literals without an l/L suffix (`0xffff`, `(1u << n) - 1`
    with n a literal)."""
    a, b = strip_parens(v, a, b)
    if b - a == 1 and v.tokens.kinds[a] == IDENTIFIER:
        narrow = declared_narrow(v, a)
        return f"`{v.tokens.texts[a]}` is declared `{narrow}`" if narrow else None
    if v.tokens.punct(a, "("):
        close = v.tokens.match(a)
        words = [v.tokens.texts[q] for q in range(a + 1, close)] if close is not None else []
        if words and all(v.tokens.kinds[q] in (KEYWORD, IDENTIFIER) for q in range(a + 1, close)):
            return f"it is cast to `{' '.join(words)}`" if narrow_type(words) else None
    literals = 0
    for q in range(a, b):
        kind, text = v.tokens.kinds[q], v.tokens.texts[q]
        if kind == LITERAL and _narrow_literal(text):
            literals += 1
        elif not (kind == PUNCTUATION and text in _MASK_OPERATORS):
            return None
    return "it is an int or unsigned int literal expression" if literals else None
