"""Pickling what crosses the pipe between the parent and a worker, fast.

The records a result is made of (Edit, Location, Use) and the pool's own messages are
frozen slotted dataclasses; pickle's default for those stores a state dict that
`dataclasses` restores field by field through `fields()`, the largest cost of moving a
result. Here each is pickled as its class and its field values, and loaded by calling the
class: the same object, made by its constructor. Only this process's own pickles are ever
loaded (a worker's message, the run's spilled results), never a file someone else wrote.

A packed result (hipport.runner.spill) goes further: its records by columns, one list of
plain values per field (to_columns / from_columns), a field of one value throughout
as that value once."""

from __future__ import annotations

import copyreg
import dataclasses
import io
import pickle
from itertools import repeat
from operator import attrgetter, is_
from typing import Any

from hipport.edits import Edit
from hipport.findings import Finding, Location, Use

RESULT_RECORDS: tuple[type, ...] = (Edit, Location, Use)


def _reduce_record(obj: Any) -> tuple[type, tuple]:
    cls = type(obj)
    return cls, tuple([getattr(obj, name) for name in cls.__slots__])


def record_table(*records: type) -> dict[type, Any]:
    """A dispatch table pickling each of `records` (slotted dataclasses whose fields are
    all constructor arguments, in __slots__ order) by its constructor."""
    table = dict(copyreg.dispatch_table)
    for cls in records:
        names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
        if getattr(cls, "__slots__", None) != names or "__post_init__" in vars(cls):
            raise TypeError(f"{cls.__name__}: not a plain slotted record")
        table[cls] = _reduce_record
    return table


def dumps(obj: Any, table: dict[type, Any]) -> bytes:
    """`obj` pickled with `table` (see record_table)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = table
    pickler.dump(obj)
    return buffer.getvalue()


# A result's records by columns: one list per field (a Location field as its own columns),
# so pickling walks a few lists of plain values instead of an object per record.
RESULT_COLUMNS: dict[type, dict[str, type]] = {
    Edit: {},
    Finding: {"location": Location},
    Use: {"location": Location},
    Location: {},
}


def _names(cls: type) -> tuple[str, ...]:
    fields = dataclasses.fields(cls)
    if not all(f.init for f in fields) or "__post_init__" in vars(cls):
        raise TypeError(f"{cls.__name__}: not a plain record")
    return tuple(f.name for f in fields)


def to_columns(records: list, cls: type) -> list:
    """`records` (all of type `cls`, a key of RESULT_COLUMNS) as one list per field; a
    field that holds one and the same object in every record (a path, a code, None) as
    the tuple (that object, how many), not a list of it."""
    nested = RESULT_COLUMNS[cls]
    out: list = []
    for name in _names(cls):
        get = attrgetter(name)
        if name in nested:
            out.append(to_columns(list(map(get, records)), nested[name]))
        elif records and all(map(is_, map(get, records), repeat(get(records[0])))):
            out.append((get(records[0]), len(records)))
        else:
            out.append(list(map(get, records)))
    return out


def from_columns(columns: list, cls: type) -> list:
    """The records `to_columns` took apart, made again by their constructor."""
    nested = RESULT_COLUMNS[cls]
    values = [
        from_columns(column, nested[name])
        if name in nested
        else (repeat(*column) if type(column) is tuple else column)
        for name, column in zip(_names(cls), columns, strict=True)
    ]
    return list(map(cls, *values))
