"""Third-party code (issue 28): findings in vendored trees and headers (third_party/,
OpenGL loaders such as glext.h) are not reported by default, only counted in one summary
line; `[tool.hipport] vendored` names the project's own list, `vendored = []` reports all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import main

UNPORTED = b"#include <cuda_runtime.h>\nvoid f(){ cudaInitDevice(0, 0, 0); }\n"
# an OpenGL loader header with a CUDA-GL interop helper (`texture` is a plain name there, no
# finding since 0445baf; the interop call is HIP001)
GL_HEADER = (
    b"void glTexParameteri(int target, int texture);\n"
    b"static void glcuda_init(void) { cudaGLSetGLDevice(0); }\n"
)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    files = {
        "src/a.cu": UNPORTED,
        "third_party/lib/b.cu": UNPORTED,
        "src/gl/glext.h": GL_HEADER,
        "mine/c.cu": UNPORTED,
    }
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / ".cache-dir"))
    return tmp_path


def _check(*args: str):
    return CliRunner().invoke(main, ["check", ".", "--no-cache", "--color", "never", *args])


def _paths(*args: str) -> list[str]:
    done = _check("--format", "json", "--fail-on", "never", *args)
    assert done.exit_code == 0, done.output
    return sorted({f["location"]["path"] for f in json.loads(done.output)["findings"]})


def test_vendored_code_is_counted_not_reported(tree: Path) -> None:
    assert _paths() == ["mine/c.cu", "src/a.cu"]
    text = _check().output
    assert "third_party/lib/b.cu:" not in text and "glext.h:" not in text
    assert "third-party    2 findings in 2 vendored files not reported" in text
    assert "findings       2 errors, 0 warnings, 0 notes" in text


def test_vendored_empty_reports_everything(tree: Path) -> None:
    (tree / ".hipport.toml").write_text("vendored = []\n")
    assert _paths() == ["mine/c.cu", "src/a.cu", "src/gl/glext.h", "third_party/lib/b.cu"]
    assert "third-party" not in _check().output


def test_the_projects_own_list_replaces_the_default(tree: Path) -> None:
    (tree / ".hipport.toml").write_text('vendored = ["mine/"]\n')
    assert _paths() == ["src/a.cu", "src/gl/glext.h", "third_party/lib/b.cu"]


def test_translate_fail_on_judges_as_check(tree: Path) -> None:
    (tree / "src" / "a.cu").write_bytes(b"int x;\n")
    (tree / "mine" / "c.cu").write_bytes(b"int y;\n")
    done = CliRunner().invoke(main, ["translate", ".", "--stdout", "--fail-on", "error"])
    assert done.exit_code == 0, done.output  # the only errors are in vendored code
    assert _check("--fail-on", "error").exit_code == 0
