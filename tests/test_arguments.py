"""Argument rewrites as data: mappings/arguments.tsv (and namespaces.tsv, roc_types.tsv)
equal the generator's output, every row of the source file is imported, every action kind
has (source, expected) pairs on both paths, and the hip path leaves cuDNN calls alone."""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.engine import translate_source
from hipport.tables import load_tables
from hipport.tables.arguments import argument_tables
from hipport.target import Target

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
CASES = Path(__file__).parent / "cases" / "engine" / "arguments"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not present")


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


@needs_shared
def test_committed_files_equal_the_generator_output(tmp_path):
    from tools.build_arguments import build

    counts = build(SHARED, tmp_path)
    for name in ("arguments.tsv", "namespaces.tsv", "roc_types.tsv"):
        assert (ROOT / "mappings" / name).read_bytes() == (tmp_path / name).read_bytes(), (
            f"mappings/{name} differs from the generator: run python tools/build_arguments.py"
        )
    assert counts["arguments"] == len(_rows(SHARED / "hipify-argument-transforms.tsv")) + len(
        _rows(ROOT / "tools" / "argument_additions.tsv")
    )


@needs_shared
def test_every_source_row_is_imported_with_its_function():
    source = _rows(SHARED / "hipify-argument-transforms.tsv")
    assert len(source) == 229
    table = argument_tables(load_tables().directory)
    imported = [r for r in table.rows if r.source == "hipify-argument-transforms.tsv"]
    assert len(imported) == 229
    for src, row in zip(source, imported, strict=True):
        assert (src["cuda_function"], src["action"], src["arg"]) == (
            row.cuda_function,
            row.action,
            "" if row.arg is None else str(row.arg),
        )
        assert row.hip_function, row


def test_every_action_kind_has_pairs_on_both_paths():
    kinds = {r.action for r in argument_tables(load_tables().directory).rows}
    kinds -= {"type-overload"}  # pinned by tests/cases/engine/types/
    names = {p.stem for p in CASES.glob("*.cu")}
    for kind in sorted(kinds):
        stem = kind.lower().replace("-", "_")
        for side in ("hip", "roc"):
            if kind == "move-argument" and side == "hip":
                continue  # MIOpen's only: test_the_hip_path_keeps_the_cudnn_argument_order
            assert any(n.startswith(f"{stem}__{side}") for n in names), (kind, side)


def test_the_hip_path_keeps_the_cudnn_argument_order():
    """move-argument rows are MIOpen's: without --roc the call keeps its order."""
    src = (CASES / "move_argument__roc_softmax.cu").read_bytes()
    out = translate_source(src, "softmax.cu", Target()).output.decode()
    assert "SOFTMAX_ACCURATE, " in out and out.index("SOFTMAX_ACCURATE") < out.index("&one")


def test_a_rewrite_follows_the_function_it_was_written_for():
    """cudaGetDriverEntryPoint's added version argument is hipGetProcAddress's: it holds
    only while the call maps to that function."""
    table = argument_tables(load_tables().directory)
    rows = table.rewrites("cudaGetDriverEntryPoint", "hip", "hipGetProcAddress")
    assert [r.action for r in rows] == ["add-const-argument"]
    assert table.rewrites("cudaGetDriverEntryPoint", "hip", "hipGetDriverEntryPoint") == []


NVCC = shutil.which("nvcc") or "/usr/local/bin/nvcc"
TOOLKIT_HEADERS = ("<cuda_runtime.h>", "<cuda.h>")


def _nvcc_cases() -> list[Path]:
    out = []
    for path in sorted(CASES.glob("*.cu")) + sorted(CASES.parent.glob("namespaces/*.cu")):
        includes = [line for line in path.read_text().splitlines() if line.startswith("#include")]
        if all(any(h in line for h in TOOLKIT_HEADERS) for line in includes):
            out.append(path)
    return out


@pytest.mark.skipif(not Path(NVCC).exists(), reason="nvcc not installed")
@pytest.mark.parametrize("path", _nvcc_cases(), ids=lambda p: p.stem)
def test_runtime_inputs_compile_with_nvcc(path, tmp_path):
    """The inputs that need only the toolkit's headers are real CUDA (cuSPARSE and cuDNN
    headers are not installed with the toolkit: those inputs are not compiled)."""
    if "_skipped" in path.stem:
        pytest.skip("the input is deliberately odd (a macro-built or #if-split call)")
    done = subprocess.run(
        [NVCC, "-c", "-std=c++17", "-arch=sm_80", str(path), "-o", str(tmp_path / "x.o")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
