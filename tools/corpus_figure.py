#!/usr/bin/env python3
"""Translate tests/corpus for a ROCm release and compile every translated translation unit
with the HIP compiler (syntax only), then print the figure:

    files translated / files that compile / files honestly reported as needing work

    python tools/corpus_figure.py [--rocm 5.2] [--json out.json]

Files that need a HIP library Debian does not package (hipBLAS, hipFFT, hipSOLVER, hipCUB,
MIOpen) are translated and checked as text (stable under a second translation, no mapped
CUDA name left) and counted apart. The test tests/test_corpus_hipcc.py runs the same check.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "tests" / "corpus"
# CUDA library (as named in MANIFEST.tsv) -> the HIP header that must exist to compile it
LIBRARY_HEADERS = {
    "curand": "hiprand/hiprand.h",
    "cusparse": "hipsparse/hipsparse.h",
    "nvrtc": "hip/hiprtc.h",
    "cublas": "hipblas/hipblas.h",
    "cufft": "hipfft/hipfft.h",
    "cusolver": "hipsolver/hipsolver.h",
    "cub": "hipcub/hipcub.hpp",
    "cudnn": "miopen/miopen.h",
}
INCLUDE_DIRS = [Path("/usr/include"), Path("/opt/rocm/include")]
_QUOTED_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.M)


@dataclass
class FileVerdict:
    file: str
    libraries: list[str]
    mode: str  # "compiled" or "text"
    compiles: bool | None
    reported_errors: list[str] = field(default_factory=list)  # "CODE api"
    first_error: str | None = None
    consistent: bool = True  # report and compiler agree
    note: str = ""


def manifest() -> dict[str, list[str]]:
    rows = (CORPUS / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    out = {}
    for row in rows:
        cells = row.split("\t")
        libs = [x for x in (cells[2].split(",") if len(cells) > 2 else []) if x.strip()]
        out[cells[0]] = [x.strip() for x in libs]
    return out


def library_available(lib: str) -> bool:
    header = LIBRARY_HEADERS.get(lib)
    return header is not None and any((d / header).is_file() for d in INCLUDE_DIRS)


def _errors_of(relpath: str, by_rel: dict, seen: set[str]) -> list:
    """Error findings of a file and of the project headers it includes (transitively)."""
    if relpath in seen or relpath not in by_rel:
        return []
    seen.add(relpath)
    result = by_rel[relpath].handle.load()
    found = [f for f in result.findings if f.severity.value == "error"]
    directory = relpath.rsplit("/", 1)[0] + "/" if "/" in relpath else ""
    for inc in _QUOTED_INCLUDE.findall(result.source):
        found += _errors_of(directory + inc.decode("utf-8", "replace"), by_rel, seen)
    return found


def check_corpus(rocm: str = "5.2", jobs: int = 0) -> tuple[list[FileVerdict], dict]:
    from hipport.config import Config
    from hipport.engine import translate_source
    from hipport.runner import RunOptions, run_paths, write_outputs
    from hipport.target import Target
    from hipport.verify import compile_many, find_compiler, hip_version

    compiler = find_compiler()
    if compiler is None:
        raise RuntimeError("no HIP compiler (install hipcc)")
    target = Target(rocm=rocm)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="hipport-corpus-") as tmp:
        out = Path(tmp)
        config = Config(root=CORPUS)
        summary = run_paths(
            [CORPUS], config, RunOptions(target=target, use_cache=False, with_other=True, jobs=jobs)
        )
        write_outputs(summary, "outdir", out)
        by_rel = {f.relpath: f for f in summary.files if f.handle is not None}
        libs_of = manifest()
        verdicts: list[FileVerdict] = []
        to_compile: list[tuple[str, Path]] = []
        for rel in sorted(libs_of):
            if not rel.endswith(".cu"):
                continue
            libs = libs_of[rel]
            errors = _errors_of(rel, by_rel, set())
            reported = sorted({f"{f.code} {f.api}" for f in errors})
            if all(library_available(lib) for lib in libs):
                to_compile.append((rel, out / rel))
                verdicts.append(FileVerdict(rel, libs, "compiled", None, reported))
            else:
                again = translate_source(by_rel[rel].handle.read_output(), rel, target)
                stable = not again.edits
                verdicts.append(
                    FileVerdict(
                        rel,
                        libs,
                        "text",
                        None,
                        reported,
                        consistent=stable,
                        note="" if stable else "second translation edits",
                    )
                )
        results = compile_many(
            compiler, [p for _, p in to_compile], "gfx90a", INCLUDE_DIRS[:1], hip_version(), jobs
        )
        by_file = {rel: r for (rel, _), r in zip(to_compile, results, strict=True)}
        for v in verdicts:
            r = by_file.get(v.file)
            if r is None:
                continue
            v.compiles = r.ok
            v.first_error = (r.first_error or "").replace(str(out) + "/", "") or None
            if r.ok and v.reported_errors:
                # reported but compiles: allowed (an API may be declared yet unusable), noted
                v.note = "compiles although the report holds errors"
            if not r.ok:
                apis = {e.split(" ", 1)[1] for e in v.reported_errors}
                # an API may be qualified (cudaDeviceProp::field): the compiler names the last part
                v.consistent = bool(apis) and any(api.split("::")[-1] in r.stderr for api in apis)
                if not v.consistent:
                    v.note = "the compiler rejects it for an API the report does not name"
    figure = {
        "rocm": rocm,
        "files_translated": len(verdicts),
        "compiled": sum(1 for v in verdicts if v.mode == "compiled"),
        "compile_ok": sum(1 for v in verdicts if v.compiles),
        "reported_needing_work": sum(1 for v in verdicts if v.reported_errors),
        "checked_as_text": sum(1 for v in verdicts if v.mode == "text"),
        "disagreements": sum(1 for v in verdicts if not v.consistent),
        "seconds": round(time.perf_counter() - start, 1),
    }
    return verdicts, figure


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--rocm", default="5.2")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    verdicts, figure = check_corpus(args.rocm)
    for v in verdicts:
        state = {True: "compiles", False: "FAILS", None: "text only"}[v.compiles]
        print(
            f"{v.file:40} {state:10} {', '.join(v.reported_errors) or '-'}"
            + (f"\n{'':40} first error: {v.first_error}" if v.compiles is False else "")
            + (f"\n{'':40} NOTE: {v.note}" if v.note else "")
        )
    print(
        f"\nROCm {figure['rocm']}: {figure['files_translated']} files translated; "
        f"{figure['compiled']} compiled with the HIP compiler, {figure['compile_ok']} compile; "
        f"{figure['reported_needing_work']} honestly reported as needing work; "
        f"{figure['checked_as_text']} checked as text (HIP library not in Debian); "
        f"{figure['disagreements']} disagreements ({figure['seconds']} s)"
    )
    if args.json:
        args.json.write_text(
            json.dumps({"figure": figure, "files": [asdict(v) for v in verdicts]}, indent=2)
        )
    return 1 if figure["disagreements"] else 0


if __name__ == "__main__":
    sys.exit(main())
