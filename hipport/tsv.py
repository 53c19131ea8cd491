"""Where mappings/ is, and the one reader of its TSV files.

Every file of mappings/ is tab-separated text, UTF-8, one row a line, its first line the
column names. Cells never hold a tab, a newline or quoting (the generators in tools/ write
them so), so a line is split on tabs and nothing else: no csv dialect decides what a cell
is. Readers address cells by the names of the header row, so a file that gains a column
reads as before. Nothing here reads a file until asked (see hipport.mappings).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache  # asked once per Build and table load: resolving the path each time cost 0.3 s a run
def mappings_dir() -> Path:
    """mappings/ ships inside the wheel as hipport/mappings; a source checkout has it beside."""
    here = Path(__file__).resolve().parent
    packaged = here / "mappings"
    return packaged if packaged.is_dir() else here.parent / "mappings"


def mappings_digest(directory: Path) -> str:
    """A digest of every file in `directory` (names and bytes): the facts' version."""
    import hashlib

    h = hashlib.blake2b(digest_size=16)
    for path in sorted(directory.iterdir()):
        if path.is_file():
            h.update(f"\0{path.name}\0".encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def read_lines(path: Path) -> tuple[tuple[str, ...], list[list[str]]]:
    """The header row's column names and every other row's cells (blank lines skipped).
    Raises ValueError for a row whose cell count is not the header's."""
    lines = path.read_text(encoding="utf-8").split("\n")
    header = tuple(lines[0].removesuffix("\r").split("\t"))
    width = len(header)
    rows = []
    for number, line in enumerate(lines[1:], 2):
        if not line:
            continue
        cells = line.removesuffix("\r").split("\t")
        if len(cells) != width:
            raise ValueError(
                f"{path}:{number}: {len(cells)} cells where the header names {width} columns"
            )
        rows.append(cells)
    return header, rows


def read_tsv(path: Path, *, optional: bool = False) -> list[dict[str, str]]:
    """The rows of a TSV file as dicts keyed by the header row's names. `optional`: a
    missing file has no rows (a hand-made mappings directory may lack the file)."""
    if optional and not path.exists():
        return []
    header, rows = read_lines(path)
    return [dict(zip(header, cells, strict=True)) for cells in rows]
