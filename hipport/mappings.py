"""One run's versioned facts: everything hipport knows about the CUDA and HIP APIs, from one
mappings directory (mappings/ of the package unless told otherwise).

A `Mappings` reads each of its parts on first use and keeps it, so a run that never needs
the CMake vocabulary never reads cmake.tsv; `load_mappings(directory)` gives one object per
directory and process. Importing hipport reads nothing: the first file a run translates
loads what its rules ask for. Rules reach it as `ctx.mappings`; the engine takes it from
EngineOptions.mappings (None: `load_mappings()`), so a test that passes another directory
changes every fact at once (tables, argument rewrites, gate facts, device properties,
cooperative groups, CMake vocabulary, include guards, the texture reference API, nvcc's
macro samples, the HIP compiler's macros, the numeric types' formats).

The files and their columns: mappings/README.md. The one TSV reader: hipport.tsv.
"""

from __future__ import annotations

from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from hipport import facts
from hipport.tables.arguments import ArgumentTables
from hipport.tables.model import Tables
from hipport.tsv import mappings_digest, mappings_dir, read_tsv

if TYPE_CHECKING:
    from collections.abc import Callable


class Mappings:
    """The facts of one mappings directory, each part read on first use."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory else mappings_dir()

    def __repr__(self) -> str:
        return f"Mappings({str(self.directory)!r})"

    def __reduce__(self) -> tuple[Callable[..., Mappings], tuple[str]]:
        # pickled (sent to a worker process) as its directory: the worker loads its own
        # copy once; parts replaced in memory (tests do) do not travel
        return load_mappings, (str(self.directory),)

    def __copy__(self) -> Mappings:
        """Another object with the same parts loaded so far (a test replaces one)."""
        other = Mappings.__new__(Mappings)
        other.__dict__.update(self.__dict__)
        return other

    def read(self, name: str, *, optional: bool = False) -> list[dict[str, str]]:
        """The rows of one TSV file of the directory (hipport.tsv.read_tsv)."""
        return read_tsv(self.directory / name, optional=optional)

    @cached_property
    def tables(self) -> Tables:
        """The API-name tables: the families, overrides, additions, history, includes,
        hipExt and the release landscape."""
        return Tables(self.directory)

    @cached_property
    def arguments(self) -> ArgumentTables:
        """Argument rewrites, the namespace map and the roc-mode type names."""
        return ArgumentTables(self.directory)

    @cached_property
    def struct_fields(self) -> facts.StructFields:
        """CUDA struct fields the HIP struct spells otherwise (struct_fields.tsv)."""
        return facts.struct_fields(self.read("struct_fields.tsv"))

    @cached_property
    def device_prop_attributes(self) -> dict[str, facts.DevicePropAttribute]:
        """cudaDeviceProp field -> its device attribute (device_prop_attributes.tsv)."""
        return facts.device_prop_attributes(self.read("device_prop_attributes.tsv"))

    @cached_property
    def gate(self) -> facts.GateFacts:
        """CUDA constructs HIP lacks (gate_facts.tsv) and NVIDIA's headers (cuda_headers.tsv)."""
        return facts.gate_facts(self.read("gate_facts.tsv"), self.read("cuda_headers.tsv"))

    @cached_property
    def device_props(self) -> facts.DeviceProps:
        return facts.device_props(
            self.read("hip_device_prop_fields.tsv"), self.read("cuda_device_prop_fields.tsv")
        )

    @cached_property
    def cooperative_groups(self) -> facts.CooperativeGroups:
        return facts.cooperative_groups(self.read("cooperative_groups.tsv"))

    @cached_property
    def vector_operators(self) -> facts.VectorOperators:
        return facts.vector_operators(self.read("vector_operators.tsv"))

    @cached_property
    def cmake(self) -> facts.CMakeVocabulary:
        return facts.cmake_vocabulary(self.read("cmake.tsv"))

    @cached_property
    def include_guards(self) -> facts.IncludeGuards:
        """CUDA headers' include guards that code tests, and the HIP test for each."""
        return facts.include_guards(self.read("include_guards.tsv"))

    @cached_property
    def texture_reference(self) -> facts.TextureReference:
        """The legacy texture/surface reference API (HIP105)."""
        return facts.texture_reference(self.read("texture_reference.tsv"))

    @cached_property
    def nvcc_macro_samples(self) -> facts.NvccMacroSamples:
        """The values sampled CUDA compilations give nvcc's macros (HIP113)."""
        return facts.nvcc_macro_samples(self.read("nvcc_macro_samples.tsv"))

    @cached_property
    def numeric_types(self) -> facts.NumericTypes:
        """The number format of CUDA's and HIP's fp8, bf16 and fp16 type names."""
        return facts.numeric_types(self.read("numeric_types.tsv"))

    @cached_property
    def hip_macros(self) -> facts.HipMacros:
        """The HIP compiler's predefined macros per release (hipport.preprocess)."""
        return facts.hip_macros(self.read("hip_predefined_macros.tsv"))

    @cached_property
    def digest(self) -> str:
        """A digest of every file of the directory (names and bytes): the facts' version,
        for the result cache's keys."""
        return mappings_digest(self.directory)


@cache
def _load(directory: Path) -> Mappings:
    return Mappings(directory)


def load_mappings(directory: Path | str | None = None) -> Mappings:
    """The Mappings of `directory` (mappings/ of the package by default): one object per
    directory and process, so its parts are read once."""
    return _load(Path(directory) if directory else mappings_dir())
