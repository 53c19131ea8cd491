"""The project index (hipport.cache: names the project defines, per file) read by its first
part alone: a run on named files (the pre-commit hook) whose files define what the index
says reads the names text and the files' names digests, not every file's names; any other
run reads the whole index. Both ways give the same report bytes."""

from __future__ import annotations

import os
import time

import pytest
from click.testing import CliRunner

import hipport.cache as cache_mod
from hipport.cache_format import CacheMiss, dumps_parts, loads_part
from hipport.cli import main
from hipport.runner.project_names import JoinedNames

HEAD = "#include <cuda_runtime.h>\n"
# cudaMyHelper is no CUDA API: HIP004 unless the project defines it (lib/helper.h does)
USES_HELPER = HEAD + "void k(){ cudaMyHelper(); cudaThreadSynchronize(); }\n"
HELPER = "#pragma once\nvoid cudaMyHelper();\n"
NOT_HELPER = "#pragma once\nvoid somethingElse();\n"


@pytest.fixture
def tree(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "lib").mkdir()
    (root / ".hipport.toml").write_text("")
    (root / "src/c.cu").write_text(USES_HELPER)  # no include: only the index knows
    (root / "src/d.cu").write_text(HEAD + "void d(){ cudaDeviceSynchronize(); }\n")
    (root / "lib/helper.h").write_text(HELPER)
    past = time.time() - 120
    for path in root.rglob("*"):
        os.utime(path, (past, past))
    monkeypatch.chdir(root)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    return root


def check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args, "--color", "never"], catch_exceptions=False)
    return result.exit_code, result.output


def whole_index_only(monkeypatch) -> None:
    """The reference: every run reads the whole index (as before the first part existed)."""
    monkeypatch.setattr(cache_mod, "load_index_head", lambda root: None)


def test_a_hook_run_with_unchanged_names_reads_the_first_part_only(tree, monkeypatch):
    check(".")  # the index learns every file's names
    with open(tree / "src/c.cu", "a") as fh:
        fh.write("// an edit that defines nothing\n")
    with monkeypatch.context() as patch:
        whole_index_only(patch)
        reference = check("src/c.cu")
    assert "cudaMyHelper looks like CUDA" not in reference[1]  # the index's names count
    assert "cudaThreadSynchronize is removed" in reference[1]

    def forbidden(root):
        raise AssertionError("the whole index was read")

    with monkeypatch.context() as patch:
        patch.setattr(cache_mod, "load_index", forbidden)
        assert check("src/c.cu") == reference


def test_a_hook_run_that_changes_names_gives_the_whole_index_bytes(tree, monkeypatch):
    check(".")
    (tree / "lib/helper.h").write_text(NOT_HELPER)  # the header forgets cudaMyHelper
    with monkeypatch.context() as patch:
        whole_index_only(patch)
        reference = check("lib/helper.h", "src/c.cu")
    assert "cudaMyHelper looks like CUDA" in reference[1]
    (tree / "lib/helper.h").write_text(HELPER)
    check(".")  # the index knows cudaMyHelper again
    (tree / "lib/helper.h").write_text(NOT_HELPER)
    assert check("lib/helper.h", "src/c.cu") == reference
    # the names changed: the whole index was read and written again, with its first part
    head = cache_mod.load_index_head(tree)
    assert head is not None and "cudaMyHelper" not in head.names.split()
    assert set(head.files) == {"src/c.cu", "src/d.cu", "lib/helper.h"}
    assert check("src/c.cu") == check("src/c.cu")  # and the next hook run agrees


def test_the_first_part_is_the_whole_index_summed_up(tree):
    check(".")
    whole = cache_mod.load_index(tree)
    head = cache_mod.load_index_head(tree)
    assert head is not None
    assert head.names.split() == sorted(set().union(*(names for _, _, names in whole.values())))
    assert head.files == {key: cache_mod.names_digest(v[2]) for key, v in whole.items()}


def test_names_that_are_not_identifiers_leave_the_first_part_a_miss(tmp_path, monkeypatch):
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    cache_mod.save_index(tmp_path, {"a.cu": (1, 2, frozenset({"two words", "x"}))})
    assert cache_mod.load_index_head(tmp_path) is None
    assert cache_mod.load_index(tmp_path) == {"a.cu": (1, 2, frozenset({"two words", "x"}))}


def test_joined_names_answer_as_a_set():
    names = ["alpha", "beta", "cudaMyHelper", "x_1"]
    joined = JoinedNames(" ".join(names))
    asked = ["alpha", "alph", "lpha", "beta gamma", "", " beta", "x_1", "x", "cudaMyHelper"]
    for _ in range(JoinedNames.SEARCHES):  # searched first, then from the set
        assert [a in joined for a in asked] == [a in set(names) for a in asked]
    assert sorted(joined) == names and len(joined) == 4


def test_parts_are_checked_one_by_one():
    data = dumps_parts("index", [["a b", {"f": "d"}], {"f": [1, 2, ["a"]]}])
    assert loads_part("index", data, 0, 2) == ["a b", {"f": "d"}]
    assert loads_part("index", data, 1, 2) == {"f": [1, 2, ["a"]]}
    with pytest.raises(CacheMiss):
        loads_part("index", data, 0, 3)  # another number of parts
    with pytest.raises(CacheMiss):
        loads_part("scans", data, 0, 2)  # another kind
    edited = data.replace(b'"a b"', b'"a c"')
    with pytest.raises(CacheMiss):
        loads_part("index", edited, 0, 2)
    assert loads_part("index", edited, 1, 2) == {"f": [1, 2, ["a"]]}
    torn = data[: data.rindex(b"\n")]
    with pytest.raises(CacheMiss):
        loads_part("index", torn, 1, 2)


def test_an_index_of_the_old_shape_is_a_miss(tmp_path, monkeypatch):
    from hipport.cache_format import dumps

    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    path = cache_mod.index_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(dumps("index", {"a.cu": (1, 2, frozenset({"x"}))}))
    assert cache_mod.load_index_head(tmp_path) is None
    assert cache_mod.load_index(tmp_path) == {}
