#!/usr/bin/env python3
"""Rebuild mappings/ from the reference data in ../shared/data.

    python tools/build_mappings.py [--data ../shared/data] [--out mappings]

Reads HIPIFY's per-family markdown tables, the include map and the HIP identifier scan,
and writes one TSV per family plus includes.tsv, hipext.tsv (from tools/hipext_curated.tsv,
versioned by the identifier scan), a copy of overrides.tsv (the reviewed corrections, kept
by hand in tools/overrides.tsv), counts.json and NOTICE. The output is deterministic, so a
test can regenerate it and compare with what is committed.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# family -> (source file, name of the alternative-library column, alternative library)
FAMILIES: dict[str, tuple[str, str | None, str | None]] = {
    "runtime": ("CUDA_Runtime_API_functions_supported_by_HIP.md", None, None),
    "driver": ("CUDA_Driver_API_functions_supported_by_HIP.md", None, None),
    "device": ("CUDA_Device_API_supported_by_HIP.md", None, None),
    "complex": ("cuComplex_API_supported_by_HIP.md", None, None),
    "blas": ("CUBLAS_API_supported_by_HIP_and_ROC.md", "ROC", "rocBLAS"),
    "rand": ("CURAND_API_supported_by_HIP_and_ROC.md", "ROC", "rocRAND"),
    "sparse": ("CUSPARSE_API_supported_by_HIP_and_ROC.md", "ROC", "rocSPARSE"),
    "solver": ("CUSOLVER_API_supported_by_HIP_and_ROC.md", "ROC", "rocSOLVER"),
    "fft": ("CUFFT_API_supported_by_HIP.md", None, None),
    "dnn": ("CUDNN_API_supported_by_HIP_and_MIOPEN.md", "MIOPEN", "MIOpen"),
    "cub": ("CUB_API_supported_by_HIP.md", None, None),
    "rtc": ("CUDA_RTC_API_supported_by_HIP.md", None, None),
}

COLUMNS = [
    "cuda",
    "kind",
    "family",
    "section",
    "cuda_added",
    "cuda_deprecated",
    "cuda_changed",
    "cuda_removed",
    "hip",
    "hip_added",
    "hip_deprecated",
    "hip_changed",
    "hip_removed",
    "hip_experimental",
    "roc",
    "roc_library",
    "roc_added",
    "roc_deprecated",
    "roc_changed",
    "roc_removed",
    "roc_experimental",
    "unsupported",
]

_SECTION_RE = re.compile(r"^##\s+\*\*(?:\d+\.\s*)?(.*?)\*\*\s*$")
_TYPE_SECTION_RE = re.compile(r"(data types|types references|device types)", re.IGNORECASE)
_MACRO_HINT_RE = re.compile(r"(_VERSION(_\w+)?|_H_?|_SIZE|_MAX|_MIN)$")


def infer_kind(name: str, section: str) -> str:
    """The tables do not state a kind; infer one from the section and the name's shape.

    function: entries of function sections. type: `*_t`, `*_st`, or CamelCase names in type
    sections. macro: upper-case names that read like version or size macros. constant: other
    upper-case names and enumerator-looking names (an enum value or a #define: the tables do
    not say which).
    """
    if not _TYPE_SECTION_RE.search(section):
        return "function"
    if name.endswith(("_t", "_st")) or name.startswith("struct "):
        return "type"
    if re.fullmatch(r"[A-Z0-9_]+", name):
        return "macro" if _MACRO_HINT_RE.search(name) else "constant"
    # cudaErrorInvalidValue, cudaMemcpyHostToDevice, CU_... -> enumerators; cudaDeviceProp,
    # cudaMemcpyKind, CUresult -> types. Enumerators in these APIs carry a type-name prefix
    # followed by another capitalised word; the type names are two words at most.
    words = re.findall(r"[A-Z]+[a-z0-9]*|[a-z]+[0-9]*", name)
    return "constant" if len(words) >= 4 and not name[0].isupper() else "type"


def _cell(text: str) -> str:
    return text.strip().strip("`").strip()


def parse_table(path: Path, family: str, alt_col: str | None, alt_lib: str | None) -> list[dict]:
    rows: list[dict] = []
    section = ""
    header: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _SECTION_RE.match(line)
        if match:
            section = match.group(1).strip()
            header = None
            continue
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "**CUDA**":
            header = [c.strip("*") for c in cells]
            continue
        if header is None or cells[0].startswith(":-"):
            continue
        rows.append(_row(cells, header, family, section, alt_col, alt_lib, path.name))
    return rows


def _row(cells, header, family, section, alt_col, alt_lib, source) -> dict:
    if len(cells) != len(header):
        raise ValueError(f"{source}: row has {len(cells)} cells, header {len(header)}: {cells}")
    values = [_cell(c) for c in cells]
    # header: CUDA A D C R HIP A D C R E [ALT A D C R E]
    row = dict.fromkeys(COLUMNS, "")
    row.update(
        cuda=values[0],
        family=family,
        section=section,
        cuda_added=values[1],
        cuda_deprecated=values[2],
        cuda_changed=values[3],
        cuda_removed=values[4],
    )
    if header[5] == "HIP":
        row.update(
            hip=values[5],
            hip_added=values[6],
            hip_deprecated=values[7],
            hip_changed=values[8],
            hip_removed=values[9],
            hip_experimental=values[10],
        )
        alt = values[11:] if len(values) > 11 else None
    else:
        alt = values[5:]
    if alt_col and alt:
        row.update(
            roc=alt[0],
            roc_library=alt_lib if alt[0] else "",
            roc_added=alt[1],
            roc_deprecated=alt[2],
            roc_changed=alt[3],
            roc_removed=alt[4],
            roc_experimental=alt[5],
        )
    row["kind"] = infer_kind(row["cuda"], section)
    row["unsupported"] = "no" if row["hip"] else "yes"
    return row


def write_tsv(path: Path, columns: list[str], rows: list[dict]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(
            fh,
            columns,
            delimiter="\t",
            lineterminator="\n",
            quoting=csv.QUOTE_NONE,
            escapechar="\\",
        )
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})


def read_tsv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def build_hipext(data: Path) -> list[dict]:
    seen = {r["identifier"]: r for r in read_tsv(data / "hip-identifiers-by-rocm.tsv")}
    out = []
    for row in read_tsv(HERE / "hipext_curated.tsv"):
        evidence = seen.get(row["name"])
        if evidence is None:
            raise ValueError(f"hipext_curated.tsv names {row['name']}, absent from HIP headers")
        row = dict(row)
        row["rocm_added"] = evidence["first_seen_rocm"]
        row["rocm_last_seen"] = evidence["last_seen_rocm"]
        out.append(row)
    return out


HIPEXT_COLUMNS = [
    "name",
    "kind",
    "rocm_added",
    "rocm_last_seen",
    "signature",
    "stands_in_for",
    "cuda_apis",
    "note",
]


def build(data: Path, out: Path) -> dict[str, int]:
    out.mkdir(parents=True, exist_ok=True)
    tables = data / "hipify-tables"
    counts: dict[str, int] = {}
    for family, (fname, alt_col, alt_lib) in FAMILIES.items():
        rows = parse_table(tables / fname, family, alt_col, alt_lib)
        counts[family] = len(rows)
        write_tsv(out / f"{family}.tsv", COLUMNS, rows)
    includes = read_tsv(data / "cuda-include-map.tsv")
    write_tsv(out / "includes.tsv", list(includes[0].keys()), includes)
    write_tsv(out / "hipext.tsv", HIPEXT_COLUMNS, build_hipext(data))
    for name in ("overrides.tsv", "include_overrides.tsv", "additions.tsv"):
        (out / name).write_text((HERE / name).read_text(encoding="utf-8"), encoding="utf-8")
    notice = (tables / "LICENSE.txt").read_text(encoding="utf-8")
    (out / "NOTICE").write_text(
        "The tables in this directory are derived from the API support tables of AMD's\n"
        "HIPIFY project (docs/tables, snapshot of October 2024), used under this license:\n\n"
        + notice,
        encoding="utf-8",
    )
    (out / "counts.json").write_text(json.dumps(counts, indent=2) + "\n", encoding="utf-8")
    __import__("runpy").run_path(str(HERE / "build_arguments.py"))["build"](data, out)
    __import__("runpy").run_path(str(HERE / "build_gate_facts.py"))["build"](data, out)
    __import__("runpy").run_path(str(HERE / "build_facts.py"))["build_facts"](data, out)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "mappings")
    args = parser.parse_args(argv)
    counts = build(args.data, args.out)
    for family, n in counts.items():
        print(f"{family:8} {n}")
    print(f"total    {sum(counts.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
