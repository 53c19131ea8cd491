"""Concurrency and the cache: two runs sharing a tree and a cache directory do not corrupt
it; a torn, garbage or foreign manifest is a miss, never a crash."""

from __future__ import annotations

import os
import pickle
import re
from pathlib import Path

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
        pickle.loads(p.read_bytes())
    third = hipport(["translate", tree, "-o", tmp_path / "out3", "-j", "2", "--no-progress"], cache)
    assert third.returncode == 0, third.stderr
    assert _cached(third.stderr) == 60
    assert snapshot(tmp_path / "out3") == want


def test_garbage_truncated_or_foreign_cache_is_a_miss(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    _tree(tree, 10)
    cache = tmp_path / "cache"
    first = hipport(["translate", tree, "-o", tmp_path / "o1", "--no-progress"], cache)
    assert first.returncode == 0, first.stderr
    files = [p for p in cache.rglob("*.pickle")]
    assert files
    want = snapshot(tmp_path / "o1")
    for damage in (
        lambda b: b[: len(b) // 2],
        lambda b: b"\0garbage" * 10,
        lambda b: b"",
        lambda b: pickle.dumps(("another", "format")),
        lambda b: pickle.dumps((99, "key", {}, {})),
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
        lambda path, data, mode=None: (calls.append(path), real(path, data, mode=mode)),
    )
    m.save()
    assert calls == [m.path]
    assert pickle.loads(m.path.read_bytes())[0] == cache_mod.FORMAT
    assert os.stat(m.path).st_mode & 0o777 == 0o600
