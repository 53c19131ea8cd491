"""The cache's upkeep: how much it holds (`hipport cache info`), emptying it (`hipport cache
clean`), and its size cap with least-recently-used eviction.

Everything hipport caches lives in format directories `v<N>/` under the cache directory
(hipport.cache.cache_dir: --cache-dir, HIPPORT_CACHE_DIR, else the user cache directory);
only those and the trim stamp are ever removed, so a mistaken `--cache-dir ~` deletes
nothing of the user's. A result entry is touched when a run reuses it (at most hourly), so
its mtime says when it was last used. After a run that used the cache, at most every
TRIM_EVERY seconds, the cache is trimmed to 80% of its cap when it holds more than the cap
(default 256 MB; HIPPORT_CACHE_MAX_MB): other formats' directories first, then the least
recently used files. A file another run holds open is removed as any other: that run
rewrites what it needs (a missing entry is a miss, never a failure)."""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

DEFAULT_MAX_MB = 256
TRIM_EVERY = 600  # seconds between two trims (each walks the cache)
STAMP = ".trimmed"
_FORMAT_DIR = re.compile(r"v\d+")
# Set by a run that read or wrote the cache (hipport.runner): the command trims after it.
_used: list[Path] = []


def note_used(directory: Path) -> None:
    _used.append(directory)


def trim_if_used(current_format: str) -> None:
    """After a command: trim the cache it used, when due (never during a run: the report
    still reads results from it)."""
    for directory in dict.fromkeys(_used):
        maybe_trim(directory, current_format)
    _used.clear()


@dataclass
class Usage:
    files: int = 0
    bytes: int = 0


def max_bytes() -> int:
    """The cap: HIPPORT_CACHE_MAX_MB (a whole number of MB; 0: no cap), else 256 MB."""
    raw = os.environ.get("HIPPORT_CACHE_MAX_MB", "").strip()
    try:
        mb = int(raw) if raw else DEFAULT_MAX_MB
    except ValueError:
        mb = DEFAULT_MAX_MB
    return max(mb, 0) << 20


def _format_dirs(directory: Path) -> list[Path]:
    try:
        return [
            Path(e.path)
            for e in os.scandir(directory)
            if _FORMAT_DIR.fullmatch(e.name) and e.is_dir(follow_symlinks=False)
        ]
    except OSError:
        return []


def _files(top: Path) -> list[tuple[float, int, str]]:
    """(mtime, size, path) of every regular file under `top` (symlinks not followed). One
    lstat per file (the directory entry's type says what it is): a trim walks the whole
    cache, 10,000 files for a 5,000-file tree, after the run it follows."""
    out = []
    todo = [os.fspath(top)]
    while todo:
        try:
            entries = os.scandir(todo.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
                        continue
                    if not entry.is_file(follow_symlinks=False):
                        continue  # a symlink, a FIFO: never the cache's
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                out.append((st.st_mtime, st.st_size, entry.path))
    return out


def usage(directory: Path) -> Usage:
    u = Usage()
    for top in _format_dirs(directory):
        for _, size, _ in _files(top):
            u.files += 1
            u.bytes += size
    return u


def clean(directory: Path) -> Usage:
    """Remove every cache format directory under `directory`; what was removed."""
    removed = Usage()
    for top in _format_dirs(directory):
        for _, size, path in _files(top):
            try:
                os.unlink(path)
            except OSError:
                continue
            removed.files += 1
            removed.bytes += size
        for dirpath, _, _ in sorted(os.walk(top), key=lambda w: -len(w[0])):
            try:
                os.rmdir(dirpath)
            except OSError:
                pass
    try:
        os.unlink(directory / STAMP)
    except OSError:
        pass
    return removed


def trim(directory: Path, cap: int, current_format: str) -> Usage:
    """Bring the cache under `cap` bytes when it is over: down to 80% of it, other
    formats' files first, then the least recently used. What was removed."""
    removed = Usage()
    files = [(0.0 if Path(p).relative_to(directory).parts[0] != current_format else m, s, p)
             for top in _format_dirs(directory) for m, s, p in _files(top)]  # fmt: skip
    total = sum(s for _, s, _ in files)
    if cap <= 0 or total <= cap:
        return removed
    goal = cap * 4 // 5
    for _, size, path in sorted(files):
        if total <= goal:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
        removed.files += 1
        removed.bytes += size
    return removed


def maybe_trim(directory: Path, current_format: str, now: float | None = None) -> Usage | None:
    """Trim when the last trim is older than TRIM_EVERY seconds (None: not due)."""
    now = time.time() if now is None else now
    stamp = directory / STAMP
    try:
        if now - os.stat(stamp).st_mtime < TRIM_EVERY:
            return None
    except OSError:
        pass
    try:
        from hipport.cache import write_private
        from hipport.cache_format import dumps

        directory.mkdir(parents=True, exist_ok=True)
        # a cache file like any other (its mtime is what counts): every file in the cache
        # directory is in the cache's own format
        write_private(stamp, dumps("trim-stamp", [now]))
        os.utime(stamp, (now, now))
    except OSError:
        return None
    return trim(directory, max_bytes(), current_format)
