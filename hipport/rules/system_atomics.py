"""HIP030 system-atomic-helper: `atomicInc_system` / `atomicDec_system`, which the target HIP
lacks (mappings/gate_facts.tsv, kind `system-atomic`, with the evidence per release).

translate calls a helper instead (`hipport_atomicInc_system`, hipport.device_helpers): a
system-scope compare-and-swap loop over atomicCAS_system with CUDA's exact semantics, defined
once in the file, guarded by its own macro, before the first file-level declaration that
uses it. A second translation finds no CUDA name and adds nothing; a header that carries
the helper too is harmless (the guard). A program that defines the CUDA name itself keeps
it."""

from __future__ import annotations

from hipport.catalogue import SYSTEM_ATOMIC_HELPER as INFO
from hipport.device_helpers import HELPERS
from hipport.facts import verdict
from hipport.lexer import IDENTIFIER
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.placement import definition_before


class SystemAtomicRule:
    name = "system-atomics"
    priority = 44
    codes = (INFO.code,)
    triggers = Triggers(data=lambda mappings: mappings.gate.system_atomics.keys())

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        facts = ctx.mappings.gate.system_atomics
        own = ctx.defined | ctx.options.project_names | ctx.user_declared
        names = ctx.present(facts.keys() - own)
        if not names:
            return out
        v = ctx.code
        first: dict[str, int] = {}  # helper -> the code index of its first use
        for k in v.indices(names, (IDENTIFIER,)):
            name = v.tokens.texts[k]
            if v.tokens.is_member(k) or v.tokens.text(k - 1) == "::":
                continue
            found = verdict(facts[name], ctx.target, ctx.tables.newest_rocm)
            if found is None or v.is_dead(k):
                continue
            helper = HELPERS[name]
            first.setdefault(name, k)
            out.edits.append(ctx.edit(v.tokens.start(k), v.tokens.end(k), helper.name, self.name))
            out.findings.append(
                v.finding(
                    INFO,
                    k,
                    k,
                    f"{name} is not in HIP (absent up to ROCm {facts[name].checked_absent_in}): "
                    f"translate calls {helper.name}, a compare-and-swap loop over "
                    "atomicCAS_system with CUDA's semantics, defined once in this file",
                    api=name,
                    hip=helper.name,
                )
            )
        for name, k in first.items():
            out.edits.append(definition_before(ctx, k, HELPERS[name].text, self.name))
        return out


RULE = SystemAtomicRule()
