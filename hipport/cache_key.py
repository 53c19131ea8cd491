"""The per-user secret that keys every cache file's checksum.

A plain checksum only says a file is whole: anyone who can write to the cache directory
(a shared CI cache, a directory restored from elsewhere, another account on a machine
with a shared temp directory) could plant a well-formed entry saying a failing file has
no findings, and turn a failing gate into a pass. Keyed with a secret only this account
can read, an entry made without it is a miss.

The secret is 32 random bytes in `$XDG_CONFIG_HOME/hipport/cache.key` (or
`~/.config/hipport/cache.key`): outside the cache directory, so restoring or sharing a
cache never carries it. It is created 0600 in a 0700 directory, exclusively (two runs at
once agree on one secret); a file that is not a regular file of this account readable by
it alone is not trusted: it is replaced, with a note, and what it signed becomes a miss.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path

KEY_BYTES = 32
_KEY: bytes | None = None


def key_path() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME", "").strip()
    if config and os.path.isabs(config):
        return Path(config) / "hipport" / "cache.key"
    from hipport.account import home

    return home() / ".config" / "hipport" / "cache.key"


def cache_key() -> bytes:
    """This account's secret (made on first use); a process-private random one when the
    file cannot be made or trusted (the cache then only serves this run)."""
    global _KEY
    if _KEY is None:
        path = key_path()
        try:
            _KEY = _read_trusted(path) or _create(path)
        except OSError as exc:
            _note(
                f"cannot keep the cache secret in {path} ({exc.strerror or exc}): the cache "
                "serves this run only"
            )
            _KEY = os.urandom(KEY_BYTES)
    return _KEY


def _read_trusted(path: Path) -> bytes | None:
    """The secret in `path`, or None when it is absent or not to be trusted (then removed,
    so that _create makes a new one)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError:  # a symlink (ELOOP) or something else odd: replace it
        _replace(path, "it is not a regular file")
        return None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        data = fh.read(KEY_BYTES + 1)
    problem = None
    if not stat.S_ISREG(st.st_mode):
        problem = "it is not a regular file"
    elif st.st_uid != os.getuid():
        problem = "another account owns it"
    elif stat.S_IMODE(st.st_mode) & 0o077:
        problem = "other accounts may read or write it"
    elif len(data) != KEY_BYTES:
        problem = "it is not a secret hipport made"
    if problem is None:
        return data
    _replace(path, problem)
    return None


def _replace(path: Path, problem: str) -> None:
    _note(
        f"{path} is not trusted ({problem}): a new cache secret replaces it, and the "
        "cache starts afresh"
    )
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _create(path: Path) -> bytes:
    """A new secret, written whole and linked to `path` exclusively: of two runs creating
    it at once, one wins and the other reads the winner's."""
    from hipport.fsio import atomic_write

    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = os.urandom(KEY_BYTES)
    try:
        atomic_write(path, key, mode=0o600, exclusive=True)
    except FileExistsError:
        theirs = _read_trusted(path)
        if theirs is None:
            raise OSError("a cache secret appeared and is not trusted") from None
        return theirs
    return key


def _note(message: str) -> None:
    print(f"hipport: note: {message}", file=sys.stderr)
