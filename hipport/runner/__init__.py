"""Many files: a run over a tree, the cache, a process pool, writing the outputs.

`run_paths` is what the CLI's translate and check commands call; it returns a RunSummary
that the renderers read. Nothing here knows about tokens; nothing below it knows about
files; which findings count is hipport.policy's job. One module per job:

  run.py            run_paths, in four phases: discover (reads only), plan (work items,
                    cache hits), execute (the per-file pipeline), finalize (project-wide
                    filters, the summary); GivenSource (stdin) takes them too
  options.py        RunOptions and GivenSource
  discovery.py      the first phase: the files of the run (reads only)
  memo.py           check's run summary: what a run over an unchanged tree printed
  outcome.py        FileOutcome and its result handle (InMemory, or Stored: cached or
                    spilled), FileKind, FileStatus, RunSummary, the minimum ROCm
  pool.py           the per-file pipeline (process: read or take the given bytes,
                    translate) and the worker pool: WorkItem in, WorkResult out
  wire.py           pickling the pool's messages and results fast (by constructor)
  spill.py          --no-cache: results packed by the worker, kept on disk, loaded lazily
  cached.py         the run's side of the result cache (keys, store, lazy loads)
  report_part.py    what the report reads of a cached result (findings, counted uses)
  compile_db.py     compile_commands.json
  per_path.py       per-file engine options (per-path-ignore)
  project_names.py  names the project defines (this run and the cached project index)
  renames.py        --rename-suffix: new names, followed by includes and build files
  writeback.py      writing outputs (-o DIR, --in-place), atomically
  progress.py       whether to draw progress
"""

from __future__ import annotations

import importlib
from typing import Any

# name -> module: imported on first use, so a warm check answered from its run summary
# (memo.py) never imports the engine
_EXPORTS = {
    "FileInfo": "outcome",
    "FileKind": "outcome",
    "FileOutcome": "outcome",
    "FileStatus": "outcome",
    "GivenSource": "options",
    "RunOptions": "options",
    "RunSummary": "outcome",
    "progress_wanted": "progress",
    "run_paths": "run",
    "safe_join": "writeback",
    "write_outputs": "writeback",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hipport.runner' has no attribute {name!r}")
    return getattr(importlib.import_module(f"hipport.runner.{module}"), name)


__all__ = [
    "FileInfo",
    "FileKind",
    "FileOutcome",
    "FileStatus",
    "GivenSource",
    "RunOptions",
    "RunSummary",
    "progress_wanted",
    "run_paths",
    "safe_join",
    "write_outputs",
]
