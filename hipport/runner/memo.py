"""The per-run summary: what a `check` printed, kept in the cache under everything that
decided it, so a warm run over an unchanged tree answers from it without loading a result.

The key is made of the invocation (hipport's version, the mappings' digest, the options,
the configuration, the report destinations and render settings, the directory the command
runs in, the environment variables that change the output), the baseline (its bytes, and
which of its paths exist), and the run's file set after discovery: each file's path, kind,
size, mtime, ctime and inode (what the stat index trusts, hipport.cache), what discovery
skipped, and the compilation database's stat. The project index the run read (names
defined by files outside it) is compared by its digest. Any difference is a miss: the run
goes the usual way (the per-file cache, then the pool for the changed files) and replaces
the summary.

The summary is written only when it can be trusted: no file changed during the run, none
was modified within the racy window (a same-size rewrite in the same mtime tick would not
show in the stat), no file failed (a time limit may not recur). It is a cache file like
any other (hipport.cache_format: a keyed checksum), so a planted or edited one is a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# the environment variables whose value can change what a check prints or finds
_ENV = ("NO_COLOR", "FORCE_COLOR", "HIPPORT_CHECK_INVARIANTS", "HIPPORT_ISOLATE")


@dataclass
class Replay:
    """What the run printed: each destination's text and warnings, and its exit code."""

    outputs: list[tuple[str, list[str]]]
    code: int


@dataclass
class RunMemo:
    """One invocation's slot in the cache and the key the current tree gives it."""

    path: Path
    key: str
    files: list[tuple[str, tuple[int, int, int, int]]]  # (path, stat) when the key was made
    root: Path
    stats: list[tuple[int, int, int, int] | None] = field(default_factory=list)

    def lookup(self) -> Replay | None:
        """The stored run, if its key is this tree's and the project index is the same."""
        from hipport.cache import _load
        from hipport.cache_format import CacheMiss, shape

        try:
            stored = shape(_load(self.path, "run"), list, "run")
            key, index, code, outputs = stored
            if key != self.key or index != _index_digest(self.root):
                return None
            shape(code, int, "code")
            shape(outputs, list, "outputs")
            replay = []
            for text, warnings in outputs:
                shape(text, str, "text")
                shape(warnings, list, "warnings")
                replay.append((text, [shape(w, str, "warning") for w in warnings]))
        except (CacheMiss, OSError, ValueError, TypeError):
            return None
        return Replay(replay, code)

    def save(self, replay: Replay, trusted: bool) -> None:
        """Keep what the run printed, unless a file changed since the key was made, was
        modified too recently for its stat to tell, or the run could not be trusted (a
        failed file). A cache that cannot be written only costs speed."""
        from hipport.cache import RACY_NS, write_private
        from hipport.cache_format import dumps

        if not trusted:
            self.forget()
            return
        now = time.time_ns()
        for path, stat in self.files:
            if _stat(path) != stat or now - stat[1] <= RACY_NS:
                self.forget()
                return
        payload = [self.key, _index_digest(self.root), replay.code, replay.outputs]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_private(self.path, dumps("run", payload))
        except OSError:
            pass

    def forget(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass


def _stat(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _index_digest(root: Path) -> str | None:
    """The project index's digest (None: there is none): names defined outside the run."""
    from hipport.cache import index_path

    try:
        return hashlib.blake2b(index_path(root).read_bytes(), digest_size=16).hexdigest()
    except OSError:
        return None


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=20).hexdigest()


def run_memo(
    invocation: dict[str, Any],
    found: Any,
    config: Any,
    baseline: Any,
    compile_commands: Path | None,
) -> RunMemo:
    """The slot of this invocation (named by `invocation`, which holds everything but the
    tree) and the key the tree as `found` by discovery gives it."""
    from hipport import __version__
    from hipport.cache import FORMAT, cache_dir
    from hipport.tsv import mappings_digest, mappings_dir

    invocation = {
        **invocation,
        "version": __version__,
        "format": FORMAT,
        "mappings": mappings_digest(mappings_dir()),  # what load_mappings().digest says
        "cwd": os.getcwd(),
        "root": os.path.realpath(config.root),
        "config": [str(config.source), config.values],
        "env": {name: os.environ.get(name) for name in _ENV},
    }
    slot = _digest(invocation)
    files = []
    for f in found.files:
        stat = _stat(str(f.path))
        if stat is not None:
            files.append((str(f.path), stat))
    listed = [(str(f.path), f.relpath, str(f.kind), f.named) for f in found.files]
    skipped = [(str(s.path), s.reason) for s in found.discovery.skipped]
    temps = [str(p) for p in found.discovery.stale_temps]
    tree = {
        "base": str(found.discovery.base),
        "files": listed,
        "stats": files,
        "skipped": skipped,
        "stale_temps": temps,
        "compile_commands": _stat(str(compile_commands)) if compile_commands else None,
        "baseline": _baseline_key(baseline, config.root),
    }
    key = _digest([slot, tree])
    path = cache_dir() / f"v{FORMAT}" / "runs" / f"{slot}.json"
    return RunMemo(path, key, files, Path(config.root))


def _baseline_key(baseline: Any, root: Path) -> Any:
    """The baseline's bytes, and which of its paths exist (an entry of a file that is gone
    is stale whatever the run checked)."""
    if baseline is None:
        return None
    data = b""
    if baseline.path is not None:
        try:
            data = Path(baseline.path).read_bytes()
        except OSError:
            pass
    paths = sorted({path for path, _, _ in baseline.counts})
    return [
        str(baseline.path),
        hashlib.blake2b(data, digest_size=20).hexdigest(),
        sorted(baseline.counts.items()),
        [os.path.lexists(Path(root, p)) for p in paths],
    ]
