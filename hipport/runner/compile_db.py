"""compile_commands.json: the include paths, macros and language standard of each file."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from hipport.fsio import read_regular

# flags whose value is the next argument; of these, the paths are made absolute
_FLAGS_WITH_VALUE = ("-I", "-D", "-U", "-isystem", "-include")
_VALUE_NOT_A_PATH = ("-D", "-U")

CompileArgs = dict[str, tuple[str, ...]]  # real path of a file -> its kept arguments


def load_compile_commands(directory: Path | None) -> CompileArgs:
    """compile_commands.json (a file, or the directory holding it): per file, the
    -I/-D/-U/-std/-isystem/-include arguments. Raises ValueError when it cannot be read."""
    if directory is None:
        return {}
    path = directory / "compile_commands.json" if directory.is_dir() else directory
    try:
        entries = json.loads(read_regular(path).decode("utf-8"))  # a FIFO: an error, no hang
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read compilation database {path}: {exc}") from None
    out: CompileArgs = {}
    for entry in entries:
        args = entry.get("arguments") or shlex.split(entry.get("command", ""))
        wd = entry.get("directory", ".")
        out[os.path.realpath(os.path.join(wd, entry["file"]))] = _kept_arguments(args[1:], wd)
    return out


def _kept_arguments(args: list[str], wd: str) -> tuple[str, ...]:
    """The arguments that change how a file lexes, with paths made absolute."""
    keep: list[str] = []
    it = iter(args)
    for arg in it:
        if arg in _FLAGS_WITH_VALUE:
            value = next(it, "")
            keep.extend([arg, value if arg in _VALUE_NOT_A_PATH else _abs(value, wd)])
        elif arg.startswith(("-I", "-isystem")):
            flag = "-I" if arg.startswith("-I") else "-isystem"
            keep.append(flag + _abs(arg[len(flag) :], wd))
        elif arg.startswith(("-D", "-U", "-std=")):
            keep.append(arg)
    return tuple(keep)


def _abs(path: str, wd: str) -> str:
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(wd, path))
