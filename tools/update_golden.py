#!/usr/bin/env python3
"""Regenerate the whole-file golden cases in tests/golden/ (examples project and corpus).

    python tools/update_golden.py

Review `git diff tests/golden` before committing: a golden file is a statement that the
translation is right, not a record of what the code happens to emit.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOLDEN = ROOT / "tests" / "golden"
SOURCES = {"examples": ROOT / "examples", "corpus": ROOT / "tests" / "corpus"}
SUFFIXES = (".cu", ".cuh", ".h", ".cpp")
# A project that builds for AMD through its own compat header is translated with its
# configuration's defines and its headers followed (the CLI's run), not file by file:
# tests/test_dualbuild_gate.py checks that translation instead.
NOT_GOLDEN = {ROOT / "examples" / "dualbuild_project"}


def cases() -> list[tuple[Path, Path]]:
    """(input, golden) pairs."""
    out = []
    for name, base in SOURCES.items():
        for path in sorted(base.rglob("*")):
            if any(d in path.parents for d in NOT_GOLDEN):
                continue
            if path.suffix in SUFFIXES and path.is_file():
                rel = path.relative_to(base)
                out.append((path, GOLDEN / name / (str(rel) + ".hip.golden")))
    return out


def translate(path: Path) -> bytes:
    from hipport.engine import translate_source
    from hipport.target import Target

    rel = path.relative_to(ROOT).as_posix()
    return translate_source(path.read_bytes(), rel, Target()).output


def main() -> int:
    for source, golden in cases():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(translate(source))
    print(f"wrote {len(cases())} golden files under {GOLDEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
