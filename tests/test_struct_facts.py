"""The header:line evidence of the last mile's facts is true: every `CUDA 13.0 path:line`,
`HIP 5.2.21153 path:line` and `HIP 6.3 path:line` cell of mappings/struct_fields.tsv,
mappings/device_prop_attributes.tsv and the unsigned-min-max / system-atomic rows of
mappings/gate_facts.tsv is re-read in the installed headers (CUDA's, Debian's HIP 5.2,
../shared/hip-6.3) and names what the row says it does; and the lookups answer per release."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hipport.mappings import load_mappings
from hipport.target import Version
from hipport.tsv import mappings_dir, read_tsv

ROOT = Path(__file__).resolve().parent.parent
CUDA = Path("/usr/local/cuda/include")
HIP52 = Path("/usr/include")
HIP63 = ROOT.parent / "shared" / "hip-6.3" / "include"
CITES = (
    (re.compile(r"CUDA 13\.0 ([\w/.]+\.h(?:pp)?):(\d+)"), CUDA, "cuda"),
    (re.compile(r"HIP 5\.2\.21153 ([\w/.]+\.h):(\d+)"), HIP52, "hip"),
    (re.compile(r"HIP 5\.2 (hip/[\w/.]+\.h):(\d+)"), HIP52, "hip"),
    (re.compile(r"HIP 6\.3 (?:\(\.\./shared/hip-6\.3\) )?(hip/[\w/.]+\.h):(\d+)"), HIP63, "hip"),
)


def _rows() -> list[tuple[str, dict[str, str], str, str]]:
    """(file, row, the CUDA name, the HIP name) of every row whose evidence is checked."""
    out = []
    for row in read_tsv(mappings_dir() / "struct_fields.tsv"):
        out.append(("struct_fields.tsv", row, row["cuda_field"], row["hip_field"]))
    for row in read_tsv(mappings_dir() / "device_prop_attributes.tsv"):
        out.append(("device_prop_attributes.tsv", row, row["cuda_field"], row["hip_attribute"]))
    for row in read_tsv(mappings_dir() / "gate_facts.tsv"):
        if row["kind"] == "system-atomic":
            out.append(("gate_facts.tsv", row, row["cuda"], "atomicCAS_system"))
        elif row["kind"] == "unsigned-min-max":
            out.append(("gate_facts.tsv", row, row["cuda"], ""))
    return out


def test_the_rows_are_there() -> None:
    files = {name for name, *_ in _rows()}
    assert files == {"struct_fields.tsv", "device_prop_attributes.tsv", "gate_facts.tsv"}


@pytest.mark.parametrize(("name", "row", "cuda", "hip"), _rows(), ids=lambda x: str(x)[:40])
def test_every_cited_line_says_it(name: str, row: dict[str, str], cuda: str, hip: str) -> None:
    if not (CUDA.is_dir() and (HIP52 / "hip").is_dir() and HIP63.is_dir()):
        pytest.skip("needs CUDA 13.0, Debian's HIP 5.2 and ../shared/hip-6.3 headers")
    cited = 0
    for pattern, base, side in CITES:
        for path, line in pattern.findall(row["evidence"]):
            text = (base / path).read_text(errors="replace").splitlines()[int(line) - 1]
            wanted = cuda if side == "cuda" else hip
            assert wanted in text, f"{name}: {path}:{line} is {text.strip()!r}, not {wanted}"
            cited += 1
    assert cited >= 2 or (name == "gate_facts.tsv" and cited >= 1), (name, row["evidence"])


def test_the_renames_and_the_answered_attributes_follow_the_release() -> None:
    mappings = load_mappings()
    fields = mappings.struct_fields
    r52, r63 = Version.parse("5.2"), Version.parse("6.3")
    assert fields.renamed("CUmemAllocationProp", "requestedHandleTypes", r52)
    assert fields.renamed("CUmemAllocationProp_v1", "requestedHandleTypes", r63)
    # HIP 6.2's hipDeviceProp_t spells it as CUDA does; HIP 5.2's does not
    assert fields.renamed("cudaDeviceProp", "sharedMemPerMultiprocessor", r52)
    assert not fields.renamed("cudaDeviceProp", "sharedMemPerMultiprocessor", r63)
    # hipGraphInstantiateParams is mapped from ROCm 6.2 only
    assert not fields.renamed("CUDA_GRAPH_INSTANTIATE_PARAMS", "hUploadStream", r52)
    assert fields.renamed("CUDA_GRAPH_INSTANTIATE_PARAMS", "hUploadStream", r63)
    attributes = mappings.device_prop_attributes
    assert attributes["memoryPoolsSupported"].answers(r52)
    assert not attributes["sharedMemPerBlockOptin"].answers(r52)
    assert not attributes["memoryPoolsSupported"].answers(r63)  # 6.x has the field itself
