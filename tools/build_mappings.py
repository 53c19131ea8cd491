#!/usr/bin/env python3
"""Rebuild mappings/ from the reference data in ../shared/data.

    python tools/build_mappings.py [--data ../shared/data] [--out mappings]

Reads HIPIFY's newest per-family markdown tables, its October-2024 snapshot and hip-python's
per-release identifier lists (for the older mappings), the include map and the HIP
identifier scan, and writes one TSV per family plus history.tsv, includes.tsv, hipext.tsv
(from tools/hipext_curated.tsv, versioned by the identifier scan), copies of the reviewed
corrections kept by hand in tools/ (overrides.tsv, additions.tsv, include_overrides.tsv,
conditions.tsv, alternatives.tsv),
counts.json, NOTICE, and evidence.tsv (tools/build_evidence.py: where Debian's HIP 5.2
headers, the HIP 6.3 headers and the identifier lists show each mapped name; it prints the
entries whose evidence contradicts the tables). The output is deterministic, so a
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

# family -> (source file, alternative (ROC-side) library). The `_HIP_and_ROC` files are the
# authority where they exist; cuDNN is published for MIOpen only (its one name column is the
# ROC side, there is no hip* wrapper).
FAMILIES: dict[str, tuple[str, str | None]] = {
    "runtime": ("CUDA_Runtime_API_functions_supported_by_HIP.md", None),
    "driver": ("CUDA_Driver_API_functions_supported_by_HIP.md", None),
    "device": ("CUDA_Device_API_supported_by_HIP.md", None),
    "complex": ("cuComplex_API_supported_by_HIP.md", None),
    "blas": ("CUBLAS_API_supported_by_HIP_and_ROC.md", "rocBLAS"),
    "rand": ("CURAND_API_supported_by_HIP_and_ROC.md", "rocRAND"),
    "sparse": ("CUSPARSE_API_supported_by_HIP_and_ROC.md", "rocSPARSE"),
    "solver": ("CUSOLVER_API_supported_by_HIP_and_ROC.md", "rocSOLVER"),
    "fft": ("CUFFT_API_supported_by_HIP.md", None),
    "dnn": ("CUDNN_API_supported_by_MIOPEN.md", "MIOpen"),
    "cub": ("CUB_API_supported_by_HIP.md", None),
    "rtc": ("CUDA_RTC_API_supported_by_HIP.md", None),
    "tensor": ("CUTENSOR_API_supported_by_HIP.md", None),
    "sparselt": ("CUSPARSELT_API_supported_by_HIP.md", None),
    "file": ("cuFile_API_supported_by_HIP.md", None),
}

# Families whose CUDA-side versions are the library's own (cuDNN 9.x, cuTENSOR 2.x, ...), not
# CUDA toolkit releases.
OWN_VERSIONS = frozenset({"dnn", "tensor", "sparselt", "file"})

# The name columns of a table header and the prefix of the columns that follow each.
_NAME_COLUMNS = {"CUDA": "cuda", "HIP": "hip", "ROC": "roc", "MIOPEN": "roc"}
_LETTER_COLUMNS = {
    "A": "added",
    "D": "deprecated",
    "C": "changed",
    "R": "removed",
    "U": "U",
    "E": "experimental",
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
    "cuda_unsupported",
]

_SECTION_RE = re.compile(r"^##\s+\*\*(?:\d+\.\s*)?(.*?)\*\*\s*$")
_TYPE_SECTION_RE = re.compile(r"\btypes\b", re.IGNORECASE)
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
    """A cell's text; a cell listing several versions (`7.1.0, 7.13.0`, `11.3 11.4`) is
    written comma-separated, without spaces."""
    text = text.strip().strip("`").strip()
    if re.fullmatch(r"\d+(\.\d+)*([ ,]+\d+(\.\d+)*)+", text):
        return ",".join(re.split(r"[ ,]+", text))
    return text


def parse_table(path: Path, family: str, alt_lib: str | None) -> list[dict]:
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
            header = _header_columns([c.strip("*") for c in cells], path.name)
            continue
        if header is None or cells[0].startswith(":-"):
            continue
        rows.append(_row(cells, header, family, section, alt_lib, path.name))
    return rows


def _header_columns(header: list[str], source: str) -> list[str]:
    """`CUDA A D C R HIP A D C R [U] E [ROC A D C R [U] E]` -> our column names. A U column
    belongs to the CUDA side whichever name group it sits in (the mapping does not hold from
    that CUDA release); only the HIP group's is kept (the HIP view is the authority)."""
    out: list[str] = []
    prefix = ""
    for cell in header:
        if cell in _NAME_COLUMNS:
            prefix = _NAME_COLUMNS[cell]
            out.append(prefix)
        elif cell in _LETTER_COLUMNS:
            out.append(f"{prefix}_{_LETTER_COLUMNS[cell]}")
        else:
            raise ValueError(f"{source}: unknown header cell {cell!r}")
    return out


def _row(cells, header, family, section, alt_lib, source) -> dict:
    if len(cells) != len(header):
        raise ValueError(f"{source}: row has {len(cells)} cells, header {len(header)}: {cells}")
    values = dict(zip(header, (_cell(c) for c in cells), strict=True))
    row = dict.fromkeys(COLUMNS, "")
    row.update((k, v) for k, v in values.items() if k in row)
    row.update(family=family, section=section)
    row["cuda_unsupported"] = values.get("hip_U", "")
    if row["roc"]:
        row["roc_library"] = alt_lib or ""
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


# The October-2024 snapshot's file for a family where the newest tables renamed it.
HISTORY_FILES = {"dnn": "CUDNN_API_supported_by_HIP_and_MIOPEN.md"}
HISTORY_COLUMNS = [
    "cuda",
    "family",
    "hip",
    "hip_added",
    "hip_experimental",
    "hip_until",
    "evidence",
]


def _first_rows(rows: list[dict]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for row in rows:
        out.setdefault(row["cuda"], row)
    return out


def _newest(cell: str) -> str:
    """The newest version a cell lists (`7.1.0,7.13.0` -> `7.13.0`)."""
    return max(cell.split(","), key=_version_key) if cell else ""


def _version_key(text: str) -> tuple[int, ...]:
    parts = [int(p) for p in text.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


class HipPython:
    """Which sampled ROCm releases declare each identifier (../shared/data/hip-python)."""

    def __init__(self, data: Path) -> None:
        rows = read_tsv(data / "hip-python" / "hip-identifiers-6.2-to-7.2.tsv")
        self.releases = sorted(
            {v for r in rows for v in r["present_in"].split(",")}, key=_version_key
        )
        self.seen = {r["identifier"]: r["present_in"].split(",") for r in rows}

    def gone_in(self, name: str) -> str | None:
        """The release line (X.Y.0) by which hip-python stopped declaring `name`, if it did."""
        present = self.seen.get(name)
        if not present or present[-1] == self.releases[-1]:
            return None
        following = self.releases[self.releases.index(present[-1]) + 1]
        major, minor = following.split(".")[:2]
        return f"{major}.{minor}.0"


def _switch(old: dict, new: dict, hip_python: HipPython) -> tuple[str, str] | None:
    """From which ROCm release the newest mapping replaces the older one, and why."""
    changed = _newest(new["hip_changed"])
    if new["hip"] and changed and _version_key(changed) > _version_key(old["hip_added"]):
        return changed, f"the newest table maps it to {new['hip']}, changed in {changed}"
    if old["hip_removed"]:
        return old["hip_removed"], f"the 2024 snapshot has {old['hip']} removed in that release"
    gone = hip_python.gone_in(old["hip"])
    if gone:
        last = hip_python.seen[old["hip"]][-1]
        return gone, f"hip-python declares {old['hip']} up to {last}, not after"
    added = new["hip_added"]
    if new["hip"] and added and _version_key(added) > _version_key(old["hip_added"]):
        return added, f"{new['hip']} appears in {added} (newest table)"
    return None


def build_history(data: Path, newest: dict[str, list[dict]], overrides: list[dict]) -> list[dict]:
    """Older mappings of names whose HIP counterpart changed: the October-2024 snapshot's HIP
    name where the newest tables give another, valid from its own release until the release
    in which the newest mapping takes over (see `_switch`). Rows of the snapshot without a HIP
    version (hipDNN, which ROCm does not ship) give no history."""
    hip_python = HipPython(data)
    corrected = {(o["cuda"], o["family"]): o for o in overrides}
    out = []
    for family, (fname, alt_lib) in FAMILIES.items():
        path = data / "hipify-tables-2024-10" / HISTORY_FILES.get(family, fname)
        if not path.exists():
            continue
        old_rows = _first_rows(parse_table(path, family, alt_lib))
        for row in _first_rows(newest[family]).values():
            old = old_rows.get(row["cuda"])
            if not old or not old["hip"] or not old["hip_added"] or old["hip"] == row["hip"]:
                continue
            fix = corrected.get((row["cuda"], family), {})
            new = dict(row, hip=fix.get("hip") or row["hip"])
            new["hip_added"] = fix.get("hip_added") or row["hip_added"]
            switch = _switch(old, new, hip_python)
            if switch is None:
                continue
            until, why = switch
            out.append(
                {
                    "cuda": row["cuda"],
                    "family": family,
                    "hip": old["hip"],
                    "hip_added": old["hip_added"],
                    "hip_experimental": old["hip_experimental"],
                    "hip_until": until,
                    "evidence": f"HIPIFY 2024-10: {row['cuda']} -> {old['hip']} "
                    f"(HIP {old['hip_added']}); {why}",
                }
            )
    return out


def history_additions(newest: dict[str, list[dict]]) -> list[dict]:
    """Reviewed older mappings the 2024 snapshot lacks (tools/history_additions.tsv: a CUDA
    typedef HIPIFY did not list then, mapped as the name it stands for was)."""
    rows = read_tsv(HERE / "history_additions.tsv")
    for row in rows:
        if not any(r["cuda"] == row["cuda"] for r in newest.get(row["family"], ())):
            raise ValueError(f"history_additions.tsv: {row['cuda']} is not in {row['family']}")
        if not row["evidence"].strip():
            raise ValueError(f"history_additions.tsv: {row['cuda']} has no evidence")
    return rows


RELEASE_COLUMNS = ["product", "version", "line", "sources"]
_HIP_VERSION_COLUMNS = (
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
_CUDA_VERSION_COLUMNS = (
    "cuda_added",
    "cuda_deprecated",
    "cuda_changed",
    "cuda_removed",
    "cuda_unsupported",
)


def _release_line(product: str, version: str, lines: list[dict]) -> str:
    """`production`/`preview` for a ROCm release (tools/release_lines.tsv), `release` for CUDA."""
    major, minor = (int(p) for p in (version.split(".") + ["0"])[:2])
    for rule in lines:
        if (
            rule["product"] == product
            and int(rule["major"]) == major
            and int(rule["minor_from"]) <= minor <= int(rule["minor_to"])
        ):
            return rule["line"]
    return "production" if product == "rocm" else "release"


def build_releases(data: Path, newest: dict[str, list[dict]], history: list[dict]) -> list[dict]:
    """Every ROCm and CUDA release the data names: ROCm releases from the HIP/ROC version
    columns, history.tsv and hip-python's sampled releases; CUDA releases from the CUDA
    version columns of the toolkit families (cuDNN, cuTENSOR, ... have versions of their own)."""
    sources: dict[tuple[str, str], set[str]] = {}

    def note(product: str, cell: str, source: str) -> None:
        for version in filter(None, cell.split(",")):
            sources.setdefault((product, version), set()).add(source)

    for family, rows in newest.items():
        for row in rows:
            for column in _HIP_VERSION_COLUMNS:
                note("rocm", row[column], "hipify")
            if family not in OWN_VERSIONS:
                for column in _CUDA_VERSION_COLUMNS:
                    note("cuda", row[column], "hipify")
    for row in history:
        note("rocm", row["hip_added"], "hipify-2024-10")
    for release in HipPython(data).releases:
        note("rocm", release, "hip-python")
    lines = read_tsv(HERE / "release_lines.tsv")
    return [
        {
            "product": product,
            "version": version,
            "line": _release_line(product, version, lines),
            "sources": ",".join(sorted(sources[(product, version)])),
        }
        for product, version in sorted(sources, key=lambda k: (k[0] != "rocm", _version_key(k[1])))
    ]


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


def notice_text(data: Path) -> str:
    """HIPIFY's MIT notice (its newest tables and the October-2024 snapshot) and
    hip-python's (the per-release identifier sets behind history.tsv)."""
    hipify = (data / "hipify-tables" / "LICENSE.txt").read_text(encoding="utf-8")
    readme = (data / "hip-python" / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```\n(MIT License\n.*?)```", readme, re.S)
    if match is None:
        raise ValueError("hip-python/README.md: no license block")
    return (
        "The tables in this directory are derived from the API support tables of AMD's\n"
        "HIPIFY project (docs/reference/tables: the 2026 tables, CUDA up to 13.2 and HIP up\n"
        "to 7.14, and the October-2024 snapshot, CUDA up to 12.6 and HIP up to 6.3, for the\n"
        "older mappings in history.tsv), used under this license:\n\n"
        + hipify
        + "\nThe release history in history.tsv and the cross-check of HIP versions also use\n"
        "the identifier lists of AMD's hip-python and hip-python-interop bindings (ROCm\n"
        "6.2.0, 6.3.3, 6.4.4, 7.0.2, 7.1.1 and 7.2.2), used under this license:\n\n"
        + match.group(1)
        + "\nevidence.tsv names the header and line where HIP's headers declare each mapped\n"
        "name (Debian's HIP 5.2 and the HIP 6.3 runtime headers of ROCm/HIP and ROCm/clr),\n"
        "which are under this license:\n\n"
        + (data.parent / "hip-6.3" / "LICENSE.txt").read_text(encoding="utf-8")
    )


def build(data: Path, out: Path) -> dict[str, int]:
    out.mkdir(parents=True, exist_ok=True)
    tables = data / "hipify-tables"
    counts: dict[str, int] = {}
    newest: dict[str, list[dict]] = {}
    for family, (fname, alt_lib) in FAMILIES.items():
        rows = newest[family] = parse_table(tables / fname, family, alt_lib)
        counts[family] = len(rows)
        write_tsv(out / f"{family}.tsv", COLUMNS, rows)
    history = build_history(data, newest, read_tsv(HERE / "overrides.tsv"))
    history += history_additions(newest)
    write_tsv(out / "history.tsv", HISTORY_COLUMNS, history)
    write_tsv(out / "releases.tsv", RELEASE_COLUMNS, build_releases(data, newest, history))
    includes = read_tsv(data / "cuda-include-map.tsv")
    write_tsv(out / "includes.tsv", list(includes[0].keys()), includes)
    write_tsv(out / "hipext.tsv", HIPEXT_COLUMNS, build_hipext(data))
    for name in (
        "overrides.tsv",
        "include_overrides.tsv",
        "additions.tsv",
        "conditions.tsv",
        "alternatives.tsv",
    ):
        (out / name).write_text((HERE / name).read_text(encoding="utf-8"), encoding="utf-8")
    (out / "NOTICE").write_text(notice_text(data), encoding="utf-8")
    (out / "counts.json").write_text(json.dumps(counts, indent=2) + "\n", encoding="utf-8")
    __import__("runpy").run_path(str(HERE / "build_arguments.py"))["build"](data, out)
    __import__("runpy").run_path(str(HERE / "build_gate_facts.py"))["build"](data, out)
    __import__("runpy").run_path(str(HERE / "build_facts.py"))["build_facts"](data, out)
    contradictions = __import__("runpy").run_path(str(HERE / "build_evidence.py"))["build"](
        data, out
    )
    for row in contradictions:
        print(
            f"evidence contradicts the tables: {row['cuda']} -> {row['hip']} ({row['family']}): "
            f"the table has it from {row['table_added']}, the headers lack it "
            f"(HIP 5.2: {row['hip_5_2'] or '-'}, HIP 6.3: {row['hip_6_3'] or '-'}); "
            f"checked from {row['check_added'] or 'never'}"
        )
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
