"""HIP029 unsigned-min-max: CUDA's `umin`/`umax` (and the 64-bit `ullmin`/`ullmax`), which
HIP does not declare (mappings/gate_facts.tsv, kind `unsigned-min-max`, with the evidence per
release and the form to write).

A plain rename to `min`/`max` is wrong: `min(u, 1)` with an unsigned `u` picks HIP's
`int min(int, int)`, and a value above INT_MAX compares as negative. translate calls HIP's
min/max with both arguments cast to the CUDA function's parameter type
(`umin(a, b)` -> `min((unsigned int)(a), (unsigned int)(b))`), which selects the unsigned
overload and converts exactly as CUDA's call does. A use that is not a two-argument call
(the function's address, a macro that supplies the arguments) is left, and the finding is
an error that names the form to write. A program that defines the name itself keeps it."""

from __future__ import annotations

import re

from hipport.catalogue import UNSIGNED_MIN_MAX as INFO
from hipport.facts import GateFact, verdict
from hipport.findings import Severity
from hipport.lexer import IDENTIFIER
from hipport.rules.context import Context, RuleResult, Triggers

# the data's form (tools/build_gate_facts.py validates every row against it)
_FORM = re.compile(r"(min|max)\(\(([a-z ]+)\)\(a\), \(\2\)\(b\)\)")


def form(fact: GateFact) -> tuple[str, str]:
    """The HIP function and the parameter type of an unsigned-min-max fact."""
    m = _FORM.fullmatch(fact.instead)
    if m is None:
        raise ValueError(f"gate_facts.tsv: {fact.cuda}: unexpected form {fact.instead!r}")
    return m.group(1), m.group(2)


class UnsignedMinMaxRule:
    name = "unsigned-min-max"
    priority = 43
    codes = (INFO.code,)
    triggers = Triggers(data=lambda mappings: mappings.gate.unsigned_min_max.keys())

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        facts = ctx.mappings.gate.unsigned_min_max
        own = ctx.defined | ctx.options.project_names | ctx.user_declared
        names = ctx.present(facts.keys() - own)
        if not names:
            return out
        v = ctx.code
        t = v.tokens
        for k in v.indices(names, (IDENTIFIER,)):
            name = t.texts[k]
            if t.is_member(k) or t.text(k - 1) == "::":
                continue
            fact = facts[name]
            if verdict(fact, ctx.target, ctx.tables.newest_rocm) is None or v.is_dead(k):
                continue
            function, cast = form(fact)
            close = t.match(k + 1) if t.punct(k + 1, "(") else None
            args = t.arguments(k + 1, close) if close is not None else None
            why = f"{name} is not in HIP (absent up to ROCm {fact.checked_absent_in})"
            if not args or len(args) != 2 or any(a == b for a, b in args):
                finding = v.finding(
                    INFO,
                    k,
                    k,
                    f"{why}, and this use is not a call with two arguments: write {fact.instead}",
                    api=name,
                    hip=function,
                    hint=fact.instead,
                )
                finding.severity = Severity.ERROR
                out.findings.append(finding)
                continue
            out.edits.append(ctx.edit(t.start(k), t.end(k), function, self.name))
            for a, b in args:
                out.edits.append(ctx.edit(t.start(a), t.start(a), f"({cast})(", self.name))
                out.edits.append(ctx.edit(t.end(b - 1), t.end(b - 1), ")", self.name))
            out.findings.append(
                v.finding(
                    INFO,
                    k,
                    close,
                    f"{why}: translate calls {function} with both arguments cast to {cast}, "
                    f"{name}'s parameter type (a plain {function} may pick int {function}(int, "
                    "int))",
                    api=name,
                    hip=function,
                )
            )
        return out


RULE = UnsignedMinMaxRule()
