"""The content-hash cache: a re-run on an unchanged tree reuses every result.

Two layers, both in the user cache directory:

* a small **stat index** per (project root, options): for each file its size, mtime, ctime,
  inode, content digest and a summary of its result (`info`: what the run's summary counts
  need), loaded and written whole (it holds no results);
* **result entries**, one file per result, content-addressed: the key is the file content's
  digest + the options + the table version + hipport's version + the file's path and
  relpath (the result's locations use them). An entry holds neither the source bytes (the
  file is re-read and its digest checked when a result is loaded) nor the output when it
  equals the source. Entries are loaded only when the run needs the result.

Every file is written atomically (temp file + rename) and carries the format version; a
corrupt, torn or foreign file is a miss, never a failure: two runs sharing a cache can at
worst redo each other's work, never read a torn file. Entries are not fsynced: after a power
loss a truncated entry is a miss like any other corrupt one.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipport import __version__
from hipport.fsio import atomic_write, read_regular

FORMAT = 5  # bump when what is pickled changes shape
# A file modified this recently may be rewritten again within the same mtime tick with the
# same size (git's "racily clean" case): its stat alone is not trusted, its content is.
RACY_NS = 2_000_000_000


def cache_dir() -> Path:
    env = os.environ.get("HIPPORT_CACHE_DIR")
    if env:
        return Path(env)
    if sys.platform.startswith("linux"):  # what platformdirs answers there, without its import
        xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
        return Path(xdg or os.path.expanduser("~/.cache")) / "hipport"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hipport", appauthor=False))


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


@dataclass(slots=True)
class Entry:
    """One file in the stat index: what its stat was when its digest was taken, and the
    summary (`info`) of its cached result."""

    size: int
    mtime_ns: int
    digest: str
    info: Any = None  # the runner's per-file summary of the result
    ctime_ns: int = 0  # with the inode: what `touch -d` or a same-size rewrite cannot fake
    inode: int = 0

    def same_stat(self, st: os.stat_result) -> bool:
        return (self.size, self.mtime_ns, self.ctime_ns, self.inode) == (
            st.st_size,
            st.st_mtime_ns,
            st.st_ctime_ns,
            st.st_ino,
        )


@dataclass
class Hit:
    """A file the cache knows unchanged: its digest and result summary; `data` is the
    content when the check had to read it (then a result load need not read it again)."""

    digest: str
    info: Any
    data: bytes | None = None


def _load(path: Path) -> Any:
    """Unpickle a cache file with the cyclic collector paused: the objects are plain data
    (no cycles to find), and a large index would otherwise trigger dozens of collections."""
    import gc

    with open(path, "rb") as fh:
        data = fh.read()
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if enabled:
            gc.enable()


def write_private(path: Path, payload: bytes) -> None:
    """Temp file + rename, mode 0600, no fsync (a torn cache file is only a miss)."""
    atomic_write(path, payload, mode=0o600, durable=False)


class ResultStore:
    """Per-file results, content-addressed under <cache>/v<FORMAT>/results/."""

    def __init__(self, directory: Path, salt: str) -> None:
        self.directory = directory
        self.salt = salt  # hipport version, tables, options
        self._made: set[Path] = set()

    def _path(self, digest: str, file_key: str) -> tuple[Path, str]:
        key = f"{self.salt}|{file_key}|{digest}"
        name = hashlib.blake2b(os.fsencode(key), digest_size=20).hexdigest()
        return self.directory / name[:2] / f"{name[2:]}.pickle", key

    def load(
        self, digest: str, file_key: str, path: Path, data: bytes | None = None, make: Any = None
    ) -> Any:
        """The result stored for this content, rebuilt with `make(source, output, fields)`
        from the file's bytes (re-read unless given, and checked against the digest); None
        on a miss, a corrupt entry or a file that changed since."""
        entry_path, key = self._path(digest, file_key)
        try:
            fmt, stored_key, output, fields = _load(entry_path)
            if fmt != FORMAT or stored_key != key:
                return None
            if data is None:
                data = read_regular(Path(path))
        except Exception:  # noqa: BLE001 - a corrupt or foreign entry is a miss
            return None
        if content_hash(data) != digest:
            return None
        return make(data, data if output is None else output, fields)

    def store(self, digest: str, file_key: str, source: bytes, output: bytes, fields: Any) -> None:
        entry_path, key = self._path(digest, file_key)
        payload = pickle.dumps(
            (FORMAT, key, None if output == source else output, fields),
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        parent = entry_path.parent
        if parent not in self._made:
            parent.mkdir(parents=True, exist_ok=True)
            self._made.add(parent)
        write_private(entry_path, payload)


@dataclass
class Manifest:
    """The stat index of one (root, options) and the result store it points into."""

    path: Path
    key: str
    results: ResultStore | None = None
    entries: dict[str, Entry] = field(default_factory=dict)
    dirty: bool = False

    def check(self, key: str, path: Path) -> Hit | None:
        """A Hit if the file is unchanged: same size, mtime, ctime and inode outside the racy
        window, or (when only the time moved, as after a checkout or `touch`) the same
        content."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        if entry.same_stat(st) and time.time_ns() - st.st_mtime_ns > RACY_NS:
            return Hit(entry.digest, entry.info)
        if entry.size != st.st_size:
            return None
        try:
            data = read_regular(Path(path))
        except OSError:
            return None
        if entry.digest == content_hash(data):
            # the next run matches on the stat alone
            entry.mtime_ns, entry.ctime_ns, entry.inode = st.st_mtime_ns, st.st_ctime_ns, st.st_ino
            self.dirty = True
            return Hit(entry.digest, entry.info, data)
        return None

    def record(self, key: str, st: os.stat_result, digest: str, info: Any) -> None:
        self.entries[key] = Entry(
            st.st_size, st.st_mtime_ns, digest, info, st.st_ctime_ns, st.st_ino
        )
        self.dirty = True

    def forget(self, key: str) -> None:
        if self.entries.pop(key, None) is not None:
            self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        payload = pickle.dumps((FORMAT, self.key, self.entries), protocol=pickle.HIGHEST_PROTOCOL)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, payload, mode=0o600)
        self.dirty = False


def manifest_key(root: Path, options_key: str, tables_key: str) -> str:
    return f"{__version__}|{tables_key}|{options_key}|{os.path.realpath(root)}"


def result_store(options_key: str, tables_key: str, directory: Path | None = None) -> ResultStore:
    base = (directory or cache_dir()) / f"v{FORMAT}" / "results"
    return ResultStore(base, f"{FORMAT}|{__version__}|{tables_key}|{options_key}")


def open_manifest(
    root: Path, options_key: str, tables_key: str, directory: Path | None = None
) -> Manifest:
    key = manifest_key(root, options_key, tables_key)
    name = hashlib.blake2b(os.fsencode(key), digest_size=16).hexdigest()
    path = (directory or cache_dir()) / f"v{FORMAT}" / f"{name}.pickle"
    manifest = Manifest(path, key, result_store(options_key, tables_key, directory))
    try:
        fmt, stored_key, entries = _load(path)
        if fmt == FORMAT and stored_key == key and isinstance(entries, dict):
            manifest.entries = entries
    except FileNotFoundError:
        pass
    except Exception:  # noqa: BLE001 - a corrupt or foreign cache is a miss, never a failure
        pass
    return manifest


def index_path(root: Path, directory: Path | None = None) -> Path:
    """The project index (names the project defines) is shared by every option set."""
    name = hashlib.blake2b(os.fsencode(os.path.realpath(root)), digest_size=16).hexdigest()
    return (directory or cache_dir()) / f"v{FORMAT}" / f"index-{name}.pickle"


def load_index(root: Path) -> dict[str, tuple[int, int, frozenset[str]]]:
    try:
        fmt, data = _load(index_path(root))
        return data if fmt == FORMAT else {}
    except Exception:  # noqa: BLE001 - missing or corrupt: rebuild
        return {}


def save_index(root: Path, data: dict[str, tuple[int, int, frozenset[str]]]) -> None:
    path = index_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, pickle.dumps((FORMAT, data), protocol=pickle.HIGHEST_PROTOCOL), mode=0o600)
