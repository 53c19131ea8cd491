"""The report names the number format when numerics are translated (issue 26 item 4): which
fp8/bf16/fp16 formats a translation keeps or changes, from mappings/numeric_types.tsv, in the
summary of translate and check and in their JSON; a warm run (results left in the cache,
only their cached summary read) says what a cold run says."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from hipport.mappings import load_mappings
from hipport.report.numerics import format_changes
from tools.hip63 import HIP63_INCLUDE

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text())
CUDA_INCLUDE = Path("/usr/local/cuda-13.0/include")
HIP63 = HIP63_INCLUDE / "hip" / "amd_detail"

FP8 = b"""#include <cuda_fp8.h>
#include <cuda_bf16.h>
__global__ void k(const float *in, __nv_fp8_e4m3 *out, nv_bfloat16 *b) {
    int i = threadIdx.x;
    out[i] = __nv_fp8_e4m3(in[i]);
    __nv_fp8_e5m2 e5 = __nv_fp8_e5m2(in[i]);
    b[i] = __float2bfloat16(in[i]);
    (void)e5;
}
"""


# --- the data -------------------------------------------------------------------------------


def _rows() -> list[dict[str, str]]:
    return load_mappings().read("numeric_types.tsv")


def test_every_name_of_the_fp8_bf16_families_has_a_format_on_its_side() -> None:
    types = load_mappings().numeric_types
    # the OCP/FNUZ facts issue 26 is about, read from the data
    assert types.cuda["__nv_fp8_e4m3"].format == "OCP e4m3"
    assert types.hip["__hip_fp8_e4m3"].format == "OCP e4m3"
    assert types.hip["__hip_fp8_e4m3_fnuz"].format == "FNUZ e4m3"
    assert types.hip["__HIP_E5M2_FNUZ"].standard == "FNUZ"
    assert types.hip["hip_bfloat16"].note  # the legacy struct says what it is
    # every HIP name a CUDA numeric type is mapped to by the tables has a format
    tables = load_mappings().tables
    for name in types.cuda:
        for row in tables.by_cuda.get(name, []):
            if row.hip:
                assert row.hip in types.hip, f"{name} -> {row.hip} has no format"


_CITED = re.compile(r"(?:CUDA 13\.0 include/|HIP 6\.3 hip/amd_detail/)(\S+?\.hp?p?):(\d+)")


@pytest.mark.skipif(
    not (CUDA_INCLUDE.is_dir() and HIP63.is_dir()), reason="needs CUDA 13.0 and HIP 6.3 headers"
)
def test_the_cited_header_line_names_the_type() -> None:
    """Each row's first citation is a header line that holds the type's name (its
    declaration, typedef or enumerator), read from the headers themselves."""
    for row in _rows():
        m = _CITED.match(row["source"])
        assert m, f"{row['name']}: no header:line first in {row['source']!r}"
        base = CUDA_INCLUDE if row["side"] == "cuda" else HIP63
        lines = (base / m.group(1)).read_text(errors="replace").splitlines()
        line = lines[int(m.group(2)) - 1]
        assert re.search(rf"\b{re.escape(row['name'])}\b", line), (row["name"], line)


# --- the lines ------------------------------------------------------------------------------


def test_kept_changed_and_unknown_formats_read_as_such() -> None:
    types = load_mappings().numeric_types
    lines = [
        c.line()
        for c in format_changes(
            [
                ("__nv_fp8_e4m3", "__hip_fp8_e4m3", 2),
                ("__nv_fp8x2_e4m3", "__hip_fp8x2_e4m3", 1),
                ("__nv_fp8_e5m2", "__hip_fp8_e5m2_fnuz", 1),
                ("__nv_bfloat16", "hip_bfloat16", 3),
                ("__half", "__half", 1),
                ("__nv_fp8_e4m3", "float", 1),
                ("cudaMalloc", "hipMalloc", 4),  # not a numeric type: not reported
            ],
            types,
        )
    ]
    fnuz = types.hip["__hip_fp8_e5m2_fnuz"].note
    legacy = types.hip["hip_bfloat16"].note
    assert lines == [
        f"bf16: bfloat16 kept (__nv_bfloat16 -> hip_bfloat16): {legacy}",
        "fp16: IEEE binary16 kept (__half -> __half)",
        "fp8: OCP e4m3 kept as OCP (__nv_fp8_e4m3 -> __hip_fp8_e4m3, "
        "__nv_fp8x2_e4m3 -> __hip_fp8x2_e4m3)",
        "fp8: OCP e4m3 changed to a type of no known number format (__nv_fp8_e4m3 -> float)",
        f"fp8: OCP e5m2 changed to FNUZ e5m2 (__nv_fp8_e5m2 -> __hip_fp8_e5m2_fnuz): {fnuz}",
    ]
    assert "half the OCP value" in fnuz


# --- translate and check, cold and warm -----------------------------------------------------


def _hipport(*args: str | Path, cwd: Path, cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["HIPPORT_CACHE_DIR"] = str(cache)
    env.pop("CI", None)
    cmd = [sys.executable, "-m", "hipport", *map(str, args)]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=300)


def _format_lines(stderr: bytes) -> list[str]:
    return [
        line
        for line in stderr.decode(errors="replace").splitlines()
        if re.match(r"(fp8|bf16|fp16): ", line)
    ]


WANT = [
    "bf16: bfloat16 kept (nv_bfloat16 -> __hip_bfloat16)",
    "fp8: OCP e4m3 kept as OCP (__nv_fp8_e4m3 -> __hip_fp8_e4m3)",
    "fp8: OCP e5m2 kept as OCP (__nv_fp8_e5m2 -> __hip_fp8_e5m2)",
]


@pytest.mark.slow
def test_translate_says_the_formats_cold_and_warm(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_bytes(FP8)
    cache = tmp_path / "cache"
    runs = []
    for n in (1, 2):
        stats = tmp_path / f"stats{n}.json"
        proc = _hipport(
            "translate", "--rocm", "6.3", "src", "-o", f"out{n}", "--stats-json", stats,
            cwd=tmp_path, cache=cache,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        runs.append((proc, json.loads(stats.read_text())))
    (cold, cold_stats), (warm, warm_stats) = runs
    assert warm_stats["cached"] == 1 and cold_stats["cached"] == 0
    assert _format_lines(cold.stderr) == WANT
    assert _format_lines(warm.stderr) == WANT
    lines = [c["line"] for c in warm_stats["numeric_formats"]]
    assert lines == WANT and warm_stats["numeric_formats"] == cold_stats["numeric_formats"]


def test_a_warm_run_reads_the_formats_from_the_cached_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second run leaves the result in the cache (translate -o's lazy outcome): the
    formats come from FileInfo.numerics alone."""
    from hipport.config import load_config
    from hipport.runner import RunOptions, run_paths
    from hipport.runner.outcome import Stored
    from hipport.target import Target, Version

    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "k.cu").write_bytes(FP8)
    opts = RunOptions(target=Target(rocm=Version.parse("6.3")), jobs=1, need_results=False)
    cold = run_paths([tmp_path], load_config([tmp_path]), opts)
    warm = run_paths([tmp_path], load_config([tmp_path]), opts)
    [outcome] = warm.files
    assert outcome.cached and isinstance(outcome.handle, Stored)
    assert outcome.handle.info.numerics  # what the warm summary reads
    assert [c.line() for c in warm.format_changes()] == WANT
    assert [c.line() for c in cold.format_changes()] == WANT


@pytest.mark.slow
def test_check_says_the_formats_in_text_and_json(tmp_path: Path) -> None:
    (tmp_path / "k.cu").write_bytes(FP8)
    cache = tmp_path / "cache"
    text = _hipport("check", "--rocm", "6.3", "k.cu", cwd=tmp_path, cache=cache)
    out = text.stdout.decode()
    assert "number formats" in out
    for line in WANT:
        assert line in out
    for _ in (1, 2):  # cold, then warm
        proc = _hipport(
            "check", "--rocm", "6.3", "--format", "json", "k.cu", cwd=tmp_path, cache=cache
        )
        report = json.loads(proc.stdout)
        assert [c["line"] for c in report["numeric_formats"]] == WANT
        jsonschema.validate(report, SCHEMA, cls=jsonschema.Draft202012Validator)
