"""The one lookup: what happens to a CUDA name for a given Target."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from weakref import WeakKeyDictionary

from hipport.tables.model import Alternative, HipExt, Mapping, Tables
from hipport.target import Target, Version


class Status(StrEnum):
    MAPPED = "mapped"  # rename to `name`
    UNSUPPORTED = "unsupported"  # no HIP counterpart at all
    NEEDS_NEWER_ROCM = "needs_newer_rocm"  # the counterpart appears after the target ROCm
    EXPERIMENTAL = "experimental"  # HIPIFY marks the mapping experimental; not asked for
    REMOVED_HIP = "removed_hip"  # the counterpart was removed from HIP by the target ROCm
    HIP = "hip"  # already a HIP name (or a hipExt API): leave alone
    UNKNOWN = "unknown"  # not in the tables


@dataclass(frozen=True)
class Resolution:
    name: str
    status: Status
    mapping: Mapping | None = None
    new_name: str | None = None  # what to rename to (MAPPED), or the counterpart otherwise
    library: str | None = None  # "hip" or the ROCm library (rocBLAS, MIOpen, ...)
    min_rocm: Version | None = None  # first ROCm that has the counterpart
    deprecated_cuda: Version | None = None  # deprecated in CUDA (for the target CUDA)
    removed_cuda: Version | None = None  # removed from CUDA (for the target CUDA)
    deprecated_hip: Version | None = None  # deprecated in HIP at the target ROCm
    removed_hip: Version | None = None
    experimental: Version | None = None
    condition: str | None = None  # a macro the HIP name needs, e.g. HIP_ENABLE_WARP_SYNC_BUILTINS
    preview_only: bool = False  # NEEDS_NEWER_ROCM: only AMD's technology-preview line has it
    # the CUDA release for which the mapping does not hold (HIPIFY's U), None if it holds
    cuda_mismatch: Version | None = None
    cuda_assumed: bool = False  # no target CUDA: cuda_mismatch is the newest the tables know
    alternatives: tuple[HipExt, ...] = field(default=())
    # what to write instead where HIP lacks the name or an overload (alternatives.tsv,
    # approximate: suggested, never applied)
    substitute: Alternative | None = None

    @property
    def family(self) -> str | None:
        return self.mapping.family if self.mapping else None

    @property
    def renames(self) -> bool:
        return self.status is Status.MAPPED and self.new_name not in (None, self.name)

    def cuda_mismatch_reason(self) -> str:
        """Why the mapping does not hold for the target CUDA (HIP014)."""
        m = self.mapping
        changed = f"CUDA changed {self.name} in {m.cuda_changed}" if m and m.cuda_changed else ""
        held = ", ".join(str(v) for v in m.cuda_unsupported) if m else ""
        text = (
            f"{self.name} -> {self.new_name} does not hold for CUDA {self.cuda_mismatch}: "
            + (f"{changed} and " if changed else "")
            + f"HIP follows the signature from before (HIPIFY: unsupported for CUDA {held}"
            + ("" if m and len(m.cuda_unsupported) > 1 else " and later")
            + ")"
        )
        if self.cuda_assumed:
            text += (
                f"; no --cuda given, so hipport assumed CUDA {self.cuda_mismatch}, the newest "
                "its tables know: pass --cuda with the release the code is written for"
            )
        return text

    def reason(self) -> str:
        """A sentence for reports."""
        rocm = f"ROCm {self.min_rocm}" if self.min_rocm else "ROCm"
        match self.status:
            case Status.MAPPED:
                text = f"{self.name} -> {self.new_name}"
            case Status.UNSUPPORTED if self.mapping and self.mapping.roc:
                text = (
                    f"{self.name} has no HIP counterpart "
                    f"({self.mapping.roc_library}: {self.mapping.roc}, with --roc)"
                )
            case Status.UNSUPPORTED:
                text = f"{self.name} has no HIP counterpart"
            case Status.NEEDS_NEWER_ROCM if self.preview_only:
                text = (
                    f"{self.name} -> {self.new_name} is only in AMD's technology-preview line "
                    f"({rocm}), in no production release yet"
                )
            case Status.NEEDS_NEWER_ROCM:
                text = f"{self.name} -> {self.new_name} needs {rocm} or newer"
            case Status.EXPERIMENTAL:
                text = (
                    f"{self.name} -> {self.new_name} is experimental in ROCm "
                    f"{self.experimental} (use --experimental to apply it)"
                )
            case Status.REMOVED_HIP:
                text = f"{self.new_name} was removed from HIP in ROCm {self.removed_hip}"
            case Status.HIP:
                text = f"{self.name} is HIP"
            case _:
                text = f"{self.name} is not in hipport's tables"
        if self.condition:
            text += f" (requires {self.condition} to be defined)"
        if self.substitute is not None and self.status is not Status.MAPPED:
            text += f"; instead: {self.substitute.text()}"
        return text


def _side(mapping: Mapping, target: Target) -> tuple[str | None, str, tuple[Version | None, ...]]:
    """The counterpart to use: the ROCm library with --roc where the table has one."""
    if target.roc and mapping.roc:
        return (
            mapping.roc,
            mapping.roc_library or "roc",
            (
                mapping.roc_added,
                mapping.roc_deprecated,
                mapping.roc_removed,
                mapping.roc_experimental,
            ),
        )
    return (
        mapping.hip,
        "hip",
        (mapping.hip_added, mapping.hip_deprecated, mapping.hip_removed, mapping.hip_experimental),
    )


def _reached(version: Version | None, target: Version | None) -> Version | None:
    """`version` if the target has reached it (no target version: every version counts)."""
    if version is None:
        return None
    return version if target is None or target >= version else None


# Resolutions of table rows, per Tables object (weakly: a dropped Tables drops its memo),
# per Target and per name. A Resolution is frozen and depends on nothing else, so one per
# process serves every file; names not in the tables are cheap and not kept.
_MEMO: WeakKeyDictionary[Tables, dict[Target, dict[str, Resolution]]] = WeakKeyDictionary()


def resolve(tables: Tables, name: str, target: Target) -> Resolution:
    """What happens to CUDA name `name` for `target`."""
    memo = _memo_for(tables, target)
    res = memo.get(name) if memo is not None else None
    if res is not None:
        return res
    mapping = tables.get(name)
    if mapping is None:
        return Resolution(name, unlisted_status(tables, name))
    res = resolve_row(tables, mapping, target)
    if memo is not None:
        memo[name] = res
    return res


def unlisted_status(tables: Tables, name: str) -> Status:
    """The status of a name the tables have no row for, the same for every target: HIP
    (a name of the HIP side) or unknown."""
    return Status.HIP if tables.is_hip_name(name) else Status.UNKNOWN


def _memo_for(tables: Tables, target: Target) -> dict[str, Resolution] | None:
    """The memo of one Tables object and Target (None for a stand-in that cannot be
    weakly referenced or hashed)."""
    try:
        by_target = _MEMO.get(tables)
        if by_target is None:
            by_target = _MEMO[tables] = {}
        memo = by_target.get(target)
        if memo is None:
            memo = by_target[target] = {}
    except TypeError:
        return None
    return memo


def in_force(tables: Tables, mapping: Mapping, rocm: Version) -> Mapping:
    """The row as it holds for ROCm `rocm`: where history.tsv has an older HIP counterpart
    whose window [hip_added, hip_until) holds `rocm`, that one; for a release before every
    window, the oldest (it then reports the release that added it)."""
    earlier = tables.history.get((mapping.cuda, mapping.family))
    if not earlier or rocm >= earlier[-1].hip_until:
        return mapping
    chosen = next((e for e in earlier if rocm < e.hip_until), earlier[0])
    return mapping._replace(
        hip=chosen.hip,
        hip_added=chosen.hip_added,
        hip_deprecated=None,
        hip_changed=None,
        hip_removed=None,
        hip_experimental=chosen.hip_experimental,
        unsupported=False,
        evidence=chosen.evidence,
    )


def resolve_row(tables: Tables, mapping: Mapping, target: Target) -> Resolution:
    """What happens to one table row for `target` (coverage and diff resolve rows, so that a
    name listed in two families counts in both)."""
    name = mapping.cuda
    rocm = target.rocm or tables.newest_rocm
    mapping = in_force(tables, mapping, rocm)
    counterpart, library, (added, deprecated, removed, experimental) = _side(mapping, target)
    common = dict(
        mapping=mapping,
        new_name=counterpart,
        library=library,
        min_rocm=added,
        deprecated_cuda=_reached(mapping.cuda_deprecated, target.cuda),
        removed_cuda=_reached(mapping.cuda_removed, target.cuda),
        deprecated_hip=_reached(deprecated, rocm),
        removed_hip=_reached(removed, rocm),
        experimental=experimental,
        condition=_condition(tables, mapping.condition, rocm),
        alternatives=tuple(tables.hipext_for.get(name, ())),
        substitute=tables.alternative(mapping),
    )
    if counterpart and library == "hip" and mapping.cuda_unsupported:
        cuda = target.cuda or tables.landscape.newest_cuda
        if not _holds_for_cuda(mapping.cuda_unsupported, cuda):
            common["cuda_mismatch"] = cuda
            common["cuda_assumed"] = target.cuda is None
    status = _status(counterpart, common["removed_hip"], added, experimental, rocm, target)
    if status is Status.NEEDS_NEWER_ROCM:
        landscape = tables.landscape
        common["preview_only"] = (
            landscape.line_of(added) == "preview" and landscape.line_of(rocm) == "production"
        )
    return Resolution(name, status, **common)  # type: ignore[arg-type]


def _status(
    counterpart: str | None,
    removed: Version | None,
    added: Version | None,
    experimental: bool,
    rocm: Version,
    target: Target,
) -> Status:
    """A row's status for `target` (at `rocm`) from its counterpart and the releases that
    added and removed it (`removed`: only when `rocm` has reached it)."""
    if not counterpart:
        return Status.UNSUPPORTED
    if removed:
        return Status.REMOVED_HIP
    if added and added > rocm:
        return Status.NEEDS_NEWER_ROCM
    if experimental and not target.experimental:
        return Status.EXPERIMENTAL
    return Status.MAPPED


def row_status(tables: Tables, mapping: Mapping, target: Target) -> Status:
    """`resolve_row(tables, mapping, target).status` without the rest of the Resolution
    (the coverage asks it of every used API for every release)."""
    rocm = target.rocm or tables.newest_rocm
    mapping = in_force(tables, mapping, rocm)
    counterpart, _, (added, _, removed, experimental) = _side(mapping, target)
    return _status(counterpart, _reached(removed, rocm), added, experimental, rocm, target)


def _condition(tables: Tables, macro: str | None, rocm: Version) -> str | None:
    """The macro the HIP name needs at `rocm` (conditions.tsv gives the releases that need
    it: HIP_ENABLE_WARP_SYNC_BUILTINS only before 7.0, where the builtins became default)."""
    cond = tables.conditions.get(macro) if macro else None
    if cond is not None and not cond.needed_by(rocm) and rocm >= cond.needed_from:
        return None
    return macro


def _holds_for_cuda(unsupported: tuple[Version, ...], cuda: Version) -> bool:
    """HIPIFY's U: one version = not from that release on; several = not for those releases
    (their patch releases included)."""
    if len(unsupported) == 1:
        return cuda < unsupported[0]
    return all(cuda.parts[:2] != (v.parts + (0,))[:2] for v in unsupported)
