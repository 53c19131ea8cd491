"""Writing what a run produced: a mirrored output tree (`-o DIR`) or the files in place.

Each file is written whole (hipport.fsio.atomic_write) with SIGINT/SIGTERM held, so an
interrupted run leaves every file old or new, never half-written, and no temp file."""

from __future__ import annotations

import os
import signal
import stat as statmod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from hipport.fsio import atomic_write, copy_atomic, keep_backup, read_regular
from hipport.runner.outcome import FileOutcome, FileStatus, RunSummary


def write_outputs(
    summary: RunSummary, mode: str, outdir: Path | None = None, backup: bool = False
) -> list[tuple[str, str]]:
    """Write what the run produced. mode: "outdir" mirrors the tree under `outdir` (changed
    files translated, every other file copied as it is); "in-place" replaces changed files
    atomically, keeping their modes. Returns (relpath, error) for files that failed."""
    errors: list[tuple[str, str]] = []
    mirror = _Mirror(outdir) if mode == "outdir" and outdir is not None else None
    for f in summary.files:
        try:
            with _signals_held():
                if mode == "outdir":
                    assert mirror is not None
                    _write_mirrored(f, mirror)
                elif mode == "in-place":
                    _write_in_place(f, backup)
        except OSError as exc:
            # a copy or write that failed left nothing behind (temp file removed); the
            # file is counted as failed, not as copied or written
            errors.append((f.relpath, f"cannot write: {exc.strerror or exc}"))
            f.status, f.error = FileStatus.FAILED, f"cannot write: {exc.strerror or exc}"
    return errors


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


class _Mirror:
    """The output tree of one run: its root resolved once, each parent directory created
    and checked (inside the root, not through a symlink) once, not per file."""

    def __init__(self, outdir: Path) -> None:
        self.outdir = outdir
        self.outdir_str = os.fspath(outdir)
        self.real_out = os.path.realpath(outdir)
        self.ready: set[str] = {""}

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


def _write_mirrored(f: FileOutcome, mirror: _Mirror) -> None:
    rel = f.out_relpath or f.relpath
    target = mirror.target(rel)
    st = _existing(target, rel)
    if f.result is None and f.info is not None:
        # a cached file the run did not load: the output's size and digest say if it is
        # up to date, so the result is loaded only for a stale or missing output
        if (
            st is not None
            and st.st_size == f.info.out_size
            and _digest_of(target) == f.info.out_digest
        ):
            return
        data = f.output_bytes()
        if data is None:
            raise OSError("the cached result could not be loaded")
    elif f.result is not None:
        data = f.result.output
    else:
        data = None
    if data is None:
        if not f.path.is_file():
            return
        if st is not None and _same_file_content(f.path, target, st):
            return
        copy_atomic(f.path, target)
        return
    if _holds(target, st, data):
        return
    atomic_write(target, data, mode=_mode(f.path))


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
    if f.result is None and f.info is not None and f.status == FileStatus.CHANGED and f.loader:
        result = f.loader()  # a cached change not yet written: load it for this write only
        if result is None:
            raise OSError("the cached result could not be loaded")
        f = replace(f, result=result)
    if f.result is None or f.status != FileStatus.CHANGED:
        if f.out_relpath and f.out_relpath != f.relpath and f.status == FileStatus.UNCHANGED:
            _rename_in_place(f, None, backup)
        return
    if f.out_relpath and f.out_relpath != f.relpath:
        _rename_in_place(f, f.result.output, backup)
        return
    current = read_regular(f.path)
    if current != f.result.source:
        raise OSError(f"{f.relpath} changed on disk during the run; left as it is")
    if backup:
        keep_backup(f.path)  # the original itself, under a name no backup holds yet
    atomic_write(f.path, f.result.output)


def _rename_in_place(f: FileOutcome, data: bytes | None, backup: bool) -> None:
    new_path = f.path.with_name(f.out_relpath.rsplit("/", 1)[-1])  # type: ignore[union-attr]
    if new_path.exists():
        raise OSError(f"{new_path.name} exists; not overwriting it with {f.relpath}")
    source = read_regular(f.path)
    atomic_write(new_path, source if data is None else data, mode=_mode(f.path))
    if backup:
        keep_backup(f.path)  # FILE.orig, FILE.orig.1, ...: never over a backup
    os.unlink(f.path)
