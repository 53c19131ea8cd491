"""HIP112 cuda-only-device-api: device functions and attributes the target HIP lacks
(versioned facts in mappings/gate_facts.tsv, with their evidence)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from hipport.catalogue import CUDA_ONLY_DEVICE_API as INFO
from hipport.facts import verdict
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, KEYWORD
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule

if TYPE_CHECKING:
    from hipport.mappings import Mappings


def check(v: CodeIndex) -> list[Finding]:
    facts = v.ctx.mappings.gate.device_apis
    ks = v.indices(facts, (IDENTIFIER, KEYWORD))
    if not ks:
        return []
    ctx = v.ctx
    own = ctx.defined | ctx.options.project_names | ctx.user_declared
    out: list[Finding] = []
    for k in ks:
        name = v.tokens[k].text
        if (
            name in own
            or name in ctx.tables.by_cuda
            or v.tokens.is_member(k)
            or v.tokens.text(k - 1) == "::"
        ):
            continue
        fact = facts[name]
        found = verdict(fact, ctx.target, ctx.tables.newest_rocm)
        if found is None or v.is_dead(k):
            continue
        severity, note = found
        what = "attribute" if fact.kind == "attribute" else "device function"
        finding = v.finding(
            INFO,
            k,
            k,
            f"{name} is a CUDA {what} HIP does not have; instead: {fact.instead}{note}",
            api=name,
            hint=fact.instead,
        )
        finding.severity = severity
        out.append(finding)
    return out


def _device_apis(mappings: Mappings) -> Collection[str]:
    return mappings.gate.device_apis.keys()


RULE = HazardRule(INFO, check, Triggers(data=_device_apis), _device_apis)
