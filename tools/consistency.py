#!/usr/bin/env python3
"""The gate's yardstick: translate every program of tests/consistency for a ROCm release,
compile it with that release's HIP (syntax only: Debian's HIP 5.2 hipcc, or the HIP 6.3
headers in ../shared/hip-6.3 with clang-15, tools/hip63.py), and compare "check reports an
error" with "the compiler rejects it", program by program.

    python tools/consistency.py [--rocm 5.2|6.3] [--jobs 2] [--json out.json]

A program may include shared headers of the corpus with quotes (`#include "common/helper_x.h"`,
resolved beside the including file): they are translated with it, as one project (the
preprocessor model follows the includes), written beside it, and their error findings count
as the program's.

A disagreement is allowed only when tests/consistency/DISAGREEMENTS.tsv lists the program
for that release (its `rocm` column) with the disagreement seen and the reviewed reason
(e.g. a header Debian's HIP lacks).
Prints each verdict, then the gate's precision and recall on the corpus (a program the
gate reports is a predicted failure; a program the compiler rejects is a real one).
tests/test_consistency.py runs the same check in CI.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "tests" / "consistency"
REVIEWED = CORPUS / "DISAGREEMENTS.tsv"
ROCM = "5.2"
RELEASES = ("5.2", "6.3")  # the releases whose HIP compiles here
# the two ways the gate and the compiler can disagree
MISSED = "compiler-rejects-without-error"
FALSE_ALARM = "error-but-compiles"


@dataclass
class Verdict:
    program: str
    errors: list[str] = field(default_factory=list)  # "CODE api" of the error findings
    compiles: bool = False
    first_error: str | None = None

    @property
    def disagreement(self) -> str | None:
        if bool(self.errors) == (not self.compiles):
            return None
        return MISSED if not self.compiles else FALSE_ALARM


_QUOTE_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def programs() -> list[Path]:
    return sorted(CORPUS.glob("*.cu"))


def local_headers(program: Path) -> list[Path]:
    """The corpus headers a program includes with quotes, transitively, each resolved beside
    the file that includes it (as the compiler finds a quote include)."""
    found: set[Path] = set()
    todo = [program]
    while todo:
        current = todo.pop()
        for match in _QUOTE_INCLUDE.finditer(current.read_bytes()):
            header = (current.parent / match.group(1).decode()).resolve()
            if header.is_file() and header.is_relative_to(CORPUS) and header not in found:
                found.add(header)
                todo.append(header)
    return sorted(found)


def _project_options(files: list[Path], target):
    """The engine options `hipport check` gives a project of these files (the model's view
    of the project's headers)."""
    from hipport.fsio import DEFAULT_MAX_FILE_SIZE
    from hipport.options import EngineOptions
    from hipport.project import ProjectFile
    from hipport.runner.project_macros import project_headers

    work = [ProjectFile(f, f.relative_to(CORPUS).as_posix(), "source") for f in files]
    headers = project_headers(work, CORPUS, target, (), {}, DEFAULT_MAX_FILE_SIZE)
    return EngineOptions(headers=headers)


def reviewed(rocm: str = ROCM) -> dict[str, tuple[str, str]]:
    """program -> (disagreement, reason) from the reviewed list, for one release."""
    with REVIEWED.open(encoding="utf-8", newline="") as fh:
        rows = csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t")
        return {r["program"]: (r["disagreement"], r["reason"]) for r in rows if r["rocm"] == rocm}


def translate(program: Path, target) -> list:
    """The translations of a program and of the corpus headers it includes (`TranslationResult`,
    the program's first): a program with headers is a small project of its own."""
    from hipport.engine import translate_source

    headers = local_headers(program)
    options = _project_options([program, *headers], target) if headers else None
    results = []
    for source in (program, *headers):
        rel = source.relative_to(CORPUS).as_posix()
        result = translate_source(source.read_bytes(), rel, target, options)
        if result.error:
            raise RuntimeError(f"{rel}: {result.error}")
        results.append(result)
    return results


def check(jobs: int = 2, rocm: str = ROCM) -> tuple[list[Verdict], dict]:
    from hipport.target import Target
    from hipport.verify import compile_many, find_compiler, hip_version
    from tools.hip63 import OFFLOAD_ARCH, hip63_compiler

    if rocm == "6.3":
        compiler, arch, include, version = hip63_compiler(), OFFLOAD_ARCH, [], None
    else:
        compiler, arch, include, version = find_compiler(), "gfx90a", [Path("/usr/include")], None
        version = hip_version()
    if compiler is None:
        raise RuntimeError(f"no HIP {rocm} compiler (tests/setup-system.sh)")
    start = time.perf_counter()
    target = Target(rocm=rocm)
    verdicts: list[Verdict] = []
    with tempfile.TemporaryDirectory(prefix="hipport-consistency-") as tmp:
        paths = []
        for program in programs():
            headers = local_headers(program)
            folder = Path(tmp) / program.stem if headers else Path(tmp)
            errors: set[str] = set()
            for source, result in zip((program, *headers), translate(program, target), strict=True):
                rel = result.path
                out = folder / rel
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(result.output)
                where = "" if source == program else f" ({rel})"
                errors |= {
                    f"{f.code} {f.api}{where}"
                    for f in result.findings
                    if f.severity.value == "error"
                }
            paths.append(folder / program.name)
            verdicts.append(Verdict(program.name, sorted(errors)))
        results = compile_many(compiler, paths, arch, include, version, jobs)
        for verdict, compiled in zip(verdicts, results, strict=True):
            verdict.compiles = compiled.ok
            verdict.first_error = (compiled.first_error or "").replace(tmp + "/", "") or None
    return verdicts, figure(verdicts, time.perf_counter() - start, rocm)


def figure(verdicts: list[Verdict], seconds: float, rocm: str = ROCM) -> dict:
    reported = [v for v in verdicts if v.errors]
    rejected = [v for v in verdicts if not v.compiles]
    both = [v for v in reported if not v.compiles]
    return {
        "rocm": rocm,
        "programs": len(verdicts),
        "compile_failures": len(rejected),
        "failures_with_an_error_finding": len(both),
        "programs_with_errors_that_compile": len(reported) - len(both),
        "precision": round(len(both) / len(reported), 3) if reported else None,
        "recall": round(len(both) / len(rejected), 3) if rejected else None,
        "seconds": round(seconds, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rocm", choices=RELEASES, default=ROCM)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    verdicts, fig = check(args.jobs, args.rocm)
    known = reviewed(args.rocm)
    unexplained = 0
    for v in verdicts:
        state = "compiles" if v.compiles else "REJECTED"
        line = f"{v.program:34} {state:9} {', '.join(v.errors) or '-'}"
        if v.disagreement:
            listed = known.get(v.program)
            ok = listed is not None and listed[0] == v.disagreement
            unexplained += not ok
            line += f"\n{'':34} {v.disagreement}: " + (
                listed[1] if ok else "NOT IN THE REVIEWED LIST"
            )
        if not v.compiles:
            line += f"\n{'':34} first error: {v.first_error}"
        print(line)
    print(
        f"\nROCm {fig['rocm']}: {fig['programs']} programs, {fig['compile_failures']} rejected by "
        f"the HIP compiler, {fig['failures_with_an_error_finding']} of them with an error "
        f"finding; {fig['programs_with_errors_that_compile']} programs with errors compile; "
        f"precision {fig['precision']}, recall {fig['recall']}; {unexplained} unexplained "
        f"disagreements ({fig['seconds']} s)"
    )
    if args.json:
        data = {"figure": fig, "programs": [asdict(v) for v in verdicts]}
        args.json.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
