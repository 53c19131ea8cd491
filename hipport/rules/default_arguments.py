"""HIP115 missing-default-argument: a call that leans on a default argument CUDA declares
and the target HIP's function lacks (mappings/gate_facts.tsv, kind `default-argument`, with
the values CUDA's declaration defaults them to and the evidence).

Where the evidence says the target lacks the default, translate passes CUDA's default values
itself (`cudaStreamWaitEvent(s, e)` -> `hipStreamWaitEvent(s, e, 0)`) and notes it; the
meaning is CUDA's. Where no evidence covers the target, the call is left and the finding is a
warning that says so; inside a macro's definition it is left and stays an error."""

from __future__ import annotations

from dataclasses import replace

from hipport.catalogue import MISSING_DEFAULT_ARGUMENT as INFO
from hipport.facts import verdict
from hipport.findings import Severity
from hipport.rules.context import Context, RuleResult, Triggers


class DefaultArgumentRule:
    name = "default-arguments"
    priority = 52  # after the argument rewrites of the same calls
    codes = (INFO.code,)
    triggers = Triggers(data=lambda mappings: mappings.gate.default_arguments.keys())

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        facts = ctx.mappings.gate.default_arguments
        names = ctx.present(facts.keys())
        if not names:
            return out
        v = ctx.code
        for k in v.indices(names):
            name = v.tokens[k].text
            if v.tokens.is_member(k) or not v.tokens.punct(k + 1, "("):
                continue
            close = v.tokens.match(k + 1)
            if close is None:
                continue
            n = len(v.tokens.arguments(k + 1, close) or ())
            fact = facts[name]
            found = verdict(fact, ctx.target, ctx.tables.newest_rocm)
            if n not in fact.failing_arg_counts or found is None or v.is_dead(k):
                continue
            severity, note = found
            said = (
                f"{name} with {n} argument{'s' if n != 1 else ''}: CUDA defaults the rest, the "
                f"HIP function needs {fact.hip_min_args}"
            )
            missing = fact.defaults[len(fact.defaults) - (fact.hip_min_args or n) + n :]
            if severity is Severity.ERROR and missing and not v.in_directive_at(k):
                at = v.tokens.start(close)
                added = "".join(f", {value}" for value in missing)
                out.edits.append(ctx.edit(at, at, added, self.name))
                finding = v.finding(
                    INFO,
                    k,
                    close,
                    f"{said}: translate passes CUDA's default{'s' if len(missing) > 1 else ''} "
                    f"({', '.join(missing)})",
                    api=name,
                )
                out.findings.append(replace(finding, severity=Severity.NOTE))
                continue
            finding = v.finding(
                INFO, k, close, f"{said}: {fact.instead}{note}", api=name, hint=fact.instead
            )
            out.findings.append(replace(finding, severity=severity))
        return out


RULE = DefaultArgumentRule()
