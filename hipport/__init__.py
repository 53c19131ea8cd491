"""hipport: port CUDA source code to AMD HIP/ROCm.

The public API (imported lazily, so `hipport --help` stays fast):

    translate_source(source: bytes, path: str, target: Target, options=None) -> TranslationResult
    Target, Version                         what a translation aims at
    load_tables(), resolve(tables, name, target)   the mapping tables
    load_mappings(directory=None), Mappings  every versioned fact of one mappings directory
                                            (EngineOptions(mappings=...) for a run)
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Target": "hipport.target",
    "Version": "hipport.target",
    "translate_source": "hipport.engine",
    "EngineOptions": "hipport.engine",
    "TranslationResult": "hipport.engine",
    "load_tables": "hipport.tables",
    "load_mappings": "hipport.mappings",
    "Mappings": "hipport.mappings",
    "resolve": "hipport.tables",
    "Status": "hipport.tables",
    "Finding": "hipport.findings",
    "Severity": "hipport.findings",
}

__all__ = [*_EXPORTS, "__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hipport' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
