"""No code of the tree is run, no file outside it is read (issue 30 item 2): a file named
like a compiler response file (`@args.cu`) is compiled as a source by `verify`, never read
as arguments; a repository's compile_commands.json cannot `-include` a file outside the
tree into the semantic pass (its text would reach the report). The pre-commit hook's `--`
is tested with the real pre-commit in tests/test_precommit.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.reliability_support import hipport

HIP_OK = b"#include <hip/hip_runtime.h>\n__global__ void k(float *x) { x[0] = 1.0f; }\n"


@pytest.mark.hipcc
def test_verify_compiles_a_file_named_like_a_response_file_as_a_source(tmp_path: Path) -> None:
    """`@args.cu` handed to the compiler as `@args.cu` is a response file: its lines become
    compiler arguments (a `-fplugin=` there loads a plugin from the tree). As a source it
    compiles; read as arguments it cannot."""
    if shutil.which("hipcc") is None:
        pytest.skip("hipcc is not installed (tests/setup-system.sh installs it)")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "@args.cu").write_bytes(HIP_OK)
    import subprocess
    import sys

    from tests.reliability_support import env

    done = subprocess.run(
        [sys.executable, "-m", "hipport", "verify", "--translated", "--no-progress"],
        cwd=tree,
        env=env(tmp_path / "c"),
        capture_output=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    assert b"1 translation units, 1 compile" in done.stderr


def test_compile_command_names_inputs_by_absolute_path(tmp_path: Path) -> None:
    from hipport.verify import compile_command

    cmd = compile_command(["hipcc"], Path("@args.cu"), "gfx90a", [Path("@inc")])
    assert cmd[-1] == str(Path.cwd() / "@args.cu")
    assert not any(a.startswith("@") for a in cmd), cmd


def test_compile_commands_cannot_include_a_file_outside_the_tree(tmp_path: Path) -> None:
    secret = tmp_path / "secret.h"
    secret.write_text("TOPSECRET_hunter2 leaked;\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "inside.h").write_text("#define INSIDE_WAS_INCLUDED 1\n")
    (repo / "a.cu").write_text(
        "#include <cuda_runtime.h>\n"
        "#ifndef INSIDE_WAS_INCLUDED\n#error the -include inside the tree was dropped\n#endif\n"
        "__global__ void k() {}\nint main() { k<<<1, 1>>>(); return 0; }\n"
    )
    args = ["nvcc", "-include", str(secret), "-include", "inside.h", "-c", "a.cu"]
    (repo / "compile_commands.json").write_text(
        json.dumps([{"directory": str(repo), "file": "a.cu", "arguments": args}])
    )
    (repo / "pyproject.toml").write_text(
        '[tool.hipport]\ncompile-commands = "compile_commands.json"\nsemantic = true\n'
    )
    r = hipport(["check", repo, "--no-cache", "--format", "json"], tmp_path / "c", timeout=600)
    report = r.stdout.decode() + r.stderr.decode()
    assert "hunter2" not in report, report
    assert "dropped" not in report, report
    assert "secret.h" in r.stderr.decode(), "the dropped -include is not mentioned"
