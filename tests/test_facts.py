"""The versioned facts of mappings/ beside the name tables (hipport.facts, built by
tools/build_facts.py): the committed files equal the generator's output, the HIP 5.2 rows
agree with the installed HIP 5.2 headers, and the lookups answer for the target."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipport.facts import CgFeature
from hipport.lexer import IDENTIFIER, lex
from hipport.mappings import load_mappings
from hipport.target import Version
from hipport.tsv import mappings_dir
from tools.build_facts import build_facts, fields_from_header, read_tsv

from .conftest import SHARED_DATA

HIP_INCLUDE = Path("/usr/include/hip")
HIP_RUNTIME_API = HIP_INCLUDE / "hip_runtime_api.h"
CG_HEADERS = (
    HIP_INCLUDE / "hip_cooperative_groups.h",
    HIP_INCLUDE / "amd_detail" / "amd_hip_cooperative_groups.h",
    HIP_INCLUDE / "amd_detail" / "hip_cooperative_groups_helper.h",
)
TOOLS = Path(__file__).resolve().parent.parent / "tools"

needs_shared = pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="no ../shared/data")
needs_hip52 = pytest.mark.skipif(
    not HIP_RUNTIME_API.is_file()
    or "HIP_VERSION_MINOR 2" not in (HIP_INCLUDE / "hip_version.h").read_text(),
    reason="needs the HIP 5.2 headers under /usr/include/hip",
)
FILES = (
    "hip_device_prop_fields.tsv",
    "cuda_device_prop_fields.tsv",
    "cooperative_groups.tsv",
    "cmake.tsv",
    "include_guards.tsv",
    "vector_operators.tsv",
    "texture_reference.tsv",
    "nvcc_macro_samples.tsv",
    "struct_fields.tsv",
    "device_prop_attributes.tsv",
    "numeric_types.tsv",
)


@needs_shared
def test_committed_facts_equal_the_generator_output(tmp_path: Path) -> None:
    counts = build_facts(SHARED_DATA, tmp_path)
    assert set(counts) == set(FILES)
    for name in FILES:
        assert (mappings_dir() / name).read_bytes() == (tmp_path / name).read_bytes(), (
            f"mappings/{name} differs from the generator: run python tools/build_facts.py"
        )


@needs_hip52
def test_the_hip52_field_list_is_the_installed_header() -> None:
    fields = fields_from_header(HIP_RUNTIME_API.read_text(encoding="utf-8"))
    committed = [(r["field"], r["type"]) for r in read_tsv(TOOLS / "hip52_device_prop_fields.tsv")]
    assert committed == fields
    names = {f for f, _ in fields}
    assert {"name", "warpSize", "maxSharedMemoryPerMultiProcessor", "gcnArch"} <= names
    assert "asyncEngineCount" not in names


@needs_hip52
def test_cooperative_group_names_missing_in_hip52_are_not_in_its_headers() -> None:
    identifiers: set[str] = set()
    for header in CG_HEADERS:
        source = header.read_bytes()
        identifiers |= {t.text for t in lex(source, header.name) if t.kind == IDENTIFIER}
    assert {"tiled_partition", "thread_block_tile", "this_thread_block"} <= identifiers
    facts = load_mappings().cooperative_groups
    for feature in (*facts.names.values(), *facts.members.values()):
        if feature.absent_through == Version.parse("5.2"):
            assert feature.name not in identifiers, feature.name
    for header in facts.headers:
        assert not (HIP_INCLUDE / header).exists(), header


def test_device_prop_lookup_follows_the_release() -> None:
    facts = load_mappings().device_props
    assert Version.parse("5.2") in facts.releases and Version.parse("7.2.2") in facts.releases
    # missing in HIP 5.2, there from ROCm 6.2
    old = facts.absence("asyncEngineCount", Version.parse("5.2"))
    assert old is not None and old.certain and old.present_from == Version.parse("6.2.0")
    assert facts.absence("asyncEngineCount", Version.parse("6.2")) is None
    assert facts.absence("asyncEngineCount", Version.parse("7.2")) is None
    # no sample of 6.0: missing in the sample before, present in the one after: uncertain
    mid = facts.absence("asyncEngineCount", Version.parse("6.0"))
    assert mid is not None and not mid.certain and mid.checked == Version.parse("5.2")
    # missing in every sample: certain up to the last one, uncertain after it
    assert facts.absence("mpsEnabled", Version.parse("6.0")).certain
    late = facts.absence("mpsEnabled", Version.parse("7.10"))
    assert late is not None and not late.certain and late.checked == Version.parse("7.2.2")
    # older than every sample: the first sample lacks it, so it was missing then too
    assert facts.absence("asyncEngineCount", Version.parse("5.0")).certain
    assert facts.cuda_fields["sharedMemPerMultiprocessor"].startswith("the ")


def test_cooperative_group_feature_by_release() -> None:
    feature = CgFeature(
        "reduce", "name", False, Version.parse("5.2"), Version.parse("7.0"), None, ""
    )
    assert feature.missing(Version.parse("5.2")) is True
    assert feature.missing(Version.parse("5.2.3")) is True  # the same minor line
    assert feature.missing(Version.parse("6.3")) is None  # no evidence either way
    assert feature.missing(Version.parse("7.0")) is False
    assert feature.missing(Version.parse("7.2")) is False
    facts = load_mappings().cooperative_groups
    assert facts.names["this_cluster"].unqualified and not facts.names["reduce"].unqualified
    assert "cooperative_groups/reduce.h" in facts.headers
    assert facts.members["num_threads"].instead == "size()"


def test_cmake_vocabulary() -> None:
    vocab = load_mappings().cmake
    assert vocab.variables["CMAKE_CUDA_ARCHITECTURES"] == "CMAKE_HIP_ARCHITECTURES"
    assert vocab.link_targets["CUDA::cublas"] == ("roc::hipblas", "hipblas")
    assert vocab.link_targets["CUDA::cudart"] == ("hip::host", None)
    assert vocab.hip_min_cmake == (3, 21)
    assert "CMAKE_CUDA_FLAGS_DEBUG" in vocab.flag_variables
    assert "cuda_add_executable" in vocab.legacy_commands and "-Xptxas" in vocab.nvcc_flags


@needs_shared
def test_the_generator_refuses_inputs_that_contradict_the_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tools.build_facts as generator

    reviewed = tmp_path / "tools"
    reviewed.mkdir()
    tools = ("hip52_device_prop_fields.tsv", "include_overrides.tsv", "hip_vector_operators.tsv")
    # the reviewed inputs in tools/ of the same names as their mappings/ files
    same_names = [n for n in FILES[1:] if n != "vector_operators.tsv"]
    for name in (*tools, *same_names):
        (reviewed / name).write_bytes((TOOLS / name).read_bytes())
    monkeypatch.setattr(generator, "HERE", reviewed)
    monkeypatch.setattr(generator, "HIP52_FIELDS", reviewed / "hip52_device_prop_fields.tsv")
    assert build_facts(SHARED_DATA, tmp_path / "ok")["cmake.tsv"] > 0

    fields = reviewed / "cuda_device_prop_fields.tsv"
    good = fields.read_text()
    fields.write_text(good + "madeUpField\thipDeviceAttributeMadeUp\tnone\n")
    with pytest.raises(ValueError, match="not in HIP's headers"):
        build_facts(SHARED_DATA, tmp_path / "bad")
    fields.write_text(good)

    cmake = reviewed / "cmake.tsv"
    cmake.write_text(cmake.read_text() + "variable\tCMAKE_CUDA_FLAGS\tCMAKE_HIP_FLAGS\t\t\n")
    with pytest.raises(ValueError, match="duplicate"):
        build_facts(SHARED_DATA, tmp_path / "bad")
    cmake.write_text((TOOLS / "cmake.tsv").read_text())

    for name, text, refusal in (
        ("texture_reference.tsv", "+madeUpReference\treference-type\tx\n", "not in"),
        ("texture_reference.tsv", "+cudaBindTexture\tfetch\tx\n", "runtime table lists too"),
        ("nvcc_macro_samples.tsv", "\t12,13\t>\t12,thirteen\t", "value 'thirteen'"),
        # a FNUZ type said to hold an OCP format; a name on no side
        ("numeric_types.tsv", "\tFNUZ e4m3\tFNUZ\t>\tOCP e4m3\tFNUZ\t", "is not FNUZ"),
        ("numeric_types.tsv", "+__made_up_fp8\tgpu\tfp8\tOCP e4m3\tOCP\t\tx\n", "side"),
    ):
        path = reviewed / name
        good = path.read_text()
        old, _, new = text.partition(">")
        path.write_text(good + old[1:] if old[:1] == "+" else good.replace(old, new, 1))
        with pytest.raises(ValueError, match=refusal):
            build_facts(SHARED_DATA, tmp_path / "bad")
        path.write_text(good)

    guards = reviewed / "include_guards.tsv"
    good = guards.read_text()
    # curand.h goes to hiprand/hiprand.h, not to the rocRAND header
    guards.write_text(good.replace("\thiprand/hiprand.h\t", "\trocrand/rocrand.h\t", 1))
    with pytest.raises(ValueError, match="the include map sends curand.h"):
        build_facts(SHARED_DATA, tmp_path / "bad")
    guards.write_text(good + "MY_GUARD_H\tmy_header.h\t\t\t\tnot NVIDIA's\n")
    with pytest.raises(ValueError, match="is not an NVIDIA header"):
        build_facts(SHARED_DATA, tmp_path / "bad")
    guards.write_text(good)

    operators = reviewed / "hip_vector_operators.tsv"
    operators.write_text(operators.read_text() + "6.3\t%=\toperator%=(x)\theader\n")
    with pytest.raises(ValueError, match="not an arithmetic operator"):
        build_facts(SHARED_DATA, tmp_path / "bad")


@pytest.mark.parametrize("rocm", ["5.2", "6.3"])
def test_the_vector_operator_extraction_is_the_headers(rocm: str) -> None:
    """tools/hip_vector_operators.tsv says what each release's amd_hip_vector_types.h
    declares (HIP 5.2: the four compound operators; 6.3 adds friend * and /)."""
    from tools.vector_operators import EXTRACTED, HEADERS, operators_from_header

    header, _ = HEADERS[rocm]
    if not header.is_file():
        pytest.skip(f"no HIP {rocm} headers at {header}")
    found = [(op, decl) for op, decl, _ in operators_from_header(header.read_text())]
    committed = [
        (r["operator"], r["hip_declaration"]) for r in read_tsv(EXTRACTED) if r["rocm"] == rocm
    ]
    assert committed == found
    ops = {op for op, _ in found}
    assert {"+=", "-=", "*=", "/="} <= ops and "+" not in ops and "%=" not in ops
    assert ({"*", "/"} <= ops) == (rocm == "6.3")


def test_vector_operators_follow_the_release() -> None:
    facts = load_mappings().vector_operators
    for rocm, release, has_product in (
        ("5.0", "5.2", False),
        ("5.7", "5.2", False),
        ("6.3", "6.3", True),
        ("7.2", "6.3", True),
    ):
        got, ops = facts.for_target(Version.parse(rocm))
        assert str(got) == release and ("*" in ops) == has_product, rocm
