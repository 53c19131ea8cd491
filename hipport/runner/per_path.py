"""The configuration's path patterns: `include`/`exclude`, and `per-path-ignore` entries
(rule codes, or CUDA names to leave alone) for the files they match."""

from __future__ import annotations

import os
from dataclasses import replace

from hipport.config import Config
from hipport.options import EngineOptions
from hipport.policy import is_rule_code, matches_config, per_path_entries
from hipport.project import ProjectFile
from hipport.runner.compile_db import CompileArgs
from hipport.runner.outcome import FileKind


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
        if (
            include
            and f.kind != FileKind.OTHER
            and not matches_config(f.path, f.relpath, include, config)
        ):
            if not with_other:
                continue
            f = ProjectFile(f.path, f.relpath, FileKind.OTHER, f.named)
        out.append(f)
    return out


def per_file_options(
    base: EngineOptions, f: ProjectFile, config: Config, compile_db: CompileArgs
) -> EngineOptions | None:
    """The worker's base options, unless a per-path-ignore entry turns CUDA names off for
    this file or the compilation database has arguments for it (None: the base options)."""
    disabled = {n for n in per_path_entries(f.path, f.relpath, config) if not is_rule_code(n)}
    args = compile_db.get(os.path.realpath(f.path), ()) if compile_db else ()
    if not disabled and not args:
        return None
    return replace(
        base,
        disabled_mappings=base.disabled_mappings | disabled,
        compile_args=args or base.compile_args,
    )
