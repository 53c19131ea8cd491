"""HIP106 launch-bounds-min-blocks: __launch_bounds__ with a second or third argument."""

from __future__ import annotations

from hipport.catalogue import LAUNCH_BOUNDS_MIN_BLOCKS
from hipport.findings import Finding
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule


def check_launch_bounds(v: CodeIndex) -> list[Finding]:
    out = []
    for k in v.indices(("__launch_bounds__",)):
        if not v.tokens.punct(k + 1, "("):
            continue
        close = v.tokens.match(k + 1)
        args = v.tokens.arguments(k + 1, close) if close is not None else None
        if not args or len(args) < 2 or k in v.in_directive:
            continue
        if len(args) == 2:
            message = (
                "__launch_bounds__ second argument means min blocks per SM in CUDA but "
                "min waves per EU (amdgpu_waves_per_eu) in HIP: drop it or recompute "
                "it for AMD"
            )
        else:
            message = (
                "__launch_bounds__ with a third argument (max blocks per cluster) does "
                "not build with HIP, which takes at most two and reads the second as "
                "min waves per EU: keep only the first for HIP"
            )
        out.append(
            v.finding(
                LAUNCH_BOUNDS_MIN_BLOCKS,
                k,
                close,
                message,
                api="__launch_bounds__",
                hint=LAUNCH_BOUNDS_MIN_BLOCKS.fix,
            )
        )
    return out


_LAUNCH_BOUNDS = frozenset({"__launch_bounds__"})
RULE = HazardRule(
    LAUNCH_BOUNDS_MIN_BLOCKS, check_launch_bounds, Triggers(names=_LAUNCH_BOUNDS), _LAUNCH_BOUNDS
)
