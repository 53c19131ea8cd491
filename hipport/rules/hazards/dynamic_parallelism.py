"""HIP110 dynamic-parallelism: a `<<<...>>>` kernel launch inside device code."""

from __future__ import annotations

from hipport.catalogue import DYNAMIC_PARALLELISM as INFO
from hipport.catalogue import Severity
from hipport.findings import Finding
from hipport.lexer import PUNCTUATION
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule
from hipport.rules.tokens import is_launch_open


def check(v: CodeIndex) -> list[Finding]:
    out: list[Finding] = []
    # a launch can only be found in a __global__ or __device__ function's body
    if v.ctx.identifiers.isdisjoint(_DEVICE_WORDS):
        return out
    for k in v.indices(("<<",), (PUNCTUATION,)):
        if k == 0 or not is_launch_open(v.tokens, k):
            continue
        body = v.body_at(k)
        kind = v.device_kind(body) if body is not None else None
        if kind is None or body is None or v.is_dead(k):
            continue
        kernel = v.tokens[k - 1].text
        finding = v.finding(
            INFO,
            k - 1,
            k + 1,
            f"kernel launch {kernel}<<<...>>> inside {v.describe_function(body)}: HIP has no "
            "dynamic parallelism (no device-side launch); launch it from the host",
            api=f"{kernel}<<<>>>",
            hint=INFO.fix,
        )
        if kind != "device":
            finding.severity = Severity.WARNING
            finding.message += " (a __host__ __device__ function: breaks when compiled for the GPU)"
        out.append(finding)
    return out


_DEVICE_WORDS = frozenset({"__global__", "__device__"})
RULE = HazardRule(INFO, check, Triggers(names=_DEVICE_WORDS), frozenset({"<<", "{"}))
