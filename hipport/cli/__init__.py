"""The `hipport` command. Each subcommand lives in its own module and is imported only when
it runs, so `hipport --help` does not pay for libclang or the tables."""

from __future__ import annotations

import importlib

import click

# name -> (module, attribute, one-line help shown by `hipport --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "translate": ("hipport.cli.translate", "translate", "Rewrite CUDA sources to HIP."),
    "check": ("hipport.cli.check", "check", "Report what cannot be ported; the CI gate."),
    "baseline": ("hipport.cli.check", "baseline", "Record current findings to accept them."),
    "rule": ("hipport.cli.check", "rule", "Explain a rule code."),
    "tables": ("hipport.cli.tables", "tables", "Query the CUDA-to-HIP mapping tables."),
    "shim": ("hipport.cli.shim", "shim", "Generate a CUDA-to-HIP compatibility layer."),
    "verify": ("hipport.cli.verify", "verify", "Compile translated output with a HIP compiler."),
    "init": ("hipport.cli.init", "init", "Write a starter [tool.hipport] configuration."),
    "cache": ("hipport.cli.cache", "cache", "Show or empty the result cache."),
}


class SuggestingGroup(click.Group):
    """A group that answers a mistyped subcommand with the nearest ones ("did you mean")."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        known = self.list_commands(ctx)
        if name and name not in known and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
            hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            ctx.fail(f"No such command {name!r}.{hint} (--help lists them)")
        return super().resolve_command(ctx, args)


def _trim_cache() -> None:
    """The cache's size cap, kept after the command (hipport.cache_admin); only when a run
    used the cache, and never a reason to fail the command."""
    import sys

    if "hipport.cache_admin" not in sys.modules:
        return
    from hipport.cache import FORMAT
    from hipport.cache_admin import trim_if_used

    try:
        trim_if_used(f"v{FORMAT}")
    except OSError:
        pass


def _tune_collector() -> None:
    """The command's process runs without the cyclic collector: it makes hundreds of
    thousands of objects that live until it ends (the tables, the run's files, each
    file's findings) and almost no cycles (405 unreachable objects at the end of a warm
    check of the bench corpus), and the collector walked those objects 400 times there,
    a fifth of the CPU time. Reference counting still frees everything else at once. The
    pool's workers, which translate file after file, collect as usual
    (hipport.runner.pool._init_worker)."""
    import gc

    gc.disable()


class LazyGroup(SuggestingGroup):
    def invoke(self, ctx: click.Context) -> object:
        """Every subcommand under the one error handler (hipport.cli.errors); a command
        returns its exit code (None: 0), and this is the one place the process exits."""
        from hipport.cli.errors import guarded

        _tune_collector()
        code = guarded(lambda: super(LazyGroup, self).invoke(ctx))
        _trim_cache()
        ctx.exit(code if isinstance(code, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name, (module, _, _) in COMMANDS.items() if _exists(module))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _exists(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hipport", message="hipport %(version)s")
def main() -> None:
    """Port CUDA source code to AMD HIP/ROCm.

    hipport lexes every CUDA source with libclang (no CUDA install needed), renames CUDA API
    uses from versioned mapping tables for the ROCm release you target, and reports what it
    could not port. Exit codes: 0 clean, 1 findings (or pending changes with --diff),
    2 usage or internal error.
    """


import importlib.util  # noqa: E402  (after main so the module reads top-down)
