"""The content-hash cache: a re-run on an unchanged tree reuses every result.

Two layers, both in the user cache directory:

* a small **stat index** per (project root, options): for each file its size, mtime, ctime,
  inode, content digest and a summary of its result (`info`: what the run's summary counts
  need), loaded and written whole (it holds no results);
* **result entries**, one file per result, content-addressed: the key is the file content's
  digest + the options + the table version + hipport's version + the file's path and
  relpath (the result's locations use them). An entry holds neither the source bytes (the
  file is re-read and its digest checked when a result is loaded) nor the output when it
  equals the source. Entries are loaded only when the run needs the result. Beside each,
  under the same key, its **report part** (hipport.runner.report_part: findings, uses
  counted by kind, edit totals): what a check's report reads instead of the result.

Every file is written atomically (temp file + rename) in hipport.cache_format's format
(JSON with the format version and a checksum: data, never code, unlike the pickle it
replaced); a corrupt, torn, foreign or wrongly shaped file is a miss, never a failure:
two runs sharing a cache can at worst redo each other's work, never read a torn file.
Nothing is fsynced (entries, the stat index, the project index: after a power loss a
truncated file is a miss like any other corrupt one; the fsyncs of the two indexes cost a
warm run 10-50 ms of wall time here).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hipport import __version__
from hipport.account import _note, home
from hipport.cache_format import CacheMiss, dumps, dumps_parts, encode, loads, loads_part, shape
from hipport.fsio import atomic_write, read_regular

FORMAT = 7  # bump when what is stored changes shape (6: JSON; 7: HIP012 header names kept)
# A file modified this recently may be rewritten again within the same mtime tick with the
# same size (git's "racily clean" case): its stat alone is not trusted, its content is.
RACY_NS = 2_000_000_000
# A report part's kind: plain JSON (hipport.runner.report_part); "part", the tagged
# encoding before it, is another kind, so such a file is a miss and written anew
PART_KIND = "part-plain"


def cache_dir() -> Path:
    """HIPPORT_CACHE_DIR, else the user cache directory. XDG_CACHE_HOME counts only when
    absolute (the XDG rule: a relative one would put the cache wherever the run started),
    HOME only when absolute (an empty HOME would mean /.cache); otherwise the account's
    home from the password database, else a private directory in the system temp
    directory. A fallback says so once, on stderr."""
    env = os.environ.get("HIPPORT_CACHE_DIR")
    if env:
        return Path(env)
    if sys.platform.startswith("linux"):  # what platformdirs answers there, without its import
        xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
        if xdg and os.path.isabs(xdg):
            return Path(xdg) / "hipport"
        if xdg:
            _note(f"XDG_CACHE_HOME is not absolute ({xdg!r}): ignored, as the XDG spec says")
        return home() / ".cache" / "hipport"
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
    # what the result depends on besides the file and the options (the runner's header
    # context: hipport.runner.project_macros.header_contexts); another one is a miss
    context: str = ""

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


def _load(path: Path, kind: str, both: bool = False, raw: bool = False) -> Any:
    """A cache file's payload (CacheMiss when it is not one of this kind and format), read
    with the cyclic collector paused: the objects are plain data (no cycles to find), and a
    large index would otherwise trigger dozens of collections. `both`: (the payload, the
    plain JSON it was decoded from); `raw`: the plain JSON only (a payload stored raw)."""
    import gc

    data = read_regular(path)
    enabled = gc.isenabled()
    gc.disable()
    try:
        if both:
            return loads(kind, data), loads(kind, data, raw=True)
        return loads(kind, data, raw=raw)
    finally:
        if enabled:
            gc.enable()


# A reused entry's mtime is moved to now at most this often (the cap evicts the least
# recently used: hipport.cache_admin), so a warm run does not write every entry's inode.
TOUCH_EVERY = 3600


def _touch(path: Path) -> None:
    try:
        if time.time() - os.stat(path).st_mtime > TOUCH_EVERY:
            os.utime(path)
    except OSError:
        pass


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
        return self.directory / name[:2] / f"{name[2:]}.json", key

    def load(
        self, digest: str, file_key: str, path: Path, data: bytes | None = None, make: Any = None
    ) -> Any:
        """The result stored for this content, rebuilt with `make(source, output, fields)`
        from the file's bytes (re-read unless given, and checked against the digest); None
        on a miss, a corrupt entry or a file that changed since."""
        entry_path, key = self._path(digest, file_key)
        try:
            stored_key, output, fields = shape(_load(entry_path, "result"), list, "result")
            if stored_key != key:
                return None
            shape(output, (bytes, type(None)), "output")
            shape(fields, tuple, "fields")
            if data is None:
                data = read_regular(Path(path))
        except (CacheMiss, OSError, ValueError, TypeError):  # a corrupt or foreign entry
            return None
        if content_hash(data) != digest:
            return None
        try:
            result = make(data, data if output is None else output, fields)
        except (CacheMiss, ValueError, TypeError, AttributeError):  # the wrong shape: a miss
            return None
        _touch(entry_path)
        return result

    def load_part(self, digest: str, file_key: str, path: Path, make: Any) -> Any:
        """The report part stored beside a result (hipport.runner.report_part), rebuilt
        with `make(source, fields)` from the file's bytes (re-read, and checked against
        the digest); None on a miss, a corrupt entry or a file that changed since."""
        entry_path, key = self._path(digest, file_key)
        try:
            loaded = _load(_part_path(entry_path), PART_KIND, raw=True)
            stored_key, fields = shape(loaded, list, "part")
            if stored_key != key:
                return None
            shape(fields, list, "fields")
            data = read_regular(Path(path))
            if content_hash(data) != digest:
                return None
            return make(data, fields)
        except (CacheMiss, OSError, ValueError, TypeError, AttributeError):
            return None

    def store_part(self, digest: str, file_key: str, fields: list | None) -> None:
        """Keep a result's report part, its fields plain JSON (None: it has none to keep)."""
        if fields is None:
            return
        entry_path, key = self._path(digest, file_key)
        write_private(_part_path(entry_path), dumps(PART_KIND, [key, fields], raw=True))

    def store(self, digest: str, file_key: str, source: bytes, output: bytes, fields: Any) -> None:
        entry_path, key = self._path(digest, file_key)
        payload = dumps("result", [key, None if output == source else output, fields])
        parent = entry_path.parent
        if parent not in self._made:
            parent.mkdir(parents=True, exist_ok=True)
            self._made.add(parent)
        write_private(entry_path, payload)


def _part_path(entry_path: Path) -> Path:
    """Where a result's report part is: beside it (the same key, another file)."""
    return entry_path.with_name(entry_path.stem + ".part.json")


@dataclass
class Manifest:
    """The stat index of one (root, options) and the result store it points into."""

    path: Path
    key: str
    results: ResultStore | None = None
    entries: dict[str, Entry] = field(default_factory=dict)
    dirty: bool = False
    # each loaded entry as its file has it (plain JSON), and the keys changed since: a save
    # encodes only those (encoding every entry again was a third of a warm run's writes)
    _stored: dict[str, Any] = field(default_factory=dict, repr=False)
    _changed: set[str] = field(default_factory=set, repr=False)

    def check(self, key: str, path: Path, context: str = "") -> Hit | None:
        """A Hit if the file is unchanged: same size, mtime, ctime and inode outside the racy
        window, or (when only the time moved, as after a checkout or `touch`) the same
        content; and its result was made in the same `context`."""
        entry = self.entries.get(key)
        if entry is None or entry.context != context:
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
            self._changed.add(key)
            return Hit(entry.digest, entry.info, data)
        return None

    def record(
        self, key: str, st: os.stat_result, digest: str, info: Any, context: str = ""
    ) -> None:
        self.entries[key] = Entry(
            st.st_size, st.st_mtime_ns, digest, info, st.st_ctime_ns, st.st_ino, context
        )
        self.dirty = True
        self._changed.add(key)

    def forget(self, key: str) -> None:
        if self.entries.pop(key, None) is not None:
            self.dirty = True
            self._changed.add(key)

    def save(self) -> None:
        if not self.dirty:
            return
        if any(k.startswith("$") for k in self.entries):  # encode() tags such a dict
            payload = dumps("manifest", [self.key, self.entries])
        else:
            stored, changed = self._stored, self._changed
            body = {
                k: stored[k] if k in stored and k not in changed else encode(e)
                for k, e in self.entries.items()
            }
            payload = dumps("manifest", [self.key, body], raw=True)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_private(self.path, payload)  # no fsync: a torn stat index is a miss
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
    path = (directory or cache_dir()) / f"v{FORMAT}" / f"{name}.json"
    manifest = Manifest(path, key, result_store(options_key, tables_key, directory))
    try:
        loaded, plain = _load(path, "manifest", both=True)
        stored_key, entries = shape(loaded, list, "manifest")
        shape(entries, dict, "entries")
        if stored_key == key and all(_is_entry(k, e) for k, e in entries.items()):
            manifest.entries = entries
            manifest._stored = plain[1]
    except (CacheMiss, OSError, ValueError, TypeError):  # a miss, never a failure
        pass
    return manifest


def _is_entry(key: object, entry: object) -> bool:
    """A stat-index line of the right shape (the result summary is the runner's: checked
    where it is used)."""
    return (
        isinstance(key, str)
        and isinstance(entry, Entry)
        and all(isinstance(v, int) for v in (entry.size, entry.mtime_ns, entry.ctime_ns))
        and isinstance(entry.inode, int)
        and isinstance(entry.digest, str)
        and isinstance(entry.context, str)
    )


def index_path(root: Path, directory: Path | None = None) -> Path:
    """The project index (names the project defines) is shared by every option set."""
    name = hashlib.blake2b(os.fsencode(os.path.realpath(root)), digest_size=16).hexdigest()
    return (directory or cache_dir()) / f"v{FORMAT}" / f"index-{name}.json"


# The project index is one file of two parts (cache_format.dumps_parts): first the names
# the project defines, as one text (sorted, space-separated: C identifiers hold no space),
# and each file's names digest (names_digest); then each file's stat and names. A run
# whose files define what the index says (the hook on a file whose edit left its names
# alone) reads and checks the first part only: for a 5,000-file tree (53,000 names) a
# fraction of the time decoding the whole index took.
INDEX_KIND = "index"
INDEX_PARTS = 2


@dataclass(frozen=True)
class IndexHead:
    """The project index's first part: the names every file of it defines, joined by
    spaces, and relpath -> the digest of the names that file defines."""

    names: str
    files: dict[str, str]


def names_digest(names: frozenset[str]) -> str:
    """A file's defined names, as the index's first part keeps them."""
    return hashlib.blake2b(
        "\n".join(sorted(names)).encode("utf-8", "surrogateescape"), digest_size=16
    ).hexdigest()


def load_index_head(root: Path) -> IndexHead | None:
    """The index's first part; None on a miss (missing, corrupt, another shape)."""
    try:
        data = loads_part(INDEX_KIND, read_regular(index_path(root)), 0, INDEX_PARTS)
        names, files = shape(data, list, "index head")
        shape(names, str, "index names")
        shape(files, dict, "index files")
    except (CacheMiss, OSError, ValueError, TypeError):
        return None
    if not all(type(v) is str for v in files.values()):
        return None
    return IndexHead(names, files)


def load_index(root: Path) -> dict[str, tuple[int, int, frozenset[str]]]:
    """The whole index: relpath -> (size, mtime_ns, the names it defines); {} on a miss."""
    import gc

    enabled = gc.isenabled()
    gc.disable()  # plain data, no cycles: a large index would trigger collections
    try:
        data = loads_part(INDEX_KIND, read_regular(index_path(root)), 1, INDEX_PARTS)
        shape(data, dict, "index")
        out = {}
        for key, value in data.items():
            size, mtime, names = value
            if not (type(size) is int and type(mtime) is int and isinstance(names, list)):
                return {}
            if not all(type(n) is str for n in names):
                return {}
            out[key] = (size, mtime, frozenset(names))
        return out
    except (CacheMiss, OSError, ValueError, TypeError):  # missing or corrupt: rebuild
        return {}
    finally:
        if enabled:
            gc.enable()


def save_index(root: Path, data: dict[str, tuple[int, int, frozenset[str]]]) -> None:
    names: set[str] = set()
    for _, _, defined in data.values():
        names |= defined
    text: str | None = " ".join(sorted(names))
    if len(text.split()) != len(names):
        text = None  # not identifiers: the head is a miss, the whole index is read
    digests = {key: names_digest(defined) for key, (_, _, defined) in data.items()}
    rows = {key: [size, mtime, sorted(defined)] for key, (size, mtime, defined) in data.items()}
    path = index_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = dumps_parts(INDEX_KIND, [[text, digests], rows])
    write_private(path, payload)  # no fsync: a torn index is a miss


def scans_path(root: Path, directory: Path | None = None) -> Path:
    """The files' remembered directive scans (hipport.runner.project_macros.scan_files),
    shared by every option set of a project root, as the project index is."""
    name = hashlib.blake2b(os.fsencode(os.path.realpath(root)), digest_size=16).hexdigest()
    return (directory or cache_dir()) / f"v{FORMAT}" / f"scans-{name}.json"


def load_scans(root: Path) -> dict[str, list]:
    """Absolute path -> [size, mtime_ns, ctime_ns, inode, unscanned, directives, digest]
    (plain JSON; the runner checks each entry's shape when it uses it); {} on a miss."""
    try:
        data = read_regular(scans_path(root))
        found = loads("scans", data, raw=True)
    except (CacheMiss, OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def save_scans(root: Path, data: dict[str, list]) -> None:
    """Write the scans back, keeping only the files that still exist (a scan of a file
    gone from the project would otherwise stay forever)."""
    kept = {path: entry for path, entry in data.items() if os.path.lexists(path)}
    path = scans_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_private(path, dumps("scans", kept, raw=True))
