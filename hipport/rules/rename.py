"""Renames: CUDA identifiers from the tables to their HIP (or ROC) names, as whole tokens.

Never a member (`obj.cudaMalloc`, `p->cudaMalloc`), never a user-qualified name
(`mylib::cudaMalloc`; the global `::cudaMalloc` is renamed), never inside comments, inside
string literals only with `Target.translate_strings`. Names the target cannot take stay
as they are and become findings (unsupported, needs newer ROCm, experimental, removed).
"""

from __future__ import annotations

import re
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
from hipport.facts import verdict
from hipport.findings import Use
from hipport.lexer import LITERAL
from hipport.rules.api_uses import ApiUse
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.names import PRESERVE
from hipport.rules.tokens import Directive, is_member_or_qualified
from hipport.tables import Resolution, Status, Tables
from hipport.target import Target

_BY_STATUS = {
    Status.UNSUPPORTED: UNSUPPORTED.code,
    Status.NEEDS_NEWER_ROCM: NEEDS_NEWER_ROCM.code,
    Status.EXPERIMENTAL: EXPERIMENTAL.code,
    Status.REMOVED_HIP: REMOVED_HIP.code,
}

_WORD = re.compile(rb"(?<![\w\\])[A-Za-z_]\w*")


class RenameRule:
    name = "rename"
    priority = 10
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
    # the table names (the API uses), the include guards; any file when the user renames
    # names or strings are translated
    triggers = Triggers(
        data=lambda m: m.tables.by_cuda.keys() | m.include_guards.renames.keys(),
        when=lambda ctx: bool(ctx.options.user_renames) or ctx.target.translate_strings,
    )

    def run(self, ctx: Context) -> RuleResult:
        out = RuleResult()
        edits, findings, uses = out.edits, out.findings, out.uses
        user = ctx.options.user_renames
        strings = ctx.target.translate_strings
        uses_at = {u.index: u for u in ctx.api_uses}
        others = _others(ctx)
        if not uses_at and not others and not strings:
            return out
        in_include = ctx.include_lines
        toks = ctx.tokens
        texts, kinds, starts, ends = toks.texts, toks.kinds, toks.starts, toks.ends
        directive_at = ctx.directive_at
        guards = ctx.mappings.include_guards.renames
        plans = _PLANS.setdefault(ctx.tables, {}).setdefault(ctx.target, {})
        for i in _positions(ctx, uses_at, others, strings):
            kind = kinds[i]
            if kind == LITERAL:
                if '"' in texts[i] and i not in in_include:
                    edits.extend(self._in_string(ctx, starts[i], ends[i]))
                continue
            use = uses_at.get(i)
            if use is not None:
                key = use.name if use.hip is None else (use.name, use.hip)
                plan = plans.get(key)
                if plan is None:
                    plan = plans[key] = _make_plan(ctx, use.name, use.resolution)
                self._one(ctx, use, plan, out)
                continue
            name = texts[i]
            if name in user:
                if i not in in_include and not is_member_or_qualified(toks, i, directive_at):
                    edits.append(ctx.edit(starts[i], ends[i], user[name], self.name))
                continue
            guard = guards.get(name)
            if guard is not None and _in_condition(directive_at, i):
                edits.append(ctx.edit(starts[i], ends[i], guard, self.name))
        if not edits and findings and _already_hip(ctx, uses):
            # HIP code using a name CUDA deprecated but HIP keeps (__shfl_xor): not news.
            findings[:] = [
                f for f in findings if f.code not in (DEPRECATED_CUDA.code, REMOVED_CUDA.code)
            ]
        return out

    def _one(self, ctx: Context, use: ApiUse, plan: _Plan, out: RuleResult) -> None:
        """One API use, as its name's plan says."""
        start, end = use.start, use.end
        if use.use is not None:
            out.uses.append(use.use)
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
    """What every use of one resolved name gives besides its Use record: an edit to `new`
    (None: none) and findings (code, message, fields), in that order."""

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
    if res.status is not Status.MAPPED and _rewritten_elsewhere(ctx, name):
        return _Plan(None, ())
    if res.status is not Status.MAPPED:
        code = _BY_STATUS.get(res.status)
        if code is not None:
            found.append((code, res.reason(), fields))
            if res.alternatives:
                found.append(_hipext(name, res, fields))
        return _Plan(None, tuple(found))
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
    return _Plan(new, tuple(found))


def _rewritten_elsewhere(ctx: Context, name: str) -> bool:
    """A name HIP lacks that another rewrite handles for this target, and reports itself
    (umin -> min with casts: rules.unsigned_min_max, HIP029)."""
    fact = ctx.mappings.gate.unsigned_min_max.get(name)
    return fact is not None and verdict(fact, ctx.target, ctx.tables.newest_rocm) is not None


def _hipext(
    name: str, res: Resolution, fields: dict[str, object]
) -> tuple[str, str, dict[str, object]]:
    ext = res.alternatives[0]
    message = f"AMD extension {ext.name} can stand in for {name}: {ext.stands_in_for}"
    return HIPEXT.code, message, {**fields, "hint": ext.signature}


def _others(ctx: Context) -> set[str]:
    """The file's identifiers renamed besides the API uses: the user's renames and the
    include guards."""
    ids = ctx.identifiers
    user = ctx.options.user_renames
    others = ids.intersection(user) if user else set()
    others |= ids.intersection(ctx.mappings.include_guards.renames)
    return others


_CONDITIONS = frozenset({"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"})


def _in_condition(directive_at: dict[int, Directive], i: int) -> bool:
    """Token `i` is in an #if-family condition: an include guard is renamed only where the
    code tests it (a guard in code or in a #define stays: CUSPARSEAPI's HIP test is a
    version number, not an empty calling-convention macro)."""
    d = directive_at.get(i)
    return d is not None and d.name in _CONDITIONS


def _positions(
    ctx: Context, uses_at: dict[int, ApiUse], others: set[str], strings: bool
) -> list[int]:
    """Ascending indices of the API uses, of the identifiers spelled as `others` and, with
    `strings`, of the literals (found at C speed over the token columns)."""
    at = [*uses_at, *ctx.where(others)] if others else list(uses_at)
    if strings:
        kinds = ctx.tokens.kinds
        at += compress(range(len(kinds)), map(LITERAL.__eq__, kinds))
    return sorted(at) if others or strings else at


def _already_hip(ctx: Context, uses: list[Use]) -> bool:
    """The file includes a HIP header and nothing in it needs renaming."""
    src = ctx.source
    return any(
        d.name == "include" and b"hip" in src[d.line_start : d.line_end] for d in ctx.directives
    ) and not any(u.new_name != u.api for u in uses)


RULE = RenameRule()
