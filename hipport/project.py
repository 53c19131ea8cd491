"""Which files make up the project: walking trees with .gitignore, globs and safe symlinks."""

from __future__ import annotations

import errno
import os
import re
import stat
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from hipport.findings import DENIED_REASON, LOOP_REASON
from hipport.fsio import is_stale_temp

SOURCE_SUFFIXES = (
    ".cu",
    ".cuh",
    ".hip",
    ".cpp",
    ".cc",
    ".cxx",
    ".c",
    ".h",
    ".hpp",
    ".hh",
    ".inl",
    ".inc",
    # headers and sources by other conventions (templates, modules, generated, CUDA
    # inlines): a header hipport never read would be a silent pass for what it includes
    ".hxx",
    ".tpp",
    ".ipp",
    ".tcc",
    ".txx",
    ".cuinl",
    ".c++",
    ".cp",
    ".ixx",
    ".cppm",
    ".cu.in",
)
HIP_SUFFIXES = (".hip",)
SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    "node_modules",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "build",
    "_build",
    "out",
}
SKIP_DIR_PREFIXES = ("cmake-build-", "build-")


@dataclass(frozen=True)
class ProjectFile:
    path: Path  # as found (absolute)
    relpath: str  # posix path relative to the base directory
    kind: str  # "source", "hip", "cmake" or "other"
    named: bool = False  # named on the command line (not found by walking a directory)


@dataclass
class Skipped:
    path: Path
    reason: str


class EmptyRun(ValueError):
    """The paths hold no source file at all: a gate that checked nothing must not pass
    (exit 2 unless --allow-empty). The message names what was not processed, and why."""

    def __init__(self, paths: list[Path], skipped: list[Skipped]) -> None:
        shown = ", ".join(str(p) for p in paths[:3]) + (", ..." if len(paths) > 3 else "")
        why = "; ".join(f"{s.path.name}: {s.reason}" for s in skipped[:3])
        why += "; ..." if len(skipped) > 3 else ""
        super().__init__(
            f"no source file found in {shown}"
            + (f" (not processed: {why})" if why else "")
            + ": nothing was checked. Pass --allow-empty if an empty run is expected."
        )


def skip_reason(exc: OSError, what: str = "cannot read") -> str:
    """What an OSError on a path tells the user. A symlink loop and a permission denied are
    skips with findings of their own (HIP204, HIP205); anything else is a read error."""
    if exc.errno == errno.ELOOP:
        return LOOP_REASON
    if exc.errno in (errno.EACCES, errno.EPERM):
        return DENIED_REASON
    if exc.errno == errno.ENAMETOOLONG:
        return f"{what}: path longer than the system allows (PATH_MAX or NAME_MAX)"
    return f"{what}: {exc.strerror or exc}"


def display_path(path: str) -> str:
    """A path as reports show it: valid Unicode whatever the file system holds. A byte that
    is not UTF-8 (kept by Python as a lone surrogate) becomes `\\xNN`, and a control
    character its escape (`\\n`, `\\t`, `\\x1b`), so every format can encode it and a
    name cannot break a line-based format."""
    if path.isprintable() and path.isascii():
        return path
    out = []
    for ch in path:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # surrogateescape's stand-in for the byte code - 0xDC00
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


_BYTE_ESCAPE = re.compile(r"\\x([0-9a-f]{2})")


def path_bytes(shown: str) -> bytes:
    """The bytes of a path display_path showed (its `\\xNN` escapes back to bytes): what a
    URI percent-encodes."""
    out = bytearray()
    last = 0
    for m in _BYTE_ESCAPE.finditer(shown):
        out += shown[last : m.start()].encode("utf-8", "surrogateescape")
        out.append(int(m.group(1), 16))
        last = m.end()
    return bytes(out + shown[last:].encode("utf-8", "surrogateescape"))


def classify(name: str, suffixes: tuple[str, ...] = SOURCE_SUFFIXES) -> str:
    if name == "CMakeLists.txt" or name.endswith(".cmake"):
        return "cmake"
    lower = name.lower()
    if lower.endswith(HIP_SUFFIXES):
        return "hip"
    if lower.endswith(tuple(s.lower() for s in suffixes)):
        return "source"
    return "other"


def _matches(relpath: str, patterns: list[str], is_dir: bool = False) -> bool:
    """Whether `relpath` matches one of `patterns`, with .gitignore's semantics (pathspec,
    as ruff and git do): `*` never crosses `/`, a pattern holding a `/` is anchored at the
    base (`Samples/*.cu` is not `Samples/sub/b.cu`), one without matches at any depth
    (`*.h`, `third_party`), `**` spans directories (`a/**/c.h` is also `a/c.h`), a
    trailing `/` matches a directory and all below it, `!` re-includes."""
    if not patterns:
        return False
    names = _by_name(tuple(patterns))
    if names is not None and _plain(relpath):
        parts = relpath.split("/")
        files, dirs = names
        return any(files.fullmatch(c) for c in parts) or any(
            dirs.fullmatch(c) for c in (parts if is_dir else parts[:-1])
        )
    return _spec(tuple(patterns)).match_file(relpath + "/" if is_dir else relpath)


_NAME_GLOB = re.compile(r"[^/\\!#?\[\]\s][^/\\?\[\]\s]*/?")  # `vendor/`, `glew.h`, `stb_*.h`
_NEVER = re.compile(r"(?!)")


@lru_cache(maxsize=64)
def _by_name(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """When every pattern names one path component (`vendor/`, `glew.h`, `stb_*.h`: no
    `/` but a trailing one, no `!`, `?`, `[`, `**`), what .gitignore makes of them, without
    pathspec's import (about 80 ms, paid by every one-file check): a name matches
    any component of the path, a name with a trailing `/` any directory of it; `*` is any
    run of characters but `/`. None: pathspec decides (tests/test_globs.py holds both to
    the same answers)."""
    files, dirs = [], []
    for raw in patterns:
        p = raw.removeprefix("./")
        if not _NAME_GLOB.fullmatch(p) or "**" in p or p.rstrip("/") in (".", ".."):
            return None
        body = "[^/]*".join(re.escape(part) for part in p.rstrip("/").split("*"))
        (dirs if p.endswith("/") else files).append(body)
    return _alternation(files), _alternation(dirs)


def _alternation(bodies: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{b})" for b in bodies)) if bodies else _NEVER


def _plain(relpath: str) -> bool:
    """A relative posix path of plain components (the fast matcher's input)."""
    return (
        bool(relpath)
        and not relpath.startswith("/")
        and all(c not in ("", ".", "..") for c in relpath.split("/"))
    )


@lru_cache(maxsize=64)
def _spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    import pathspec  # imported when a pattern is given (~80 ms)

    return pathspec.GitIgnoreSpec.from_lines(p.removeprefix("./") for p in patterns)


match_globs = _matches  # the public name (the runner matches configuration globs with it)


if TYPE_CHECKING:
    import pathspec


class _GitIgnore:
    """Nested .gitignore files, each applying to its own directory and below (as git does)."""

    def __init__(self) -> None:
        self._specs: list[tuple[str, pathspec.PathSpec]] = []

    def push(self, directory: Path, rel: str) -> int:
        path = directory / ".gitignore"
        try:  # not Path.is_file: it raises on a directory one may not search
            is_file = stat.S_ISREG(os.stat(path).st_mode)
        except OSError:
            is_file = False
        if is_file:
            try:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
                import pathspec  # only when a .gitignore exists: it costs ~80 ms to import

                self._specs.append((rel, pathspec.GitIgnoreSpec.from_lines(lines)))
                return 1
            except OSError:
                pass
        return 0

    def pop(self, count: int) -> None:
        for _ in range(count):
            self._specs.pop()

    def ignored(self, rel: str, is_dir: bool) -> bool:
        for base, spec in self._specs:
            sub = rel[len(base) + 1 :] if base else rel
            if spec.match_file(sub + "/" if is_dir else sub):
                return True
        return False


@dataclass
class Discovery:
    """Walks the given paths. `files` are in a stable (sorted) order; `skipped` says why
    anything was left out that a user might have expected; `stale_temps` are temporary
    files of hipport's whose writer is dead (discovery only reads: a writing run removes
    them with remove_stale_temps)."""

    base: Path
    files: list[ProjectFile]
    skipped: list[Skipped]
    stale_temps: list[Path] = field(default_factory=list)
    # sources left out by default, counted (not read): a build folder's (`build/`) and the
    # tracked files .gitignore names (EXCLUDED_TRACKED), each label with its count
    excluded: dict[str, int] = field(default_factory=dict)


def common_base(paths: list[Path]) -> Path:
    resolved = [Path(os.path.abspath(p)) for p in paths]
    dirs = [p if p.is_dir() else p.parent for p in resolved]
    return Path(os.path.commonpath(dirs)) if dirs else Path.cwd()


def discover(
    paths: list[Path],
    *,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
    suffixes: tuple[str, ...] = SOURCE_SUFFIXES,
    with_other: bool = False,
    base: Path | None = None,
    use_gitignore: bool = True,
) -> Discovery:
    """Files to process under `paths`. Explicitly named files are taken whatever their suffix
    (unless excluded); directories are walked, skipping VCS and build folders, what
    .gitignore ignores, symlinks that lead outside the tree, loops and special files."""
    base = base or common_base(paths)
    include = list(include or [])
    exclude = list(exclude or [])
    files: dict[str, ProjectFile] = {}
    skipped: list[Skipped] = []
    stale: list[Path] = []
    excluded = _Excluded(base, suffixes)
    for given in paths:
        path = Path(os.path.abspath(given))
        if not os.path.lexists(path):
            skipped.append(Skipped(path, "does not exist"))
            continue
        if path.is_dir():
            found = _walk(
                path, base, include, exclude, suffixes, with_other, skipped, stale, use_gitignore
            )
            for item in found:
                files.setdefault(item.relpath, item)
            excluded.add(found)
            continue
        rel = _rel(path, base)
        if exclude and _matches(rel, exclude):
            continue
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            skipped.append(Skipped(path, skip_reason(exc, "cannot stat")))
            continue
        if not stat.S_ISREG(mode):
            skipped.append(Skipped(path, "not a regular file"))
            continue
        files.setdefault(rel, ProjectFile(path, rel, _named_kind(path.name, suffixes), True))
    kept = _one_per_real_file(files, skipped, base)
    return Discovery(base, kept, skipped, stale, excluded.counts())


def given_file(
    path: Path, *, exclude: list[str] | None = None, suffixes: tuple[str, ...] = SOURCE_SUFFIXES
) -> Discovery:
    """What discover([path]) finds for a file named on the command line, for a source
    given by its bytes (standard input): `path` is what it stands for, and need not exist;
    nothing is read."""
    path = Path(os.path.abspath(path))
    base = path.parent
    rel = _rel(path, base)
    if exclude and _matches(rel, list(exclude)):
        return Discovery(base, [], [])
    return Discovery(base, [ProjectFile(path, rel, _named_kind(path.name, suffixes), True)], [])


def _named_kind(name: str, suffixes: tuple[str, ...]) -> str:
    """A file named on the command line is translated whatever its suffix."""
    kind = classify(name, suffixes)
    return "source" if kind == "other" else kind


def _one_per_real_file(
    files: dict[str, ProjectFile], skipped: list[Skipped], base: Path
) -> list[ProjectFile]:
    """A file reached both as itself and through a symlink is processed once, as itself:
    translating it twice would race two writes, and an in-place write through the link
    would replace the link with a copy."""
    real_of = {rel: os.path.realpath(f.path) for rel, f in files.items()}
    by_real: dict[str, str] = {}
    for rel in sorted(files, key=lambda r: (os.path.islink(files[r].path), r)):
        if files[rel].kind == "other":  # only copied (with -o): never a duplicate of a source
            by_real.setdefault(f"{real_of[rel]}\0{rel}", rel)
            continue
        first = by_real.setdefault(real_of[rel], rel)
        if first != rel:
            skipped.append(Skipped(files[rel].path, f"symlink to {first}, translated there"))
    kept = set(by_real.values())
    real_base = os.path.realpath(base)
    return [_through_link(files[k], real_of[k], real_base) for k in sorted(files) if k in kept]


def _through_link(f: ProjectFile, real: str, real_base: str) -> ProjectFile:
    """A symlink kept (its target is not itself in the run) is read and written as its
    target, under the link's name: an in-place write then updates the target and keeps the
    link, instead of replacing the link with a copy. Never for a target outside the base
    (walked links to outside were skipped; a link named on the command line stays as is)."""
    if not os.path.islink(f.path) or not real.startswith(real_base.rstrip(os.sep) + os.sep):
        return f
    return ProjectFile(Path(real), f.relpath, f.kind, f.named)


def _rel(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return Path(os.path.relpath(path, base)).as_posix()


class _Walk(list):
    """The files of one walk (`_walk`), with what it left out by default: the build
    folders it did not enter, and the sources and folders .gitignore names."""

    def __init__(self) -> None:
        super().__init__()
        self.build_dirs: list[tuple[Path, str]] = []  # (path, relpath)
        self.ignored: list[tuple[str, bool]] = []  # (relpath, is a directory)


def _walk(
    top: Path,
    base: Path,
    include: list[str],
    exclude: list[str],
    suffixes: tuple[str, ...],
    with_other: bool,
    skipped: list[Skipped],
    stale: list[Path],
    use_gitignore: bool,
) -> _Walk:
    out = _Walk()
    out.extend(
        _walk_files(
            top, base, include, exclude, suffixes, with_other, skipped, stale, use_gitignore, out
        )
    )
    return out


def _walk_files(
    top: Path,
    base: Path,
    include: list[str],
    exclude: list[str],
    suffixes: tuple[str, ...],
    with_other: bool,
    skipped: list[Skipped],
    stale: list[Path],
    use_gitignore: bool,
    out: _Walk,
) -> Iterator[ProjectFile]:
    real_top = os.path.realpath(top)
    seen_dirs: set[tuple[int, int]] = set()
    ignore = _GitIgnore()
    # gitignore files between the base and the walked directory apply too
    pushed_above = 0
    if use_gitignore:
        for parent in reversed([top, *top.parents]):
            if parent == base or base in parent.parents:
                pushed_above += ignore.push(parent, _rel(parent, base) if parent != base else "")

    def entries_of(directory: Path) -> list[os.DirEntry] | None:
        try:
            st = os.stat(directory)
        except OSError as exc:
            skipped.append(Skipped(directory, skip_reason(exc, "cannot read directory")))
            return None
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            skipped.append(Skipped(directory, LOOP_REASON))
            return None
        seen_dirs.add(key)
        try:
            return sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            skipped.append(Skipped(directory, skip_reason(exc, "cannot read directory")))
            return None

    def walk(top_dir: Path) -> Iterator[ProjectFile]:
        # depth first, in sorted order, with an explicit stack: no recursion limit on how
        # deep a tree may be. Each frame: the directory's remaining entries and how many
        # .gitignore levels entering it pushed.
        stack: list[tuple[Iterator[os.DirEntry], int]] = []
        top_entries = entries_of(top_dir)
        if top_entries is not None:
            stack.append((iter(top_entries), 0))
        while stack:
            remaining, pushed_here = stack[-1]
            entry = next(remaining, None)
            if entry is None:
                stack.pop()
                ignore.pop(pushed_here)
                continue
            path = Path(entry.path)
            rel = _rel(path, base)
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir()  # follows links
            except OSError as exc:  # e.g. ELOOP: a symlink to itself
                # a loop may stand for a directory of sources: reported whatever its name
                if exc.errno == errno.ELOOP or classify(entry.name, suffixes) != "other":
                    skipped.append(Skipped(path, skip_reason(exc)))
                continue
            if is_link and not _inside(path, real_top):
                skipped.append(Skipped(path, "symlink leading outside the tree"))
                continue
            if is_link and is_dir:
                # the directory it points to is inside the tree and walked as itself; going
                # through links too would visit it twice, or forever for a link to a parent
                skipped.append(
                    Skipped(path, "symlink to a directory inside the tree, walked as itself")
                )
                continue
            if is_dir:
                if entry.name in SKIP_DIRS or entry.name.startswith(SKIP_DIR_PREFIXES):
                    if entry.name not in _NO_SOURCES_DIRS:
                        out.build_dirs.append((path, rel))
                    continue
                if use_gitignore and ignore.ignored(rel, True):
                    out.ignored.append((rel, True))
                    continue
                if exclude and _matches(rel, exclude, is_dir=True):
                    continue
                pushed = ignore.push(path, rel) if use_gitignore else 0
                sub_entries = entries_of(path)
                if sub_entries is None:
                    ignore.pop(pushed)
                else:
                    stack.append((iter(sub_entries), pushed))
                continue
            try:
                is_file = entry.is_file()
            except OSError:
                is_file = False
            if not is_file:
                if os.path.lexists(path) and not is_link:
                    skipped.append(Skipped(path, "not a regular file (FIFO, socket, device)"))
                elif (
                    is_link
                    and classify(entry.name, suffixes) != "other"
                    and not (use_gitignore and ignore.ignored(rel, False))
                    and not (exclude and _matches(rel, exclude))
                ):
                    # a source named in the tree that cannot be read: say so
                    skipped.append(Skipped(path, "cannot read: dangling symlink"))
                continue
            if not is_link and is_stale_temp(path):
                stale.append(path)
                continue
            if use_gitignore and ignore.ignored(rel, False):
                if classify(entry.name, suffixes) != "other":
                    out.ignored.append((rel, False))
                continue
            if exclude and _matches(rel, exclude):
                continue
            kind = classify(entry.name, suffixes)
            if include and kind != "other" and not _matches(rel, include):
                kind = "other"
            if kind == "other" and not with_other:
                continue
            yield ProjectFile(path, rel, kind)

    yield from walk(top)
    ignore.pop(pushed_above)


# Folders skipped by default that hold no one's sources (version control, caches,
# environments): not counted. Build folders (build/, out/, cmake-build-*) are.
_NO_SOURCES_DIRS = frozenset(SKIP_DIRS - {"build", "_build", "out"})
# At most this many entries of a build folder are looked at to count its sources.
_COUNT_LIMIT = 100_000
EXCLUDED_TRACKED = "tracked files .gitignore names"


class _Excluded:
    """The count of the sources the walks left out by default: those in build folders, and
    those .gitignore names that git tracks (`git ls-files`, asked only when .gitignore
    left something out; with the repository's fsmonitor off, so git runs nothing of the
    tree's)."""

    def __init__(self, base: Path, suffixes: tuple[str, ...]) -> None:
        self.base, self.suffixes = base, suffixes
        self.dirs: dict[str, int] = {}
        self.tracked = 0

    def add(self, walk: _Walk) -> None:
        for path, rel in walk.build_dirs:
            n = _count_sources(path, self.suffixes)
            if n:
                self.dirs[rel + "/"] = n
        if walk.ignored:
            self.tracked += _tracked_among(self.base, walk.ignored, self.suffixes)

    def counts(self) -> dict[str, int]:
        out = dict(self.dirs)
        if self.tracked:
            out[EXCLUDED_TRACKED] = self.tracked
        return out


def _count_sources(top: Path, suffixes: tuple[str, ...]) -> int:
    """Sources under `top` (no link followed; at most _COUNT_LIMIT entries looked at)."""
    count = seen = 0
    stack = [top]
    while stack and seen < _COUNT_LIMIT:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif (
                    entry.is_file(follow_symlinks=False)
                    and classify(entry.name, suffixes) != "other"
                ):
                    count += 1
            except OSError:
                continue
    return count


def _tracked_among(base: Path, ignored: list[tuple[str, bool]], suffixes: tuple[str, ...]) -> int:
    """How many of the ignored sources, and of the sources under the ignored folders, git
    tracks in `base`'s repository (0 when there is none, or no git)."""
    import subprocess

    cmd = ["git", "-c", "core.fsmonitor=false", "ls-files", "-z", "--cached", "--", "."]
    try:
        proc = subprocess.run(cmd, cwd=base, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return 0
    if proc.returncode != 0:
        return 0
    tracked = sorted(
        name
        for name in proc.stdout.decode("utf-8", "surrogateescape").split("\0")
        if name and classify(name.rsplit("/", 1)[-1], suffixes) != "other"
    )
    count = 0
    for rel, is_dir in ignored:
        if is_dir:
            prefix = rel + "/"
            i = bisect_left(tracked, prefix)
            while i < len(tracked) and tracked[i].startswith(prefix):
                count += 1
                i += 1
        else:
            i = bisect_left(tracked, rel)
            count += i < len(tracked) and tracked[i] == rel
    return count


STALE_TEMP_KEPT = "temporary file left by an interrupted run (a writing run removes it)"


def stale_temps_kept(stale: list[Path]) -> list[Skipped]:
    """What a run that writes nothing (check, --diff, --stdout) says of the stale temporary
    files it found and left in place."""
    return [Skipped(path, STALE_TEMP_KEPT) for path in stale]


def remove_stale_temps(stale: list[Path]) -> list[Skipped]:
    """Remove the temporary files discovery found whose writer is dead (a writing run's
    job, never a check's). A `.NAME.PID.xxxx.hipport-tmp` file was left by a run killed
    between writing and renaming; its source file is intact (original or fully written),
    so the temporary file is garbage. Checked again here: a writer with that pid may have
    started since discovery."""
    skipped = []
    for path in stale:
        if not is_stale_temp(path):
            continue
        try:
            os.unlink(path)
            skipped.append(Skipped(path, "removed a temporary file left by an interrupted run"))
        except FileNotFoundError:
            continue  # gone since discovery
        except OSError as exc:
            reason = f"stale temporary file, cannot remove: {exc.strerror}"
            skipped.append(Skipped(path, reason))
    return skipped


def _inside(path: Path, real_top: str) -> bool:
    real = os.path.realpath(path)
    return real == real_top or real.startswith(real_top.rstrip(os.sep) + os.sep)
