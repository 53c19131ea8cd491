"""Loading mappings/ into memory: one `Mapping` per table row, plus includes and hipExt."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from hipport.target import Landscape, Release, Version
from hipport.tsv import mappings_dir as mappings_dir  # where it was first: kept for callers
from hipport.tsv import read_lines, read_tsv

# The families, in the order in which a name present in several of them is resolved.
FAMILIES = (
    "runtime",
    "driver",
    "device",
    "complex",
    "blas",
    "rand",
    "sparse",
    "solver",
    "fft",
    "dnn",
    "cub",
    "rtc",
    "tensor",
    "sparselt",
    "file",
)
VERSION_COLUMNS = (
    "cuda_added",
    "cuda_deprecated",
    "cuda_changed",
    "cuda_removed",
    "hip_added",
    "hip_deprecated",
    "hip_changed",
    "hip_removed",
    "hip_experimental",
    "roc_added",
    "roc_deprecated",
    "roc_changed",
    "roc_removed",
    "roc_experimental",
)


class Mapping(NamedTuple):
    """One row of a family table (see mappings/README.md for the meaning of each column).

    A NamedTuple rather than a dataclass: 9,000 rows are built at start-up, and a tuple is
    built several times faster than a frozen dataclass.
    """

    cuda: str
    kind: str
    family: str
    section: str
    cuda_added: Version | None
    cuda_deprecated: Version | None
    cuda_changed: Version | None
    cuda_removed: Version | None
    hip: str | None
    hip_added: Version | None
    hip_deprecated: Version | None
    hip_changed: Version | None
    hip_removed: Version | None
    hip_experimental: Version | None
    roc: str | None
    roc_library: str | None
    roc_added: Version | None
    roc_deprecated: Version | None
    roc_changed: Version | None
    roc_removed: Version | None
    roc_experimental: Version | None
    unsupported: bool
    # HIPIFY's U: one version = the mapping holds only for CUDA releases before it; several =
    # it does not hold for exactly those releases (their minor releases included)
    cuda_unsupported: tuple[Version, ...]
    condition: str | None = None  # a macro the HIP name needs (from overrides.tsv)
    evidence: str | None = None  # why an override changed this row

    def to_dict(self) -> dict[str, str | bool | None]:
        out: dict[str, str | bool | None] = {}
        for name, value in zip(self._fields, self, strict=True):
            if isinstance(value, tuple):
                value = ",".join(str(v) for v in value) or None
            out[name] = str(value) if isinstance(value, Version) else value
        return out


class EarlierMapping(NamedTuple):
    """An older HIP counterpart of a CUDA name (history.tsv): `cuda` maps to `hip` for
    targets from `hip_added` up to, not including, `hip_until`, where the family table's
    mapping takes over."""

    cuda: str
    family: str
    hip: str
    hip_added: Version
    hip_experimental: Version | None
    hip_until: Version
    evidence: str


class Alternative(NamedTuple):
    """What to write instead of a CUDA name HIP lacks (alternatives.tsv): `exact` ones are
    applied as the row's mapping (same semantics), `approximate` ones are suggested in the
    findings, never applied."""

    cuda: str
    family: str
    hip: str
    exact: bool
    since: Version | None
    note: str
    evidence: str

    def text(self) -> str:
        kind = "exact" if self.exact else "approximate"
        since = f", ROCm {self.since}+" if self.since else ""
        return f"{self.hip} ({kind}{since}: {self.note})"


class Condition(NamedTuple):
    """A macro some HIP names need defined before the HIP headers (conditions.tsv), and the
    releases that need it: from `needed_from` up to, not including, `needed_until`."""

    macro: str
    needed_from: Version
    needed_until: Version | None
    evidence: str

    def needed_by(self, rocm: Version) -> bool:
        return rocm >= self.needed_from and (self.needed_until is None or rocm < self.needed_until)


@dataclass(frozen=True, slots=True)
class IncludeMapping:
    cuda_header: str
    hip_header: str  # "" means: drop the include
    roc_header: str
    family: str
    is_main_header: bool
    unsupported: bool
    evidence: str | None = None  # set when include_overrides.tsv corrected the row
    hip_added: Version | None = None  # first ROCm with the HIP header (include_overrides.tsv)
    # the HIP header for targets before hip_added, where an older one declares the older
    # mapping's names (include_overrides.tsv: cuda_bf16.h -> hip/hip_bfloat16.h before 5.7)
    earlier_header: str | None = None


@dataclass(frozen=True, slots=True)
class HipExt:
    """An AMD-only hipExt* API (or a flag it takes) and the CUDA construct it can stand in for."""

    name: str
    kind: str
    rocm_added: Version
    rocm_last_seen: Version
    signature: str
    stands_in_for: str
    cuda_apis: tuple[str, ...]
    note: str


_VERSIONS: dict[str, Version | None] = {"": None}


def _version(text: str) -> Version | None:
    """A version cell; a cell that lists several (a `*_changed` column: `7.1.0,7.13.0`)
    stands for the newest of them."""
    try:
        return _VERSIONS[text]
    except KeyError:
        value = _VERSIONS[text] = max(Version.parse(t) for t in text.split(","))
        return value


_CUDA_SETS: dict[str, tuple[Version, ...]] = {"": ()}


def _versions(text: str) -> tuple[Version, ...]:
    """The `cuda_unsupported` cell: one version, or several comma-separated."""
    try:
        return _CUDA_SETS[text]
    except KeyError:
        value = _CUDA_SETS[text] = tuple(Version.parse(t) for t in text.split(","))
        return value


def _read_family(path: Path) -> list[Mapping]:
    """Read a family table. The row is built positionally (this runs 9,000 times at
    start-up), so the columns must be the schema's, in its order."""
    header, cells = read_lines(path)
    if header != Mapping._fields[: len(header)]:
        raise ValueError(f"{path}: columns {header} differ from the schema {Mapping._fields}")
    v = _VERSIONS.get
    rows = []
    for c in cells:
        for cell in (
            c[4],
            c[5],
            c[6],
            c[7],
            c[9],
            c[10],
            c[11],
            c[12],
            c[13],
            c[16],
            c[17],
            c[18],
            c[19],
            c[20],
        ):
            if cell not in _VERSIONS:
                _version(cell)
        rows.append(
            Mapping(
                c[0],
                c[1],
                c[2],
                c[3],
                v(c[4]),
                v(c[5]),
                v(c[6]),
                v(c[7]),
                c[8] or None,
                v(c[9]),
                v(c[10]),
                v(c[11]),
                v(c[12]),
                v(c[13]),
                c[14] or None,
                c[15] or None,
                v(c[16]),
                v(c[17]),
                v(c[18]),
                v(c[19]),
                v(c[20]),
                c[21] == "yes",
                _versions(c[22]),
            )
        )
    return rows


def _addition(row: dict[str, str]) -> Mapping:
    """A reviewed row for a CUDA name HIPIFY's tables lack (additions.tsv)."""
    return Mapping(
        row["cuda"],
        row["kind"],
        row["family"],
        row["section"],
        None,
        None,
        None,
        None,
        row["hip"] or None,
        _version(row["hip_added"]),
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        not row["hip"],
        (),
        row["condition"] or None,
        row["evidence"],
    )


def _read_history(
    path: Path, checks: dict[tuple[str, str, str], tuple[str, Version, str]] | None = None
) -> dict[tuple[str, str], tuple[EarlierMapping, ...]]:
    """history.tsv by (CUDA name, family), oldest mapping first; `checks`: the releases the
    headers' evidence gives instead (evidence.tsv, `contradicts` rows)."""
    out: dict[tuple[str, str], list[EarlierMapping]] = {}
    for r in read_tsv(path):
        check = (checks or {}).get((r["cuda"], r["family"], r["hip"]))
        added = Version.parse(r["hip_added"])
        evidence = r["evidence"]
        if check is not None and check[1] > added and check[1] < Version.parse(r["hip_until"]):
            added, evidence = check[1], f"{evidence}; {check[2]}"
        earlier = EarlierMapping(
            r["cuda"],
            r["family"],
            r["hip"],
            added,
            _version(r["hip_experimental"]),
            Version.parse(r["hip_until"]),
            evidence,
        )
        out.setdefault((earlier.cuda, earlier.family), []).append(earlier)
    return {k: tuple(sorted(v, key=lambda e: e.hip_added)) for k, v in out.items()}


def _read_releases(path: Path) -> Landscape:
    releases = [
        Release(
            r["product"], Version.parse(r["version"]), r["line"], tuple(r["sources"].split(","))
        )
        for r in read_tsv(path)
    ]
    return Landscape(
        tuple(sorted((r for r in releases if r.product == "rocm"), key=lambda r: r.version)),
        tuple(sorted((r for r in releases if r.product == "cuda"), key=lambda r: r.version)),
    )


def _evidence_checks(path: Path) -> dict[tuple[str, str, str], tuple[str, Version, str]]:
    """(cuda, family, hip) -> (status, release, why) for the evidence.tsv rows that change a
    version check: `filled` and `contradicts` with a release. Only those lines are split (the
    file has a row for every mapping; this runs at start-up)."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").split("\n")
    header = lines[0].split("\t")
    out = {}
    for line in lines[1:]:
        if "\tfilled\t" not in line and "\tcontradicts\t" not in line:
            continue
        r = dict(zip(header, line.split("\t"), strict=True))
        if not r["check_added"]:
            continue
        places = ", ".join(
            f"{label} {r[c]}"
            for label, c in (
                ("HIP 5.2", "hip_5_2"),
                ("HIP 6.3", "hip_6_3"),
                ("hip-python", "hip_python"),
                ("header scan", "header_scan"),
            )
            if r[c]
        )
        why = (
            f"evidence.tsv ({r['status']}): {r['hip']} from {r['check_added']} ({places})"
            if r["status"] == "filled"
            else f"evidence.tsv (contradicts the table's {r['table_added']}): {r['hip']} "
            f"from {r['check_added']} ({places})"
        )
        out[(r["cuda"], r["family"], r["hip"])] = (
            r["status"],
            Version.parse(r["check_added"]),
            why,
        )
    return out


class Tables:
    """All tables, indexed by CUDA name, HIP name and hipExt name."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._evidence: dict[tuple[str, str, str], dict[str, str]] | None = None
        self.rows: list[Mapping] = []
        for family in FAMILIES:
            self.rows.extend(_read_family(directory / f"{family}.tsv"))
        self.overrides = read_tsv(directory / "overrides.tsv")
        self._apply_overrides()
        self.conditions = {
            r["macro"]: Condition(
                r["macro"],
                Version.parse(r["needed_from"]),
                _version(r["needed_until"]),
                r["evidence"],
            )
            for r in read_tsv(directory / "conditions.tsv")
        }
        self.alternatives = {
            (r["cuda"], r["family"]): Alternative(
                r["cuda"],
                r["family"],
                r["hip"],
                r["exactness"] == "exact",
                _version(r["since"]),
                r["note"],
                r["evidence"],
            )
            for r in read_tsv(directory / "alternatives.tsv")
        }
        self._apply_exact_alternatives()
        self._apply_release_evidence(directory / "evidence.tsv")
        self.additions = read_tsv(directory / "additions.tsv")
        self.rows.extend(_addition(a) for a in self.additions)
        self.by_cuda: dict[str, list[Mapping]] = {}
        self.by_hip: dict[str, list[Mapping]] = {}
        for row in self.rows:
            self.by_cuda.setdefault(row.cuda, []).append(row)
            for name in (row.hip, row.roc):
                if name:
                    self.by_hip.setdefault(name, []).append(row)
        self.history = _read_history(directory / "history.tsv", self._evidence_checks)
        for (cuda, family), earlier in self.history.items():
            rows = [r for r in self.by_cuda.get(cuda, ()) if r.family == family]
            for e in earlier:
                self.by_hip.setdefault(e.hip, []).extend(rows)
        self.includes = {
            r["cuda_header"]: IncludeMapping(
                r["cuda_header"],
                r["hip_header"],
                r["roc_header"],
                r["api"],
                r["is_main_header"] == "yes",
                r["unsupported"] == "yes",
            )
            for r in read_tsv(directory / "includes.tsv")
        }
        self.include_overrides = read_tsv(directory / "include_overrides.tsv")
        for o in self.include_overrides:
            base = self.includes[o["cuda_header"]]
            self.includes[o["cuda_header"]] = IncludeMapping(
                base.cuda_header,
                o["hip_header"] or base.hip_header,
                o["roc_header"] or base.roc_header,
                base.family,
                base.is_main_header,
                base.unsupported,
                o["evidence"],
                _version(o["hip_added"]),
                o.get("earlier_header") or None,
            )
        self.hipext = {
            r["name"]: HipExt(
                r["name"],
                r["kind"],
                Version.parse(r["rocm_added"]),
                Version.parse(r["rocm_last_seen"]),
                r["signature"],
                r["stands_in_for"],
                tuple(a for a in r["cuda_apis"].split(",") if a),
                r["note"],
            )
            for r in read_tsv(directory / "hipext.tsv")
        }
        self.hipext_for: dict[str, list[HipExt]] = {}
        for ext in self.hipext.values():
            for api in ext.cuda_apis:
                self.hipext_for.setdefault(api, []).append(ext)
        self.counts: dict[str, int] = json.loads((directory / "counts.json").read_text())
        self.landscape = _read_releases(directory / "releases.tsv")
        # the default target ROCm: the newest production release (not a preview one)
        self.newest_rocm: Version = self.landscape.default_rocm

    def _apply_overrides(self) -> None:
        by_key = {(o["cuda"], o["family"]): o for o in self.overrides}
        for i, row in enumerate(self.rows):
            override = by_key.get((row.cuda, row.family))
            if override is None:
                continue
            # a blank cell keeps the imported value: most overrides only add a condition
            hip = override["hip"] or row.hip
            self.rows[i] = row._replace(
                hip=hip,
                hip_added=_version(override["hip_added"]) or row.hip_added,
                unsupported=not hip,
                condition=override["condition"] or None,
                evidence=override["evidence"],
            )

    def _apply_exact_alternatives(self) -> None:
        """An exact alternative is the row's mapping: renamed (and its arguments rewritten,
        arguments.tsv) by translate and the shim, version-gated by its `since`."""
        for i, row in enumerate(self.rows):
            alt = self.alternatives.get((row.cuda, row.family))
            if alt is None or not alt.exact:
                continue
            self.rows[i] = row._replace(
                hip=alt.hip,
                hip_added=alt.since,
                unsupported=False,
                evidence=f"alternatives.tsv (exact): {alt.note}. {alt.evidence}",
            )

    def _apply_release_evidence(self, path: Path) -> None:
        """The release evidence.tsv gives where the table gives none (`filled`) or where the
        headers contradict the table (`contradicts`): the version check uses it. A reviewed
        override or exact alternative (they carry their own evidence) wins."""
        self._evidence_checks = _evidence_checks(path)
        reviewed = {(o["cuda"], o["family"]) for o in self.overrides if o["hip_added"]}
        reviewed |= {k for k, a in self.alternatives.items() if a.exact}
        for i, row in enumerate(self.rows):
            if row.hip is None or (row.cuda, row.family) in reviewed:
                continue
            check = self._evidence_checks.get((row.cuda, row.family, row.hip))
            if check is None:
                continue
            status, added, why = check
            if status == "filled" or row.hip_added is None or added > row.hip_added:
                self.rows[i] = row._replace(hip_added=added, evidence=row.evidence or why)

    def release_evidence(self, mapping: Mapping | EarlierMapping) -> dict[str, str] | None:
        """The evidence.tsv row of a mapping (read on first use), or None if it has none."""
        if self._evidence is None:
            path = self.directory / "evidence.tsv"
            rows = read_tsv(path, optional=True)
            self._evidence = {(r["cuda"], r["family"], r["hip"]): r for r in rows}
        return self._evidence.get((mapping.cuda, mapping.family, mapping.hip or ""))

    def alternative(self, mapping: Mapping | None) -> Alternative | None:
        """The approximate alternative of a row, if alternatives.tsv has one."""
        if mapping is None:
            return None
        alt = self.alternatives.get((mapping.cuda, mapping.family))
        return alt if alt is not None and not alt.exact else None

    def get(self, cuda_name: str) -> Mapping | None:
        """The row for a CUDA name; a name listed in several families resolves to the first
        family (in FAMILIES order) that maps it, else to its first row."""
        rows = self.by_cuda.get(cuda_name)
        if not rows:
            return None
        for row in rows:
            if row.hip or row.roc:
                return row
        return rows[0]

    def find(self, name: str) -> list[Mapping]:
        """Rows for a CUDA name, else rows whose HIP or ROC name it is."""
        return self.by_cuda.get(name) or self.by_hip.get(name, [])

    def is_hip_name(self, name: str) -> bool:
        """A name hipport should accept as HIP: a HIP/ROC name of the tables or a hipExt API."""
        return name in self.by_hip or name in self.hipext
