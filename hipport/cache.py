"""The content-hash cache: a re-run on an unchanged tree reuses every result.

One manifest per (project root, options) in the user cache directory, holding for each file
its size, mtime, content hash and result. The key of a result is the file content + the
options + the table version + hipport's version, so any change to one of them misses.
Manifests are written atomically (temp file + rename), carry a format version, and a
corrupt or foreign manifest is treated as empty: two runs sharing a cache can at worst
redo each other's work, never read a torn file.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipport import __version__
from hipport.fsio import atomic_write

FORMAT = 4  # bump when what is pickled changes shape
# A file modified this recently may be rewritten again within the same mtime tick with the
# same size (git's "racily clean" case): its stat alone is not trusted, its content is.
RACY_NS = 2_000_000_000


def cache_dir() -> Path:
    env = os.environ.get("HIPPORT_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hipport", appauthor=False))


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def tables_version(directory: Path) -> str:
    """A digest of the mapping files' sizes and times: cheap, and changes with the tables."""
    h = hashlib.blake2b(digest_size=12)
    for path in sorted(directory.glob("*.tsv")):
        st = path.stat()
        h.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


@dataclass
class Entry:
    size: int
    mtime_ns: int
    digest: str
    result: Any  # the TranslationResult
    ctime_ns: int = 0  # with the inode: what `touch -d` or a same-size rewrite cannot fake
    inode: int = 0

    def same_stat(self, st: os.stat_result) -> bool:
        return (self.size, self.mtime_ns, self.ctime_ns, self.inode) == (
            st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


@dataclass
class Manifest:
    path: Path
    key: str
    entries: dict[str, Entry] = field(default_factory=dict)
    index: dict[str, tuple[int, int, frozenset[str]]] = field(default_factory=dict)
    dirty: bool = False

    def lookup(self, key: str, path: Path) -> Any:
        """The cached result if the file is unchanged: same size and mtime, or (when only the
        time moved, as after a checkout or `touch`) the same content."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        if entry.same_stat(st) and time.time_ns() - st.st_mtime_ns > RACY_NS:
            return entry.result
        if entry.size != st.st_size:
            return None
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        if entry.digest == content_hash(data):
            # the next run matches on the stat alone
            entry.mtime_ns, entry.ctime_ns, entry.inode = st.st_mtime_ns, st.st_ctime_ns, st.st_ino
            self.dirty = True
            return entry.result
        return None

    def store(self, relpath: str, st: os.stat_result, data: bytes, result: Any) -> None:
        self.entries[relpath] = Entry(st.st_size, st.st_mtime_ns, content_hash(data), result,
                                      st.st_ctime_ns, st.st_ino)
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        payload = pickle.dumps((FORMAT, self.key, self.entries, self.index),
                               protocol=pickle.HIGHEST_PROTOCOL)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, payload, mode=0o600)
        self.dirty = False


def manifest_key(root: Path, options_key: str, tables_key: str) -> str:
    return f"{__version__}|{tables_key}|{options_key}|{os.path.realpath(root)}"


def open_manifest(root: Path, options_key: str, tables_key: str,
                  directory: Path | None = None) -> Manifest:
    key = manifest_key(root, options_key, tables_key)
    name = hashlib.blake2b(key.encode(), digest_size=16).hexdigest()
    path = (directory or cache_dir()) / f"v{FORMAT}" / f"{name}.pickle"
    manifest = Manifest(path, key)
    try:
        with open(path, "rb") as fh:
            fmt, stored_key, entries, index = pickle.load(fh)
        if fmt == FORMAT and stored_key == key:
            manifest.entries, manifest.index = entries, index
    except FileNotFoundError:
        pass
    except Exception:  # noqa: BLE001 - a corrupt or foreign cache is a miss, never a failure
        pass
    return manifest


def index_path(root: Path, directory: Path | None = None) -> Path:
    """The project index (names the project defines) is shared by every option set."""
    name = hashlib.blake2b(os.path.realpath(root).encode(), digest_size=16).hexdigest()
    return (directory or cache_dir()) / f"v{FORMAT}" / f"index-{name}.pickle"


def load_index(root: Path) -> dict[str, tuple[int, int, frozenset[str]]]:
    try:
        with open(index_path(root), "rb") as fh:
            fmt, data = pickle.load(fh)
        return data if fmt == FORMAT else {}
    except Exception:  # noqa: BLE001 - missing or corrupt: rebuild
        return {}


def save_index(root: Path, data: dict[str, tuple[int, int, frozenset[str]]]) -> None:
    path = index_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, pickle.dumps((FORMAT, data), protocol=pickle.HIGHEST_PROTOCOL),
                 mode=0o600)
