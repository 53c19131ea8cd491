"""File I/O that never loses data: bounded reads, atomic writes that keep modes."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

DEFAULT_MAX_FILE_SIZE = 16 * 1024 * 1024  # larger files are skipped with a message


class SkipFile(Exception):
    """The file is not something hipport should touch (binary, special, too large)."""


def read_source(path: Path, max_size: int = DEFAULT_MAX_FILE_SIZE) -> bytes:
    """Read a regular file's bytes; raise SkipFile for what is not a text source, OSError for
    what cannot be read.

    The file is opened non-blocking and checked *after* opening (fstat), so a path swapped
    for a FIFO between discovery and reading can never hang the run, and at most
    `max_size + 1` bytes are ever held in memory."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise SkipFile("not a regular file")
        if st.st_size > max_size:
            raise SkipFile(f"larger than {max_size // (1024 * 1024)} MiB ({st.st_size} bytes)")
        data = fh.read(max_size + 1)
    if len(data) > max_size:
        raise SkipFile(f"larger than {max_size // (1024 * 1024)} MiB (grew while read)")
    if b"\0" in data:
        raise SkipFile("binary file (contains NUL bytes)")
    return data


TEMP_SUFFIX = ".hipport-tmp"


def temp_prefix(name: str) -> str:
    """`.NAME.PID.`: the writer's pid in the name lets a later run tell a temporary file left
    by a killed run (its process is gone) from one a live run is about to rename."""
    return f".{name}.{os.getpid()}."


def is_stale_temp(path: Path) -> bool:
    """True for a hipport temporary file whose writer is dead (or, for a name without a pid,
    one older than a minute): left behind by a run killed between write and rename."""
    name = path.name
    if not (name.startswith(".") and name.endswith(TEMP_SUFFIX)):
        return False
    parts = name[: -len(TEMP_SUFFIX)].split(".")  # "", NAME..., PID, random part
    if len(parts) >= 4 and parts[-2].isdigit():
        return not _alive(int(parts[-2]))
    try:
        import time

        return time.time() - os.lstat(path).st_mtime > 60
    except OSError:
        return False


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: somebody else's live process
        return True
    return True


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write `data` to `path` so that readers see either the old file or the new one, never a
    part: a temporary file in the same directory, fsync, then rename over. Keeps the old
    file's permission bits (or uses `mode`)."""
    path = Path(path)
    if mode is None:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path.name), suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


_UMASK: int | None = None


def _umask() -> int:
    global _UMASK
    if _UMASK is None:
        _UMASK = os.umask(0)
        os.umask(_UMASK)
    return _UMASK
