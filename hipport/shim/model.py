"""What a shim must cover: the CUDA headers a project includes and the CUDA names it uses,
each resolved for every ROCm release from the oldest the tables know up to the target.

Built from the same per-file results `hipport check` produces (the translation's API uses),
plus one scan of each source's `#include` directives and `ns::` qualifiers. Pure: results
and the run's mappings in, a `ShimModel` out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from hipport.device_helpers import HELPERS
from hipport.engine import TranslationResult
from hipport.facts import KEPT_BY_ROCM, GateFact, verdict
from hipport.findings import Severity
from hipport.lexer import IDENTIFIER, LexError, lex
from hipport.rules.branches import release_macros
from hipport.rules.coordinate_casts import COORDINATES
from hipport.rules.names import MASKED_SYNC
from hipport.rules.tokens import directives, include_spelling
from hipport.rules.unsigned_min_max import form
from hipport.rules.version_tests import VERSION_MACROS
from hipport.tables import Resolution, Status, Tables, resolve
from hipport.tables.arguments import ArgumentRewrite
from hipport.target import Target, Version

if TYPE_CHECKING:
    from hipport.mappings import Mappings


@dataclass(frozen=True)
class HeaderUse:
    """A CUDA header the project includes (as spelled, e.g. `cub/cub.cuh`)."""

    name: str
    hip_header: str | None  # None: no HIP counterpart; "": nothing to include under HIP
    family: str | None
    reason: str  # why there is no counterpart (empty when there is one)
    # before ROCm `since`, an older header declares the older mapping's names (the include
    # map's earlier_header, as translate's includes rule picks it): None when there is none
    earlier: tuple[Version, str] | None = None


@dataclass(frozen=True)
class Span:
    """One ROCm range of a name: from `since` (None: the oldest) the name resolves so."""

    since: Version | None
    resolution: Resolution
    rewrites: tuple[ArgumentRewrite, ...] = ()


@dataclass(frozen=True)
class NameUse:
    name: str
    kind: str  # function, type, constant, macro (from the tables)
    family: str
    spans: tuple[Span, ...]  # oldest first
    elaborated: bool = False  # used after struct/enum/union/class: a macro, not an alias
    overloads: tuple[tuple[int, str], ...] = ()  # HIP function per argument count (data)
    # CUDA's default arguments the target's HIP function lacks (gate facts, kind
    # default-argument, HIP115): per argument count of a call, the values to pass after it
    defaults: tuple[tuple[int, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class NamespaceUse:
    cuda: str
    hip: str
    header: str | None  # the HIP header that declares it, where the include map says


@dataclass
class ShimModel:
    target: Target
    headers: list[HeaderUse] = field(default_factory=list)
    names: list[NameUse] = field(default_factory=list)
    namespaces: list[NamespaceUse] = field(default_factory=list)
    # The oldest ROCm the project can build with (the newest "added" of what it uses that
    # the target maps); older releases are not told apart: the shim serves floor...target.
    floor: Version | None = None
    conditions: list[str] = field(default_factory=list)  # macros HIP names need defined
    # CUDA include guards the project tests (`#ifdef __CUDA_RUNTIME_H__`) -> HIP's guard
    guards: list[tuple[str, str]] = field(default_factory=list)
    # CUDA macros that expand to nothing on Linux and that HIP lacks (gate facts, kind
    # empty-macro: CUDART_CB), used by the project: defined empty, as translate drops them
    empty_macros: list[str] = field(default_factory=list)
    # warp *_sync intrinsics the target has (HIP's 64-bit masks) and the release from which
    # it has them: wrapped so that CUDA's 32-bit full-warp mask names every lane
    warp_masks: list[tuple[str, Version]] = field(default_factory=list)
    # nvcc's version macros the project tests, with the values of the CUDA release it is
    # built with (HIP113: translate makes HIP take the arm that release takes), and which
    # release that is; empty when some version test must not take CUDA's arm under HIP
    # (`version_blocked` says where and why)
    version_macros: list[tuple[str, int]] = field(default_factory=list)
    # device functions the target's HIP lacks, defined with CUDA's meaning as translate
    # writes them (gate facts): umin/umax as HIP's min/max on the CUDA parameter type
    # (HIP029: name, HIP function, type), atomicInc_system/atomicDec_system as translate's
    # compare-and-swap helper (HIP030, hipport/device_helpers.py)
    unsigned_min_max: list[tuple[str, str, str]] = field(default_factory=list)
    device_helpers: list[str] = field(default_factory=list)
    # min/max the target's coordinate proxy types make ambiguous (HIP028): name, the first
    # release whose HIP resolves them uncast (None: none known)
    coordinate_calls: list[tuple[str, Version | None]] = field(default_factory=list)
    version_release: str = ""
    version_blocked: str = ""


def build_model(
    results: Iterable[TranslationResult],
    mappings: Mappings,
    target: Target,
    project_files: frozenset[str],
    always: tuple[str, ...] = (),
) -> ShimModel:
    """The shim's content for `results` (one per project source). `project_files`: the
    project's own file names and relative paths (a project header wins over a CUDA one);
    `always`: CUDA headers to shim whether or not a source includes them."""
    tables = mappings.tables
    includes: set[str] = set(always)
    used: set[str] = set()
    elaborated: set[str] = set()
    qualifiers: set[str] = set()
    words: set[str] = set()
    defined: set[str] = set()
    flips: list[str] = []  # version tests translate does not make HIP take CUDA's arm for
    renamed: set[str] = set()  # the names translate rewrites, in live code or not
    for result in results:
        used.update(u.api for u in result.uses)
        defined |= result.defined_names
        flips += _kept_version_flips(result)
        renamed |= _renamed(result)
        scan = _scan(result.source, result.path)
        includes |= scan.includes
        elaborated |= scan.elaborated
        qualifiers |= scan.qualifiers
        words |= scan.words
    model = ShimModel(target)
    guards = mappings.include_guards.shim
    model.guards = sorted((g, guards[g]) for g in words & guards.keys())
    model.empty_macros = sorted(words & mappings.gate.empty_macros.keys())
    tested = sorted((words & VERSION_MACROS) - defined)
    if tested and flips:
        model.version_blocked = flips[0]
    elif tested:
        model.version_release, values = _release_values(mappings, target)
        model.version_macros = [(m, values[m]) for m in tested if m in values]
        # the arms HIP now compiles were dead in check's view, which records no uses there:
        # what translate renames in them is what they use
        used |= renamed
    gate = mappings.gate
    model.unsigned_min_max = [
        (n, *form(gate.unsigned_min_max[n]))
        for n in _lacking(gate.unsigned_min_max, words - defined, target, tables.newest_rocm)
    ]
    model.device_helpers = [
        n
        for n in _lacking(gate.system_atomics, words - defined, target, tables.newest_rocm)
        if n in HELPERS
    ]
    if words & COORDINATES:
        facts = gate.coordinate_arguments
        model.coordinate_calls = [
            (n, facts[n].hip_added)
            for n in _lacking(facts, words - defined, target, tables.newest_rocm)
        ]
    provided = {n for n, _, _ in model.unsigned_min_max} | set(model.device_helpers)
    used -= provided  # not the tables' "no HIP counterpart": the shim defines them
    model.headers = [
        h for h in (_header(mappings, target, inc, project_files) for inc in sorted(includes)) if h
    ]
    model.floor = project_floor(tables, target, used)
    target_defaults = _defaults(mappings, target)
    points = tuple(
        p for p in release_points(tables, target) if model.floor is None or p >= model.floor
    )
    if model.floor is not None:
        points = (model.floor, *(p for p in points if p != model.floor))
    for name in sorted(used):
        use = _name_use(mappings, target, name, points, name in elaborated, target_defaults)
        if use is not None:
            model.names.append(use)
    # a name HIP spells as CUDA does (__shfl_xor_sync) has no NameUse but may need a macro
    final = [resolve(tables, name, target) for name in sorted(used)]
    model.conditions = sorted(
        {
            s.resolution.condition
            for u in model.names
            for s in u.spans
            if s.resolution.status is Status.MAPPED and s.resolution.condition
        }
        | {r.condition for r in final if r.status is Status.MAPPED and r.condition}
    )
    model.warp_masks = [
        (r.name, r.min_rocm)
        for r in final
        if r.name in MASKED_SYNC and r.status is Status.MAPPED and r.min_rocm
    ]
    model.namespaces = _namespaces(mappings, qualifiers)
    return model


@dataclass
class _Scan:
    includes: set[str] = field(default_factory=set)
    elaborated: set[str] = field(default_factory=set)
    qualifiers: set[str] = field(default_factory=set)
    words: set[str] = field(default_factory=set)  # every identifier (include guards)


_ELABORATING = frozenset({"struct", "enum", "union", "class"})


def _scan(source: bytes, path: str) -> _Scan:
    out = _Scan()
    try:
        tokens = lex(source, path)
    except LexError:
        return out
    for d in directives(source, tokens):
        spelling = include_spelling(source, tokens, d)
        if spelling is not None:
            out.includes.add(spelling.header)
    for i in range(1, len(tokens)):
        tok = tokens[i]
        if tok.kind != IDENTIFIER:
            continue
        out.words.add(tok.text)
        if tokens[i - 1].text in _ELABORATING:
            out.elaborated.add(tok.text)
        if i + 1 < len(tokens) and tokens[i + 1].text == "::":
            out.qualifiers.add(tok.text)
    return out


def _header(
    mappings: Mappings, target: Target, header: str, project_files: frozenset[str]
) -> HeaderUse | None:
    if header in project_files or header.rsplit("/", 1)[-1] in project_files:
        return None  # the project's own header of that name wins
    mapping = mappings.tables.includes.get(header)
    if mapping is not None:
        if mapping.unsupported:
            return HeaderUse(header, None, mapping.family, "the include map has no counterpart")
        hip = (mapping.roc_header if target.roc and mapping.roc_header else None) or (
            mapping.hip_header
        )
        earlier = None
        if mapping.hip_added and mapping.earlier_header and not (target.roc and mapping.roc_header):
            earlier = (mapping.hip_added, mapping.earlier_header)
        return HeaderUse(header, hip or "", mapping.family, "", earlier)
    kind = mappings.gate.header_kinds.get(header)
    if kind is None or kind in KEPT_BY_ROCM:
        return None  # a system or third-party header, or one ROCm ships under that path
    return HeaderUse(header, None, None, f"an NVIDIA {kind} header with no HIP counterpart")


def project_floor(tables: Tables, target: Target, names: Iterable[str]) -> Version | None:
    """The minimum ROCm of the names the target maps (the oldest release the project needs)."""
    needs = [
        res.min_rocm
        for res in (resolve(tables, n, target) for n in names)
        if res.status is Status.MAPPED and res.min_rocm is not None
    ]
    return max(needs) if needs else None


def release_points(tables: Tables, target: Target) -> tuple[Version, ...]:
    """Every ROCm release at which some mapping changes, up to the target: the versions the
    tables name in their HIP/ROC added and removed columns, oldest first."""
    top = target.rocm or tables.newest_rocm
    return tuple(v for v in _all_points(tables) if v <= top)


@cache
def _all_points(tables: Tables) -> tuple[Version, ...]:
    seen: set[Version] = set()
    for row in tables.rows:
        for v in (row.hip_added, row.hip_removed, row.roc_added, row.roc_removed):
            if v is not None:
                seen.add(v)
    return tuple(sorted(seen))


def _name_use(
    mappings: Mappings,
    target: Target,
    name: str,
    points: tuple[Version, ...],
    elaborated: bool,
    defaults: dict[str, tuple[tuple[int, tuple[str, ...]], ...]],
) -> NameUse | None:
    tables = mappings.tables
    final = resolve(tables, name, target)
    if final.status in (Status.HIP, Status.UNKNOWN) or final.mapping is None:
        return None
    spans: list[Span] = []
    # The first span also stands for every release older than the oldest point.
    for since in (*points, target.rocm or tables.newest_rocm):
        res = resolve(tables, name, _at(target, since))
        span = Span(since if spans else None, res, _rewrites(mappings, res))
        if spans and _same(spans[-1], span):
            continue
        spans.append(span)
    if not any(_changes(s) for s in spans):
        return None  # the HIP name is the CUDA name at every release: nothing to write
    overloads = tuple(sorted(mappings.arguments.overloads.get(name, {}).items()))
    return NameUse(
        name,
        final.mapping.kind,
        final.mapping.family,
        tuple(spans),
        elaborated,
        overloads,
        defaults.get(name, ()),
    )


def _defaults(
    mappings: Mappings, target: Target
) -> dict[str, tuple[tuple[int, tuple[str, ...]], ...]]:
    """Per function whose CUDA default arguments the target's HIP lacks (or no evidence says
    it has them), the values a call of each failing argument count needs after its own: the
    values translate passes (HIP115), which are CUDA's declaration's."""
    newest = mappings.tables.newest_rocm
    out = {}
    for name, fact in mappings.gate.default_arguments.items():
        if verdict(fact, target, newest) is None or fact.hip_min_args is None:
            continue
        per_count = []
        for n in sorted(fact.failing_arg_counts):
            missing = fact.defaults[len(fact.defaults) - fact.hip_min_args + n :]
            if missing and n + len(missing) == fact.hip_min_args:
                per_count.append((n, missing))
        out[name] = tuple(per_count)
    return out


def _lacking(
    facts: dict[str, GateFact], words: set[str], target: Target, newest: Version
) -> list[str]:
    """The facts' names the project uses that the target's HIP lacks (or no evidence says it
    has)."""
    return sorted(n for n, f in facts.items() if n in words and verdict(f, target, newest))


def _kept_version_flips(result: TranslationResult) -> list[str]:
    """Where translate leaves a test of nvcc's version macros (or a use of one in code) that
    HIP reads otherwise than CUDA (HIP113 at more than note severity: the CUDA arm is
    CUDA-only, or the release decides it): a shim that defines the macros would make HIP
    compile what translate keeps from it."""
    out = []
    lines = result.source.split(b"\n")
    for f in result.findings:
        if f.code != "HIP113" or f.severity is Severity.NOTE:
            continue
        loc = f.location
        text = b" ".join(lines[loc.line - 1 : loc.end_line]).decode("utf-8", "replace")
        words = set(re.findall(r"[A-Za-z_]\w*", text)) | {f.api or ""}
        if words & VERSION_MACROS:
            out.append(f"{result.path}:{loc.line}")
    return out


_IDENTIFIER = re.compile(rb"[A-Za-z_]\w*")


def _renamed(result: TranslationResult) -> set[str]:
    """The identifiers translate's edits replace."""
    out = set()
    for e in result.edits:
        old = result.source[e.start : e.end]
        if _IDENTIFIER.fullmatch(old):
            out.add(old.decode("ascii"))
    return out


def _release_values(mappings: Mappings, target: Target) -> tuple[str, dict[str, int]]:
    """The CUDA release the shim stands for and its version macros' values: --cuda's, else
    the newest sampled release (every version test left in the project is then one all
    sampled releases decide alike, so any of them takes translate's arms)."""
    samples = mappings.nvcc_macro_samples
    if target.cuda is not None:
        major, minor = (*target.cuda.parts, 0)[:2]
        release = f"CUDA {major}.{minor} (--cuda)"
    else:
        number = max(v for v in samples.get("CUDART_VERSION") if v is not None)
        major, minor = number // 1000, number % 1000 // 10
        release = f"CUDA {major}.{minor} (the newest sampled release; --cuda names yours)"
    values = release_macros(major, minor)
    for macro in VERSION_MACROS - values.keys():  # the build number: a sampled value
        sampled = [v for v in samples.get(macro, ()) if v is not None]
        if sampled:
            values[macro] = sampled[0]
    return release, values


def _at(target: Target, rocm: Version) -> Target:
    from dataclasses import replace

    return replace(target, rocm=rocm)


def _same(a: Span, b: Span) -> bool:
    ra, rb = a.resolution, b.resolution
    return (ra.status, ra.new_name, a.rewrites) == (rb.status, rb.new_name, b.rewrites)


def _changes(span: Span) -> bool:
    """Whether the shim must say something for this span: a rename, a rewrite or an error."""
    res = span.resolution
    return res.status is not Status.MAPPED or res.renames or bool(span.rewrites)


def _rewrites(mappings: Mappings, res: Resolution) -> tuple[ArgumentRewrite, ...]:
    if res.status is not Status.MAPPED or not res.new_name:
        return ()
    from hipport.tables.arguments import side_of

    args = mappings.arguments
    return tuple(args.rewrites(res.name, side_of(res.library), res.new_name))


def _namespaces(mappings: Mappings, qualifiers: set[str]) -> list[NamespaceUse]:
    args = mappings.arguments
    out = []
    for cuda in sorted(qualifiers):
        ns = args.namespaces.get(cuda)
        if ns is None or ns.status != "mapped" or not ns.hip or ns.hip == cuda:
            continue
        header = next(
            (
                m.hip_header
                for m in mappings.tables.includes.values()
                if m.family == cuda and m.is_main_header and m.hip_header
            ),
            None,
        )
        out.append(NamespaceUse(cuda, ns.hip, header))
    return out
