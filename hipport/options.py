"""What the engine is asked to do with one file, beyond the target: the mappings (every
versioned fact) to use, the user's renames and switches, the semantic pass. Shared by the
engine, the rules (through their Context) and the runner, so it sits below all of them."""

from __future__ import annotations

from collections.abc import Mapping as MappingABC
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hipport.preprocess import ProjectHeaders

if TYPE_CHECKING:
    from hipport.mappings import Mappings


@dataclass(frozen=True)
class EngineOptions:
    mappings: Mappings | None = None  # None: load_mappings(), the package's mappings/
    user_renames: MappingABC[str, str] = field(default_factory=dict)  # e.g. CUDA_CHECK -> HIP_CHECK
    disabled_mappings: frozenset[str] = frozenset()  # built-in mappings turned off by the user
    project_names: frozenset[str] = frozenset()  # names the user's project defines elsewhere
    include_renames: MappingABC[str, str] = field(default_factory=dict)  # "a.cuh" -> "a.hip.h"
    semantic: bool = False
    cuda_path: str | None = None
    compile_args: tuple[str, ...] = ()
    # the project's macros for the HIP build, in order: "-DNAME", "-DNAME=VALUE", "-UNAME"
    # (config `defines`, then the command line; a file's compile_args -D/-U come after)
    defines: tuple[str, ...] = ()
    # the project's files for the preprocessor model to follow #include into (None: none)
    headers: ProjectHeaders | None = None
    # Tests (debug) only: re-translate the output and check it is stable, and check that
    # every byte outside the edits is unchanged; a violation raises AssertionError.
    check_invariants: bool = False
