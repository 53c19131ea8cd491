"""Which #if arms HIP compiles, for the rules: the file's directives handed to the HIP
build's preprocessor model (hipport.preprocess) with the target's and the project's macros,
and, for the preprocessor-branch-flip hazard (HIP113), each #if chain's conditions under
HIP and over sampled CUDA compilations.

Not a rule (no RULE): HIP113 reports the chains that flip, and the engine drops every
finding, use and edit in an arm the HIP build never compiles (hipport.engine), so a
construct in a `#if __CUDA_ARCH__ >= 350` or `#ifndef __HIP_PLATFORM_AMD__` arm is not
called a build break when hipcc drops that arm.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import compress, product
from math import prod
from typing import TYPE_CHECKING

from hipport.catalogue import UNKNOWN, codes_of
from hipport.edits import Edit
from hipport.findings import Finding, Location, Use
from hipport.lexer import COMMENT, IDENTIFIER, KEYWORD, LITERAL
from hipport.preprocess import (
    Build,
    Conditionals,
    Macro,
    PPDirective,
    Verdict,
    conditionals,
    cuda_build,
    evaluate,
    hip_only,
    macro_flags,
)
from hipport.rules.tokens import Directive

if TYPE_CHECKING:
    from hipport.facts import NvccMacroSamples
    from hipport.rules.file_context import FileContext as Context

# Defined by hipcc for AMD (hipcc -dM -E) and by hip_runtime.h; __CUDACC__ is renamed to
# __HIPCC__ by the translation, so it counts as defined on both sides.
HIP_DEFINED = frozenset(
    {"__HIPCC__", "__HIP__", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__CUDACC__"}
)
_MAX_UNKNOWN = 3  # program macros tried both ways (2**3 evaluations at most)
_MAX_SAMPLES = 64  # CUDA compilations tried per condition
_OPENS = ("if", "ifdef", "ifndef")
_ARMS = ("elif", "else", "elifdef", "elifndef")
_INT = re.compile(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\Z")
# Headers that look like CUDA's although the include map does not list them.
CUDA_LOOKING = re.compile(
    r"^(?:cuda|cu[A-Z]|cublas|curand|cusparse|cusolver|cufft|cudnn|nvrtc|nvToolsExt|nvml|"
    r"nvtx3?/|cub/|cooperative_groups/|cuda/|crt/|sm_\d+_)"
)


@dataclass(frozen=True)
class Arm:
    directive: Directive
    cuda_macros: tuple[str, ...]  # nvcc macros its condition tests
    hip: bool | None  # its condition under HIP (None: cannot tell)
    cuda: frozenset[bool]  # its condition's values over CUDA compilations (empty: cannot tell)
    body: tuple[int, int]  # byte range of the arm's code: [after its directive, the next one)


@dataclass(frozen=True)
class Chain:
    arms: tuple[Arm, ...]
    taken_by_hip: int | None  # index of the arm HIP compiles; len(arms) = none; None: unknown


@dataclass(frozen=True)
class Branches:
    chains: tuple[Chain, ...]
    dead: tuple[tuple[int, int], ...]  # sorted, disjoint byte ranges HIP never compiles

    def is_dead(self, offset: int) -> bool:
        """The byte at `offset` sits in an #if arm that hipcc does not compile."""
        k = bisect_right(self.dead, (offset, 1 << 62)) - 1
        return k >= 0 and self.dead[k][0] <= offset < self.dead[k][1]


def branches(ctx: Context) -> Branches:
    """The file's #if chains as HIP sees them (rules read them as Context.branches, made
    once per file)."""
    return _branches(ctx)


# --- the HIP build's view (hipport.preprocess) ------------------------------------------------


def hip_view(ctx: Context) -> Conditionals:
    """The file's arms under the HIP build (check's view: what hipcc compiles once the file
    is translated; a file already written for HIP is read as it is)."""
    found = ctx.__dict__.get("_hip_view")
    if found is None:
        found = ctx.__dict__["_hip_view"] = _hip_view(ctx)
    return found


def translate_view(ctx: Context) -> Conditionals:
    """The arms translate leaves alone: dead whatever nvcc's macros are (an arm dead only
    because hipcc lacks __CUDA_ARCH__ or CUDART_VERSION is still translated: HIP113 asks
    for its condition to be fixed, and its code must then be HIP)."""
    found = ctx.__dict__.get("_translate_view")
    if found is None:
        view = hip_view(ctx)
        if view.dead and build_of(ctx).view == "check":
            view = _conditionals(ctx, replace(build_of(ctx), view="translate"))
        found = ctx.__dict__["_translate_view"] = view
    return found


def hip_only_arms(ctx: Context) -> tuple[tuple[int, int], ...]:
    """The byte ranges of the arms only the HIP build compiles (`#if
    defined(__HIP_PLATFORM_AMD__)`, `#ifdef MYPROJ_USE_HIP` with MYPROJ_USE_HIP in the
    project's defines): the project's own port, which translate leaves as it is."""
    found = ctx.__dict__.get("_hip_only")
    if found is None:
        view = hip_view(ctx)
        found = ()
        if view.arms and not already_hip(ctx):
            build = cuda_build(build_of(ctx), ctx.options.defines)
            found = hip_only(view, _conditionals(ctx, build))
        ctx.__dict__["_hip_only"] = found
    return found


def hip_only_names(ctx: Context) -> frozenset[str]:
    """The names the file defines in its arms only the HIP build compiles (its own
    `__stcs`, `#define cudaStream_t hipStream_t`): the project's, not CUDA's."""
    return names_in(ctx.source, ctx.path, hip_only_arms(ctx))


def names_in(source: bytes, path: str, ranges: tuple[tuple[int, int], ...]) -> frozenset[str]:
    """The names the code in these byte ranges of `source` defines."""
    from hipport.rules.declared import defined_names

    names: set[str] = set()
    for start, end in ranges:
        names |= defined_names(source[start : min(end, len(source))], path)
    return frozenset(names)


def already_hip(ctx: Context) -> bool:
    """The file includes a HIP header and no CUDA header (in code the HIP build compiles):
    it is HIP already, and nothing in it is a CUDA name to rename."""
    return build_of(ctx).view == "hip"


def build_of(ctx: Context) -> Build:
    found = ctx.__dict__.get("_hip_build")
    if found is None:
        hip_view(ctx)
        found = ctx.__dict__["_hip_build"]
    return found


def _hip_view(ctx: Context) -> Conditionals:
    rocm = ctx.target.rocm or ctx.tables.newest_rocm
    parts = rocm.parts + (0, 0)
    per_file = macro_flags(ctx.options.compile_args)
    headers = ctx.options.headers
    if not per_file and headers is not None:
        per_file = headers.inherited.get(ctx.path, ())
    defines = tuple(ctx.options.defines) + per_file
    build = Build((parts[0], parts[1]), defines, macros=ctx.mappings.hip_macros)
    found = _conditionals(ctx, build)
    includes = found.includes if found.arms else _all_includes(ctx)
    if _is_hip(ctx, includes):
        build = replace(build, view="hip")
        found = _conditionals(ctx, build) if found.arms else found
    ctx.__dict__["_hip_build"] = build
    return found


def _is_hip(ctx: Context, includes: tuple[tuple[str, bool], ...]) -> bool:
    """A HIP header and no CUDA one (a CUDA header's name that the project's own file
    answers, as the compiler finds it, is the project's: `#include "cuda.h"` beside a
    vendors/cuda.h; `#include <cuda.h>` is the toolkit's unless on the project's -I)."""
    if not any(h.startswith("hip/") for h, _ in includes):
        return False
    headers = ctx.options.headers
    for header, angle in includes:
        if not is_cuda_header(ctx, header):
            continue
        if headers is None or headers.lookup(header, angle, ctx.path) is None:
            return False
    return True


def is_cuda_header(ctx: Context, header: str) -> bool:
    """A CUDA header name: in the include map, a known CUDA header, or CUDA-looking."""
    return (
        header in ctx.tables.includes
        or header in ctx.mappings.gate.header_kinds
        or CUDA_LOOKING.match(header) is not None
    )


def _all_includes(ctx: Context) -> tuple[tuple[str, bool], ...]:
    from hipport.preprocess import include_target

    return tuple(
        include_target(d.words) for d in pp_directives(ctx) if d.name == "include" and d.words
    )


def _conditionals(ctx: Context, build: Build) -> Conditionals:
    return conditionals(pp_directives(ctx), build, ctx.options.headers, ctx.path)


def pp_directives(ctx: Context) -> list[PPDirective]:
    """The file's directives as the preprocessor model reads them (once per Context)."""
    found = ctx.__dict__.get("_pp_directives")
    if found is None:
        found = ctx.__dict__["_pp_directives"] = _pp_directives(ctx)
    return found


_MODEL_DIRECTIVES = frozenset(
    _OPENS + _ARMS + ("endif", "define", "undef", "include", "include_next", "pragma")
)


def _pp_directives(ctx: Context) -> list[PPDirective]:
    cols = ctx.tokens
    source = ctx.source
    out = []
    for d in ctx.directives:
        if d.name not in _MODEL_DIRECTIVES:
            continue
        kinds = cols.kinds[d.hash + 2 : d.end]
        texts = cols.texts[d.hash + 2 : d.end]
        words = tuple(t for k, t in zip(kinds, texts, strict=True) if k != COMMENT)
        function_like = False
        if d.name == "define" and d.hash + 3 < d.end:
            end = cols.ends[d.hash + 2]
            function_like = source[end : end + 1] == b"("
        line = ctx.tokens.position(d.line_start)[0]
        out.append(PPDirective(d.name, words, d.line_start, d.line_end, line, function_like))
    return out


# --- HIP113's view: each condition under HIP and over sampled CUDA compilations ----------


def _branches(ctx: Context) -> Branches:
    dirs = [d for d in ctx.directives if d.name in _OPENS + _ARMS + ("endif",)]
    if not dirs:
        return Branches((), ())
    # a program that #defines one of nvcc's macros itself decides its value
    macros = ctx.mappings.gate.macro_names - ctx.defined
    chains: list[Chain] = []
    stack: list[list[Directive]] = []
    for d in dirs:
        if d.name in _OPENS:
            stack.append([d])
        elif d.name in _ARMS and stack:
            stack[-1].append(d)
        elif d.name == "endif" and stack:
            chains.append(_chain(ctx, stack.pop(), d, macros))
    return Branches(tuple(chains), hip_view(ctx).dead)


def _chain(ctx: Context, ds: list[Directive], endif: Directive, macros: frozenset[str]) -> Chain:
    arms = []
    defined = ctx.defined
    given = ctx.target.cuda
    release = None if given is None else (given.parts + (0, 0))[:2]
    samples = ctx.mappings.nvcc_macro_samples  # mappings/nvcc_macro_samples.tsv
    for i, d in enumerate(ds):
        end = ds[i + 1].line_start if i + 1 < len(ds) else endif.line_start
        words = _condition(ctx, d)
        distinct = set(words)
        tested, hip, cuda = _arm_values(
            tuple(words),
            frozenset(distinct & macros),
            frozenset(distinct & defined),
            samples,
            release,
        )
        arms.append(Arm(d, tested, hip, cuda, (d.line_end, end)))
    taken: int | None = len(arms)
    for i, arm in enumerate(arms):
        if arm.hip is None:
            taken = None
            break
        if arm.hip:
            taken = i
            break
    return Chain(tuple(arms), taken)


@lru_cache(maxsize=8192)
def _arm_values(
    words: tuple[str, ...],
    macros: frozenset[str],
    defined: frozenset[str],
    samples: NvccMacroSamples,
    release: tuple[int, int] | None = None,
) -> tuple[tuple[str, ...], bool | None, frozenset[bool]]:
    """An arm's nvcc macros, its value under HIP and its values over CUDA compilations,
    from its condition's words and those of them that are nvcc macros (not the program's)
    and that the program defines (all it depends on: the same condition in many files is
    evaluated once)."""
    tested = tuple(sorted(macros))
    hip = _value(list(words), lambda name: _hip_value(name, samples, defined))
    return tested, hip, _cuda_values(list(words), tested, samples, release)


def _condition(ctx: Context, d: Directive) -> list[str]:
    """The condition as a list of token texts, #ifdef/#ifndef/#else written as #if."""
    cols = ctx.tokens
    all_kinds = cols.kinds[d.hash + 2 : d.end]
    code = [k != COMMENT for k in all_kinds]
    kinds = list(compress(all_kinds, code))
    texts = list(compress(cols.texts[d.hash + 2 : d.end], code))
    if d.name in ("ifdef", "elifdef"):
        return ["defined", *texts[:1]]
    if d.name in ("ifndef", "elifndef"):
        return ["!", "defined", *texts[:1]]
    if d.name == "else":
        return ["1"]
    if any(k not in (IDENTIFIER, KEYWORD, LITERAL, "punctuation") for k in kinds):
        return ["?"]
    return texts


def _hip_value(
    name: str, samples: NvccMacroSamples, own: frozenset[str] = frozenset()
) -> int | None | str:
    """A macro's value under hipcc: 1 for HIP's own, None (undefined) for nvcc's unless
    the program defines it, else "?" (the program's: unknown)."""
    if name in HIP_DEFINED:
        return 1
    if name in samples and name not in own:
        return None
    return "?"


def _value(
    words: list[str],
    lookup: Callable[[str], int | None | str],
    assignment: dict[str, int | None] | None = None,
) -> bool | None:
    """The condition's truth with macro values from `lookup` (a name -> int, None for
    undefined, "?" for unknown): unknown names are tried as undefined and as 1; a condition
    that comes out the same either way is decided."""
    names = sorted({w for w in words if _is_name(w) and w != "defined"})
    values = {n: lookup(n) for n in names}
    values.update(assignment or {})
    unknown = [n for n, v in values.items() if v == "?"]
    if len(unknown) > _MAX_UNKNOWN or (unknown and len(unknown) == len(values)):
        return None  # only the program's macros (an include guard, a config switch)
    results = set()
    for combo in product((None, 1), repeat=len(unknown)):
        env = {**values, **dict(zip(unknown, combo, strict=True))}
        result = _evaluate(words, env)
        if result is None:
            return None
        results.add(result)
    return results.pop() if len(results) == 1 else None


def _samples(
    macro: str, samples: NvccMacroSamples, release: tuple[int, int] | None
) -> tuple[int | None, ...]:
    """The values nvcc gives a macro: the sampled releases', or those of --cuda's release."""
    if release is not None:
        given = release_macros(*release).get(macro)
        if given is not None:
            return (given,)
    return samples.get(macro, (1,))


def release_macros(major: int, minor: int) -> dict[str, int]:
    """The version macros a CUDA release's compilations define, by its number (the
    definitions nvcc_macro_samples.tsv cites: 1000 * major + 10 * minor); the build number
    is not part of a release's number."""
    number = major * 1000 + minor * 10
    return {
        "CUDA_VERSION": number,
        "CUDART_VERSION": number,
        "__CUDA_API_VERSION": number,
        "__CUDACC_VER_MAJOR__": major,
        "__CUDACC_VER_MINOR__": minor,
    }


def _cuda_values(
    words: list[str],
    tested: tuple[str, ...],
    samples: NvccMacroSamples,
    release: tuple[int, int] | None = None,
) -> frozenset[bool]:
    """The condition's values over the sampled CUDA compilations of the macros it tests."""
    each = [_samples(m, samples, release) for m in tested]
    if not tested or prod(len(s) for s in each) > _MAX_SAMPLES:
        return frozenset()  # nothing to compare, or too many combinations to try
    out = set()
    for combo in product(*each):
        assignment = dict(zip(tested, combo, strict=True))
        value = _value(words, lambda name: _cuda_value(name, samples), assignment)
        if value is not None:
            out.add(value)
    return frozenset(out)


def _cuda_value(name: str, samples: NvccMacroSamples) -> int | None | str:
    """A macro's value under nvcc (the sampled nvcc macros are assigned by the caller)."""
    if name == "__CUDACC__" or name in samples:
        return 1
    if name in HIP_DEFINED:
        return None
    return "?"


def _int(word: str) -> int | None:
    match = _INT.match(word)
    if match is None:
        return None
    digits = match.group(1)
    if digits[:2] in ("0x", "0X"):
        return int(digits[2:], 16)
    return int(digits, 8) if len(digits) > 1 and digits[0] == "0" else int(digits)


def _is_name(word: str) -> bool:
    return word[:1].isalpha() or word[:1] == "_"


def _evaluate(words: list[str], env: dict[str, int | None]) -> bool | None:
    """A preprocessor condition with these macro values (None: undefined); None if it is
    not one we read (hipport.preprocess's evaluator: no eval)."""
    macros = {
        name: Macro(False) if value is None else Macro(True, (str(value),))
        for name, value in env.items()
    }
    for w in words:  # a name with no value here reads as 0, as in the old reading
        if _is_name(w) and w != "defined" and w not in macros:
            macros[w] = Macro(False)
    value = evaluate(words, macros)
    return None if value is None else value != 0


# --- the engine's filter: what sits in code the HIP build never compiles -------------------

CUDA_HISTORY_CODES = frozenset({"HIP005", "HIP006"})  # deprecated / removed in CUDA
# findings about a name (what it maps to, that HIP lacks it): moot for the project's own
NAME_CODES = frozenset(codes_of("rewrite")) | {"HIP112"}


@dataclass(frozen=True)
class Skipped:
    """What the engine dropped from one file as dead under the HIP build."""

    findings: int = 0
    macros: tuple[str, ...] = ()  # the macros that decided the dead arms those sat in


def only_live(
    ctx: Context, edits: list[Edit], findings: list[Finding], uses: list[Use]
) -> tuple[list[Edit], list[Finding], list[Use], Skipped]:
    """Drop the findings and uses in arms the HIP build never compiles and the edits in
    arms translate leaves alone; in a file already written for HIP, every edit and the
    CUDA-history findings; and the findings, uses and renames of the names the HIP build's
    own code defines (hipport.preprocess.Conditionals.own_names). Note the first finding
    under each undecided condition. A project file the HIP build never includes keeps
    nothing."""
    headers = ctx.options.headers
    if headers is not None and ctx.path in headers.dead:
        return [], [], [], Skipped(len(findings))
    if not any(d.name in _READ for d in ctx.directives):
        return edits, findings, uses, Skipped()
    view = hip_view(ctx)
    hip = already_hip(ctx)
    left: list[Edit] = []  # edits not made in the project's own HIP code
    if hip:
        edits, left = [], edits
        findings = [f for f in findings if f.code not in CUDA_HISTORY_CODES]
    own = view.own_names | ctx.defined if hip else view.own_names
    ported = () if hip else hip_only_arms(ctx)
    if ported:  # the project's port: its text stays, what it defines is the project's
        left = [e for e in edits if _inside_any(ported, e.start)]
        edits = [e for e in edits if not _inside_any(ported, e.start)]
        own = own | hip_only_names(ctx)
    if own:
        edits, findings, uses = _not_own(ctx, own, edits, findings, uses)
    if left:
        findings = findings + _left_as_cuda(ctx, view, left, own)
    if not view.dead and not view.undecided:
        return edits, findings, uses, Skipped()
    starts = ctx.tokens.line_starts

    def offset(loc: Location) -> int:
        return starts[loc.line - 1] + loc.column - 1 if 0 < loc.line <= len(starts) else -1

    kept = [f for f in findings if not view.is_dead(offset(f.location))]
    macros: set[str] = set()
    for f in findings:
        at = offset(f.location)
        if view.is_dead(at):
            macros.update(_deciding(view, at))
    skipped = Skipped(len(findings) - len(kept), tuple(sorted(macros)))
    uses = [u for u in uses if not view.is_dead(offset(u.location))]
    if view.dead and not hip:
        dead_for_edits = translate_view(ctx)
        edits = [e for e in edits if not dead_for_edits.is_dead(e.start)]
    _note_undecided(view, kept, offset)
    return edits, kept, uses, skipped


_READ = ("if", "ifdef", "ifndef", "include")  # a file with none of them: nothing to drop


def _left_as_cuda(
    ctx: Context, view: Conditionals, left: list[Edit], own: frozenset[str]
) -> list[Finding]:
    """HIP004 on each CUDA name the tables rename that the project's own HIP code (a file
    already written for HIP, an arm only the HIP build compiles) uses and no code the HIP
    build sees defines: translate leaves that text as it is, and hipcc stops at the name
    (a `cudaDeviceSynchronize()` beside the compat header that lacks it)."""
    source = ctx.source
    opts = ctx.options
    known = (own, ctx.defined, opts.project_names, opts.user_renames)
    out = []
    for e in left:
        if e.rule != "rename" or e.new == e.old or view.is_dead(e.start):
            continue
        name = source[e.start : e.end].decode("latin-1")
        if name not in ctx.tables.by_cuda or any(name in names for names in known):
            continue
        hip = e.new.decode("latin-1")
        out.append(
            ctx.finding(
                UNKNOWN.code,
                e.start,
                e.end,
                f"{name} in the project's own HIP code (a file already written for HIP, or "
                f"an arm only the HIP build compiles) is left as it is: the HIP build fails "
                f"on it unless the project defines it ({hip} in HIP)",
                api=name,
                hip=hip,
            )
        )
    return out


def _not_own(
    ctx: Context, own: frozenset[str], edits: list[Edit], findings: list[Finding], uses: list[Use]
) -> tuple[list[Edit], list[Finding], list[Use]]:
    """Without the name findings, uses and renames of the project's own names (only the
    CUDA names the tables rename: a rewrite of the project's other macros, as a 32-bit
    FULL_MASK widened, stays)."""
    codes = NAME_CODES
    source = ctx.source
    findings = [f for f in findings if f.api not in own or f.code not in codes]
    uses = [u for u in uses if u.api not in own]
    renamed = {name for name in own if name in ctx.tables.by_cuda}
    if renamed:
        edits = [e for e in edits if source[e.start : e.end].decode("latin-1") not in renamed]
        inside = _own_call_arguments(ctx, renamed)
        if inside:
            edits = [e for e in edits if e.rule == "rename" or not _inside_any(inside, e.start)]
    return edits, findings, uses


def _own_call_arguments(ctx: Context, names: set[str]) -> list[tuple[int, int]]:
    """The byte ranges of the arguments of each call to the project's own function or
    macro with a CUDA name (its own `__stcs(ptr, value)`, its `__shfl_xor_sync` macro) at
    the call's own depth: the rules' rewrites of the CUDA API's arguments (a swap, a mask
    widened) are not for it, while a call nested in its arguments is still CUDA's."""
    code = ctx.tokens.code()
    texts = code.texts
    out: list[tuple[int, int]] = []
    for k, text in enumerate(texts):
        if text not in names or not code.punct(k + 1, "("):
            continue
        close = code.match(k + 1)
        if close is None:
            continue
        start = code.end(k + 1)
        j = k + 2
        while j < close:
            inner = code.match(j) if texts[j] in ("(", "[", "{") else None
            if inner is not None and inner < close:
                out.append((start, code.start(j) + 1))
                start = code.end(inner)
                j = inner + 1
            else:
                j += 1
        out.append((start, code.start(close)))
    return out


def _inside_any(ranges: Sequence[tuple[int, int]], offset: int) -> bool:
    return any(a <= offset < b for a, b in ranges)


def _deciding(view: Conditionals, offset: int) -> list[str]:
    """The macros the dead arms around `offset` rest on (the outermost dead arm's)."""
    for arm in view.arms:
        if arm.verdict is Verdict.DEAD and arm.body[0] <= offset < arm.body[1]:
            return list(arm.deciding)
    return []


def _note_undecided(
    view: Conditionals, findings: list[Finding], offset: Callable[[Location], int]
) -> None:
    """The first finding under each undecided condition says so (once per file)."""
    if not view.undecided:
        return
    said: set[str] = set()
    for f in findings:
        arm = view.undecided_arm(offset(f.location))
        if arm is None:
            continue
        condition = f"#{arm.directive.name} {' '.join(arm.directive.words)}".rstrip()
        if condition in said:
            continue
        said.add(condition)
        unknown = ", ".join(arm.unknown) or "its macros"
        f.message += f"; under `{condition}` (undecided: define {unknown} or pass -D)"


# --- --show-branches -----------------------------------------------------------------------


def explain(ctx: Context, shown: str | None = None) -> list[str]:
    """Each conditional arm of the file with its verdict under the HIP build and why, one
    line per arm (hipport check --show-branches)."""
    view = hip_view(ctx)
    build = build_of(ctx)
    rocm = f"{build.rocm[0]}.{build.rocm[1]}" if build.rocm else "?"
    read_as = "HIP (it includes a HIP header and no CUDA one)" if already_hip(ctx) else "CUDA"
    flags = " ".join(build.defines) or "none"
    name = shown or ctx.path  # the file as the user named it
    lines = [f"{name}: HIP build for ROCm {rocm}; read as {read_as}; project macros: {flags}"]
    for arm in view.arms:
        d = arm.directive
        condition = " ".join(ctx.source[d.start : d.end].decode("utf-8", "replace").split())
        lines.append(f"{name}:{d.line}: {condition}: {arm.verdict.value}: {_why(view, arm)}")
    return lines


def _why(view: Conditionals, arm: Arm) -> str:
    if not arm.macros and arm.enclosing >= 0:
        outer = view.arms[arm.enclosing]
        if outer.verdict is not Verdict.LIVE:
            return f"inside the {outer.verdict.value} arm at line {outer.directive.line}"
    if not arm.macros:
        return "a constant condition" if arm.directive.name != "else" else "the other arms"
    parts = []
    for name, origin in arm.macros:
        if origin == "unknown":
            origin = "unknown (define it or pass -D)"
        parts.append(f"{name}: {origin}")
    return "; ".join(parts)
