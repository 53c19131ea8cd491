#!/usr/bin/env python3
"""Build the argument-rewrite, namespace and roc-type tables of mappings/.

    python tools/build_arguments.py [--data ../shared/data] [--out mappings]

tools/build_mappings.py calls `build(data, out)` as part of the full rebuild. Writes:

- `arguments.tsv`: hipify-clang's argument rewrites (hipify-argument-transforms.tsv) plus
  hipport's reviewed rows (tools/argument_additions.tsv), each with the HIP, ROC or MIOpen
  function the rewrite was written for (from the October-2024 tables, the same snapshot as
  the transforms) and that function's parameter count (from the hip-python declarations);
- `namespaces.tsv`: the CUDA namespace map (reviewed, tools/namespaces.tsv);
- `roc_types.tsv`: the ROC-side type names the published tables do not show
  (hipify-roc-names-outside-tables.tsv).

Deterministic, so a test can regenerate the files and compare them with what is committed.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

TRANSFORM_COLUMNS = [
    "cuda_function",
    "variant",
    "applies_to",
    "arg",
    "action",
    "warning",
    "value",
    "move_to",
    "count",
]
ARGUMENT_COLUMNS = [*TRANSFORM_COLUMNS, "hip_function", "hip_arity", "source", "evidence"]
NAMESPACE_COLUMNS = ["cuda_namespace", "hip_namespace", "status", "hint", "evidence"]
ROC_TYPE_COLUMNS = ["cuda", "hip", "roc", "roc_added", "family", "applies_to", "note"]
ACTIONS = frozenset(
    {
        "HIP-SYMBOL",
        "reinterpret-cast",
        "reinterpret-cast-size-t",
        "remove-argument",
        "add-const-argument",
        "add-var-argument",
        "move-argument",
        "replace-argument-with-const",
        "overload-by-arg-count",
        "type-overload",
    }
)
# applies_to -> the name column of the October-2024 tables that side uses
_SIDE_COLUMN = {"hip": "HIP", "roc": "ROC", "miopen": "MIOPEN"}
# Values that stand for a number of the target rather than a constant: the placeholder the
# rule fills in (mappings/README.md, arguments.tsv).
PLACEHOLDERS = {"HIP_VERSION_MAJOR*100+MINOR (the target HIP version)": "{hip_version}"}


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def write_tsv(path: Path, columns: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(
            fh, columns, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE
        )
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in columns})


def snapshot_names(tables: Path) -> dict[str, dict[str, str]]:
    """CUDA name -> {"HIP": name, "ROC": name, "MIOPEN": name} from the October-2024
    tables (the first listing of a name wins; blank cells are left out)."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted(tables.glob("*.md")):
        header: list[str] | None = None
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("|"):
                header = None if line.startswith("#") else header
                continue
            cells = [c.strip().strip("*").strip("`").strip() for c in line.strip("|").split("|")]
            if cells[0] == "CUDA":
                header = cells
                continue
            if header is None or cells[0].startswith(":-") or len(cells) != len(header):
                continue
            names = out.setdefault(cells[0], {})
            for col, cell in zip(header, cells, strict=True):
                if col in _SIDE_COLUMN.values() and cell and col not in names:
                    names[col] = cell
    return out


def hip_arities(hip_python: Path) -> dict[str, int]:
    """HIP function -> its parameter count, from the newest hip-python declaration."""
    out: dict[str, tuple[str, int]] = {}
    for row in read_tsv(hip_python / "hip-identifiers-6.2-to-7.2.tsv"):
        if row["kind"] != "function" or "(" not in row["declaration"]:
            continue
        seen = out.get(row["identifier"])
        if seen is None or seen[0] < row["last_seen_rocm"]:
            out[row["identifier"]] = (row["last_seen_rocm"], _parameters(row["declaration"]))
    return {name: count for name, (_, count) in out.items()}


def _parameters(declaration: str) -> int:
    inside = declaration[declaration.index("(") + 1 : declaration.rindex(")")].strip()
    if inside in ("", "void"):
        return 0
    depth = 0
    count = 1
    for ch in inside:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
    return count


def argument_rows(data: Path) -> list[dict[str, str]]:
    snapshot = snapshot_names(data / "hipify-tables-2024-10")
    arity = hip_arities(data / "hip-python")
    rows: list[dict[str, str]] = []
    imported = read_tsv(data / "hipify-argument-transforms.tsv")
    for row in imported:
        row = dict(row)
        row["source"] = "hipify-argument-transforms.tsv"
        row["evidence"] = ""
        if row["action"] in ("overload-by-arg-count", "type-overload"):
            row["hip_function"] = row["value"]
        else:
            side = _SIDE_COLUMN[row["applies_to"]]
            row["hip_function"] = snapshot.get(row["cuda_function"], {}).get(side, "")
        rows.append(row)
    for row in read_tsv(HERE / "argument_additions.tsv"):
        row = dict(row)
        row["source"] = "tools/argument_additions.tsv"
        rows.append(row)
    for row in rows:
        if row["action"] not in ACTIONS:
            raise ValueError(f"{row['cuda_function']}: unknown action {row['action']!r}")
        if row["applies_to"] not in _SIDE_COLUMN:
            raise ValueError(f"{row['cuda_function']}: unknown applies_to {row['applies_to']!r}")
        if not row["hip_function"]:
            raise ValueError(f"{row['cuda_function']}: no {row['applies_to']} name in the tables")
        row["warning"] = "" if row["warning"] == "None" else row["warning"]
        row["value"] = PLACEHOLDERS.get(row["value"], row["value"])
        count = arity.get(row["hip_function"]) if row["applies_to"] == "hip" else None
        row["hip_arity"] = "" if count is None else str(count)
    return rows


def build(data: Path, out: Path) -> dict[str, int]:
    """Write arguments.tsv, namespaces.tsv and roc_types.tsv into `out`; row counts."""
    out.mkdir(parents=True, exist_ok=True)
    arguments = argument_rows(data)
    write_tsv(out / "arguments.tsv", ARGUMENT_COLUMNS, arguments)
    namespaces = read_tsv(HERE / "namespaces.tsv")
    for row in namespaces:
        if not re.fullmatch(r"[A-Za-z_]\w*", row["cuda_namespace"]):
            raise ValueError(f"namespaces.tsv: bad namespace {row['cuda_namespace']!r}")
    write_tsv(out / "namespaces.tsv", NAMESPACE_COLUMNS, namespaces)
    roc_types = read_tsv(data / "hipify-roc-names-outside-tables.tsv")
    write_tsv(out / "roc_types.tsv", ROC_TYPE_COLUMNS, roc_types)
    return {
        "arguments": len(arguments),
        "namespaces": len(namespaces),
        "roc_types": len(roc_types),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "mappings")
    args = parser.parse_args(argv)
    for name, n in build(args.data, args.out).items():
        print(f"{name:10} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
