"""The unified diff of one file's translation (`translate --diff`), as git writes it."""

from __future__ import annotations

import difflib
import os


def unified_diff(source: bytes, output: bytes, old_name: str, new_name: str) -> bytes:
    """A git-style diff of one file (bytes, as the file's own encoding): `patch -p1` and
    `git apply` recreate the translated file from it, renames included. Names are quoted as
    git quotes them (C-style, in double quotes, for control characters, `"`, `\\` and bytes
    that are not ASCII), and a ---/+++ line whose name holds a space ends in a tab, as
    git's do, so that patch knows where the name ends."""
    old, new = os.fsencode(old_name), os.fsencode(new_name)
    a, b = git_quote(b"a/" + old), git_quote(b"b/" + new)
    header = b"diff --git " + a + b" " + b + b"\n"
    if old_name != new_name:
        if source == output:
            header += b"similarity index 100%\n"
        header += b"rename from " + git_quote(old) + b"\nrename to " + git_quote(new) + b"\n"
    if source == output:
        return header if old_name != new_name else b""
    body = list(
        difflib.diff_bytes(
            difflib.unified_diff, _diff_lines(source), _diff_lines(output), a, b, lineterm=b""
        )
    )
    out = bytearray(header)
    tabs = (b"\t" if b" " in old else b"", b"\t" if b" " in new else b"")
    for i, line in enumerate(body):
        if i < 2:  # the ---/+++ lines
            out += line + tabs[i] + b"\n"
        elif line.startswith(b"@@"):  # hunk headers
            out += line + b"\n"
        elif line.endswith(b"\n"):
            out += line
        else:  # the last line of a file without a final newline
            out += line + b"\n\\ No newline at end of file\n"
    return bytes(out)


_C_ESCAPES = {7: b"a", 8: b"b", 9: b"t", 10: b"n", 11: b"v", 12: b"f", 13: b"r"}


def git_quote(name: bytes) -> bytes:
    """`name` as git writes a path (core.quotePath, its default): unchanged unless it holds a
    control character, `"`, `\\` or a byte >= 0x80; then in double quotes, with `\\t`-style
    escapes for the usual controls, `\\"`, `\\\\`, and three-digit octal for other bytes."""
    if all(0x20 <= c < 0x7F and c not in (0x22, 0x5C) for c in name):
        return name
    out = bytearray(b'"')
    for c in name:
        if c in (0x22, 0x5C):
            out += b"\\" + bytes([c])
        elif c in _C_ESCAPES:
            out += b"\\" + _C_ESCAPES[c]
        elif c < 0x20 or c >= 0x7F:
            out += b"\\%03o" % c
        else:
            out.append(c)
    return bytes(out + b'"')


def _diff_lines(data: bytes) -> list[bytes]:
    """Lines split at \\n only (a lone \\r or a form feed stays inside its line, as
    patch sees it)."""
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out
