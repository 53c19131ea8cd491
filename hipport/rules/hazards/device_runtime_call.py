"""HIP111 device-runtime-call: a CUDA runtime API call inside device code."""

from __future__ import annotations

from bisect import bisect_right

from hipport.catalogue import DEVICE_RUNTIME_CALL as INFO
from hipport.catalogue import Severity
from hipport.findings import Finding
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule


def check(v: CodeIndex) -> list[Finding]:
    ctx = v.ctx
    # the runtime calls among the file's API uses (resolved once, before the rules)
    calls = [u for u in ctx.api_uses if u.use is not None and u.resolution.family == "runtime"]
    # only a __global__ or __device__ function's body can hold a finding
    if not calls or ctx.identifiers.isdisjoint(_DEVICE_WORDS) or not v.bodies:
        return []
    starts = [v.tokens.start(b.open) for b in v.bodies]
    out: list[Finding] = []
    for call in calls:
        start = call.start
        i = bisect_right(starts, start) - 1
        if i < 0:
            continue
        body = v.bodies[i]
        kind = v.device_kind(body)
        end = call.end
        if start >= v.tokens.start(body.close) or kind is None or not _is_call(ctx.source, end):
            continue
        if ctx.branches.is_dead(start):
            continue
        finding = ctx.finding(
            INFO.code,
            start,
            end,
            f"{call.name}() called in {v.describe_function(body)}: HIP has no device runtime "
            "(every hip* runtime function is host-only); do this on the host",
            api=call.name,
            hint=INFO.fix,
        )
        if kind != "device":
            finding.severity = Severity.WARNING
            finding.message += " (a __host__ __device__ function: breaks when compiled for the GPU)"
        out.append(finding)
    return out


_DEVICE_WORDS = frozenset({"__global__", "__device__"})


def _is_call(source: bytes, end: int) -> bool:
    """The name ending at `end` is followed by `(` (spaces allowed)."""
    return source[end : end + 64].lstrip()[:1] == b"("


RULE = HazardRule(INFO, check, Triggers(names=_DEVICE_WORDS), frozenset({"{"}))
