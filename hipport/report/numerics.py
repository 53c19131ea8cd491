"""Which number formats a translation keeps or changes, so a reviewer sees it: one line per
fp8, bf16 or fp16 format the code's translated type names hold, in the summary of `translate`
and `check` and as a field of the JSON reports, e.g.

    fp8: OCP e4m3 kept as OCP (__nv_fp8_e4m3 -> __hip_fp8_e4m3)
    bf16: bfloat16 kept as bfloat16 (nv_bfloat16 -> hip_bfloat16): the legacy struct ...

Which name holds which format is data (mappings/numeric_types.tsv, `Mappings.numeric_types`),
never decided here. The input is the (CUDA name, name in the output, uses) triples of a run:
from the results' uses, or from a cached file's summary (FileInfo.numerics) when the run
did not load its result, so a warm run prints what a cold one does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hipport.facts import NumericTypes
from hipport.tables import Status

# (the CUDA name, the name the translated code has, how many uses)
NumericUse = tuple[str, str, int]


def numeric_uses(uses: Iterable[Any], types: NumericTypes) -> tuple[NumericUse, ...]:
    """The translated (mapped) uses of the CUDA numeric type names, counted per rename."""
    counts: Counter[tuple[str, str]] = Counter()
    for use in uses:
        if use.status is Status.MAPPED and use.api in types.cuda:
            counts[(use.api, use.new_name or use.api)] += 1
    return tuple((a, b, n) for (a, b), n in sorted(counts.items()))


@dataclass(frozen=True)
class FormatChange:
    """One number format of the CUDA code and what the translation made of it."""

    family: str  # fp8, bf16, fp16
    cuda_format: str  # OCP e4m3
    hip_format: str | None  # the format the output's names hold (None: a name of no known one)
    hip_standard: str | None
    note: str  # what the output's type needs a reviewer to know ("" if nothing)
    renames: tuple[tuple[str, str], ...]  # (CUDA name, output name), sorted
    uses: int

    @property
    def kept(self) -> bool:
        return self.hip_format == self.cuda_format

    def line(self) -> str:
        names = ", ".join(f"{a} -> {b}" for a, b in self.renames)
        if self.hip_format is None:
            return (
                f"{self.family}: {self.cuda_format} changed to a type of no known number "
                f"format ({names})"
            )
        if self.kept:  # "OCP e4m3 kept as OCP", "bfloat16 kept"
            kept_as = "" if self.hip_standard == self.cuda_format else f" as {self.hip_standard}"
            head = f"{self.family}: {self.cuda_format} kept{kept_as} ({names})"
        else:
            head = f"{self.family}: {self.cuda_format} changed to {self.hip_format} ({names})"
        return f"{head}: {self.note}" if self.note else head

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "cuda_format": self.cuda_format,
            "hip_format": self.hip_format,
            "kept": self.kept,
            "renames": [{"cuda": a, "hip": b} for a, b in self.renames],
            "uses": self.uses,
            "note": self.note,
            "line": self.line(),
        }


def format_changes(uses: Iterable[NumericUse], types: NumericTypes) -> list[FormatChange]:
    """The run's numeric uses grouped by what happened to their format (see _order)."""
    groups: dict[tuple[str, str, str | None, str | None, str], Counter[tuple[str, str]]] = {}
    for cuda, hip, n in uses:
        source = types.cuda.get(cuda)
        if source is None:  # the run's uses named a type these facts do not know
            continue
        made = types.hip.get(hip)
        key = (
            source.family,
            source.format,
            made.format if made else None,
            made.standard if made else None,
            made.note if made else "",
        )
        groups.setdefault(key, Counter())[(cuda, hip)] += n
    return [
        FormatChange(family, cuda_fmt, hip_fmt, standard, note, tuple(sorted(c)), sum(c.values()))
        for (family, cuda_fmt, hip_fmt, standard, note), c in sorted(groups.items(), key=_order)
    ]


def _order(item: tuple[tuple[str, str, str | None, str | None, str], Any]) -> tuple:
    """Family, then CUDA format, then the output's format (a name of no known format last)."""
    family, cuda_fmt, hip_fmt, _, note = item[0]
    return (family, cuda_fmt, hip_fmt is None, hip_fmt or "", note)
