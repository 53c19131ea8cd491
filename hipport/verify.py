"""Compile translated output with a real HIP compiler (syntax only; no GPU needed)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

TRANSLATION_UNIT_SUFFIXES = (".cu", ".hip", ".cpp", ".cc", ".cxx")
_ERROR_RE = re.compile(r"^(?P<loc>[^\n:]+:\d+:\d+): (?:fatal )?error: (?P<msg>.*)$", re.M)


@dataclass(frozen=True)
class CompileResult:
    path: Path
    ok: bool
    first_error: str | None
    stderr: str
    command: tuple[str, ...]


def find_compiler(explicit: str | None = None) -> list[str] | None:
    """The HIP compiler command: --hip-compiler, $HIPCC, hipcc, or a clang++ that knows -x hip."""
    if explicit:
        return shlex.split(explicit)
    if os.environ.get("HIPCC"):
        return shlex.split(os.environ["HIPCC"])
    for name in ("hipcc", "amdclang++", "clang++-15", "clang++"):
        path = shutil.which(name)
        if path:
            return [path]
    return None


def hip_version(include_dir: Path = Path("/usr/include/hip")) -> str | None:
    """HIP's version from hip_version.h (Debian's clang may not find it by itself)."""
    for base in (include_dir, Path("/opt/rocm/include/hip")):
        header = base / "hip_version.h"
        try:
            text = header.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        major = re.search(r"#define\s+HIP_VERSION_MAJOR\s+(\d+)", text)
        minor = re.search(r"#define\s+HIP_VERSION_MINOR\s+(\d+)", text)
        if major and minor:
            return f"{major.group(1)}.{minor.group(1)}"
    return None


def compile_command(
    compiler: list[str],
    path: Path,
    offload_arch: str,
    include_dirs: Iterable[Path] = (),
    version: str | None = None,
    extra: Iterable[str] = (),
) -> list[str]:
    cmd = [
        *compiler,
        "-x",
        "hip",
        f"--offload-arch={offload_arch}",
        "-fsyntax-only",
        "-nogpulib",
        "-Wno-unused-command-line-argument",
        "-std=c++17",
    ]
    if version:
        cmd.append(f"--hip-version={version}")
    # inputs by absolute path: a relative name such as `@args.cu` would be read as a
    # response file (its lines become arguments: a `-fplugin=` from the tree). No `--`
    # before the input: hipcc appends its link flags after it, which `--` makes inputs.
    cmd += [f"-I{os.path.abspath(d)}" for d in include_dirs]
    cmd += [*extra, os.path.abspath(path)]
    return cmd


def compile_one(
    compiler: list[str],
    path: Path,
    offload_arch: str = "gfx90a",
    include_dirs: Iterable[Path] = (),
    version: str | None = None,
    extra: Iterable[str] = (),
    timeout: int = 300,
) -> CompileResult:
    cmd = compile_command(
        compiler, path, offload_arch, [path.parent, *include_dirs], version, extra
    )
    env = dict(os.environ)
    env["HIP_PLATFORM"] = "amd"  # hipcc picks nvcc when it finds a CUDA install
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, env=env, timeout=timeout, errors="replace"
        )
    except subprocess.TimeoutExpired:
        return CompileResult(path, False, f"compiler timed out after {timeout} s", "", tuple(cmd))
    except OSError as exc:
        return CompileResult(path, False, f"cannot run the compiler: {exc}", "", tuple(cmd))
    match = _ERROR_RE.search(proc.stderr)
    first = f"{match.group('loc')}: {match.group('msg')}" if match else None
    if proc.returncode != 0 and first is None:
        first = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
    return CompileResult(path, proc.returncode == 0, first, proc.stderr, tuple(cmd))


def compile_many(
    compiler: list[str],
    paths: list[Path],
    offload_arch: str = "gfx90a",
    include_dirs: Iterable[Path] = (),
    version: str | None = None,
    jobs: int = 0,
) -> list[CompileResult]:
    """Compile in parallel (threads: the work is in the compiler processes)."""
    include_dirs = list(include_dirs)
    workers = jobs or os.cpu_count() or 1
    with ThreadPoolExecutor(workers) as pool:
        return list(
            pool.map(lambda p: compile_one(compiler, p, offload_arch, include_dirs, version), paths)
        )


def translated_dirs(include_dirs: Iterable[Path], base: Path, root: Path) -> list[Path]:
    """The include directories as the compiler must read them after a translation of the
    tree at `base` into `root`: one inside `base` is its translated copy (the CUDA original
    would hand the compiler untranslated headers), any other stays as it is."""
    out = []
    top = base.resolve()
    for directory in include_dirs:
        full = directory.resolve()
        out.append(root / full.relative_to(top) if full.is_relative_to(top) else directory)
    return out


def translation_units(root: Path) -> list[Path]:
    return sorted(
        p for p in root.rglob("*") if p.is_file() and p.suffix in TRANSLATION_UNIT_SUFFIXES
    )
