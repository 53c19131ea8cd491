"""One source text in, translated text and findings out. Pure: no files, no processes.

CONTRACT (shared by the runner, the CLI, the checks and the benchmark; keep it stable):

    translate_source(source: bytes, path: str, target: Target,
                     options: EngineOptions | None = None) -> TranslationResult

`source` is the file's bytes exactly as read (any encoding, BOM, CRLF); `output` is bytes
too, and every byte outside `edits` is identical to the input. `path` is used for
locations and to pick the language (.cu/.cuh are CUDA; .hip passes through unchanged).
It never raises on bad input: a file it cannot lex gets `error` set and output == source.
"""

from __future__ import annotations

from collections.abc import Mapping as MappingABC
from dataclasses import dataclass, field

from hipport.edits import Edit
from hipport.findings import Finding, Location
from hipport.tables import Status, Tables
from hipport.target import Target, Version


@dataclass(frozen=True)
class EngineOptions:
    tables: Tables | None = None  # None: load_tables()
    user_renames: MappingABC[str, str] = field(default_factory=dict)  # e.g. CUDA_CHECK -> HIP_CHECK
    disabled_mappings: frozenset[str] = frozenset()  # built-in mappings turned off by the user
    project_names: frozenset[str] = frozenset()  # names the user's project defines elsewhere
    include_renames: MappingABC[str, str] = field(default_factory=dict)  # "a.cuh" -> "a.hip.h"
    semantic: bool = False
    cuda_path: str | None = None
    compile_args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Use:
    """One occurrence of a CUDA API identifier, mapped or not (for statistics and reports)."""

    api: str
    family: str | None
    status: Status
    location: Location
    new_name: str | None = None
    min_rocm: Version | None = None


@dataclass
class TranslationResult:
    path: str
    source: bytes
    output: bytes
    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)
    defined_names: frozenset[str] = frozenset()  # names this file defines (project index)
    error: str | None = None  # set when the file could not be processed

    @property
    def changed(self) -> bool:
        return self.output != self.source
