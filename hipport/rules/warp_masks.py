"""Warp masks: where the target has the *_sync intrinsics (the table maps them, ROCm 6.2 and
later), their mask must be a 64-bit integer (HIP's static_assert). A full-warp 32-bit mask
(`0xffffffff`, `~0u`, `(unsigned)-1`, a macro or constant defined as one) becomes the 64-bit
all-lanes mask at the call (HIP023, a note); a mask typed 32-bit otherwise is HIP024, an error
with the fix. Where the target needs a macro for them (mappings/conditions.tsv:
HIP_ENABLE_WARP_SYNC_BUILTINS from 6.2 until 7.0), it is defined, guarded, at the top of
the file, before the HIP runtime include.
"""

from __future__ import annotations

from collections.abc import Callable

from hipport.catalogue import WARP_MASK_NARROW, WARP_MASK_WIDENED
from hipport.lexer import IDENTIFIER
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.lane_masks import (
    FULL_MASK_64,
    full_mask_at,
    full_mask_names,
    narrow_mask,
    strip_parens,
)
from hipport.rules.names import MASKED_SYNC
from hipport.rules.placement import insertion_point, needs_newline
from hipport.tables import Status


class WarpMaskRule:
    name = "warp-masks"
    priority = 15  # after the rename, before the namespaces
    codes = (WARP_MASK_WIDENED.code, WARP_MASK_NARROW.code)
    triggers = Triggers(names=MASKED_SYNC)

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        present = MASKED_SYNC & ctx.identifiers
        if not present:
            return out
        mapped = {n for n in present if ctx.resolve(n).status is Status.MAPPED}
        if not mapped:
            return out  # the target has none of them: HIP002 and HIP103 speak
        v = ctx.code
        known: list[set[str]] = []

        def names() -> set[str]:
            if not known:
                known.append(full_mask_names(v))
            return known[0]

        conditions: set[str] = set()
        for k in v.indices(mapped):
            if v.tokens.is_member(k) or not v.tokens.punct(k + 1, "("):
                continue
            if self._mask(ctx, v, k, names, out):
                condition = ctx.resolve(v.tokens.texts[k]).condition
                if condition:
                    conditions.add(condition)
        self._define(ctx, v, conditions, out)
        return out

    def _mask(
        self, ctx: Context, v: CodeIndex, k: int, names: Callable[[], set[str]], out: RuleResult
    ) -> bool:
        """Rewrite or report the mask of the call at code token k; False when the call is
        not compiled (a dead #if arm) or cannot be read."""
        close = v.tokens.match(k + 1)
        args = v.tokens.arguments(k + 1, close) if close is not None else None
        if not args or v.is_dead(k):
            return False
        name = v.tokens.texts[k]
        a, b = strip_parens(v, *args[0])
        last = full_mask_at(v, a)
        if (
            last is None
            and b - a == 1
            and v.tokens.kinds[a] == IDENTIFIER
            and v.tokens.texts[a] in names()
        ):
            last = a
        if last == b - 1:
            text = _spelling(ctx, v, a, last)
            out.edits.append(
                ctx.edit(v.tokens.start(a), v.tokens.end(last), FULL_MASK_64, self.name)
            )
            out.findings.append(
                v.finding(
                    WARP_MASK_WIDENED,
                    a,
                    last,
                    f"{name} mask `{text}` (all 32 lanes of a CUDA warp) rewritten to "
                    f"{FULL_MASK_64}: HIP's mask is 64-bit and names every lane of the wavefront",
                    api=name,
                    hip=FULL_MASK_64,
                )
            )
            return True
        why = narrow_mask(v, a, b)
        if why is not None:
            out.findings.append(
                v.finding(
                    WARP_MASK_NARROW,
                    a,
                    b - 1,
                    f"{name} mask `{_spelling(ctx, v, a, b - 1)}` is 32-bit ({why}): HIP's {name} "
                    "takes a 64-bit mask and rejects this one at compile time",
                    api=name,
                    hint=WARP_MASK_NARROW.fix,
                )
            )
        return True

    def _define(self, ctx: Context, v: CodeIndex, conditions: set[str], out: RuleResult) -> None:
        """`#ifndef M / #define M / #endif` at the top for each macro the target needs and
        the file does not define itself."""
        rocm = ctx.target.rocm or ctx.tables.newest_rocm
        defined = {d.name for d in v.defines}
        needed = sorted(
            m
            for m in conditions - defined
            if m in ctx.tables.conditions and ctx.tables.conditions[m].needed_by(rocm)
        )
        pos = insertion_point(ctx) if needed else None
        if pos is None:
            return
        nl = ctx.newline
        text = b"".join(
            b"#ifndef " + m.encode() + nl + b"#define " + m.encode() + nl + b"#endif" + nl
            for m in needed
        )
        if needs_newline(ctx, pos):  # after a comment's `*/` that ends the first code line
            text = nl + text
        out.edits.append(ctx.edit(pos, pos, text, self.name))


def _spelling(ctx: Context, v: CodeIndex, a: int, b: int) -> str:
    """Code tokens a..b as the source spells them (one line)."""
    text = ctx.source[v.tokens.start(a) : v.tokens.end(b)].decode("utf-8", "replace")
    return " ".join(text.split())


RULE = WarpMaskRule()
