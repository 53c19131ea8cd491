"""compile_commands.json: the include paths, macros and language standard of each file."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

from hipport.fsio import read_regular

# flags whose value is the next argument; of these, the paths are made absolute
_FLAGS_WITH_VALUE = ("-I", "-D", "-U", "-isystem", "-include")
_VALUE_NOT_A_PATH = ("-D", "-U")


class CompileDbError(ValueError):
    """compile_commands.json cannot be read or has the wrong shape: a usage error."""


CompileArgs = dict[str, tuple[str, ...]]  # real path of a file -> its kept arguments


def load_compile_commands(directory: Path | None, root: Path | None = None) -> CompileArgs:
    """compile_commands.json (a file, or the directory holding it): per file, the
    -I/-D/-U/-std/-isystem/-include arguments. Raises CompileDbError, naming the file, when it
    cannot be read or is not a list of {"file", "directory"?, "arguments" | "command"}.

    The database is the repository's (a configuration can name it), so it is not trusted
    to read files outside the tree: a `-include` of a file outside `root` (or outside the
    database's directory, without a root) is dropped with a note; its text would otherwise
    reach the report through the semantic pass's messages."""
    if directory is None:
        return {}
    path = directory / "compile_commands.json" if directory.is_dir() else directory
    try:
        entries = json.loads(read_regular(path).decode("utf-8"))  # a FIFO: an error, no hang
    except (OSError, ValueError, RecursionError) as exc:
        raise CompileDbError(f"cannot read compilation database {path}: {exc}") from None
    if not isinstance(entries, list):
        raise CompileDbError(f"compilation database {path}: not a list of entries")
    allowed = os.path.realpath(root if root is not None else path.parent)
    out: CompileArgs = {}
    for n, entry in enumerate(entries):
        try:
            file, args, wd = _entry_shape(entry)
        except ValueError as exc:
            raise CompileDbError(f"compilation database {path}: entry {n}: {exc}") from None
        kept = _kept_arguments(args[1:], wd, allowed, path)
        out[os.path.realpath(os.path.join(wd, file))] = kept
    return out


def _entry_shape(entry: object) -> tuple[str, list[str], str]:
    """(file, arguments, directory) of one entry, or ValueError saying what is wrong."""
    if not isinstance(entry, dict):
        raise ValueError("not an object")
    file, wd = entry.get("file"), entry.get("directory", ".")
    if not isinstance(file, str) or not isinstance(wd, str):
        raise ValueError('"file" and "directory" must be strings')
    args = entry.get("arguments")
    if args is None:
        command = entry.get("command", "")
        if not isinstance(command, str):
            raise ValueError('"command" must be a string')
        args = shlex.split(command)  # ValueError on an unclosed quote
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ValueError('"arguments" must be a list of strings')
    if "\0" in file or "\0" in wd or any("\0" in a for a in args):
        raise ValueError("a NUL character in a path or argument")
    return file, args, wd


def _kept_arguments(
    args: list[str], wd: str, allowed: str = "/", database: Path | None = None
) -> tuple[str, ...]:
    """The arguments that change how a file lexes, with paths made absolute; a -include of
    a file outside `allowed` is dropped."""
    keep: list[str] = []
    it = iter(args)
    for arg in it:
        if arg in _FLAGS_WITH_VALUE:
            value = next(it, "")
            value = value if arg in _VALUE_NOT_A_PATH else _abs(value, wd)
            if arg == "-include" and not _inside(value, allowed):
                print(
                    f"hipport: note: {database}: -include {value} ignored: it is outside {allowed}",
                    file=sys.stderr,
                )
                continue
            keep.extend([arg, value])
        elif arg.startswith(("-I", "-isystem")):
            flag = "-I" if arg.startswith("-I") else "-isystem"
            keep.append(flag + _abs(arg[len(flag) :], wd))
        elif arg.startswith(("-D", "-U", "-std=")):
            keep.append(arg)
    return tuple(keep)


def _inside(path: str, directory: str) -> bool:
    real = os.path.realpath(path)
    return real == directory or real.startswith(directory.rstrip(os.sep) + os.sep)


def _abs(path: str, wd: str) -> str:
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(wd, path))
