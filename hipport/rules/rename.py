"""Renames: CUDA identifiers from the tables to their HIP (or ROC) names, as whole tokens.

Never a member (`obj.cudaMalloc`, `p->cudaMalloc`), never a user-qualified name
(`mylib::cudaMalloc`; the global `::cudaMalloc` is renamed), never inside comments, inside
string literals only with `Target.translate_strings`. Names the target cannot take stay
as they are and become findings (unsupported, needs newer ROCm, experimental, removed).
"""

from __future__ import annotations

import re
from dataclasses import replace

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
from hipport.findings import Finding, Use
from hipport.lexer import IDENTIFIER, LITERAL, Token
from hipport.rules.context import Context, RuleResult
from hipport.rules.names import INCLUDE_GUARDS, PRESERVE
from hipport.rules.tokens import (
    is_member_or_qualified,
    is_punct,
    matching,
    next_code,
    split_template_args,
)
from hipport.tables import Resolution, Status
from hipport.tables.arguments import argument_tables

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
        tokens = ctx.tokens
        by_cuda = ctx.tables.by_cuda
        user = ctx.options.user_renames
        disabled = ctx.options.disabled_mappings
        skip = ctx.user_declared
        overloads = argument_tables(ctx.tables.directory).overloads
        includes = {d.hash for d in ctx.directives if d.name == "include"}
        include_ranges = [(d.hash, d.end) for d in ctx.directives if d.name == "include"]
        in_include = _index_set(include_ranges) if includes else frozenset()
        for i, tok in enumerate(tokens):
            kind = tok.kind
            if kind == LITERAL:
                if ctx.target.translate_strings and '"' in tok.text and i not in in_include:
                    edits.extend(self._in_string(ctx, tok))
                continue
            if kind != IDENTIFIER:
                continue
            name = tok.text
            if name in user:
                if i not in in_include and not is_member_or_qualified(tokens, i, ctx.directive_at):
                    edits.append(ctx.edit(tok.start, tok.end, user[name], self.name))
                continue
            guard = INCLUDE_GUARDS.get(name)
            if guard is not None:
                edits.append(ctx.edit(tok.start, tok.end, guard, self.name))
                continue
            if name not in by_cuda or name in PRESERVE or name in skip:
                continue
            if i in in_include or is_member_or_qualified(tokens, i, ctx.directive_at):
                continue
            if name in disabled:
                continue
            if name in overloads:
                res = _overload(ctx, name, overloads[name].get(_call_arity(tokens, i)))
                if res is not None:
                    self._one(ctx, tok, res, out)
                    continue
            res = ctx.resolve(name)
            self._one(ctx, tok, res, out)
        if not edits and findings and _already_hip(ctx, uses):
            # HIP code using a name CUDA deprecated but HIP keeps (__shfl_xor): not news.
            findings[:] = [
                f for f in findings if f.code not in (DEPRECATED_CUDA.code, REMOVED_CUDA.code)
            ]
        return out

    def _one(self, ctx: Context, tok: Token, res: Resolution, out: RuleResult) -> None:
        edits, findings = out.edits, out.findings
        name = tok.text
        fields = dict(
            api=name,
            family=res.family,
            hip=res.new_name,
            min_rocm=str(res.min_rocm) if res.min_rocm else None,
            alternative=", ".join(a.name for a in res.alternatives) or None,
        )
        if res.status is Status.MAPPED:
            if not _plain_c_name(res):
                out.uses.append(ctx.use(tok, res, res.new_name))
            if res.renames:
                edits.append(ctx.edit(tok.start, tok.end, res.new_name or name, self.name))
            for code, version, what in (
                (DEPRECATED_CUDA.code, res.deprecated_cuda, "deprecated in CUDA"),
                (REMOVED_CUDA.code, res.removed_cuda, "removed from CUDA"),
                (DEPRECATED_HIP.code, res.deprecated_hip, "deprecated in HIP"),
            ):
                if version is not None:
                    findings.append(
                        ctx.finding(
                            code,
                            tok.start,
                            tok.end,
                            f"{name} is {what} since {version} (renamed to {res.new_name})",
                            **fields,
                        )
                    )
            if res.cuda_mismatch is not None:
                findings.append(
                    ctx.finding(
                        CUDA_SIGNATURE_CHANGED.code,
                        tok.start,
                        tok.end,
                        res.cuda_mismatch_reason(),
                        **fields,
                    )
                )
            if res.condition:
                findings.append(
                    ctx.finding(
                        REQUIRES_MACRO.code,
                        tok.start,
                        tok.end,
                        f"{res.new_name} needs {res.condition} defined before the HIP headers",
                        **fields,
                        hint=f"add -D{res.condition} to the build",
                    )
                )
            if res.alternatives and ctx.target.amd_ext:
                findings.append(self._hipext(ctx, tok, res, fields))
            return
        out.uses.append(ctx.use(tok, res))
        code = _BY_STATUS.get(res.status)
        if code is None:
            return
        findings.append(ctx.finding(code, tok.start, tok.end, res.reason(), **fields))
        if res.alternatives:
            findings.append(self._hipext(ctx, tok, res, fields))

    def _hipext(self, ctx: Context, tok: Token, res: Resolution, fields: dict) -> Finding:
        ext = res.alternatives[0]
        return ctx.finding(
            HIPEXT.code,
            tok.start,
            tok.end,
            f"AMD extension {ext.name} can stand in for {tok.text}: {ext.stands_in_for}",
            **{**fields, "hint": ext.signature},
        )

    def _in_string(self, ctx: Context, tok: Token) -> list[Edit]:
        """Whole-word API names inside a string literal (only with translate_strings)."""
        out: list[Edit] = []
        raw = ctx.source[tok.start : tok.end]
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
            out.append(ctx.edit(tok.start + m.start(), tok.start + m.end(), new, self.name))
        return out


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


def _call_arity(tokens: list[Token], i: int) -> int | None:
    """The number of arguments of the call whose name is tokens[i] (None: not a call)."""
    lparen = next_code(tokens, i)
    if lparen is None or not is_punct(tokens, lparen, "("):
        return None
    rparen = matching(tokens, lparen)
    args = split_template_args(tokens, lparen, rparen) if rparen is not None else None
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
