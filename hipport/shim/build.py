"""One shim generation: run the check pipeline over the paths, build the model from its
results, render the files, and judge the findings with the check's policy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hipport.shim.cmake import CMAKE_FILE, cmake_module
from hipport.shim.model import build_model
from hipport.shim.render import render

BASE_HEADER = "cuda_runtime.h"  # always shimmed: hipport-shim.cmake force-includes it


@dataclass
class ShimRequest:
    paths: list[Path]
    config: Any  # hipport.config.Config
    options: Any  # hipport.runner.RunOptions
    cmake: bool = False
    selection: Any = None  # hipport.policy.Selection: as check's --select/--ignore/severity
    baseline: Any = None  # hipport.baseline.Baseline or None
    on_progress: Any = None  # the runner's (done, total) callback (a progress bar) or None


@dataclass
class ShimResult:
    files: dict[str, bytes]
    names: int
    headers: int
    target_rocm: str
    report: Any  # hipport.report.model.Report
    exit_code: int  # check's verdict at --fail-on error: 1 when a header cannot fix it all

    def print_report(self) -> None:
        from hipport.report import render as render_report

        text = render_report(self.report, "text")
        print(text if isinstance(text, str) else text.decode("utf-8"), end="")


def generate(request: ShimRequest) -> ShimResult:
    from importlib.metadata import version

    from hipport.mappings import load_mappings
    from hipport.policy import exit_code
    from hipport.report.model import build_report
    from hipport.runner import run_paths

    opts = request.options
    opts.stream_results = False
    opts.need_results = True
    summary = run_paths(request.paths, request.config, opts, on_progress=request.on_progress)
    mappings = load_mappings()
    results = [f.handle.load() for f in summary.files if f.handle is not None]
    project = frozenset(name for f in summary.files for name in (f.relpath, Path(f.relpath).name))
    model = build_model(results, mappings, summary.target, project, always=(BASE_HEADER,))
    files = render(model, version("hipport"))
    if request.cmake:
        banner = files[next(iter(files))].split(b"\n", 2)
        files[CMAKE_FILE] = cmake_module(b"\n".join(banner[:2]).decode("utf-8") + "\n")
        files = dict(sorted(files.items()))
    report = build_report(
        summary,
        summary.target,
        root=str(request.config.root),
        selection=request.selection,
        baseline=request.baseline,
    )
    rocm = summary.target.rocm or mappings.tables.newest_rocm
    return ShimResult(
        files,
        len(model.names),
        len(model.headers),
        str(rocm),
        report,
        exit_code(report.findings, "error"),
    )
