"""A cached result is keyed by its file's *header context* (hipport.runner.project_macros.
header_contexts): what the file can reach of the project's other files, not every file's
directives. A change to a header misses the files that reach it and no other, and after
each kind of change a warm check prints what a cold one (--no-cache) prints, byte for
byte: a header's #define changed, a macro a file tests #defined in a file it does not
include, a missing header added, a file reaching a header through #include_next (which
the directive scan does not read), a -D whose value names a project macro.

The cache hits are counted by `translate` ("N from the cache"), which keys results as check
does; every file a step writes gets an mtime in the past (outside the racy window)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import main
from tests.test_run_memo import settle

HEAD = "#include <cuda_runtime.h>\n"
FILES = {
    # a.cu reaches feature.h: its arm follows USE_FAST
    "src/feature.h": "#pragma once\n#define USE_FAST 1\n",
    "src/a.cu": HEAD
    + '#include "feature.h"\n#ifdef USE_FAST\nvoid a(){ cudaDeviceSynchronize(); }\n'
    "#else\nvoid a(){ cudaThreadSynchronize(); }\n#endif\n",
    # b.cu includes no project file; LATE_FLAG is unknown until some file #defines it
    "src/b.cu": HEAD + "#ifdef LATE_FLAG\nvoid b(){ cudaThreadSynchronize(); }\n#endif\n"
    "void b2(){ cudaFree(0); }\n",
    # c.cu includes a header the project does not have yet
    "src/c.cu": HEAD + '#include "gen/config.h"\n#if C_MODE\nvoid c(){ cudaThreadSynchronize(); }\n'
    "#endif\nvoid c2(){ cudaMalloc(0, 0); }\n",
    # e.cu reaches feature.h through #include_next
    "src/e.cu": HEAD
    + '#include_next "feature.h"\n#ifndef USE_FAST\nvoid e(){ cudaThreadSynchronize(); }\n'
    "#endif\n",
    # m.cu tests MODE, which -DMODE=LATE_MODE makes a project macro's value
    "src/m.cu": HEAD + "#if MODE\nvoid m(){ cudaThreadSynchronize(); }\n#endif\n",
}


@pytest.fixture
def tree(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (root / ".hipport.toml").write_text("")
    monkeypatch.chdir(root)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    return root


def from_cache(root: Path, *args: str) -> int:
    """How many files a translate run took from the cache."""
    out = root.parent / "out"
    result = CliRunner().invoke(main, ["translate", "src", "-o", str(out), "--no-progress", *args])
    assert result.exit_code == 0, result.output
    return int(re.search(r"(\d+) from the cache", result.output).group(1))


def same_as_cold(root: Path, *args: str) -> str:
    def check(*more: str):
        result = CliRunner().invoke(
            main, ["check", "src", "--color", "never", "--fail-on", "never", *args, *more]
        )
        return result.exit_code, result.output

    cold = check("--no-cache")
    assert check() == cold
    assert check("--format", "json") == check("--format", "json", "--no-cache")
    return cold[1]


def test_a_change_misses_only_the_files_that_reach_it(tree):
    settle(tree)
    assert from_cache(tree) == 0
    first = same_as_cold(tree)
    assert from_cache(tree) == len(FILES)

    # a header's #define: feature.h, a.cu (includes it), e.cu (include_next) miss
    (tree / "src/feature.h").write_text("#pragma once\n#define USE_SLOW 1\n")
    settle(tree)
    assert from_cache(tree) == len(FILES) - 3
    slow = same_as_cold(tree)
    for line in ("src/a.cu:6:", "src/e.cu:4:"):  # the arms USE_FAST had ruled out
        assert line not in first and line in slow

    # LATE_FLAG #defined in a file b.cu does not include: b.cu's arm is now undefined
    # (a project macro before its #define), so b.cu misses; the new file too, and e.cu
    # (its #include_next is not in the scan: it misses on any change)
    (tree / "src/late.h").write_text("#pragma once\n#define LATE_FLAG 1\n")
    settle(tree)
    assert from_cache(tree) == len(FILES) - 2
    late = same_as_cold(tree)
    assert "src/b.cu:3:" in slow and "src/b.cu:3:" not in late

    # the header c.cu includes appears: c.cu misses, the new header, e.cu
    (tree / "src/gen").mkdir()
    (tree / "src/gen/config.h").write_text("#pragma once\n#define C_MODE 1\n")
    settle(tree)
    assert from_cache(tree) == len(FILES) + 2 - 3
    config = same_as_cold(tree)
    assert "undecided: define C_MODE" in late and "undecided: define C_MODE" not in config

    # a comment in a header reached by a.cu and e.cu: its directives stay, only it misses
    (tree / "src/feature.h").write_text("#pragma once\n#define USE_SLOW 1\n// note\n")
    settle(tree)
    assert from_cache(tree) == len(FILES) + 2 - 1
    same_as_cold(tree)


def test_a_define_whose_value_names_a_project_macro(tree):
    settle(tree)
    args = ("-D", "MODE=LATE_MODE")
    from_cache(tree, *args)
    before = same_as_cold(tree, *args)
    assert "src/m.cu:3:11" in before  # MODE is LATE_MODE, which nothing defines: undecided
    (tree / "src/mode.h").write_text("#pragma once\n#define LATE_MODE 1\n")
    settle(tree)
    # a -D value naming a project macro ties every file to that macro's #defines
    assert from_cache(tree, *args) == 0
    # LATE_MODE is the project's now, undefined where m.cu has no #define of it: dead arm
    assert "src/m.cu:3:11" not in same_as_cold(tree, *args)


def test_a_file_is_scanned_again_only_when_its_stat_changed(tree, monkeypatch):
    """The directive scans are remembered by stat (hipport.cache.load_scans): a warm run
    reads for them only the files that changed, and prints what a cold run prints."""
    import hipport.runner.project_macros as project_macros

    settle(tree)
    same_as_cold(tree)
    scanned = []
    real = project_macros.scan_directives

    def counted(data: bytes):
        scanned.append(data)
        return real(data)

    monkeypatch.setattr(project_macros, "scan_directives", counted)
    (tree / "src/feature.h").write_text("#pragma once\n#define USE_SLOW 1\n")
    settle(tree)
    warm = CliRunner().invoke(main, ["check", "src", "--color", "never", "--fail-on", "never"])
    assert scanned == [b"#pragma once\n#define USE_SLOW 1\n"]
    cold = CliRunner().invoke(
        main, ["check", "src", "--color", "never", "--fail-on", "never", "--no-cache"]
    )
    assert warm.output == cold.output and "src/a.cu:6:" in cold.output
    # a smaller size limit skips a file the scans remember: as a cold run does
    same_as_cold(tree, "--max-file-size", "100")


def test_the_project_facts_are_derived_again_only_when_what_they_read_changed(tree, monkeypatch):
    """The never-compiled headers, the HIP names and the header contexts are remembered
    (hipport.runner.project_facts) by every file's directives and the bytes of the headers
    their HIP names come from: a comment in a source walks no file's arms again; a name
    a HIP header defines, changed without a directive, is read again; each run prints what
    a cold run prints."""
    import hipport.runner.project_macros as project_macros

    (tree / "src/compat.h").write_text(
        "#pragma once\n#include <hip/hip_runtime.h>\ninline int cudaProjectHelper() { return 0; }\n"
    )
    (tree / "src/h.cu").write_text(
        HEAD + '#include "compat.h"\nint h() { return cudaProjectHelper(); }\n'
    )
    settle(tree)
    before = same_as_cold(tree)
    assert "cudaProjectHelper" not in before  # compat.h's own name: not HIP004
    walks = []
    real = project_macros._never_compiled

    def counted(*args):
        walks.append(args)
        return real(*args)

    monkeypatch.setattr(project_macros, "_never_compiled", counted)

    # a comment in a source: its directives stay, the facts are the remembered ones
    with open(tree / "src/b.cu", "a") as fh:
        fh.write("// note\n")
    settle(tree)
    same_as_cold(tree)
    assert len(walks) == 2  # the two --no-cache runs only

    # compat.h names its helper otherwise, with the same directives: h.cu's call is
    # not the project's any more (HIP004), as the cold run says
    (tree / "src/compat.h").write_text(
        "#pragma once\n#include <hip/hip_runtime.h>\n"
        "inline int cudaProjectHelper2() { return 0; }\n"
    )
    settle(tree)
    renamed = same_as_cold(tree)
    assert "src/h.cu:3:" in renamed and "cudaProjectHelper" in renamed
    assert len(walks) == 2 + 3  # derived anew once, then remembered (and --no-cache twice)
