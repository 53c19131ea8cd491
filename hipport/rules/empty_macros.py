"""HIP027 empty-macro-dropped: a CUDA macro that expands to nothing on Linux and that HIP does
not define (`CUDART_CB` in `void CUDART_CB done(cudaStream_t, cudaError_t, void*)`; it is
`__stdcall` only on Windows, where HIP's AMD platform does not build). The facts are the
gate's reviewed data (mappings/gate_facts.tsv, kind `empty-macro`, with their evidence):
translate drops the word, with the blanks after it, and says so in a note."""

from __future__ import annotations

from hipport.catalogue import EMPTY_MACRO_DROPPED as INFO
from hipport.lexer import IDENTIFIER
from hipport.rules.context import Context, RuleResult, Triggers


class EmptyMacroRule:
    name = "empty-macros"
    priority = 12  # after the rename, which never touches these names
    codes = (INFO.code,)
    triggers = Triggers(data=lambda mappings: mappings.gate.empty_macros.keys())

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        facts = ctx.mappings.gate.empty_macros
        names = ctx.present(facts.keys())
        if not names:
            return out
        v = ctx.code
        src = ctx.source
        for k in v.indices(names, (IDENTIFIER,)):
            if v.in_directive_at(k) or v.is_dead(k):
                continue  # `#define CUDART_CB` of the program's own, or code HIP never sees
            name = v.tokens.texts[k]
            start, end = v.tokens.start(k), v.tokens.end(k)
            stop = end
            while stop < len(src) and src[stop] in b" \t":
                stop += 1
            if stop >= len(src) or src[stop] in b"\r\n":
                stop = end  # the last word of its line: the line's other blanks stay
            out.edits.append(ctx.edit(start, stop, b"", self.name))
            out.findings.append(
                v.finding(
                    INFO,
                    k,
                    k,
                    f"{name} removed by translate: {facts[name].instead}",
                    api=name,
                )
            )
        return out


RULE = EmptyMacroRule()
