"""Versions and the target a translation aims at."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

_VERSION_RE = re.compile(r"^\s*(\d+(?:\.\d+)*)(?:[-.]?(dev|rc\d*|a\d*|b\d*))?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Version:
    """A dotted version compared numerically: 6.10 > 6.9, 6.2 == 6.2.0.

    A "-dev" suffix (as in HIPIFY's "6.3-dev" head) sorts after every release of
    the same numbers, since a development head already holds what the release will.
    """

    parts: tuple[int, ...]
    dev: bool = False

    @classmethod
    def parse(cls, text: str | Version) -> Version:
        if isinstance(text, Version):
            return text
        match = _VERSION_RE.match(str(text))
        if not match:
            raise ValueError(f"not a version: {text!r} (expected e.g. 6.2 or 6.2.0)")
        parts = tuple(int(p) for p in match.group(1).split("."))
        return cls(parts, dev=bool(match.group(2)))

    @cached_property
    def _sort_key(self) -> tuple[tuple[int, ...], int]:
        # computed once per object (versions are compared for every table lookup)
        parts = list(self.parts)
        while len(parts) > 1 and parts[-1] == 0:
            parts.pop()
        return tuple(parts), 1 if self.dev else 0

    def _key(self) -> tuple[tuple[int, ...], int]:
        return self._sort_key

    def __getstate__(self) -> dict[str, object]:
        return {"parts": self.parts, "dev": self.dev}  # pickles without the cached key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._sort_key == other._sort_key

    def __hash__(self) -> int:
        return hash(self._sort_key)

    def __lt__(self, other: Version) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._sort_key < other._sort_key

    def __le__(self, other: Version) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._sort_key <= other._sort_key

    def __gt__(self, other: Version) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._sort_key > other._sort_key

    def __ge__(self, other: Version) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._sort_key >= other._sort_key

    def __str__(self) -> str:
        text = ".".join(str(p) for p in self.parts)
        return f"{text}-dev" if self.dev else text


@dataclass(frozen=True)
class Target:
    """What a translation aims at.

    rocm: the ROCm/HIP release the output must build with (None: the newest the tables know).
    cuda: the CUDA release the input was written for (None: any); used to flag APIs removed
          or deprecated by then.
    experimental: apply mappings HIPIFY marks experimental.
    roc: map library calls to the ROCm libraries (rocBLAS, ...) instead of the hip* wrappers.
    amd_ext: apply hipExt* alternatives where one exists (opt-in, never a default rewrite).
    translate_strings: rename whole-word API names inside string literals too.
    launch_syntax: "cuda" keeps <<<...>>>, "hip" rewrites to hipLaunchKernelGGL.
    """

    rocm: Version | None = None
    cuda: Version | None = None
    experimental: bool = False
    roc: bool = False
    amd_ext: bool = False
    translate_strings: bool = False
    launch_syntax: str = "cuda"
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.launch_syntax not in ("cuda", "hip"):
            raise ValueError(f"launch_syntax must be 'cuda' or 'hip', not {self.launch_syntax!r}")
        if self.rocm is not None and not isinstance(self.rocm, Version):
            object.__setattr__(self, "rocm", Version.parse(self.rocm))
        if self.cuda is not None and not isinstance(self.cuda, Version):
            object.__setattr__(self, "cuda", Version.parse(self.cuda))

    def key(self) -> str:
        """A stable text key for caches."""
        return (
            f"rocm={self.rocm};cuda={self.cuda};exp={self.experimental};roc={self.roc};"
            f"ext={self.amd_ext};str={self.translate_strings};launch={self.launch_syntax}"
        )


@dataclass(frozen=True)
class Release:
    """A ROCm or CUDA release the tables name (mappings/releases.tsv)."""

    product: str  # "rocm" or "cuda"
    version: Version
    line: str  # ROCm: "production" or "preview" (AMD's technology-preview line); CUDA: "release"
    sources: tuple[str, ...]  # which data names it: hipify, hipify-2024-10, hip-python


@dataclass(frozen=True)
class Landscape:
    """The releases the tables know, per product, oldest first. Built from the data, so a
    new table release extends it without a change here."""

    rocm: tuple[Release, ...]
    cuda: tuple[Release, ...]

    def releases(self, product: str) -> tuple[Release, ...]:
        return self.rocm if product == "rocm" else self.cuda

    @property
    def default_rocm(self) -> Version:
        """The default target: the newest production release."""
        return max(r.version for r in self.rocm if r.line == "production")

    @property
    def newest_cuda(self) -> Version:
        return self.cuda[-1].version

    def newest(self, product: str) -> Version:
        return self.releases(product)[-1].version

    def line_of(self, version: Version) -> str:
        """The ROCm line a version belongs to (its X.Y line as the data classifies it)."""
        for r in self.rocm:
            if r.version.parts[:2] == version.parts[:2]:
                return r.line
        return "production"

    def unknown_reason(self, product: str, version: Version) -> str | None:
        """Why `version` is not a release the tables know, or None when it is one (any
        patch of a known X.Y line up to the newest known release counts)."""
        releases = self.releases(product)
        if not releases:
            return None
        newest = releases[-1].version
        name = "ROCm" if product == "rocm" else "CUDA"
        known = f"newest known: {name} {newest}"
        if product == "rocm" and self.default_rocm != newest:
            known += f", newest production release: {name} {self.default_rocm}"
        if version > newest:
            return f"{name} {version} is newer than any release hipport's tables know ({known})"
        if not any(r.version.parts[:2] == version.parts[:2] for r in releases):
            return f"{name} {version} is not a release hipport's tables know ({known})"
        return None
