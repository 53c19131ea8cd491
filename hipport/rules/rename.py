"""Renames: CUDA identifiers from the tables to their HIP (or ROC) names, as whole tokens.

Never a member (`obj.cudaMalloc`, `p->cudaMalloc`), never a user-qualified name
(`mylib::cudaMalloc`; the global `::cudaMalloc` is renamed), never inside comments, inside
string literals only with `Target.translate_strings`. Names the target cannot take stay
as they are and become findings (unsupported, needs newer ROCm, experimental, removed).
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import compress
from typing import NamedTuple
from weakref import WeakKeyDictionary

from hipport.catalogue import (
    CUDA_SIGNATURE_CHANGED,
    DEPRECATED_CUDA,
    DEPRECATED_HIP,
    EXPERIMENTAL,
    HIPEXT,
    NEEDS_NEWER_ROCM,
    REMOVED_CUDA,
    REMOVED_HIP,
    REQUIRES_MACRO,
    UNSUPPORTED,
)
from hipport.edits import Edit
from hipport.findings import Use
from hipport.lexer import IDENTIFIER, LITERAL
from hipport.rules.context import Context, RuleResult
from hipport.rules.names import INCLUDE_GUARDS, PRESERVE
from hipport.rules.tokens import (
    is_member_or_qualified,
)
from hipport.tables import Resolution, Status, Tables
from hipport.tables.arguments import argument_tables
from hipport.target import Target, Version

_BY_STATUS = {
    Status.UNSUPPORTED: UNSUPPORTED.code,
    Status.NEEDS_NEWER_ROCM: NEEDS_NEWER_ROCM.code,
    Status.EXPERIMENTAL: EXPERIMENTAL.code,
    Status.REMOVED_HIP: REMOVED_HIP.code,
}

_WORD = re.compile(rb"(?<![\w\\])[A-Za-z_]\w*")


class RenameRule:
    name = "rename"
    codes = (
        UNSUPPORTED.code,
        NEEDS_NEWER_ROCM.code,
        EXPERIMENTAL.code,
        DEPRECATED_CUDA.code,
        REMOVED_CUDA.code,
        DEPRECATED_HIP.code,
        REMOVED_HIP.code,
        REQUIRES_MACRO.code,
        HIPEXT.code,
        CUDA_SIGNATURE_CHANGED.code,
    )

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        edits, findings, uses = out.edits, out.findings, out.uses
        user = ctx.options.user_renames
        strings = ctx.target.translate_strings
        wanted = _wanted(ctx)
        if not wanted and not strings:
            return out
        overloads = argument_tables(ctx.tables.directory).overloads
        include_ranges = [(d.hash, d.end) for d in ctx.directives if d.name == "include"]
        in_include = _index_set(include_ranges) if include_ranges else frozenset()
        toks = ctx.tokens
        texts, kinds, starts, ends = toks.texts, toks.kinds, toks.starts, toks.ends
        directive_at = ctx.directive_at
        plans = _PLANS.setdefault(ctx.tables, {}).setdefault(ctx.target, {})
        for i in _positions(ctx, wanted, strings):
            kind = kinds[i]
            if kind == LITERAL:
                if '"' in texts[i] and i not in in_include:
                    edits.extend(self._in_string(ctx, starts[i], ends[i]))
                continue
            if kind != IDENTIFIER:
                continue
            name = texts[i]
            if name in user:
                if i not in in_include and not is_member_or_qualified(toks, i, directive_at):
                    edits.append(ctx.edit(starts[i], ends[i], user[name], self.name))
                continue
            guard = INCLUDE_GUARDS.get(name)
            if guard is not None:
                edits.append(ctx.edit(starts[i], ends[i], guard, self.name))
                continue
            # a table name: _wanted left out the preserved, the user's own and the disabled
            if i in in_include or is_member_or_qualified(toks, i, directive_at):
                continue
            plan = None
            if name in overloads:
                hip = overloads[name].get(_call_arity(ctx, i))
                res = _overload(ctx, name, hip)
                if res is not None and hip is not None:
                    plan = plans.get((name, hip))
                    if plan is None:
                        plan = plans[name, hip] = _make_plan(ctx, name, res)
            if plan is None:
                plan = plans.get(name)
                if plan is None:
                    plan = plans[name] = _make_plan(ctx, name, ctx.resolve(name))
            self._one(ctx, i, plan, out)
        if not edits and findings and _already_hip(ctx, uses):
            # HIP code using a name CUDA deprecated but HIP keeps (__shfl_xor): not news.
            findings[:] = [
                f for f in findings if f.code not in (DEPRECATED_CUDA.code, REMOVED_CUDA.code)
            ]
        return out

    def _one(self, ctx: Context, i: int, plan: _Plan, out: RuleResult) -> None:
        """Token i, an occurrence of a table name, as its plan says."""
        toks = ctx.tokens
        start, end = toks.starts[i], toks.ends[i]
        if plan.use:
            out.uses.append(
                Use(
                    toks.texts[i],
                    plan.family,
                    plan.status,
                    ctx.token_location(i),
                    plan.use_new_name,
                    plan.min_rocm,
                )
            )
        if plan.new is not None:
            out.edits.append(Edit(start, end, plan.new, self.name, ctx.source[start:end]))
        for code, message, fields in plan.findings:
            out.findings.append(ctx.finding(code, start, end, message, **fields))

    def _in_string(self, ctx: Context, start: int, end: int) -> list[Edit]:
        """Whole-word API names inside the string literal at source[start:end] (only with
        translate_strings)."""
        out: list[Edit] = []
        raw = ctx.source[start:end]
        prefix = raw.find(b'"')
        for m in _WORD.finditer(raw, prefix + 1):
            word = m.group().decode("ascii", "replace")
            user = ctx.options.user_renames.get(word)
            if user is not None:
                new = user
            elif (
                word in ctx.tables.by_cuda
                and word not in ctx.options.disabled_mappings
                and word not in PRESERVE
            ):
                res = ctx.resolve(word)
                if not res.renames:
                    continue
                new = res.new_name or word
            else:
                continue
            out.append(ctx.edit(start + m.start(), start + m.end(), new, self.name))
        return out


class _Plan(NamedTuple):
    """What every occurrence of one resolved name gives: a Use (with the resolution's
    family, status and min_rocm, and its new name) if `use`, an edit to `new` (None: none)
    and findings (code, message, fields), in that order."""

    family: str | None
    status: Status
    min_rocm: Version | None
    use: bool
    use_new_name: str | None
    new: bytes | None
    findings: tuple[tuple[str, str, dict[str, object]], ...]


# per Tables object (weakly: a dropped Tables drops its entries) and Target: a name (or
# a name and the HIP function of its overload) -> its plan, worked out once a process
_PLANS: WeakKeyDictionary[Tables, dict[Target, dict[str | tuple[str, str], _Plan]]] = (
    WeakKeyDictionary()
)


def _make_plan(ctx: Context, name: str, res: Resolution) -> _Plan:
    """The plan of `name` resolved to `res` (ctx.resolve's, or an overload's)."""
    fields: dict[str, object] = dict(
        api=name,
        family=res.family,
        hip=res.new_name,
        min_rocm=str(res.min_rocm) if res.min_rocm else None,
        alternative=", ".join(a.name for a in res.alternatives)
        or (res.substitute.hip if res.substitute else None),
    )
    found: list[tuple[str, str, dict[str, object]]] = []
    if res.status is not Status.MAPPED:
        code = _BY_STATUS.get(res.status)
        if code is not None:
            found.append((code, res.reason(), fields))
            if res.alternatives:
                found.append(_hipext(name, res, fields))
        return _Plan(res.family, res.status, res.min_rocm, True, None, None, tuple(found))
    for code, version, what in (
        (DEPRECATED_CUDA.code, res.deprecated_cuda, "deprecated in CUDA"),
        (REMOVED_CUDA.code, res.removed_cuda, "removed from CUDA"),
        (DEPRECATED_HIP.code, res.deprecated_hip, "deprecated in HIP"),
    ):
        if version is not None:
            message = f"{name} is {what} since {version} (renamed to {res.new_name})"
            found.append((code, message, fields))
    if res.cuda_mismatch is not None:
        found.append((CUDA_SIGNATURE_CHANGED.code, res.cuda_mismatch_reason(), fields))
    if res.condition:
        message = f"{res.new_name} needs {res.condition} defined before the HIP headers"
        found.append(
            (
                REQUIRES_MACRO.code,
                message,
                {**fields, "hint": f"add -D{res.condition} to the build"},
            )
        )
    if res.alternatives and ctx.target.amd_ext:
        found.append(_hipext(name, res, fields))
    new = (res.new_name or name).encode("utf-8", "surrogateescape") if res.renames else None
    use = not _plain_c_name(res)
    return _Plan(res.family, res.status, res.min_rocm, use, res.new_name, new, tuple(found))


def _hipext(
    name: str, res: Resolution, fields: dict[str, object]
) -> tuple[str, str, dict[str, object]]:
    ext = res.alternatives[0]
    message = f"AMD extension {ext.name} can stand in for {name}: {ext.stands_in_for}"
    return HIPEXT.code, message, {**fields, "hint": ext.signature}


def _wanted(ctx: Context) -> set[str]:
    """The file's identifiers this rule may edit or report: the user's renames, the include
    guards, and the table names that are not preserved, the user's own or disabled (set
    operations over the file's distinct identifiers, no walk of the tokens)."""
    ids = ctx.identifiers
    # `a - b` iterates the smaller side (the project's sets can be large)
    wanted = (ctx.tables.by_cuda.keys() & ids) - PRESERVE - ctx.user_declared
    wanted -= ctx.options.disabled_mappings
    user = ctx.options.user_renames
    if user:
        wanted |= ids.intersection(user)
    wanted |= ids.intersection(INCLUDE_GUARDS)
    return wanted


def _positions(ctx: Context, wanted: set[str], strings: bool) -> list[int]:
    """Ascending indices of the identifiers spelled as a wanted name and, with `strings`,
    of the literals (found at C speed over the token columns)."""
    at = ctx.where(wanted) if wanted else []
    if strings:
        kinds = ctx.tokens.kinds
        literals = compress(range(len(kinds)), map(LITERAL.__eq__, kinds))
        at = sorted([*at, *literals])
    return at


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


def _already_hip(ctx: Context, uses: list[Use]) -> bool:
    """The file includes a HIP header and nothing in it needs renaming."""
    src = ctx.source
    return any(
        d.name == "include" and b"hip" in src[d.line_start : d.line_end] for d in ctx.directives
    ) and not any(u.new_name != u.api for u in uses)


def _plain_c_name(res: Resolution) -> bool:
    """A device-library name that is also plain C/C++ (log, sqrtf, min, abs): CUDA provides
    it, but seeing it says nothing about the file being CUDA, so it is not a Use."""
    return (
        res.family == "device"
        and res.new_name == res.name
        and not res.name.startswith(("__", "atomic"))
    )


def _index_set(ranges: list[tuple[int, int]]) -> frozenset[int]:
    return frozenset(i for a, b in ranges for i in range(a, b))


RULE = RenameRule()
