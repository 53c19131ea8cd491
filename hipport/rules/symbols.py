"""Argument rewrites HIP needs: the symbol argument of the *ToSymbol, *FromSymbol,
GetSymbolAddress and GetSymbolSize calls is wrapped in `HIP_SYMBOL(...)` (HIP takes the
symbol's address, CUDA's templates take a reference). Only two zero-width inserts are
made, so renames inside the argument still apply. What is not a plain symbol (a string
name, a macro-built argument list) becomes a finding."""

from __future__ import annotations

from hipport.edits import Edit
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, LITERAL
from hipport.rules.context import Context
from hipport.rules.launch import NEEDS_HUMAN
from hipport.rules.rename import is_member_or_qualified
from hipport.rules.tokens import code_range, is_punct, matching, next_code, split_args

# CUDA call -> index of its symbol argument.
SYMBOL_ARGUMENT = {
    "cudaMemcpyToSymbol": 0,
    "cudaMemcpyToSymbolAsync": 0,
    "cudaMemcpyFromSymbol": 1,
    "cudaMemcpyFromSymbolAsync": 1,
    "cudaGetSymbolAddress": 1,
    "cudaGetSymbolSize": 1,
}
WRAPPER = "HIP_SYMBOL"


class SymbolsRule:
    name = "symbols"

    def run(self, ctx: Context) -> tuple[list[Edit], list[Finding]]:
        edits: list[Edit] = []
        findings: list[Finding] = []
        tokens = ctx.tokens
        disabled = ctx.options.disabled_mappings
        for i, tok in enumerate(tokens):
            if tok.kind != IDENTIFIER or tok.text not in SYMBOL_ARGUMENT:
                continue
            if tok.text in disabled or is_member_or_qualified(tokens, i, ctx.directive_at):
                continue
            if i in ctx.directive_at and ctx.directive_at[i].name == "include":
                continue
            self._call(ctx, i, edits, findings)
        return edits, findings

    def _call(self, ctx: Context, i: int, edits: list[Edit], findings: list[Finding]) -> None:
        tokens = ctx.tokens
        tok = tokens[i]
        lparen = next_code(tokens, i)
        if lparen is None or not is_punct(tokens, lparen, "("):
            return  # a name without a call (a function pointer, a #define): nothing to wrap
        rparen = matching(tokens, lparen)
        args = split_args(tokens, lparen, rparen) if rparen is not None else None
        index = SYMBOL_ARGUMENT[tok.text]
        arg = code_range(tokens, *args[index]) if args and len(args) > index else None
        if arg is None:
            findings.append(self._human(ctx, tok, "could not find the symbol argument"))
            return
        a, b = arg
        first = tokens[a]
        if first.text == WRAPPER:
            return
        if first.kind == LITERAL and b - a == 1:
            findings.append(self._human(
                ctx, tok, "the symbol is given by name (a string), which CUDA 5 removed; "
                "pass the symbol itself"))
            return
        edits.append(ctx.edit(first.start, first.start, WRAPPER + "(", self.name))
        edits.append(ctx.edit(tokens[b - 1].end, tokens[b - 1].end, ")", self.name))

    def _human(self, ctx: Context, tok, why: str) -> Finding:  # noqa: ANN001
        return ctx.finding(NEEDS_HUMAN.code, tok.start, tok.end,
                           f"{tok.text}: {why}; wrap the symbol in {WRAPPER}(...) by hand",
                           api=tok.text, hint=f"{WRAPPER}(symbol)")


RULE = SymbolsRule()
