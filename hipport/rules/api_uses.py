"""The file's CUDA API uses, resolved once per file before the rules run (Context.api_uses):
every identifier token spelled as a table name that the file uses as the API (not a member,
not a user-qualified name, not in an #include line, not preserved, not the user's own, not
disabled, not renamed by the user, not an include guard), with its byte offsets and its
resolution for the target. Not a rule (no RULE): the rename rule edits and reports them,
the includes rule and HIP111 (device-runtime-call) read them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from hipport.findings import Use
from hipport.rules.names import PRESERVE
from hipport.rules.tokens import is_member_or_qualified
from hipport.tables import Resolution, Status
from hipport.tokens import IDENTIFIER

if TYPE_CHECKING:
    from hipport.rules.file_context import FileContext as Context


@dataclass(frozen=True)
class ApiUse:
    """One use: token `index` (all-token), its bytes start..end, the name, its resolution
    for the target (that of the HIP function of its argument count when the name's HIP
    function depends on it: then `hip` names that function), and the Use record it gives
    the statistics (None for a device-library name that is plain C too: `sqrtf`)."""

    index: int
    start: int
    end: int
    name: str
    resolution: Resolution
    hip: str | None
    use: Use | None


def api_names(ctx: Context) -> set[str]:
    """The file's identifiers that are table names the file may use as the API (set
    operations over its distinct identifiers, no walk of the tokens)."""
    # `a - b` iterates the smaller side (the project's sets can be large)
    names = (ctx.tables.by_cuda.keys() & ctx.identifiers) - PRESERVE - ctx.user_declared
    names -= ctx.options.disabled_mappings
    names -= ctx.options.user_renames.keys()
    names -= ctx.mappings.include_guards.known
    return names


def api_uses(ctx: Context) -> list[ApiUse]:
    """Every use of the file, in token order."""
    names = api_names(ctx)
    if not names:
        return []
    variables = _type_names_declared_as_variables(ctx, names)
    in_include = ctx.include_lines
    toks = ctx.tokens
    texts, starts, ends = toks.texts, toks.starts, toks.ends
    directive_at = ctx.directive_at
    overloads = ctx.mappings.arguments.overloads
    out: list[ApiUse] = []
    for i in ctx.where(names):
        if i in in_include or is_member_or_qualified(toks, i, directive_at):
            continue
        name = texts[i]
        if name in variables and texts[i + 1 : i + 2] != ["<"]:
            continue
        hip = None
        res = ctx.resolve(name)
        if name in overloads:
            arity_hip = overloads[name].get(_call_arity(ctx, i))
            overload = _overload(ctx, name, arity_hip)
            if overload is not None and arity_hip is not None:
                res, hip = overload, arity_hip
        out.append(ApiUse(i, starts[i], ends[i], name, res, hip, _use(ctx, i, res)))
    return out


# What may stand before a declarator's name in `T name;`: an identifier (a type name) or one
# of C's type keywords, possibly through a pointer or reference.
_TYPE_KEYWORDS = frozenset(
    "bool char char8_t char16_t char32_t double float int long short signed unsigned "
    "wchar_t auto".split()
)
# What may follow a declarator's name: the declaration goes on or ends.
_AFTER_DECLARATOR = frozenset({";", ",", ")", "=", "[", "{"})


def _type_names_declared_as_variables(ctx: Context, names: set[str]) -> frozenset[str]:
    """The table's type names (kind `type`: `texture`, `surface`, ...) that the file
    declares as its own variables, members or parameters (`GLuint texture;`,
    `void f(GLuint texture)`): there the name is the file's, not CUDA's, and none of its
    uses is the API's except a template use (`texture<float, 2>`)."""
    by_cuda = ctx.tables.by_cuda
    types = {n for n in names if any(m.kind == "type" for m in by_cuda[n])}
    if not types:
        return frozenset()
    toks = ctx.tokens
    texts, kinds = toks.texts, toks.kinds
    directive_at = ctx.directive_at
    out = set()
    for i in ctx.where(types):
        # a declarator is code, followed by what ends or continues its declaration (not
        # `#define gpuError_t cudaError_t`, where the type is the macro's replacement)
        if i in directive_at or texts[i + 1 : i + 2] == [] or texts[i + 1] not in _AFTER_DECLARATOR:
            continue
        j = i - 1
        while j >= 0 and texts[j] in ("*", "&", "&&"):
            j -= 1
        if j < 0:
            continue
        if kinds[j] == IDENTIFIER or texts[j] in _TYPE_KEYWORDS:
            out.add(texts[i])
    return frozenset(out)


def _use(ctx: Context, i: int, res: Resolution) -> Use | None:
    mapped = res.status is Status.MAPPED
    if mapped and _plain_c_name(res):
        return None
    toks = ctx.tokens
    new_name = res.new_name if mapped else None
    start, end = toks.starts[i], toks.ends[i]
    location = ctx.location(start, end)
    return Use(toks.texts[i], res.family, res.status, location, new_name, res.min_rocm, start, end)


def _plain_c_name(res: Resolution) -> bool:
    """A device-library name that is also plain C/C++ (log, sqrtf, min, abs): CUDA provides
    it, but seeing it says nothing about the file being CUDA, so it is not a Use."""
    return (
        res.family == "device"
        and res.new_name == res.name
        and not res.name.startswith(("__", "atomic"))
    )


def _overload(ctx: Context, name: str, hip: str | None) -> Resolution | None:
    """The resolution of a call whose HIP function depends on its argument count
    (arguments.tsv, overload-by-arg-count): that of the CUDA row mapping to `hip` (so its
    ROCm version gates it), under the call's own name. None: the plain mapping holds."""
    if hip is None or hip == ctx.resolve(name).new_name:
        return None
    row = next((r for r in ctx.tables.by_hip.get(hip, ()) if r.hip == hip), None)
    if row is None:
        return None
    return replace(ctx.resolve(row.cuda), name=name)


def _call_arity(ctx: Context, i: int) -> int | None:
    """The number of arguments of the call whose name is token i (None: not a call)."""
    code = ctx.tokens.code()
    lparen = code.from_all(i) + 1
    if not code.punct(lparen, "("):
        return None
    rparen = code.match(lparen)
    args = code.arguments(lparen, rparen, templates=True) if rparen is not None else None
    return None if args is None else len(args)
