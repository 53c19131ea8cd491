"""File I/O that never loses data: bounded reads, and the one place that writes.

Every file hipport writes (translated outputs, files rewritten in place and their backups,
copies into an output tree, cache entries, the baseline, `init`'s configuration, report
and statistics files) is written by `atomic_write`, `copy_atomic` or `move_atomic` here:
a temporary file created next to the target with O_CREAT|O_EXCL|O_NOFOLLOW (never through
an existing name or a symlink), written whole, fsynced, renamed over the target, and the
directory fsynced. Readers see the old file or the new one, never a part. `os.replace` is
called in this module only (tests/test_fsio.py checks it), and `is_stale_temp` knows every
temporary name the program makes, so one cleanup removes what a killed run left.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

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
    return given_source(data, max_size)


def given_source(data: bytes, max_size: int = DEFAULT_MAX_FILE_SIZE) -> bytes:
    """Source bytes given, not read (standard input), with read_source's checks; the last
    of them for a file read_source has read."""
    if len(data) > max_size:
        raise SkipFile(f"larger than {max_size // (1024 * 1024)} MiB ({len(data)} bytes)")
    if b"\0" in data:
        raise SkipFile("binary file (contains NUL bytes)")
    return data


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file, checked after opening it non-blocking: a path swapped
    for a FIFO (or a device) raises OSError at once instead of blocking the run. For every
    read of a path besides sources (read_source): cache revalidation, outputs compared
    before a write, compile_commands.json."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        return fh.read()


TEMP_SUFFIX = ".hipport-tmp"
# Temporary names older hipport versions made; the cleanup still recognises them.
_LEGACY_COPY_SUFFIX = ".hipport-copy"  # .NAME.hipport-copy (copies into an output tree)
_LEGACY_BASELINE_TMP = ".hipport-baseline.json.tmp"  # .hipport-baseline.json.tmpPID
_LEGACY_AGE_S = 60  # a name without a live writer's pid: garbage when older than this


def temp_prefix(name: str) -> str:
    """`.NAME.PID.`: the writer's pid in the name lets a later run tell a temporary file left
    by a killed run (its process is gone) from one a live run is about to rename."""
    return f".{name}.{os.getpid()}."


_TEMP_NAME_ROOM = 128  # bytes of NAME kept in a temp name: the whole stays under NAME_MAX


def _temp_name(name: str) -> str:
    """`.NAME.PID.RANDOM.hipport-tmp`, NAME cut short (a name near NAME_MAX, 255 bytes,
    would otherwise make a temp name the file system refuses)."""
    raw = os.fsencode(name)
    if len(raw) > _TEMP_NAME_ROOM:
        name = os.fsdecode(raw[:_TEMP_NAME_ROOM].replace(b".", b"_"))
    return f"{temp_prefix(name)}{os.urandom(4).hex()}{TEMP_SUFFIX}"


def is_stale_temp(path: Path) -> bool:
    """True for a temporary file of hipport's whose writer is dead, left behind by a run
    killed between writing and renaming. Every pattern the program makes, or made:
    `.NAME.PID.RANDOM.hipport-tmp` (by pid); `.NAME.hipport-copy` and
    `.hipport-baseline.json.tmpPID` of older versions (by pid, else by age)."""
    name = path.name
    if not name.startswith("."):
        return False
    if name.endswith(TEMP_SUFFIX):
        parts = name[: -len(TEMP_SUFFIX)].split(".")  # "", NAME..., PID, random part
        if len(parts) >= 4 and parts[-2].isdigit():
            return not _alive(int(parts[-2]))
        return _older_than(path, _LEGACY_AGE_S)
    if name.startswith(_LEGACY_BASELINE_TMP) and name[len(_LEGACY_BASELINE_TMP) :].isdigit():
        return not _alive(int(name[len(_LEGACY_BASELINE_TMP) :]))
    if name.endswith(_LEGACY_COPY_SUFFIX) and len(name) > len(_LEGACY_COPY_SUFFIX) + 1:
        return _older_than(path, _LEGACY_AGE_S)
    return False


def _older_than(path: Path, seconds: float) -> bool:
    try:
        return time.time() - os.lstat(path).st_mtime > seconds
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


_CREATE_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _create_temp(directory: Path, name: str) -> tuple[int, str]:
    """A new, empty temporary file for `name` in `directory`: (fd, path). O_EXCL makes the
    kernel refuse a name that exists (a file, or a symlink planted there), so the write can
    never go through it; a taken name is retried with another random part."""
    for _ in range(100):
        tmp = os.path.join(directory, _temp_name(name))
        try:
            return os.open(tmp, _CREATE_FLAGS, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot create a temporary file for {name} in {directory}")


def _target_mode(path: Path, mode: int | None) -> int:
    """`mode`, else the existing file's permission bits, else what a new file would get."""
    if mode is not None:
        return mode
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


SETID_BITS = stat.S_ISUID | stat.S_ISGID


class WouldOverwriteInput(OSError):
    """An output (a report, statistics, a baseline, an output tree) would replace a file
    the run reads as an input: refused, whatever the path says (compared by device and
    inode, so a bind mount, a hard link or a symlink of the input is seen too)."""


class ChangedDuringRun(OSError):
    """The file is no longer what the run read (edited, replaced): left as it is."""


_INPUT_PATHS: list[Path] = []  # the input files of this process's (latest) run
# their (st_dev, st_ino), and their directories', made when first needed
_INPUTS: tuple[set[tuple[int, int]], set[tuple[int, int]]] | None = None


def note_inputs(paths: Iterable[Path]) -> None:
    """Remember the run's input files, so that no later write replaces one by accident
    (atomic_write refuses unless told the write is the in-place rewrite of that input).
    The files are looked at only when a write would replace an existing file."""
    global _INPUTS
    _INPUT_PATHS[:] = paths
    _INPUTS = None


def _inputs() -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    global _INPUTS
    if _INPUTS is None:
        files: set[tuple[int, int]] = set()
        dirs: set[tuple[int, int]] = set()
        parents: set[str] = set()
        for p in _INPUT_PATHS:
            with contextlib.suppress(OSError):
                i = os.stat(p)
                files.add((i.st_dev, i.st_ino))
            parent = os.path.dirname(os.path.abspath(p))
            if parent not in parents:
                parents.add(parent)
                with contextlib.suppress(OSError):
                    i = os.stat(parent)
                    dirs.add((i.st_dev, i.st_ino))
        _INPUTS = (files, dirs)
    return _INPUTS


def _is_input(st: os.stat_result) -> bool:
    return bool(_INPUT_PATHS) and (st.st_dev, st.st_ino) in _inputs()[0]


def is_input_directory(directory: Path) -> bool:
    """`directory` holds input files of the run (by device and inode: whatever name, bind
    mount or link it is reached by)."""
    if not _INPUT_PATHS:
        return False
    try:
        st = os.stat(directory)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) in _inputs()[1]


def refuse_input(path: Path) -> None:
    """Raise WouldOverwriteInput when `path` is one of the run's input files, whatever name
    it is reached by (compared by device and inode)."""
    try:
        st = os.stat(path)
    except OSError:
        return
    if _is_input(st):
        raise WouldOverwriteInput(
            errno.EEXIST, "refusing to overwrite an input of this run", os.fspath(path)
        )


def atomic_write(
    path: Path,
    data: bytes | Iterable[bytes],
    mode: int | None = None,
    durable: bool = True,
    *,
    over_input: bool = False,
    expect: Callable[[], None] | None = None,
    exclusive: bool = False,
) -> None:
    """Write `data` to `path` so that readers see either the old file or the new one, never a
    part: a temporary file in the same directory, fsync, rename over, fsync the directory.
    Keeps the old file's permission bits (or uses `mode`), its extended attributes and ACLs
    and, as far as the OS allows, its owner and group; a setuid/setgid bit is kept only on a
    file whose owner was kept, so a rewrite never hands one to another user. `durable=False`
    skips both fsyncs: for the cache, where a file torn by a power loss is only a miss.

    A path that is an input of the run is refused unless `over_input` (the in-place
    rewrite of that input). `expect` runs immediately before the rename and raises to
    call the write off (the in-place writes check there that the source is still what the
    run read). `exclusive`: never replace an existing `path` (FileExistsError). `data`
    may come in pieces (a large report, written as it is made)."""
    path = Path(path)
    try:
        old: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        old = None
    if old is not None and not over_input:
        refuse_input(path)
    if old is not None and (stat.S_ISCHR(old.st_mode) or stat.S_ISFIFO(old.st_mode)):
        _write_to_device(path, data)  # `-o /dev/null`, `-o /dev/stdout`: never replaced
        return
    mode = _target_mode(path, mode)
    fd, tmp = _create_temp(path.parent, path.name)
    try:
        with os.fdopen(fd, "wb") as fh:
            for piece in _pieces(data):
                fh.write(piece)
            fh.flush()
            if not _keep_owner(fh.fileno(), old):
                mode &= ~SETID_BITS
            os.fchmod(fh.fileno(), mode)
            if old is not None:
                _copy_xattrs(path, fh.fileno())
            if durable:
                os.fsync(fh.fileno())
        if expect is not None:
            expect()
        if exclusive:
            os.link(tmp, path, follow_symlinks=False)  # fails when the name exists
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if type(exc) is OSError and exc.filename is None:  # say which file (disk full)
            raise OSError(exc.errno, exc.strerror or str(exc), os.fspath(path)) from exc
        raise
    if durable:
        _fsync_dir(path.parent)


def _pieces(data: bytes | Iterable[bytes]) -> Iterable[bytes]:
    return (data,) if isinstance(data, (bytes, bytearray, memoryview)) else data


def _write_to_device(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write to a character device or FIFO as it is (opened non-blocking: a FIFO with no
    reader is an error, not a hang); replacing it by rename would put a file where the
    device was (as root, `-o /dev/null` would have replaced /dev/null)."""
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        os.set_blocking(fd, True)
        for piece in _pieces(data):
            view = memoryview(piece)
            while view:
                view = view[os.write(fd, view) :]
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, os.fspath(path)) from exc
    finally:
        os.close(fd)


def _copy_xattrs(path: Path, fd: int) -> None:
    """Give the new file the old one's extended attributes; ACLs are two of them
    (system.posix_acl_access, system.posix_acl_default), set after the mode, which they
    carry too. An attribute the OS will not set for us (security.*, as a user) is left."""
    try:
        names = os.listxattr(path)
    except OSError:  # no xattr support on this file system
        return
    for name in names:
        with contextlib.suppress(OSError):
            os.setxattr(fd, name, os.getxattr(path, name))


def file_identity(path: Path) -> tuple[int, int, int, int]:
    """(device, inode, size, mtime in ns) of what `path` names now (not following a link)."""
    st = os.lstat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def read_with_identity(path: Path) -> tuple[bytes, tuple[int, int, int, int]]:
    """A regular file's bytes and its identity (file_identity) as of that read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        data = fh.read()
    return data, (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def unchanged_since(path: Path, data: bytes, identity: tuple[int, int, int, int], rel: str) -> None:
    """Raise ChangedDuringRun unless `path` is still the file read as `data` with
    `identity`: the same inode, size and mtime, and the same bytes (an edit within the
    clock's resolution keeps size and mtime)."""
    try:
        now = file_identity(path)
        same = now == identity and read_regular(path) == data
    except OSError:
        same = False
    if not same:
        raise ChangedDuringRun(errno.EAGAIN, f"{rel} changed on disk during the run; left as it is")


def _keep_owner(fd: int, old: os.stat_result | None) -> bool:
    """Give the new file the old one's owner and group; True when it has them (the old file
    was ours already, or we may chown: root), False otherwise (or with no old file)."""
    if old is None:
        return False
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) == (old.st_uid, old.st_gid):
        return True
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except OSError:
        with contextlib.suppress(OSError):  # the group alone may still be ours to give
            os.fchown(fd, -1, old.st_gid)
        return False
    return True


def copy_atomic(source: Path, target: Path) -> None:
    """Copy `source` to `target` (content, permission bits without setuid/setgid, times),
    atomically: streamed into a temporary file, then renamed over, so a failed copy (disk
    full, file too large) leaves no partial file. The source is opened non-blocking and
    must be a regular file (a FIFO swapped in cannot hang the run)."""
    target = Path(target)
    tmp = _copy_to_temp(source, target, durable=True)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def _copy_to_temp(source: Path, target: Path, durable: bool) -> str:
    """`source` copied into a new temporary file for `target` (its permission bits without
    setuid/setgid, its times; fsynced when `durable`): the temporary file's path."""
    import shutil

    fd_in = os.open(source, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd_in, "rb") as src:
        st = os.fstat(src.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{source}: not a regular file")
        refuse_input(target)
        fd, tmp = _create_temp(target.parent, target.name)
        try:
            with os.fdopen(fd, "wb") as out:
                shutil.copyfileobj(src, out, 1024 * 1024)
                out.flush()
                os.fchmod(out.fileno(), stat.S_IMODE(st.st_mode) & ~SETID_BITS)
                if durable:
                    os.fsync(out.fileno())
            os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    return tmp


class DirectoryBatch:
    """New files of one directory written together with one sync for the batch, not two
    per file: each file's bytes go to a temporary file next to its target (no fsync);
    `commit` makes them all durable at once (syncfs on Linux, else an fsync per file),
    renames each over its target, and fsyncs the directory once. A crash before the sync
    leaves the targets as they were (the temporary files are stale temps a writing run
    removes); after it, every renamed target holds its whole new content: each file is
    old or new, never a part, as with atomic_write. For the output tree of `-o`, whose
    files are new or hipport's own earlier outputs (never an input: refused as by
    atomic_write)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.pending: list[tuple[str, Path, Any]] = []  # (temp, target, the caller's tag)

    def write(self, path: Path, data: bytes, mode: int | None, tag: Any = None) -> None:
        """`data` into a temporary file for `path` (renamed over it by `commit`)."""
        path = Path(path)
        if os.path.lexists(path):
            refuse_input(path)
        mode = _target_mode(path, mode) & ~SETID_BITS
        fd, tmp = _create_temp(path.parent, path.name)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                os.fchmod(fh.fileno(), mode)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self.pending.append((tmp, path, tag))

    def copy(self, source: Path, target: Path, tag: Any = None) -> None:
        """`source` (a regular file, opened non-blocking) copied into a temporary file for
        `target`, with its permission bits (no setuid/setgid) and times."""
        target = Path(target)
        self.pending.append((_copy_to_temp(source, target, durable=False), target, tag))

    def commit(self) -> list[tuple[Any, OSError]]:
        """Sync the batch's data once, rename each file over its target, sync the
        directory once. Returns (tag, error) for the files that could not be renamed (the
        others are written); a failed sync fails them all, their targets untouched."""
        pending = self.pending
        if not pending:
            return []
        try:
            _sync_data([tmp for tmp, _, _ in pending], self.directory)
        except OSError as exc:
            tags = [tag for _, _, tag in pending]
            self.abort()
            return [(tag, exc) for tag in tags]
        failed: list[tuple[Any, OSError]] = []
        while pending:  # what is still pending when this is interrupted, abort removes
            tmp, target, tag = pending[0]
            try:
                os.replace(tmp, target)
            except OSError as exc:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                failed.append((tag, exc))
            del pending[0]
        _fsync_dir(self.directory)
        return failed

    def abort(self) -> None:
        """Remove the temporary files not committed (their targets stay as they were)."""
        pending, self.pending = self.pending, []
        for tmp, _, _ in pending:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _sync_data(paths: list[str], directory: Path) -> None:
    """Make the data of `paths` durable: one syncfs(2) of the file system holding them on
    Linux (one flush for the batch), else an fsync of each."""
    syncfs = _syncfs()
    if syncfs is not None:
        fd = os.open(directory, os.O_RDONLY)
        try:
            if syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


_SYNCFS: list[Any] = []


def _syncfs() -> Any:
    """libc's syncfs, or None where there is none (not Linux)."""
    if not _SYNCFS:
        found = None
        if os.uname().sysname == "Linux":
            try:
                import ctypes
                import ctypes.util

                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
                found = libc.syncfs
                found.argtypes = [ctypes.c_int]
                found.restype = ctypes.c_int
            except (OSError, AttributeError):
                found = None
        _SYNCFS.append(found)
    return _SYNCFS[0]


def backup_names(path: Path) -> Iterator[Path]:
    """FILE.orig, FILE.orig.1, FILE.orig.2, ...: where a backup of FILE may go."""
    yield path.with_name(path.name + ".orig")
    n = 1
    while True:
        yield path.with_name(f"{path.name}.orig.{n}")
        n += 1


def keep_backup(path: Path) -> Path:
    """Keep the file now at `path` under the first free backup name (FILE.orig, then
    FILE.orig.1, ...), never replacing an existing backup: a hard link to the file itself
    (atomic; the link fails when the name exists, whatever it is, a symlink included), or
    where links are not supported, an exclusive new file with its bytes. Returns the
    backup's path."""
    for name in backup_names(path):
        try:
            os.link(path, name, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            if not _copy_exclusive(path, name):
                continue
        _fsync_dir(path.parent)
        return name
    raise AssertionError("unreachable: backup_names never ends")


def _copy_exclusive(source: Path, name: Path) -> bool:
    """Copy `source` to a new file `name` (O_EXCL|O_NOFOLLOW); False when the name exists."""
    import shutil

    st = os.stat(source)
    try:
        fd = os.open(name, _CREATE_FLAGS, stat.S_IMODE(st.st_mode) & ~SETID_BITS)
    except FileExistsError:
        return False
    try:
        with os.fdopen(fd, "wb") as dst, open(source, "rb") as src:
            shutil.copyfileobj(src, dst, 1024 * 1024)
            dst.flush()
            os.fsync(dst.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return True


def move_atomic(source: Path, target: Path) -> None:
    """Rename `source` to `target` (replacing it), then fsync the directories involved."""
    os.replace(source, target)
    _fsync_dir(Path(target).parent)
    if Path(source).parent != Path(target).parent:
        _fsync_dir(Path(source).parent)


def probe_writable(directory: Path) -> None:
    """Raise OSError unless a file can be created in `directory` (the probe is a temporary
    file of the usual pattern, removed at once)."""
    fd, tmp = _create_temp(directory, "probe")
    os.close(fd)
    os.unlink(tmp)


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
