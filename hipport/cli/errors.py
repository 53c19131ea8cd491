"""The one error handler of the `hipport` command, and its exit codes (as ruff's):

    0    clean: nothing at or above --fail-on
    1    findings at or above --fail-on, pending changes with --diff, a file that could
         not be written or processed
    2    usage error (bad option, path or configuration) or internal error
    130  interrupted (Ctrl-C, SIGINT): files are either as they were or fully written

Every subcommand runs under `guarded` (hipport.cli.LazyGroup.invoke applies it), so the
same failure gives the same code in every command.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import click

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a Ctrl-C


def guarded(run: Callable[[], Any]) -> Any:
    """Call `run` (a command: it returns its exit code); turn what escapes it into a
    message and the exit code of the table, returned to hipport.cli's main."""
    try:
        return run()
    except (click.exceptions.Exit, click.ClickException, click.Abort):
        raise  # click's own: usage errors exit 2, --help and --version 0
    except KeyboardInterrupt:
        return _fail(
            "interrupted; every file is either as it was or fully written", EXIT_INTERRUPTED
        )
    except BrokenPipeError:  # `| head`: the reader has gone; nothing left to tell it
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    except Exception as exc:  # the CLI's last line of defence
        if _is_input_error(exc):  # the user's input (configuration, baseline), not a bug
            return _fail(f"error: {exc}", EXIT_ERROR)
        if isinstance(exc, OSError) and exc.filename is not None:
            # a file the user named that cannot be read or written (disk full, refused)
            name = os.fsdecode(exc.filename)
            return _fail(f"error: {name}: {exc.strerror or exc}", EXIT_ERROR)
        if os.environ.get("HIPPORT_DEBUG"):
            raise
        return _fail(
            f"error: {exc} (internal error: {type(exc).__name__}; "
            "set HIPPORT_DEBUG=1 for the traceback)",
            EXIT_ERROR,
        )


def _is_input_error(exc: Exception) -> bool:
    from hipport.baseline import BaselineError
    from hipport.config import ConfigError
    from hipport.fsio import WouldOverwriteInput
    from hipport.policy import PolicyError
    from hipport.project import EmptyRun
    from hipport.runner.compile_db import CompileDbError

    return isinstance(
        exc,
        ConfigError | BaselineError | EmptyRun | PolicyError | CompileDbError | WouldOverwriteInput,
    )


def _fail(message: str, code: int) -> int:
    click.echo(f"hipport: {message}", err=True)
    return code
