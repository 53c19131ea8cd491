"""CUDA C++ namespaces, from mappings/namespaces.tsv: a mapped one (`cub` -> `hipcub`) is
renamed wherever it names NVIDIA's namespace: qualified names (`cub::BlockReduce`, also as
template arguments: `cub::BLOCK_SCAN_WARP_SCANS`), global qualification (`::cub::`),
using-directives and -declarations, namespace aliases (`namespace c = cub;`) and reopened
namespaces (`namespace cub {`, to specialise its traits). A kept one (`thrust`) stays. One
with no HIP counterpart (`cuda::` from libcu++) makes a finding at every use.

Never a namespace nested in a user's (`mylib::cub::`), a member (`x.cub`), a variable that
happens to be called so (`int cub;`), nor anything inside comments or strings (tokens). A
file or project that defines its own namespace of an unsupported name (`namespace cuda {}`)
gets no findings for it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection
from typing import TYPE_CHECKING

from hipport.catalogue import CUDA_NAMESPACE
from hipport.lexer import IDENTIFIER, PUNCTUATION
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.tables.arguments import Namespace

if TYPE_CHECKING:
    from hipport.mappings import Mappings

MAPPED = "mapped"
UNSUPPORTED = "unsupported"


class NamespacesRule:
    name = "namespaces"
    priority = 20
    codes = (CUDA_NAMESPACE.code,)
    triggers = Triggers(data=lambda m: m.arguments.namespaces.keys())

    def vocabulary(self, mappings: Mappings) -> Collection[str]:
        return mappings.arguments.namespaces.keys()

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        spaces = {
            name: ns
            for name, ns in ctx.mappings.arguments.namespaces.items()
            if ns.status in (MAPPED, UNSUPPORTED) and name not in ctx.options.disabled_mappings
        }
        if not spaces or ctx.identifiers.isdisjoint(spaces):
            return out  # no identifier of the file is spelled as one: no code index needed
        code = ctx.code
        own = ctx.defined | ctx.options.project_names
        for k in code.indices(spaces.keys()):
            ns = spaces[code.tokens.texts[k]]
            if not _names_the_namespace(ctx, k):
                continue
            i = code.tokens.to_all(k)
            d = ctx.directive_at.get(i)
            if d is not None and d.name in ("include", "include_next", "import"):
                continue
            if ns.status == MAPPED:
                start, end = ctx.tokens.starts[i], ctx.tokens.ends[i]
                out.edits.append(ctx.edit(start, end, ns.hip, self.name))
            elif ns.cuda not in own and not _defines(ctx, k):
                out.findings.append(_unsupported(ctx, k, ns))
        return out


def _names_the_namespace(ctx: Context, k: int) -> bool:
    """The identifier at code index k is used as a namespace (and not a user-nested one)."""
    code = ctx.code
    texts = code.tokens.texts
    after = code.tokens.text(k + 1)
    j = k - 1  # the token before the name, past a global `::`
    if code.tokens.text(j) in (".", "->"):
        return False
    if code.tokens.text(j) == "::":
        # `::cub::` is global; `mylib::cub::` and `T<X>::cub` are someone else's
        if j > 0 and (code.tokens.kinds[j - 1] == IDENTIFIER or texts[j - 1] == ">"):
            return False
        j -= 1
    before = code.tokens.text(j)
    if after == "::":
        return True
    if before == "namespace":
        # `using namespace cub;`; `namespace cub {` only at file scope (not lib::cub)
        return after != "{" or _depth(ctx, k) == 0
    # `namespace alias = cub;`
    return before == "=" and code.tokens.text(j - 2) == "namespace" and after == ";"


def _depth(ctx: Context, k: int) -> int:
    """How many braces are open at code index k."""
    code = ctx.code
    return bisect_left(code.indices(("{",), (PUNCTUATION,)), k) - bisect_left(
        code.indices(("}",), (PUNCTUATION,)), k
    )


def _defines(ctx: Context, k: int) -> bool:
    """`namespace cuda {`: the file's own namespace of that name."""
    code = ctx.code
    return k > 0 and code.tokens.texts[k - 1] == "namespace" and code.tokens.text(k + 1) == "{"


def _unsupported(ctx: Context, k: int, ns: Namespace):  # a Finding
    code = ctx.code
    j = k
    while (
        j + 2 < len(code.tokens)
        and code.tokens.texts[j + 1] == "::"
        and code.tokens.kinds[j + 2] == IDENTIFIER
    ):
        j += 2
    used = "".join(code.tokens.texts[k : j + 1])
    return code.finding(
        CUDA_NAMESPACE,
        k,
        j,
        f"{used}: the CUDA namespace {ns.cuda}:: has no HIP counterpart",
        api=f"{ns.cuda}::",
        hint=ns.hint,
    )


RULE = NamespacesRule()
