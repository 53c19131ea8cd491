"""Where HIP's headers declare each identifier: `header:line`, per set of headers read.

Used by tools/build_evidence.py for the release evidence of the mapped names (Debian's HIP
5.2 headers under /usr/include, the HIP 6.3 headers in ../shared/hip-6.3/include). Comments
and string literals are blanked first (a name in a comment is no evidence). NVIDIA-platform
headers (`nvidia_detail/`, `nvcc_detail/`, `*_nvcc.h`) and the profiler's argument records
(`hip_prof_str.h`) are skipped: a name only they declare is not on an AMD target.

An identifier's place is its most declaration-shaped occurrence, the first in path order: a
`#define`, a `struct`/`class`/`union`/`enum` name, an enumerator, a name a type precedes, a
`using` alias, a `typedef`'s last name; failing one, its first occurrence in code.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path

# the folders of /usr/include (or of another include root) that hold HIP and hip* libraries
LIBRARY_FOLDERS = (
    "hip",
    "hipblas",
    "hipblaslt",
    "hipcub",
    "hipfft",
    "hiprand",
    "hipsolver",
    "hipsparse",
    "hipsparselt",
    "hiptensor",
)
# hip_prof_str.h (the profiler's argument records) has a struct member named after every API
_SKIPPED = re.compile(r"(^|/)(nvidia_detail|nvcc_detail)/|_nvcc\.h$|_nvidia\.h$|hip_prof_str\.h$")
_COMMENT_OR_LITERAL = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S
)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_NOT_TYPES = frozenset(
    "return else case new delete sizeof throw goto co_return co_yield typename do".split()
)
_TAGS = frozenset({"struct", "class", "union", "enum", "define", "using", "typedef"})


def _blank_comments(text: str) -> str:
    """Comments (and literals, which may hold `//`) become spaces; newlines stay."""

    def blank(match: re.Match[str]) -> str:
        s = match.group(0)
        if s.startswith(("//", "/*")):
            return re.sub(r"[^\n]", " ", s)
        return s[0] + re.sub(r"[^\n]", " ", s[1:-1]) + s[-1]

    return _COMMENT_OR_LITERAL.sub(blank, text)


_TOKEN = re.compile(r"[A-Za-z_]\w*|\S")


def _strength(before2: str, before: str, after: str, after2: str) -> int:
    """How surely an identifier between these tokens is the name a declaration declares:
    2 (a `#define`, a tag or `using` name, an enumerator with a value, a name a type
    precedes), 1 (`{ NAME,` or `, NAME }`: an enumerator, or an initialiser's element), 0."""
    if before in _TAGS:
        return 2
    if before in ("{", ",") and after == "=" and after2 != "=":
        return 2
    typed = _IDENT.fullmatch(before) and before not in _NOT_TYPES
    pointer = before in ("*", "&") and (_IDENT.fullmatch(before2) or before2 in ("*", ">"))
    if (typed or pointer or before == ">") and after in ("(", ";", "[", "=", ")", ","):
        return 2
    if before == ")" and after in ("{", ":"):
        return 2  # struct __attribute__((aligned(2))) NAME {
    if before == "*" and before2 == "(" and after == ")":
        return 2  # typedef R (*NAME)(...)
    if before == "}" and after == ";":
        return 2  # typedef struct { ... } NAME;
    return 1 if before in ("{", ",") and after in (",", "}") else 0


def scan_file(text: str) -> dict[str, tuple[int, int]]:
    """Each identifier's most declaration-shaped occurrence in one header, the first of
    that strength: (line, strength)."""
    code = _blank_comments(text)
    newlines = [m.start() for m in re.finditer("\n", code)]
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(code)]
    texts = [t for t, _ in tokens] + ["", ""]
    out: dict[str, tuple[int, int]] = {}
    for i, (name, start) in enumerate(tokens):
        if not _IDENT.match(name):
            continue
        seen = out.get(name)
        if seen is not None and seen[1] == 2:
            continue
        strength = _strength(
            texts[i - 2] if i > 1 else "", texts[i - 1] if i else "", texts[i + 1], texts[i + 2]
        )
        if seen is None or strength > seen[1]:
            out[name] = (bisect.bisect_left(newlines, start) + 1, strength)
    return out


def headers(root: Path, folders: tuple[str, ...] = LIBRARY_FOLDERS) -> list[Path]:
    """The header files under `root`'s library folders, in path order, NVIDIA ones left out."""
    found = []
    for folder in folders:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if (
                path.is_file()
                and path.suffix in (".h", ".hpp", ".cuh", "")
                and not _SKIPPED.search(rel)
            ):
                found.append(path)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def index(root: Path, folders: tuple[str, ...] = LIBRARY_FOLDERS) -> dict[str, str]:
    """identifier -> `folder/header:line` for every identifier the headers under `root` use."""
    best: dict[str, tuple[int, str]] = {}
    for path in headers(root, folders):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for name, (line, strength) in scan_file(text).items():
            seen = best.get(name)
            if seen is None or strength > seen[0]:
                best[name] = (strength, f"{rel}:{line}")
    return {name: place for name, (_, place) in best.items()}


def folders_present(root: Path, folders: tuple[str, ...] = LIBRARY_FOLDERS) -> tuple[str, ...]:
    return tuple(f for f in folders if (root / f).is_dir())
