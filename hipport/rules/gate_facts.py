"""The gate's versioned facts (mappings/gate_facts.tsv, mappings/cuda_headers.tsv), loaded
once, and the verdict they give for a target: an error where the evidence covers the
target release, a warning where it does not."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache

from hipport.findings import Severity
from hipport.tables.model import mappings_dir
from hipport.target import Target, Version


@dataclass(frozen=True)
class GateFact:
    cuda: str
    kind: str  # device-function, attribute, default-argument, macro
    hip_added: Version | None  # the first release whose HIP headers have it (from the scan)
    checked_absent_in: Version  # the newest release the evidence covers
    failing_arg_counts: frozenset[int]  # call arities CUDA accepts and HIP rejects
    hip_min_args: int | None
    instead: str
    evidence: str


@cache
def gate_facts() -> dict[str, GateFact]:
    """CUDA name -> its fact."""
    out = {}
    with (mappings_dir() / "gate_facts.tsv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            out[row["cuda"]] = GateFact(
                row["cuda"],
                row["kind"],
                Version.parse(row["hip_added"]) if row["hip_added"] else None,
                Version.parse(row["checked_absent_in"]),
                frozenset(int(n) for n in row["failing_arg_counts"].split(",") if n),
                int(row["hip_min_args"]) if row["hip_min_args"] else None,
                row["instead"],
                row["evidence"],
            )
    return out


def facts_of_kind(kind: str) -> dict[str, GateFact]:
    return {name: f for name, f in gate_facts().items() if f.kind == kind}


@cache
def macro_names() -> frozenset[str]:
    """nvcc's predefined macros (which hipcc does not define)."""
    return frozenset(facts_of_kind("macro"))


# Kinds of NVIDIA header whose paths ROCm keeps (rocThrust ships thrust/...): not unmapped.
KEPT_BY_ROCM = frozenset({"thrust"})


@cache
def cuda_header_kinds() -> dict[str, str]:
    """Header name NVIDIA ships -> its kind (toolkit, libcu++, cub, thrust, library ...)."""
    with (mappings_dir() / "cuda_headers.tsv").open(encoding="utf-8", newline="") as fh:
        return {r["header"]: r["kind"] for r in csv.DictReader(fh, delimiter="\t")}


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
