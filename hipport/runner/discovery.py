"""Discovery, the run's first phase: the files of the run after the configuration's
include/exclude. It reads the tree and changes nothing; light to import (no engine), so a
warm check can key its run summary (hipport.runner.memo) by what it finds."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hipport.config import Config
from hipport.fsio import note_inputs
from hipport.policy import matches_config
from hipport.project import Discovery, ProjectFile, discover, given_file
from hipport.runner.options import RunOptions


@dataclass
class Found:
    """What discovery found, after the configuration's include/exclude: `files` in the
    run's order, `work` the ones to translate (not OTHER)."""

    discovery: Discovery
    files: list[ProjectFile]
    work: list[ProjectFile]


def discover_files(paths: list[Path], config: Config, opts: RunOptions) -> Found:
    """The files of the run; reads the tree, changes nothing."""
    if opts.given is not None:
        discovery = given_file(opts.given.path, exclude=opts.exclude, suffixes=opts.suffixes)
    else:
        discovery = discover(
            paths,
            include=opts.include,
            exclude=opts.exclude,
            suffixes=opts.suffixes,
            with_other=opts.with_other,
        )
    files = apply_config_patterns(discovery.files, config, opts.with_other, opts.force_exclude)
    note_inputs(f.path for f in files)  # no report or output may replace one of them
    return Found(discovery, files, [f for f in files if f.kind != "other"])


def apply_config_patterns(
    files: list[ProjectFile], config: Config, with_other: bool, force_exclude: bool = False
) -> list[ProjectFile]:
    """`include`/`exclude` from the configuration (the command line's are applied by
    discovery, relative to the paths given). A source outside `include` is dropped, or kept
    as a file to copy when the run copies other files. A file named on the command line is
    checked although excluded, as ruff does, unless `force_exclude` (the pre-commit hooks
    pass --force-exclude)."""
    exclude = config.excluded
    include = list(config.get("include", []))
    if not exclude and not include:
        return files
    out = []
    for f in files:
        excluded = matches_config(f.path, f.relpath, exclude, config)
        if excluded and (force_exclude or not f.named):
            continue
        if include and f.kind != "other" and not matches_config(f.path, f.relpath, include, config):
            if not with_other:
                continue
            from hipport.runner.outcome import FileKind

            f = ProjectFile(f.path, f.relpath, FileKind.OTHER, f.named)
        out.append(f)
    return out
