"""A gate that cannot pass by accident (issue 16 item 3): a run that finds no source at all
says so and exits 2 unless --allow-empty (a source found but skipped or unreadable counts as
found: it is a finding); a file named on the command line is checked even when the
configuration excludes it, unless --force-exclude (which the pre-commit hooks pass)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.reliability_support import ROOT, cuda_file, hipport

UNPORTED = b"#include <cuda_runtime.h>\nint main() { cudaInitDevice(0, 0, 0); return 0; }\n"


def _run(args: list, tmp_path: Path):
    return hipport([*args, "--no-progress"], tmp_path / "cache")


@pytest.mark.slow
def test_empty_tree_is_a_usage_error(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "README.md").write_text("no sources here\n")
    for command in (["check", tree], ["translate", tree, "-o", tmp_path / "out"]):
        proc = _run(command, tmp_path)
        assert proc.returncode == 2, (command, proc.stderr)
        assert b"no source file found" in proc.stderr
        assert b"--allow-empty" in proc.stderr
        proc = _run([*command, "--allow-empty"], tmp_path)
        assert proc.returncode == 0, (command, proc.stderr)


@pytest.mark.slow
def test_everything_excluded_is_empty(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(UNPORTED)
    proc = _run(["check", tree, "--exclude", "*.cu"], tmp_path)
    assert proc.returncode == 2 and b"no source file found" in proc.stderr


@pytest.mark.slow
def test_a_skipped_source_counts_as_found(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "bin.cu").write_bytes(b"cudaMalloc(\0);\n")
    proc = _run(["check", tree, "--format", "json"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert [f["code"] for f in json.loads(proc.stdout)["findings"]] == ["HIP203"]


def _excluding_project(tmp_path: Path) -> Path:
    tree = tmp_path / "p"
    (tree / "gen").mkdir(parents=True)
    (tree / "gen" / "init.cu").write_bytes(UNPORTED)
    (tree / "ok.cu").write_bytes(cuda_file())
    (tree / ".hipport.toml").write_text('exclude = ["gen/**"]\n')
    return tree


@pytest.mark.slow
def test_named_file_is_checked_although_the_config_excludes_it(tmp_path: Path) -> None:
    tree = _excluding_project(tmp_path)
    proc = _run(["check", tree / "gen" / "init.cu", "--format", "json"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert [f["code"] for f in json.loads(proc.stdout)["findings"]] == ["HIP001"]
    # a walked directory still honours the exclusion
    proc = _run(["check", tree, "--format", "json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [f["path"] for f in json.loads(proc.stdout)["files"]] == ["ok.cu"]


@pytest.mark.slow
def test_force_exclude_applies_the_config_to_named_files(tmp_path: Path) -> None:
    tree = _excluding_project(tmp_path)
    named = [tree / "gen" / "init.cu", tree / "ok.cu"]
    proc = _run(["check", *named, "--force-exclude", "--format", "json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [f["path"] for f in json.loads(proc.stdout)["files"]] == ["ok.cu"]
    # only excluded files named: empty, which the hook accepts with --allow-empty
    proc = _run(["check", tree / "gen" / "init.cu", "--force-exclude"], tmp_path)
    assert proc.returncode == 2 and b"no source file found" in proc.stderr
    proc = _run(["check", named[0], "--force-exclude", "--allow-empty"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = _run(["translate", named[0], "--in-place", "--force-exclude"], tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert named[0].read_bytes() == UNPORTED


def test_hooks_pass_force_exclude_and_allow_empty() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    # the hooks that pre-commit hands staged files to (the shim check sees the whole tree)
    file_hooks = [h for h in hooks if h.get("pass_filenames", True)]
    assert {h["id"] for h in file_hooks} == {"hipport-check", "hipport-translate"}
    for hook in file_hooks:
        args = hook["entry"].split()
        assert "--force-exclude" in args and "--allow-empty" in args, hook["id"]
