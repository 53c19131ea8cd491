"""The stat index (hipport.cache.Manifest) re-encodes only the entries a run changed when
it saves; the file it writes is the one a full encoding writes, byte for byte, after each
kind of change (an entry recorded, replaced, forgotten, its stat refreshed)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from hipport.cache import Manifest, content_hash, open_manifest
from hipport.cache_format import dumps
from hipport.target import Version


def _full(manifest: Manifest) -> bytes:
    return dumps("manifest", [manifest.key, manifest.entries])


def test_a_save_writes_what_a_full_encoding_writes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    files = []
    for i in range(4):
        path = tmp_path / f"f{i}.cu"
        path.write_bytes(b"int x%d;\n" % i)
        past = time.time() - 60
        os.utime(path, (past, past))
        files.append(path)

    def reopen() -> Manifest:
        return open_manifest(tmp_path, "options", "tables", tmp_path / "cache")

    first = reopen()
    for i, path in enumerate(files):
        info = {"n": i, "v": Version.parse("6.2.0"), "t": (1, "a")}
        first.record(str(path), os.stat(path), content_hash(path.read_bytes()), info, f"c{i}")
    first.save()
    assert first.path.read_bytes() == _full(first)

    second = reopen()
    assert second.entries == first.entries
    second.record(str(files[1]), os.stat(files[1]), "new", ["x"], "c9")  # replaced
    second.forget(str(files[2]))
    extra = tmp_path / "g.cu"
    extra.write_bytes(b"int g;\n")
    second.record(str(extra), os.stat(extra), "g", None)  # added
    os.utime(files[3])  # its stat moves, its content stays: check refreshes the entry
    assert second.check(str(files[3]), files[3], "c3") is not None
    second.save()
    assert second.path.read_bytes() == _full(second)
    third = reopen()
    assert third.entries == second.entries
    assert third.entries[str(files[3])].mtime_ns == os.stat(files[3]).st_mtime_ns
    assert str(files[2]) not in third.entries
