"""The cache's file format: data, never code.

Every cache file (the stat index, result entries, the project index) is
one line of header and a JSON body:

    hipport-cache <FORMAT> <kind> <blake2b of the body, keyed>\\n{...json...}

or, for a file of parts (dumps_parts: the project index), one JSON value a line, each
with its own keyed checksum, the header listing them comma-separated.

Loading it can only build plain values and the few hipport types listed in `_TYPES`
(frozen records: a Version, a Finding, ...), by their constructors; nothing in a cache
file can name a function to call, unlike a pickle, whose loading runs whatever the file
says. The checksum is keyed with this account's secret (hipport.cache_key), so a file written
without it (planted, or a cache directory restored from elsewhere) is a miss: a
well-formed entry cannot be forged to turn a failing gate into a pass. A file whose
header, checksum or shape is wrong is a miss (CacheMiss), never an
error: a cache that someone else wrote, a torn write or an older format costs a
re-translation, nothing more.

JSON values are tagged where JSON has no type of its own: {"$b": base64} bytes,
{"$t": [...]} tuple, {"$f": [...]} frozenset, {"$v": "6.2.0"} Version, {"$e": [type,
value]} an enum member, {"$o": [type, [fields]]} a record, {"$d": [[k, v], ...]} a dict
whose keys are not all plain strings.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import hmac
import importlib
import json
from typing import Any

FORMAT = 3  # 2: the checksum is keyed; 3: FileInfo keeps the numeric type renames
MAGIC = b"hipport-cache"

# Every type a cache file may build: name -> (module, attribute). Nothing else is built.
_TYPES = {
    "Version": ("hipport.target", "Version"),
    "Mapping": ("hipport.tables.model", "Mapping"),
    "IncludeMapping": ("hipport.tables.model", "IncludeMapping"),
    "HipExt": ("hipport.tables.model", "HipExt"),
    "EarlierMapping": ("hipport.tables.model", "EarlierMapping"),
    "Release": ("hipport.target", "Release"),
    "Landscape": ("hipport.target", "Landscape"),
    "Status": ("hipport.tables", "Status"),
    "Severity": ("hipport.catalogue", "Severity"),
    "Edit": ("hipport.edits", "Edit"),
    "Finding": ("hipport.findings", "Finding"),
    "Location": ("hipport.findings", "Location"),
    "Use": ("hipport.findings", "Use"),
    "FileInfo": ("hipport.runner.outcome", "FileInfo"),
    "Entry": ("hipport.cache", "Entry"),
}
_resolved: dict[str, type] = {}


class CacheMiss(Exception):
    """The file is not a cache file of this format and kind, or does not hold what it
    should: treat as absent."""


def dumps(kind: str, payload: Any, raw: bool = False) -> bytes:
    """A cache file holding `payload` (`raw`: already plain JSON, as `encode` makes it)."""
    value = payload if raw else encode(payload)
    body = json.dumps(value, separators=(",", ":")).encode("ascii")
    digest = _checksum(body)
    return b"%s %d %s %s\n" % (MAGIC, FORMAT, kind.encode(), digest.encode()) + body


def _checksum(body: bytes) -> str:
    from hipport.cache_key import cache_key

    return hashlib.blake2b(body, digest_size=16, key=cache_key()).hexdigest()


def loads(kind: str, data: bytes, raw: bool = False) -> Any:
    """The payload of a cache file of this kind; CacheMiss for anything else. `raw`: the
    JSON value as it is, for a caller that decodes its own parts (the tables' rows)."""
    checksum, body = _header(kind, data)
    if not hmac.compare_digest(_checksum(body).encode(), checksum):
        raise CacheMiss("checksum mismatch (a torn or edited file)")
    try:
        return json.loads(body) if raw else json.loads(body, object_hook=_tagged)
    except CacheMiss:
        raise
    except Exception as exc:  # the CLI's last line of defence
        raise CacheMiss(f"malformed: {type(exc).__name__}: {exc}") from None


def _header(kind: str, data: bytes) -> tuple[bytes, bytes]:
    """(the header's checksum field, the body) of a cache file of this kind and format;
    CacheMiss for anything else."""
    header, sep, body = data.partition(b"\n")
    fields = header.split(b" ")
    if not sep or len(fields) != 4 or fields[0] != MAGIC:
        raise CacheMiss("not a hipport cache file")
    if fields[1] != str(FORMAT).encode() or fields[2] != kind.encode():
        raise CacheMiss("another format or kind")
    return fields[3], body


def dumps_parts(kind: str, parts: list[Any]) -> bytes:
    """A cache file of several plain-JSON parts, one a line, each with its own checksum
    (the header's fourth field lists them, comma-separated), so a reader that needs only
    the first part neither parses nor hashes the rest (the project index: its names are
    read on every run, its per-file lines only when a file's names changed)."""
    bodies = [json.dumps(p, separators=(",", ":")).encode("ascii") for p in parts]
    digests = ",".join(_checksum(b) for b in bodies).encode()
    return b"%s %d %s %s\n" % (MAGIC, FORMAT, kind.encode(), digests) + b"\n".join(bodies)


def loads_part(kind: str, data: bytes, index: int, count: int) -> Any:
    """Part `index` (of `count`) of a file dumps_parts wrote, as plain JSON; CacheMiss for
    anything else (another kind or format, another number of parts, a wrong checksum).
    JSON text written with ensure_ascii holds no raw newline, so lines are parts."""
    checksums, body = _header(kind, data)
    digests = checksums.split(b",")
    if len(digests) != count:
        raise CacheMiss("another number of parts")
    lines = body.split(b"\n", index + 1)
    if len(lines) <= index:
        raise CacheMiss("a part is missing (a torn file)")
    line = lines[index]
    if not hmac.compare_digest(_checksum(line).encode(), digests[index]):
        raise CacheMiss("checksum mismatch (a torn or edited file)")
    try:
        return json.loads(line)
    except Exception as exc:  # the CLI's last line of defence
        raise CacheMiss(f"malformed: {type(exc).__name__}: {exc}") from None


def encode(value: Any) -> Any:
    """Plain JSON for `value`, with the tags above."""
    if value is None or isinstance(value, bool | int | float | str):
        if isinstance(value, enum.Enum):
            return {"$e": [type(value).__name__, value.value]}
        return value
    if isinstance(value, bytes):
        return {"$b": base64.b64encode(value).decode("ascii")}
    if isinstance(value, list):
        return [encode(v) for v in value]
    name = type(value).__name__
    if name == "Version" and name in _TYPES:
        return {"$v": str(value)}
    if isinstance(value, enum.Enum):
        return {"$e": [name, value.value]}
    if name in _TYPES:
        if dataclasses.is_dataclass(value):
            fields = [getattr(value, f.name) for f in dataclasses.fields(value)]
        else:  # a NamedTuple
            fields = list(value)
        return {"$o": [name, [encode(v) for v in fields]]}
    if isinstance(value, tuple):
        return {"$t": [encode(v) for v in value]}
    if isinstance(value, frozenset | set):
        return {"$f": sorted((encode(v) for v in value), key=json.dumps)}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"$d": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(f"cannot store a {name} in the cache")


def decode(value: Any) -> Any:
    """A parsed JSON value with its tags decoded, by walking it (loads lets the parser do
    the walk: `_tagged` as its object hook)."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    return _tagged({k: decode(v) for k, v in value.items()})


def _tagged(value: dict) -> Any:
    """One JSON object with its tag decoded (its contents are, already): json.loads's
    object hook, which the parser calls for every object, inner ones first, so plain lists
    and strings are never walked again in Python (a warm check that decodes a whole tree's
    results: about twice as fast as walking the parsed value)."""
    if len(value) != 1:
        return value
    ((tag, inner),) = value.items()
    if tag == "$o":
        name, fields = inner
        return type_named(name)(*fields)
    if tag == "$t":
        return tuple(inner)
    if tag == "$e":
        name, member = inner
        return type_named(name)(member)
    if tag == "$v":
        return version(inner)
    if tag == "$f":
        return frozenset(inner)
    if tag == "$b":
        return base64.b64decode(inner, validate=True)
    if tag == "$d":
        return {k: v for k, v in inner}
    return value


def type_named(name: str) -> type:
    """One of the allowed types; CacheMiss for any other name."""
    found = _resolved.get(name)
    if found is None:
        if name not in _TYPES:
            raise CacheMiss(f"type {name!r} is not one a cache file may hold")
        module, attribute = _TYPES[name]
        found = _resolved[name] = getattr(importlib.import_module(module), attribute)
    return found


_VERSIONS: dict[str, Any] = {}


def version(text: str) -> Any:
    """A Version, one object per distinct text (tables repeat a few dozen thousands of times)."""
    found = _VERSIONS.get(text)
    if found is None:
        found = _VERSIONS[text] = type_named("Version").parse(text)
    return found


def shape(value: Any, expected: type | tuple[type, ...], what: str) -> Any:
    """`value` if it is of the expected type, else CacheMiss (a well-formed file of the
    wrong shape: written by another version, or by hand)."""
    if not isinstance(value, expected):
        raise CacheMiss(f"{what}: expected {expected}, found {type(value).__name__}")
    return value
