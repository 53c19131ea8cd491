"""The cache's upkeep (issue 28 item 7): --cache-dir, `hipport cache info|clean`, and the
size cap with least-recently-used eviction, on real runs and a real file system."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hipport.cache import FORMAT
from hipport.cache_admin import STAMP, clean, trim, usage
from tests.conftest import ROOT

# A source whose translation differs (so its entry stores the output): ~60 KB.
BIG = (
    "#include <cuda_runtime.h>\n"
    + "".join(f"void f{i}(float *p) {{ cudaMalloc(&p, {i}); cudaFree(p); }}\n" for i in range(900))
).encode()


def hipport(args, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    full.pop("HIPPORT_CACHE_DIR", None) if "HIPPORT_CACHE_DIR" not in env else None
    return subprocess.run(
        [sys.executable, "-m", "hipport", *map(str, args)],
        cwd=cwd, env=full, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def tree(root: Path, n: int, tag: str) -> Path:
    root.mkdir(parents=True)
    for i in range(n):
        (root / f"{tag}{i:02}.cu").write_bytes(BIG.replace(b"f0(", f"{tag}{i}(".encode()))
    return root


def test_cache_dir_option_and_clean(tmp_path: Path) -> None:
    src = tree(tmp_path / "src", 2, "a")
    env_dir, chosen = tmp_path / "env-cache", tmp_path / "chosen"
    run = hipport(
        ["check", ".", "-q", "--fail-on", "never", "--cache-dir", chosen],
        src,
        HIPPORT_CACHE_DIR=str(env_dir),
    )
    assert run.returncode == 0, run.stderr
    assert usage(chosen).files > 0 and not env_dir.exists()
    info = hipport(["cache", "info", "--cache-dir", chosen], src)
    assert f"holds            {usage(chosen).files} files" in info.stdout
    (chosen / "mine.txt").write_text("not hipport's")  # a mistaken --cache-dir keeps it
    gone = hipport(["cache", "clean", "--cache-dir", chosen], src)
    assert gone.returncode == 0 and "removed" in gone.stdout
    assert usage(chosen).files == 0 and (chosen / "mine.txt").read_text() == "not hipport's"
    assert not list(chosen.glob("v*"))


def test_trim_removes_least_recently_used_first(tmp_path: Path) -> None:
    current = tmp_path / f"v{FORMAT}" / "results"
    current.mkdir(parents=True)
    old_format = tmp_path / "v1"
    old_format.mkdir()
    (old_format / "x.json").write_bytes(b"o" * 300_000)
    now = time.time()
    for i in range(10):  # 10 x 300 kB, used at now-10 ... now-1
        path = current / f"e{i}.json"
        path.write_bytes(b"e" * 300_000)
        os.utime(path, (now - 10 + i, now - 10 + i))
    removed = trim(tmp_path, 2 << 20, f"v{FORMAT}")  # 3.3 MB held, 2 MB cap: down to 1.6 MB
    left = sorted(p.name for p in current.iterdir())
    assert not (old_format / "x.json").exists()  # another format's file goes first
    assert left == [f"e{i}.json" for i in range(5, 10)]  # the five most recently used stay
    assert removed.files == 6 and usage(tmp_path).bytes <= (2 << 20) * 4 // 5
    assert trim(tmp_path, 2 << 20, f"v{FORMAT}").files == 0  # under the cap: nothing
    assert clean(tmp_path).files == 5


def test_the_walk_counts_regular_files_only_and_follows_no_link(tmp_path: Path) -> None:
    """A symlink (to a file or a directory outside the cache) and a FIFO in the cache are
    neither counted nor removed; files in nested directories are."""
    cache, outside = tmp_path / "cache", tmp_path / "outside"
    deep = cache / f"v{FORMAT}" / "results" / "ab"
    deep.mkdir(parents=True)
    outside.mkdir()
    (outside / "keep.txt").write_bytes(b"k" * 500_000)
    (deep / "e.json").write_bytes(b"e" * 1000)
    (cache / f"v{FORMAT}" / "top.json").write_bytes(b"t" * 10)
    os.symlink(outside / "keep.txt", deep / "link.json")
    os.symlink(outside, cache / f"v{FORMAT}" / "linked-dir")
    os.mkfifo(deep / "fifo.json")
    assert (usage(cache).files, usage(cache).bytes) == (2, 1010)
    assert trim(cache, 1, f"v{FORMAT}").files == 2
    assert (outside / "keep.txt").stat().st_size == 500_000
    assert (deep / "link.json").is_symlink() and (deep / "fifo.json").exists()


@pytest.mark.slow
def test_a_run_keeps_the_cache_under_its_cap(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = {"HIPPORT_CACHE_DIR": str(cache), "HIPPORT_CACHE_MAX_MB": "5"}
    first, second = tree(tmp_path / "first", 6, "a"), tree(tmp_path / "second", 6, "b")
    run = ["translate", ".", "--diff", "--no-progress"]
    assert hipport(run, first, **env).returncode == 1
    one_tree = usage(cache).bytes
    assert 5 << 19 < one_tree < 4 << 20  # two trees are over the cap, one is under 80% of it
    for path in cache.rglob("*.json"):  # the first tree's entries were used an hour ago
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    (cache / STAMP).unlink(missing_ok=True)  # a trim is due (one per 10 minutes)
    assert hipport(run, second, **env).returncode == 1
    assert usage(cache).bytes <= 5 << 20
    # the second tree's results stayed (a warm run reads them all), the first's went
    warm = hipport(run, second, **env)
    assert "6 from the cache" in warm.stderr, warm.stderr
    (cache / STAMP).touch()  # no trim during the check below
    cold = hipport(run, first, **env)
    assert "0 from the cache" in cold.stderr, cold.stderr
