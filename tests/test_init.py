"""`hipport init`: a starter configuration that never touches existing settings."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import main
from hipport.config import KNOWN_KEYS, load_config

PYPROJECT = (
    b'[project]\r\nname = "demo"  # keep   this   spacing\r\n\r\n'
    b"[tool.ruff]\r\nline-length = 100"
)  # CRLF, no final newline

EVERY_KEY = ("rocm", "exclude", "renames", "disable-mappings", "severity", "per-path-ignore")


def run_init(directory: Path, *args: str):
    return CliRunner().invoke(main, ["init", str(directory), *args])


def test_appends_to_pyproject_and_keeps_every_byte(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_bytes(PYPROJECT)
    result = run_init(tmp_path, "--rocm", "6.1")
    assert result.exit_code == 0, result.output
    after = (tmp_path / "pyproject.toml").read_bytes()
    assert after.startswith(PYPROJECT)
    added = after[len(PYPROJECT) :]
    assert b"\n" not in added.replace(b"\r\n", b""), "line endings follow the file's (CRLF)"
    data = tomllib.loads(after.decode())
    assert data["project"] == {"name": "demo"} and data["tool"]["ruff"] == {"line-length": 100}
    assert data["tool"]["hipport"] == {"rocm": "6.1"}
    config = load_config([tmp_path])
    assert config.source == tmp_path / "pyproject.toml" and config.get("rocm") == "6.1"
    assert not (tmp_path / ".hipport.toml").exists()


def test_writes_hipport_toml_without_pyproject(tmp_path: Path) -> None:
    result = run_init(tmp_path)
    assert result.exit_code == 0, result.output
    path = tmp_path / ".hipport.toml"
    data = tomllib.loads(path.read_text())
    assert set(data) == {"rocm"}
    config = load_config([tmp_path])
    assert config.source == path and config.get("rocm")


@pytest.mark.parametrize("layout", ["pyproject", "dotfile"])
def test_every_key_has_a_commented_example_that_loads(tmp_path: Path, layout: str) -> None:
    """Uncommenting the examples gives a configuration load_config accepts."""
    if layout == "pyproject":
        (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\n')
    assert run_init(tmp_path).exit_code == 0
    path = tmp_path / ("pyproject.toml" if layout == "pyproject" else ".hipport.toml")
    text = path.read_text()
    for key in EVERY_KEY:
        assert key in text, key
    uncommented = "\n".join(_uncomment(line) for line in text.splitlines())
    path.write_text(uncommented)
    config = load_config([tmp_path])
    assert set(config.values) <= KNOWN_KEYS
    assert config.renames == {"CUDA_CHECK": "HIP_CHECK"}
    assert config.severity == {"HIP004": "warning"}
    assert config.per_path_ignore == {"legacy/**": ["HIP004", "CUDA_CHECK"]}
    assert "third_party/**" in config.get("exclude")
    assert config.disabled_mappings == {"cudaMallocManaged"}


def _uncomment(line: str) -> str:
    """'# key = value  # note' -> 'key = value'; prose comments stay comments."""
    if not line.startswith("# "):
        return line
    body = line[2:].split("  #")[0].rstrip()
    return body if re.fullmatch(r'\[[\w.-]+\]|[\w"*/.-]+ = .+', body) else line


def test_existing_section_is_left_untouched(tmp_path: Path) -> None:
    original = b'[project]\nname = "demo"\n\n[tool.hipport]\nrocm = "5.7"\n'
    (tmp_path / "pyproject.toml").write_bytes(original)
    result = run_init(tmp_path)
    assert result.exit_code == 0
    assert "already configures hipport" in result.output
    assert (tmp_path / "pyproject.toml").read_bytes() == original
    assert not (tmp_path / ".hipport.toml").exists()


def test_existing_subtable_counts_as_settings(tmp_path: Path) -> None:
    original = b'[tool.hipport.renames]\nCUDA_CHECK = "HIP_CHECK"\n'
    (tmp_path / "pyproject.toml").write_bytes(original)
    assert "already configures" in run_init(tmp_path).output
    assert (tmp_path / "pyproject.toml").read_bytes() == original


def test_existing_hipport_toml_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / ".hipport.toml").write_bytes(b'rocm = "6.0"\n')
    (tmp_path / "pyproject.toml").write_bytes(b'[project]\nname = "demo"\n')
    result = run_init(tmp_path)
    assert ".hipport.toml already configures" in result.output
    assert (tmp_path / ".hipport.toml").read_bytes() == b'rocm = "6.0"\n'
    assert (tmp_path / "pyproject.toml").read_bytes() == b'[project]\nname = "demo"\n'


def test_invalid_pyproject_is_a_usage_error_and_untouched(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_bytes(b"[project\n")
    result = run_init(tmp_path)
    assert result.exit_code == 2
    assert (tmp_path / "pyproject.toml").read_bytes() == b"[project\n"


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_bytes(b'[project]\nname = "demo"\n')
    result = run_init(tmp_path, "--dry-run")
    assert result.exit_code == 0 and "[tool.hipport]" in result.output
    assert (tmp_path / "pyproject.toml").read_bytes() == b'[project]\nname = "demo"\n'


def test_prints_the_pre_commit_snippet_naming_a_real_hook(tmp_path: Path) -> None:
    import yaml

    output = run_init(tmp_path).output
    snippet = output[output.index("repos:") :]
    config = yaml.safe_load(snippet)
    hook_ids = {h["id"] for repo in config["repos"] for h in repo["hooks"]}
    root = Path(__file__).resolve().parent.parent
    defined = {h["id"] for h in yaml.safe_load((root / ".pre-commit-hooks.yaml").read_text())}
    assert hook_ids == {"hipport-check"} and hook_ids <= defined
    assert config["repos"][0]["rev"].startswith("v")


def test_runs_as_a_real_command(tmp_path: Path, hipport_cmd, subprocess_env) -> None:
    done = subprocess.run(
        [*hipport_cmd, "init", "--rocm", "6.2"],
        cwd=tmp_path,
        env=subprocess_env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert tomllib.loads((tmp_path / ".hipport.toml").read_text())["rocm"] == "6.2"
