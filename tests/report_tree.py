"""A generated CUDA tree the size of a public sample collection, for the report tests
(no tests here): 700 files in about 220 leaf directories, 8 top-level categories, with
mapped, unsupported and needs-a-newer-ROCm runtime and driver APIs and a share of warp
hazards, about like the tree the report issue was measured on (700 files, ~1,300
findings, ~270 blocking APIs).

The APIs come from the tables (rows of the CUDA runtime and driver that CUDA has not
removed), so the tree follows the tables; the choice is seeded, so a given table gives
the same tree every time. Each API is used the way its kind allows: a function through a
pointer to it, a type in a declaration, a constant in an expression.
"""

from __future__ import annotations

import random
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


def _pools(seed: int) -> tuple[list, list, list]:
    tables = load_tables()
    target = Version.parse(TARGET)
    rows = [
        r
        for r in tables.rows
        if r.family in ("runtime", "driver")
        and r.cuda_removed is None
        and r.kind in ("function", "type", "constant")
        and r.cuda.isidentifier()
    ]
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


def _use(row, n: int) -> str:  # noqa: ANN001
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
        body = ["#include <cuda.h>\n#include <cuda_runtime.h>\n\n", _kernel(rng, i)]
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
