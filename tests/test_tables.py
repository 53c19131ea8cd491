"""The mapping tables: schema, versions, generator, counts and every lookup outcome."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hipport.tables import FAMILIES, Status, load_tables, resolve
from hipport.tables.model import Mapping, Tables, mappings_dir
from hipport.target import Target, Version
from hipport.tsv import read_tsv

from .conftest import ROOT, SHARED_DATA

needs_shared = pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="../shared/data is absent")
KINDS = {"function", "type", "constant", "macro"}
VERSION_FIELDS = [
    f
    for f in Mapping._fields
    if f.endswith(("_added", "_deprecated", "_changed", "_removed", "_experimental"))
]


def test_every_row_matches_the_schema(tables):
    assert len(tables.rows) == sum(tables.counts.values()) + len(tables.additions)
    for row in tables.rows:
        assert row.cuda and not row.cuda.startswith("`"), row
        assert row.kind in KINDS, row
        assert row.family in FAMILIES, row
        assert row.section, row
        for name in VERSION_FIELDS:
            value = getattr(row, name)
            assert value is None or isinstance(value, Version), (row.cuda, name, value)
        # unsupported is exactly "no HIP name" (an override may add one)
        assert row.unsupported == (row.hip is None), row
        if row.roc:
            assert row.roc_library in {"rocBLAS", "rocRAND", "rocSPARSE", "rocSOLVER", "MIOpen"}, (
                row
            )
        else:
            assert row.roc_library is None and row.roc_added is None, row
        if row.hip is None:
            assert row.hip_added is None and row.hip_deprecated is None, row


def test_version_columns_are_ordered(tables):
    bad = []
    for row in tables.rows:
        for side in ("cuda", "hip", "roc"):
            seq = [getattr(row, f"{side}_{e}") for e in ("added", "deprecated", "removed")]
            present = [v for v in seq if v is not None]
            if present != sorted(present):
                bad.append((row.cuda, side, [str(v) for v in seq]))
    assert not bad, bad[:10]


def test_versions_compare_numerically():
    assert Version.parse("6.10") > Version.parse("6.9")
    assert Version.parse("6.2") == Version.parse("6.2.0")
    assert Version.parse("6.3-dev") > Version.parse("6.3.0")
    assert Version.parse("10.0") > Version.parse("9.2")
    with pytest.raises(ValueError):
        Version.parse("six")


def _count_source_rows(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("|`"))


@needs_shared
def test_counts_equal_the_source_tables(tables):
    from tools.build_mappings import FAMILIES as SOURCES

    assert set(SOURCES) == set(FAMILIES)
    for family, (fname, _) in SOURCES.items():
        expected = _count_source_rows(SHARED_DATA / "hipify-tables" / fname)
        assert tables.counts[family] == expected, family
        added = {a["cuda"] for a in tables.additions if a["family"] == family}
        imported = [r for r in tables.rows if r.family == family and r.cuda not in added]
        assert len(imported) == expected, family
    readme = (ROOT / "mappings" / "README.md").read_text(encoding="utf-8")
    for family, count in tables.counts.items():
        assert re.search(rf"^\| {family} \| \S+ \| {count} \|$", readme, re.M), family
    assert f"**{sum(tables.counts.values())}**" in readme


@needs_shared
@pytest.mark.parametrize(
    "family,stem",
    [
        ("blas", "CUBLAS"),
        ("rand", "CURAND"),
        ("sparse", "CUSPARSE"),
        ("solver", "CUSOLVER"),
    ],
)
def test_combined_tables_agree_with_hip_only_and_roc_only(tables, family, stem):
    """Each library family is read from the *_HIP_and_ROC file (the authority); the split
    views must agree with it: the HIP view row for row (where it is published), the ROC view
    on the ROC name of every CUDA name both list. A name only one view lists must have no ROC
    name there, so that which file is read changes no mapping."""
    rows = [r for r in tables.rows if r.family == family and r.evidence is None]
    hip_path = SHARED_DATA / "hipify-tables" / f"{stem}_API_supported_by_HIP.md"
    if hip_path.exists():
        assert [(r.cuda, r.hip or "", str(r.hip_added or "")) for r in rows] == [
            (c[0], c[5], c[6]) for c in _first_columns(hip_path)
        ]
    roc_only = _first_columns(SHARED_DATA / "hipify-tables" / f"{stem}_API_supported_by_ROC.md")
    combined = {r.cuda: r.roc or "" for r in rows}
    split = {c[0]: c[5] for c in roc_only}
    differ = {n for n in combined if n in split and split[n] != combined[n]}
    # The published BLAS ROC view is slightly newer than the joint file: it adds two rocBLAS
    # names the joint file (the authority, see ../shared/data/README.md) does not have yet.
    assert differ <= {"cublasCherkEx", "cublasCsyrkEx"}, differ
    assert all(not combined[n] for n in differ)
    assert not [n for n in split.keys() ^ combined.keys() if split.get(n) or combined.get(n)]
    assert len(split.keys() ^ combined.keys()) <= 2  # the ROC view is published separately


def _first_columns(path: Path) -> list[list[str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("|`"):
            cells = [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]
            if cells[6]:
                cells[6] = str(Version.parse(cells[6]))
            out.append(cells)
    return out


@needs_shared
@pytest.mark.slow
def test_committed_tables_equal_the_generator_output(tmp_path):
    from tools.build_mappings import build

    build(SHARED_DATA, tmp_path)
    committed = ROOT / "mappings"
    generated = sorted(p.name for p in tmp_path.iterdir())
    for name in generated:
        assert (committed / name).read_bytes() == (tmp_path / name).read_bytes(), (
            f"mappings/{name} differs from the generator: run python tools/build_mappings.py"
        )
    assert set(generated) <= {p.name for p in committed.iterdir()}


def test_notice_ships_with_the_tables():
    notice = (mappings_dir() / "NOTICE").read_text(encoding="utf-8")
    assert "HIPIFY" in notice and "Permission is hereby granted" in notice


def test_overrides_carry_evidence_and_conditions(tables):
    for override in tables.overrides:
        assert override["evidence"].strip(), override
        row = next(r for r in tables.by_cuda[override["cuda"]] if r.family == override["family"])
        assert row.hip == (override["hip"] or row.hip) and row.evidence == override["evidence"]
        assert row.condition == (override["condition"] or None)


@needs_shared
@pytest.mark.slow
def test_overrides_change_what_the_tables_do_not_say(tables):
    """An override that repeats the imported name and version, with no condition, is stale."""
    from tools.build_mappings import FAMILIES as SOURCES
    from tools.build_mappings import parse_table

    for override in tables.overrides:
        fname, alt = SOURCES[override["family"]]
        source = parse_table(SHARED_DATA / "hipify-tables" / fname, override["family"], alt)
        imported = next(r for r in source if r["cuda"] == override["cuda"])
        changes_name = override["hip"] and override["hip"] != imported["hip"]
        changes_version = override["hip_added"] and override["hip_added"] != imported["hip_added"]
        assert changes_name or changes_version or override["condition"], override


def test_additions_are_new_names_with_evidence(tables):
    for addition in tables.additions:
        assert addition["evidence"].strip(), addition
        rows = tables.by_cuda[addition["cuda"]]
        assert len(rows) == 1, f"{addition['cuda']} is already in the imported tables"
        assert rows[0].condition == (addition["condition"] or None)


def test_an_addition_is_appended_to_its_family(tmp_path):
    for path in mappings_dir().iterdir():
        shutil.copy(path, tmp_path / path.name)
    with (tmp_path / "additions.tsv").open("a", encoding="utf-8") as fh:
        fh.write(
            "__nosuch_sync\tdevice\tfunction\tDevice Functions\t__nosuch_sync\t7.0.0\t\ttest\n"
        )
    tbl = Tables(tmp_path)
    (row,) = tbl.by_cuda["__nosuch_sync"]
    assert row.family == "device" and row.hip_added == Version.parse("7.0")
    assert resolve(tbl, "__nosuch_sync", Target(rocm="6.4")).status is Status.NEEDS_NEWER_ROCM


def test_include_overrides_carry_evidence(tables):
    assert tables.include_overrides
    for override in tables.include_overrides:
        assert override["evidence"].strip(), override
        row = tables.includes[override["cuda_header"]]
        assert row.hip_header == (override["hip_header"] or row.hip_header)
        assert row.evidence == override["evidence"]
        assert row.hip_added == (
            Version.parse(override["hip_added"]) if override["hip_added"] else None
        )
        assert row.earlier_header == (override["earlier_header"] or None)


@needs_shared
def test_hipext_versions_come_from_the_header_scan(tables):
    scan = {}
    for line in (SHARED_DATA / "hip-identifiers-by-rocm.tsv").read_text().splitlines()[1:]:
        name, first, _last = line.split("\t")
        scan[name] = first
    required = {
        "hipExtMallocWithFlags",
        "hipExtLaunchKernelGGL",
        "hipExtLaunchKernel",
        "hipExtModuleLaunchKernel",
        "hipExtStreamCreateWithCUMask",
        "hipExtStreamGetCUMask",
        "hipExtGetLinkTypeAndHopCount",
        "hipExtLaunchMultiKernelMultiDevice",
        "hipExtGetLastError",
    }
    assert required <= set(tables.hipext)
    public = {n for n in scan if re.match(r"hipExt[A-Z]", n) and not n.endswith(("_fn", "Impl"))}
    excluded = {
        line.split("\t")[0]
        for line in (ROOT / "tools" / "hipext_excluded.tsv").read_text().splitlines()[1:]
    }
    assert public - excluded <= set(tables.hipext), public - excluded - set(tables.hipext)
    assert not excluded & set(tables.hipext)
    for ext in tables.hipext.values():
        assert Version.parse(scan[ext.name]) == ext.rocm_added, ext.name
        assert ext.signature and ext.stands_in_for, ext.name


# --- the lookup: one case per outcome -------------------------------------------------------


def test_lookup_mapped(tables):
    res = resolve(tables, "cudaMalloc", Target(rocm="5.2"))
    assert res.status is Status.MAPPED and res.new_name == "hipMalloc"
    assert res.family == "runtime" and res.min_rocm == Version.parse("1.5.0")


def test_lookup_unsupported(tables):
    res = resolve(tables, "cudaInitDevice", Target())
    assert res.status is Status.UNSUPPORTED and res.new_name is None


def test_lookup_needs_newer_rocm(tables):
    res = resolve(tables, "cudaDeviceSetLimit", Target(rocm="5.2"))
    assert res.status is Status.NEEDS_NEWER_ROCM and res.min_rocm == Version.parse("5.3.0")
    assert resolve(tables, "cudaDeviceSetLimit", Target(rocm="5.3")).status is Status.MAPPED


def test_lookup_compares_versions_numerically(tables):
    # hipDeviceSetLimit appeared in 5.3.0: 5.10 is newer than 5.3, 5.2.9 is older
    assert resolve(tables, "cudaDeviceSetLimit", Target(rocm="5.10")).status is Status.MAPPED
    assert (
        resolve(tables, "cudaDeviceSetLimit", Target(rocm="5.2.9")).status
        is Status.NEEDS_NEWER_ROCM
    )


def test_lookup_experimental(tables):
    res = resolve(tables, "cudaMemPrefetchBatchAsync", Target(rocm="7.14"))
    assert res.status is Status.EXPERIMENTAL and res.experimental == Version.parse("7.14.0")
    res = resolve(tables, "cudaMemPrefetchBatchAsync", Target(rocm="7.14", experimental=True))
    assert res.status is Status.MAPPED and res.new_name == "hipMemPrefetchBatchAsync"


def test_lookup_removed_and_deprecated_in_cuda(tables):
    res = resolve(tables, "cudaBindTexture", Target(cuda="12.2"))
    assert res.status is Status.MAPPED
    assert res.removed_cuda == Version.parse("12.0")
    assert res.deprecated_cuda == Version.parse("11.0")
    older = resolve(tables, "cudaBindTexture", Target(cuda="10.2"))
    assert older.removed_cuda is None and older.deprecated_cuda is None
    assert resolve(tables, "cudaThreadSynchronize", Target()).deprecated_cuda == Version.parse(
        "10.0"
    )


def test_lookup_deprecated_in_hip(tables):
    res = resolve(tables, "cuDevicePrimaryCtxRelease", Target(rocm="6.2"))
    assert res.status is Status.MAPPED and res.deprecated_hip == Version.parse("6.1.0")
    assert resolve(tables, "cuDevicePrimaryCtxRelease", Target(rocm="6.0")).deprecated_hip is None


def test_lookup_removed_from_hip(tmp_path):
    """No row of the October-2024 snapshot has a HIP removal; build a table that does."""
    for path in mappings_dir().iterdir():
        shutil.copy(path, tmp_path / path.name)
    runtime = tmp_path / "runtime.tsv"
    text = runtime.read_text()
    line = next(li for li in text.splitlines() if li.startswith("cudaMalloc\t"))
    cells = line.split("\t")
    cells[12] = "6.0.0"  # hip_removed
    runtime.write_text(text.replace(line, "\t".join(cells)))
    tbl = Tables(tmp_path)
    assert resolve(tbl, "cudaMalloc", Target(rocm="6.1")).status is Status.REMOVED_HIP
    assert resolve(tbl, "cudaMalloc", Target(rocm="5.7")).status is Status.MAPPED


def test_lookup_unknown_and_hip_names(tables):
    assert resolve(tables, "cudaNoSuchThing", Target()).status is Status.UNKNOWN
    assert resolve(tables, "hipMalloc", Target()).status is Status.HIP
    assert resolve(tables, "hipExtMallocWithFlags", Target()).status is Status.HIP


def test_lookup_offers_hipext_alternatives(tables):
    res = resolve(tables, "cudaDeviceGetP2PAttribute", Target())
    assert "hipExtGetLinkTypeAndHopCount" in [a.name for a in res.alternatives]
    res = resolve(tables, "cuGreenCtxCreate", Target())
    assert res.status is Status.UNSUPPORTED
    assert "hipExtStreamCreateWithCUMask" in [a.name for a in res.alternatives]


def test_lookup_roc_alternative(tables):
    assert resolve(tables, "cublasSgemm", Target()).new_name == "hipblasSgemm"
    res = resolve(tables, "cublasSgemm", Target(roc=True))
    assert res.new_name == "rocblas_sgemm" and res.library == "rocBLAS"
    # no ROC name: --roc falls back to the hip* wrapper
    assert resolve(tables, "cudaMalloc", Target(roc=True)).new_name == "hipMalloc"


def test_lookup_reports_a_required_macro(tables):
    res = resolve(tables, "__shfl_down_sync", Target(rocm="6.2"))
    assert res.status is Status.MAPPED and res.condition == "HIP_ENABLE_WARP_SYNC_BUILTINS"
    assert "HIP_ENABLE_WARP_SYNC_BUILTINS" in res.reason()
    assert resolve(tables, "__shfl_down_sync", Target(rocm="6.1")).status is (
        Status.NEEDS_NEWER_ROCM
    )


# --- target-dependent mappings (history.tsv) --------------------------------------------------


@pytest.mark.parametrize(
    "rocm,status,hip",
    [
        ("5.7", Status.NEEDS_NEWER_ROCM, "hipblasCaxpy_v2"),  # the _v2 name appeared in 6.0
        ("6.0", Status.MAPPED, "hipblasCaxpy_v2"),
        ("6.4", Status.MAPPED, "hipblasCaxpy_v2"),
        ("7.0", Status.MAPPED, "hipblasCaxpy"),  # ROCm 7.0 dropped the _v2 names
        ("7.2", Status.MAPPED, "hipblasCaxpy"),
    ],
)
def test_blas_v2_mapping_depends_on_the_target(tables, rocm, status, hip):
    res = resolve(tables, "cublasCaxpy_v2", Target(rocm=rocm))
    assert (res.status, res.new_name) == (status, hip)
    if status is Status.NEEDS_NEWER_ROCM:
        assert res.min_rocm == Version.parse("6.0") and "ROCm 6.0.0" in res.reason()


@pytest.mark.parametrize(
    "rocm,status,hip",
    [
        ("6.0", Status.NEEDS_NEWER_ROCM, "HIP_MEMSET_NODE_PARAMS"),
        ("6.1", Status.MAPPED, "HIP_MEMSET_NODE_PARAMS"),
        ("6.4.3", Status.MAPPED, "HIP_MEMSET_NODE_PARAMS"),
        ("7.0", Status.MAPPED, "hipMemsetParams"),
        ("7.2", Status.MAPPED, "hipMemsetParams"),
    ],
)
def test_memset_node_params_follow_the_target(tables, rocm, status, hip):
    res = resolve(tables, "CUDA_MEMSET_NODE_PARAMS", Target(rocm=rocm))
    assert (res.status, res.new_name) == (status, hip)


def test_an_older_counterpart_is_accepted_as_hip(tables):
    assert resolve(tables, "hipblasCaxpy_v2", Target()).status is Status.HIP
    assert resolve(tables, "HIP_MEMSET_NODE_PARAMS", Target()).status is Status.HIP


@needs_shared
def test_history_rows_come_from_the_2024_snapshot(tables):
    """Every earlier mapping is the October-2024 snapshot's HIP name for that CUDA name (or a
    reviewed addition, tools/history_additions.tsv), it differs from the newest mapping, and
    its window is not empty."""
    old = {}
    for path in (SHARED_DATA / "hipify-tables-2024-10").glob("*.md"):
        for cells in _first_columns(path):
            if cells[5]:
                old.setdefault(cells[0], set()).add(cells[5])
    added = {(r["cuda"], r["hip"]) for r in read_tsv(ROOT / "tools" / "history_additions.tsv")}
    assert len(tables.history) > 300
    for (cuda, family), earlier in tables.history.items():
        current = {r.hip for r in tables.by_cuda[cuda] if r.family == family}
        for e in earlier:
            if (cuda, e.hip) in added:
                assert e.hip not in current and e.hip_added < e.hip_until, e
                continue
            assert e.hip in old[cuda], (cuda, e.hip)
            assert e.hip not in current, (cuda, e.hip)
            assert e.hip_added < e.hip_until, e
            assert e.evidence.startswith("HIPIFY 2024-10"), e


def test_default_target_is_the_newest_production_release(tables):
    production = [r.version for r in tables.landscape.rocm if r.line == "production"]
    preview = [r.version for r in tables.landscape.rocm if r.line == "preview"]
    assert tables.newest_rocm == max(production) == Version.parse("7.2.2")
    assert max(preview) == Version.parse("7.14") > tables.newest_rocm
    assert {str(v) for v in preview} == {"7.10.0", "7.11.0", "7.12.0", "7.13.0", "7.14.0"}
    assert resolve(tables, "cudaSetValidDevices", Target()).status is Status.MAPPED


def test_a_preview_only_api_names_the_preview_release(tables):
    res = resolve(tables, "cudaMemPrefetchBatchAsync", Target())
    assert res.status is Status.NEEDS_NEWER_ROCM and res.preview_only
    assert "technology-preview" in res.reason() and "7.13.0" in res.reason()
    res = resolve(tables, "cudaMemPrefetchBatchAsync", Target(rocm="7.12"))
    assert res.status is Status.NEEDS_NEWER_ROCM and not res.preview_only


@needs_shared
def test_releases_come_from_the_data(tables):
    """Every HIP version of a family table is a known ROCm release, every CUDA version of a
    toolkit family a known CUDA release; hip-python's sampled releases are ROCm releases."""
    from tools.build_mappings import OWN_VERSIONS

    rocm = {r.version for r in tables.landscape.rocm}
    cuda = {r.version for r in tables.landscape.cuda}
    for row in tables.rows:
        assert {row.hip_added, row.hip_removed, row.hip_experimental} - {None} <= rocm, row
        if row.family not in OWN_VERSIONS:
            assert {row.cuda_added, row.cuda_removed} - {None} <= cuda, row
            assert set(row.cuda_unsupported) <= cuda, row
    sampled = (SHARED_DATA / "hip-python" / "sources.tsv").read_text()
    for version in ("6.2.0", "6.3.3", "6.4.4", "7.0.2", "7.1.1", "7.2.2"):
        assert version in sampled and Version.parse(version) in rocm


def test_tables_load_once_per_process():
    assert load_tables() is load_tables()


# --- `hipport tables` -------------------------------------------------------------------------


def _both(args, hipport_cmd, subprocess_env):
    """Run a command through click's runner and as a real subprocess; both must agree."""
    from click.testing import CliRunner

    from hipport.cli import main

    inproc = CliRunner().invoke(main, args)
    proc = subprocess.run(
        hipport_cmd + args, capture_output=True, text=True, env=subprocess_env, timeout=120
    )
    assert inproc.exit_code == proc.returncode, (inproc.output, proc.stderr)
    return inproc, proc


@pytest.mark.slow
def test_cli_show(hipport_cmd, subprocess_env):
    inproc, proc = _both(
        ["tables", "show", "cudaMalloc", "--format", "json"], hipport_cmd, subprocess_env
    )
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert json.loads(inproc.output) == data
    entry = data["entries"][0]
    assert entry["hip"] == "hipMalloc" and entry["hip_added"] == "1.5.0"
    assert set(Mapping._fields) <= set(entry)
    text = subprocess.run(
        hipport_cmd + ["tables", "show", "hipMalloc"],
        capture_output=True,
        text=True,
        env=subprocess_env,
    ).stdout
    assert "cudaMalloc" in text and "1.5.0" in text


@pytest.mark.slow
def test_cli_show_hipext_and_missing(hipport_cmd, subprocess_env):
    _, proc = _both(
        ["tables", "show", "hipExtStreamCreateWithCUMask", "--format", "json"],
        hipport_cmd,
        subprocess_env,
    )
    assert json.loads(proc.stdout)["hipext"]["rocm_added"] == "3.6.0"
    _, proc = _both(["tables", "show", "cudaNoSuchThing"], hipport_cmd, subprocess_env)
    assert proc.returncode == 1 and "not in the tables" in proc.stderr


@pytest.mark.slow
def test_cli_coverage_json(hipport_cmd, subprocess_env, tables):
    _, proc = _both(
        ["tables", "coverage", "--rocm", "6.1", "--format", "json"], hipport_cmd, subprocess_env
    )
    data = json.loads(proc.stdout)
    assert [d["family"] for d in data] == list(FAMILIES)
    for d in data:
        assert {
            "family",
            "total",
            "mapped",
            "unsupported",
            "experimental",
            "needs_newer_rocm",
        } <= set(d)
        assert d["total"] == sum(1 for r in tables.rows if r.family == d["family"])
        assert d["total"] == sum(
            d[k]
            for k in ("mapped", "unsupported", "experimental", "needs_newer_rocm", "removed_hip")
        )
    runtime = next(d for d in data if d["family"] == "runtime")
    # counted independently of the coverage code: rows with a HIP name added by 6.1, or an
    # older mapping (history.tsv) in force at 6.1
    v61 = Version.parse("6.1")

    def mapped_at_6_1(r: Mapping) -> bool:
        earlier = tables.history.get((r.cuda, r.family), ())
        if any(v61 < e.hip_until for e in earlier):
            return any(e.hip_added <= v61 < e.hip_until for e in earlier)
        return bool(r.hip and (r.hip_added is None or r.hip_added <= v61))

    expected = sum(
        1
        for r in tables.rows
        if r.family == "runtime" and mapped_at_6_1(r) and r.hip_experimental is None
    )
    assert runtime["mapped"] == expected


@pytest.mark.slow
def test_cli_coverage_grows_with_rocm(hipport_cmd, subprocess_env):
    def mapped(rocm):
        out = subprocess.run(
            hipport_cmd + ["tables", "coverage", "--rocm", rocm, "--format", "json"],
            capture_output=True,
            text=True,
            env=subprocess_env,
            check=True,
        ).stdout
        return sum(d["mapped"] for d in json.loads(out))

    assert mapped("5.2") < mapped("6.0") < mapped("6.3")


@pytest.mark.parametrize(
    "fmt,marker",
    [("csv", "family,total,mapped"), ("markdown", "| family | total |"), ("text", "runtime")],
)
@pytest.mark.slow
def test_cli_coverage_formats(fmt, marker, hipport_cmd, subprocess_env):
    _, proc = _both(["tables", "coverage", "--format", fmt], hipport_cmd, subprocess_env)
    assert proc.returncode == 0 and marker in proc.stdout


@pytest.mark.slow
def test_cli_diff(hipport_cmd, subprocess_env):
    _, proc = _both(
        ["tables", "diff", "--from", "6.1", "--to", "6.2", "--format", "json"],
        hipport_cmd,
        subprocess_env,
    )
    changes = json.loads(proc.stdout)
    names = {c["cuda"] for c in changes}
    assert "cudaSetValidDevices" in names and "__shfl_sync" in names
    assert "cudaMalloc" not in names
    # a change is a status change or a rename (history.tsv) between the two releases
    assert all(c["before"] != c["after"] or c["hip_before"] != c["hip"] for c in changes)
    # the HIP name printed is the one ROCm 6.2 has, not the newest (history.tsv's names
    # added by 6.2.0 and replaced only later)
    history = {
        r["cuda"]: r["hip"]
        for r in csv.DictReader((ROOT / "mappings" / "history.tsv").open(), delimiter="\t")
        if r["hip_added"] == "6.2.0" and Version.parse(r["hip_until"]) > Version.parse("6.2")
    }
    at_62 = [c for c in changes if c["cuda"] in history]
    assert at_62, "no renamed entry becomes available in 6.2: the check below checks nothing"
    assert all(c["hip"] == history[c["cuda"]] for c in at_62), at_62[:3]
    _, proc = _both(["tables", "diff", "--from", "6.2", "--to", "6.1"], hipport_cmd, subprocess_env)
    assert proc.returncode == 2


@pytest.mark.slow
def test_cli_diff_lists_a_rename_between_the_releases(hipport_cmd, subprocess_env):
    """history.tsv: cudaDevAttrPciDomainId -> hipDeviceAttributePciDomainID until 7.0.0,
    hipDeviceAttributePciDomainId from 7.0.0: same status, another name."""
    _, proc = _both(
        ["tables", "diff", "--from", "6.4", "--to", "7.0", "--format", "json"],
        hipport_cmd,
        subprocess_env,
    )
    row = next(c for c in json.loads(proc.stdout) if c["cuda"] == "cudaDevAttrPciDomainId")
    assert (row["hip_before"], row["hip"]) == (
        "hipDeviceAttributePciDomainID",
        "hipDeviceAttributePciDomainId",
    )
    _, text = _both(["tables", "diff", "--from", "6.4", "--to", "7.0"], hipport_cmd, subprocess_env)
    assert "was hipDeviceAttributePciDomainID" in text.stdout


@pytest.mark.slow
def test_cli_search(hipport_cmd, subprocess_env):
    _, proc = _both(
        ["tables", "search", "cudaMemcpy*Async", "--format", "json"], hipport_cmd, subprocess_env
    )
    data = json.loads(proc.stdout)
    names = {e["cuda"] for e in data["entries"]}
    assert {"cudaMemcpyAsync", "cudaMemcpy2DAsync"} <= names
    assert all(n.startswith("cudaMemcpy") and n.endswith("Async") for n in names)
    _, proc = _both(["tables", "search", "hipExtLaunch"], hipport_cmd, subprocess_env)
    assert "hipExtLaunchKernelGGL" in proc.stdout
    _, proc = _both(["tables", "search", "zzzznothing"], hipport_cmd, subprocess_env)
    assert proc.returncode == 1


def test_cli_rejects_bad_version(hipport_cmd, subprocess_env):
    _, proc = _both(["tables", "coverage", "--rocm", "six"], hipport_cmd, subprocess_env)
    assert proc.returncode == 2 and "not a version" in proc.stderr


@pytest.mark.slow
def test_cli_releases(hipport_cmd, subprocess_env, tables):
    inproc, proc = _both(["tables", "releases", "--format", "json"], hipport_cmd, subprocess_env)
    data = json.loads(proc.stdout)
    assert json.loads(inproc.output) == data
    assert data["default_rocm"] == "7.2.2"
    lines = {r["version"]: r["line"] for r in data["rocm"]}
    assert lines["7.2.2"] == lines["7.0.0"] == lines["6.4.0"] == "production"
    assert lines["7.10.0"] == lines["7.14.0"] == "preview"
    assert [r["version"] for r in data["rocm"]] == [str(r.version) for r in tables.landscape.rocm]
    assert {"12.8", "13.0", "13.2"} <= {r["version"] for r in data["cuda"]}
    text = subprocess.run(
        [*hipport_cmd, "tables", "releases"], capture_output=True, text=True, env=subprocess_env
    )
    assert "7.2.2    production" in text.stdout and "(default target)" in text.stdout
    assert "7.13.0   preview" in text.stdout


@pytest.mark.parametrize(
    "args,words",
    [
        (["--rocm", "9.9"], ["ROCm 9.9 is newer than any release", "ROCm 7.14.0", "7.2.2"]),
        (["--rocm", "6.10"], ["ROCm 6.10 is not a release", "ROCm 7.14.0"]),
        (["--cuda", "14.0"], ["CUDA 14.0 is newer than any release", "CUDA 13.3"]),
    ],
)
@pytest.mark.slow
def test_unknown_releases_warn_and_the_run_goes_on(args, words, hipport_cmd, subprocess_env):
    proc = subprocess.run(
        [*hipport_cmd, "tables", "coverage", *args, "--format", "json"],
        capture_output=True,
        text=True,
        env=subprocess_env,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)
    assert proc.stderr.startswith("hipport: warning:"), proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr


@pytest.mark.slow
def test_known_releases_do_not_warn(hipport_cmd, subprocess_env):
    for args in (["--rocm", "7.2"], ["--rocm", "6.4.3"], ["--rocm", "7.13"], ["--cuda", "12.8"]):
        proc = subprocess.run(
            [*hipport_cmd, "tables", "coverage", *args, "--format", "json"],
            capture_output=True,
            text=True,
            env=subprocess_env,
        )
        assert proc.returncode == 0 and proc.stderr == "", (args, proc.stderr)


@pytest.mark.slow
def test_a_configured_rocm_pins_the_target(tmp_path, hipport_cmd, subprocess_env):
    (tmp_path / "pyproject.toml").write_text('[tool.hipport]\nrocm = "6.4"\n')
    (tmp_path / "a.cu").write_text(
        "#include <cublas_v2.h>\nvoid f(cublasHandle_t h){ cublasCreate_v2(&h); }\n"
    )
    proc = subprocess.run(
        [*hipport_cmd, "check", ".", "--format", "json"],
        capture_output=True,
        text=True,
        env=subprocess_env,
        cwd=tmp_path,
    )
    assert json.loads(proc.stdout)["rocm"]["target"] == "6.4"
    proc = subprocess.run(
        [*hipport_cmd, "check", ".", "--format", "json", "--rocm", "7.1"],
        capture_output=True,
        text=True,
        env=subprocess_env,
        cwd=tmp_path,
    )
    assert json.loads(proc.stdout)["rocm"]["target"] == "7.1"


@pytest.mark.slow
def test_the_default_target_is_in_the_reports(tmp_path, hipport_cmd, subprocess_env):
    (tmp_path / "a.cu").write_text("#include <cuda_runtime.h>\nvoid f(){ cudaFree(0); }\n")
    proc = subprocess.run(
        [*hipport_cmd, "check", "a.cu", "--format", "json"],
        capture_output=True,
        text=True,
        env=subprocess_env,
        cwd=tmp_path,
    )
    assert json.loads(proc.stdout)["rocm"]["target"] == "7.2.2"
    proc = subprocess.run(
        [*hipport_cmd, "check", "a.cu"],
        capture_output=True,
        text=True,
        env=subprocess_env,
        cwd=tmp_path,
    )
    assert re.search(r"^target ROCm +7\.2\.2$", proc.stdout, re.M), proc.stdout


@pytest.mark.slow
def test_wheel_installs_and_runs(tmp_path):
    """`pip install .` (not editable) gives a working hipport with its tables."""
    # the venv must see only what the wheel installed, not a checkout on PYTHONPATH
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
        env=env,
    )
    wheel = next((tmp_path / "dist").glob("hipport-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300, env=env)
    pip = venv / "bin" / "pip"
    subprocess.run([str(pip), "install", "-q", str(wheel)], check=True, timeout=600, env=env)
    out = subprocess.run(
        [str(venv / "bin" / "hipport"), "tables", "show", "cudaMalloc", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        timeout=120,
        env=env,
    ).stdout
    assert json.loads(out)["entries"][0]["hip"] == "hipMalloc"
    files = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import hipport.tables.model as m; print(m.mappings_dir())",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=env,
    ).stdout
    assert str(venv) in files  # the packaged copy, not this checkout


# --- the include map and the project's own headers ------------------------------------------

SAMPLE = (
    b'#include "helper_cuda.h"\n#include <helper_math.h>\n'
    b"__global__ void k(float* p) { p[0] = 1.0f; }\n"
)


def _translate_tree(tmp_path: Path, files: dict[str, bytes], hipport_cmd, env) -> dict[str, bytes]:
    src = tmp_path / "src"
    for name, data in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_bytes(data)
    out = tmp_path / "out"
    proc = subprocess.run(
        [*hipport_cmd, "translate", str(src), "-o", str(out), "-q"],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_sample_headers_are_remapped_when_the_project_lacks_them(
    tmp_path, hipport_cmd, subprocess_env
):
    out = _translate_tree(tmp_path, {"a.cu": SAMPLE}, hipport_cmd, subprocess_env)
    assert b'#include "hip/hip_runtime_api.h"' in out["a.cu"]
    assert b"#include <hip/hip_vector_types.h>" in out["a.cu"]


@pytest.mark.slow
def test_a_project_helper_header_is_its_own(tmp_path, hipport_cmd, subprocess_env):
    helper = b"#pragma once\n#include <cstdio>\n#define checkCudaErrors(x) (x)\n"
    files = {"a.cu": SAMPLE, "common/helper_cuda.h": helper, "common/helper_math.h": helper}
    out = _translate_tree(tmp_path, files, hipport_cmd, subprocess_env)
    assert b'#include "helper_cuda.h"' in out["a.cu"]
    assert b"#include <helper_math.h>" in out["a.cu"]
    assert out["common/helper_cuda.h"] == helper


# --- the cross-check with hip-python ------------------------------------------------------------


@needs_shared
@pytest.mark.slow
def test_every_hip_python_disagreement_is_reviewed(tables):
    """Every disagreement between the tables' HIP versions and the releases hip-python declares
    a name in is resolved in tools/hip_python_review.tsv, and no review row is stale."""
    from tools.crosscheck_hip_python import disagreements, review, unresolved

    found = disagreements(tables, SHARED_DATA)
    missing, stale = unresolved(found, review(ROOT / "tools" / "hip_python_review.tsv"))
    assert not missing, missing[:20]
    assert not stale, stale
    assert found  # the check compares something: e.g. the hipJitOption values


@needs_shared
@pytest.mark.slow
def test_the_cross_check_finds_a_wrong_spelling(tables, tmp_path):
    """Without its override, HIPIFY's hipDeviceAttributeMaxBlocksPerMultiprocessor (HIP spells
    it ...MultiProcessor) is a disagreement the check reports."""
    from tools.crosscheck_hip_python import disagreements

    for path in mappings_dir().iterdir():
        shutil.copy(path, tmp_path / path.name)
    overrides = (tmp_path / "overrides.tsv").read_text().splitlines(keepends=True)
    kept = [line for line in overrides if "MaxBlocksPerMultiProcessor" not in line]
    (tmp_path / "overrides.tsv").write_text("".join(kept))
    names = {name for name, check, _ in disagreements(Tables(tmp_path), SHARED_DATA)}
    assert "hipDeviceAttributeMaxBlocksPerMultiprocessor" in names
    assert "hipDeviceAttributeMaxBlocksPerMultiprocessor" not in {
        name for name, _, _ in disagreements(tables, SHARED_DATA)
    }


# --- HIPIFY's U column ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cuda,mismatch",
    [("12.8", None), ("12.9", None), ("13.0", "13.0"), ("13.2", "13.2")],
)
def test_u_column_for_the_target_cuda(tables, cuda, mismatch):
    res = resolve(tables, "cudaMemcpyBatchAsync", Target(cuda=cuda))
    assert res.status is Status.MAPPED and res.new_name == "hipMemcpyBatchAsync"
    assert res.cuda_mismatch == (Version.parse(mismatch) if mismatch else None)
    if mismatch:
        reason = res.cuda_mismatch_reason()
        assert f"CUDA {mismatch}" in reason and "changed cudaMemcpyBatchAsync in 13.0" in reason
        assert "assumed" not in reason


def test_u_column_without_cuda_assumes_the_newest(tables):
    res = resolve(tables, "cudaMemcpyBatchAsync", Target())
    assert res.cuda_mismatch == tables.landscape.newest_cuda and res.cuda_assumed
    assert f"assumed CUDA {tables.landscape.newest_cuda}" in res.cuda_mismatch_reason()


def test_u_column_listing_releases(tables):
    """cuGetProcAddress: U lists 11.3 ... 11.8 (CUDA 12.0 changed it; HIP has the new form)."""
    for cuda, holds in (("11.2", True), ("11.4", False), ("11.8", False), ("12.0", True)):
        res = resolve(tables, "cuGetProcAddress", Target(cuda=cuda))
        assert (res.cuda_mismatch is None) == holds, cuda


@pytest.mark.parametrize("roc, experimental", [(False, False), (True, True)])
def test_row_status_is_the_status_of_the_whole_resolution(tables, roc, experimental):
    """The coverage asks each used API's status for every release through row_status,
    not a whole Resolution: for every row of the tables, at the oldest, a middle and the
    newest release the tables name, with and without --roc and --experimental, the status
    is the one resolve_row gives."""
    from hipport.report.model import known_releases
    from hipport.tables.lookup import resolve_row, row_status

    releases = known_releases(tables, Target(roc=roc))
    statuses = set()
    for release in (releases[0], releases[len(releases) // 2], releases[-1]):
        target = Target(rocm=release, roc=roc, experimental=experimental)
        for row in tables.rows:
            status = row_status(tables, row, target)
            assert status is resolve_row(tables, row, target).status, (row.cuda, release)
            statuses.add(status)
    assert {Status.MAPPED, Status.UNSUPPORTED, Status.NEEDS_NEWER_ROCM} <= statuses
