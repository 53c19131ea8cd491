"""HIP109 mixed-warp-width: a kernel that reduces over 32-lane tiles but counts or indexes
its warps with warpSize, or takes a lane id as `% 32` next to warpSize-wide code.

On a 32-lane warp the two widths agree and the program is right; on a 64-lane wavefront one
warpSize slot holds two 32-lane tiles, so two tiles' sums land in one slot (or one of them is
never stored) and the result changes without a build error. Code that is consistent (every
width 32, or every width warpSize) is silent: that is HIP102's business, or right.

What counts as a 32-lane reduction (in the function, or in a function of the file it calls):
a `tiled_partition<32>` / `thread_block_tile<32>` (or `tiled_partition(g, 32)`), a shuffle
whose offset is 16 or whose offset loop starts at 16 (`32 / 2`, `32 >> 1`), a shuffle of
width 32. What counts as warpSize-wide: any use of `warpSize` in the function, or in a
function of the file it calls that also shuffles or votes."""

from __future__ import annotations

from itertools import compress

from hipport.catalogue import MIXED_WARP_WIDTH
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, KEYWORD, LITERAL, PUNCTUATION
from hipport.rules.code_index import Body, CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule
from hipport.rules.names import MASKED_SYNC
from hipport.rules.tokens import int_value

WARP_SIZE = "warpSize"
TILE_TYPES = frozenset({"tiled_partition", "thread_block_tile"})
# Shuffles: (the offset/lane argument's position, the width argument's position).
_SHUFFLES = {
    "__shfl_down_sync": (2, 3),
    "__shfl_up_sync": (2, 3),
    "__shfl_xor_sync": (2, 3),
    "__shfl_down": (1, 2),
    "__shfl_up": (1, 2),
    "__shfl_xor": (1, 2),
}
# The warp-level calls that make a helper's warpSize count as warp width.
_WARP_CALLS = MASKED_SYNC | frozenset(_SHUFFLES) | {"__ballot", "__any", "__all", "__shfl"}
# Lane ids taken for 32 lanes (operator, literal value), and warp ids taken for 32 lanes.
_LANE_OPS = {"%": 32, "&": 31}
_WARP_OPS = {"/": 32, ">>": 5}
_ID_OPS = frozenset(_LANE_OPS) | frozenset(_WARP_OPS)
_LANE_NAMES = ("lane", "laneid", "lane_id", "laneidx", "lane_idx", "tid_in_warp", "warp_lane")
_WARP_NAMES = ("warp", "warpid", "warp_id", "warpidx", "warp_idx", "wid")

FIX = (
    "index per-warp storage by the 32-lane tile (threadIdx.x / 32, or tile.meta_group_rank(), "
    "with storage sized blockDim.x / 32), or reduce over warpSize lanes consistently "
    "(offsets from warpSize / 2, lane ids from % warpSize)"
)


def check_mixed_warp_width(v: CodeIndex) -> list[Finding]:
    bodies = v.bodies
    if not bodies:
        return []
    own = [_tile32_evidence(v, b) for b in bodies]
    tiles32 = {b.name: e for b, e in zip(bodies, own, strict=True) if b.name}
    wide = {b.name: _warp_wide(v, b) for b in bodies if b.name}
    calls = {b.name: _called(v, b, tiles32.keys()) for b in bodies if b.name}
    out = []
    for body, evidence in zip(bodies, own, strict=True):
        tile = evidence or _through_calls(body.name, calls, tiles32)
        if tile:  # the reduction is 32 wide: the warpSize side disagrees with it
            out.extend(_warp_size_ids(v, body, tile))
        elif _has(v, body, WARP_SIZE) or _through_calls(body.name, calls, wide):
            out.extend(_ids_of_32(v, body))
    return out


def _has(v: CodeIndex, body: Body, text: str) -> bool:
    return bool(v.between(v.indices((text,)), body.open, body.close))


def _warp_wide(v: CodeIndex, body: Body) -> str:
    """A function that uses warpSize next to a warp-level call: its name, else ""."""
    if _has(v, body, WARP_SIZE) and v.between(v.indices(_WARP_CALLS), body.open, body.close):
        return body.name
    return ""


def _called(v: CodeIndex, body: Body, names: object) -> set[str]:
    """The file's functions this body calls (a name followed by `(` or `<`)."""
    texts = v.tokens.texts
    out = set()
    for k in v.between(v.indices(names), body.open, body.close):  # type: ignore[arg-type]
        if texts[k] != body.name and v.tokens.text(k + 1) in ("(", "<"):
            out.add(texts[k])
    return out


def _through_calls(name: str, calls: dict[str, set[str]], facts: dict[str, str]) -> str:
    """The first fact of a function reached from `name` through calls (depth first)."""
    seen = {name}
    todo = list(calls.get(name, ()))
    while todo:
        callee = todo.pop()
        if callee in seen:
            continue
        seen.add(callee)
        if facts.get(callee):
            return facts[callee]
        todo.extend(calls.get(callee, ()))
    return ""


def _tile32_evidence(v: CodeIndex, body: Body) -> str:
    """What in this function reduces over 32-lane tiles, for the message; "" if nothing."""
    t = v.tokens
    for k in v.between(v.indices(TILE_TYPES), body.head, body.close):
        if t.punct(k + 1, "<") and v.int_of([k + 2]) == 32 and t.punct(k + 3, ">"):
            return f"{t.texts[k]}<32>"
        if t.texts[k] == "tiled_partition" and t.punct(k + 1, "("):
            args = _args(v, k + 1)
            if len(args) == 2 and v.int_of(args[1]) == 32:
                return "tiled_partition(..., 32)"
    literal: dict[int, str] = {}  # literal offset -> the shuffle (an unrolled reduction)
    for k in v.between(v.indices(_SHUFFLES), body.open, body.close):
        if not t.punct(k + 1, "("):
            continue
        args = _args(v, k + 1)
        at, width = _SHUFFLES[t.texts[k]]
        if len(args) > width and v.int_of(args[width]) == 32:
            return f"{t.texts[k]} of width 32"
        if len(args) <= at:
            continue
        offset = _value(v, args[at])
        if offset is not None:
            literal.setdefault(offset, t.texts[k])
        elif _loop_from_16(v, body, args[at], k):
            return f"{t.texts[k]} in a loop from offset 16"
    if 16 in literal and 8 in literal:  # one shuffle by 16 alone is no reduction
        return f"{literal[16]} unrolled from offset 16"
    return ""


def _args(v: CodeIndex, open_: int) -> list[list[int]]:
    close = v.tokens.match(open_)
    if close is None:
        return []
    spans = v.tokens.arguments(open_, close) or []
    return [list(range(a, b)) for a, b in spans]


def _value(v: CodeIndex, ks: list[int]) -> int | None:
    """An offset written as 16, 32 / 2 or 32 >> 1 (in parentheses or not)."""
    toks = v.value_of(ks)
    if len(toks) == 1 and toks[0].kind == LITERAL:
        return int_value(toks[0].text)
    if len(toks) != 3 or toks[0].kind != LITERAL or toks[2].kind != LITERAL:
        return None
    a, b = int_value(toks[0].text), int_value(toks[2].text)
    if a is None or b is None:
        return None
    if toks[1].text == "/" and b:
        return a // b
    if toks[1].text == ">>" and 0 <= b < 64:
        return a >> b
    return None


def _loop_from_16(v: CodeIndex, body: Body, arg: list[int], call: int) -> bool:
    """The shuffle's offset is the variable of a loop around it that starts at 16
    (`for (int o = 16; ...)`, `= 32 / 2`, `= 32 >> 1`)."""
    if len(arg) != 1 or v.tokens.kinds[arg[0]] != IDENTIFIER:
        return False
    name = v.tokens.texts[arg[0]]
    t = v.tokens
    for f in reversed(v.between(v.indices(("for",), (KEYWORD,)), body.open, call)):
        close = t.match(f + 1) if t.punct(f + 1, "(") else None
        if close is None or not _loop_holds(v, close, call):
            continue
        k = f + 2
        while k < close and t.texts[k] != ";":
            if t.texts[k] == name and t.punct(k + 1, "="):
                end = k + 2
                while end < close and t.texts[end] not in (";", ","):
                    end += 1
                return _value(v, list(range(k + 2, end))) == 16
            k += 1
    return False


def _loop_holds(v: CodeIndex, close: int, call: int) -> bool:
    """The statement after a for's `)` at `close` contains the call."""
    t = v.tokens
    if t.punct(close + 1, "{"):
        end = t.match(close + 1)
        return end is not None and call < end
    k = close + 1
    while k < len(t) and t.texts[k] != ";":
        k += 1
    return call < k


def _warp_size_ids(v: CodeIndex, body: Body, tile: str) -> list[Finding]:
    """In a function whose reduction works on 32-lane tiles: warps counted or indexed with
    `/ warpSize`, and lane ids `% warpSize` / `& (warpSize - 1)` (a lane-named variable, or
    compared with 0)."""
    out = []
    t = v.tokens
    where = v.describe_function(body)
    for k in v.between(v.indices((WARP_SIZE,)), body.open, body.close):
        if t.punct(k - 1, "/"):
            out.append(
                v.finding(
                    MIXED_WARP_WIDTH,
                    k - 1,
                    k,
                    f"warps counted or indexed with `/ warpSize` in {where}, whose reduction "
                    f"works on 32-lane tiles ({tile}): on a 64-lane wavefront one warpSize slot "
                    "holds two tiles, so two tiles' sums land in one slot (or one is lost); " + FIX,
                    api="/ warpSize",
                    hip="/ 32",
                    hint=MIXED_WARP_WIDTH.fix,
                )
            )
            continue
        op, end = _lane_of_warp_size(v, k)
        if op is None or not _used_as_id(v, body, op, end, lane=True):
            continue
        spelled = " ".join(t.texts[op:end])
        out.append(
            v.finding(
                MIXED_WARP_WIDTH,
                op,
                end - 1,
                f"lane id taken with `{spelled}` in {where}, whose reduction works on 32-lane "
                f"tiles ({tile}): on a 64-lane wavefront lane 32 holds the second tile's "
                f"result but is not lane 0 of the warp, so that result is dropped; {FIX}",
                api=spelled,
                hip="% 32",
                hint=MIXED_WARP_WIDTH.fix,
            )
        )
    return out


def _lane_of_warp_size(v: CodeIndex, k: int) -> tuple[int | None, int]:
    """warpSize at k as the right operand of `% warpSize` or `& (warpSize - 1)`: the
    operator's index and the end (exclusive) of the operand."""
    t = v.tokens
    if t.punct(k - 1, "%"):
        return k - 1, k + 1
    if (
        t.punct(k - 1, "(")
        and t.punct(k - 2, "&")
        and t.punct(k + 1, "-")
        and v.int_of([k + 2]) == 1
        and t.punct(k + 3, ")")
    ):
        return k - 2, k + 4
    return None, k


def _ids_of_32(v: CodeIndex, body: Body) -> list[Finding]:
    """In warpSize-wide code: a lane id `X % 32` / `X & 31` (a lane-named variable, or
    compared with 0), or a warp id `X / 32` / `X >> 5` (a warp-named variable, or a
    subscript)."""
    out = []
    t = v.tokens
    texts, kinds = t.texts, t.kinds
    inside = range(body.open + 1, body.close)
    for k in compress(inside, map(_ID_OPS.__contains__, texts[body.open + 1 : body.close])):
        op = texts[k]
        if kinds[k] != PUNCTUATION:
            continue
        if kinds[k + 1] != LITERAL or kinds[k - 1] == LITERAL or t.text(k + 2) in ("(", "["):
            continue
        lane = op in _LANE_OPS
        if v.int_of([k + 1]) != (_LANE_OPS if lane else _WARP_OPS)[op]:
            continue
        if not _used_as_id(v, body, k, k + 2, lane):
            continue
        what = "lane id" if lane else "warp id"
        out.append(
            v.finding(
                MIXED_WARP_WIDTH,
                k,
                k + 1,
                f"{what} taken for 32 lanes (`{op} {texts[k + 1]}`) in "
                f"{v.describe_function(body)}, which also works warpSize-wide: on a 64-lane "
                "wavefront the two disagree (lanes 0 and 32 both act as lane 0, or half the "
                f"warp slots are never written); {FIX}",
                api=f"{op} {texts[k + 1]}",
                hip="% warpSize" if lane else "/ warpSize",
                hint=MIXED_WARP_WIDTH.fix,
            )
        )
    return out


def _used_as_id(v: CodeIndex, body: Body, k: int, end: int, lane: bool) -> bool:
    """The expression with operator k (its right operand ends before `end`) is assigned to
    a lane (warp) named variable, is compared with 0 (a lane id), or is a whole subscript
    (a warp id)."""
    t = v.tokens
    start = k - 1
    depth = 0
    # walk back over the left operand to the `=`, `(`, `[`, `==` ... that holds it
    while start > body.open:
        s = t.texts[start]
        if s in (")", "]"):
            depth += 1
        elif s in ("(", "["):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and t.kinds[start] == PUNCTUATION and s in _STOPS:
            break
        start -= 1
    before = t.texts[start]
    if before == "=" and t.kinds[start - 1] == IDENTIFIER:
        return t.texts[start - 1].lower() in (_LANE_NAMES if lane else _WARP_NAMES)
    if not lane:
        return before == "[" and t.punct(end, "]")
    if before in ("==", "!=") and v.int_of([start - 1]) == 0:
        return True
    after = end + 1 if before == "(" and t.punct(end, ")") else end
    return t.text(after) in ("==", "!=") and v.int_of([after + 1]) == 0


_STOPS = frozenset({"=", ";", "{", "}", ",", "==", "!=", "&&", "||", "?", ":", "return"})


RULE = HazardRule(
    MIXED_WARP_WIDTH,
    check_mixed_warp_width,
    # every finding needs warpSize in the file (the slot's index, or the lane id's partner)
    Triggers(names=frozenset({WARP_SIZE})),
    frozenset({WARP_SIZE, "for"}) | TILE_TYPES | _WARP_CALLS,
)
