"""The mapping tables: loaded once from mappings/, answering lookups for a Target."""

from hipport.tables.lookup import Resolution, Status, resolve
from hipport.tables.model import FAMILIES, HipExt, IncludeMapping, Mapping, Tables, load_tables

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
]
