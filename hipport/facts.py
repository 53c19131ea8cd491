"""The versioned facts of mappings/ beside the API-name tables, loaded once per process on
first use and answered for a target ROCm release:

- hipDeviceProp_t's fields per sampled ROCm release, and the cudaDeviceProp fields HIP may
  lack with what HIP offers instead (HIP108);
- the cooperative-groups features HIP lacks, with the releases known to lack or have them
  (HIP107);
- the CMake vocabulary the build-file translation renames or reports.

The files and their columns are described in mappings/README.md; tools/build_facts.py
builds them from ../shared/data and the reviewed inputs in tools/.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from hipport.tables.model import mappings_dir
from hipport.target import Version


def _rows(name: str, directory: Path | None = None) -> list[dict[str, str]]:
    path = (directory or mappings_dir()) / name
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def _line(version: Version) -> tuple[int, int]:
    """A release's minor line: 6.2.0 and 6.2 are both (6, 2)."""
    parts = (*version.parts, 0)
    return parts[0], parts[1]


# --------------------------------------------------------------------------- device props


@dataclass(frozen=True)
class FieldAbsence:
    """Why a cudaDeviceProp field is reported for a target.

    `certain`: the field is missing in the target's release, because a sampled release of
    the same line, or a later one, lacks it (fields are only ever added to the struct;
    tools/build_facts.py checks that for every listed field). Otherwise the newest earlier
    sample lacks it and hipport has no field list for the target's line.
    `checked` is the sampled release that lacks it; `present_from` the first sampled release
    after it that has it (None: none does)."""

    certain: bool
    checked: Version
    present_from: Version | None


@dataclass(frozen=True)
class DeviceProps:
    releases: tuple[Version, ...]  # the sampled releases, ascending
    present_in: dict[str, frozenset[Version]]  # hipDeviceProp_t field -> releases having it
    cuda_fields: dict[str, str | None]  # cudaDeviceProp field -> what HIP offers instead

    def absence(self, field: str, rocm: Version) -> FieldAbsence | None:
        """None when hipDeviceProp_t of `rocm` has `field` (or nothing says it lacks it)."""
        has = self.present_in.get(field, frozenset())
        line = _line(rocm)
        same = [r for r in self.releases if _line(r) == line]
        later = [r for r in self.releases if _line(r) > line]
        earlier = [r for r in self.releases if _line(r) < line]
        if same:
            return None if same[-1] in has else self._absent(True, same[-1], has)
        if later and later[0] not in has:
            return self._absent(True, later[0], has)
        if earlier and earlier[-1] not in has:
            return self._absent(False, earlier[-1], has)
        return None

    def _absent(self, certain: bool, checked: Version, has: frozenset[Version]) -> FieldAbsence:
        after = [r for r in self.releases if r > checked and r in has]
        return FieldAbsence(certain, checked, after[0] if after else None)


@cache
def device_props(directory: Path | None = None) -> DeviceProps:
    present: dict[str, frozenset[Version]] = {}
    for row in _rows("hip_device_prop_fields.tsv", directory):
        present[row["field"]] = frozenset(Version.parse(r) for r in row["present_in"].split(","))
    releases = tuple(sorted({r for rs in present.values() for r in rs}))
    cuda = {
        row["cuda_field"]: row["alternative"] or None
        for row in _rows("cuda_device_prop_fields.tsv", directory)
    }
    return DeviceProps(releases, present, cuda)


# --------------------------------------------------------------------------- cooperative groups


@dataclass(frozen=True)
class CgFeature:
    name: str  # a name in namespace cooperative_groups, a group member, or a header
    kind: str  # "name", "member" or "header"
    unqualified: bool  # reported without a cg:: qualifier too (distinctive names only)
    absent_through: Version  # the newest release known to lack it
    present_from: Version | None  # the first release known to have it
    instead: str | None  # what to write instead
    evidence: str

    def missing(self, rocm: Version) -> bool | None:
        """True: known missing in `rocm`; False: known present; None: no evidence for
        that release (newer than the last release known to lack it)."""
        if _line(rocm) <= _line(self.absent_through):
            return True
        if self.present_from is not None and rocm >= self.present_from:
            return False
        return None


@dataclass(frozen=True)
class CooperativeGroups:
    headers: dict[str, CgFeature]
    names: dict[str, CgFeature]
    members: dict[str, CgFeature]


@cache
def cooperative_groups(directory: Path | None = None) -> CooperativeGroups:
    by_kind: dict[str, dict[str, CgFeature]] = {"header": {}, "name": {}, "member": {}}
    for row in _rows("cooperative_groups.tsv", directory):
        feature = CgFeature(
            row["name"],
            row["kind"],
            row["unqualified"] == "yes",
            Version.parse(row["absent_through"]),
            Version.parse(row["present_from"]) if row["present_from"] else None,
            row["instead"] or None,
            row["evidence"],
        )
        by_kind[feature.kind][feature.name] = feature
    return CooperativeGroups(by_kind["header"], by_kind["name"], by_kind["member"])


# --------------------------------------------------------------------------- CMake


@dataclass(frozen=True)
class CMakeVocabulary:
    variables: dict[str, str]  # CMAKE_CUDA_* with a HIP twin -> the twin
    variable_hints: dict[str, str]  # reported variables -> why there is no rename
    legacy_variables: frozenset[str]  # FindCUDA's variables
    properties: dict[str, str]  # target/source properties with a HIP twin
    property_hints: dict[str, str]
    link_targets: dict[str, tuple[str, str | None]]  # CUDA::x -> (HIP target, package)
    link_hints: dict[str, str]
    legacy_commands: frozenset[str]  # FindCUDA's commands
    nvcc_flags: tuple[str, ...]  # nvcc options clang rejects or reads differently
    architecture_suggestion: str
    hip_min_cmake: tuple[int, int]

    @cached_property
    def flag_variables(self) -> frozenset[str]:
        return frozenset(n for n in self.variables if n.startswith("CMAKE_CUDA_FLAGS"))


@cache
def cmake_vocabulary(directory: Path | None = None) -> CMakeVocabulary:
    rows = _rows("cmake.tsv", directory)

    def of(kind: str) -> list[dict[str, str]]:
        return [r for r in rows if r["kind"] == kind]

    settings = {r["cuda"]: r["hip"] for r in of("setting")}
    major, minor = settings["hip_min_cmake"].split(".")
    return CMakeVocabulary(
        variables={r["cuda"]: r["hip"] for r in of("variable")},
        variable_hints={r["cuda"]: r["note"] for r in of("variable-hint")},
        legacy_variables=frozenset(r["cuda"] for r in of("legacy-variable")),
        properties={r["cuda"]: r["hip"] for r in of("property")},
        property_hints={r["cuda"]: r["note"] for r in of("property-hint")},
        link_targets={r["cuda"]: (r["hip"], r["package"] or None) for r in of("link-target")},
        link_hints={r["cuda"]: r["note"] for r in of("link-hint")},
        legacy_commands=frozenset(r["cuda"] for r in of("legacy-command")),
        nvcc_flags=tuple(r["cuda"] for r in of("nvcc-flag")),
        architecture_suggestion=settings["architecture_suggestion"],
        hip_min_cmake=(int(major), int(minor)),
    )
