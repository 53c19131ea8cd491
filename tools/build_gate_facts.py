"""The gate's reviewed facts -> mappings/ (called by tools/build_mappings.py).

Two outputs:

* `gate_facts.tsv`: CUDA constructs that compile for CUDA and not for HIP, kept by hand in
  tools/gate_facts.tsv with their evidence (device functions and attributes HIP lacks,
  default arguments HIP's functions lack, nvcc's predefined macros, CUDA macros that expand
  to nothing on Linux and that HIP does not define, functions whose overloads a built-in
  coordinate argument makes ambiguous, CUDA's unsigned min/max functions and the
  system-scope atomics translate rewrites). Each row is checked
  against the header scan in ../shared/data: a name the scan shows in HIP's headers gets
  that release as `hip_added` (the fact stops holding there), so the evidence decides.
* `cuda_headers.tsv`: the header names NVIDIA ships (cuda-toolkit-headers.tsv), so the
  include rule knows a CUDA header it has no mapping for.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
FACTS = HERE / "gate_facts.tsv"
COLUMNS = [
    "cuda",
    "kind",
    "hip_added",
    "checked_absent_in",
    "failing_arg_counts",
    "hip_min_args",
    "defaults",
    "instead",
    "evidence",
]
KINDS = frozenset(
    {
        "device-function",
        "attribute",
        "default-argument",
        "macro",
        "empty-macro",
        "coordinate-argument",
        "unsigned-min-max",
        "system-atomic",
    }
)
# an unsigned-min-max row's `instead`: the HIP function with both arguments cast to the CUDA
# function's parameter type (translate applies it: hipport/rules/unsigned_min_max.py)
UNSIGNED_MIN_MAX = re.compile(r"(min|max)\(\(([a-z ]+)\)\(a\), \(\2\)\(b\)\)")
_VERSION = re.compile(r"\d+(?:\.\d+)*(?:-dev)?")


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def _write(path: Path, columns: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write("\t".join(columns) + "\n")
        for row in rows:
            fh.write("\t".join(row[c] for c in columns) + "\n")


def gate_facts(data: Path) -> list[dict[str, str]]:
    """The reviewed rows, validated, with `hip_added` taken from the header scan."""
    scan = {r["cuda_device_name"]: r for r in _read(data / "cuda-device-names-in-hip-headers.tsv")}
    rows = []
    seen: set[str] = set()
    for row in _read(FACTS):
        name, kind = row["cuda"], row["kind"]
        if kind not in KINDS:
            raise ValueError(f"gate_facts.tsv: {name}: unknown kind {kind!r}")
        if name in seen:
            raise ValueError(f"gate_facts.tsv: {name} listed twice")
        seen.add(name)
        if not _VERSION.fullmatch(row["checked_absent_in"]) or not row["evidence"]:
            raise ValueError(f"gate_facts.tsv: {name}: needs checked_absent_in and evidence")
        if kind == "default-argument" and not (row["failing_arg_counts"] and row["hip_min_args"]):
            raise ValueError(f"gate_facts.tsv: {name}: default-argument needs both arg columns")
        if kind == "default-argument":
            counts = [int(n) for n in row["failing_arg_counts"].split(",")]
            values = [v for v in row["defaults"].split(",") if v.strip()]
            if len(values) != int(row["hip_min_args"]) - min(counts):
                raise ValueError(f"gate_facts.tsv: {name}: one default per missing argument")
        elif row["defaults"]:
            raise ValueError(f"gate_facts.tsv: {name}: defaults are for default-argument rows")
        if kind == "unsigned-min-max" and not UNSIGNED_MIN_MAX.fullmatch(row["instead"]):
            raise ValueError(f"gate_facts.tsv: {name}: instead must read min((T)(a), (T)(b))")
        found = scan.get(name)
        if found is not None and not row["hip_added"]:
            row = {**row, "hip_added": found["first_seen_rocm"]}
        rows.append(row)
    return sorted(rows, key=lambda r: (r["kind"], r["cuda"]))


def build(data: Path, out: Path) -> None:
    _write(out / "gate_facts.tsv", COLUMNS, gate_facts(data))
    headers = _read(data / "cuda-toolkit-headers.tsv")
    _write(out / "cuda_headers.tsv", ["header", "kind"], sorted(headers, key=lambda r: r["header"]))
