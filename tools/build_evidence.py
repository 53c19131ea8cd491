"""mappings/evidence.tsv: for every mapped HIP name, where the releases show it.

Called by tools/build_mappings.py after the family tables and history.tsv are written. One
row per mapping (a family-table row with a HIP name, as overrides.tsv corrects it, and every
older mapping of history.tsv), with the evidence of four sources:

- `hip_5_2`: `header:line` in Debian's HIP 5.2 headers (/usr/include: hip/, and the hip*
  libraries installed there: hiprand/, hipsparse/), `absent` when the family's headers are
  installed and do not declare it, blank when they are not installed;
- `hip_6_3`: the same in ../shared/hip-6.3/include (HIP runtime headers only);
- `hip_python`: the sampled releases AMD's hip-python declares it in (`6.2.0..7.2.2`);
- `header_scan`: ../shared/data's scan of HIP's headers (hip-identifiers-by-rocm.tsv for
  hip*/HIP_* names, cuda-device-names-in-hip-headers.tsv for device names HIP shares).

`evidence_added` is the earliest release a source shows the name in ("5.2.0" from the 5.2
headers means "by 5.2"). `status`: `filled` (the table gives no release; the check uses
`check_added`), `contradicts` (the table has it by a release whose headers lack it: the check
uses `check_added`, the first release after that one the evidence shows it in), `agrees`,
`none` (no source covers the name: `hipport tables show` says so), `builtin` (a C++ type
such as `int` or `void*`, which no header declares). A reviewed override
(overrides.tsv, alternatives.tsv) wins over a `filled` or `contradicts` row.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import header_index  # noqa: E402

COLUMNS = [
    "cuda",
    "family",
    "hip",
    "table_added",
    "hip_5_2",
    "hip_6_3",
    "hip_python",
    "header_scan",
    "evidence_added",
    "status",
    "check_added",
]

# The header folder of each family's HIP names (a name is looked up in every folder read;
# the folder says whether an absence counts).
FAMILY_FOLDER = {
    "runtime": "hip",
    "driver": "hip",
    "device": "hip",
    "complex": "hip",
    "rtc": "hip",
    "blas": "hipblas",
    "rand": "hiprand",
    "sparse": "hipsparse",
    "solver": "hipsolver",
    "fft": "hipfft",
    "cub": "hipcub",
    "tensor": "hiptensor",
    "sparselt": "hipsparselt",
    "file": "hipfile",
}
HIP_5_2 = Path("/usr/include")
HIP_5_2_RELEASE = "5.2.0"
HIP_6_3_RELEASE = "6.3.0"
_NAME = re.compile(r"[A-Za-z_]\w*")
_BUILTIN_TYPES = frozenset({"int", "void", "char", "float", "double", "long", "short", "bool"})


def _key(text: str) -> tuple[int, ...]:
    parts = [int(p) for p in text.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


# The headers clang adds to every HIP compile (-include __clang_hip_runtime_wrapper.h): from
# ROCm 5.x on, HIP's device math (sinf, __fdividef, ...) is declared there, not in HIP's own
# headers. Debian's clang 15 compiles both HIP 5.2 and, with -nogpuinc, the 6.3 headers.
CLANG_INCLUDE = Path("/usr/lib/llvm-15/lib/clang")
CLANG_WRAPPERS = (
    "__clang_hip_runtime_wrapper.h",
    "__clang_hip_libdevice_declares.h",
    "__clang_hip_math.h",
    "__clang_hip_cmath.h",
    "__clang_cuda_math_forward_declares.h",
    "__clang_cuda_complex_builtins.h",
)


def compiler_places(root: Path = CLANG_INCLUDE) -> dict[str, str]:
    """identifier -> `clang-15/header:line` in clang's HIP wrapper headers."""
    folders = sorted(root.glob("*/include"))
    if not folders:
        raise SystemExit(f"{root}: no clang 15 resource headers (install Debian's clang-15)")
    places: dict[str, str] = {}
    for name in CLANG_WRAPPERS:
        text = (folders[-1] / name).read_text(encoding="utf-8")
        for ident, (line, strength) in header_index.scan_file(text).items():
            if strength == 2:
                places.setdefault(ident, f"clang-15/{name}:{line}")
    return places


class Headers:
    """One set of HIP headers: where each identifier is declared, and which folders exist.
    A name HIP's headers lack and clang's HIP wrappers declare is found in those."""

    def __init__(self, root: Path, release: str, compiler: dict[str, str]) -> None:
        self.root = root
        self.release = release
        self.places = {**compiler, **header_index.index(root)}
        self.folders = header_index.folders_present(root)

    def cell(self, name: str, family: str) -> str:
        place = self.places.get(name)
        if place:
            return place
        return "absent" if FAMILY_FOLDER[family] in self.folders else ""


def hip_5_2_headers(root: Path, compiler: dict[str, str]) -> Headers:
    """Debian's HIP 5.2 headers; refuses other headers (the committed data would change)."""
    version = root / "hip" / "hip_version.h"
    text = version.read_text(encoding="utf-8") if version.is_file() else ""
    if "HIP_VERSION_MAJOR 5" not in text or "HIP_VERSION_MINOR 2" not in text:
        raise SystemExit(f"{version}: not HIP 5.2 (install Debian's libamdhip64-dev)")
    return Headers(root, HIP_5_2_RELEASE, compiler)


def _span(releases: list[str]) -> str:
    return f"{releases[0]}..{releases[-1]}" if releases else ""


def _scan(data: Path) -> dict[str, tuple[str, str]]:
    out = {
        r["identifier"]: (r["first_seen_rocm"], r["last_seen_rocm"])
        for r in _read(data / "hip-identifiers-by-rocm.tsv")
    }
    for r in _read(data / "cuda-device-names-in-hip-headers.tsv"):
        out.setdefault(r["cuda_device_name"], (r["first_seen_rocm"], r["last_seen_rocm"]))
    return out


def _release(cell: str) -> str:
    """A scan's release label as a version (`6.3-dev`, the development head: 6.3.0)."""
    return cell.replace("-dev", ".0")


def _entries(out: Path) -> list[dict[str, str]]:
    """Every mapping: (cuda, family, hip, the release the tables give), overrides applied."""
    overrides = {(o["cuda"], o["family"]): o for o in _read(HERE / "overrides.tsv")}
    rows = []
    for family in FAMILY_FOLDER:
        seen: set[str] = set()
        for row in _read(out / f"{family}.tsv"):
            fix = overrides.get((row["cuda"], family), {})
            hip = fix.get("hip") or row["hip"]
            if not hip or row["cuda"] in seen:
                continue
            seen.add(row["cuda"])
            added = fix.get("hip_added") or row["hip_added"]
            rows.append({"cuda": row["cuda"], "family": family, "hip": hip, "table_added": added})
    for row in _read(out / "history.tsv"):
        rows.append(
            {
                "cuda": row["cuda"],
                "family": row["family"],
                "hip": row["hip"],
                "table_added": row["hip_added"],
            }
        )
    return rows


def evidence_rows(
    data: Path, out: Path, hip52: Headers, hip63: Headers, releases: list[str]
) -> list[dict]:
    python = {}
    for r in _read(data / "hip-python" / "hip-identifiers-6.2-to-7.2.tsv"):
        python.setdefault(r["identifier"], r["present_in"].split(","))
    scan = _scan(data)
    result = []
    for entry in _entries(out):
        hip, family = entry["hip"], entry["family"]
        row = dict.fromkeys(COLUMNS, "")
        row.update(entry)
        if not _NAME.fullmatch(hip) or hip in _BUILTIN_TYPES:  # `void*`, `int`
            row["status"] = "builtin"
            result.append(row)
            continue
        row["hip_5_2"] = hip52.cell(hip, family)
        row["hip_6_3"] = hip63.cell(hip, family)
        row["hip_python"] = _span(python.get(hip, []))
        first_last = scan.get(hip)
        row["header_scan"] = f"{first_last[0]}..{first_last[1]}" if first_last else ""
        shown = []
        for headers, cell in ((hip52, row["hip_5_2"]), (hip63, row["hip_6_3"])):
            if cell and cell != "absent":
                shown.append(headers.release)
        if row["hip_python"]:
            shown.append(python[hip][0])
        if first_last:
            shown.append(_release(first_last[0]))
        row["evidence_added"] = min(shown, key=_key) if shown else ""
        row["status"], row["check_added"] = _judge(row, shown, (hip52, hip63), first_last, releases)
        result.append(row)
    return result


def _judge(
    row: dict,
    shown: list[str],
    header_sets: tuple[Headers, ...],
    scan: tuple[str, str] | None,
    releases: list[str],
) -> tuple[str, str]:
    """(status, check_added): see the module's docstring."""
    if not shown:
        return "none", ""
    table = row["table_added"]
    if not table:
        return "filled", row["evidence_added"]
    for headers in header_sets:
        cell = row["hip_5_2"] if headers.release == HIP_5_2_RELEASE else row["hip_6_3"]
        lacking = _key(headers.release)[:2]
        if cell != "absent" or _key(table)[:2] > lacking:
            continue
        # the evidence wins: the first release after the lacking line that shows the name
        # (a scan whose span runs past that line shows the next release hipport knows)
        later = [r for r in shown if _key(r)[:2] > lacking]
        if scan and _key(_release(scan[1]))[:2] > lacking:
            later += [r for r in releases if _key(r)[:2] > lacking][:1]
        return "contradicts", min(later, key=_key) if later else ""
    return "agrees", ""


def build(data: Path, out: Path, hip52_root: Path = HIP_5_2) -> list[dict]:
    """Write out/evidence.tsv; return the rows whose evidence contradicts the tables."""
    compiler = compiler_places()
    hip52 = hip_5_2_headers(hip52_root, compiler)
    hip63 = Headers(data.parent / "hip-6.3" / "include", HIP_6_3_RELEASE, compiler)
    releases = [r["version"] for r in _read(out / "releases.tsv") if r["product"] == "rocm"]
    rows = evidence_rows(data, out, hip52, hip63, releases)
    with (out / "evidence.tsv").open("w", encoding="utf-8", newline="") as fh:
        fh.write("\t".join(COLUMNS) + "\n")
        for row in rows:
            fh.write("\t".join(row[c] for c in COLUMNS) + "\n")
    return [r for r in rows if r["status"] == "contradicts"]
