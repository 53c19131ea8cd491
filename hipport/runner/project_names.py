"""The names a project defines, and the findings they and per-path ignores drop.

An unknown-identifier finding (HIP004) for a name the project defines in another file is
no finding; the cached project index lets a run on one file (pre-commit) know them too."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from hipport.config import Config
from hipport.engine import TranslationResult
from hipport.runner.outcome import UNKNOWN_CODE, FileOutcome
from hipport.runner.per_path import ignored_entries, is_rule_code
from hipport.tables import Status


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


def apply_project_filters(files: list[FileOutcome], names: frozenset[str], config: Config) -> None:
    """Unknown-identifier findings for names the project defines elsewhere are dropped, as
    are findings of codes a per-path-ignore entry turns off for that path."""
    for f in files:
        if f.result is None and f.info is None:
            continue
        codes = frozenset(
            e.upper() for e in ignored_entries(f.path, f.relpath, config) if is_rule_code(e)
        )
        if f.result is None:
            assert f.info is not None
            f.codes = Counter()
            for code, api, n in f.info.codes:
                if not (code == UNKNOWN_CODE and api in names) and code not in codes:
                    f.codes[code] += n
            if f.loader is not None:
                f.loader = _filtering(f.loader, names, codes)
            continue
        f.result = _filtered(f.result, names, codes)


def _filtered(
    result: TranslationResult, names: frozenset[str], codes: frozenset[str]
) -> TranslationResult:
    kept = [
        x
        for x in result.findings
        if not (x.code == UNKNOWN_CODE and x.api in names) and x.code not in codes
    ]
    if len(kept) == len(result.findings):
        return result
    return replace(
        result,
        findings=kept,
        uses=[u for u in result.uses if not (u.status is Status.UNKNOWN and u.api in names)],
    )


def _filtering(
    loader: Callable[[], TranslationResult | None], names: frozenset[str], codes: frozenset[str]
) -> Callable[[], TranslationResult | None]:
    def load() -> TranslationResult | None:
        result = loader()
        return _filtered(result, names, codes) if result is not None else None

    return load
