"""The unified diff of one file's translation (`translate --diff`), as git writes it."""

from __future__ import annotations

import difflib


def unified_diff(source: bytes, output: bytes, old_name: str, new_name: str) -> bytes:
    """A git-style diff of one file (bytes, as the file's own encoding): `patch -p1` and
    `git apply` recreate the translated file from it, renames included."""
    header = f"diff --git a/{old_name} b/{new_name}\n".encode()
    if old_name != new_name:
        if source == output:
            header += b"similarity index 100%\n"
        header += f"rename from {old_name}\nrename to {new_name}\n".encode()
    if source == output:
        return header if old_name != new_name else b""
    old, new = _diff_lines(source), _diff_lines(output)
    body = list(
        difflib.diff_bytes(
            difflib.unified_diff,
            old,
            new,
            f"a/{old_name}".encode(),
            f"b/{new_name}".encode(),
            lineterm=b"",
        )
    )
    out = bytearray(header)
    for i, line in enumerate(body):
        if i < 2 or line.startswith(b"@@"):  # the ---/+++ lines, hunk headers
            out += line + b"\n"
        elif line.endswith(b"\n"):
            out += line
        else:  # the last line of a file without a final newline
            out += line + b"\n\\ No newline at end of file\n"
    return bytes(out)


def _diff_lines(data: bytes) -> list[bytes]:
    """Lines split at \\n only (a lone \\r or a form feed stays inside its line, as
    patch sees it)."""
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out
