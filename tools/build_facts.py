#!/usr/bin/env python3
"""Build the versioned facts of mappings/ that are not API-name tables:

    mappings/hip_device_prop_fields.tsv   hipDeviceProp_t's fields per ROCm release
    mappings/cuda_device_prop_fields.tsv  the cudaDeviceProp fields HIP may lack (HIP108)
    mappings/cooperative_groups.tsv       cooperative-groups features HIP lacks (HIP107)
    mappings/cmake.tsv                    the CMake vocabulary hipport translates
    mappings/include_guards.tsv           CUDA headers' include guards and the HIP tests
    mappings/vector_operators.tsv         the operators HIP's vector types define (HIP114)
    mappings/texture_reference.tsv        the texture/surface reference API (HIP105)
    mappings/nvcc_macro_samples.tsv       the values CUDA compilations give nvcc's macros (HIP113)
    mappings/struct_fields.tsv            CUDA struct fields HIP spells otherwise (HIP031)
    mappings/device_prop_attributes.tsv   the device attributes of cudaDeviceProp fields (HIP032)
    mappings/numeric_types.tsv            the number format of CUDA's and HIP's fp8/bf16/fp16 types

    python tools/build_facts.py [--data ../shared/data] [--out mappings]
    python tools/build_facts.py --refresh-hip52 /usr/include/hip/hip_runtime_api.h

tools/build_mappings.py calls build_facts(); run alone, this rebuilds only these files.
Sources: ../shared/data/hip-python/hipDeviceProp_t-fields.tsv (ROCm 6.2-7.2) and the
reviewed inputs in tools/: hip52_device_prop_fields.tsv (HIP 5.2's struct, extracted from
its header by --refresh-hip52), cuda_device_prop_fields.tsv, cooperative_groups.tsv,
cmake.tsv, include_guards.tsv (checked against ../shared/data/cuda-include-map.tsv with
tools/include_overrides.tsv) and hip_vector_operators.tsv (extracted from HIP 5.2's and
6.3's headers by tools/vector_operators.py --refresh), texture_reference.tsv (with the
reference API's functions read from ../shared/data/hipify-tables' runtime table),
nvcc_macro_samples.tsv, struct_fields.tsv and device_prop_attributes.tsv (each row with
its header:line evidence, which tests/test_struct_facts.py re-reads) and numeric_types.tsv
(whose header:line evidence tests/test_numeric_formats.py re-reads). The schemas are in
mappings/README.md. Deterministic output; it fails, rather than writes, when an input
contradicts the data (see the checks below).
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

HIP52_RELEASE = "5.2"  # HIP_VERSION 5.2.21153, the Debian package's headers
HIP52_FIELDS = HERE / "hip52_device_prop_fields.tsv"
HIP52_SOURCE = "hip_runtime_api.h of HIP 5.2.21153"
HIP_PYTHON_SOURCE = "hip-python 6.2-7.2"

HIP_FIELD_COLUMNS = ["field", "type", "present_in", "source"]
CUDA_FIELD_COLUMNS = ["cuda_field", "alternative", "evidence"]
CG_COLUMNS = [
    "name",
    "kind",
    "unqualified",
    "absent_through",
    "present_from",
    "instead",
    "evidence",
]
CG_KINDS = ("header", "name", "member")
CMAKE_COLUMNS = ["kind", "cuda", "hip", "package", "note"]
CMAKE_KINDS = (
    "setting",
    "variable",
    "variable-hint",
    "legacy-variable",
    "property",
    "property-hint",
    "link-target",
    "link-hint",
    "legacy-command",
    "nvcc-flag",
)
CMAKE_SETTINGS = ("architecture_suggestion", "hip_min_cmake")
GUARD_COLUMNS = [
    "cuda_guard",
    "cuda_header",
    "hip_header",
    "hip_guard",
    "checked",
    "shim",
    "evidence",
]
GUARD_CHECKED = ("hip-5.2", "hip-6.3", "source")
VECTOR_OPERATOR_COLUMNS = ["rocm", "operator", "hip_declaration", "source"]
VECTOR_OPERATORS = frozenset({"+", "-", "*", "/", "+=", "-=", "*=", "/="})
TEXTURE_COLUMNS = ["name", "kind", "source"]
TEXTURE_KINDS = ("template", "reference-type", "reference-api", "fetch")
RUNTIME_TABLE = "hipify-tables/CUDA_Runtime_API_functions_supported_by_HIP.md"
# the runtime table's sections that list the reference API's functions
TEXTURE_SECTIONS = ("Texture Reference Management", "Surface Reference Management")
SAMPLE_COLUMNS = ["macro", "values", "source"]
NUMERIC_COLUMNS = ["name", "side", "family", "format", "standard", "note", "source"]
NUMERIC_SIDES = ("cuda", "hip")


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def write_tsv(path: Path, columns: list[str], rows: list[dict[str, str]]) -> None:
    lines = ["\t".join(columns)]
    for row in rows:
        cells = [row.get(c, "") or "" for c in columns]
        if any("\t" in c or "\n" in c for c in cells):
            raise ValueError(f"{path.name}: a cell holds a tab or newline: {cells}")
        lines.append("\t".join(cells))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _version_key(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


# --------------------------------------------------------------------------- hipDeviceProp_t

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_MEMBER = re.compile(r"([^;{}]*?)\b([A-Za-z_]\w*)\s*((?:\[[^\]]*\]\s*)*);")


def fields_from_header(text: str) -> list[tuple[str, str]]:
    """(field, type) of every member of `typedef struct hipDeviceProp_t {...}` in a HIP
    header's text, in declaration order."""
    start = text.index("typedef struct hipDeviceProp_t {")
    body = text[text.index("{", start) + 1 : text.index("} hipDeviceProp_t;", start)]
    body = _COMMENT.sub(" ", body)
    out = []
    for m in _MEMBER.finditer(body):
        type_ = " ".join(m.group(1).split())
        dims = "".join(m.group(3).split())
        out.append((m.group(2), f"{type_}{dims}"))
    return out


def hip_device_prop_fields(data: Path) -> list[dict[str, str]]:
    """Every hipDeviceProp_t field with the sampled releases that declare it: HIP 5.2 from
    its header, ROCm 6.2-7.2 from hip-python."""
    newer = read_tsv(data / "hip-python" / "hipDeviceProp_t-fields.tsv")
    old = {row["field"]: row["type"] for row in read_tsv(HIP52_FIELDS)}
    rows: dict[str, dict[str, str]] = {}
    for field, type_ in old.items():
        rows[field] = {"field": field, "type": type_, "present_in": [HIP52_RELEASE]}
    for row in newer:
        entry = rows.setdefault(row["field"], {"field": row["field"], "present_in": []})
        entry["type"] = row["type"]  # the newest declaration
        entry["present_in"] += row["present_in"].split(",")
    out = []
    for entry in rows.values():
        releases = entry["present_in"]
        sources = [HIP52_SOURCE] if HIP52_RELEASE in releases else []
        if len(releases) > (1 if sources else 0):
            sources.append(HIP_PYTHON_SOURCE)
        out.append(
            {
                "field": entry["field"],
                "type": entry["type"],
                "present_in": ",".join(sorted(releases, key=_version_key)),
                "source": "; ".join(sources),
            }
        )
    return out


def sampled_releases(hip_fields: list[dict[str, str]]) -> list[str]:
    found = {r for row in hip_fields for r in row["present_in"].split(",")}
    return sorted(found, key=_version_key)


def cuda_device_prop_fields(data: Path, hip_fields: list[dict[str, str]]) -> list[dict[str, str]]:
    """The reviewed CUDA field list, checked: an alternative named as a hipDeviceAttribute
    or HIP function exists in HIP's headers, and no listed field disappears from
    hipDeviceProp_t after appearing (HIP108 reads absence in a release as absence before)."""
    known = {r["identifier"] for r in read_tsv(data / "hip-identifiers-by-rocm.tsv")}
    known |= {
        r["identifier"] for r in read_tsv(data / "hip-python" / "hip-identifiers-6.2-to-7.2.tsv")
    }
    releases = sampled_releases(hip_fields)
    present = {row["field"]: row["present_in"].split(",") for row in hip_fields}
    rows = reviewed_rows("cuda_device_prop_fields.tsv", "cuda_field")
    for row in rows:
        field = row["cuda_field"]
        api = re.match(r"(hip\w+)", row["alternative"] or "")
        if api and api.group(1) not in known:
            raise ValueError(f"{field}: alternative {api.group(1)} is not in HIP's headers")
        has = [r in present.get(field, ()) for r in releases]
        if any(has) and has != sorted(has):  # present, then absent again
            raise ValueError(f"{field} leaves hipDeviceProp_t after appearing: {releases}")
    return rows


# --------------------------------------------------------------------------- cooperative groups


def reviewed_rows(name: str, *key: str) -> list[dict[str, str]]:
    """The rows of tools/<name>, none empty in its key columns, no key twice."""
    rows = read_tsv(HERE / name)
    seen: set[tuple[str, ...]] = set()
    for row in rows:
        cells = tuple(row[k] for k in key)
        if cells in seen or not all(cells):
            raise ValueError(f"{name}: empty or duplicate {key}: {cells}")
        seen.add(cells)
    return rows


def cooperative_groups() -> list[dict[str, str]]:
    rows = reviewed_rows("cooperative_groups.tsv", "name", "kind")
    for row in rows:
        key = (row["name"], row["kind"])
        if row["kind"] not in CG_KINDS:
            raise ValueError(f"cooperative_groups.tsv: {key}: unknown kind")
        if row["unqualified"] not in ("yes", "no") or not row["absent_through"]:
            raise ValueError(f"cooperative_groups.tsv: {key}: unqualified / absent_through")
        if row["present_from"] and _version_key(row["present_from"]) <= _version_key(
            row["absent_through"]
        ):
            raise ValueError(f"cooperative_groups.tsv: {key}: present_from <= absent_through")
    return rows


# --------------------------------------------------------------------------- CMake


def cmake_vocabulary() -> list[dict[str, str]]:
    rows = reviewed_rows("cmake.tsv", "kind", "cuda")
    for row in rows:
        key = (row["kind"], row["cuda"])
        if row["kind"] not in CMAKE_KINDS:
            raise ValueError(f"cmake.tsv: {key}: unknown kind")
        needs_hip = row["kind"] in ("variable", "property", "link-target", "setting")
        if needs_hip != bool(row["hip"]):
            raise ValueError(f"cmake.tsv: {key}: the hip column is for renames and settings")
        if row["kind"].endswith("-hint") and not row["note"]:
            raise ValueError(f"cmake.tsv: {key}: a hint needs its note")
    settings = {row["cuda"] for row in rows if row["kind"] == "setting"}
    if settings != set(CMAKE_SETTINGS):
        raise ValueError(f"cmake.tsv: settings must be exactly {CMAKE_SETTINGS}")
    return rows


# --------------------------------------------------------------------------- include guards


def include_guards(data: Path) -> list[dict[str, str]]:
    """The reviewed include guards (tools/include_guards.tsv), checked against the data: the
    CUDA header is NVIDIA's (the toolkit list or the include map) and the HIP header is the
    one hipport's include map (HIPIFY's, with tools/include_overrides.tsv) sends it to. The
    guard names are facts of the headers: tests/test_include_guards.py reads them in the
    installed CUDA and HIP headers (the `checked` releases)."""
    toolkit = {r["header"] for r in read_tsv(data / "cuda-toolkit-headers.tsv")}
    include_map = {
        r["cuda_header"]: r["hip_header"] for r in read_tsv(data / "cuda-include-map.tsv")
    }
    for row in read_tsv(HERE / "include_overrides.tsv"):
        if row["hip_header"]:
            include_map[row["cuda_header"]] = row["hip_header"]
    rows = reviewed_rows("include_guards.tsv", "cuda_guard")
    for row in rows:
        guard, header = row["cuda_guard"], row["cuda_header"]
        if header not in toolkit and header not in include_map:
            raise ValueError(f"include_guards.tsv: {guard}: {header} is not an NVIDIA header")
        if include_map.get(header, "") != row["hip_header"]:
            raise ValueError(
                f"include_guards.tsv: {guard}: the include map sends {header} to "
                f"{include_map.get(header)!r}, not {row['hip_header']!r}"
            )
        checked = [c for c in row["checked"].split(",") if c]
        if any(c not in GUARD_CHECKED for c in checked):
            raise ValueError(f"include_guards.tsv: {guard}: checked must be of {GUARD_CHECKED}")
        if row["hip_guard"] and not checked:
            raise ValueError(f"include_guards.tsv: {guard}: a HIP guard needs where it was read")
        if not row["evidence"]:
            raise ValueError(f"include_guards.tsv: {guard}: needs its evidence")
        if row["shim"] not in ("yes", "no") or (row["shim"] == "yes" and not row["hip_guard"]):
            raise ValueError(f"include_guards.tsv: {guard}: shim is yes (with a HIP guard) or no")
    return rows


# --------------------------------------------------------------------------- vector operators


def vector_operators() -> list[dict[str, str]]:
    """tools/hip_vector_operators.tsv (the non-template operators of HIP_vector_type per
    release, extracted from the headers), checked, with its source."""
    rows = reviewed_rows("hip_vector_operators.tsv", "rocm", "operator")
    out = []
    for row in rows:
        key = (row["rocm"], row["operator"])
        if row["operator"] not in VECTOR_OPERATORS or "operator" not in row["hip_declaration"]:
            raise ValueError(f"hip_vector_operators.tsv: {key}: not an arithmetic operator")
        _version_key(row["rocm"])  # a release number
        out.append(
            {
                "rocm": row["rocm"],
                "operator": row["operator"],
                "hip_declaration": row["hip_declaration"],
                "source": f"HIP_vector_type in {row['header_line']}",
            }
        )
    return out


# --------------------------------------------------------------------------- texture references

_SECTION = re.compile(r"^## \*\*\d+\. (.+?)\*\*\s*$")
_ROW_NAME = re.compile(r"^\|`([^`]+)`\|")


def _table_sections(path: Path) -> dict[str, list[list[str]]]:
    """A HIPIFY table's sections: heading -> its rows' cells (the name first)."""
    sections: dict[str, list[list[str]]] = {}
    rows: list[list[str]] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = _SECTION.match(line)
        if heading:
            rows = sections.setdefault(heading.group(1), [])
        elif rows is not None and _ROW_NAME.match(line):
            rows.append([c.strip("`") for c in line.strip("|").split("|")])
    return sections


def texture_reference(data: Path) -> list[dict[str, str]]:
    """The legacy texture/surface reference API (HIP105): its functions from the runtime
    table's reference-management sections, and the reviewed rows of
    tools/texture_reference.tsv (the templates, the reference types, which must be in the
    runtime table, and the fetch functions, each with its header)."""
    sections = _table_sections(data / RUNTIME_TABLE)
    out: list[dict[str, str]] = []
    for heading, rows in sections.items():
        if not heading.startswith(TEXTURE_SECTIONS):
            continue
        for cells in rows:
            removed = f" (removed in CUDA {cells[4]})" if cells[4] else ""
            source = f"HIPIFY runtime table, {heading}{removed}"
            out.append({"name": cells[0], "kind": "reference-api", "source": source})
    if len(out) < 2:
        raise ValueError(f"{RUNTIME_TABLE}: no {TEXTURE_SECTIONS} functions")
    in_table = {cells[0] for rows in sections.values() for cells in rows}
    for row in reviewed_rows("texture_reference.tsv", "name"):
        if row["kind"] not in TEXTURE_KINDS or row["kind"] == "reference-api":
            raise ValueError(f"texture_reference.tsv: {row['name']}: kind")
        if row["kind"] == "reference-type" and row["name"] not in in_table:
            raise ValueError(f"texture_reference.tsv: {row['name']}: not in {RUNTIME_TABLE}")
        if not row["source"]:
            raise ValueError(f"texture_reference.tsv: {row['name']}: needs its source")
        out.append(row)
    names = [row["name"] for row in out]
    if len(set(names)) != len(names):
        raise ValueError("texture_reference.tsv: a name the runtime table lists too")
    return out


# --------------------------------------------------------------------------- nvcc's macros


def nvcc_macro_samples() -> list[dict[str, str]]:
    """tools/nvcc_macro_samples.tsv: the values CUDA compilations give nvcc's macros, for
    the releases a program is ported from (`undefined` for a pass that leaves it so)."""
    rows = reviewed_rows("nvcc_macro_samples.tsv", "macro", "values")
    for row in rows:
        for value in row["values"].split(","):
            if value != "undefined" and not value.isdigit():
                raise ValueError(f"nvcc_macro_samples.tsv: {row['macro']}: value {value!r}")
        if not row["source"]:
            raise ValueError(f"nvcc_macro_samples.tsv: {row['macro']}: needs its source")
    return rows


# --------------------------------------------------------------------------- numeric types


def numeric_types() -> list[dict[str, str]]:
    """tools/numeric_types.tsv: the number format of each fp8/bf16/fp16 type name, per side;
    a format's standard is the start of its name (OCP e4m3 is OCP), and one family never
    has two formats of one name on one side."""
    rows = reviewed_rows("numeric_types.tsv", "name", "side")
    for row in rows:
        where = f"numeric_types.tsv: {row['name']} ({row['side']})"
        if row["side"] not in NUMERIC_SIDES:
            raise ValueError(f"{where}: side")
        if not (row["family"] and row["format"] and row["standard"] and row["source"]):
            raise ValueError(f"{where}: family, format, standard and source are required")
        if row["standard"] in ("OCP", "FNUZ") and not row["format"].startswith(row["standard"]):
            raise ValueError(f"{where}: format {row['format']!r} is not {row['standard']}")
    return rows


# --------------------------------------------------------------------------- driver


# --------------------------------------------------------------------------- struct fields

STRUCT_FIELD_COLUMNS = [
    "cuda_types",
    "cuda_field",
    "hip_type",
    "hip_field",
    "hip_from",
    "hip_until",
    "evidence",
]
ATTRIBUTE_COLUMNS = [
    "cuda_field",
    "cuda_type",
    "hip_attribute",
    "declared_in",
    "answered_without_field",
    "evidence",
]
_RELEASE = re.compile(r"\d+\.\d+(?:\.\d+)?")


def _releases(cell: str) -> list[str]:
    return [r for r in cell.split(",") if r]


def struct_fields() -> list[dict[str, str]]:
    """The reviewed renames, each with a release window and its evidence."""
    rows = reviewed_rows("struct_fields.tsv", "cuda_types", "cuda_field")
    for row in rows:
        key = (row["cuda_types"], row["cuda_field"])
        for cell in ("hip_from", "hip_until"):
            if row[cell] and not _RELEASE.fullmatch(row[cell]):
                raise ValueError(f"struct_fields.tsv: {key}: {cell} {row[cell]!r}")
        if not (row["hip_type"] and row["hip_field"] and row["evidence"]):
            raise ValueError(f"struct_fields.tsv: {key}: needs hip_type, hip_field, evidence")
    return rows


def device_prop_attributes(
    hip_fields: list[dict[str, str]], cuda_fields: list[dict[str, str]]
) -> list[dict[str, str]]:
    """The reviewed attribute rows: each names the attribute cuda_device_prop_fields.tsv
    offers for its field, and is answered (without the field) only in releases whose
    hipDeviceProp_t lacks the field."""
    rows = reviewed_rows("device_prop_attributes.tsv", "cuda_field")
    offered = {r["cuda_field"]: r["alternative"] for r in cuda_fields}
    present = {r["field"]: set(r["present_in"].split(",")) for r in hip_fields}
    for row in rows:
        field = row["cuda_field"]
        if offered.get(field) != row["hip_attribute"]:
            raise ValueError(f"device_prop_attributes.tsv: {field}: not the attribute offered")
        releases = _releases(row["declared_in"]) + _releases(row["answered_without_field"])
        if not row["declared_in"] or any(not _RELEASE.fullmatch(r) for r in releases):
            raise ValueError(f"device_prop_attributes.tsv: {field}: declared_in / answered")
        for release in _releases(row["answered_without_field"]):
            if release in present.get(field, ()):
                raise ValueError(f"device_prop_attributes.tsv: {field}: {release} has the field")
    return rows


def build_facts(data: Path, out: Path) -> dict[str, int]:
    """Write the facts files into `out`; the number of rows of each."""
    out.mkdir(parents=True, exist_ok=True)
    hip_fields = hip_device_prop_fields(data)
    files = {
        "hip_device_prop_fields.tsv": (HIP_FIELD_COLUMNS, hip_fields),
        "cuda_device_prop_fields.tsv": (
            CUDA_FIELD_COLUMNS,
            cuda_device_prop_fields(data, hip_fields),
        ),
        "cooperative_groups.tsv": (CG_COLUMNS, cooperative_groups()),
        "cmake.tsv": (CMAKE_COLUMNS, cmake_vocabulary()),
        "include_guards.tsv": (GUARD_COLUMNS, include_guards(data)),
        "vector_operators.tsv": (VECTOR_OPERATOR_COLUMNS, vector_operators()),
        "texture_reference.tsv": (TEXTURE_COLUMNS, texture_reference(data)),
        "nvcc_macro_samples.tsv": (SAMPLE_COLUMNS, nvcc_macro_samples()),
        "struct_fields.tsv": (STRUCT_FIELD_COLUMNS, struct_fields()),
        "device_prop_attributes.tsv": (
            ATTRIBUTE_COLUMNS,
            device_prop_attributes(hip_fields, cuda_device_prop_fields(data, hip_fields)),
        ),
        "numeric_types.tsv": (NUMERIC_COLUMNS, numeric_types()),
    }
    for name, (columns, rows) in files.items():
        write_tsv(out / name, columns, rows)
    return {name: len(rows) for name, (_, rows) in files.items()}


def refresh_hip52(header: Path) -> int:
    """Rewrite tools/hip52_device_prop_fields.tsv from HIP 5.2's hip_runtime_api.h."""
    fields = fields_from_header(header.read_text(encoding="utf-8"))
    rows = [{"field": f, "type": t} for f, t in fields]
    write_tsv(HIP52_FIELDS, ["field", "type"], rows)
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "mappings")
    parser.add_argument("--refresh-hip52", type=Path, metavar="HIP_RUNTIME_API_H")
    args = parser.parse_args(argv)
    if args.refresh_hip52:
        print(f"{HIP52_FIELDS.name}: {refresh_hip52(args.refresh_hip52)} fields")
        return 0
    for name, n in build_facts(args.data, args.out).items():
        print(f"{name:28} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
