"""The CUDA corpus: every program compiles with nvcc, and its manifest is accurate.

The corpus in tests/corpus/ is the input of the hipcc compile stage, which reads
MANIFEST.tsv to learn each file's topics and the CUDA libraries it needs. These
tests pin that the CUDA side is valid to begin with, so a hipcc failure later
points at the translation and not at the corpus.

Library headers (cuBLAS, cuRAND, cuFFT, cuSPARSE, NVRTC) are often not installed
with the toolkit. List directories that hold them, colon-separated, in
HIPPORT_CUDA_LIB_INCLUDES (for example the include/ folder of NVIDIA's unpacked
PyPI wheels); a file whose library headers are found nowhere is skipped.
"""

from __future__ import annotations

import csv
import functools
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
MANIFEST = CORPUS / "MANIFEST.tsv"
LIB_INCLUDES_ENV = "HIPPORT_CUDA_LIB_INCLUDES"
NVCC_FLAGS = ("-c", "-arch=sm_80", "-std=c++17")
NVCC_TIMEOUT_SECONDS = 300
MIN_CORPUS_FILES = 30

# Headers that belong to a CUDA library rather than to the toolkit's runtime,
# and the manifest's name for that library.
LIBRARY_OF_HEADER: dict[str, str] = {
    "cublas.h": "cublas",
    "cublas_v2.h": "cublas",
    "cublas_api.h": "cublas",
    "cublasLt.h": "cublas",
    "curand.h": "curand",
    "curand_kernel.h": "curand",
    "cufft.h": "cufft",
    "cufftXt.h": "cufft",
    "cusparse.h": "cusparse",
    "nvrtc.h": "nvrtc",
}
KNOWN_LIBRARIES = frozenset(LIBRARY_OF_HEADER.values())

# Every topic the corpus must cover (issue 7); the manifest may use no others.
REQUIRED_TOPICS = frozenset(
    {
        "device",
        "memory-plain",
        "memory-pinned",
        "memory-unified",
        "memory-2d3d",
        "memory-async",
        "streams",
        "events",
        "error-check",
        "shared-static",
        "shared-dynamic",
        "atomics",
        "warp-shuffle",
        "warp-vote",
        "warp-size-32",
        "cooperative-groups",
        "texture",
        "graph-capture",
        "graph-explicit",
        "fp16",
        "curand-host",
        "curand-device",
        "cublas",
        "cusparse",
        "cufft",
        "driver-api",
        "nvrtc",
        "template-launch",
        "launch-macro",
        "shared-header",
        "cuda-version",
        "cudacc",
        "symbols",
        "include-guards",
        "inline-ptx",
    }
)

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.MULTILINE)


@dataclass(frozen=True)
class ManifestRow:
    file: str
    topics: frozenset[str]
    libraries: frozenset[str]


def _split_list(cell: str | None) -> frozenset[str]:
    return frozenset(item.strip() for item in (cell or "").split(",") if item.strip())


@functools.cache
def read_manifest() -> tuple[ManifestRow, ...]:
    with MANIFEST.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        return tuple(
            ManifestRow(row["file"], _split_list(row["topics"]), _split_list(row["libraries"]))
            for row in reader
        )


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if p.suffix in {".cu", ".cuh"})


def cu_files() -> list[Path]:
    return [p for p in corpus_files() if p.suffix == ".cu"]


def includes(path: Path) -> list[tuple[str, str]]:
    """(delimiter, name) of each #include in one file, in order."""
    return _INCLUDE.findall(path.read_text(encoding="utf-8"))


def system_includes(path: Path, seen: frozenset[Path] = frozenset()) -> set[str]:
    """Angle-bracket includes of a file and of the local headers it pulls in."""
    found: set[str] = set()
    for delimiter, name in includes(path):
        local = path.parent / name
        if delimiter == '"' and local.is_file():
            if local not in seen:
                found |= system_includes(local, seen | {path})
        else:
            found.add(name)
    return found


def library_headers(path: Path) -> set[str]:
    return {h for h in system_includes(path) if h in LIBRARY_OF_HEADER}


@functools.cache
def nvcc_include_dirs(nvcc: str) -> tuple[Path, ...]:
    """The include directories nvcc passes to its host preprocessor."""
    dry = subprocess.run(
        [nvcc, "--dryrun", "-x", "cu", "-c", os.devnull, "-o", os.devnull],
        capture_output=True,
        text=True,
        check=False,
    )
    dirs: list[Path] = []
    for line in dry.stderr.splitlines():
        if "INCLUDES=" not in line:
            continue
        words = shlex.split(line.split("=", 1)[1])
        for i, word in enumerate(words):
            if word.startswith("-I") and len(word) > 2:
                dirs.append(Path(word[2:]))
            elif word == "-isystem" and i + 1 < len(words):
                dirs.append(Path(words[i + 1]))
    return tuple(dirs)


def env_include_dirs() -> tuple[Path, ...]:
    value = os.environ.get(LIB_INCLUDES_ENV, "")
    return tuple(Path(p) for p in value.split(":") if p)


def missing_headers(headers: set[str], dirs: tuple[Path, ...]) -> list[str]:
    return sorted(h for h in headers if not any((d / h).is_file() for d in dirs))


@pytest.mark.nvcc
@pytest.mark.parametrize("source", cu_files(), ids=lambda p: p.name)
def test_corpus_file_compiles_with_nvcc(source: Path, tmp_path: Path) -> None:
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not on PATH")
    extra_dirs = env_include_dirs()
    missing = missing_headers(library_headers(source), nvcc_include_dirs(nvcc) + extra_dirs)
    if missing:
        pytest.skip(
            f"library header(s) {', '.join(missing)} not on nvcc's include path "
            f"nor in ${LIB_INCLUDES_ENV}"
        )
    command = [
        nvcc,
        *NVCC_FLAGS,
        *(f"-I{d}" for d in extra_dirs),
        "-o",
        str(tmp_path / f"{source.stem}.o"),
        str(source),
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=NVCC_TIMEOUT_SECONDS, check=False
    )
    assert result.returncode == 0, (
        f"nvcc failed on {source.name} (exit {result.returncode}):\n"
        f"$ {shlex.join(command)}\n{result.stderr}{result.stdout}"
    )


def test_corpus_is_large_enough() -> None:
    assert len(corpus_files()) >= MIN_CORPUS_FILES


def test_manifest_lists_exactly_the_corpus_files() -> None:
    listed = [row.file for row in read_manifest()]
    assert len(listed) == len(set(listed)), "a file is listed twice in MANIFEST.tsv"
    on_disk = {p.name for p in corpus_files()}
    assert set(listed) == on_disk, (
        f"not in manifest: {sorted(on_disk - set(listed))}; "
        f"listed but absent: {sorted(set(listed) - on_disk)}"
    )


def test_manifest_covers_every_topic() -> None:
    used = frozenset().union(*(row.topics for row in read_manifest()))
    uncovered = sorted(REQUIRED_TOPICS - used)
    unknown = sorted(used - REQUIRED_TOPICS)
    assert not uncovered, f"topics with no corpus file: {uncovered}"
    assert not unknown, f"unknown topics in manifest: {unknown}"


@pytest.mark.parametrize("row", read_manifest(), ids=lambda r: r.file)
def test_manifest_libraries_match_includes(row: ManifestRow) -> None:
    assert row.libraries <= KNOWN_LIBRARIES, f"unknown libraries {sorted(row.libraries)}"
    needed = {LIBRARY_OF_HEADER[h] for h in library_headers(CORPUS / row.file)}
    assert row.libraries == needed, (
        f"{row.file}: manifest says {sorted(row.libraries)}, includes need {sorted(needed)}"
    )


def test_every_header_is_included_and_one_is_shared() -> None:
    users: dict[str, set[str]] = {p.name: set() for p in corpus_files() if p.suffix == ".cuh"}
    for source in cu_files():
        for delimiter, name in includes(source):
            if delimiter == '"' and name in users:
                users[name].add(source.name)
    unused = sorted(h for h, who in users.items() if not who)
    assert not unused, f"headers no .cu includes (so nvcc never checks them): {unused}"
    assert any(len(who) >= 2 for who in users.values()), "no header is shared by two .cu files"
