"""The versioned facts of mappings/ beside the API-name tables, answered for a target ROCm
release (hipport.mappings.Mappings reads each once per mappings directory, on first use):

- the gate's facts: CUDA device functions, attributes, default arguments and predefined
  macros HIP lacks, with their evidence (HIP112, HIP113, HIP115), and the kinds of the
  headers NVIDIA ships (HIP110);
- hipDeviceProp_t's fields per sampled ROCm release, and the cudaDeviceProp fields HIP may
  lack with what HIP offers instead (HIP108);
- the cooperative-groups features HIP lacks, with the releases known to lack or have them
  (HIP107);
- the CMake vocabulary the build-file translation renames or reports;
- CUDA headers' include guards that code tests and the HIP test for each (rename);
- the operators HIP's vector types define per sampled release (HIP114);
- the legacy texture/surface reference API: its templates, types, functions and the
  fetches that take a reference (HIP105);
- the values CUDA compilations give nvcc's macros, sampled (HIP113, rules.branches), and
  the HIP compiler's own macros per release (hipport.preprocess);
- CUDA struct fields HIP spells otherwise, per release (HIP031), and the device attributes
  of cudaDeviceProp fields with the releases whose runtime answers them (HIP032, HIP108);
- the number format of CUDA's and HIP's fp8, bf16 and fp16 type names (the summary line that
  says which formats a translation keeps or changes, hipport.report.numerics).

The files and their columns are described in mappings/README.md; tools/build_facts.py and
tools/build_gate_facts.py build them from ../shared/data and the reviewed inputs in tools/.
Each builder here takes the rows of its files (hipport.tsv.read_tsv) and reads nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from hipport.findings import Severity
from hipport.target import Target, Version

Rows = list[dict[str, str]]


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


def device_props(hip_fields: Rows, cuda_fields: Rows) -> DeviceProps:
    """From hip_device_prop_fields.tsv and cuda_device_prop_fields.tsv."""
    present: dict[str, frozenset[Version]] = {}
    for row in hip_fields:
        present[row["field"]] = frozenset(Version.parse(r) for r in row["present_in"].split(","))
    releases = tuple(sorted({r for rs in present.values() for r in rs}))
    cuda = {row["cuda_field"]: row["alternative"] or None for row in cuda_fields}
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


def cooperative_groups(rows: Rows) -> CooperativeGroups:
    """From cooperative_groups.tsv."""
    by_kind: dict[str, dict[str, CgFeature]] = {"header": {}, "name": {}, "member": {}}
    for row in rows:
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


# --------------------------------------------------------------------------- vector operators


@dataclass(frozen=True)
class VectorOperators:
    """The free operators of two vector operands that HIP's vector types define as
    non-template functions (a program's own definition of one is ambiguous), per sampled
    release."""

    by_release: dict[Version, dict[str, str]]  # release -> operator -> HIP's declaration
    sources: dict[tuple[Version, str], str]

    def for_target(self, rocm: Version) -> tuple[Version, dict[str, str]]:
        """The sampled release that speaks for `rocm` (the newest at or before it; the
        oldest for an older target) and its operators."""
        releases = sorted(self.by_release)
        if not releases:
            return rocm, {}
        at = [r for r in releases if _line(r) <= _line(rocm)]
        release = at[-1] if at else releases[0]
        return release, self.by_release[release]


def vector_operators(rows: Rows) -> VectorOperators:
    """From vector_operators.tsv."""
    by_release: dict[Version, dict[str, str]] = {}
    sources: dict[tuple[Version, str], str] = {}
    for row in rows:
        rocm = Version.parse(row["rocm"])
        by_release.setdefault(rocm, {})[row["operator"]] = row["hip_declaration"]
        sources[rocm, row["operator"]] = row["source"]
    return VectorOperators(by_release, sources)


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


def cmake_vocabulary(rows: Rows) -> CMakeVocabulary:
    """From cmake.tsv."""

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


# --------------------------------------------------------------------------- include guards


@dataclass(frozen=True)
class IncludeGuards:
    renames: dict[str, str]  # CUDA guard -> the macro the HIP counterpart header defines
    known: frozenset[str]  # every CUDA guard listed (the ones left alone too: NVJPEGAPI)
    shim: dict[str, str]  # the renames the shim may define (no overloads to guard behind them)


def include_guards(rows: Rows) -> IncludeGuards:
    """From include_guards.tsv."""
    return IncludeGuards(
        renames={r["cuda_guard"]: r["hip_guard"] for r in rows if r["hip_guard"]},
        known=frozenset(r["cuda_guard"] for r in rows),
        shim={r["cuda_guard"]: r["hip_guard"] for r in rows if r["shim"] == "yes"},
    )


# --------------------------------------------------------------------------- the gate


@dataclass(frozen=True)
class GateFact:
    cuda: str
    kind: str  # device-function, attribute, default-argument, macro, ... (build_gate_facts)
    hip_added: Version | None  # the first release whose HIP headers have it (from the scan)
    checked_absent_in: Version  # the newest release the evidence covers
    failing_arg_counts: frozenset[int]  # call arities CUDA accepts and HIP rejects
    hip_min_args: int | None
    instead: str
    evidence: str
    # default-argument: the values CUDA's declaration gives the parameters after the
    # shortest failing call, up to hip_min_args
    defaults: tuple[str, ...] = ()


# Kinds of NVIDIA header whose paths ROCm keeps (rocThrust ships thrust/...): not unmapped.
KEPT_BY_ROCM = frozenset({"thrust"})


@dataclass(frozen=True)
class GateFacts:
    facts: dict[str, GateFact]  # CUDA name -> its fact
    header_kinds: dict[str, str]  # header NVIDIA ships -> its kind (toolkit, cub, thrust ...)

    def of_kind(self, kind: str) -> dict[str, GateFact]:
        return {name: f for name, f in self.facts.items() if f.kind == kind}

    @cached_property
    def device_apis(self) -> dict[str, GateFact]:
        """Device functions and attributes HIP lacks (HIP112)."""
        return {**self.of_kind("device-function"), **self.of_kind("attribute")}

    @cached_property
    def default_arguments(self) -> dict[str, GateFact]:
        """Functions whose CUDA default arguments HIP lacks (HIP115)."""
        return self.of_kind("default-argument")

    @cached_property
    def macros(self) -> dict[str, GateFact]:
        """nvcc's predefined macros, which hipcc does not define (HIP113)."""
        return self.of_kind("macro")

    @cached_property
    def empty_macros(self) -> dict[str, GateFact]:
        """CUDA macros that expand to nothing on Linux and HIP lacks: translate drops them."""
        return self.of_kind("empty-macro")

    @cached_property
    def coordinate_arguments(self) -> dict[str, GateFact]:
        """Functions a built-in coordinate argument makes ambiguous (its proxy type)."""
        return self.of_kind("coordinate-argument")

    @cached_property
    def unsigned_min_max(self) -> dict[str, GateFact]:
        """CUDA's unsigned min/max functions (umin, ullmax ...): translate calls HIP's
        min/max with both arguments cast to the CUDA parameter type (`instead` reads
        `min((unsigned int)(a), (unsigned int)(b))`)."""
        return self.of_kind("unsigned-min-max")

    @cached_property
    def system_atomics(self) -> dict[str, GateFact]:
        """System-scope atomics HIP lacks that translate replaces with a compare-and-swap
        helper (hipport.device_helpers)."""
        return self.of_kind("system-atomic")

    @cached_property
    def macro_names(self) -> frozenset[str]:
        return frozenset(self.macros)


def gate_facts(facts: Rows, headers: Rows) -> GateFacts:
    """From gate_facts.tsv and cuda_headers.tsv."""
    out = {}
    for row in facts:
        out[row["cuda"]] = GateFact(
            row["cuda"],
            row["kind"],
            Version.parse(row["hip_added"]) if row["hip_added"] else None,
            Version.parse(row["checked_absent_in"]),
            frozenset(int(n) for n in row["failing_arg_counts"].split(",") if n),
            int(row["hip_min_args"]) if row["hip_min_args"] else None,
            row["instead"],
            row["evidence"],
            tuple(v.strip() for v in row.get("defaults", "").split(",") if v.strip()),
        )
    return GateFacts(out, {r["header"]: r["kind"] for r in headers})


def verdict(fact: GateFact, target: Target, newest: Version) -> tuple[Severity, str] | None:
    """None when the target's HIP has it; else the severity and a note on the evidence."""
    rocm = target.rocm or newest
    if fact.hip_added is not None and rocm >= fact.hip_added:
        return None
    if rocm <= fact.checked_absent_in:
        return Severity.ERROR, ""
    return (
        Severity.WARNING,
        f" (checked absent in HIP {fact.checked_absent_in}; no evidence covers ROCm {rocm}, "
        "so check that release's headers)",
    )


# --------------------------------------------------------------------------- texture references


@dataclass(frozen=True)
class TextureReference:
    templates: frozenset[str]  # texture<...> / surface<...> declare a reference
    apis: frozenset[str]  # the reference API: its functions and types
    fetches: frozenset[str]  # the functions that read through a reference


def texture_reference(rows: Rows) -> TextureReference:
    def kind(*kinds: str) -> frozenset[str]:
        return frozenset(r["name"] for r in rows if r["kind"] in kinds)

    return TextureReference(
        kind("template"), kind("reference-api", "reference-type"), kind("fetch")
    )


# --------------------------------------------------------------------------- nvcc's macros


@dataclass(frozen=True, eq=False)  # hashed by identity: a key of rules.branches' caches
class NvccMacroSamples:
    """Macro -> the values sampled CUDA compilations give it (None: undefined)."""

    values: MappingProxyType[str, tuple[int | None, ...]]

    def __contains__(self, macro: object) -> bool:
        return macro in self.values

    def get(self, macro: str, default: tuple[int | None, ...] = (1,)) -> tuple[int | None, ...]:
        return self.values.get(macro, default)


def nvcc_macro_samples(rows: Rows) -> NvccMacroSamples:
    return NvccMacroSamples(
        MappingProxyType(
            {
                r["macro"]: tuple(
                    None if v == "undefined" else int(v) for v in r["values"].split(",")
                )
                for r in rows
            }
        )
    )


@dataclass(frozen=True)
class PredefinedMacro:
    """One row of hip_predefined_macros.tsv (see mappings/README.md)."""

    macro: str
    rocm: str  # "*" or a release ("5.2")
    passes: str  # both, device, none, unknown
    value: str
    source: str


@dataclass(frozen=True, eq=False)  # hashed by identity: part of preprocess.Build, a cache key
class HipMacros:
    """The HIP compiler's macros, per release (hipport.preprocess reads them)."""

    rows: tuple[PredefinedMacro, ...]

    def rows_for(self, rocm: tuple[int, int] | None) -> dict[str, PredefinedMacro]:
        """Each macro's row for the release: the row of that release if there is one, else *."""
        out: dict[str, PredefinedMacro] = {}
        for row in self.rows:
            if row.rocm == "*":
                out.setdefault(row.macro, row)
            elif rocm is not None and tuple(int(p) for p in row.rocm.split(".")) == rocm:
                out[row.macro] = row
        return out

    @cached_property
    def nvcc(self) -> frozenset[str]:
        """The CUDA compiler's and toolkit's macros hipcc leaves undefined."""
        return frozenset(
            r.macro
            for r in self.rows
            if r.passes == "none" and not r.macro.startswith("__HIP_PLATFORM_")
        )


def hip_macros(rows: Rows) -> HipMacros:
    return HipMacros(
        tuple(
            PredefinedMacro(r["macro"], r["rocm"], r["pass"], r["value"], r["source"]) for r in rows
        )
    )


# --------------------------------------------------------------------------- struct fields


@dataclass(frozen=True)
class StructField:
    """A CUDA struct field the HIP struct spells otherwise (struct_fields.tsv)."""

    cuda_types: tuple[str, ...]  # the CUDA struct's names (typedef, _st, _v1 ...)
    cuda_field: str
    hip_type: str
    hip_field: str
    hip_from: Version | None  # the first release with the HIP spelling (None: the oldest known)
    hip_until: Version | None  # the first release whose HIP struct spells it as CUDA does
    evidence: str

    def holds(self, rocm: Version) -> bool:
        return (self.hip_from is None or _line(rocm) >= _line(self.hip_from)) and (
            self.hip_until is None or _line(rocm) < _line(self.hip_until)
        )


@dataclass(frozen=True)
class StructFields:
    rows: tuple[StructField, ...]

    @cached_property
    def cuda_types(self) -> frozenset[str]:
        return frozenset(t for row in self.rows for t in row.cuda_types)

    def for_target(self, rocm: Version) -> dict[str, list[StructField]]:
        """CUDA field name -> the rows that rename it for `rocm`."""
        out: dict[str, list[StructField]] = {}
        for row in self.rows:
            if row.holds(rocm):
                out.setdefault(row.cuda_field, []).append(row)
        return out

    def renamed(self, cuda_type: str, field: str, rocm: Version) -> StructField | None:
        for row in self.for_target(rocm).get(field, ()):
            if cuda_type in row.cuda_types:
                return row
        return None


def struct_fields(rows: Rows) -> StructFields:
    """From struct_fields.tsv."""

    def version(text: str) -> Version | None:
        return Version.parse(text) if text else None

    return StructFields(
        tuple(
            StructField(
                tuple(r["cuda_types"].split(",")),
                r["cuda_field"],
                r["hip_type"],
                r["hip_field"],
                version(r["hip_from"]),
                version(r["hip_until"]),
                r["evidence"],
            )
            for r in rows
        )
    )


# --------------------------------------------------------------------------- device attributes


@dataclass(frozen=True)
class DevicePropAttribute:
    """The device attribute that reads a cudaDeviceProp field (device_prop_attributes.tsv)."""

    cuda_field: str
    cuda_type: str  # the field's CUDA type: the attribute's int is converted to it
    hip_attribute: str
    declared_in: tuple[Version, ...]  # releases whose headers declare the enumerator
    # releases whose hipDeviceProp_t lacks the field and whose AMD runtime still answers
    # the attribute: only there does the query keep the field's meaning
    answered_without_field: tuple[Version, ...]
    evidence: str

    def answers(self, rocm: Version) -> bool:
        return any(_line(r) == _line(rocm) for r in self.answered_without_field)


def device_prop_attributes(rows: Rows) -> dict[str, DevicePropAttribute]:
    """From device_prop_attributes.tsv."""

    def versions(cell: str) -> tuple[Version, ...]:
        return tuple(Version.parse(v) for v in cell.split(",") if v)

    return {
        r["cuda_field"]: DevicePropAttribute(
            r["cuda_field"],
            r["cuda_type"],
            r["hip_attribute"],
            versions(r["declared_in"]),
            versions(r["answered_without_field"]),
            r["evidence"],
        )
        for r in rows
    }


# --------------------------------------------------------------------------- numeric types


@dataclass(frozen=True)
class NumericType:
    """One row of numeric_types.tsv: the number format a CUDA or HIP type name holds."""

    name: str
    family: str  # fp8, bf16, fp16
    format: str  # OCP e4m3, FNUZ e5m2, bfloat16, IEEE binary16
    standard: str  # OCP, FNUZ, bfloat16, IEEE 754
    note: str  # what a reviewer must know of this type beyond its format ("" if nothing)


@dataclass(frozen=True)
class NumericTypes:
    """The fp8/bf16/fp16 type names of each side, with their formats (the report says
    which formats a translation keeps or changes)."""

    cuda: MappingProxyType[str, NumericType]
    hip: MappingProxyType[str, NumericType]


def numeric_types(rows: Rows) -> NumericTypes:
    def side(name: str) -> MappingProxyType[str, NumericType]:
        return MappingProxyType(
            {
                r["name"]: NumericType(
                    r["name"], r["family"], r["format"], r["standard"], r["note"]
                )
                for r in rows
                if r["side"] == name
            }
        )

    return NumericTypes(side("cuda"), side("hip"))
