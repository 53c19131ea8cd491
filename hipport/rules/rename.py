"""Renames: CUDA identifiers from the tables to their HIP (or ROC) names, as whole tokens.

Never a member (`obj.cudaMalloc`, `p->cudaMalloc`), never a user-qualified name
(`mylib::cudaMalloc`; the global `::cudaMalloc` is renamed), never inside comments, inside
string literals only with `Target.translate_strings`. Names the target cannot take stay
as they are and become findings (unsupported, needs newer ROCm, experimental, removed).
"""

from __future__ import annotations

import re
from dataclasses import replace

from hipport.edits import Edit
from hipport.findings import Finding, RuleInfo, Severity, register
from hipport.lexer import IDENTIFIER, LITERAL, Token
from hipport.rules.context import Context
from hipport.rules.tokens import (
    is_punct,
    matching,
    next_code,
    prev_code,
    split_template_args,
)
from hipport.tables import Resolution, Status

UNSUPPORTED = register(
    RuleInfo(
        "HIP001",
        "unsupported-api",
        Severity.ERROR,
        "A CUDA API with no HIP counterpart.",
        "The name is left as it is, so the translated file will not build with HIP until the "
        "call is replaced by hand.",
        "cudaDeviceFlushGPUDirectRDMAWrites(target, scope);",
        "Rewrite the code without the API, or guard it with #ifdef __HIP_PLATFORM_NVIDIA__. "
        "Check the finding's alternative for an AMD hipExt API that can stand in.",
    )
)
NEEDS_NEWER_ROCM = register(
    RuleInfo(
        "HIP002",
        "needs-newer-rocm",
        Severity.ERROR,
        "The HIP counterpart exists, but only in a ROCm newer than the target.",
        "Renaming would produce code that does not build with the ROCm release you aim at, so "
        "the name is left unchanged.",
        "cudaMallocAsync(&p, n, stream);  // hipMallocAsync needs ROCm 5.2",
        "Raise the target (--rocm), or replace the call with one the target has.",
    )
)
EXPERIMENTAL = register(
    RuleInfo(
        "HIP003",
        "experimental-mapping",
        Severity.WARNING,
        "HIPIFY marks this mapping experimental; it is not applied by default.",
        "Experimental HIP APIs may change or behave differently from CUDA.",
        "cublasSgemm_64(...);",
        "Pass --experimental to apply the mapping, and test the result.",
    )
)
DEPRECATED_CUDA = register(
    RuleInfo(
        "HIP005",
        "deprecated-in-cuda",
        Severity.WARNING,
        "The CUDA API is deprecated (by the target CUDA release); it was renamed anyway.",
        "Deprecated APIs tend to be removed from HIP too; now is a good time to move off them.",
        "cudaThreadSynchronize();",
        "Use the API CUDA recommends instead (e.g. cudaDeviceSynchronize).",
    )
)
REMOVED_CUDA = register(
    RuleInfo(
        "HIP006",
        "removed-from-cuda",
        Severity.WARNING,
        "The CUDA API was removed from CUDA (by the target CUDA release); it was renamed anyway.",
        "The original code no longer builds with current CUDA, and HIP may drop the API too.",
        "cudaBindTexture(0, tex, p, n);",
        "Port to the replacement API (texture objects, ...).",
    )
)
DEPRECATED_HIP = register(
    RuleInfo(
        "HIP007",
        "deprecated-in-hip",
        Severity.WARNING,
        "The HIP counterpart is deprecated in the target ROCm; it was renamed anyway.",
        "Deprecated HIP APIs print warnings and are removed in later ROCm releases.",
        "cudaMemcpyToArray(dst, 0, 0, src, n, kind);",
        "Use the replacement HIP API (e.g. hipMemcpy2DToArray).",
    )
)
REMOVED_HIP = register(
    RuleInfo(
        "HIP008",
        "removed-from-hip",
        Severity.WARNING,
        "The HIP counterpart was removed in the target ROCm; the name is left unchanged.",
        "The renamed call would not build with the target ROCm.",
        "cudaBindTexture(0, tex, p, n);  // hipBindTexture removed in ROCm 6",
        "Port to the replacement API, or aim at an older ROCm.",
    )
)
REQUIRES_MACRO = register(
    RuleInfo(
        "HIP010",
        "requires-macro",
        Severity.NOTE,
        "The HIP name exists only when a macro is defined before the HIP headers.",
        "Without the macro the renamed call does not build (e.g. the *_sync warp builtins).",
        "__shfl_down_sync(0xffffffff, v, 16);",
        "Define the macro (e.g. -DHIP_ENABLE_WARP_SYNC_BUILTINS) in the build; note that HIP "
        "warp masks are 64-bit.",
    )
)
HIPEXT = register(
    RuleInfo(
        "HIP011",
        "hipext-alternative",
        Severity.NOTE,
        "An AMD-only hipExt API can stand in for this CUDA construct.",
        "Where HIP has no direct counterpart, or offers an AMD-specific better fit, a hipExt API "
        "may do the job; it is never applied silently, as it ties the code to AMD GPUs.",
        "cuGreenCtxCreate(&ctx, desc, dev, flags);",
        "Read the hipExt API's documentation and rewrite the call by hand if it fits.",
    )
)

_BY_STATUS = {
    Status.UNSUPPORTED: UNSUPPORTED.code,
    Status.NEEDS_NEWER_ROCM: NEEDS_NEWER_ROCM.code,
    Status.EXPERIMENTAL: EXPERIMENTAL.code,
    Status.REMOVED_HIP: REMOVED_HIP.code,
}

# Names left alone although the tables map them (none today). __CUDACC__ is NOT one: the
# brief assumed HIP's clang defines it, but clang -x hip (15, HIP 5.2 headers; host and
# device) defines only __HIP__/__HIPCC__ (and __HIP_DEVICE_COMPILE__), so the table's
# __CUDACC__ -> __HIPCC__ is what keeps `#ifdef __CUDACC__` arms alive under hipcc.
PRESERVE: frozenset[str] = frozenset()

# CUDA's header include guards, which real code tests (helpers defined only when the
# runtime was included), and the guards of the HIP headers that replace them. These
# belong in mappings/ (see the report); kept here until the tables carry them.
INCLUDE_GUARDS = {
    "__CUDA_RUNTIME_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_H",
    "__CUDA_RUNTIME_API_H__": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H",
    "__DRIVER_TYPES_H__": "HIP_INCLUDE_HIP_DRIVER_TYPES_H",
}
# Not mapped on purpose: cuda.h's guard `__cuda_cuda_h__`. Code under it declares driver
# API overloads (CUresult, CUdevice, ...) that become the runtime's types under HIP
# (both are hipError_t, int, ...); left undefined, the duplicate overloads drop out.

# A CUDA name whose HIP counterpart depends on the call's argument count: CUDA 12's
# three-argument cudaGraphInstantiate(&exec, graph, flags) is HIP's
# hipGraphInstantiateWithFlags; the five-argument form is hipGraphInstantiate.
ARITY_ALIASES = {("cudaGraphInstantiate", 3): "cudaGraphInstantiateWithFlags"}
_ARITY_NAMES = frozenset(name for name, _ in ARITY_ALIASES)

_WORD = re.compile(rb"(?<![\w\\])[A-Za-z_]\w*")


# CUDA's declaration specifiers (macros, so identifiers to the lexer): never a namespace,
# so `__host__ __device__ ::cudaError_t f();` has the global `::`.
CUDA_SPECIFIERS = frozenset(
    {
        "__global__",
        "__device__",
        "__host__",
        "__shared__",
        "__constant__",
        "__managed__",
        "__forceinline__",
        "__noinline__",
        "__inline__",
        "__restrict__",
        "__grid_constant__",
    }
)


def is_member_or_qualified(tokens: list[Token], i: int, directive_at: dict | None = None) -> bool:
    """tokens[i] follows `.`, `->`, or `X::` where X is a user name (not the global `::`).
    A keyword before `::` (`return ::cudaMalloc(...)`, `static ::cudaStream_t s;`) is no
    namespace: that `::` is the global one. With `directive_at` (Context.directive_at), a
    token in another directive line (the `>` ending an #include) does not count as a
    qualifier."""
    p = prev_code(tokens, i)
    if p is None:
        return False
    prev = tokens[p]
    if prev.text in (".", "->") and prev.kind != LITERAL:
        return True
    if is_punct(tokens, p, "::"):
        q = prev_code(tokens, p)
        if q is None:
            return False
        qualifier = tokens[q]
        if qualifier.kind == IDENTIFIER:
            if qualifier.text in CUDA_SPECIFIERS:
                return False
        elif not is_punct(tokens, q, ">"):
            return False
        return directive_at is None or directive_at.get(q) is directive_at.get(i)
    return False


class RenameRule:
    name = "rename"

    def run(self, ctx: Context) -> tuple[list[Edit], list[Finding]]:
        edits: list[Edit] = []
        findings: list[Finding] = []
        tokens = ctx.tokens
        by_cuda = ctx.tables.by_cuda
        user = ctx.options.user_renames
        disabled = ctx.options.disabled_mappings
        skip = ctx.user_declared
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
            if name in _ARITY_NAMES:
                alias = ARITY_ALIASES.get((name, _call_arity(tokens, i)))
                if alias is not None:
                    res = ctx.resolve(alias)
                    res = replace(res, name=name)
                    self._one(ctx, tok, res, edits, findings)
                    continue
            res = ctx.resolve(name)
            self._one(ctx, tok, res, edits, findings)
        if not edits and findings and _already_hip(ctx):
            # HIP code using a name CUDA deprecated but HIP keeps (__shfl_xor): not news.
            findings = [
                f for f in findings if f.code not in (DEPRECATED_CUDA.code, REMOVED_CUDA.code)
            ]
        return edits, findings

    def _one(
        self, ctx: Context, tok: Token, res: Resolution, edits: list[Edit], findings: list[Finding]
    ) -> None:
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
                ctx.use(tok, res, res.new_name)
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
        ctx.use(tok, res)
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


def _call_arity(tokens: list[Token], i: int) -> int | None:
    """The number of arguments of the call whose name is tokens[i] (None: not a call)."""
    lparen = next_code(tokens, i)
    if lparen is None or not is_punct(tokens, lparen, "("):
        return None
    rparen = matching(tokens, lparen)
    args = split_template_args(tokens, lparen, rparen) if rparen is not None else None
    return None if args is None else len(args)


def _already_hip(ctx: Context) -> bool:
    """The file includes a HIP header and nothing in it needs renaming."""
    src = ctx.source
    return any(
        d.name == "include" and b"hip" in src[d.line_start : d.line_end] for d in ctx.directives
    ) and not any(u.new_name != u.api for u in ctx.uses)


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
