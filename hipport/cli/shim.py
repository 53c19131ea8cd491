"""`hipport shim`: write (or check) the compatibility layer that builds unchanged CUDA
sources as HIP. The scan is `hipport check`'s own run, target and policy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from hipport.cli.check import _load_config
from hipport.cli.gate import policy_options
from hipport.cli.translate import common_options, run_options


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    "outdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write the shim to DIR (put DIR first on the include path of the HIP build).",
)
@click.option(
    "--check",
    "check_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write nothing: exit 0 when DIR is exactly what -o DIR would write, 1 when stale.",
)
@click.option("--cmake", is_flag=True, help="Also write hipport-shim.cmake.")
@click.option("--report", is_flag=True, help="Print the same report as `hipport check`.")
@policy_options("Baseline file, as for `hipport check`.")
@common_options
def shim(
    paths: tuple[Path, ...],
    outdir: Path | None,
    check_dir: Path | None,
    cmake: bool,
    report: bool,
    baseline_file: Path | None,
    no_baseline: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    **values: Any,
) -> int:
    """Generate a shim for the CUDA sources under PATHS: one forwarding header per CUDA
    header they include and one mapping header (hipport_shim.h) with exactly the names they
    use, version-guarded for every ROCm up to the target. A name the compiled-against HIP
    lacks is a compile error at its point of use. nvcc's version macros the sources test
    (CUDART_VERSION, ...) get --cuda's values (without --cuda, those of the newest release
    mappings/nvcc_macro_samples.tsv samples), as translate reads them (HIP113), unless a
    version test translate leaves would then take a CUDA-only arm. Exit 1 when `hipport
    check` reports an error a header cannot fix (device-side launches, PTX, ...), 0
    otherwise; with --check, exit 1 when DIR is stale."""
    from hipport.cli.gate import load_baseline, selection
    from hipport.cli.progress import progress_bar
    from hipport.shim.build import ShimRequest, generate

    if (outdir is None) == (check_dir is None):
        raise click.UsageError("give exactly one of -o DIR or --check DIR")
    config = _load_config(paths)
    opts = run_options(values, config)
    opts.exclude = [*(opts.exclude or []), *_own_output(paths, outdir or check_dir)]
    policy = (selection(config, select, ignore), load_baseline(baseline_file, no_baseline, config))
    with progress_bar(values.get("progress"), "reading sources") as update:
        result = generate(ShimRequest(list(paths), config, opts, cmake, *policy, update))
    if check_dir is not None:
        from hipport.shim import stale_files

        stale = stale_files(check_dir, result.files)
        for rel in stale:
            click.echo(f"hipport: shim is stale: {check_dir / rel}", err=True)
        if not stale:
            click.echo(
                f"hipport: shim {check_dir} is current ({len(result.files)} files)", err=True
            )
        return 1 if stale else 0
    from hipport.shim import write_shim

    written = write_shim(outdir, result.files)
    click.echo(
        f"hipport: shim {outdir}: {len(result.files)} files ({len(written)} written), "
        f"{result.names} names, {result.headers} headers, target ROCm {result.target_rocm}",
        err=True,
    )
    if report:
        result.print_report()
    return result.exit_code


def _own_output(paths: tuple[Path, ...], shim_dir: Path) -> list[str]:
    """The shim's own directory when it lies in the scanned tree, as an exclude pattern:
    its forwarding headers (cuda_runtime.h, ...) are not the project's (read as the
    project's, the next run dropped them and --check always failed)."""
    import os

    from hipport.project import common_base

    base = os.path.realpath(common_base(list(paths)))
    out = os.path.realpath(shim_dir)
    if out == base or not out.startswith(base.rstrip(os.sep) + os.sep):
        return []
    return ["/" + Path(os.path.relpath(out, base)).as_posix() + "/"]
