"""The configuration's `per-path-ignore` entries (rule codes, or CUDA names to leave alone)
for the files they match: per-file engine options. (Its `include`/`exclude` apply at
discovery: hipport.runner.discovery.)"""

from __future__ import annotations

import os
from dataclasses import replace

from hipport.config import Config
from hipport.options import EngineOptions
from hipport.policy import is_rule_code, per_path_entries
from hipport.project import ProjectFile
from hipport.runner.compile_db import CompileArgs


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
