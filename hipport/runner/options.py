"""What a run needs besides the paths (RunOptions, built by the CLI from its options and
the configuration) and a source given by its bytes (GivenSource). Light to import: the
warm check that answers from its run summary (hipport.runner.memo) reads these and never
imports the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hipport.fsio import DEFAULT_MAX_FILE_SIZE
from hipport.project import SOURCE_SUFFIXES
from hipport.target import Target


@dataclass(frozen=True, slots=True)
class GivenSource:
    """A source given by its bytes, not read from disk (`check -`, standard input), and
    the path it stands for (absolute; it need not exist): it takes the run's one per-file
    pipeline as that file named on the command line would, never the cache."""

    path: Path
    data: bytes


@dataclass
class RunOptions:
    """Everything a run needs besides the paths; built by the CLI from options + config."""

    target: Target = field(default_factory=Target)
    jobs: int = 0  # 0: all cores
    use_cache: bool = True
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    suffixes: tuple[str, ...] = SOURCE_SUFFIXES
    semantic: bool = False
    cuda_path: str | None = None
    compile_commands: Path | None = None
    rename_suffix: dict[str, str] = field(default_factory=dict)  # ".cu" -> ".hip"
    with_other: bool = False  # also list files that are not sources (to copy them)
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    index_only_cached: bool = False  # pre-commit: do not walk the tree for the index
    # False: the command needs outputs and summary counts only (translate -o / --in-place
    # without --fail-on), so cached results are loaded only for outputs that are stale.
    need_results: bool = True
    # True (check): results are kept in the cache, not in memory; the report loads them one
    # at a time (a Stored FileOutcome.handle), so the parent never holds the whole tree's.
    stream_results: bool = False
    progress: bool | None = None  # None: on a terminal outside CI
    time_limit: float | None = None  # seconds per file (None: pool.DEFAULT_TIME_LIMIT)
    allow_empty: bool = False  # False: finding no source at all is an error (EmptyRun)
    force_exclude: bool = False  # True: the config's exclude applies to named files too
    defines: tuple[str, ...] = ()  # the project's macros: "-DNAME[=VALUE]", "-UNAME", in order
    # True (translate -o / --in-place): remove the temporary files of dead runs discovery
    # found. A run that writes nothing (check) deletes nothing: it only names them.
    clean_stale_temps: bool = False
    given: GivenSource | None = None  # the one source of the run, by content (stdin)
