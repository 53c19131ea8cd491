"""Many files: a run over a tree, the cache, a process pool, writing the outputs.

`run_paths` is what the CLI's translate and check commands call; it returns a RunSummary
that the renderers read. Nothing here knows about tokens; nothing below it knows about
files; which findings count is hipport.policy's job. One module per job:

  run.py            run_paths and RunOptions, in four phases: discover (reads only), plan
                    (work items, cache hits), execute (the per-file pipeline), finalize
                    (project-wide filters, the summary); GivenSource (stdin) takes them too
  outcome.py        FileOutcome, FileKind, FileStatus, RunSummary, the minimum ROCm
  pool.py           the per-file pipeline (process: read or take the given bytes,
                    translate) and the worker pool: WorkItem in, WorkResult out
  wire.py           pickling the pool's messages and results fast (by constructor)
  spill.py          --no-cache: results packed by the worker, kept on disk, loaded lazily
  cached.py         the run's side of the result cache (keys, store, lazy loads)
  compile_db.py     compile_commands.json
  per_path.py       the configuration's include/exclude, per-file engine options
  project_names.py  names the project defines (this run and the cached project index)
  renames.py        --rename-suffix: new names, followed by includes and build files
  writeback.py      writing outputs (-o DIR, --in-place), atomically
  progress.py       whether to draw progress
"""

from __future__ import annotations

from hipport.runner.outcome import FileInfo, FileKind, FileOutcome, FileStatus, RunSummary
from hipport.runner.progress import progress_wanted
from hipport.runner.run import GivenSource, RunOptions, run_paths
from hipport.runner.writeback import safe_join, write_outputs

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
