"""`hipport verify`: translate, then compile the output with a HIP compiler."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from hipport.cli.translate import common_options, run_options

if TYPE_CHECKING:
    from hipport.target import Version


@click.command()
@click.argument("path", type=click.Path(exists=True, path_type=Path), default=".")
@click.option(
    "--hip-compiler",
    metavar="CMD",
    help="HIP compiler command (default: $HIPCC, hipcc, or clang++ with -x hip).",
)
@click.option(
    "--offload-arch",
    default="gfx90a",
    show_default=True,
    help="AMD GPU target to compile for (syntax only: no GPU needed).",
)
@click.option(
    "--hip-version",
    metavar="X.Y",
    help="HIP version to tell the compiler (default: read from hip_version.h).",
)
@click.option(
    "--translated",
    is_flag=True,
    help="PATH is already HIP: compile it as it is, without translating.",
)
@click.option(
    "-I",
    "include_dirs",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Extra include directory (repeatable). One inside PATH is read in the translated "
    "tree (its translated headers), not in the CUDA originals.",
)
@common_options
def verify(
    path: Path,
    hip_compiler: str | None,
    offload_arch: str,
    hip_version: str | None,
    translated: bool,
    include_dirs: tuple[Path, ...],
    progress: bool | None,
    **values: Any,
) -> int:
    """Translate PATH (a file or a tree) into a temporary directory and compile every
    translation unit with the HIP compiler in syntax-only mode, against the translated
    tree's headers; list the files that fail, with the compiler's first error. Warns when
    the compiler's HIP is older than the target ROCm (--rocm, default the newest): names
    the target has and that HIP lacks then fail here. Exit 1 if any file fails, 2 if no
    compiler is found."""
    from hipport.cli.options import load_config_for, target_from
    from hipport.cli.progress import progress_bar
    from hipport.mappings import load_mappings
    from hipport.runner import run_paths, write_outputs
    from hipport.verify import compile_many, find_compiler, translated_dirs, translation_units
    from hipport.verify import hip_version as detect

    compiler = find_compiler(hip_compiler)
    if compiler is None:
        click.echo(
            "hipport: error: no HIP compiler found (install hipcc or pass --hip-compiler)", err=True
        )
        return 2
    version = hip_version or detect()
    with tempfile.TemporaryDirectory(prefix="hipport-verify-") as tmp:
        if translated:
            root = path if path.is_dir() else path.parent
            units = translation_units(path) if path.is_dir() else [path]
            if values.get("rocm"):
                _warn_older(version, target_from(values).rocm)
        else:
            config = load_config_for([path])
            opts = run_options(values, config)
            opts.with_other = True
            with progress_bar(progress, "translating") as update:
                summary = run_paths([path], config, opts, on_progress=update)
            root = Path(tmp)
            write_outputs(summary, "outdir", root)
            units = translation_units(root)
            mapped = translated_dirs(include_dirs, summary.base, root)
            for given, used in zip(include_dirs, mapped, strict=True):
                if given == used:
                    click.echo(
                        f"hipport verify: note: -I {given} is outside {path}: its headers "
                        "are compiled as they are, untranslated",
                        err=True,
                    )
            include_dirs = tuple(mapped)
            _warn_older(version, opts.target.rocm or load_mappings().tables.newest_rocm)
        results = compile_many(
            compiler, units, offload_arch, include_dirs, version, values.get("jobs") or 0
        )
    failed = [r for r in results if not r.ok]
    for r in failed:
        rel = r.path.relative_to(root) if r.path.is_relative_to(root) else r.path
        first = (r.first_error or "").replace(str(root) + "/", "")
        click.echo(f"{rel}: {first}")
    click.echo(
        f"hipport verify: {len(results)} translation units, "
        f"{len(results) - len(failed)} compile, {len(failed)} fail "
        f"({' '.join(compiler)} --offload-arch={offload_arch}"
        f"{', HIP ' + version if version else ''})",
        err=True,
    )
    return 1 if failed else 0


def _warn_older(compiler_hip: str | None, target: Version) -> None:
    """Say so when the compiler's HIP release is older than the target's (a name the target
    has and the compiler's HIP lacks fails to compile here, not on the target)."""
    from hipport.target import Version

    if compiler_hip is None:
        return
    found = Version.parse(compiler_hip)
    if found.parts[:2] < target.parts[:2]:
        click.echo(
            f"hipport verify: warning: the compiler's HIP is {compiler_hip}, older than the "
            f"target ROCm {target}: what {target} has and {compiler_hip} lacks fails here "
            f"(pass --rocm {compiler_hip} to translate for this compiler)",
            err=True,
        )
