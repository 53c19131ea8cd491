"""Configuration: finding it, validating it, and the command line winning over it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hipport.config import ConfigError, load_config


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_pyproject_found_walking_up(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.hipport]\nrocm = "6.1"\n')
    write(tmp_path / "a/b/x.cu", "")
    config = load_config([tmp_path / "a/b/x.cu"])
    assert config.root == tmp_path.resolve()
    assert config.get("rocm") == "6.1"


def test_pyproject_without_section_is_passed_over(tmp_path: Path) -> None:
    write(tmp_path / ".hipport.toml", 'rocm = "6.0"\n')
    write(tmp_path / "sub/pyproject.toml", '[project]\nname = "x"\n')
    config = load_config([tmp_path / "sub"])
    assert config.get("rocm") == "6.0" and config.root == tmp_path.resolve()


def test_walk_stops_at_the_repository_root(tmp_path: Path) -> None:
    write(tmp_path / ".hipport.toml", 'rocm = "6.0"\n')
    (tmp_path / "repo/.git").mkdir(parents=True)
    config = load_config([tmp_path / "repo"])
    assert config.source is None and config.root == (tmp_path / "repo").resolve()


def test_user_rules(tmp_path: Path) -> None:
    write(
        tmp_path / ".hipport.toml",
        'disable-mappings = ["cudaFree"]\n[renames]\n'
        'CUDA_CHECK = "HIP_CHECK"\n[per-path-ignore]\n"legacy/**" = ["HIP004"]\n',
    )
    config = load_config([tmp_path])
    assert config.renames == {"CUDA_CHECK": "HIP_CHECK"}
    assert config.disabled_mappings == {"cudaFree"}
    assert config.per_path_ignore == {"legacy/**": ["HIP004"]}


@pytest.mark.parametrize(
    "text",
    [
        "colour = 1\n",
        "renames = 1\n",
        'exclude = "x"\n',
        'roc = "yes"\n',
        "jobs = -1\n",
        'launch-syntax = "ptx"\n',
        'fail-on = "often"\n',
        "[renames]\nCUDA_CHECK = 3\n",
        '[severity]\nHIP004 = "loud"\n',
        '[rename-suffix]\n".cu" = "hip"\n',
        "rocm = [\n",
    ],
)
def test_invalid_configuration(tmp_path: Path, text: str) -> None:
    write(tmp_path / ".hipport.toml", text)
    with pytest.raises(ConfigError):
        load_config([tmp_path])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('jobs = "4"\n', "'jobs' must be a whole number, not a string ('4')"),
        ("cache = 1\n", "'cache' must be true or false, not an integer (1)"),
        ("rocm = 6.2\n", "'rocm' must be a string, not a float (6.2)"),
        ('exclude = "build/**"\n', "'exclude' must be a list of strings, not a string"),
        ('exclude = ["a", 3]\n', "not an array with a non-string item (['a', 3])"),
        ('severity = "off"\n', "'severity' must be a table, not a string ('off')"),
    ],
)
def test_a_wrong_type_names_the_key_the_expected_and_the_given_type(
    tmp_path, text: str, message: str
) -> None:
    from hipport.config import ConfigError, load_config

    (tmp_path / ".hipport.toml").write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config([tmp_path])
    assert message in str(caught.value)
