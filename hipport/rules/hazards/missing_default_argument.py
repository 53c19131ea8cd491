"""HIP115 missing-default-argument: a call that leans on a default argument CUDA declares
and the target HIP's function lacks (mappings/gate_facts.tsv)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from hipport.catalogue import MISSING_DEFAULT_ARGUMENT as INFO
from hipport.facts import verdict
from hipport.findings import Finding
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Triggers
from hipport.rules.hazards import HazardRule

if TYPE_CHECKING:
    from hipport.mappings import Mappings


def check(v: CodeIndex) -> list[Finding]:
    facts = v.ctx.mappings.gate.default_arguments
    ks = v.indices(facts)
    if not ks:
        return []
    ctx = v.ctx
    own = ctx.defined | ctx.options.project_names | ctx.user_declared
    out: list[Finding] = []
    for k in ks:
        name = v.tokens[k].text
        if name in own or v.tokens.is_member(k) or not v.tokens.punct(k + 1, "("):
            continue
        close = v.tokens.match(k + 1)
        if close is None:
            continue
        n = len(v.tokens.arguments(k + 1, close))
        fact = facts[name]
        found = verdict(fact, ctx.target, ctx.tables.newest_rocm)
        if n not in fact.failing_arg_counts or found is None or v.is_dead(k):
            continue
        severity, note = found
        finding = v.finding(
            INFO,
            k,
            close,
            f"{name} with {n} argument{'s' if n != 1 else ''}: CUDA defaults the rest, the HIP "
            f"function needs {fact.hip_min_args}: {fact.instead}{note}",
            api=name,
            hint=fact.instead,
        )
        finding.severity = severity
        out.append(finding)
    return out


def _defaulted(mappings: Mappings) -> Collection[str]:
    return mappings.gate.default_arguments.keys()


RULE = HazardRule(INFO, check, Triggers(data=_defaulted), _defaulted)
