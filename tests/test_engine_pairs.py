"""CUDA-in / HIP-out pairs, grouped by rule module: tests/cases/engine/<rule>/[<group>/]
<name>.cu (rename/runtime/, includes/, launch/, arguments/, unknown/, ...; the groups that
are no one rule's, such as context/ or options/, pin the pipeline) with <name>.hip.expected,
optional <name>.target.json (Target fields, plus "options" for EngineOptions fields and
"path" for the file name) and <name>.findings.txt (one `CODE api` per line, every finding
of every rule; without the file, the pair must produce no finding at all)."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from hipport.catalogue import REWRITE_ORDER
from hipport.engine import EngineOptions, translate_source
from hipport.target import Target

CASES = Path(__file__).parent / "cases" / "engine"


def pair_paths() -> list[Path]:
    return sorted(CASES.rglob("*.cu"))


def pair_id(path: Path) -> str:
    return path.relative_to(CASES).with_suffix("").as_posix()


def load_case(path: Path) -> tuple[bytes, bytes, Target, EngineOptions, str, list[str] | None]:
    stem = path.with_suffix("")
    source = path.read_bytes()
    expected = stem.with_suffix(".hip.expected").read_bytes()
    config: dict = {}
    target_file = stem.with_suffix(".target.json")
    if target_file.exists():
        config = json.loads(target_file.read_text())
    opts = config.pop("options", {})
    name = config.pop("path", path.name)
    for key in ("project_names", "disabled_mappings"):
        if key in opts:
            opts[key] = frozenset(opts[key])
    options = EngineOptions(check_invariants=True, **opts)
    findings_file = stem.with_suffix(".findings.txt")
    findings = None
    if findings_file.exists():
        findings = sorted(
            line.strip()
            for line in findings_file.read_text().splitlines()
            if line.strip() and not line.startswith("#")
        )
    return source, expected, Target(**config), options, name, findings


def diff(expected: bytes, actual: bytes, name: str) -> str:
    lines = difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(keepends=True),
        actual.decode("utf-8", "replace").splitlines(keepends=True),
        f"{name} (expected)",
        f"{name} (actual)",
    )
    return "".join(lines)


@pytest.mark.parametrize("path", pair_paths(), ids=pair_id)
def test_pair(path: Path) -> None:
    source, expected, target, options, name, findings = load_case(path)
    result = translate_source(source, name, target, options)
    assert result.error is None, result.error
    assert result.output == expected, "\n" + diff(expected, result.output, path.name)
    got = sorted(f"{f.code} {f.api}" for f in result.findings)
    assert got == (findings or []), f"findings differ: got {got}"


def test_enough_pairs() -> None:
    assert len(pair_paths()) >= 220


def test_every_rewrite_rule_has_its_pairs() -> None:
    for module in REWRITE_ORDER:
        rule_dir = CASES / module.removeprefix("rules.")
        assert list(rule_dir.rglob("*.cu")), f"no pairs for {module} in {rule_dir}"
