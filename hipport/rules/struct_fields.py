"""HIP031 struct-field-renamed: a field of a CUDA struct that the HIP struct spells otherwise
(`CUmemAllocationProp::requestedHandleTypes` -> `hipMemAllocationProp::requestedHandleType`,
`cudaDeviceProp::sharedMemPerMultiprocessor` -> `maxSharedMemoryPerMultiProcessor` before
ROCm 6.2, ...): reviewed data with each release's header:line (mappings/struct_fields.tsv).

translate renames the field where the object's type can be told: a variable or parameter of
the function declared with the CUDA struct (`prop.f`, `p->f`), or a designated initializer
of a declaration of that type (`CUmemAllocationProp prop = {.requestedHandleTypes = ...}`).
Where it cannot be told (a global, an array element, a call's result) in a file that names
the CUDA struct, the access is an error that names the HIP field; a field of another type
(the program's own struct with a field of that name) is left alone."""

from __future__ import annotations

from hipport.catalogue import STRUCT_FIELD_RENAMED as INFO
from hipport.facts import StructField
from hipport.findings import Severity
from hipport.lexer import IDENTIFIER
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.lane_masks import declared_type


class StructFieldRule:
    name = "struct-fields"
    priority = 42
    codes = (INFO.code,)
    triggers = Triggers(data=lambda mappings: mappings.struct_fields.cuda_types)

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        facts = ctx.mappings.struct_fields
        rocm = ctx.target.rocm or ctx.tables.newest_rocm
        rows = facts.for_target(rocm)
        if not rows or not ctx.present(facts.cuda_types):
            return out
        v = ctx.code
        named = ctx.present(facts.cuda_types)
        for k in v.indices(ctx.present(rows.keys()), (IDENTIFIER,)):
            if v.in_directive_at(k) or v.is_dead(k):
                continue
            for row in rows[v.tokens.texts[k]]:
                if named.isdisjoint(row.cuda_types):
                    continue
                typed = object_type(v, k, row.cuda_types)
                if typed is False:
                    continue  # another type's field of that name
                if typed:
                    out.edits.append(
                        ctx.edit(v.tokens.start(k), v.tokens.end(k), row.hip_field, self.name)
                    )
                    out.findings.append(_finding(v, k, row, typed))
                else:
                    finding = _finding(v, k, row, None)
                    finding.severity = Severity.ERROR
                    out.findings.append(finding)
                break
        return out


def _finding(v: CodeIndex, k: int, row: StructField, typed: str | None):
    field = v.tokens.texts[k]
    if typed:
        message = (
            f"{typed}::{field} is {row.hip_type}::{row.hip_field} in HIP: translate renames "
            "the field"
        )
    else:
        message = (
            f"cannot tell the type of this object: if it is a {row.cuda_types[0]}, its field "
            f"{field} is {row.hip_type}::{row.hip_field} in HIP (rename it)"
        )
    return v.finding(INFO, k, k, message, api=f"{row.cuda_types[0]}::{field}", hip=row.hip_field)


def object_type(v: CodeIndex, k: int, types: tuple[str, ...]) -> str | bool | None:
    """For the field token k of a member access or a designated initializer: the CUDA type
    (one of `types`) the object is declared with; False when it is declared with another
    type; None when hipport cannot tell."""
    t = v.tokens
    before = t.text(k - 1)
    if before not in (".", "->"):
        return False
    obj = k - 2
    if obj < 0:
        return None
    if before == "." and t.text(obj) in ("{", ","):
        return _initializer_type(v, k - 1, types)
    if t.kinds[obj] != IDENTIFIER or t.text(obj - 1) in (".", "->", "::"):
        return None
    words = declared_type(v, obj)
    if words is None:
        return None
    found = [w for w in words if w in types]
    return found[0] if found else False


def _initializer_type(v: CodeIndex, dot: int, types: tuple[str, ...]) -> str | bool | None:
    """The type a designated initializer `.field = ...` at `dot` initializes: the words of
    the declaration whose braces hold it (`T name = {`, `T name{`, `T{`)."""
    t = v.tokens
    depth = 0
    p = dot - 1
    while p >= 0:
        text = t.texts[p]
        if text in (")", "]", "}"):
            depth += 1
        elif text in ("(", "["):
            depth -= 1
        elif text == "{":
            if depth == 0:
                break
            depth -= 1
        p -= 1
    if p < 0:
        return None
    head = v.declaration_start(p)
    words = [w for w in t.texts[head:p] if w not in ("=",)]
    found = [w for w in words if w in types]
    if found:
        return found[0]
    return None


RULE = StructFieldRule()
