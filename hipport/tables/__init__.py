"""The mapping tables: loaded once from mappings/, answering lookups for a Target."""

from __future__ import annotations

from pathlib import Path

from hipport.tables.lookup import Resolution, Status, resolve, row_status, unlisted_status
from hipport.tables.model import FAMILIES, HipExt, IncludeMapping, Mapping, Tables

__all__ = [
    "FAMILIES",
    "HipExt",
    "IncludeMapping",
    "Mapping",
    "Resolution",
    "Status",
    "Tables",
    "load_tables",
    "resolve",
    "row_status",
    "unlisted_status",
]


def load_tables(directory: Path | str | None = None) -> Tables:
    """The API-name tables of `directory` (mappings/ of the package by default), read once
    per process: `hipport.mappings.load_mappings(directory).tables`. Parsed from the TSVs
    every time: on a quiet 2-core machine that takes about 75 ms, and rebuilding the same
    objects from a JSON copy in the user cache took longer (about 115 ms)."""
    from hipport.mappings import load_mappings

    return load_mappings(directory).tables
