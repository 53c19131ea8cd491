"""A run's results kept out of memory when there is no cache to keep them (`--no-cache`).

A worker of such a run sends each result packed (`Packed`: its summary, the source and
output bytes, the report's part of it and the rest of the result, each pickled), so the
parent builds no Finding, Use or Edit object for it; the parent appends the bytes to one
unlinked temporary file and keeps only the summary and where the bytes are. The outcome
then is a lazy one, as a cached file's (hipport.runner.cached.lazy_outcome): the report
reads each file's part when it comes to it (its findings, and its uses counted by kind:
hipport.runner.report_part), writing an output reads only its bytes, and only a reader of
the whole result unpickles the edits and uses. So the parent's memory does not grow with
the tree, and a run that needs only outputs and counts (`translate -o`) never unpickles
the findings. If the temporary file cannot be written, the bytes stay in memory.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate, repeat

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
from hipport.runner.report_part import ReportPart, UseCount
from hipport.tables import Status


@dataclass(frozen=True, slots=True)
class Packed:
    """One result as a worker sends it: `part` is the pickle of what the report reads
    (`pack`), `rest` that of the rest (the edits, the uses' other fields,
    defined_names), the records by columns (wire.to_columns); `output` is None when it
    equals the source."""

    info: FileInfo
    source: bytes
    output: bytes | None
    rest: bytes
    part: bytes


# The columns of wire.to_columns(uses, Use) (api, family, status, location, new_name,
# min_rocm, start, end; a location's: path, line, column, end_line, end_column) the report
# reads, kept in the part (api, family, status, line, column, new_name, min_rocm), and the
# others, in the rest (path, end_line, end_column, start, end).
def _split_uses(columns: list) -> tuple[list, list]:
    api, family, status, (path, line, column, end_line, end_column), *more = columns
    new_name, min_rocm, start, end = more
    return [api, family, status, line, column, new_name, min_rocm], [
        path,
        end_line,
        end_column,
        start,
        end,
    ]


def _joined_uses(part: list, rest: list) -> list:
    api, family, status, line, column, new_name, min_rocm = part
    path, end_line, end_column, start, end = rest
    location = [path, line, column, end_line, end_column]
    return [api, family, status, location, new_name, min_rocm, start, end]


def pack(result: TranslationResult) -> Packed:
    """A result without error, packed (in the worker)."""
    from hipport.cache import content_hash
    from hipport.report.model import edited_bytes, lines_touched

    digest = content_hash(result.source)
    changed = result.changed
    out_digest = content_hash(result.output) if changed else digest
    with collector_paused():  # plain data: the heap need not be walked while it is made
        # the summary first: what it counts is let go before the columns are made
        info = file_info(result, digest, out_digest)
        uses, other = _split_uses(wire.to_columns(result.uses, Use))
        part = _dumps(
            (
                result.path,
                wire.to_columns(result.findings, Finding),
                uses,
                edited_bytes(result.edits),
                lines_touched(result.source, result.edits),
                result.skipped_dead,
                result.dead_macros,
            )
        )
        del uses
        rest = _dumps((wire.to_columns(result.edits, Edit), other, result.defined_names))
    return Packed(info, result.source, result.output if changed else None, rest, part)


def _dumps(fields: tuple) -> bytes:
    return pickle.dumps(fields, pickle.HIGHEST_PROTOCOL)


def spilled_outcome(
    path, relpath: str, kind: FileKind, out_relpath: str, spilled: SpilledResult, info: FileInfo
) -> FileOutcome:  # a Path
    """The lazy outcome of a result kept in a Spill (as a cached file's, not cached)."""
    return FileOutcome(
        path,
        relpath,
        kind,
        FileStatus.CHANGED if info.changed else FileStatus.UNCHANGED,
        Stored(info, spilled.load, spilled.output, spilled.part),
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
        parts = (packed.source, packed.output or b"", packed.rest, packed.part)
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
    """One result in a Spill: at offset `at` the source, output, rest and part bytes, of
    `parts` lengths (or, at -1, the bytes themselves in `parts`)."""

    spill: Spill
    at: int
    parts: tuple
    changed: bool

    def _piece(self, index: int) -> bytes:
        if self.at < 0:
            return self.parts[index]
        return self.spill.read(self.at + sum(self.parts[:index]), self.parts[index])

    def output(self) -> bytes:
        """The output bytes alone (what writing it needs), nothing unpickled."""
        return self._piece(1 if self.changed else 0)

    def part(self) -> ReportPart:
        """What the report reads (hipport.runner.report_part): the source and the part,
        the findings made again, the uses counted by kind when they are read (UseKinds);
        the edits are not unpickled."""
        source, fields = self._piece(0), self._piece(3)
        with collector_paused():  # a large result: plain data, no cycles
            path, findings, uses, changed_bytes, changed_lines, skipped, macros = pickle.loads(
                fields
            )
            findings = wire.from_columns(findings, Finding)
        kinds = UseKinds(uses)
        return ReportPart(
            path, source, findings, kinds, changed_bytes, changed_lines, skipped, tuple(macros)
        )

    def load(self) -> TranslationResult:
        if self.at < 0:
            source, output, rest, part = self.parts
        else:
            record = self.spill.read(self.at, sum(self.parts))
            ends = list(accumulate(self.parts))
            source, output, rest, part = (
                record[start:end] for start, end in zip([0, *ends], ends, strict=False)
            )
        with collector_paused():  # a large result: plain data, no cycles
            edits, other, defined = pickle.loads(rest)
            path, findings, uses, _, _, skipped, macros = pickle.loads(part)
            edits = wire.from_columns(edits, Edit)
            findings = wire.from_columns(findings, Finding)
            uses = wire.from_columns(_joined_uses(uses, other), Use)
        output = output if self.changed else source
        result = TranslationResult(path, source, output, edits, findings, uses, defined)
        set_dead(result, [(skipped, macros)])
        return result


class UseKinds:
    """A file's uses as a ReportPart holds them (UseCount: each kind once, in the order
    of its first use, with how many and where those not mapped are), made from the uses'
    columns each time they are read: a file of 300,000 kinds keeps seven lists, not
    300,000 records and their places."""

    __slots__ = ("columns",)

    def __init__(self, columns: list) -> None:
        # api, family, status, line, column, new_name, min_rocm (_split_uses)
        self.columns = columns

    def __iter__(self) -> Iterator[UseCount]:
        # a field of one value throughout comes as (value, count) (wire.to_columns)
        columns = [list(repeat(*c)) if type(c) is tuple else c for c in self.columns]
        api, family, status, line, column, new_name, min_rocm = columns
        mapped = Status.MAPPED
        n = len(api)
        if len(set(api)) == n and mapped not in status:
            # each use a kind of its own, not mapped (distinct unknown names): no
            # grouping, the records made at C speed
            places = zip(zip(range(n), line, column, strict=True), strict=True)
            yield from map(UseCount, api, family, status, new_name, min_rocm, repeat(1), places)
            return
        kinds: dict[tuple, list] = {}
        for i, key in enumerate(zip(api, family, status, new_name, min_rocm, strict=True)):
            row = kinds.get(key)
            if row is None:
                row = kinds[key] = [0, []]
            row[0] += 1
            if key[2] is not mapped:
                row[1].append((i, line[i], column[i]))
        for (a, f, s, new, rocm), (count, places) in kinds.items():
            yield UseCount(a, f, s, new, rocm, count, tuple(places))
