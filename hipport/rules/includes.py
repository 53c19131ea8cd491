"""Includes: CUDA headers rewritten through mappings/includes.tsv, duplicates the rewrite
creates collapsed, headers mapped to nothing dropped (whole line), and
`#include "hip/hip_runtime.h"` added where nvcc would have included the runtime itself."""

from __future__ import annotations

from dataclasses import dataclass

from hipport.catalogue import UNMAPPED_INCLUDE
from hipport.edits import Edit
from hipport.facts import KEPT_BY_ROCM
from hipport.findings import Finding, Severity
from hipport.lexer import PUNCTUATION
from hipport.rules.branches import CUDA_LOOKING as _CUDA_LOOKING
from hipport.rules.context import Context, RuleResult, Triggers
from hipport.rules.placement import insertion_point, needs_newline
from hipport.rules.tokens import INCLUDE_DIRECTIVES, Directive, include_spelling, is_launch_open

RUNTIME_HEADER = "hip/hip_runtime.h"
# HIP headers that do not build unless the runtime was included first (ROCm 5.2's
# cooperative groups use hipBlockDim_z & co. from hip_runtime.h); CUDA's do.
NEED_RUNTIME_FIRST = frozenset({"hip/hip_cooperative_groups.h"})
RUNTIME_HEADERS = frozenset({RUNTIME_HEADER, "hip/hip_runtime_api.h"})

# Identifiers that mean CUDA device code (nvcc includes cuda_runtime.h for these).
DEVICE_MARKERS = frozenset(
    {
        "__global__",
        "__device__",
        "__host__",
        "__shared__",
        "__constant__",
        "__managed__",
        "__launch_bounds__",
        "threadIdx",
        "blockIdx",
        "blockDim",
        "gridDim",
        "warpSize",
        "__syncthreads",
        "dim3",
    }
)

_CONDITIONALS = {"if", "ifdef", "ifndef"}


@dataclass(frozen=True)
class Include:
    directive: Directive
    header: str
    quoted: bool
    start: int  # byte range of the header text inside the quotes or brackets
    end: int
    scope: tuple[int, ...]  # the #if branches it sits in (ids, outermost first)


def parse_includes(ctx: Context) -> list[Include]:
    """Every `#include` / `#include_next` / `#import` with its header text and #if scope."""
    out: list[Include] = []
    stack: list[int] = []
    counter = 0
    for d in ctx.directives:
        if d.name in _CONDITIONALS:
            counter += 1
            stack.append(counter)
        elif d.name in ("elif", "else", "elifdef", "elifndef"):
            counter += 1
            if stack:
                stack[-1] = counter
        elif d.name == "endif":
            if stack:
                stack.pop()
        elif d.name in INCLUDE_DIRECTIVES:
            inc = _parse_one(ctx, d, tuple(stack))
            if inc is not None:
                out.append(inc)
    return out


def _parse_one(ctx: Context, d: Directive, scope: tuple[int, ...]) -> Include | None:
    spelled = include_spelling(ctx.source, ctx.tokens, d)
    if spelled is None:
        return None  # a computed include (#include MACRO): nothing to rewrite
    return Include(d, spelled.header, spelled.quoted, spelled.start, spelled.end, scope)


class IncludesRule:
    name = "includes"
    priority = 30

    codes = (UNMAPPED_INCLUDE.code,)
    # an include line (#include, #include_next, #import), or what makes nvcc include the
    # runtime itself: device code (a marker, a <<< launch) or a use of the runtime API
    triggers = Triggers(
        names=DEVICE_MARKERS,
        data=lambda m: m.tables.by_cuda.keys(),
        texts=(b"include", b"import", b"<<<"),
    )

    def run(self, ctx: Context) -> RuleResult:
        edits: list[Edit] = []
        findings: list[Finding] = []
        includes = parse_includes(ctx)
        seen: list[tuple[str, tuple[int, ...]]] = []  # resulting headers, with their scope
        cuda_header_seen = False
        for inc in includes:
            new = self._new_header(ctx, inc, findings)
            if new is not None and new != inc.header:
                cuda_header_seen = True
            header = inc.header if new is None else new
            if header == "":
                edits.append(_remove_line(ctx, inc.directive))
                continue
            if new is not None and new != inc.header and _dominated(header, inc.scope, seen):
                edits.append(_remove_line(ctx, inc.directive))
                continue
            if new is not None and new != inc.header:
                edits.append(ctx.edit(inc.start, inc.end, new, self.name))
                if new in NEED_RUNTIME_FIRST and not _dominated(RUNTIME_HEADER, inc.scope, seen):
                    edits.append(_runtime_line_before(ctx, inc))
                    seen.append((RUNTIME_HEADER, inc.scope))
            seen.append((header, inc.scope))
        headers = {h for h, _ in seen}
        edit = self._runtime_include(ctx, headers, cuda_header_seen)
        if edit is not None:
            edits.append(edit)
        return RuleResult(edits, findings)

    def _new_header(self, ctx: Context, inc: Include, findings: list[Finding]) -> str | None:
        """The header to include instead, "" to drop the line, None to leave it."""
        if inc.quoted:
            renamed = _include_rename(inc.header, ctx.options.include_renames)
            if renamed is not None:
                return renamed
        elif ctx.options.include_renames.get(inc.header) == inc.header:
            return None  # <helper_cuda.h> and the project ships its own helper_cuda.h
        mapping = ctx.tables.includes.get(inc.header)
        if mapping is None:
            kind = ctx.mappings.gate.header_kinds.get(inc.header)
            if kind in KEPT_BY_ROCM:
                return None
            if inc.quoted and kind is not None:
                # the project may ship a header of that name: the engine sees one file, so
                # the run's project filter (hipport.policy) drops the finding then
                findings.append(
                    _unmapped(
                        ctx,
                        inc,
                        ctx.finding(
                            UNMAPPED_INCLUDE.code,
                            inc.start,
                            inc.end,
                            f'"{inc.header}" is the name of a CUDA header ({kind}) with no '
                            "HIP counterpart, and the project ships no header of that name",
                            api=inc.header,
                        ),
                    )
                )
            elif not inc.quoted and (kind is not None or _CUDA_LOOKING.match(inc.header)):
                what = f"a CUDA header ({kind})" if kind else "a CUDA header"
                findings.append(
                    _unmapped(
                        ctx,
                        inc,
                        ctx.finding(
                            UNMAPPED_INCLUDE.code,
                            inc.start,
                            inc.end,
                            f"<{inc.header}> is {what} hipport has no HIP counterpart for",
                            api=inc.header,
                        ),
                    )
                )
            return None
        if mapping.unsupported:
            findings.append(
                _unmapped(
                    ctx,
                    inc,
                    ctx.finding(
                        UNMAPPED_INCLUDE.code,
                        inc.start,
                        inc.end,
                        f"{inc.header} has no HIP counterpart",
                        api=inc.header,
                        family=mapping.family,
                        hip=mapping.hip_header or None,
                    ),
                )
            )
            return None
        if ctx.target.roc and mapping.roc_header:
            return mapping.roc_header
        rocm = ctx.target.rocm or ctx.tables.newest_rocm
        if mapping.hip_added and rocm < mapping.hip_added and mapping.earlier_header:
            return mapping.earlier_header  # an older header declares the older mapping's names
        if mapping.hip_added and rocm < mapping.hip_added:
            findings.append(
                _unmapped(
                    ctx,
                    inc,
                    ctx.finding(
                        UNMAPPED_INCLUDE.code,
                        inc.start,
                        inc.end,
                        f"{inc.header} has no HIP counterpart in ROCm {rocm}: "
                        f"<{mapping.hip_header}> needs ROCm {mapping.hip_added} or newer",
                        api=inc.header,
                        family=mapping.family,
                        hip=mapping.hip_header,
                    ),
                )
            )
            return None
        return mapping.hip_header

    def _runtime_include(self, ctx: Context, headers: set[str], cuda_seen: bool) -> Edit | None:
        if _uses_device_code(ctx):
            if RUNTIME_HEADER in headers:
                return None
        elif not _uses_runtime_api(ctx) or headers & RUNTIME_HEADERS:
            return None
        if not (cuda_seen or _cuda_only(ctx) or ctx.path.endswith((".cu", ".cuh"))):
            return None  # already HIP (or plain C++): leave it as it is
        pos = insertion_point(ctx)
        if pos is None:
            return None
        text = b'#include "' + RUNTIME_HEADER.encode() + b'"' + ctx.newline
        if needs_newline(ctx, pos):  # after a comment's `*/`, or at the end of a last line
            text = ctx.newline + text
        return ctx.edit(pos, pos, text, self.name)


def _unmapped(ctx: Context, inc: Include, finding: Finding) -> Finding:
    """An unmapped header included unconditionally (outside any #if but the include
    guard) stops the HIP build: that finding is an error, not a warning."""
    scope = inc.scope[1:] if inc.scope[:1] == (1,) and _has_include_guard(ctx) else inc.scope
    if not scope:
        finding.severity = Severity.ERROR
        finding.message += " (included unconditionally: the HIP build stops here)"
    return finding


def _has_include_guard(ctx: Context) -> bool:
    """The file's first directive pair is `#ifndef X` / `#define X` (or it has none)."""
    dirs = ctx.directives
    texts = ctx.tokens.texts
    if len(dirs) < 2 or dirs[0].name != "ifndef" or dirs[1].name != "define":
        return False
    a, b = dirs[0], dirs[1]
    return a.hash + 2 < a.end and b.hash + 2 < b.end and texts[a.hash + 2] == texts[b.hash + 2]


def _include_rename(header: str, renames) -> str | None:  # a Mapping
    if not renames:
        return None
    if header in renames:
        return renames[header]
    head, sep, base = header.rpartition("/")
    if sep and base in renames and "/" not in base:
        return f"{head}/{renames[base]}"
    return None


def _dominated(
    header: str, scope: tuple[int, ...], seen: list[tuple[str, tuple[int, ...]]]
) -> bool:
    """An earlier include of the same header is always seen first (its #if scope encloses)."""
    return any(h == header and scope[: len(s)] == s for h, s in seen)


def _runtime_line_before(ctx: Context, inc: Include) -> Edit:
    """`#include <hip/hip_runtime.h>` on its own line before `inc`, in its bracket style."""
    header = f'"{RUNTIME_HEADER}"' if inc.quoted else f"<{RUNTIME_HEADER}>"
    text = f"#include {header}".encode() + ctx.newline
    return ctx.edit(inc.directive.line_start, inc.directive.line_start, text, "includes")


def _remove_line(ctx: Context, d: Directive) -> Edit:
    return ctx.edit(d.line_start, d.line_end, b"", "includes")


def _uses_device_code(ctx: Context) -> bool:
    """A device-code marker identifier, or a `<<<` launch."""
    if not ctx.identifiers.isdisjoint(DEVICE_MARKERS):
        return True
    if b"<<" not in ctx.source:
        return False
    v = ctx.code
    return any(is_launch_open(v.tokens, k) for k in v.indices(("<<",), (PUNCTUATION,)))


def _cuda_only(ctx: Context) -> bool:
    """The file uses a name that is CUDA's and not HIP's (so it is not already HIP)."""
    return any(u.use.new_name != u.name for u in ctx.api_uses if u.use is not None)


def _uses_runtime_api(ctx: Context) -> bool:
    return any(
        u.family in ("runtime", "driver")
        or u.family == "device"
        and u.api.startswith(("__", "atomic"))
        for u in (a.use for a in ctx.api_uses if a.use is not None)
    )


RULE = IncludesRule()
