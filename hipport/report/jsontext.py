"""The JSON reports' text: what `json.dumps(value, indent=2, ensure_ascii=False)` writes,
byte for byte, written here because the standard library's indented encoder is
generators all the way down (50 us a finding: 15 s for 300,000 findings).

A report's long lists (findings, APIs, files) go out one row at a time (`Rows`,
`json_chunks`): a 300,000-finding report is 270 MB of text, and neither that text nor
the report's dict form is ever held whole (they were 1.5 GB at the peak)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from itertools import islice
from typing import Any

CHUNK = 4096  # pieces joined into one string before it is handed on

encode_string = json.encoder.encode_basestring  # the C function json uses


def json_text(value: Any, indent: int | None = 2) -> str:
    """`json.dumps(value, indent=indent, ensure_ascii=False)` and a newline. Plain data
    (dicts with string keys, lists, tuples, strings, numbers, booleans, None) indented is
    written by `_Indented`; anything else goes to the standard library's encoder, its
    pieces joined a few thousand at a time as they come (millions of small strings kept
    all to be joined at the end were the peak of a large check's memory)."""
    if indent is not None:
        try:
            writer = _Indented(" " * indent)
            writer.value(value, "\n")
            writer.put("\n")
            return writer.take()
        except NotPlain:
            pass
    pieces = json.JSONEncoder(ensure_ascii=False, indent=indent).iterencode(value)
    text: list[str] = []
    while batch := list(islice(pieces, CHUNK)):
        text.append("".join(batch))
    del batch, pieces, value  # the caller's dict form can go before the text is joined
    text.append("\n")
    return "".join(text)


class Rows:
    """A long list of a document, written one item at a time: `plain(item)` is the item's
    JSON value; `text(item, newline, indent)`, when given, writes the same text faster
    or returns None (it cannot: the item goes through `plain`)."""

    __slots__ = ("items", "plain", "text")

    def __init__(
        self,
        items: Iterable[Any],
        plain: Callable[[Any], Any],
        text: Callable[[Any, str, str], str | None] | None = None,
    ) -> None:
        self.items = items
        self.plain = plain
        self.text = text


def json_chunks(document: dict[str, Any], indent: int = 2) -> Iterator[str]:
    """The text `json_text` gives for `document` with every `Rows` value a list of its
    items' plain values, in pieces of a few thousand lines: `Rows` may be values of the
    top-level dict only."""
    writer = _Indented(" " * indent)
    put = writer.pieces.append
    if not document:
        yield "{}\n"
        return
    inner = "\n" + writer.indent
    put("{")
    separator = inner
    for key, value in document.items():
        put(separator)
        separator = "," + inner
        put(encode_string(key))
        put(": ")
        if type(value) is Rows:
            yield from writer.rows(value, inner)
        else:
            writer.any_value(value, inner)
        if len(writer.pieces) > CHUNK or writer.chunks:
            yield writer.take()
    put("\n}\n")
    yield writer.take()


_STR = {str}


class NotPlain(Exception):
    """A value `_Indented` leaves to the standard library's encoder."""


class _Indented:
    """The standard library's indented JSON (ensure_ascii off, NaN allowed) of plain data,
    byte for byte (tests/test_report_json_text.py compares them)."""

    def __init__(self, indent: str) -> None:
        self.indent = indent
        self.pieces: list[str] = []
        self.chunks: list[str] = []  # the pieces joined a few thousand at a time

    def put(self, piece: str) -> None:
        self.pieces.append(piece)

    def take(self) -> str:
        """Everything written since the last take, as one string."""
        self.chunks.append("".join(self.pieces))
        self.pieces.clear()
        text = "".join(self.chunks)
        self.chunks.clear()
        return text

    def rows(self, rows: Rows, newline: str) -> Iterator[str]:
        put = self.pieces.append
        inner = newline + self.indent
        separator = "[" + inner
        fast = rows.text
        for item in rows.items:
            put(separator)
            separator = "," + inner
            text = fast(item, inner, self.indent) if fast is not None else None
            if text is None:
                self.any_value(rows.plain(item), inner)
            else:
                put(text)
            if len(self.pieces) > CHUNK:
                yield self.take()
        if separator[0] == "[":
            put("[]")
        else:
            put(newline)
            put("]")

    def any_value(self, value: Any, newline: str) -> None:
        """`value` at this place, plain or not: a value `_Indented` cannot write (a
        non-string key, a type json converts) is written as json reads it back, which
        json.dumps writes alike."""
        part = _Indented(self.indent)
        try:
            part.value(value, newline)
        except NotPlain:
            part = _Indented(self.indent)
            part.value(json.loads(json.dumps(value, ensure_ascii=False)), newline)
        self.pieces.append(part.take())

    def value(self, o: Any, newline: str) -> None:
        put = self.pieces.append
        if isinstance(o, str):
            put(encode_string(o))
        elif o is None:
            put("null")
        elif o is True:
            put("true")
        elif o is False:
            put("false")
        elif isinstance(o, int):
            put(int.__repr__(o))
        elif isinstance(o, float):
            put(_float_text(o))
        elif isinstance(o, (list, tuple)):
            self._list(o, newline)
        elif isinstance(o, dict):
            self._dict(o, newline)
        else:
            raise NotPlain

    def _list(self, items: list | tuple, newline: str) -> None:
        put = self.pieces.append
        if not items:
            put("[]")
            return
        inner = newline + self.indent
        if set(map(type, items)) == _STR:  # names (the blocking APIs: 300,000 of them)
            for k in range(0, len(items), CHUNK):
                put(("[" if k == 0 else ",") + inner)
                put(("," + inner).join(map(encode_string, items[k : k + CHUNK])))
                self.chunks.append("".join(self.pieces))
                self.pieces.clear()
            put(newline)
            put("]")
            return
        put("[")
        separator = inner
        for item in items:
            put(separator)
            separator = "," + inner
            self.value(item, inner)
            if len(self.pieces) > CHUNK:
                self.chunks.append("".join(self.pieces))
                self.pieces.clear()
        put(newline)
        put("]")

    def _dict(self, items: dict, newline: str) -> None:
        put = self.pieces.append
        if not items:
            put("{}")
            return
        inner = newline + self.indent
        put("{")
        separator = inner
        for key, item in items.items():
            if not isinstance(key, str):
                raise NotPlain  # the standard library's key conversions
            put(separator)
            separator = "," + inner
            put(encode_string(key))
            put(": ")
            self.value(item, inner)
        put(newline)
        put("}")


def scalar(value: Any) -> str:
    """A string (a str subclass too, such as a StrEnum member: json writes its text), an
    int (not a bool) or None as JSON; NotPlain for anything else."""
    kind = type(value)
    if kind is str or isinstance(value, str):
        return encode_string(value)
    if value is None:
        return "null"
    if kind is int:
        return int.__repr__(value)
    raise NotPlain


def flat_text(items: dict[str, Any], newline: str, indent: str) -> str | None:
    """The indented text of a dict whose values are strings, ints, None or lists of
    those (an API's or a file's row), in one call; None for any other dict."""
    if type(items) is not dict:
        return None
    names = tuple(items)
    if not all(type(name) is str for name in names):
        return None
    return record_text(names, items.values(), newline, indent)


def record_text(
    names: tuple[str, ...], values: Iterable[Any], newline: str, indent: str
) -> str | None:
    """`flat_text(dict(zip(names, values)))`, the keys' text made once per shape."""
    try:
        texts = value_texts(values, newline + indent, indent)
    except NotPlain:
        return None
    return _record_template(names, newline, indent).format(*texts)


def value_texts(values: Iterable[Any], newline: str, indent: str) -> list[str]:
    """Each value's JSON text at this indentation: strings, ints, None, lists of those;
    NotPlain for anything else (one comprehension, no call per value: the hot loop of a
    large report)."""
    inner = newline + indent
    return [
        encode_string(v)
        if type(v) is str
        else "null"
        if v is None
        else int.__repr__(v)
        if type(v) is int
        else _list_text(v, newline, inner)
        if type(v) is list
        else scalar(v)
        for v in values
    ]


@lru_cache(maxsize=64)
def _record_template(names: tuple[str, ...], newline: str, indent: str) -> str:
    if not names:
        return "{{}}"
    inner = newline + indent
    keys = (encode_string(n).replace("{", "{{").replace("}", "}}") for n in names)
    return "{{" + ",".join(f"{inner}{key}: {{{i}}}" for i, key in enumerate(keys)) + newline + "}}"


def _list_text(items: list, newline: str, inner: str) -> str:
    if not items:
        return "[]"
    texts = [encode_string(v) if type(v) is str else scalar(v) for v in items]
    return "[" + inner + ("," + inner).join(texts) + newline + "]"


def _float_text(o: float) -> str:
    if o != o:
        return "NaN"
    if o == float("inf"):
        return "Infinity"
    if o == -float("inf"):
        return "-Infinity"
    return float.__repr__(o)
