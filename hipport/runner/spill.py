"""A run's results kept out of memory when there is no cache to keep them (`--no-cache`).

A worker of such a run sends each result packed (`Packed`: its summary, the source and
output bytes, and the rest of the result pickled), so the parent builds no Finding, Use or
Edit object for it; the parent appends the bytes to one unlinked temporary file and keeps
only the summary and where the bytes are. The outcome then is a lazy one, as a cached
file's (hipport.runner.cached.lazy_outcome): the report loads each result when it comes to
it, and writing an output reads only its bytes. So the parent's memory does not grow with
the tree, and a run that needs only outputs and counts (`translate -o`) never unpickles
the findings. If the temporary file cannot be written, the bytes stay in memory.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from dataclasses import dataclass

import hipport.runner.wire as wire
from hipport.collector import collector_paused
from hipport.edits import Edit
from hipport.engine import TranslationResult
from hipport.findings import Finding, Use
from hipport.runner.outcome import (
    FileInfo,
    FileKind,
    FileOutcome,
    FileStatus,
    Stored,
    file_info,
    set_dead,
)


@dataclass(frozen=True, slots=True)
class Packed:
    """One result as a worker sends it: `rest` is the pickle of (path, edits, findings,
    uses, defined_names, (skipped_dead, dead_macros)), the records by columns
    (wire.to_columns); `output` is None when it equals the source."""

    info: FileInfo
    source: bytes
    output: bytes | None
    rest: bytes


def pack(result: TranslationResult) -> Packed:
    """A result without error, packed (in the worker)."""
    from hipport.cache import content_hash

    digest = content_hash(result.source)
    changed = result.changed
    out_digest = content_hash(result.output) if changed else digest
    with collector_paused():  # plain data: the heap need not be walked while it is made
        # the summary first: what it counts is let go before the columns are made
        info = file_info(result, digest, out_digest)
        fields = (
            result.path,
            wire.to_columns(result.edits, Edit),
            wire.to_columns(result.findings, Finding),
            wire.to_columns(result.uses, Use),
            result.defined_names,
            (result.skipped_dead, result.dead_macros),
        )
        rest = pickle.dumps(fields, pickle.HIGHEST_PROTOCOL)
        del fields
    return Packed(info, result.source, result.output if changed else None, rest)


def spilled_outcome(
    path, relpath: str, kind: FileKind, out_relpath: str, spilled: SpilledResult, info: FileInfo
) -> FileOutcome:  # a Path
    """The lazy outcome of a result kept in a Spill (as a cached file's, not cached)."""
    return FileOutcome(
        path,
        relpath,
        kind,
        FileStatus.CHANGED if info.changed else FileStatus.UNCHANGED,
        Stored(info, spilled.load, spilled.output),
        None,
        out_relpath,
        False,
    )


class Spill:
    """An unlinked temporary file the run's packed results are appended to."""

    def __init__(self) -> None:
        self._file = None
        self._size = 0
        self._failed = False

    def keep(self, packed: Packed) -> SpilledResult:
        """Where `packed`'s bytes now are (the file, or memory when it cannot be written)."""
        parts = (packed.source, packed.output or b"", packed.rest)
        at = self._append(b"".join(parts))
        if at is None:
            return SpilledResult(self, -1, parts, packed.output is not None)
        lengths = tuple(len(p) for p in parts)
        return SpilledResult(self, at, lengths, packed.output is not None)

    def _append(self, data: bytes) -> int | None:
        if self._failed:
            return None
        try:
            if self._file is None:
                self._file = tempfile.TemporaryFile(prefix="hipport-results-")
            fd = self._file.fileno()
            at = self._size
            view = memoryview(data)
            while view:
                view = view[os.pwrite(fd, view, at + len(data) - len(view)) :]
        except OSError:
            self._failed = True  # a full or read-only temp dir only costs memory
            return None
        self._size += len(data)
        return at

    def read(self, at: int, size: int) -> bytes:
        assert self._file is not None
        data = os.pread(self._file.fileno(), size, at)
        if len(data) != size:
            raise OSError("the run's temporary result file was cut short")
        return data


@dataclass(frozen=True, slots=True)
class SpilledResult:
    """One result in a Spill: at offset `at` the source, output and rest bytes, of
    `parts` lengths (or, at -1, the bytes themselves in `parts`)."""

    spill: Spill
    at: int
    parts: tuple
    changed: bool

    def _bytes(self) -> tuple[bytes, bytes, bytes]:
        if self.at < 0:
            return self.parts
        record = self.spill.read(self.at, sum(self.parts))
        source_end = self.parts[0]
        output_end = source_end + self.parts[1]
        return record[:source_end], record[source_end:output_end], record[output_end:]

    def output(self) -> bytes:
        """The output bytes alone (what writing it needs), nothing unpickled."""
        if self.at < 0:
            return self.parts[1] if self.changed else self.parts[0]
        index = 1 if self.changed else 0
        return self.spill.read(self.at + sum(self.parts[:index]), self.parts[index])

    def load(self) -> TranslationResult:
        source, output, rest = self._bytes()
        with collector_paused():  # a large result: plain data, no cycles
            path, edits, findings, uses, defined, *more = pickle.loads(rest)
            edits = wire.from_columns(edits, Edit)
            findings = wire.from_columns(findings, Finding)
            uses = wire.from_columns(uses, Use)
        output = output if self.changed else source
        result = TranslationResult(path, source, output, edits, findings, uses, defined)
        set_dead(result, more)
        return result
