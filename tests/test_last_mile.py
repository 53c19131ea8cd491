"""The last mile (issue 27): fixes translate makes so that the output compiles where a careful
human port would. Each pair of tests/cases/engine/ listed here is real CUDA (nvcc compiles
it); its translation for the release it targets compiles with that release's HIP (Debian's
HIP 5.2 hipcc, or the HIP 6.3 headers in ../shared/hip-6.3); and the same translation without
the fix's edits does not, so the fix is what makes it compile."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.edits import apply
from hipport.engine import translate_source
from hipport.target import Target
from hipport.verify import compile_one, find_compiler, hip_version
from tools.hip63 import OFFLOAD_ARCH, hip63_compiler

pytestmark = [pytest.mark.slow]
ENGINE = Path(__file__).parent / "cases" / "engine"
RELEASES = ("5.2", "6.3")
# pair -> the rule whose edits are the fix and the releases that need it (its .hip.expected
# pins the output for the release of its .target.json; here it is translated and compiled
# for each release that needs the fix)
PAIRS = {
    "vector_operators/helper_math.cu": ("vector-operators", RELEASES),
    "collapsing_overloads/error_enum.cu": ("collapsing-overloads", RELEASES),
    "empty_macros/stream_callback.cu": ("empty-macros", RELEASES),
    "coordinate_casts/tail_block.cu": ("coordinate-casts", ("5.2",)),
    "default_arguments/stream_wait.cu": ("default-arguments", ("5.2",)),
    "arguments/reinterpret_cast__hip_void_pointers.cu": ("arguments", RELEASES),
    "unsigned_min_max/clamp_keys.cu": ("unsigned-min-max", RELEASES),
    "system_atomics/ring_cursor.cu": ("system-atomics", RELEASES),
    "struct_fields/exportable_alloc.cu": ("struct-fields", RELEASES),
    "device_attributes/memory_pools.cu": ("device-attributes", ("5.2",)),
}
# the rule homes of the last mile's rewrites: their inputs are real CUDA too
RULE_HOMES = Path(__file__).parent / "cases" / "rules"
HOME_CASES = sorted(
    p.relative_to(RULE_HOMES).as_posix()
    for code in ("HIP029", "HIP030", "HIP031", "HIP032")
    for p in (RULE_HOMES / code).glob("*.cu")
)
CASES = [(rel, rocm) for rel, (_, releases) in sorted(PAIRS.items()) for rocm in releases]


def _need(found: object, what: str) -> None:
    if found:
        return
    if os.environ.get("CI"):
        raise RuntimeError(f"CI must have {what}: tests/setup-system.sh installs it")
    pytest.skip(f"{what} is not installed (tests/setup-system.sh)")


def _compile(path: Path, rocm: str):
    if rocm == "6.3":
        compiler = hip63_compiler()
        _need(compiler, "clang++-15 and ../shared/hip-6.3")
        return compile_one(compiler, path, OFFLOAD_ARCH)
    compiler = find_compiler()
    _need(compiler and shutil.which("hipcc"), "hipcc")
    return compile_one(compiler, path, "gfx90a", [], hip_version())


@pytest.mark.nvcc
@pytest.mark.parametrize("rel", sorted(PAIRS))
def test_inputs_are_real_cuda(rel: str) -> None:
    _nvcc_compiles(ENGINE / rel)


def _nvcc_compiles(path: Path) -> None:
    _need(shutil.which("nvcc"), "nvcc")
    cmd = ["nvcc", "-std=c++17", "-arch=sm_90", "-c", "-o", os.devnull, str(path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.nvcc
@pytest.mark.parametrize("rel", HOME_CASES)
def test_rule_home_inputs_are_real_cuda(rel: str) -> None:
    _nvcc_compiles(RULE_HOMES / rel)


@pytest.mark.hipcc
@pytest.mark.parametrize(("rel", "rocm"), CASES)
def test_the_fix_is_what_makes_it_compile(rel: str, rocm: str, tmp_path: Path) -> None:
    pair = ENGINE / rel
    source = pair.read_bytes()
    result = translate_source(source, pair.name, Target(rocm=rocm))
    rule = PAIRS[rel][0]
    fix = [e for e in result.edits if e.rule == rule]
    assert fix, "the fix made no edit"
    assert not [f for f in result.findings if f.severity.value == "error"]
    fixed = tmp_path / f"{pair.stem}.hip"
    fixed.write_bytes(result.output)
    done = _compile(fixed, rocm)
    assert done.ok, done.stderr[-3000:]
    unfixed = tmp_path / f"{pair.stem}-unfixed.hip"
    unfixed.write_bytes(apply(source, [e for e in result.edits if e.rule != rule]))
    assert not _compile(unfixed, rocm).ok, "it compiles without the fix too"


@pytest.mark.hipcc
def test_coordinates_need_no_cast_for_6_3(tmp_path: Path) -> None:
    """HIP 6.3's coordinates resolve min/max: translate leaves them, and the output compiles."""
    pair = ENGINE / "coordinate_casts/tail_block.cu"
    result = translate_source(pair.read_bytes(), pair.name, Target(rocm="6.3"))
    assert not [e for e in result.edits if e.rule == "coordinate-casts"]
    out = tmp_path / "tail_block.hip"
    out.write_bytes(result.output)
    done = _compile(out, "6.3")
    assert done.ok, done.stderr[-3000:]
