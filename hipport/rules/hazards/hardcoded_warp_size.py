"""HIP102 hardcoded-warp-size: lane arithmetic, per-warp arrays and warp-size constants
written for 32-lane warps, in code that uses warp intrinsics."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import compress

from hipport.catalogue import HARDCODED_WARP_SIZE
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, KEYWORD, LITERAL, PUNCTUATION
from hipport.rules.code_index import Body, CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule
from hipport.rules.names import MASKED_SYNC
from hipport.rules.tokens import int_value

# Warp-level intrinsics: the masked *_sync ones and their unmasked forms.
WARP_INTRINSICS = MASKED_SYNC | {
    "__shfl",
    "__shfl_up",
    "__shfl_down",
    "__shfl_xor",
    "__ballot",
    "__any",
    "__all",
    "__activemask",
    "tiled_partition",
}

# (operator, literal value) pairs that compute a lane or warp index for 32-lane warps.
LANE_ARITHMETIC = {"%": 32, "%=": 32, "/": 32, "/=": 32, "&": 31, "&=": 31, ">>": 5, ">>=": 5}

# Function names of lane/warp index helpers: laneId, lane_id, warpId, get_warp_index, ...
_LANE_HELPER = re.compile(
    r"(?i)(?:^|_)(?:lane|warp)(?:_?id|_?idx|_?index)?$|"
    r"^(?:get_?)?(?:lane|warp)_?(?:id|idx|index)$"
)


# Every name _LANE_HELPER accepts holds one of these, lower-cased.
_HELPER_WORDS = (b"warp", b"lane")


def _warp_bodies(v: CodeIndex) -> list[Body]:
    """Function bodies that use a warp intrinsic, or lane/warp index helpers (a function
    named like laneId / warp_id)."""
    uses = v.indices(WARP_INTRINSICS)
    if not uses and not any(
        _LANE_HELPER.search(v.tokens.texts[k]) for k in v.containing(_HELPER_WORDS, lowered=True)
    ):
        return []  # no body uses an intrinsic, no token is named as a lane helper
    return [b for b in v.bodies if _LANE_HELPER.search(b.name) or v.between(uses, b.open, b.close)]


def check_hardcoded_warp_size(v: CodeIndex) -> list[Finding]:
    out = []
    macros = _warp_size_macros(v)
    for name, sites in macros.items():
        for a, b in sites:
            out.append(
                v.finding(
                    HARDCODED_WARP_SIZE,
                    a,
                    b,
                    f"{name} is hard-coded as 32, but AMD wavefronts are 64 lanes: use warpSize, "
                    "or define it per platform (#if defined(__HIP_PLATFORM_AMD__) 64)",
                    api=name,
                    hip="warpSize",
                    hint=HARDCODED_WARP_SIZE.fix,
                )
            )
    bodies = _warp_bodies(v)
    if not bodies:
        return out
    shared = v.indices(("__shared__",), _ANY_KIND)
    for body in bodies:
        out.extend(_lane_arithmetic(v, body))
        out.extend(_shared_per_warp(v, body, set(macros), shared))
    return out


@lru_cache(maxsize=1 << 16)  # asked of every distinct name of every file
def _warp_size_name(name: str) -> bool:
    flat = name.lower().replace("_", "")
    # kWarp / WARP / warp_lanes: constants that hold a warp's width (set to 32 they are a
    # hazard; the value test is done by the caller)
    return flat in ("warp", "kwarp", "warplanes", "warplen") or flat.endswith(
        ("warpsize", "warpsz", "threadsperwarp", "warpthreads", "lanesperwarp", "warpwidth")
    )


def _warp_size_names(v: CodeIndex) -> list[int]:
    """The identifiers named like a warp size (each holds "warp" once lower-cased and its
    underscores dropped): the tokens holding "warp", unless the source spells it with
    underscores inside (W_ARP), then every distinct name is asked."""
    low = v.lowered_source
    if low.count(b"warp") != low.replace(b"_", b"").count(b"warp"):
        return v.indices(v.names_where(_warp_size_name))
    return [
        k
        for k in v.containing((b"warp",), lowered=True)
        if v.tokens.kinds[k] == IDENTIFIER and _warp_size_name(v.tokens.texts[k])
    ]


def _warp_size_macros(v: CodeIndex) -> dict[str, list[tuple[int, int]]]:
    """Warp-size-named macros and constants set to 32: name -> (name, value) code-token
    index pairs, unless the same name is also given another value (an AMD #if branch)."""
    named = _warp_size_names(v)
    if not named:  # a #define's name is one of them too
        return {}
    values: dict[str, set[int | None]] = {}
    sites: dict[str, list[tuple[int, int]]] = {}
    for d in v.defines:
        if d.function_like or not _warp_size_name(d.name):
            continue
        val = v.int_of(d.value)
        values.setdefault(d.name, set()).add(val)
        if val == 32:
            sites.setdefault(d.name, []).append((d.name_index, d.value[-1]))
    for k in named:
        name = v.tokens.texts[k]
        if not v.tokens.punct(k + 1, "=") or v.tokens.is_member(k):
            continue
        end = k + 2
        while end < len(v.tokens) and v.tokens.text(end) not in (";", ",", "}", ">", ")"):
            end += 1
        val = v.int_of(list(range(k + 2, end)))
        values.setdefault(name, set()).add(val)
        if val == 32:
            sites.setdefault(name, []).append((k, end - 1))
    return {name: ks for name, ks in sites.items() if values[name] == {32}}


_ANY_KIND = (IDENTIFIER, KEYWORD, LITERAL, PUNCTUATION)


def _lane_arithmetic(v: CodeIndex, body: Body) -> list[Finding]:
    out = []
    texts, kinds = v.tokens.texts, v.tokens.kinds
    inside = range(body.open + 1, body.close - 1)
    ops = compress(inside, map(LANE_ARITHMETIC.__contains__, texts[body.open + 1 : body.close - 1]))
    ops = list(ops)  # then only those a literal follows (at C speed)
    for k in compress(ops, map(LITERAL.__eq__, map(kinds.__getitem__, map((1).__add__, ops)))):
        op = texts[k]
        if kinds[k] != PUNCTUATION:
            continue
        lit = texts[k + 1]
        if int_value(lit) != LANE_ARITHMETIC[op]:
            continue
        if v.tokens.text(k + 2) in ("(", "["):  # part of a longer expression starting there: skip
            continue
        if kinds[k - 1] == LITERAL:  # a constant such as 1024 / 32 (a bound): skip
            continue
        what = {32: "32 lanes", 31: "a 32-lane mask", 5: "log2(32)"}[LANE_ARITHMETIC[op]]
        out.append(
            v.finding(
                HARDCODED_WARP_SIZE,
                k,
                k + 1,
                f"`{op} {lit}` assumes {what} per warp in warp-level code; AMD "
                "wavefronts have 64 lanes: compute lane and warp indices from warpSize",
                api=f"{op} {lit}",
                hip="warpSize",
                hint=HARDCODED_WARP_SIZE.fix,
            )
        )
    return out


def _shared_per_warp(
    v: CodeIndex, body: Body, macros: set[str], shared: list[int]
) -> list[Finding]:
    out = []
    after = body.open + 1  # a __shared__ before this is part of the declaration just seen
    for k in v.between(shared, body.open + 1, body.close):
        if k < after:
            continue
        end = k
        while end < body.close and v.tokens.text(end) not in (";", "="):
            end += 1
        for j in range(k, end):
            if not v.tokens.punct(j, "["):
                continue
            close = v.tokens.match(j, end + 1)
            if close is None:
                continue
            dim_ks = list(range(j + 1, close))
            dim = v.value_of(dim_ks)
            if v.int_of(dim_ks) == 32 or (len(dim) == 1 and dim[0].text in macros):
                out.append(
                    v.finding(
                        HARDCODED_WARP_SIZE,
                        j,
                        close,
                        f"__shared__ array sized [{dim[0].text}] per warp lane or warp next to "
                        "warp intrinsics assumes 32-lane warps; AMD wavefronts have 64 lanes: size "
                        "it for 64 (or the maximum over platforms) and index it with warpSize",
                        api=f"[{dim[0].text}]",
                        hip="warpSize",
                        hint=HARDCODED_WARP_SIZE.fix,
                    )
                )
        after = end + 1
    return out


RULE = HazardRule(
    HARDCODED_WARP_SIZE,
    check_hardcoded_warp_size,
    # a warp intrinsic, or a name holding warp or lane (a warp-size constant, a lane helper)
    Triggers(names=WARP_INTRINSICS, folded=_HELPER_WORDS),
    WARP_INTRINSICS | {"__shared__"},
)
