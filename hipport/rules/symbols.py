"""Argument rewrites HIP needs: the symbol argument of the *ToSymbol, *FromSymbol,
GetSymbolAddress and GetSymbolSize calls is wrapped in `HIP_SYMBOL(...)` (HIP takes the
symbol's address, CUDA's templates take a reference). Only two zero-width inserts are
made, so renames inside the argument still apply. What is not a plain symbol (a string
name, a macro-built argument list) becomes a finding."""

from __future__ import annotations

from hipport.catalogue import NEEDS_HUMAN
from hipport.edits import Edit
from hipport.findings import Finding
from hipport.lexer import IDENTIFIER, LITERAL
from hipport.rules.context import Context, RuleResult
from hipport.rules.tokens import (
    code_range,
    is_member_or_qualified,
    is_punct,
    matching,
    next_code,
    split_template_args,
)

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

# CUDA call -> index of its kernel argument. CUDA's C++ templates take the kernel itself;
# HIP's functions take `const void*`, and a function does not convert to that implicitly.
FUNCTION_ARGUMENT = {
    "cudaFuncGetAttributes": 1,
    "cudaFuncSetAttribute": 0,
    "cudaFuncSetCacheConfig": 0,
    "cudaFuncSetSharedMemConfig": 0,
    "cudaLaunchKernel": 0,
    "cudaLaunchCooperativeKernel": 0,
}
CAST = "reinterpret_cast<const void*>"

# CUDA call -> index of a `T**` argument that HIP (5.2 headers checked) takes as `void**`
# only, without CUDA's template overload.
VOID_PTR_PTR_ARGUMENT = {
    "cudaMallocPitch": 0,
    "cudaHostAlloc": 0,
}
VOID_CAST = "reinterpret_cast<void**>"

# CUDA call -> (its argument count when a defaulted argument is left out, the default):
# HIP declares the parameter without a default.
MISSING_DEFAULT = {
    "cudaMalloc3DArray": (3, "0"),
}
_REWRITTEN = (
    frozenset(SYMBOL_ARGUMENT)
    | frozenset(FUNCTION_ARGUMENT)
    | frozenset(VOID_PTR_PTR_ARGUMENT)
    | frozenset(MISSING_DEFAULT)
)


class SymbolsRule:
    name = "symbols"

    codes = (NEEDS_HUMAN.code,)

    def run(self, ctx: Context) -> RuleResult:
        edits: list[Edit] = []
        findings: list[Finding] = []
        tokens = ctx.tokens
        disabled = ctx.options.disabled_mappings
        for i, tok in enumerate(tokens):
            if tok.kind != IDENTIFIER or tok.text not in _REWRITTEN:
                continue
            if tok.text in disabled or is_member_or_qualified(tokens, i, ctx.directive_at):
                continue
            if i in ctx.directive_at and ctx.directive_at[i].name == "include":
                continue
            self._call(ctx, i, edits, findings)
        return RuleResult(edits, findings)

    def _call(self, ctx: Context, i: int, edits: list[Edit], findings: list[Finding]) -> None:
        tokens = ctx.tokens
        tok = tokens[i]
        lparen = next_code(tokens, i)
        if lparen is None or not is_punct(tokens, lparen, "("):
            return  # a name without a call (a function pointer, a #define): nothing to wrap
        rparen = matching(tokens, lparen)
        args = split_template_args(tokens, lparen, rparen) if rparen is not None else None
        if tok.text in FUNCTION_ARGUMENT:
            self._wrap_name(ctx, args, FUNCTION_ARGUMENT[tok.text], CAST, edits)
            return
        if tok.text in VOID_PTR_PTR_ARGUMENT:
            self._wrap_pointer(ctx, args, VOID_PTR_PTR_ARGUMENT[tok.text], edits)
            return
        if tok.text in MISSING_DEFAULT:
            count, default = MISSING_DEFAULT[tok.text]
            if args is not None and len(args) == count:
                end = (
                    tokens[code_range(tokens, *args[-1])[1] - 1].end
                    if code_range(tokens, *args[-1])
                    else tokens[rparen].start
                )
                edits.append(ctx.edit(end, end, ", " + default, self.name))
            return
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
            findings.append(
                self._human(
                    ctx,
                    tok,
                    "the symbol is given by name (a string), which CUDA 5 removed; "
                    "pass the symbol itself",
                )
            )
            return
        edits.append(ctx.edit(first.start, first.start, WRAPPER + "(", self.name))
        edits.append(ctx.edit(tokens[b - 1].end, tokens[b - 1].end, ")", self.name))

    def _wrap_name(
        self,
        ctx: Context,
        args: list[tuple[int, int]] | None,
        index: int,
        cast: str,
        edits: list[Edit],
    ) -> None:
        """Cast a kernel given by name; anything else (a cast, a pointer expression) is
        already a pointer and is left alone."""
        tokens = ctx.tokens
        arg = code_range(tokens, *args[index]) if args and len(args) > index else None
        if arg is None or not _plain_name(tokens, *arg):
            return
        self._wrap(ctx, arg, cast, edits)

    def _wrap_pointer(
        self, ctx: Context, args: list[tuple[int, int]] | None, index: int, edits: list[Edit]
    ) -> None:
        """Cast `&p` (or any expression) to void**, unless the code casts it already."""
        tokens = ctx.tokens
        arg = code_range(tokens, *args[index]) if args and len(args) > index else None
        if arg is None:
            return
        first = tokens[arg[0]]
        if first.text in ("reinterpret_cast", "static_cast", "(") or first.text == VOID_CAST:
            return
        self._wrap(ctx, arg, VOID_CAST, edits)

    def _wrap(self, ctx: Context, arg: tuple[int, int], cast: str, edits: list[Edit]) -> None:
        tokens = ctx.tokens
        a, b = arg
        edits.append(ctx.edit(tokens[a].start, tokens[a].start, cast + "(", self.name))
        edits.append(ctx.edit(tokens[b - 1].end, tokens[b - 1].end, ")", self.name))

    def _human(self, ctx: Context, tok, why: str) -> Finding:  # noqa: ANN001
        return ctx.finding(
            NEEDS_HUMAN.code,
            tok.start,
            tok.end,
            f"{tok.text}: {why}; wrap the symbol in {WRAPPER}(...) by hand",
            api=tok.text,
            hint=f"{WRAPPER}(symbol)",
        )


def _plain_name(tokens: list, a: int, b: int) -> bool:
    """`k`, `ns::k`, `&k`, `k<T, 4>`: a (qualified, template) name, maybe with `&`."""
    if tokens[a].text == "&":
        a += 1
    if (
        a >= b
        or tokens[a].kind != IDENTIFIER
        or tokens[a].text in ("reinterpret_cast", "static_cast")
    ):
        return False
    j = a + 1
    while j + 1 < b and tokens[j].text == "::" and tokens[j + 1].kind == IDENTIFIER:
        j += 2
    if j < b and tokens[j].text == "<" and tokens[b - 1].text in (">", ">>"):
        return True
    return j == b


RULE = SymbolsRule()
