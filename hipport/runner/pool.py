"""Translating files in a pool of worker processes, started the platform's way (fork on
Linux, spawn on macOS and Windows; HIPPORT_START_METHOD=fork|spawn|forkserver overrides).

The parent builds one `WorkItem` per file and gets one `WorkResult` back. What every file
shares (the target, the base engine options) travels once, as a `WorkerSetup` given to each
worker's initializer; the parent itself keeps no module state. A worker that dies (libclang
crashed on a file) breaks the pool: the unfinished files are retried one process each, so
the one that crashes again is reported and the rest go on.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import hipport.runner.wire as wire
from hipport.collector import collector_paused
from hipport.engine import TranslationResult, translate_source
from hipport.findings import SKIPPED_PREFIX
from hipport.fsio import SkipFile, given_source, read_source
from hipport.options import EngineOptions
from hipport.project import skip_reason
from hipport.runner.outcome import FileInfo, FileKind
from hipport.runner.spill import Packed, pack
from hipport.target import Target


@dataclass(frozen=True, slots=True)
class WorkerSetup:
    """What every file of a run shares: sent once to each worker, not with every item."""

    target: Target
    options: EngineOptions
    packed: bool = False  # send results packed (hipport.runner.spill), not as objects


@dataclass(frozen=True, slots=True)
class WorkItem:
    """One file to translate. `options` is None when the run's base options apply."""

    path: str
    relpath: str
    kind: FileKind
    options: EngineOptions | None
    max_size: int
    data: bytes | None = None  # the source itself, given (standard input): `path` is not read


@dataclass(frozen=True, slots=True)
class WorkResult:
    """What a worker returns for one file: a result, or the reason there is none; `stat`
    is the file's stat taken before it was read (what the cache records)."""

    relpath: str
    result: TranslationResult | None = None
    error: str | None = None
    stat: os.stat_result | None = None
    packed: Packed | None = None  # instead of `result` when the setup asks for it


def translate_one(
    data: bytes, relpath: str, kind: str, options: EngineOptions | None, target: Target
) -> TranslationResult:
    if kind == FileKind.CMAKE:
        from hipport.cmake import translate_cmake

        cm = translate_cmake(data, relpath, options.mappings if options else None)
        return TranslationResult(relpath, data, cm.output, cm.edits, cm.findings)
    return translate_source(data, relpath, target, options)


def process(item: WorkItem, setup: WorkerSetup) -> WorkResult:
    """Read and translate one file; every failure is a WorkResult, never an exception."""
    crash_on = os.environ.get("HIPPORT_TEST_CRASH_ON")
    if crash_on and crash_on in item.relpath:
        # TEST-ONLY hook (tests/test_reliability_crash.py): die as libclang does when it
        # crashes on a file, to prove the pool isolates it. Never set it in real use.
        os.abort()
    stall = os.environ.get("HIPPORT_TEST_STALL_ON", "").rpartition(":")
    if stall[0] and stall[0] in item.relpath:
        # TEST-ONLY hook (tests/test_reliability_hangs.py): HIPPORT_TEST_STALL_ON=TEXT:SECONDS
        # makes a worker sleep that long on a path containing TEXT, as a file that slow
        # would, so the time-limit tests need no slow file. Never set it in real use.
        time.sleep(float(stall[2]))
    try:
        if item.data is None:
            st: os.stat_result | None = os.stat(item.path)
            data = read_source(Path(item.path), item.max_size)
        else:  # given, not read: no stat, so the cache never records it
            st, data = None, given_source(item.data, item.max_size)
    except SkipFile as exc:
        return WorkResult(item.relpath, error=f"{SKIPPED_PREFIX}{exc}")
    except OSError as exc:
        return WorkResult(item.relpath, error=skip_reason(exc))
    options = item.options or setup.options
    try:
        result = translate_one(data, item.relpath, item.kind, options, setup.target)
    except Exception as exc:  # the CLI's last line of defence
        error = f"internal error on this file: {type(exc).__name__}: {exc}"
        return WorkResult(item.relpath, error=error)
    return WorkResult(item.relpath, result, None, st)


def process_for_run(item: WorkItem, setup: WorkerSetup) -> WorkResult:
    """`process`, with a result of no error packed when the setup asks for it."""
    done = process(item, setup)
    if setup.packed and done.result is not None and not done.result.error:
        return WorkResult(done.relpath, None, None, done.stat, pack(done.result))
    return done


# The setup a worker process was started with: set by the initializer in the worker only.
_worker_setup: WorkerSetup | None = None

DEFAULT_TIME_LIMIT = 300.0  # seconds per file; the slowest real file takes a few
# A run of one small file (the pre-commit hook) translates it in this process, under the
# same time limit (an alarm, which stops Python code, not a libclang call in progress); a
# file this large goes to a worker anyway.
IN_PROCESS_MAX_BYTES = 256 * 1024
CRASHED = "the parser crashed on this file (isolated; the run went on)"


def _init_worker(setup: WorkerSetup) -> None:
    global _worker_setup
    _worker_setup = setup
    from hipport.rules import all_rules
    from hipport.tables import load_tables

    load_tables()
    all_rules()
    # The tables, the rules and what the parent had are kept for the worker's life: moved
    # out of the cyclic collector's sight, so its collections do not walk them again.
    gc.collect()
    gc.freeze()
    gc.enable()  # a forked worker starts with the command's collector state (off)


MAX_JOBS = 64  # more workers than this only cost memory and start-up


def worker_count(jobs: int, files: int) -> int:
    """`jobs` (0: every core), never more than the cores this process may run on, the
    files to translate or MAX_JOBS (`jobs = 100000` in a configuration started 61
    processes on a 2-core machine)."""
    cores = _cores()
    return max(1, min(jobs or cores, cores, files, MAX_JOBS))


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def execute(
    todo: list[WorkItem], jobs: int, setup: WorkerSetup, time_limit: float | None = None
) -> Iterator[WorkResult]:
    """Translate `todo` with `jobs` workers (0: all cores), yielding results as they come.
    A file that takes longer than `time_limit` seconds (default DEFAULT_TIME_LIMIT) has its
    worker killed and becomes an error; a worker that dies (libclang crashed) costs only
    the file it held. Either way a fresh worker takes its place and the run goes on."""
    if not todo:
        return
    time_limit = time_limit or DEFAULT_TIME_LIMIT
    if len(todo) == 1 and not _isolate() and _small(todo[0]) and _can_alarm():
        # one small file (the pre-commit hook): forking a worker would cost more than it
        yield _in_process(todo[0], setup, time_limit)
        return
    jobs = worker_count(jobs, len(todo))
    yield from _Pool(jobs, setup, time_limit).run(todo)


class _TimeLimit(BaseException):
    """The in-process file's alarm went off (not an Exception: `process` turns those into
    'internal error' results)."""


def _can_alarm() -> bool:
    """An interval timer can stop a file here: POSIX, the main thread (signals go to it),
    and the program calling hipport uses no alarm of its own (an API caller's timer is
    left alone). Else the one file goes to a worker, under the pool's limit."""
    import signal
    import threading

    return (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN, None)
        and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    )


def _in_process(item: WorkItem, setup: WorkerSetup, time_limit: float) -> WorkResult:
    """`process_for_run` in this process under the pool's time limit: a real-time alarm
    raises _TimeLimit at the next Python step, and the file is the error a worker killed
    for overrunning it is. The tables and rules are loaded first, as a worker loads them
    before its clock starts."""
    import signal

    from hipport.rules import all_rules
    from hipport.tables import load_tables

    load_tables()
    all_rules()
    armed = True

    def stop(signum: int, frame: object) -> None:
        if armed:
            raise _TimeLimit

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, time_limit)
        try:
            return process_for_run(item, setup)
        finally:
            armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _TimeLimit:
        return WorkResult(item.relpath, error=overrun_message(time_limit))
    finally:
        signal.signal(signal.SIGALRM, previous)


def _small(item: WorkItem) -> bool:
    if item.data is not None:
        return len(item.data) <= IN_PROCESS_MAX_BYTES
    try:
        return os.stat(item.path).st_size <= IN_PROCESS_MAX_BYTES
    except OSError:
        return True  # process() reports why it cannot be read


def execute_serially(
    todo: list[WorkItem], jobs: int, setup: WorkerSetup, time_limit: float | None = None
) -> Iterator[WorkResult]:
    """`execute` in this process, one file after another (for profiling)."""
    for item in todo:
        yield process_for_run(item, setup)


def _isolate() -> bool:
    return os.environ.get("HIPPORT_ISOLATE", "") == "1"


class _Worker:
    """One worker process and the pipe to it; it takes one file at a time."""

    def __init__(self, ctx, setup: WorkerSetup) -> None:
        self.conn, child = ctx.Pipe()
        # a forkserver's workers are its children; it ends with this process
        parent = None if ctx.get_start_method() == "forkserver" else os.getpid()
        self.process = ctx.Process(target=_worker_main, args=(child, setup, parent))
        self.process.daemon = True
        self.process.start()
        child.close()
        self.ready = False
        self.item: WorkItem | None = None
        self.deadline = 0.0

    def give(self, item: WorkItem, time_limit: float) -> None:
        self.item, self.deadline = item, time.monotonic() + time_limit
        self.conn.send_bytes(wire.dumps(item, _message_table()))

    def stop(self, kill: bool = False) -> None:
        with contextlib.suppress(OSError):
            if kill:
                self.process.kill()
            else:
                self.conn.send(None)
        self.process.join(timeout=None if kill else 5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _start_method() -> str | None:
    """HIPPORT_START_METHOD, if set: one of this platform's start methods, else a usage error
    naming the variable (None: Python's default for the platform)."""
    import multiprocessing

    from hipport.config import ConfigError

    method = os.environ.get("HIPPORT_START_METHOD") or None
    allowed = multiprocessing.get_all_start_methods()
    if method is not None and method not in allowed:
        raise ConfigError(
            f"HIPPORT_START_METHOD={method!r} is not a start method on this platform "
            f"(one of {', '.join(allowed)})"
        )
    return method


class _Pool:
    """Workers fed one file at a time, so the parent always knows which file each holds:
    the one that overruns the time limit is killed with its worker, the one whose worker
    died is the one that crashed, and no other file is lost or retried."""

    def __init__(self, jobs: int, setup: WorkerSetup, time_limit: float) -> None:
        import multiprocessing

        self.ctx = multiprocessing.get_context(_start_method())
        self.setup, self.time_limit, self.jobs = setup, time_limit, jobs

    def run(self, todo: list[WorkItem]) -> Iterator[WorkResult]:
        from multiprocessing.connection import wait

        pending = list(reversed(todo))
        workers = [_Worker(self.ctx, self.setup) for _ in range(self.jobs)]
        try:
            while workers:
                busy = [w for w in workers if w.item is not None]
                timeout = (
                    max(0.0, min(w.deadline for w in busy) - time.monotonic()) if busy else None
                )
                ready = wait([w.conn for w in workers], timeout)
                for w in [w for w in workers if w.conn in ready]:
                    try:
                        with collector_paused():  # a large result: plain data, no cycles
                            message = pickle.loads(w.conn.recv_bytes())
                    except (EOFError, OSError):  # the worker died: libclang crashed
                        if w.item is not None:
                            yield WorkResult(w.item.relpath, error=CRASHED)
                        elif not w.ready:
                            self._died_starting()
                        workers.remove(w)
                        w.stop(kill=True)
                        if pending:
                            workers.append(_Worker(self.ctx, self.setup))
                        continue
                    if message is not None:
                        yield message
                    w.item, w.ready = None, True
                    self._feed(w, pending, workers)
                now = time.monotonic()
                for w in [w for w in workers if w.item is not None and w.deadline <= now]:
                    yield WorkResult(w.item.relpath, error=self._overrun(w.item))
                    workers.remove(w)
                    w.stop(kill=True)
                    if pending:
                        workers.append(_Worker(self.ctx, self.setup))
        finally:
            for w in workers:
                w.stop(kill=w.item is not None)

    def _died_starting(self) -> None:
        """A worker that dies before it is ready would die again: give up, not respawn."""
        self.failed_starts = getattr(self, "failed_starts", 0) + 1
        if self.failed_starts > 3 * self.jobs:
            raise RuntimeError("worker processes keep dying while starting; see the log")

    def _feed(self, w: _Worker, pending: list[WorkItem], workers: list[_Worker]) -> None:
        if pending:
            w.give(pending.pop(), self.time_limit)
        else:
            workers.remove(w)
            w.stop()

    def _overrun(self, item: WorkItem) -> str:
        return overrun_message(self.time_limit)


def overrun_message(time_limit: float) -> str:
    """The error of a file not done within the time limit."""
    return (
        f"time limit exceeded: not done after {time_limit:g} s (time-limit), so "
        "the file was not checked; the run went on"
    )


_MESSAGE_TABLE: dict | None = None


def _message_table() -> dict:
    """How the pool's messages and the records of a result are pickled (wire.py)."""
    global _MESSAGE_TABLE
    if _MESSAGE_TABLE is None:
        records = (*wire.RESULT_RECORDS, WorkItem, WorkResult, Packed, FileInfo)
        _MESSAGE_TABLE = wire.record_table(*records)
    return _MESSAGE_TABLE


def _worker_main(conn, setup: WorkerSetup, parent: int | None) -> None:
    """A worker: die with the parent, load the tables, then translate one file per message
    until told to stop (None) or the pipe closes."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    die_with_parent(os.getppid() if parent is None else parent)
    _init_worker(setup)
    conn.send(None)  # ready: the time limit counts from the first file, not the start-up
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        result = process_for_run(item, setup)
        with collector_paused():  # pickling a large result: the heap need not be walked
            message = wire.dumps(result, _message_table())
        del result
        conn.send_bytes(message)
        del message


def die_with_parent(parent: int) -> None:
    """Make this process end when `parent` does, even if it is then busy in C code: on
    Linux the kernel sends SIGKILL (prctl PR_SET_PDEATHSIG); elsewhere a thread watches
    the parent's pid. Either way a SIGKILL of the main process leaves no worker behind."""
    import signal

    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            if libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent died before the prctl took hold
                    os._exit(1)
                return
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="hipport-parent-watch", daemon=True).start()
