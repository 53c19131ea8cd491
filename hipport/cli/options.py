"""Options shared by every command that aims at a target, and turning them into a Target."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from hipport.target import Target, Version


def _version(ctx: click.Context, param: click.Parameter, value: str | None) -> Version | None:
    if value is None:
        return None
    try:
        return Version.parse(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


TARGET_OPTIONS = [
    click.option(
        "--rocm",
        "rocm",
        metavar="VERSION",
        callback=_version,
        help="ROCm/HIP release to target (default: the newest production release in the "
        "tables; `hipport tables releases` lists them).",
    ),
    click.option(
        "--cuda",
        "cuda",
        metavar="VERSION",
        callback=_version,
        help="CUDA release the code is written for (flags APIs deprecated or removed by then, "
        "and mappings that do not hold for it; default: the newest in the tables).",
    ),
    click.option(
        "--experimental/--no-experimental",
        default=None,
        help="Apply mappings HIPIFY marks experimental.",
    ),
    click.option(
        "--roc/--no-roc",
        default=None,
        help="Map library calls to ROCm libraries (rocBLAS, rocSPARSE, MIOpen, ...) instead "
        "of the hip* wrappers, with their argument rewrites and roc* type names.",
    ),
    click.option(
        "--amd-ext/--no-amd-ext",
        "amd_ext",
        default=None,
        help="Offer AMD hipExt* alternatives for every API one can stand in for "
        "(applied only where one is a drop-in replacement).",
    ),
    click.option(
        "--launch-syntax",
        type=click.Choice(["cuda", "hip"]),
        default=None,
        help="Keep <<<...>>> launches (cuda, default) or rewrite them to hipLaunchKernelGGL (hip).",
    ),
    click.option(
        "--translate-strings/--no-translate-strings",
        default=None,
        help="Also rename whole-word API names inside string literals.",
    ),
]


def target_options(func: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(TARGET_OPTIONS):
        func = option(func)
    return func


def target_from(values: dict[str, Any], config: dict[str, Any] | None = None) -> Target:
    """Build a Target: command-line values win over configuration, which wins over defaults."""
    config = config or {}

    def pick(key: str, default: Any) -> Any:
        value = values.get(key)
        if value is None:
            value = config.get(key.replace("_", "-"), config.get(key))
        return default if value is None else value

    target = Target(
        rocm=pick("rocm", None),
        cuda=pick("cuda", None),
        experimental=bool(pick("experimental", False)),
        roc=bool(pick("roc", False)),
        amd_ext=bool(pick("amd_ext", False)),
        translate_strings=bool(pick("translate_strings", False)),
        launch_syntax=pick("launch_syntax", "cuda"),
    )
    warn_unknown_releases(target)
    return target


def warn_unknown_releases(target: Target) -> None:
    """A --rocm/--cuda (or configured) release the tables do not know: say so on stderr and
    go on (the lookup still compares versions)."""
    if target.rocm is None and target.cuda is None:
        return
    from hipport.tables import load_tables

    landscape = load_tables().landscape
    for product, version in (("rocm", target.rocm), ("cuda", target.cuda)):
        reason = version and landscape.unknown_reason(product, version)
        if reason:
            click.echo(f"hipport: warning: {reason}", err=True)


# --- which configuration: --config FILE / --isolated (as ruff's) -------------------------

_CONFIG_META = "hipport.config"


def _remember(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    ctx.meta.setdefault(_CONFIG_META, {})[param.name] = value
    return value


config_file_options = [
    click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        expose_value=False,
        callback=_remember,
        help="Read the settings from this .hipport.toml or pyproject.toml (its directory "
        "is the project root) instead of searching up from the paths.",
    ),
    click.option(
        "--isolated",
        is_flag=True,
        default=False,
        expose_value=False,
        callback=_remember,
        help="Ignore every configuration file.",
    ),
]


def load_config_for(paths: list[Path]) -> Any:
    """The configuration of a command's paths, as --config/--isolated say (usage error
    when it cannot be read)."""
    from hipport.config import ConfigError, load_config

    chosen = click.get_current_context().meta.get(_CONFIG_META, {})
    if chosen.get("config_file") is not None and chosen.get("isolated"):
        raise click.UsageError("--config and --isolated exclude each other")
    try:
        return load_config(paths, chosen.get("config_file"), bool(chosen.get("isolated")))
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
