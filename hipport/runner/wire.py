"""Pickling what crosses the pipe between the parent and a worker, fast.

The records a result is made of (Edit, Location, Use) and the pool's own messages are
frozen slotted dataclasses; pickle's default for those stores a state dict that
`dataclasses` restores field by field through `fields()`, the largest cost of moving a
result. Here each is pickled as its class and its field values, and loaded by calling the
class: the same object, made by its constructor. Only this process's own pickles are ever
loaded (a worker's message, the run's spilled results), never a file someone else wrote."""

from __future__ import annotations

import copyreg
import dataclasses
import io
import pickle
from typing import Any

from hipport.edits import Edit
from hipport.findings import Location, Use

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
