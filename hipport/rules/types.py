"""Type names that are not plain renames: with `--roc`, the ROC-side types the published
tables do not show (mappings/roc_types.tsv: cuComplex -> rocblas_float_complex, __half ->
rocblas_half, ...), everywhere in the file (declarations, parameters, casts, template
arguments); MIOpen's `cudaStream_t -> miopenAcceleratorQueue_t` only in a file whose cuDNN
calls go to MIOpen. And on the hip path the type overloads of arguments.tsv (`enum
cudaDataType_t` -> `hipDataType`, the `enum` keyword included).

Runs before the rename rule: where both edit a token, this rule's name wins.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.tokens import is_member_or_qualified, prev_code
from hipport.tables import Status
from hipport.tables.arguments import HIP, MIOPEN, ArgumentTables, side_of
from hipport.tables.model import Tables
from hipport.target import Target

ELABORATED = ("enum", "struct", "class", "union")


class TypesRule:
    name = "types"
    # its edits win over the rename of the same token (`enum cudaDataType_t`)
    priority = 0
    codes: tuple[str, ...] = ()
    triggers = Triggers(data=lambda m: _type_names(m.arguments))

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        table = ctx.mappings.arguments
        names, elaborated, spelled = _for_target(ctx, table)
        wanted = ctx.identifiers & spelled
        if not wanted:
            return out
        toks = ctx.tokens
        texts, starts, ends = toks.texts, toks.starts, toks.ends
        directive_at = ctx.directive_at
        skip = ctx.options.disabled_mappings | ctx.user_declared | ctx.options.user_renames.keys()
        for i in ctx.where(wanted):
            text = texts[i]
            if text in skip or is_member_or_qualified(toks, i, directive_at):
                continue
            d = directive_at.get(i)
            if d is not None and d.name == "include":
                continue
            p = prev_code(toks, i)
            whole = elaborated.get((texts[p], text)) if p is not None else None
            if whole is not None:  # `enum cudaDataType_t` -> `hipDataType`
                out.edits.append(ctx.edit(starts[p], ends[i], whole, self.name))
            elif text in names:
                out.edits.append(ctx.edit(starts[i], ends[i], names[text], self.name))
        return out


def _type_names(table: ArgumentTables) -> set[str]:
    """Every name this rule may replace, for any target: the ROC-side types and the names
    of the type overloads (`enum cudaDataType_t`: cudaDataType_t)."""
    return set(table.roc_types) | {spelled.split()[-1] for spelled in table.type_overloads}


_Known = tuple[dict[str, str], dict[tuple[str, str], str], frozenset[str]]
# per Tables object (weakly: a dropped Tables drops its entries) and Target
_BY_TARGET: WeakKeyDictionary[Tables, dict[Target, _Known]] = WeakKeyDictionary()


def _for_target(ctx: Context, table: ArgumentTables) -> _Known:
    """The type names to replace, the elaborated overloads and every name either spells,
    for this file: what depends only on the tables and the target is worked out once a
    process (MIOpen's stream type depends on the file's cuDNN calls and is added per
    file)."""
    by_target = _BY_TARGET.setdefault(ctx.tables, {})
    known = by_target.get(ctx.target)
    if known is None:
        names = _roc_names(ctx, table) if ctx.target.roc else {}
        elaborated = _type_overloads(ctx, table, names) if table.type_overloads else {}
        spelled = frozenset(names) | {n for _, n in elaborated}
        known = by_target[ctx.target] = (names, elaborated, spelled)
    names, elaborated, spelled = known
    if ctx.target.roc:
        miopen = _miopen_names(ctx, table)
        if miopen:
            names = {**names, **miopen}
            spelled = spelled | miopen.keys()
    return names, elaborated, spelled


def _miopen_names(ctx: Context, table: ArgumentTables) -> dict[str, str]:
    """MIOpen's type names (cudaStream_t), in a file whose cuDNN calls go to MIOpen."""
    rocm = ctx.target.rocm or ctx.tables.newest_rocm
    wanted = {
        name: roc.roc
        for name, roc in table.roc_types.items()
        if roc.applies_to == MIOPEN and (roc.roc_added is None or roc.roc_added <= rocm)
    }
    if not wanted or ctx.identifiers.isdisjoint(wanted) or not _goes_to_miopen(ctx):
        return {}
    return wanted


def _roc_names(ctx: Context, table: ArgumentTables) -> dict[str, str]:
    """CUDA type -> its ROC name, for the types the target's ROCm has (MIOpen's apart)."""
    rocm = ctx.target.rocm or ctx.tables.newest_rocm
    return {
        name: roc.roc
        for name, roc in table.roc_types.items()
        if roc.applies_to != MIOPEN and (roc.roc_added is None or roc.roc_added <= rocm)
    }


def _goes_to_miopen(ctx: Context) -> bool:
    """The file calls cuDNN, and cuDNN maps to MIOpen for this target."""
    names = [t for t in ctx.identifiers if t.startswith("cudnn")]
    return any(side_of(ctx.resolve(n).library) == MIOPEN for n in names)


def _type_overloads(
    ctx: Context, table: ArgumentTables, names: dict[str, str]
) -> dict[tuple[str, str], str]:
    """The type overloads on the hip path whose HIP type the target has: a plain name
    whose rename differs goes into `names`; the elaborated ones (`enum X`) are returned,
    keyed by (keyword, name)."""
    out: dict[tuple[str, str], str] = {}
    for spelled, hip in table.type_overloads.items():
        words = spelled.split()
        name = words[-1]
        if name in names or not _available(ctx, hip):
            continue
        res = ctx.resolve(name)
        if side_of(res.library) != HIP:
            continue
        if len(words) == 2 and words[0] in ELABORATED:
            out[(words[0], name)] = hip
        elif len(words) == 1 and res.new_name != hip:
            names[name] = hip
    return out


def _available(ctx: Context, hip: str) -> bool:
    rows = [r for r in ctx.tables.by_hip.get(hip, ()) if r.hip == hip]
    return bool(rows) and ctx.resolve(rows[0].cuda).status is Status.MAPPED


RULE = TypesRule()
