"""Argument rewrites, the CUDA namespace map and the roc-mode type names, loaded from
mappings/arguments.tsv, namespaces.tsv and roc_types.tsv (schemas in mappings/README.md).

Loaded once per mappings directory, on first use (hipport.mappings.Mappings.arguments: a
file without a call to rewrite never loads them).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hipport.target import Target, Version
from hipport.tsv import read_tsv

if TYPE_CHECKING:
    from hipport.tables.model import Tables

SYMBOL_WRAPPER = "HIP_SYMBOL"
KERNEL_CAST = "const void*"  # reinterpret-cast's type when the row names none

# The `applies_to` sides and the library a name resolves to on each.
HIP = "hip"
ROC = "roc"
MIOPEN = "miopen"


@dataclass(frozen=True, slots=True)
class ArgumentRewrite:
    """One row of arguments.tsv: one action on one argument of calls to `cuda_function`,
    valid while that call maps to `hip_function` (the HIP, ROC or MIOpen function the
    rewrite was written for; a newer mapping to another function drops the rewrite)."""

    cuda_function: str
    variant: int
    applies_to: str  # hip, roc or miopen
    arg: int | None  # argument index; the argument count for overload-by-arg-count
    action: str
    data_loss: bool
    value: str
    move_to: int | None
    count: int
    hip_function: str
    hip_arity: int | None  # parameters of hip_function, where its declaration is known
    source: str
    evidence: str

    @property
    def values(self) -> list[str]:
        """The constant(s) to add or put in place (a value with a comma adds two)."""
        return [v.strip() for v in self.value.split(",")] if self.value else []


@dataclass(frozen=True, slots=True)
class Namespace:
    cuda: str
    hip: str  # blank: no HIP counterpart
    status: str  # mapped, kept, unsupported or hazard (another rule reports it)
    hint: str
    evidence: str


@dataclass(frozen=True, slots=True)
class RocType:
    cuda: str
    hip: str
    roc: str
    roc_added: Version | None
    family: str
    applies_to: str  # roc, or miopen (only where cuDNN code goes to MIOpen)
    note: str


class ArgumentTables:
    def __init__(self, directory: Path) -> None:
        self.rows = [_rewrite(r) for r in _read(directory / "arguments.tsv")]
        calls: dict[str, list[ArgumentRewrite]] = {}
        self.overloads: dict[str, dict[int, str]] = {}
        self.type_overloads: dict[str, str] = {}
        for row in self.rows:
            if row.action == "overload-by-arg-count" and row.arg is not None:
                self.overloads.setdefault(row.cuda_function, {})[row.arg] = row.value
            elif row.action == "type-overload":
                self.type_overloads[row.cuda_function] = row.value
            else:
                calls.setdefault(row.cuda_function, []).append(row)
        self.calls = {name: tuple(rows) for name, rows in calls.items()}
        self.namespaces = {
            r["cuda_namespace"]: Namespace(
                r["cuda_namespace"], r["hip_namespace"], r["status"], r["hint"], r["evidence"]
            )
            for r in _read(directory / "namespaces.tsv")
        }
        self.roc_types = {
            r["cuda"]: RocType(
                r["cuda"],
                r["hip"],
                r["roc"],
                Version.parse(r["roc_added"]) if r["roc_added"] else None,
                r["family"],
                r["applies_to"],
                r["note"],
            )
            for r in _read(directory / "roc_types.tsv")
        }

    def rewrites(self, cuda_function: str, side: str, hip_function: str) -> list[ArgumentRewrite]:
        """The rows for a call to `cuda_function` that maps to `hip_function` on `side`
        (the lowest variant when a side has several)."""
        rows = [
            r
            for r in self.calls.get(cuda_function, ())
            if r.applies_to == side and r.hip_function == hip_function
        ]
        if rows:
            first = min(r.variant for r in rows)
            rows = [r for r in rows if r.variant == first]
        return rows

    def rows_for(self, name: str) -> list[ArgumentRewrite]:
        """Every row about `name` (a CUDA function or type), for `hipport tables show`."""
        return [r for r in self.rows if r.cuda_function in (name, f"enum {name}")]


def side_of(library: str | None) -> str:
    """The applies_to side of a resolution's library ("hip", a ROCm library, MIOpen)."""
    if library is None or library == "hip":
        return HIP
    return MIOPEN if library == "MIOpen" else ROC


def describe(row: ArgumentRewrite) -> str:
    """One rewrite in words (the hint of HIP021, `hipport tables show`)."""
    n = (row.arg or 0) + 1
    match row.action:
        case "HIP-SYMBOL":
            return f"wrap argument {n} in {SYMBOL_WRAPPER}(...)"
        case "reinterpret-cast":
            return f"cast argument {n} to {row.value or KERNEL_CAST}"
        case "reinterpret-cast-size-t":
            return f"cast argument {n} to size_t*"
        case "remove-argument":
            return f"drop argument {n}" + (" (information is lost)" if row.data_loss else "")
        case "move-argument":
            what = f"arguments {n}-{n + row.count - 1}" if row.count > 1 else f"argument {n}"
            return f"move {what} before argument {(row.move_to or 0) + 1}"
        case "replace-argument-with-const":
            return f"replace argument {n} with {row.value}"
        case "add-const-argument":
            return f"add {row.value} as argument {n} (append when the call has fewer)"
        case "add-var-argument":
            return f"pass argument {n} again as argument {(row.move_to or 0) + 1}"
        case "overload-by-arg-count":
            return f"with {row.arg} arguments, call {row.value}"
        case "type-overload":
            return f"spell the type {row.value}"
    return row.action


def rewrites_for(
    tables: Tables, arguments: ArgumentTables, name: str, target: Target
) -> list[dict[str, object]]:
    """Every argument rewrite about CUDA `name`, and whether it applies for `target` (the
    call must map to the function the row was written for, on the row's side)."""
    from hipport.tables.lookup import Status, resolve

    res = resolve(tables, name, target)
    side = side_of(res.library)
    out: list[dict[str, object]] = []
    for row in arguments.rows_for(name):
        if row.action in ("overload-by-arg-count", "type-overload"):
            applies = side == row.applies_to == HIP and res.status is Status.MAPPED
            why = "on the hip path" if applies else f"only on the {row.applies_to} path"
        elif res.status is not Status.MAPPED:
            applies, why = False, f"{name} is not renamed for this target ({res.status.value})"
        elif row.applies_to != side:
            applies, why = False, f"only when {name} maps to the {row.applies_to} side"
        elif row.hip_function != res.new_name:
            applies = False
            why = f"written for {row.hip_function}; {name} maps to {res.new_name} here"
        else:
            applies, why = True, f"{name} -> {res.new_name}"
        out.append(
            {
                "rewrite": describe(row),
                "action": row.action,
                "argument": row.arg,
                "value": row.value or None,
                "applies_to": row.applies_to,
                "for_function": row.hip_function,
                "data_loss": row.data_loss,
                "applies": applies,
                "why": why,
                "source": row.source,
            }
        )
    return out


def namespace_rule(arguments: ArgumentTables, name: str) -> dict[str, str] | None:
    """The namespace map's row for `name` (a CUDA namespace, e.g. cub), if any."""
    ns = arguments.namespaces.get(name.removesuffix("::"))
    if ns is None:
        return None
    return {
        "namespace": ns.cuda,
        "hip_namespace": ns.hip or None,
        "status": ns.status,
        "hint": ns.hint or None,
        "evidence": ns.evidence,
    }


def _read(path: Path) -> list[dict[str, str]]:
    """A table's rows; a mappings directory without the file (a hand-made one) has none."""
    return read_tsv(path, optional=True)


def _int(text: str) -> int | None:
    return int(text) if text else None


def _rewrite(r: dict[str, str]) -> ArgumentRewrite:
    return ArgumentRewrite(
        r["cuda_function"],
        int(r["variant"]),
        r["applies_to"],
        _int(r["arg"]),
        r["action"],
        r["warning"] == "DataLoss",
        r["value"],
        _int(r["move_to"]),
        int(r["count"] or 1),
        r["hip_function"],
        _int(r["hip_arity"]),
        r["source"],
        r["evidence"],
    )
