"""One Mappings object per run (hipport.mappings): every fact a rule reads comes from the
one directory the run names, and nothing is read when the package is imported."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hipport.cmake import translate_cmake
from hipport.engine import EngineOptions, translate_source
from hipport.mappings import Mappings, load_mappings
from hipport.tables import load_tables
from hipport.target import Target
from hipport.tsv import mappings_dir, read_lines, read_tsv

ROOT = Path(__file__).resolve().parent.parent

# One file that reaches a fact of each kind: a renamed call (runtime.tsv), an argument
# rewrite (arguments.tsv), a namespace (namespaces.tsv), a device function, an nvcc macro
# and a default argument HIP lacks (gate_facts.tsv), an NVIDIA header with no counterpart
# (cuda_headers.tsv), a cooperative-groups header (cooperative_groups.tsv) and a
# cudaDeviceProp field (cuda_device_prop_fields.tsv); a texture reference function
# (texture_reference.tsv), an #if on an nvcc macro no sampled CUDA compilation takes
# (nvcc_macro_samples.tsv) and one on a HIP version macro (hip_predefined_macros.tsv).
SOURCE = b"""#include <cuda_runtime.h>
#include <nvml.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
__global__ void k(int *p) { __nanosleep(100); }
int f(cudaStream_t s, cudaEvent_t e, int *q) {
    cudaMalloc((void **)&q, 4);
    cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1);
    cudaStreamWaitEvent(s, e);
    cudaDeviceProp prop;
    cub::CachingDeviceAllocator a;
    return prop.uuid.bytes[0] + CUDART_VERSION;
}
void g() { swappedBindTexture(0); }
#if __CUDACC_VER_BUILD__ == 77
int build_77;
#endif
#if HIP_VERSION_MAJOR == 77
int probe = __nv_swapped_probe;
#endif
"""
CMAKE = b"project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_STANDARD 17)\n"

# (file, key column, key, column, new value): one cell of each fact file, changed
SWAPS = (
    ("runtime.tsv", "cuda", "cudaMalloc", "hip", "hipMallocSwapped"),
    ("arguments.tsv", "cuda_function", "cudaFuncSetCacheConfig", "value", "swapped_t*"),
    ("namespaces.tsv", "cuda_namespace", "cub", "hip_namespace", "swappedcub"),
    ("gate_facts.tsv", "cuda", "__nanosleep", "instead", "SWAPPED-DEVICE"),
    ("gate_facts.tsv", "cuda", "CUDART_VERSION", "instead", "SWAPPED-MACRO"),
    ("gate_facts.tsv", "cuda", "cudaStreamWaitEvent", "defaults", "SWAPPED-DEFAULT"),
    ("cuda_headers.tsv", "header", "nvml.h", "kind", "swapped-kind"),
    ("cooperative_groups.tsv", "name", "cooperative_groups/reduce.h", "instead", "SWAPPED-CG"),
    ("cuda_device_prop_fields.tsv", "cuda_field", "uuid", "alternative", "swappedUuid()"),
    ("cmake.tsv", "cuda", "CMAKE_CUDA_STANDARD", "hip", "CMAKE_SWAPPED_STANDARD"),
    ("texture_reference.tsv", "name", "cudaUnbindTexture", "name", "swappedBindTexture"),
    ("nvcc_macro_samples.tsv", "macro", "__CUDACC_VER_BUILD__", "values", "77"),
    ("hip_predefined_macros.tsv", "macro", "HIP_VERSION_MAJOR", "value", "77"),
)
# What each swap changes in the output or the findings (the same order)
SEEN = (
    "hipMallocSwapped(",
    "reinterpret_cast<swapped_t*>(k)",
    "swappedcub::CachingDeviceAllocator",
    "SWAPPED-DEVICE",
    "SWAPPED-MACRO",
    "SWAPPED-DEFAULT",
    "swapped-kind",
    "SWAPPED-CG",
    "swappedUuid()",
    "CMAKE_SWAPPED_STANDARD",
    "swappedBindTexture belongs to the texture/surface reference API",
    "#if on __CUDACC_VER_BUILD__",
    "__nv_swapped_probe looks like CUDA",  # HIP004, in the arm HIP now compiles
)


def _swap(directory: Path, name: str, key_column: str, key: str, column: str, value: str) -> None:
    path = directory / name
    header, rows = read_lines(path)
    k, c = header.index(key_column), header.index(column)
    hits = [cells for cells in rows if cells[k] == key]
    assert hits, f"{name} has no row {key}"
    for cells in hits:
        cells[c] = value
    text = "\n".join("\t".join(r) for r in (list(header), *rows)) + "\n"
    path.write_text(text, encoding="utf-8")


def _everything(mappings: Mappings | None) -> str:
    """The output and every finding's text, for SOURCE and CMAKE, under `mappings`."""
    options = EngineOptions(mappings=mappings)
    result = translate_source(SOURCE, "a.cu", Target(rocm="5.2"), options)
    cmake = translate_cmake(CMAKE, "CMakeLists.txt", mappings)
    parts = [result.output.decode(), cmake.output.decode()]
    for f in (*result.findings, *cmake.findings):
        parts.append(f"{f.code} {f.message} {f.hint or ''}")
    return "\n".join(parts)


@pytest.fixture(scope="module")
def swapped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("swapped") / "mappings"
    shutil.copytree(mappings_dir(), directory)
    for swap in SWAPS:
        _swap(directory, *swap)
    return directory


def test_swapping_the_directory_swaps_every_fact(swapped: Path) -> None:
    before = _everything(None)
    after = _everything(Mappings(swapped))
    for seen, swap in zip(SEEN, SWAPS, strict=True):
        assert seen not in before, seen
        assert seen in after, f"{swap[0]}: the run did not read the swapped directory"
    # the package's own facts are untouched by the other run
    assert _everything(None) == before


def test_a_copy_of_the_package_mappings_gives_the_same_results(tmp_path: Path) -> None:
    directory = tmp_path / "mappings"
    shutil.copytree(mappings_dir(), directory)
    assert _everything(Mappings(directory)) == _everything(None)


def test_one_mappings_per_directory_and_parts_read_on_first_use(swapped: Path) -> None:
    assert load_mappings() is load_mappings(mappings_dir()) is load_mappings(str(mappings_dir()))
    assert load_tables() is load_mappings().tables
    assert load_tables(swapped) is load_mappings(swapped).tables is not load_tables()
    fresh = Mappings(swapped)
    assert "tables" not in vars(fresh) and "gate" not in vars(fresh)
    assert "CUDART_VERSION" in fresh.gate.macro_names
    assert "tables" not in vars(fresh)  # the gate facts did not load the name tables


def test_a_mappings_travels_to_a_worker_as_its_directory(swapped: Path) -> None:
    m = load_mappings(swapped)
    m.tables  # noqa: B018 (loaded: a pickle of the tables would be large)
    data = pickle.dumps(EngineOptions(mappings=m))
    assert len(data) < 1000
    assert pickle.loads(data).mappings is m  # the same process: the cached object


def test_the_tsv_reader_names_columns_from_the_header(tmp_path: Path) -> None:
    path = tmp_path / "t.tsv"
    path.write_text("b\ta\n2\t1\n\n4\t3\n", encoding="utf-8")
    assert read_tsv(path) == [{"b": "2", "a": "1"}, {"b": "4", "a": "3"}]
    path.write_text("b\ta\n2\t1\t0\n", encoding="utf-8")
    with pytest.raises(ValueError, match="t.tsv:2: 3 cells where the header names 2"):
        read_tsv(path)
    assert read_tsv(tmp_path / "missing.tsv", optional=True) == []
    with pytest.raises(FileNotFoundError):
        read_tsv(tmp_path / "missing.tsv")


def test_every_mappings_file_reads_as_the_csv_module_reads_it() -> None:
    import csv

    for path in sorted(mappings_dir().glob("*.tsv")):
        with path.open(encoding="utf-8", newline="") as fh:
            expected = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
        assert read_tsv(path) == expected, path.name


# --- nothing is read at import time ----------------------------------------------------------

IMPORT_EVERYTHING = """
import importlib, pkgutil, sys
import hipport
names = [m.name for m in pkgutil.walk_packages(hipport.__path__, "hipport.")]
for name in names:
    if name.endswith("__main__"):
        continue
    importlib.import_module(name)
from hipport.rules import all_rules
all_rules()
import hipport.tsv
print(len(names), hipport.tsv.mappings_dir())
"""


@pytest.fixture(scope="module")
def package_without_mappings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package whose mappings directory cannot be read: there is none (tests
    run as root, which reads a chmod-000 directory anyway)."""
    base = tmp_path_factory.mktemp("nomappings")
    shutil.copytree(
        ROOT / "hipport", base / "hipport", ignore=shutil.ignore_patterns("__pycache__")
    )
    assert not (base / "mappings").exists() and not (base / "hipport" / "mappings").exists()
    return base


def _run(base: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(base), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, *args], cwd=base, env=env, capture_output=True, text=True, timeout=120
    )


def test_importing_every_module_reads_no_mappings(package_without_mappings: Path) -> None:
    base = package_without_mappings
    done = _run(base, "-c", IMPORT_EVERYTHING)
    assert done.returncode == 0, done.stderr
    count, where = done.stdout.split()
    assert int(count) > 50
    assert Path(where) == base / "mappings"  # the copy's, which is missing
    helped = _run(base, "-m", "hipport", "--help")
    assert helped.returncode == 0, helped.stderr
    assert "check" in helped.stdout
    for command in ("check", "translate", "tables", "shim"):
        sub = _run(base, "-m", "hipport", command, "--help")
        assert sub.returncode == 0, (command, sub.stderr)


def test_the_copy_without_mappings_fails_when_a_fact_is_needed(
    package_without_mappings: Path,
) -> None:
    """The control: the same copy does need the directory once a file is translated (so
    the import test above would see a load at import time)."""
    code = (
        "from hipport.engine import translate_source; from hipport.target import Target; "
        "translate_source(b'#include <cuda_runtime.h>\\ncudaMalloc(0, 1);', 'a.cu', Target())"
    )
    done = _run(package_without_mappings, "-c", code)
    assert done.returncode != 0
    assert "FileNotFoundError" in done.stderr and "mappings" in done.stderr
