"""Writing what a run produced: a mirrored output tree (`-o DIR`) or the files in place.

Each file is written whole with SIGINT/SIGTERM held, so an interrupted run leaves every
file old or new, never half-written, and no temp file: in place and over an existing
output one at a time (hipport.fsio.atomic_write: fsync, rename, directory fsync), new
files of the output tree a directory at a time (hipport.fsio.DirectoryBatch: the batch's
data synced once, each renamed into place, the directory synced once)."""

from __future__ import annotations

import errno
import os
import signal
import stat as statmod
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from hipport.fsio import (
    ChangedDuringRun,
    DirectoryBatch,
    atomic_write,
    copy_atomic,
    is_input_directory,
    keep_backup,
    read_regular,
    read_with_identity,
    unchanged_since,
)
from hipport.runner.outcome import FileOutcome, FileStatus, RunSummary


def write_outputs(
    summary: RunSummary, mode: str, outdir: Path | None = None, backup: bool = False
) -> list[tuple[str, str]]:
    """Write what the run produced. mode: "outdir" mirrors the tree under `outdir` (changed
    files translated, every other file copied as it is); "in-place" replaces changed files
    atomically, keeping their modes. Returns (relpath, error) for files that failed."""
    errors = _refuse_collisions(summary.files)
    mirror = _Mirror(outdir) if mode == "outdir" and outdir is not None else None

    def failed(f: FileOutcome, exc: OSError) -> None:
        # a copy or write that failed left nothing behind (temp file removed); the
        # file is counted as failed, not as copied or written
        errors.append((f.relpath, f"cannot write: {exc.strerror or exc}"))
        f.status, f.error = FileStatus.FAILED, f"cannot write: {exc.strerror or exc}"

    try:
        for f in summary.files:
            if f.status == FileStatus.FAILED and f.error and f.error.startswith(_COLLISION):
                continue
            try:
                with _signals_held():
                    if mode == "outdir":
                        assert mirror is not None
                        for done, exc in _write_mirrored(f, mirror):
                            failed(done, exc)
                    elif mode == "in-place":
                        _write_in_place(f, backup)
            except OSError as exc:
                failed(f, exc)
        if mirror is not None:
            with _signals_held():
                for done, exc in mirror.commit():
                    failed(done, exc)
    finally:
        if mirror is not None:
            mirror.abort()  # interrupted: the files not committed stay absent
    return errors


_COLLISION = "two outputs to one path"


def _refuse_collisions(files: list[FileOutcome]) -> list[tuple[str, str]]:
    """Files whose outputs would land on one path (`k.cu` renamed to `k.hip` beside a
    `k.hip`; names that differ only in case, which a case-insensitive file system makes
    one) are neither written: each is failed, naming the others, before anything is
    written. Outputs that would hold the same bytes are no collision: that is the state a
    run killed between writing `a.hip` and removing `a.cu` leaves, which this run finishes."""
    groups: dict[str, list[FileOutcome]] = {}
    for f in files:
        groups.setdefault((f.out_relpath or f.relpath).casefold(), []).append(f)
    errors: list[tuple[str, str]] = []
    for group in groups.values():
        if len(group) < 2 or all((f.out_relpath or f.relpath) == f.relpath for f in group):
            continue  # distinct names on the input file system stay distinct
        if _same_outputs(group):
            continue
        names = " and ".join(f.relpath for f in group)
        targets = " / ".join(sorted({f.out_relpath or f.relpath for f in group}))
        for f in group:
            message = f"{_COLLISION}: {names} would both become {targets}; neither written"
            f.status, f.error = FileStatus.FAILED, message
            errors.append((f.relpath, message))
    return errors


def _same_outputs(group: list[FileOutcome]) -> bool:
    """Every file of the group would write the same bytes to the same path."""
    if len({f.out_relpath or f.relpath for f in group}) != 1:
        return False
    outputs = set()
    for f in group:
        try:
            data = f.output_bytes() if f.status == FileStatus.CHANGED else None
            outputs.add(data if data is not None else read_regular(f.path))
        except OSError:
            return False
    return len(outputs) == 1


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT/SIGTERM while one file is written: a Ctrl-C that lands between creating
    a temp file and the code that cleans it up would leave the temp file behind. The held
    signal is delivered (KeyboardInterrupt) as soon as the file is whole, between files."""
    held = {signal.SIGINT, signal.SIGTERM}
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    except (AttributeError, ValueError, OSError):  # not POSIX, or not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def safe_join(outdir: Path, relpath: str) -> Path:
    """outdir/relpath, refusing anything that would land outside outdir (.., absolute paths,
    symlinked folders inside outdir)."""
    rel = Path(relpath)
    if rel.is_absolute() or ".." in rel.parts:
        raise OSError(f"refusing to write outside the output directory: {relpath}")
    target = outdir / rel
    real_out = os.path.realpath(outdir)
    real_parent = os.path.realpath(target.parent)
    if not (real_parent == real_out or real_parent.startswith(real_out + os.sep)):
        raise OSError(f"refusing to write through a symlink out of the output directory: {relpath}")
    if target.is_symlink():
        raise OSError(f"refusing to write through a symlink: {relpath}")
    return target


BATCH_FILES = 256  # new files of one directory synced together (DirectoryBatch)


class _Mirror:
    """The output tree of one run: its root resolved once, each parent directory created
    and checked (inside the root, not through a symlink) once, not per file. New files
    are written a directory at a time (fsio.DirectoryBatch: one sync for the batch, not
    two per file); a file that replaces one is written alone (atomic_write)."""

    def __init__(self, outdir: Path) -> None:
        self.outdir = outdir
        self.outdir_str = os.fspath(outdir)
        self.real_out = os.path.realpath(outdir)
        self.ready: set[str] = {""}
        self.batch: DirectoryBatch | None = None

    def batch_for(self, target: Path) -> tuple[DirectoryBatch, list[tuple[FileOutcome, OSError]]]:
        """The batch of `target`'s directory, committing the previous one (its failures
        are returned) when the directory changes or the batch is full."""
        done: list[tuple[FileOutcome, OSError]] = []
        directory = target.parent
        batch = self.batch
        if batch is not None and (
            batch.directory != directory or len(batch.pending) >= BATCH_FILES
        ):
            done = self.commit()
            batch = None
        if batch is None:
            batch = self.batch = DirectoryBatch(directory)
        return batch, done

    def commit(self) -> list[tuple[FileOutcome, OSError]]:
        batch = self.batch
        if batch is None:
            return []
        failed = batch.commit()
        self.batch = None
        return failed

    def abort(self) -> None:
        batch, self.batch = self.batch, None
        if batch is not None:
            batch.abort()

    def target(self, rel: str) -> Path:
        """outdir/rel with its parent made; refuses what safe_join refuses."""
        parts = rel.split("/")  # relpaths are posix; string work, not pathlib, per file
        if rel.startswith("/") or os.path.isabs(rel) or ".." in parts:
            raise OSError(f"refusing to write outside the output directory: {rel}")
        parent = "/".join(p for p in parts[:-1] if p and p != ".")
        if parent not in self.ready:
            safe_join(self.outdir, parent)  # its own parent stays inside, it is no link
            (self.outdir / parent).mkdir(parents=True, exist_ok=True)
            real_parent = os.path.realpath(self.outdir / parent)
            if not real_parent.startswith(self.real_out + os.sep):
                raise OSError(
                    f"refusing to write through a symlink out of the output directory: {rel}"
                )
            if is_input_directory(self.outdir / parent):  # a bind mount of an input folder
                raise OSError(f"refusing to write into an input directory: {rel}")
            self.ready.add(parent)
        return Path(os.path.join(self.outdir_str, rel))


def _existing(target: Path, rel: str) -> os.stat_result | None:
    """lstat of an output about to be written: None when absent; a link is refused."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    if statmod.S_ISLNK(st.st_mode):
        raise OSError(f"refusing to write through a symlink: {rel}")
    return st


def _holds(target: Path, st: os.stat_result | None, data: bytes) -> bool:
    """The output file already holds `data` (size first, then the bytes)."""
    if st is None or st.st_size != len(data):
        return False
    try:
        return read_regular(target) == data
    except OSError:
        return False


def _write_mirrored(f: FileOutcome, mirror: _Mirror) -> list[tuple[FileOutcome, OSError]]:
    """Write one file of the output tree: a new file into its directory's batch, one that
    replaces an output alone. Returns the failures of a batch this committed."""
    rel = f.out_relpath or f.relpath
    target = mirror.target(rel)
    st = _existing(target, rel)
    data = None
    if f.handle is not None:
        # a result the run left out of memory: the output's size and digest say if it is
        # up to date, so the result is loaded only for a stale or missing output
        known = f.handle.output_summary()
        if (
            known is not None
            and st is not None
            and st.st_size == known[0]
            and _digest_of(target) == known[1]
        ):
            return []
        data = f.handle.read_output()
        if data is None:
            raise OSError("the cached result could not be loaded")
    if data is None:
        if not f.path.is_file():
            return []
        if st is not None and _same_file_content(f.path, target, st):
            return []
        if st is not None:
            copy_atomic(f.path, target)
            return []
        batch, done = mirror.batch_for(target)
        batch.copy(f.path, target, f)
        return done
    if _holds(target, st, data):
        return []
    if st is not None:
        atomic_write(target, data, mode=_mode(f.path))
        return []
    batch, done = mirror.batch_for(target)
    batch.write(target, data, _mode(f.path), f)
    return done


def _digest_of(path: Path) -> str | None:
    from hipport.cache import content_hash

    try:
        return content_hash(read_regular(path))
    except OSError:
        return None


def _same_file_content(a: Path, b: Path, b_stat: os.stat_result | None = None) -> bool:
    try:
        if a.stat().st_size != (b_stat or b.stat()).st_size:
            return False
        return read_regular(a) == read_regular(b)
    except OSError:
        return False


def _mode(path: Path) -> int | None:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return None


def _write_in_place(f: FileOutcome, backup: bool) -> None:
    if f.handle is None or f.status != FileStatus.CHANGED:
        if f.out_relpath and f.out_relpath != f.relpath and f.status == FileStatus.UNCHANGED:
            source = f.handle.source_if_in_memory() if f.handle is not None else None
            _rename_in_place(f, None, backup, source)
        return
    result = f.handle.load()  # a stored change not yet written: loaded for this write only
    if result is None:
        raise OSError("the cached result could not be loaded")
    if f.out_relpath and f.out_relpath != f.relpath:
        _rename_in_place(f, result.output, backup, result.source)
        return
    current, identity = _read_as_run(f, result.source)
    if backup:
        keep_backup(f.path)  # the original itself, under a name no backup holds yet
    atomic_write(
        f.path,
        result.output,
        over_input=True,
        expect=lambda: unchanged_since(f.path, current, identity, f.relpath),
    )


def _read_as_run(f: FileOutcome, source: bytes | None) -> tuple[bytes, tuple[int, int, int, int]]:
    """The file's bytes and identity now, refused unless they are what the run translated.
    A symlink (named on the command line) is left alone: replacing it would turn it into
    a file, and writing through it would change a file that may lie outside the tree."""
    if os.path.islink(f.path):
        raise OSError(f"{f.relpath} is a symbolic link; left as it is (translate its target)")
    current, identity = read_with_identity(f.path)
    if source is not None and current != source:
        raise ChangedDuringRun(
            errno.EAGAIN, f"{f.relpath} changed on disk during the run; left as it is"
        )
    return current, identity


def _rename_in_place(
    f: FileOutcome, data: bytes | None, backup: bool, source: bytes | None
) -> None:
    """a.cu -> a.hip: write the new name (never over an existing file), then remove the old
    one, each step checking that a.cu is still what the run read (`source`, when the run
    holds it). A run killed between the two steps leaves a.hip holding exactly this
    translation: the next run sees its own work and finishes the job (removes a.cu)."""
    new_path = f.path.with_name(f.out_relpath.rsplit("/", 1)[-1])  # type: ignore[union-attr]
    source, identity = _read_as_run(f, source)
    output = source if data is None else data
    still = lambda: unchanged_since(f.path, source, identity, f.relpath)  # noqa: E731
    if os.path.lexists(new_path):
        if not _is_regular_holding(new_path, output):
            raise OSError(f"{new_path.name} exists; not overwriting it with {f.relpath}")
        written = False  # a killed run's a.hip: its own translation of this a.cu
    else:
        atomic_write(new_path, output, mode=_mode(f.path), expect=still, exclusive=True)
        written = True
    if backup:
        keep_backup(f.path)  # FILE.orig, FILE.orig.1, ...: never over a backup
    try:
        still()
    except ChangedDuringRun:
        if written:
            with suppress(OSError):
                os.unlink(new_path)
        raise
    os.unlink(f.path)


def _is_regular_holding(path: Path, data: bytes) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return statmod.S_ISREG(st.st_mode) and _holds(path, st, data)
