"""The cache cannot be forged (issue 30 item 3): every cache file's checksum is keyed with
a per-user secret kept outside the cache directory (created 0600), so an entry planted by
someone without the secret, or a cache directory restored from another account or
machine, is a miss; the fallback cache directory is private and checked for ownership."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability_support import env

UNPORTED = b"#include <cuda_runtime.h>\nint main() { cudaInitDevice(0, 0, 0); return 0; }\n"


def _check(
    tree: Path, cache: Path, config_home: Path, command: tuple[str, ...] = ("check",)
) -> subprocess.CompletedProcess:
    e = env(cache, XDG_CONFIG_HOME=str(config_home))
    return subprocess.run(
        [sys.executable, "-m", "hipport", *command, str(tree)],
        env=e,
        capture_output=True,
        timeout=300,
    )


def _from_cache(err: bytes) -> int:
    match = re.search(rb"(\d+) from the cache", err)
    assert match, err
    return int(match.group(1))


def _forge(path: Path) -> None:
    """Rewrite a cache file the way its format is documented, with the unkeyed checksum
    anyone can compute: the findings of a result, and the finding counts of a stat-index
    entry, emptied."""
    header, _, body = path.read_bytes().partition(b"\n")
    magic, version, kind, digests = header.split(b" ")
    if b"," in digests:  # a file of parts, one a line, each with its checksum (the index)
        lines = body.split(b"\n")
        sums = b",".join(hashlib.blake2b(x, digest_size=16).hexdigest().encode() for x in lines)
        path.write_bytes(b" ".join([magic, version, kind, sums]) + b"\n" + body)
        return
    value = json.loads(body)
    if kind == b"result":
        value[2]["$t"][2] = []
    elif kind == b"manifest":
        for entry in value[1].values():
            entry["$o"][1][3]["$o"][1][3] = {"$t": []}
    new_body = json.dumps(value, separators=(",", ":")).encode("ascii")
    digest = hashlib.blake2b(new_body, digest_size=16).hexdigest().encode()
    path.write_bytes(b" ".join([magic, version, kind, digest]) + b"\n" + new_body)


def test_a_forged_cache_entry_cannot_turn_a_failing_gate_into_a_pass(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(UNPORTED)
    (tree / "b.cu").write_bytes(b"int b;\n")
    cache, config_home = tmp_path / "cache", tmp_path / "config"
    first = _check(tree, cache, config_home)
    assert first.returncode == 1, first.stderr
    for p in cache.rglob("*.json"):
        _forge(p)
    forged = _check(tree, cache, config_home)
    assert forged.returncode == 1, forged.stdout + forged.stderr
    assert b"cudaInitDevice" in forged.stdout


def test_a_cache_restored_from_elsewhere_is_a_miss(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(UNPORTED)
    (tree / "b.cu").write_bytes(b"int b;\n")
    cache = tmp_path / "cache"
    run = ("translate", "--diff")  # prints how many results came from the cache
    assert _check(tree, cache, tmp_path / "mine", run).returncode == 1
    again = _check(tree, cache, tmp_path / "mine", run)
    assert _from_cache(again.stderr) == 2, again.stderr
    elsewhere = _check(tree, cache, tmp_path / "another-account", run)
    assert _from_cache(elsewhere.stderr) == 0, elsewhere.stderr


def test_the_secret_is_private_and_outside_the_cache(tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.cu").write_bytes(b"int a;\n")
    cache, config_home = tmp_path / "cache", tmp_path / "config"
    run = ("translate", "--diff")
    assert _check(tree, cache, config_home, run).returncode == 0
    key = config_home / "hipport" / "cache.key"
    st = os.lstat(key)
    assert stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600
    assert st.st_uid == os.getuid() and st.st_size >= 32
    assert not any(key.read_bytes() in p.read_bytes() for p in cache.rglob("*") if p.is_file())
    # a secret others can read is not one: replaced, and what it signed is a miss
    key.chmod(0o644)
    old = key.read_bytes()
    r = _check(tree, cache, config_home, run)
    assert r.returncode == 0 and _from_cache(r.stderr) == 0, r.stderr
    assert b"cache.key" in r.stderr  # the note says why
    assert stat.S_IMODE(os.lstat(key).st_mode) == 0o600 and key.read_bytes() != old


def test_the_fallback_cache_directory_is_private_and_ours(tmp_path: Path, monkeypatch) -> None:
    import tempfile

    from hipport import account as cache_mod

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    planted = tmp_path / f"hipport-{os.getuid()}"
    planted.mkdir(mode=0o777)
    planted.chmod(0o777)  # anyone could have made it, and planted entries in it
    private = cache_mod.private_fallback()
    assert private != planted
    st = os.lstat(private)
    assert st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) == 0o700
    if os.getuid() == 0:
        other = tmp_path / "other"
        monkeypatch.setattr(tempfile, "gettempdir", lambda: str(other))
        other.mkdir()
        theirs = other / "hipport-0"
        theirs.mkdir(mode=0o700)
        os.chown(theirs, 65534, 65534)  # nobody's
        assert cache_mod.private_fallback() != theirs
    else:
        pytest.skip("the ownership case needs root to chown a directory to another user")
