"""What the project defines and ships: the names its files define and the files it has,
from this run's files plus the cached project index, so a run on one file (pre-commit)
knows them too. hipport.policy drops the findings they make moot: unknown identifiers
(HIP004) the project defines, CUDA headers (HIP012) the project ships a file of."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hipport.config import Config
from hipport.runner.outcome import UNMAPPED_INCLUDE_CODE, FileOutcome

if TYPE_CHECKING:
    from hipport.cache import IndexHead


@dataclass(frozen=True)
class ProjectIndex:
    # names the project defines anywhere (a JoinedNames when read from the index's head:
    # only `name in names` is asked of it)
    names: frozenset[str] | JoinedNames
    files: frozenset[str]  # the project's files, relative to its root (posix)


def project_index(
    config: Config,
    outcomes: dict[str, FileOutcome],
    use_cache: bool,
    save: bool = True,
    follow_includes: bool = False,
) -> ProjectIndex:
    """Names the project defines and files it has anywhere: this run's files, plus the
    cached index of the rest of the project (so a run on one file, as in pre-commit, sees
    them too). `save=False` (a source given by content): this run's names replace the
    file's in memory only, and count even when no such file exists. `follow_includes` (a
    run on named files): the project headers the run's files include, directly or not,
    that the index does not know yet are read for their names too (a fresh clone has no
    cache: the hook judged a macro its header defines as unknown CUDA)."""
    from hipport import cache as cache_mod

    root_abs = os.path.abspath(config.root)
    if use_cache:
        quick = _from_head(
            cache_mod.load_index_head(config.root), outcomes, root_abs, follow_includes
        )
        if quick is not None:
            return quick
    index = cache_mod.load_index(config.root) if use_cache else {}
    changed = False
    if follow_includes:
        found = included_headers(outcomes, root_abs, set(index))
        changed = bool(found)
        index.update(found)
    for outcome in outcomes.values():
        if outcome.handle is None:
            continue
        defined = outcome.handle.defined_names()
        key = _index_key(outcome.path, config.root, root_abs)
        known = index.get(key)
        if known is not None and known[2] == defined:
            continue  # the stat in the index is informative only: same names, no rewrite
        st = _stat(outcome.path)
        if st is None and save:
            continue
        entry = (st.st_size, st.st_mtime_ns, defined) if st is not None else (0, 0, defined)
        if index.get(key) != entry:
            index[key] = entry
            changed = True
    if use_cache and save and changed:
        try:
            cache_mod.save_index(config.root, index)
        except OSError:
            pass
    names: set[str] = set()
    for _, _, defined in index.values():
        names |= defined
    files = set(index)
    files.update(_index_key(o.path, config.root, root_abs) for o in outcomes.values())
    return ProjectIndex(frozenset(names), frozenset(files))


def _from_head(
    head: IndexHead | None, outcomes: dict[str, FileOutcome], root_abs: str, follow_includes: bool
) -> ProjectIndex | None:
    """The index from its first part alone (hipport.cache.IndexHead: the names the files
    define, as one text, and each file's names digest), when this run changes nothing in
    it: every file of the run with a result defines what the index says it does, and a
    named-files run includes no project header the index lacks. None otherwise: the
    caller reads the whole index, as when the names changed."""
    from hipport.cache import names_digest

    if head is None:
        return None
    root = Path(root_abs)
    keys = []
    for outcome in outcomes.values():
        key = _index_key(outcome.path, root, root_abs)
        keys.append(key)
        if outcome.handle is None:
            continue
        known = head.files.get(key)
        if known is None or known != names_digest(outcome.handle.defined_names()):
            return None
    if follow_includes and included_headers(outcomes, root_abs, set(head.files)):
        return None
    files = set(head.files)
    files.update(keys)
    return ProjectIndex(JoinedNames(head.names), frozenset(files))


class JoinedNames:
    """The project's names as the index's first part keeps them (one sorted text, joined
    by spaces), for `name in names`: the first few questions search the text (the hook's
    one file asks about a few unknown names, if any), later ones a set built once (for
    53,000 names splitting costs more than a few dozen searches)."""

    __slots__ = ("_text", "_set", "_asked")
    SEARCHES = 32

    def __init__(self, text: str) -> None:
        self._text = " " + text + " "
        self._set: frozenset[str] | None = None
        self._asked = 0

    def __contains__(self, name: object) -> bool:
        if self._set is None:
            if self._asked < self.SEARCHES:
                self._asked += 1
                if not isinstance(name, str) or not name or name != "".join(name.split()):
                    return False  # no identifier: never a name the index holds
                return f" {name} " in self._text
            self._set = frozenset(self._text.split())
        return name in self._set

    def __iter__(self):
        return iter(self._text.split())

    def __len__(self) -> int:
        return len(self._text.split())


def project_names(
    config: Config, outcomes: dict[str, FileOutcome], use_cache: bool
) -> frozenset[str]:
    """Names the project defines anywhere (see project_index)."""
    return project_index(config, outcomes, use_cache).names


def shipped_headers(
    root: Path, outcomes: Iterable[FileOutcome], files: frozenset[str]
) -> frozenset[str]:
    """The CUDA header names of this run's unmapped-include findings (HIP012) that the
    project ships a file of: a project file of that name in any directory
    (`cuda_awbarrier.h`), or at that relative path (`cuda/barrier` as `.../cuda/barrier`);
    a file the walk does not list (no source suffix, as `cuda/barrier`) counts when it is
    there under the project root or a directory of a project file."""
    wanted = {header for outcome in outcomes for header in _unmapped_headers(outcome)}
    unlisted = sorted(h for h in wanted if not _listed(h, files))
    if not unlisted:
        return frozenset(wanted)
    root = Path(os.path.abspath(root))
    dirs = [root, *sorted({(root / f).parent for f in files} - {root})]
    return frozenset(h for h in wanted if h not in unlisted or _on_disk(h, dirs))


def _unmapped_headers(outcome: FileOutcome) -> set[str]:
    if outcome.handle is None:
        return set()
    found = outcome.handle.keyed_codes()
    return {api for code, api in found if code == UNMAPPED_INCLUDE_CODE and api}


def _listed(header: str, files: frozenset[str]) -> bool:
    tail = "/" + header
    return header in files or any(f.endswith(tail) for f in files)


def _on_disk(header: str, directories: list[Path]) -> bool:
    if os.path.isabs(header):
        return False  # an absolute include names no file of the project
    return any(os.path.isfile(d / header) for d in directories)


# How far a named-files run follows includes: headers read at most (a cold hook on one file
# of a large tree reads what that file pulls in, not the tree).
MAX_FOLLOWED = 256
MAX_FOLLOWED_SIZE = 16 << 20  # bytes: a generated giant header is left to the full run
_QUOTED_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)


def included_headers(
    outcomes: dict[str, FileOutcome], root_abs: str, known: set[str]
) -> dict[str, tuple[int, int, frozenset[str]]]:
    """Index entries (size, mtime, names) of the project headers under `root_abs` that the
    outcomes' files include with quotes, transitively (resolved against the including
    file's directory, as the preprocessor does first), that `known` and the run lack."""
    from hipport.engine import defined_names
    from hipport.fsio import read_regular

    prefix = root_abs.rstrip(os.sep) + os.sep
    seen = set(known) | {_index_key(o.path, Path(root_abs), root_abs) for o in outcomes.values()}
    todo = [
        (str(o.path), o.handle.source_if_in_memory() if o.handle is not None else None)
        for o in outcomes.values()
        if o.kind != "other"
    ]
    out: dict[str, tuple[int, int, frozenset[str]]] = {}
    while todo and len(out) < MAX_FOLLOWED:
        path, data = todo.pop()
        if data is None:
            try:
                data = read_regular(Path(path))
            except (OSError, ValueError):
                continue
        here = os.path.dirname(path)
        for m in _QUOTED_INCLUDE.finditer(data):
            target = os.path.normpath(os.path.join(here, os.fsdecode(m.group(1))))
            if not target.startswith(prefix):
                continue
            key = target[len(prefix) :].replace(os.sep, "/")
            if key in seen:
                continue
            seen.add(key)
            st = _stat(Path(target))
            if st is None or not os.path.isfile(target) or st.st_size > MAX_FOLLOWED_SIZE:
                continue
            try:
                header = read_regular(Path(target))
            except (OSError, ValueError):
                continue
            out[key] = (st.st_size, st.st_mtime_ns, defined_names(header, target))
            todo.append((target, header))
    return out


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
