"""Concurrency and the cache: two runs sharing a tree and a cache directory do not corrupt
it; a torn, garbage or foreign manifest is a miss, never a crash. The cache is data, not
code: a pickle planted in it is never run, a well-formed file of the wrong shape is a miss
(never a permanent exit 2), and an unusable HOME or XDG_CACHE_HOME falls back safely."""

from __future__ import annotations

import os
import pickle
import re
from pathlib import Path

import pytest

from tests.reliability_support import cuda_file, expected, hipport, popen, snapshot

SRC = cuda_file()


def _tree(root: Path, count: int = 60) -> None:
    for i in range(count):
        d = root / f"d{i % 6}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"f{i}.cu").write_bytes(cuda_file(f"    int v{i};".encode()))


def _cached(err: bytes) -> int:
    match = re.search(rb"(\d+) from the cache", err)
    assert match, err
    return int(match.group(1))


@pytest.mark.slow
def test_two_runs_at_once_then_a_third_uses_the_cache(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    _tree(tree)
    cache = tmp_path / "cache"
    runs = [
        popen(["translate", tree, "-o", tmp_path / f"out{i}", "-j", "2", "--no-progress"], cache)
        for i in (1, 2)
    ]
    results = [p.communicate(timeout=180) for p in runs]
    for proc, (_, err) in zip(runs, results, strict=True):
        assert proc.returncode == 0, err.decode()[-2000:]
    want = {rel: expected(data) for rel, data in snapshot(tree).items()}
    assert snapshot(tmp_path / "out1") == want == snapshot(tmp_path / "out2")
    # every cache file is whole (loads) and no temp file is left
    files = [p for p in cache.rglob("*") if p.is_file()]
    assert files and not [p for p in files if p.name.endswith(".hipport-tmp")]
    for p in files:
        assert p.read_bytes().startswith(b"hipport-cache ")
    third = hipport(["translate", tree, "-o", tmp_path / "out3", "-j", "2", "--no-progress"], cache)
    assert third.returncode == 0, third.stderr
    assert _cached(third.stderr) == 60
    assert snapshot(tmp_path / "out3") == want


@pytest.mark.slow
def test_garbage_truncated_or_foreign_cache_is_a_miss(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    _tree(tree, 10)
    cache = tmp_path / "cache"
    first = hipport(["translate", tree, "-o", tmp_path / "o1", "--no-progress"], cache)
    assert first.returncode == 0, first.stderr
    files = [p for p in cache.rglob("*") if p.is_file()]
    assert files
    want = snapshot(tmp_path / "o1")
    for damage in (
        lambda b: b[: len(b) // 2],
        lambda b: b"\0garbage" * 10,
        lambda b: b"",
        lambda b: pickle.dumps(("another", "format")),
        lambda b: pickle.dumps((99, "key", {}, {})),
        lambda b: b[:-2] + b"x}",  # checksum no longer matches
    ):
        originals = {p: p.read_bytes() for p in files}
        for p, data in originals.items():
            p.write_bytes(damage(data))
        out = tmp_path / f"o{id(damage)}"
        proc = hipport(["translate", tree, "-o", out, "--no-progress"], cache)
        err = proc.stderr.decode()
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert _cached(proc.stderr) == 0
        assert snapshot(out) == want
        # and the run rewrote a good manifest
        again = hipport(["translate", tree, "-o", out, "--no-progress"], cache)
        assert _cached(again.stderr) == 10, again.stderr


def test_manifest_is_versioned_and_written_atomically(tmp_path: Path, monkeypatch) -> None:
    from hipport import cache as cache_mod

    m = cache_mod.open_manifest(tmp_path, "opts", "tables", directory=tmp_path / "c")
    assert f"v{cache_mod.FORMAT}" in m.path.parts
    m.dirty = True
    calls = []
    real = cache_mod.atomic_write
    monkeypatch.setattr(
        cache_mod,
        "atomic_write",
        lambda path, data, mode=None, durable=True: (
            calls.append(path),
            real(path, data, mode=mode, durable=durable),
        ),
    )
    m.save()
    assert calls == [m.path]
    assert m.path.read_bytes().startswith(b"hipport-cache ")
    assert os.stat(m.path).st_mode & 0o777 == 0o600


class _Bomb:
    """Unpickling this runs `touch MARKER`: what a planted pickle can do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.mark.slow
def test_a_pickle_planted_in_the_cache_is_never_run(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    _tree(tree, 6)
    cache = tmp_path / "cache"
    first = hipport(["check", tree], cache)
    assert first.returncode == 0, first.stderr
    files = [p for p in cache.rglob("*") if p.is_file()]
    marker = tmp_path / "ran"
    for p in files:
        p.write_bytes(pickle.dumps(_Bomb(marker)))
    for _ in range(2):
        proc = hipport(["check", tree], cache)
        assert proc.returncode == 0, proc.stderr
    assert not marker.exists(), "a cache file was unpickled: it ran code"


@pytest.mark.slow
def test_well_formed_entries_of_the_wrong_shape_are_misses(tmp_path: Path) -> None:
    from hipport import cache_format

    tree = tmp_path / "t"
    _tree(tree, 6)
    cache = tmp_path / "cache"
    assert (
        hipport(["translate", tree, "-o", tmp_path / "o", "--no-progress"], cache).returncode == 0
    )
    want = snapshot(tmp_path / "o")
    files = [p for p in cache.rglob("*") if p.is_file()]
    for payload in ([1, 2, 3], {"a": 1}, "text", ["key", {"f.cu": 42}], [None, None, None]):
        for p in files:
            kind = p.read_bytes().split(b" ", 3)[2].decode()
            p.write_bytes(cache_format.dumps(kind, payload))
        for attempt in range(2):  # not a permanent failure: the run rewrites the cache
            out = tmp_path / f"o{attempt}"
            proc = hipport(["translate", tree, "-o", out, "--no-progress"], cache)
            assert proc.returncode == 0, (payload, proc.stderr)
            assert snapshot(out) == want
        proc = hipport(["check", tree], cache)
        assert proc.returncode == 0, (payload, proc.stderr)


def test_unusable_home_or_relative_xdg_falls_back_safely(tmp_path: Path, monkeypatch) -> None:
    from hipport import cache as cache_mod

    monkeypatch.delenv("HIPPORT_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    where = cache_mod.cache_dir()
    assert where is None or (where.is_absolute() and tmp_path not in where.parents), where
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", "")
    where = cache_mod.cache_dir()
    assert where is None or (where.is_absolute() and where != Path("/.cache/hipport")), where
    monkeypatch.setenv("HOME", "relative-home")
    where = cache_mod.cache_dir()
    assert where is None or (where.is_absolute() and tmp_path not in where.parents), where


@pytest.mark.slow
def test_relative_xdg_cache_home_says_so_and_writes_nothing_here(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    _tree(tree, 2)
    import subprocess
    import sys

    from tests.reliability_support import env

    e = env(tmp_path / "unused")
    del e["HIPPORT_CACHE_DIR"]
    e["XDG_CACHE_HOME"] = "rel-cache"
    e["HOME"] = str(tmp_path / "home")
    proc = subprocess.run(
        [sys.executable, "-m", "hipport", "check", str(tree)],
        env=e,
        capture_output=True,
        cwd=str(tmp_path),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "rel-cache").exists()
    assert b"XDG_CACHE_HOME" in proc.stderr  # the note
    assert (tmp_path / "home" / ".cache" / "hipport").is_dir()


def _cache_values():
    from hypothesis import strategies as st

    from hipport.catalogue import Severity
    from hipport.findings import Finding, Location
    from hipport.target import Version

    text = st.text(max_size=6)
    location = st.builds(Location, text, st.integers(0, 9), st.integers(0, 9))
    finding = st.builds(Finding, text, st.sampled_from(list(Severity)), text, location, text)
    leaves = (
        st.none()
        | st.booleans()
        | st.integers()
        | text
        | st.binary(max_size=6)
        | st.sampled_from([Version.parse("6.2.0"), Version.parse("5.3.0")])
        | finding
    )
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.lists(inner, max_size=4).map(tuple)
            | st.frozensets(text, max_size=3)
            | st.dictionaries(text, inner, max_size=3)
            | st.dictionaries(st.integers(), inner, max_size=3)
        ),
        max_leaves=12,
    )


def test_the_object_hook_decodes_as_the_reference_decoder():
    """cache_format.loads decodes through json's object hook: random cache payloads of
    every tag (records, tuples, frozensets, bytes, versions, enums, non-string keys) come
    back equal to what was stored, and equal to `decode`'s walk over the parsed value."""
    from hypothesis import given, settings

    from hipport import cache_format

    @settings(max_examples=300, deadline=None)
    @given(_cache_values())
    def check(value):
        data = cache_format.dumps("result", value)
        reference = cache_format.decode(cache_format.loads("result", data, raw=True))
        assert cache_format.loads("result", data) == reference == value

    check()
