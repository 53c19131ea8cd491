"""`hipport cache`: where the result cache is, how much it holds, and emptying it."""

from __future__ import annotations

import os
from pathlib import Path

import click


def _cache_dir_option(func):
    return click.option(
        "--cache-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="The cache directory (default: HIPPORT_CACHE_DIR, else the user cache directory).",
    )(func)


def _directory(cache_dir: Path | None) -> Path:
    from hipport.cache import cache_dir as default

    return Path(os.path.abspath(cache_dir)) if cache_dir is not None else default()


@click.group()
def cache() -> None:
    """The result cache: per-file results keyed by content, options and tables, so an
    unchanged file is not parsed again. It is capped at 256 MB (HIPPORT_CACHE_MAX_MB; 0: no
    cap): after a run, the least recently used entries go first."""


@cache.command()
@_cache_dir_option
def info(cache_dir: Path | None) -> None:
    """Print the cache directory, its files and size, and the cap."""
    from hipport.cache_admin import max_bytes, usage

    directory = _directory(cache_dir)
    u = usage(directory)
    cap = max_bytes()
    click.echo(f"cache directory  {directory}")
    click.echo(f"holds            {u.files} files, {u.bytes / 1e6:.1f} MB")
    click.echo(f"cap              {f'{cap >> 20} MB' if cap else 'none'}")


@cache.command()
@_cache_dir_option
def clean(cache_dir: Path | None) -> None:
    """Remove everything hipport cached (results, stat indexes, run summaries). Only
    hipport's own format directories (v1, v2, ...) are removed from the directory."""
    from hipport.cache_admin import clean as remove

    directory = _directory(cache_dir)
    removed = remove(directory)
    click.echo(
        f"hipport: removed {removed.files} files ({removed.bytes / 1e6:.1f} MB) from {directory}"
    )
