"""Release evidence of the mapped names (mappings/evidence.tsv, tools/build_evidence.py): the
`header:line` cells agree with the installed headers, read here with hipport's libclang
lexer (not the generator's scanner), the hip-python cells with AMD's lists, and the version
check uses the evidence where the tables give no release or the headers contradict them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import main
from hipport.lexer import IDENTIFIER, lex
from hipport.tables import Status, resolve
from hipport.target import Target, Version
from hipport.tsv import mappings_dir, read_tsv
from tools.header_index import scan_file

from .conftest import SHARED_DATA

HIP_5_2 = Path("/usr/include")
HIP_6_3 = SHARED_DATA.parent / "hip-6.3" / "include"
CLANG = sorted(Path("/usr/lib/llvm-15/lib/clang").glob("*/include"))
needs_headers = pytest.mark.skipif(
    not (HIP_5_2 / "hip" / "hip_version.h").is_file()
    or "HIP_VERSION_MINOR 2" not in (HIP_5_2 / "hip" / "hip_version.h").read_text()
    or not HIP_6_3.is_dir()
    or not CLANG,
    reason="needs Debian's HIP 5.2 headers, clang 15 and ../shared/hip-6.3",
)
NVIDIA_ONLY = ("nvidia_detail/", "nvcc_detail/", "_nvcc.h", "hip_prof_str.h")


@pytest.fixture(scope="module")
def evidence() -> list[dict[str, str]]:
    return read_tsv(mappings_dir() / "evidence.tsv")


def _identifiers(path: Path) -> dict[str, set[int]]:
    """identifier -> the lines it is on, from libclang's tokens (comments are not tokens)."""
    out: dict[str, set[int]] = {}
    for token in lex(path.read_bytes(), str(path)):
        if token.kind == IDENTIFIER:
            out.setdefault(token.text, set()).add(token.line)
    return out


def _root(cell: str, release: str) -> Path:
    if cell.startswith("clang-15/"):
        return CLANG[-1] / cell.removeprefix("clang-15/").rsplit(":", 1)[0]
    base = HIP_5_2 if release == "5.2" else HIP_6_3
    return base / cell.rsplit(":", 1)[0]


@needs_headers
@pytest.mark.parametrize("release, column", [("5.2", "hip_5_2"), ("6.3", "hip_6_3")])
def test_header_lines_name_the_identifier(evidence, release, column):
    """A sample of rows (every 40th with a place): libclang reads the named identifier on
    the named line of the named header."""
    placed = [r for r in evidence if r[column] not in ("", "absent")]
    assert len(placed) > 1500
    cache: dict[Path, dict[str, set[int]]] = {}
    for row in placed[::40]:
        path = _root(row[column], release)
        line = int(row[column].rsplit(":", 1)[1])
        idents = cache.setdefault(path, _identifiers(path))
        assert line in idents.get(row["hip"], set()), (row["hip"], row[column])


@needs_headers
@pytest.mark.parametrize("release, column", [("5.2", "hip_5_2"), ("6.3", "hip_6_3")])
def test_absent_names_are_in_no_header(evidence, release, column):
    """Every `absent` name: no header of the set read (NVIDIA-platform ones aside), nor
    clang's HIP wrappers, has it as a token."""
    absent = {r["hip"] for r in evidence if r[column] == "absent"}
    assert absent
    base = HIP_5_2 if release == "5.2" else HIP_6_3
    headers = [
        p
        for folder in ("hip", "hiprand", "hipsparse")
        for p in sorted((base / folder).rglob("*"))
        if p.is_file() and not any(n in p.as_posix() for n in NVIDIA_ONLY)
    ]
    headers += [CLANG[-1] / n for n in ("__clang_hip_math.h", "__clang_hip_cmath.h")]
    for path in headers:
        found = absent & set(_identifiers(path))
        assert not found, (path, sorted(found)[:5])


@needs_headers
def test_known_places():
    """Hand-checked rows: HIP 5.2 declares hipMalloc at hip_runtime_api.h:2510 and the
    legacy hip_bfloat16 at hip_bfloat16.h:42; the 6.3 headers __hip_bfloat16 at
    amd_hip_bf16.h:188 (5.2 has no hip_bf16.h)."""
    rows = {(r["cuda"], r["hip"]): r for r in read_tsv(mappings_dir() / "evidence.tsv")}
    assert rows["cudaMalloc", "hipMalloc"]["hip_5_2"] == "hip/hip_runtime_api.h:2510"
    assert rows["__nv_bfloat16", "hip_bfloat16"]["hip_5_2"] == "hip/hip_bfloat16.h:42"
    bf16 = rows["__nv_bfloat16", "__hip_bfloat16"]
    assert bf16["hip_5_2"] == "absent"
    assert bf16["hip_6_3"] == "hip/amd_detail/amd_hip_bf16.h:188"


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="no ../shared/data")
def test_hip_python_cells_follow_amds_lists(evidence):
    present: dict[str, list[str]] = {}
    for r in read_tsv(SHARED_DATA / "hip-python" / "hip-identifiers-6.2-to-7.2.tsv"):
        present.setdefault(r["identifier"], r["present_in"].split(","))
    for row in evidence:
        releases = present.get(row["hip"])
        expected = f"{releases[0]}..{releases[-1]}" if releases else ""
        assert row["hip_python"] == expected, row


def test_every_mapped_entry_has_a_row(tables, evidence):
    """Every family-table row with a HIP name (an exact alternative's name aside: a builtin
    such as __builtin_trap, with its own evidence) and every history.tsv row."""
    keys = {(r["cuda"], r["family"], r["hip"]) for r in evidence}
    exact = {(a.cuda, a.family) for a in tables.alternatives.values() if a.exact}
    for row in tables.rows:
        if row.hip and (row.cuda, row.family) not in exact:
            assert (row.cuda, row.family, row.hip) in keys, row.cuda
    for earlier in tables.history.values():
        for e in earlier:
            assert (e.cuda, e.family, e.hip) in keys, e
    statuses = {r["status"] for r in evidence}
    assert statuses <= {"agrees", "filled", "contradicts", "none", "builtin"}


def test_no_runtime_or_driver_mapping_is_left_without_a_release(tables):
    """Issue 26: 12 mapped runtime/driver entries had no hip_added, so no version check
    fired. Each has one now (an override's lower bound or the evidence's release), except
    the one whose HIP side is a C type (`void*`), which every release has."""
    empty = [
        r.cuda
        for r in tables.rows
        if r.family in ("runtime", "driver") and r.hip and r.hip_added is None
    ]
    assert empty == ["CUoccupancyB2DSize"]
    texture = next(r for r in tables.by_cuda["texture"] if r.family == "runtime")
    assert texture.hip_added == Version.parse("5.2.0")
    assert "evidence.tsv (filled)" in (texture.evidence or "")


def test_contradicted_entries_are_checked_from_the_evidence(tables, evidence):
    """HIP 5.2's headers lack hipTexRefGetArray (the table: from 3.0.0) and the
    HIPRTC_JIT_* options (HIP 5.2 spells them hipJitOption*): a 5.2 target does not get
    them; a target the evidence covers does."""
    contradicts = {r["cuda"]: r for r in evidence if r["status"] == "contradicts"}
    assert {"cuTexRefGetArray", "CU_JIT_MAX_REGISTERS"} <= set(contradicts)
    old = Target(rocm=Version.parse("5.2"))
    for cuda in contradicts:
        res = resolve(tables, cuda, old)
        assert res.status is Status.NEEDS_NEWER_ROCM, (cuda, res)
    res = resolve(tables, "CU_JIT_MAX_REGISTERS", Target(rocm=Version.parse("6.2")))
    assert res.status is Status.MAPPED and res.new_name == "HIPRTC_JIT_MAX_REGISTERS"
    res = resolve(tables, "cuTexRefGetArray", Target(rocm=Version.parse("6.3")))
    assert res.status is Status.MAPPED


def test_scanner_reads_declarations_not_uses():
    text = (
        "// hipFoo in a comment\n"
        "#define HIP_BAR 3\n"
        "typedef enum hipKind { hipKindA = 0, hipKindB } hipKind;\n"
        "static inline int call() { return hipFoo(1); }\n"
        "hipError_t hipFoo(int x);\n"
        'const char* s = "hipQux";\n'
    )
    found = scan_file(text)
    assert found["HIP_BAR"] == (2, 2)
    assert found["hipKindA"][0] == 3 and found["hipKindB"][0] == 3
    assert found["hipFoo"] == (5, 2)  # the declaration, not the call on line 4
    assert "hipQux" not in found  # a string is no declaration


def test_tables_show_gives_the_evidence_or_says_there_is_none():
    def show(*args: str) -> str:
        result = CliRunner().invoke(main, ["tables", "show", *args])
        assert result.exit_code == 0, result.output
        return result.output

    def evidence_of(name: str) -> dict:
        return json.loads(show(name, "--format", "json"))["entries"][0]["release_evidence"]

    assert evidence_of("cudaMalloc")["hip_5_2"] == "hip/hip_runtime_api.h:2510"
    none = evidence_of("cudaGraphNodeTypeConditional")
    assert none["status"] == "none" and "no evidence covers" in none["note"]
    assert "no evidence covers" in show("cudaGraphNodeTypeConditional")


def test_overrides_that_cite_no_evidence_have_none(tables, evidence):
    """overrides.tsv gives ten names a 7.10.0 lower bound because no evidence shows them:
    the evidence file agrees (status none), so the bound is not hiding a known release."""
    rows = {(r["cuda"], r["family"]): r for r in evidence}
    bounds = [o for o in tables.overrides if "no evidence has" in o["evidence"]]
    assert len(bounds) == 10
    for override in bounds:
        assert rows[override["cuda"], override["family"]]["status"] == "none", override["cuda"]


@needs_headers
def test_bf16_maps_to_what_each_releases_headers_declare(tables, evidence):
    """Before 5.7 nv_bfloat16 and __nv_bfloat16 map to hip_bfloat16 and cuda_bf16.h to the
    header that declares it in HIP 5.2; from 5.7 to __hip_bfloat16/__hip_bfloat162, which
    hip/hip_bf16.h declares in 6.3 (through amd_detail/amd_hip_bf16.h) and HIP 5.2 lacks."""
    rows = {(r["cuda"], r["hip"]): r for r in evidence}
    include = tables.includes["cuda_bf16.h"]
    assert include.hip_header == "hip/hip_bf16.h" and include.hip_added == Version.parse("5.7")
    for cuda in ("nv_bfloat16", "__nv_bfloat16"):
        old = resolve(tables, cuda, Target(rocm=Version.parse("5.2")))
        assert old.status is Status.MAPPED and old.new_name == "hip_bfloat16"
        place = rows[cuda, "hip_bfloat16"]["hip_5_2"]
        assert place.startswith(include.earlier_header + ":"), place
        new = resolve(tables, cuda, Target(rocm=Version.parse("6.3")))
        assert new.new_name == "__hip_bfloat16"
    bf16_h = (HIP_6_3 / "hip" / "hip_bf16.h").read_text()
    assert "amd_detail/amd_hip_bf16.h" in bf16_h
    for cuda, hip in (("nv_bfloat162", "__hip_bfloat162"), ("__nv_bfloat162", "__hip_bfloat162")):
        row = rows[cuda, hip]
        assert row["hip_5_2"] == "absent"
        assert row["hip_6_3"].startswith("hip/amd_detail/amd_hip_bf16.h:")
        res = resolve(tables, cuda, Target(rocm=Version.parse("5.2")))
        assert res.status is Status.NEEDS_NEWER_ROCM  # no bf16x2 type in HIP 5.2: HIP002
