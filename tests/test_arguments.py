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
from hipport.mappings import load_mappings
from hipport.tables import load_tables
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
    table = load_mappings().arguments
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
    kinds = {r.action for r in load_mappings().arguments.rows}
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
    table = load_mappings().arguments
    rows = table.rewrites("cudaGetDriverEntryPoint", "hip", "hipGetProcAddress")
    assert [r.action for r in rows] == ["add-const-argument"]
    assert table.rewrites("cudaGetDriverEntryPoint", "hip", "hipGetDriverEntryPoint") == []


NVCC = shutil.which("nvcc") or "/usr/local/bin/nvcc"
TOOLKIT_HEADERS = (
    "<cuda_runtime.h>",
    "<cuda.h>",
    "<cub/",
    "<thrust/",
    "<cooperative_groups.h>",
    "<cuda/std/",
    "<library_types.h>",
    "<cuda_fp16.h>",
)


def _nvcc_cases() -> list[Path]:
    """The pair inputs of the argument, namespace, type and kernel-name launch cases that
    include only headers the CUDA toolkit ships (the older launch cases are fragments)."""
    out = []
    for group, stems in (
        ("arguments", "*"),
        ("namespaces", "*"),
        ("types", "*"),
        ("launch", "kernel_name_*"),
    ):
        for path in sorted((CASES.parent / group).glob(f"{stems}.cu")):
            text = path.read_text().splitlines()
            includes = [line for line in text if line.startswith("#include")]
            if all(any(h in line for h in TOOLKIT_HEADERS) for line in includes):
                out.append(path)
    return out


@pytest.mark.nvcc
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


HIPCC = shutil.which("hipcc")


def _hipcc_cases() -> list[Path]:
    """The expected outputs of the cases above that include only HIP runtime headers and
    keep no name unported (no HIP001/HIP002 finding)."""
    out = []
    for path in _nvcc_cases():
        expected = path.with_suffix(".hip.expected")
        findings = path.with_suffix(".findings.txt")
        if findings.exists() and "HIP00" in findings.read_text():
            continue
        config = path.with_suffix(".target.json")
        if config.exists() and "6." in config.read_text():
            continue  # aimed at a ROCm newer than the installed HIP 5.2
        text = expected.read_text().splitlines()
        includes = [line for line in text if line.startswith("#include")]
        if "_skipped" not in path.stem and all("hip/hip_runtime" in i for i in includes):
            out.append(expected)
    return out


@pytest.mark.hipcc
@pytest.mark.skipif(HIPCC is None, reason="hipcc not installed")
@pytest.mark.parametrize("path", _hipcc_cases(), ids=lambda p: p.name.split(".")[0])
def test_runtime_outputs_compile_with_hipcc(path, tmp_path):
    """The rewritten calls and launches build with HIP 5.2 (Debian's hipcc)."""
    source = tmp_path / "x.hip"
    source.write_bytes(path.read_bytes())
    done = subprocess.run(
        [HIPCC, "-fsyntax-only", "-x", "hip", str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "HIP_PLATFORM": "amd"},
    )
    assert done.returncode == 0, done.stderr


def _show(hipport_cmd, env, *args: str) -> dict:
    import json

    done = subprocess.run(
        [*hipport_cmd, "tables", "show", *args, "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_tables_show_lists_the_argument_rewrites_for_the_target(hipport_cmd, subprocess_env):
    host = _show(hipport_cmd, subprocess_env, "cudaMallocHost")["entries"][0]
    (rewrite,) = host["argument_rewrites"]
    assert rewrite["applies"] and rewrite["value"] == "hipHostMallocDefault"
    hip = _show(hipport_cmd, subprocess_env, "cusparseScsrilu02_analysis")["entries"][0]
    roc = _show(hipport_cmd, subprocess_env, "cusparseScsrilu02_analysis", "--roc")["entries"][0]
    assert [r["applies"] for r in hip["argument_rewrites"]] == [False, False]
    assert "roc" in hip["argument_rewrites"][0]["why"]
    assert [r["applies"] for r in roc["argument_rewrites"]] == [True, True]


@pytest.mark.slow
def test_tables_show_a_namespace(hipport_cmd, subprocess_env):
    assert _show(hipport_cmd, subprocess_env, "cub")["namespace"]["hip_namespace"] == "hipcub"
    cuda = _show(hipport_cmd, subprocess_env, "cuda")["namespace"]
    assert cuda["status"] == "unsupported" and cuda["hint"]


# --- every row, applied to a synthetic call ------------------------------------------------

_WRAPS = ("HIP-SYMBOL", "reinterpret-cast", "reinterpret-cast-size-t")


def _arity_needed(rows) -> int:
    """Enough arguments for every index the rows name (an addition at the last index
    appends)."""
    need = 0
    for r in rows:
        if r.action == "add-const-argument":
            need = max(need, r.arg)
        elif r.action == "move-argument":
            need = max(need, r.arg + r.count, r.move_to)
        elif r.action == "add-var-argument":
            need = max(need, r.arg + 1, r.move_to)
        else:
            need = max(need, r.arg + 1)
    return need


def _expected(rows, n: int, arity: int | None, version: str) -> list[str]:
    """The argument list the documented semantics give (mappings/README.md), computed as
    list operations: wraps and replacements in place; additions, copies and moved blocks
    before the argument they name (or at the end); removed and moved ones gone."""
    text = [f"a{k}" for k in range(n)]
    for r in rows:
        if r.action == "HIP-SYMBOL":
            text[r.arg] = f"HIP_SYMBOL({text[r.arg]})"
        elif r.action == "reinterpret-cast":
            text[r.arg] = f"reinterpret_cast<{r.value or 'const void*'}>({text[r.arg]})"
        elif r.action == "reinterpret-cast-size-t":
            text[r.arg] = f"reinterpret_cast<size_t*>({text[r.arg]})"
        elif r.action == "replace-argument-with-const":
            text[r.arg] = r.value
    gone: set[int] = set()
    before: dict[int, list[tuple[str, bool]]] = {}  # position -> (text, added?)
    for r in rows:
        if r.action == "remove-argument":
            gone.add(r.arg)
        elif r.action == "move-argument":
            block = list(range(r.arg, r.arg + r.count))
            gone.update(block)
            before.setdefault(r.move_to, []).extend((text[k], False) for k in block)
        elif r.action == "add-var-argument":
            before.setdefault(min(r.move_to, n), []).append((f"a{r.arg}", True))
        elif r.action == "add-const-argument":
            values = [v.strip() for v in r.value.replace("{hip_version}", version).split(",")]
            at = r.arg if r.arg < n else n + r.arg
            before.setdefault(at, []).extend((v, True) for v in values)
    out: list[tuple[str, bool]] = []
    for pos in sorted(set(range(n)) | set(before)):
        out.extend(before.get(pos, []))
        if pos < n and pos not in gone:
            out.append((text[pos], False))
    while arity is not None and len(out) > arity and any(added for _, added in out):
        last = max(i for i, (_, added) in enumerate(out) if added)
        del out[last]
    return [t for t, _ in out]


def _row_groups() -> list[tuple[str, str]]:
    table = load_mappings().arguments
    return sorted(
        {(r.cuda_function, r.applies_to) for name in table.calls for r in table.calls[name]}
    )


@pytest.mark.parametrize(("name", "side"), _row_groups(), ids=lambda v: str(v))
def test_every_row_is_applied_as_documented(name: str, side: str) -> None:
    tables = load_tables()
    target = Target() if side == "hip" else Target(roc=True)
    res = __import__("hipport.tables", fromlist=["resolve"]).resolve(tables, name, target)
    table = load_mappings(tables.directory).arguments
    from hipport.tables.arguments import side_of

    rows = table.rewrites(name, side_of(res.library), res.new_name or name)
    if not rows or side_of(res.library) != side:
        pytest.skip(f"{name} maps to {res.new_name} ({res.status.value}) for this target")
    n = _arity_needed(rows)
    arity = rows[0].hip_arity
    added = sum(len(r.value.split(",")) for r in rows if r.action == "add-const-argument")
    if arity is not None and added and all(r.action == "add-const-argument" for r in rows):
        n = min(n, arity - added)  # a call that lacks the arguments: they are added
    rocm = tables.newest_rocm
    version = str(rocm.parts[0] * 100 + (rocm.parts + (0,))[1])
    call = f"{name}({', '.join(f'a{k}' for k in range(n))});\n"
    out = translate_source(call.encode(), "call.cpp", target).output.decode()
    out = out.removeprefix('#include "hip/hip_runtime.h"\n')
    want = f"{res.new_name}({', '.join(_expected(rows, n, arity, version))});\n"
    assert out == want
