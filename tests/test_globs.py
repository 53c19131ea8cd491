"""--include/--exclude and the configuration's globs have .gitignore's semantics (issue 28:
they were fnmatch's, where `*` crosses `/`, so `Samples/*.cu` dropped every .cu below
Samples/, and `a/**/c.h` missed a/c.h)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hipport.project import match_globs

CASES = [
    # pattern, path, is_dir, matches
    ("Samples/*.cu", "Samples/a.cu", False, True),
    ("Samples/*.cu", "Samples/sub/b.cu", False, False),
    ("Samples/*.cu", "x/Samples/a.cu", False, False),  # a slash anchors at the base
    ("a/**/c.h", "a/c.h", False, True),
    ("a/**/c.h", "a/x/y/c.h", False, True),
    ("*.h", "deep/down/k.h", False, True),  # no slash: any depth
    ("third_party", "third_party/z/k.cu", False, True),
    ("third_party", "src/third_party/k.cu", False, True),
    ("third_party/", "third_party", True, True),
    ("third_party/", "third_party", False, False),  # a file of that name is no directory
    ("gen/**", "gen/a/b.cu", False, True),
    ("./build", "build/k.cu", False, True),
    ("*.cu", "k.cuh", False, False),
]


@pytest.mark.parametrize(("pattern", "path", "is_dir", "expected"), CASES)
def test_gitignore_semantics(pattern: str, path: str, is_dir: bool, expected: bool) -> None:
    assert match_globs(path, [pattern], is_dir=is_dir) is expected


def test_negation_re_includes() -> None:
    assert not match_globs("gen/keep.cu", ["gen/**", "!gen/keep.cu"])
    assert match_globs("gen/drop.cu", ["gen/**", "!gen/keep.cu"])


def _checked(tmp_path: Path, hipport_cmd, subprocess_env, *args: str) -> list[str]:
    done = subprocess.run(
        [*hipport_cmd, "check", ".", "--no-cache", "--format", "json", "--fail-on", "never", *args],
        cwd=tmp_path,
        env=subprocess_env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return sorted(f["path"] for f in json.loads(done.stdout)["files"])


@pytest.mark.slow
def test_exclude_on_the_command_line_and_in_the_configuration(
    tmp_path: Path, hipport_cmd, subprocess_env
) -> None:
    for rel in ("Samples/a.cu", "Samples/sub/b.cu", "a/c.h", "a/x/c.h", "k.cu"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("int x;\n")
    assert _checked(tmp_path, hipport_cmd, subprocess_env, "--exclude", "Samples/*.cu") == [
        "Samples/sub/b.cu",
        "a/c.h",
        "a/x/c.h",
        "k.cu",
    ]
    (tmp_path / ".hipport.toml").write_text('exclude = ["a/**/c.h"]\n')
    assert _checked(tmp_path, hipport_cmd, subprocess_env) == [
        "Samples/a.cu",
        "Samples/sub/b.cu",
        "k.cu",
    ]


# The configuration's name-only globs (the default `vendored` list) are matched without
# pathspec (hipport.project._by_name); pathspec stays the reference they must agree with.
NAME_PATTERNS = [
    ["vendor/", "glew.h", "stb_*.h"],
    ["third_party/", "*.h"],
    ["GL/", "freeglut*.h", "x.y/"],
    ["a*b*"],
]
NAME_PATHS = [
    "vendor/x.cu",
    "src/vendor/x.cu",
    "vendor",
    "src/vendor",
    "vendors/x.cu",
    "glew.h",
    "inc/glew.h",
    "glew.h/inner.cu",
    "stb_image.h",
    "a/stb_.h",
    "stb_image.hpp",
    "third_party/a/b.cu",
    "a.h",
    "deep/b.h",
    "GL/gl.h",
    "gl/gl.h",
    "freeglut_std.h",
    "x.y/z.cu",
    "xzy/z.cu",
    "ab",
    "a/xab/c",
    "aXbY.cu",
    "b/a",
    "k.cu",
]


@pytest.mark.parametrize("patterns", NAME_PATTERNS, ids=lambda p: ",".join(p))
def test_name_globs_match_as_pathspec_does(patterns):
    import pathspec

    from hipport.config import DEFAULT_VENDORED
    from hipport.project import _by_name

    assert _by_name(tuple(DEFAULT_VENDORED)) is not None  # the defaults take the fast way
    assert _by_name(tuple(patterns)) is not None
    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    for path in NAME_PATHS:
        for is_dir in (False, True):
            want = spec.match_file(path + "/" if is_dir else path)
            assert match_globs(path, patterns, is_dir) == want, (path, is_dir)
