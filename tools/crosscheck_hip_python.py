#!/usr/bin/env python3
"""Cross-check the tables' HIP versions with the releases hip-python declares each name in.

    python tools/crosscheck_hip_python.py [--data ../shared/data]

hip-python (../shared/data/hip-python) binds the host API of HIP, hipBLAS, hipSPARSE,
hipSOLVER, hipFFT, hipRAND and hipRTC for ROCm 6.2.0, 6.3.3, 6.4.4, 7.0.2, 7.1.1 and 7.2.2.
For every HIP name the tables map to in those libraries' families (family tables and
history.tsv), a disagreement is one of:

  absent   in force at a production release <= 7.2.2, but declared in no sampled release
  later    the tables have it from release A, but a sampled release >= A does not declare it
  earlier  a sampled release before the tables' release A declares it
  removed  in force at 7.2.2 per the tables, but hip-python stops declaring it before 7.2.2

Each one must be resolved in tools/hip_python_review.tsv (a name pattern, the check, the
resolution and its evidence); tests/test_tables.py fails on one that is not, and on a review
row that matches nothing. Prints the counts.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from hipport.tables.model import Tables  # noqa: E402
from hipport.target import Version  # noqa: E402

# The families whose HIP names live in a library hip-python binds.
COVERED = ("runtime", "driver", "complex", "blas", "rand", "sparse", "solver", "fft", "rtc")


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def disagreements(tables: Tables, data: Path) -> list[tuple[str, str, str]]:
    """(HIP name, check, detail), sorted, one per name and check."""
    present: dict[str, list[Version]] = {}
    for r in _read(data / "hip-python" / "hip-identifiers-6.2-to-7.2.tsv"):
        present.setdefault(r["identifier"], [Version.parse(v) for v in r["present_in"].split(",")])
    samples = sorted({v for vs in present.values() for v in vs})
    newest = samples[-1]
    # name -> (window start, window end, the release the tables say added the name)
    windows: dict[str, list[tuple[Version | None, Version | None, Version | None]]] = {}
    for row in tables.rows:
        if row.family in COVERED and row.hip and row.hip_experimental is None:
            earlier = tables.history.get((row.cuda, row.family), ())
            start = earlier[-1].hip_until if earlier else row.hip_added
            windows.setdefault(row.hip, []).append((start, row.hip_removed, row.hip_added))
    for (_, family), earlier in tables.history.items():
        if family in COVERED:
            for e in earlier:
                windows.setdefault(e.hip, []).append((e.hip_added, e.hip_until, e.hip_added))
    out: set[tuple[str, str, str]] = set()
    for name, spans in windows.items():
        seen = present.get(name)
        for start, end, added in spans:
            if start is not None and start > newest:
                continue  # newer than every sampled release (the preview line)
            if seen is None:
                out.add((name, "absent", f"from {start or 'the start'}"))
                continue
            expected = [
                s for s in samples if (start is None or s >= start) and (end is None or s < end)
            ]
            missing = [s for s in expected if s not in seen]
            if missing and (end is None or missing != [s for s in expected if s >= seen[-1]]):
                out.add((name, "later", f"tables: from {start}; hip-python: from {seen[0]}"))
            if added is not None and seen[0] < added and _line(seen[0]) < _line(added):
                out.add((name, "earlier", f"tables: added in {added}; hip-python: {seen[0]}"))
            if end is None and seen[-1] < newest:
                out.add((name, "removed", f"hip-python: up to {seen[-1]}"))
    return sorted(out)


def _line(v: Version) -> tuple[int, ...]:
    return (v.parts + (0, 0))[:2]


def review(path: Path) -> list[dict[str, str]]:
    return _read(path)


def unresolved(found: list[tuple[str, str, str]], reviewed: list[dict[str, str]]):
    """Disagreements no review row covers, and review rows that cover none."""
    used: set[int] = set()
    missing = []
    for name, check, detail in found:
        hits = [
            i
            for i, r in enumerate(reviewed)
            if r["check"] == check and fnmatch.fnmatchcase(name, r["name"])
        ]
        used.update(hits)
        if not hits:
            missing.append((name, check, detail))
    stale = [r for i, r in enumerate(reviewed) if i not in used]
    return missing, stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args(argv)
    found = disagreements(Tables(ROOT / "mappings"), args.data)
    reviewed = review(HERE / "hip_python_review.tsv")
    missing, stale = unresolved(found, reviewed)
    by_check = Counter(check for _, check, _ in found)
    by_resolution: Counter[str] = Counter()
    for name, check, _ in found:
        for r in reviewed:
            if r["check"] == check and fnmatch.fnmatchcase(name, r["name"]):
                by_resolution[r["resolution"]] += 1
                break
    print(
        f"disagreements  {len(found)}: "
        + ", ".join(f"{k} {v}" for k, v in sorted(by_check.items()))
    )
    print("resolved       " + ", ".join(f"{k} {v}" for k, v in sorted(by_resolution.items())))
    print(f"unresolved     {len(missing)}")
    for item in missing:
        print("  ", *item, sep="\t")
    print(f"stale reviews  {len(stale)}")
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
