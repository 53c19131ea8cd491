"""Every rule code's one test home: tests/cases/rules/<CODE>/, with cases that fire and cases
that must stay silent, run the way `hipport check` runs a file (the engine, then the report:
suppressions, file errors; CMake files through the CMake translation).

A case is <name>.cu (or <name>.cmake, read as a CMakeLists.txt) and <name>.expected: the
home code's findings, one `CODE line:col` per line, optionally followed by the severity
(`HIP110 3:3 error`; given on one line, checked on every line); an empty file is a silent
case. Findings of other codes are not this home's business. Optional files:
- <name>.target.json: Target fields, plus "path" (the file name the engine sees),
  "options" (EngineOptions fields) and "tables_edit" ({"cudaMalloc": {"hip_removed": "6.0"}}:
  the real tables with those fields of that API's rows replaced, for facts no row has today);
- <name>.hip.expected: the whole output.
A code no source text can produce (the walk's) has a README.md instead that names the test
file that covers it."""

from __future__ import annotations

import copy
import difflib
import json
import re
from pathlib import Path

import pytest

from hipport.catalogue import RULES
from hipport.engine import EngineOptions
from hipport.target import Target, Version
from tests.report_support import report_of, translate

ROOT = Path(__file__).resolve().parent.parent
HOMES = ROOT / "tests" / "cases" / "rules"
SUFFIXES = (".cu", ".cmake")
EXPECTED_LINE = re.compile(r"(HIP\d{3}) (\d+):(\d+)(?: (error|warning|note))?")


def case_paths() -> list[Path]:
    return sorted(p for p in HOMES.glob("*/*") if p.suffix in SUFFIXES)


def case_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _mappings(edits: dict[str, dict[str, str]]):  # a copy of the real Mappings
    from hipport.mappings import load_mappings

    mappings = copy.copy(load_mappings())
    real = mappings.tables
    tables = mappings.tables = copy.copy(real)
    tables.by_cuda = dict(real.by_cuda)
    for api, fields in edits.items():
        new = {
            k: Version.parse(v) if k.startswith(("hip_", "cuda_")) else v for k, v in fields.items()
        }
        tables.by_cuda[api] = [row._replace(**new) for row in real.by_cuda[api]]
    return mappings


def load(path: Path) -> tuple[str, Target, EngineOptions | None]:
    config: dict = {}
    config_file = path.with_suffix(".target.json")
    if config_file.exists():
        config = json.loads(config_file.read_text())
    name = config.pop("path", "CMakeLists.txt" if path.suffix == ".cmake" else path.name)
    opts = config.pop("options", {})
    edits = config.pop("tables_edit", None)
    if edits:
        opts["mappings"] = _mappings(edits)
    options = EngineOptions(**opts) if opts else None
    return name, Target(**config), options


def expected_of(path: Path) -> list[str]:
    lines = [line.strip() for line in path.with_suffix(".expected").read_text().splitlines()]
    return [line for line in lines if line]


@pytest.mark.parametrize("path", case_paths(), ids=case_id)
def test_case(path: Path) -> None:
    code = path.parent.name
    expected = expected_of(path)
    parsed = [EXPECTED_LINE.fullmatch(line) for line in expected]
    assert all(parsed), f"malformed line in {path.with_suffix('.expected')}: {expected}"
    assert {m.group(1) for m in parsed if m} <= {code}, "a case names only its home's code"
    with_severity = any(m.group(4) for m in parsed if m)
    name, target, options = load(path)
    source = path.read_bytes()
    report = report_of({name: source}, target, options)
    got = [
        f"{f.code} {f.location.line}:{f.location.column}"
        + (f" {f.severity.value}" if with_severity else "")
        for f in report.findings
        if f.code == code
    ]
    assert got == expected
    output_file = path.with_suffix(".hip.expected")
    if output_file.exists():
        want = output_file.read_bytes()
        out = translate(source, name, target, options).output
        assert out == want, "\n" + "".join(
            difflib.unified_diff(
                want.decode(errors="replace").splitlines(keepends=True),
                out.decode(errors="replace").splitlines(keepends=True),
            )
        )


def test_every_code_has_its_home_with_firing_and_silent_cases() -> None:
    homes = {p.name for p in HOMES.iterdir() if p.is_dir()}
    assert homes == set(RULES), (
        f"homes without a rule: {sorted(homes - set(RULES))}; "
        f"rules without a home: {sorted(set(RULES) - homes)}"
    )
    for code in sorted(RULES):
        cases = [p for p in case_paths() if p.parent.name == code]
        readme = HOMES / code / "README.md"
        if readme.exists():
            # no source text produces it: the README names the test file that does
            named = re.findall(r"tests/test_\w+\.py", readme.read_text())
            assert named, f"{readme} names no test file"
            for test_file in named:
                assert code in (ROOT / test_file).read_text(), (code, test_file)
            continue
        firing = [p for p in cases if expected_of(p)]
        assert firing, f"{code}: no case that fires"
        assert len(cases) > len(firing), f"{code}: no case that stays silent"


def test_every_case_has_its_expected_findings() -> None:
    for path in case_paths():
        assert path.with_suffix(".expected").exists(), path
    for path in HOMES.glob("*/*.expected"):
        if path.name.endswith(".hip.expected"):
            path = path.with_suffix("")  # x.hip.expected: the output of x.cu
        assert any(path.with_suffix(s).exists() for s in SUFFIXES), f"{path}: no source"
