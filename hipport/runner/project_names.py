"""The names a project defines: this run's files plus the cached project index, so a run
on one file (pre-commit) knows them too. hipport.policy drops the unknown-identifier
findings (HIP004) they make moot."""

from __future__ import annotations

import os
from pathlib import Path

from hipport.config import Config
from hipport.runner.outcome import FileOutcome


def project_names(
    config: Config, outcomes: dict[str, FileOutcome], use_cache: bool
) -> frozenset[str]:
    """Names the project defines anywhere: this run's files, plus the cached index of the
    rest of the project (so a run on one file, as in pre-commit, sees them too)."""
    from hipport import cache as cache_mod

    index = cache_mod.load_index(config.root) if use_cache else {}
    changed = False
    root_abs = os.path.abspath(config.root)
    for outcome in outcomes.values():
        if outcome.result is not None:
            defined = outcome.result.defined_names
        elif outcome.info is not None:
            defined = outcome.info.defined_names
        else:
            continue
        key = _index_key(outcome.path, config.root, root_abs)
        known = index.get(key)
        if known is not None and known[2] == defined:
            continue  # the stat in the index is informative only: same names, no rewrite
        st = _stat(outcome.path)
        if st is None:
            continue
        entry = (st.st_size, st.st_mtime_ns, defined)
        if index.get(key) != entry:
            index[key] = entry
            changed = True
    if use_cache and changed:
        try:
            cache_mod.save_index(config.root, index)
        except OSError:
            pass
    names: set[str] = set()
    for _, _, defined in index.values():
        names |= defined
    return frozenset(names)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _index_key(path: Path, root: Path, root_abs: str | None = None) -> str:
    if root_abs is not None:  # the common case, with string operations (once per file)
        absolute = os.path.abspath(path)
        prefix = root_abs.rstrip(os.sep) + os.sep
        if absolute.startswith(prefix):
            return absolute[len(prefix) :].replace(os.sep, "/")
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return os.path.abspath(path)
