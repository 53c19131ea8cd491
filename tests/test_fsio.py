"""hipport.fsio is the one module that writes: every write of the package goes through it,
it never writes through a planted name, and its cleanup knows every temporary name."""

from __future__ import annotations

import ast
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "hipport"

# (module, call) pairs that write without fsio, on purpose:
ALLOWED = {
    # $GITHUB_STEP_SUMMARY is GitHub's file, shared by every step of the job: appended to,
    # as GitHub documents, never replaced.
    ("hipport/cli/output.py", "open:a"),
}
_WRITE_MODES = ("w", "a", "x", "+")


def writes_outside_fsio(source: str) -> list[str]:
    """Every call in `source` that renames, replaces, copies or writes a file by itself."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            name = func.attr
            if owner == "os" and name in ("replace", "rename", "renames"):
                found.append(f"os.{name}")
            elif owner == "shutil" and name in ("move", "copy", "copy2", "copyfile"):
                found.append(f"shutil.{name}")
            elif owner == "tempfile" and name in ("mkstemp", "NamedTemporaryFile"):
                found.append(f"tempfile.{name}")
            elif name in ("write_text", "write_bytes", "rename"):
                found.append(name)
            elif name == "open" and owner != "os":
                found.extend(_write_mode(node, first_mode_arg=0))
        elif isinstance(func, ast.Name) and func.id == "open":
            found.extend(_write_mode(node, first_mode_arg=1))
    return found


def _write_mode(call: ast.Call, first_mode_arg: int) -> list[str]:
    mode = None
    if len(call.args) > first_mode_arg and isinstance(call.args[first_mode_arg], ast.Constant):
        mode = call.args[first_mode_arg].value
    for kw in call.keywords:
        if kw.arg == "mode" and isinstance(kw.value, ast.Constant):
            mode = kw.value.value
    if isinstance(mode, str) and any(c in mode for c in _WRITE_MODES):
        return [f"open:{mode[0]}"]
    return []


def test_the_finder_sees_each_kind_of_write():
    planted = (
        "import os, shutil\n"
        "def f(p, q):\n"
        "    os.replace(p, q)\n"
        "    os.rename(p, q)\n"
        "    shutil.copy2(p, q)\n"
        "    p.write_text('x')\n"
        "    p.rename(q)\n"
        "    open(p, 'w')\n"
        "    p.open(mode='ab')\n"
        "    open(p, 'rb')\n"
        "    'a'.replace('a', 'b')\n"
    )
    assert writes_outside_fsio(planted) == [
        "os.replace",
        "os.rename",
        "shutil.copy2",
        "write_text",
        "rename",
        "open:w",
        "open:a",
    ]


@pytest.mark.slow
def test_every_write_of_the_package_goes_through_fsio():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        if rel == "hipport/fsio.py":
            continue
        for call in writes_outside_fsio(path.read_text(encoding="utf-8")):
            if (rel, call) not in ALLOWED:
                offenders.append(f"{rel}: {call}")
    assert offenders == []


def test_os_replace_is_called_in_fsio(tmp_path: Path):
    """The check above must see fsio's own renames, or it proves nothing."""
    assert "os.replace" in writes_outside_fsio((PACKAGE / "fsio.py").read_text(encoding="utf-8"))


def test_a_planted_symlink_at_the_temp_name_is_never_written_through(
    tmp_path: Path, monkeypatch
) -> None:
    """An attacker (or a stale link) at the next temp name: O_EXCL refuses it, the write
    takes another name, and the link's target is untouched."""
    from hipport import fsio

    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    target = tmp_path / "a.cu"
    names = iter([".a.cu.planted.hipport-tmp"])
    real = fsio._temp_name
    monkeypatch.setattr(fsio, "_temp_name", lambda name: next(names, None) or real(name))
    (tmp_path / ".a.cu.planted.hipport-tmp").symlink_to(victim)
    fsio.atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert victim.read_bytes() == b"precious"
    assert (tmp_path / ".a.cu.planted.hipport-tmp").is_symlink()


def test_a_new_file_gets_the_umask_mode_and_an_old_one_keeps_its_mode(tmp_path: Path):
    from hipport import fsio

    umask = os.umask(0o022)
    os.umask(umask)
    new = tmp_path / "new.cu"
    fsio.atomic_write(new, b"x")
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask
    old = tmp_path / "old.cu"
    old.write_bytes(b"old")
    old.chmod(0o751)
    fsio.atomic_write(old, b"new")
    assert stat.S_IMODE(old.stat().st_mode) == 0o751 and old.read_bytes() == b"new"


def test_a_write_that_fails_midway_leaves_the_old_file_and_no_temp(tmp_path: Path):
    from hipport import fsio

    target = tmp_path / "a.cu"
    target.write_bytes(b"old")
    with pytest.raises(TypeError):
        fsio.atomic_write(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["a.cu"]


def test_copy_atomic_copies_content_mode_and_times(tmp_path: Path):
    from hipport import fsio

    source = tmp_path / "data.bin"
    source.write_bytes(bytes(range(256)) * 5000)
    source.chmod(0o640)
    os.utime(source, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "data.bin"
    target.write_bytes(b"an older copy")
    fsio.copy_atomic(source, target)
    assert target.read_bytes() == source.read_bytes()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.stat().st_mtime_ns == source.stat().st_mtime_ns
    assert os.listdir(tmp_path / "out") == ["data.bin"]


def test_move_atomic_replaces_the_target(tmp_path: Path):
    from hipport import fsio

    (tmp_path / "a.cu").write_bytes(b"a")
    (tmp_path / "a.cu.orig").write_bytes(b"an older backup")
    fsio.move_atomic(tmp_path / "a.cu", tmp_path / "a.cu.orig")
    assert os.listdir(tmp_path) == ["a.cu.orig"] and (tmp_path / "a.cu.orig").read_bytes() == b"a"


def test_probe_writable_leaves_nothing_and_refuses_a_missing_directory(tmp_path: Path):
    from hipport import fsio

    fsio.probe_writable(tmp_path)
    assert os.listdir(tmp_path) == []
    with pytest.raises(OSError):
        fsio.probe_writable(tmp_path / "missing")


def _dead_pid() -> int:
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(proc.stdout)


def test_the_cleanup_knows_every_temporary_name(tmp_path: Path):
    """Each name the program makes (or older versions made) is stale when its writer is dead
    (or, without a pid, when it is old); a live writer's file and user files are kept."""
    from hipport import fsio

    dead = _dead_pid()
    old = 1_000_000_000  # 2001: well past any age limit

    def planted(name: str, aged: bool = False) -> Path:
        path = tmp_path / name
        path.write_bytes(b"")
        if aged:
            os.utime(path, (old, old))
        return path

    stale = [
        planted(f".a.cu.{dead}.0a1b2c3d.hipport-tmp"),
        planted(f".hipport-baseline.json.tmp{dead}"),
        planted(".a.cu.hipport-copy", aged=True),
        planted(".a.cu.hipport-tmp", aged=True),
    ]
    kept = [
        planted(f".a.cu.{os.getpid()}.0a1b2c3d.hipport-tmp"),
        planted(".b.cu.hipport-copy"),  # recent: maybe a live older run's
        planted(f".hipport-baseline.json.tmp{os.getpid()}"),
        planted(".notes.hipport-tmp.txt", aged=True),
        planted("a.cu.hipport-tmp", aged=True),  # not hidden: not a name hipport makes
    ]
    assert [p.name for p in stale if not fsio.is_stale_temp(p)] == []
    assert [p.name for p in kept if fsio.is_stale_temp(p)] == []


def test_every_temporary_name_fsio_makes_is_one_the_cleanup_knows(tmp_path: Path):
    from hipport import fsio

    name = fsio._temp_name("a.cu")
    assert name.startswith(".a.cu.") and name.endswith(fsio.TEMP_SUFFIX)
    path = tmp_path / name
    path.write_bytes(b"")
    assert not fsio.is_stale_temp(path)  # its writer (this process) lives
    dead_name = name.replace(f".{os.getpid()}.", f".{_dead_pid()}.")
    assert fsio.is_stale_temp(tmp_path / dead_name)


def test_a_write_in_pieces_is_their_concatenation_and_a_failure_midway_loses_nothing(
    tmp_path: Path,
):
    """A large report is written as it is made (atomic_write takes pieces): the file is
    the pieces joined; an error while they are made leaves the old file and no temp."""
    from hipport import fsio

    target = tmp_path / "report.json"
    fsio.atomic_write(target, (bytes([65 + i]) * 70_000 for i in range(5)))
    assert target.read_bytes() == b"".join(bytes([65 + i]) * 70_000 for i in range(5))

    def failing():
        yield b"half of a new report"
        raise RuntimeError("the renderer failed")

    with pytest.raises(RuntimeError):
        fsio.atomic_write(target, failing())
    assert target.read_bytes()[:70_000] == b"A" * 70_000
    assert os.listdir(tmp_path) == ["report.json"]  # no temp file left
    if os.geteuid() == 0:  # a device of our own (root only): written to, never replaced
        null = tmp_path / "null"
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers
        fsio.atomic_write(null, iter([b"to ", b"a device"]))
        assert null.is_char_device()
