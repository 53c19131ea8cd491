"""A generated CUDA tree the size of a public sample collection, for the report tests
(no tests here): 700 files in about 220 leaf directories, 8 top-level categories, with
mapped, unsupported and needs-a-newer-ROCm runtime and driver APIs and a share of warp
hazards, about like the tree the report issue was measured on (700 files, ~1,300
findings, ~270 blocking APIs).

The APIs come from the tables (rows of the CUDA runtime and driver), limited to the names
in tests/report_tree_apis.txt, which compile with the CUDA 13.0 headers in the form used
here (a function through a pointer to it, a type in a declaration, a constant in an
expression), so the tree is real CUDA (test_report_html compiles a sample with nvcc). The
tables say which are mapped, unsupported or need a newer ROCm; the choice is seeded, so a
given table gives the same tree every time. `python -m tests.report_tree --refresh`
rebuilds the name list with the nvcc on PATH.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hipport.tables import load_tables
from hipport.target import Version

CATEGORIES = (
    "0_Introduction",
    "1_Utilities",
    "2_Concepts_and_Techniques",
    "3_CUDA_Features",
    "4_CUDA_Libraries",
    "5_Domain_Specific",
    "6_Performance",
    "7_libNVVM",
)
TARGET = "6.0"  # the reports are made for this ROCm, so newer APIs "need a newer ROCm"
BLOCKING_POOL = 300  # unsupported APIs the tree draws from (a Zipf-like few dominate)
COMPILING_NAMES = Path(__file__).with_name("report_tree_apis.txt")
HEADERS = "#include <cuda.h>\n#include <cuda_runtime.h>\n\n"


def _candidates() -> list:
    seen: set[str] = set()
    out = []
    for r in load_tables().rows:
        if (
            r.family in ("runtime", "driver")
            and r.kind in ("function", "type", "constant")
            and r.cuda.isidentifier()
            and r.cuda not in seen
        ):
            seen.add(r.cuda)
            out.append(r)
    return out


def compiling_names() -> set[str]:
    lines = COMPILING_NAMES.read_text().splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def _pools(seed: int) -> tuple[list, list, list]:
    target = Version.parse(TARGET)
    known = compiling_names()
    rows = [r for r in _candidates() if r.cuda in known]
    unsupported = sorted((r for r in rows if r.hip is None or r.unsupported), key=lambda r: r.cuda)
    newer = sorted(
        (r for r in rows if r.hip and not r.unsupported and r.hip_added and r.hip_added > target),
        key=lambda r: r.cuda,
    )
    mapped = sorted(
        (
            r
            for r in rows
            if r.hip
            and not r.unsupported
            and r.hip_added
            and r.hip_added <= Version.parse("5.0")
            and r.hip_removed is None
            and not r.hip_experimental
        ),
        key=lambda r: r.cuda,
    )
    rng = random.Random(seed)
    return rng.sample(unsupported, min(BLOCKING_POOL, len(unsupported))), newer, mapped


def _use(row, n: int) -> str:
    if row.kind == "function":
        return f"  auto *fn{n} = &{row.cuda};\n  (void)fn{n};\n"
    if row.kind == "type":
        return f"  {row.cuda} *value{n} = nullptr;\n  (void)value{n};\n"
    return f"  long constant{n} = (long){row.cuda};\n  (void)constant{n};\n"


def _kernel(rng: random.Random, n: int) -> str:
    if rng.random() < 0.12:  # a warp-size hazard and a 32-bit mask (HIP102, HIP103, HIP010)
        return (
            "constexpr int kWarp = 32;\n"
            f"__global__ void reduce{n}(float *v) {{\n"
            "  float x = v[threadIdx.x];\n"
            "  for (int offset = kWarp / 2; offset > 0; offset /= 2)\n"
            "    x += __shfl_down_sync(0xffffffff, x, offset);\n"
            "  if (threadIdx.x % kWarp == 0) v[threadIdx.x / kWarp] = x;\n"
            "}\n\n"
        )
    return f"__global__ void scale{n}(float *v, float a) {{ v[threadIdx.x] *= a; }}\n\n"


def write_tree(root: Path, files: int = 700, seed: int = 17) -> dict[str, int]:
    """Write the tree under `root`; returns what it holds (files, directories)."""
    rng = random.Random(seed)
    blocking, newer, mapped = _pools(seed)
    weights = [1.0 / (i + 1) ** 0.9 for i in range(len(blocking))]
    dirs: set[str] = set()
    for i in range(files):
        category = CATEGORIES[i % len(CATEGORIES)]
        sample = f"sample{(i // len(CATEGORIES)) // 3:02d}"
        sub = f"{category}/{sample}" + ("/kernels" if i % 11 == 0 else "")
        dirs.add(sub)
        name = f"{sub}/{sample}_{i}.cu"
        body = [HEADERS, _kernel(rng, i)]
        uses = rng.sample(mapped, rng.randint(3, 7))
        if rng.random() < 0.8:
            uses += rng.choices(blocking, weights=weights, k=rng.choice((1, 1, 2, 2, 3)))
        if rng.random() < 0.15:
            uses.append(rng.choice(newer))
        body.append(f"void host{i}() {{\n")
        body += [_use(row, n) for n, row in enumerate(uses)]
        body.append("}\n")
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(body))
    return {"files": files, "directories": len(dirs)}


def refresh(nvcc: str) -> int:
    """Compile every candidate name in its use form with `nvcc`; keep those that compile."""
    rows = _candidates()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "names.cu"
        while True:
            body = "".join(f"void use{n}() {{\n{_use(r, 0)}}}\n" for n, r in enumerate(rows))
            source.write_text(HEADERS + body)
            done = subprocess.run(
                [nvcc, "-x", "cu", "-std=c++17", "-c", str(source), "-o", str(Path(tmp) / "o")]
                + ["-Xcudafe", "--error_limit=100000"],
                capture_output=True,
                text=True,
            )
            failed = _failed_rows(done.stderr, HEADERS.count("\n"), rows)
            if done.returncode == 0 or not failed:
                break
            rows = [r for n, r in enumerate(rows) if n not in failed]
    note = [line for line in COMPILING_NAMES.read_text().splitlines() if line.startswith("#")]
    names = sorted({r.cuda for r in rows})
    COMPILING_NAMES.write_text("\n".join(note + names) + "\n")
    return len(names)


def _failed_rows(stderr: str, header_lines: int, rows: list) -> set[int]:
    """Indices of the uses an error points at (each use is 4 lines: open, 2 lines, close)."""
    found = re.findall(r"names\.cu(?:\((\d+)\)|:(\d+):\d+):\s+error", stderr)
    lines = {int(a or b) for a, b in found}
    return {(line - header_lines - 1) // 4 for line in lines if line > header_lines}


if __name__ == "__main__":
    if sys.argv[1:] != ["--refresh"]:
        sys.exit("usage: python -m tests.report_tree --refresh")
    compiler = shutil.which("nvcc")
    if compiler is None:
        sys.exit("nvcc is not on PATH")
    print(f"{refresh(compiler)} names compile; wrote {COMPILING_NAMES}")
