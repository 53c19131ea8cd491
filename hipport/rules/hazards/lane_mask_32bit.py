"""HIP103 lane-mask-32bit: 32-bit lane masks passed to *_sync intrinsics, and ballot
results kept in 32 bits."""

from __future__ import annotations

from collections.abc import Callable

from hipport.catalogue import LANE_MASK_32BIT
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, KEYWORD, LITERAL, PUNCTUATION
from hipport.rules.code_index import CodeIndex
from hipport.rules.hazards import HazardRule
from hipport.rules.names import MASKED_SYNC
from hipport.rules.tokens import int_value

BALLOTS = frozenset({"__ballot_sync", "__ballot", "__activemask"})


# 32-bit bit helpers and their 64-bit HIP/CUDA counterparts.
NARROW_BIT_OPS = {
    "__popc": "__popcll",
    "__ffs": "__ffsll",
    "__clz": "__clzll",
    "__brev": "__brevll",
}


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


def check_lane_mask_32bit(v: CodeIndex) -> list[Finding]:
    out = []
    calls = v.indices(MASKED_SYNC | BALLOTS)
    if not calls:
        return out
    known: list[set[str]] = []

    def names() -> set[str]:  # read only when a mask argument is a name
        if not known:
            known.append(_full_mask_names(v))
        return known[0]

    for k in calls:
        t = v.toks[k]
        if v.is_member(k) or not v.punct(k + 1, "("):
            continue
        if t.text in MASKED_SYNC:
            out.extend(_mask_argument(v, k, names))
        if t.text in BALLOTS:
            f = _narrow_ballot(v, k)
            if f is not None:
                out.append(f)
    return out


def _unsigned_only_suffix(text: str) -> bool:
    """A literal typed unsigned int: a u/U suffix and no l/L (so ~0u is 32 bits wide)."""
    suffix = text[len(text.rstrip("uUlLzZ")) :]
    return "u" in suffix.lower() and "l" not in suffix.lower()


def _full_mask_at(v: CodeIndex, k: int) -> int | None:
    """If a 32-bit all-ones mask starts at code token k, the index of its last token."""
    t = v.toks[k]
    if t.kind == LITERAL and int_value(t.text) == 0xFFFFFFFF:
        return k
    if t.text == "~" and t.kind == PUNCTUATION and k + 1 < len(v.toks):
        lit = v.toks[k + 1]
        if lit.kind == LITERAL and int_value(lit.text) == 0 and _unsigned_only_suffix(lit.text):
            return k + 1
    return None


def _full_mask_names(v: CodeIndex) -> set[str]:
    """Macros and constants whose value is a 32-bit all-ones mask."""
    names = set()
    for d in v.defines:
        val = [k for k in d.value if v.text(k) not in ("(", ")")]
        if not d.function_like and val and _full_mask_at(v, val[0]) == val[-1]:
            names.add(d.name)
    for j in v.indices(("=",), (PUNCTUATION,)):
        k = j - 1
        if k >= 0 and v.kinds[k] == IDENTIFIER and not v.is_member(k) and k + 2 < v.n:
            last = _full_mask_at(v, k + 2)
            if last is not None and v.text(last + 1) in (";", ",", "}"):
                names.add(v.texts[k])
    return names


def _mask_argument(v: CodeIndex, k: int, names: Callable[[], set[str]]) -> list[Finding]:
    close = v.match(k + 1)
    args = v.arguments(k + 1, close) if close is not None else None
    if not args:
        return []
    a, b = args[0]
    name = v.toks[k].text
    for j in range(a, b):
        last = _full_mask_at(v, j)
        if last is None and v.toks[j].kind == IDENTIFIER and v.toks[j].text in names():
            last = j
        if last is None:
            continue
        text = " ".join(v.toks[i].text for i in range(j, last + 1)).replace("~ ", "~")
        return [
            v.finding(
                LANE_MASK_32BIT,
                j,
                last,
                f"{name} mask `{text}` covers only lanes 0-31; AMD wavefronts have 64 lanes and "
                "HIP masks are 64-bit: pass __activemask() or a 64-bit mask (~0ull)",
                api=name,
                hint=LANE_MASK_32BIT.fix,
            )
        ]
    return []


def _narrow_ballot(v: CodeIndex, k: int) -> Finding | None:
    """__ballot*/__activemask result stored, cast or passed into 32 bits."""
    name = v.toks[k].text
    p = k - 1
    narrow: str | None = None
    if v.punct(p, "=") and p >= 1 and v.toks[p - 1].kind == IDENTIFIER:
        narrow = _declared_narrow(v, p - 1)
    elif v.punct(p, ")"):  # C-style cast (unsigned)__ballot(...)
        q = p - 1
        words = []
        while q >= 0 and v.toks[q].kind in (KEYWORD, IDENTIFIER):
            words.append(v.toks[q].text)
            q -= 1
        if v.punct(q, "(") and _narrow_type(words):
            narrow = " ".join(reversed(words))
    elif v.punct(p, "(") and v.punct(p - 1, ">"):  # static_cast<unsigned>(...)
        q = p - 2
        words = []
        while q >= 0 and v.toks[q].kind in (KEYWORD, IDENTIFIER) or v.text(q) == "::":
            words.append(v.toks[q].text)
            q -= 1
        if v.punct(q, "<") and v.text(q - 1) == "static_cast" and _narrow_type(words):
            narrow = " ".join(reversed(words))
    elif v.punct(p, "(") and v.text(p - 1) in NARROW_BIT_OPS:
        op = v.text(p - 1)
        return v.finding(
            LANE_MASK_32BIT,
            p - 1,
            k,
            f"{op} takes a 32-bit value, so {op}({name}(...)) drops lanes 32-63 of a 64-lane "
            f"AMD wavefront: use {NARROW_BIT_OPS[op]}",
            api=name,
            hip=NARROW_BIT_OPS[op],
            hint=LANE_MASK_32BIT.fix,
        )
    if narrow is None:
        return None
    return v.finding(
        LANE_MASK_32BIT,
        k,
        k,
        f"{name} result kept in 32-bit `{narrow}` loses lanes 32-63 of a 64-lane AMD "
        "wavefront: store it in unsigned long long (or auto)",
        api=name,
        hip="unsigned long long",
        hint=LANE_MASK_32BIT.fix,
    )


def _narrow_type(words_reversed: list[str]) -> bool:
    words = tuple(sorted(w for w in words_reversed if w not in TYPE_QUALIFIERS))
    return words in NARROW_TYPES


def _type_before(v: CodeIndex, k: int) -> list[str]:
    """Type words right before code token k (a declared name), nearest first."""
    words = []
    q = k - 1
    while q >= 0 and (v.toks[q].kind in (KEYWORD, IDENTIFIER) or v.text(q) == "::"):
        words.append(v.toks[q].text)
        q -= 1
    return words


def _declared_narrow(v: CodeIndex, k: int) -> str | None:
    """The 32-bit type the variable at code token k is declared with, if it is: either
    declared right here (`unsigned m = ...`) or earlier in the same function."""
    words = _type_before(v, k)
    if words:
        return " ".join(reversed(words)) if _narrow_type(words) else None
    body = v.body_at(k)
    if body is None:
        return None
    name = v.toks[k].text
    for j in range(k - 1, body.head - 1, -1):
        if v.toks[j].text != name or v.toks[j].kind != IDENTIFIER:
            continue
        if v.text(j + 1) not in (";", ",", "=", ")", "["):
            continue
        words = _type_before(v, j)
        if words:
            return " ".join(reversed(words)) if _narrow_type(words) else None
    return None


RULE = HazardRule(LANE_MASK_32BIT, check_lane_mask_32bit, MASKED_SYNC | BALLOTS | {"="})
