"""Which #if arms HIP compiles: every #if/#elif/#else chain whose conditions can be decided
from nvcc's predefined macros (undefined under hipcc), HIP's own (defined) and literals.

Not a rule (no RULE): the preprocessor-branch-flip hazard (HIP113) reports the chains that
flip, and the other gate rules (and unknown names) skip code that HIP never compiles, so a
construct in a `#if __CUDA_ARCH__ >= 350` arm is not called a build break when hipcc drops
that arm.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, product
from math import prod
from typing import TYPE_CHECKING

from hipport.lexer import COMMENT, IDENTIFIER, KEYWORD, LITERAL
from hipport.rules.gate_facts import facts_of_kind
from hipport.rules.tokens import Directive

if TYPE_CHECKING:
    from hipport.rules.context import Context

# Defined by hipcc for AMD (hipcc -dM -E) and by hip_runtime.h; __CUDACC__ is renamed to
# __HIPCC__ by the translation, so it counts as defined on both sides.
HIP_DEFINED = frozenset(
    {"__HIPCC__", "__HIP__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__CUDACC__"}
)
# Values a CUDA compilation gives nvcc's macros, for the CUDA releases a program is
# ported from today (12.x, 13.x); the host pass leaves __CUDA_ARCH__ undefined.
_CUDA_SAMPLES: dict[str, tuple[int | None, ...]] = {
    "CUDA_VERSION": (12000, 12080, 13000),
    "CUDART_VERSION": (12000, 12080, 13000),
    "__CUDA_API_VERSION": (12000, 12080, 13000),
    "__CUDACC_VER_MAJOR__": (12, 13),
    "__CUDACC_VER_MINOR__": (0, 2, 8),
    "__CUDACC_VER_BUILD__": (0, 85),
    "__CUDA_ARCH__": (None, 520, 800),
    "__CUDA_ARCH_LIST__": (None, 800),
    "__NVCC__": (1,),
    "__CUDACC_RTC__": (None,),
    "__CUDACC_RDC__": (None, 1),
}
_MAX_UNKNOWN = 3  # program macros tried both ways (2**3 evaluations at most)
_MAX_SAMPLES = 64  # CUDA compilations tried per condition
_OPENS = ("if", "ifdef", "ifndef")
_ARMS = ("elif", "else", "elifdef", "elifndef")
_INT = re.compile(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\Z")
_OPS = {"&&": " and ", "||": " or ", "!": " not ", "/": "//"}
_ALLOWED = frozenset("( ) + - * % < > <= >= == != ? :".split()) | set(_OPS)


@dataclass(frozen=True)
class Arm:
    directive: Directive
    cuda_macros: tuple[str, ...]  # nvcc macros its condition tests
    hip: bool | None  # its condition under HIP (None: cannot tell)
    cuda: frozenset[bool]  # its condition's values over CUDA compilations (empty: cannot tell)
    body: tuple[int, int]  # byte range of the arm's code: [after its directive, the next one)


@dataclass(frozen=True)
class Chain:
    arms: tuple[Arm, ...]
    taken_by_hip: int | None  # index of the arm HIP compiles; len(arms) = none; None: unknown


@dataclass(frozen=True)
class Branches:
    chains: tuple[Chain, ...]
    dead: tuple[tuple[int, int], ...]  # sorted, disjoint byte ranges HIP never compiles

    def is_dead(self, offset: int) -> bool:
        """The byte at `offset` sits in an #if arm that hipcc does not compile."""
        k = bisect_right(self.dead, (offset, 1 << 62)) - 1
        return k >= 0 and self.dead[k][0] <= offset < self.dead[k][1]


def branches(ctx: Context) -> Branches:
    """The file's #if chains as HIP sees them (computed once per Context)."""
    found = ctx.__dict__.get("_hip_branches")
    if found is None:
        found = ctx.__dict__["_hip_branches"] = _branches(ctx)
    return found


def _branches(ctx: Context) -> Branches:
    dirs = [d for d in ctx.directives if d.name in _OPENS + _ARMS + ("endif",)]
    if not dirs:
        return Branches((), ())
    # a program that #defines one of nvcc's macros itself decides its value
    macros = frozenset(facts_of_kind("macro")) - ctx.defined
    chains: list[Chain] = []
    stack: list[list[Directive]] = []
    for d in dirs:
        if d.name in _OPENS:
            stack.append([d])
        elif d.name in _ARMS and stack:
            stack[-1].append(d)
        elif d.name == "endif" and stack:
            chains.append(_chain(ctx, stack.pop(), d, macros))
    dead: list[tuple[int, int]] = []
    for chain in chains:
        if chain.taken_by_hip is None:
            continue
        dead.extend(a.body for i, a in enumerate(chain.arms) if i != chain.taken_by_hip)
    return Branches(tuple(chains), _merge(dead))


def _merge(ranges: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def _chain(ctx: Context, ds: list[Directive], endif: Directive, macros: frozenset[str]) -> Chain:
    arms = []
    defined = ctx.defined
    for i, d in enumerate(ds):
        end = ds[i + 1].line_start if i + 1 < len(ds) else endif.line_start
        words = _condition(ctx, d)
        distinct = set(words)
        tested, hip, cuda = _arm_values(
            tuple(words), frozenset(distinct & macros), frozenset(distinct & defined)
        )
        arms.append(Arm(d, tested, hip, cuda, (d.line_end, end)))
    taken: int | None = len(arms)
    for i, arm in enumerate(arms):
        if arm.hip is None:
            taken = None
            break
        if arm.hip:
            taken = i
            break
    return Chain(tuple(arms), taken)


@lru_cache(maxsize=8192)
def _arm_values(
    words: tuple[str, ...], macros: frozenset[str], defined: frozenset[str]
) -> tuple[tuple[str, ...], bool | None, frozenset[bool]]:
    """An arm's nvcc macros, its value under HIP and its values over CUDA compilations,
    from its condition's words and those of them that are nvcc macros (not the program's)
    and that the program defines (all it depends on: the same condition in many files is
    evaluated once)."""
    tested = tuple(sorted(macros))
    hip = _value(list(words), lambda name: _hip_value(name, defined))
    return tested, hip, _cuda_values(list(words), tested)


def _condition(ctx: Context, d: Directive) -> list[str]:
    """The condition as a list of token texts, #ifdef/#ifndef/#else written as #if."""
    cols = ctx.columns
    all_kinds = cols.kinds[d.hash + 2 : d.end]
    code = [k != COMMENT for k in all_kinds]
    kinds = list(compress(all_kinds, code))
    texts = list(compress(cols.texts[d.hash + 2 : d.end], code))
    if d.name in ("ifdef", "elifdef"):
        return ["defined", *texts[:1]]
    if d.name in ("ifndef", "elifndef"):
        return ["!", "defined", *texts[:1]]
    if d.name == "else":
        return ["1"]
    if any(k not in (IDENTIFIER, KEYWORD, LITERAL, "punctuation") for k in kinds):
        return ["?"]
    return texts


def _hip_value(name: str, own: frozenset[str] = frozenset()) -> int | None | str:
    """A macro's value under hipcc: 1 for HIP's own, None (undefined) for nvcc's unless
    the program defines it, else "?" (the program's: unknown)."""
    if name in HIP_DEFINED:
        return 1
    if name in _CUDA_SAMPLES and name not in own:
        return None
    return "?"


def _value(
    words: list[str],
    lookup: Callable[[str], int | None | str],
    assignment: dict[str, int | None] | None = None,
) -> bool | None:
    """The condition's truth with macro values from `lookup` (a name -> int, None for
    undefined, "?" for unknown): unknown names are tried as undefined and as 1; a condition
    that comes out the same either way is decided."""
    names = sorted({w for w in words if _is_name(w) and w != "defined"})
    values = {n: lookup(n) for n in names}
    values.update(assignment or {})
    unknown = [n for n, v in values.items() if v == "?"]
    if len(unknown) > _MAX_UNKNOWN or (unknown and len(unknown) == len(values)):
        return None  # only the program's macros (an include guard, a config switch)
    results = set()
    for combo in product((None, 1), repeat=len(unknown)):
        env = {**values, **dict(zip(unknown, combo, strict=True))}
        result = _evaluate(words, env)
        if result is None:
            return None
        results.add(result)
    return results.pop() if len(results) == 1 else None


def _cuda_values(words: list[str], tested: tuple[str, ...]) -> frozenset[bool]:
    """The condition's values over the sampled CUDA compilations of the macros it tests."""
    samples = [_CUDA_SAMPLES.get(m, (1,)) for m in tested]
    if not tested or prod(len(s) for s in samples) > _MAX_SAMPLES:
        return frozenset()  # nothing to compare, or too many combinations to try
    out = set()
    for combo in product(*samples):
        value = _value(words, _cuda_value, dict(zip(tested, combo, strict=True)))
        if value is not None:
            out.add(value)
    return frozenset(out)


def _cuda_value(name: str) -> int | None | str:
    """A macro's value under nvcc (the sampled nvcc macros are assigned by the caller)."""
    if name == "__CUDACC__" or name in _CUDA_SAMPLES:
        return 1
    if name in HIP_DEFINED:
        return None
    return "?"


def _int(word: str) -> int | None:
    match = _INT.match(word)
    if match is None:
        return None
    digits = match.group(1)
    if digits[:2] in ("0x", "0X"):
        return int(digits[2:], 16)
    return int(digits, 8) if len(digits) > 1 and digits[0] == "0" else int(digits)


def _is_name(word: str) -> bool:
    return word[:1].isalpha() or word[:1] == "_"


def _evaluate(words: list[str], env: dict[str, int | None]) -> bool | None:
    """Evaluate a preprocessor condition over integers; None if it is not one we read."""
    parts: list[str] = []
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        if w == "defined":
            j = i + 1
            paren = j < n and words[j] == "("
            if paren:
                j += 1
            if j >= n or not _is_name(words[j]):
                return None
            parts.append("1" if env.get(words[j]) is not None else "0")
            i = j + (2 if paren else 1)
            continue
        if _is_name(w):
            value = env.get(w)
            parts.append(str(value if isinstance(value, int) else 0))
        elif _int(w) is not None:
            parts.append(str(_int(w)))
        elif w in _ALLOWED:
            parts.append(_OPS.get(w, w))
        else:
            return None
        i += 1
    expr = " ".join(parts)
    if "?" in expr or ":" in expr:
        return None
    try:
        return bool(eval(expr, {"__builtins__": {}}, {}))  # integers and operators only
    except (SyntaxError, ZeroDivisionError, TypeError, ValueError):
        return None
