"""Configuration as ruff's (issue 28): `select`, `ignore`, `extend-select`, `extend-exclude`
and `per-file-ignores` keys; the command line over the file; `--config PATH`,
`--isolated`, `--show-settings`; an unknown key names the nearest known ones."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import main

# Two findings of different rules on one line: HIP001 (no HIP counterpart) and, with the
# suppression, nothing else; plus an unknown CUDA-looking name (HIP004) on another line.
SOURCE = b"""#include <cuda_runtime.h>
int main() {
  cudaInitDevice(0, 0, 0);
  cudaFooBarBaz();
  return 0;
}
"""


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    for rel in ("src/a.cu", "lib/v.cu", "legacy/l.cu"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(SOURCE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / ".cache-dir"))
    return tmp_path


def _codes(tree: Path, *args: str) -> list[tuple[str, str]]:
    result = CliRunner().invoke(
        main, ["check", ".", "--format", "json", "--fail-on", "never", "--no-cache", *args]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    return sorted((f["location"]["path"], f["code"]) for f in report["findings"])


ALL = sorted(
    (path, code)
    for path in ("legacy/l.cu", "src/a.cu", "lib/v.cu")
    for code in ("HIP001", "HIP004")
)


def _config(tree: Path, text: str, name: str = ".hipport.toml") -> None:
    (tree / name).write_text(text)


@pytest.mark.parametrize(
    ("toml", "args", "expected"),
    [
        ("", (), ALL),
        ('select = ["HIP001"]\n', (), [x for x in ALL if x[1] == "HIP001"]),
        ('select = ["unsupported-api"]\n', (), [x for x in ALL if x[1] == "HIP001"]),
        ('select = ["HIP001"]\n', ("--select", "HIP004"), [x for x in ALL if x[1] == "HIP004"]),
        ('select = ["HIP001"]\nextend-select = ["HIP004"]\n', (), ALL),
        ('ignore = ["HIP004"]\n', (), [x for x in ALL if x[1] == "HIP001"]),
        ('ignore = ["HIP004"]\n', ("--ignore", "HIP001"), []),
        ('extend-exclude = ["lib/"]\n', (), [x for x in ALL if x[0] != "lib/v.cu"]),
        (
            'exclude = ["legacy/"]\nextend-exclude = ["lib/"]\n',
            (),
            [x for x in ALL if x[0] == "src/a.cu"],
        ),
        (
            '[per-file-ignores]\n"legacy/**" = ["HIP004"]\n',
            (),
            [x for x in ALL if x != ("legacy/l.cu", "HIP004")],
        ),
        (
            '[per-file-ignores]\n"legacy/**" = ["HIP004"]\n'
            '[per-path-ignore]\n"src/**" = ["HIP001"]\n',
            (),
            [x for x in ALL if x not in (("legacy/l.cu", "HIP004"), ("src/a.cu", "HIP001"))],
        ),
    ],
)
@pytest.mark.slow
def test_each_key_and_the_command_line_over_it(tree, toml, args, expected) -> None:
    _config(tree, toml)
    assert _codes(tree, *args) == expected


@pytest.mark.slow
def test_isolated_reads_no_configuration(tree) -> None:
    _config(tree, 'select = ["HIP001"]\n')
    assert _codes(tree, "--isolated") == ALL


@pytest.mark.slow
def test_config_names_the_file_to_read(tree) -> None:
    _config(tree, 'select = ["HIP001"]\n')
    (tree / "other").mkdir()
    _config(tree / "other", '[tool.hipport]\nignore = ["HIP001"]\n', "pyproject.toml")
    assert _codes(tree, "--config", "other/pyproject.toml") == [x for x in ALL if x[1] == "HIP004"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--config", "missing.toml"), "--config missing.toml: no such file"),
        (("--config", "x.toml", "--isolated"), "--config and --isolated exclude each other"),
    ],
)
def test_config_usage_errors(tree, args, message) -> None:
    (tree / "x.toml").write_text("")
    result = CliRunner().invoke(main, ["check", ".", *args])
    assert result.exit_code == 2 and message in result.output, result.output


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('exlude = ["a"]\n', "exlude (did you mean exclude"),
        ("per_file_ignores = {}\n", "per_file_ignores (did you mean per-file-ignores"),
        ('extend_select = ["HIP001"]\n', "extend_select (did you mean extend-select"),
        ('select = ["HIP0001"]\n', "select: unknown rule 'HIP0001' (did you mean HIP001"),
        ('select = "HIP001"\n', "'select' must be a list of strings"),
    ],
)
@pytest.mark.slow
def test_unknown_keys_and_values_get_suggestions(tree, toml, message) -> None:
    _config(tree, toml)
    result = CliRunner().invoke(main, ["check", "."])
    assert result.exit_code == 2 and message in result.output, result.output


def test_show_settings_prints_what_applies_and_exits(tree) -> None:
    _config(tree, 'rocm = "6.2"\nignore = ["HIP004"]\nextend-exclude = ["lib/"]\n')
    result = CliRunner().invoke(main, ["check", "src", "--show-settings", "--select", "HIP1"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["config_file"] == str(tree / ".hipport.toml")
    assert shown["root"] == str(tree)
    assert shown["target"]["rocm"] == "6.2"
    assert shown["select"] == ["HIP1"] and shown["ignore"] == ["HIP004"]
    assert shown["exclude"] == ["lib/"]
    assert shown["settings"]["rocm"] == "6.2"
    isolated = json.loads(
        CliRunner().invoke(main, ["check", "src", "--show-settings", "--isolated"]).output
    )
    assert isolated["config_file"] is None and isolated["ignore"] == []


def test_show_files_lists_what_check_reads(tree) -> None:
    """--show-files prints exactly the files a check of the same paths reports on (the JSON
    report's file list), with the configuration's excludes applied and vendored code marked."""
    _config(tree, 'extend-exclude = ["legacy/"]\nvendored = ["lib/"]\n')
    (tree / "src" / "notes.txt").write_text("not a source\n")
    (tree / "src" / "k.cuh").write_bytes(SOURCE)
    result = CliRunner().invoke(main, ["check", ".", "--show-files"])
    assert result.exit_code == 0, result.output
    shown = result.output.splitlines()
    report = json.loads(
        CliRunner()
        .invoke(main, ["check", ".", "--format", "json", "--fail-on", "never", "--no-cache"])
        .output
    )
    checked = sorted(f["path"] for f in report["files"])
    assert sorted(line.removesuffix("  (vendored)") for line in shown) == checked
    assert "lib/v.cu  (vendored)" in shown and "src/a.cu" in shown
    assert not any(line.startswith("legacy/") or "notes.txt" in line for line in shown)
    # named from a subdirectory: paths as the user would type them there
    sub = CliRunner().invoke(main, ["check", "a.cu", "--show-files"], catch_exceptions=False)
    assert sub.exit_code == 2  # no such file from the project root
    os.chdir(tree / "src")
    assert CliRunner().invoke(main, ["check", "a.cu", "--show-files"]).output == "a.cu\n"
