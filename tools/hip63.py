"""Compile translated code as HIP 6.3, syntax only, beside Debian's HIP 5.2.

The HIP 6.3 runtime headers live in ../shared/hip-6.3 (its README gives the flags): Debian's
clang 15 compiles against them with `-nogpuinc` (so that Debian's HIP 5.2 include path is not
added), `-D__HIP_PLATFORM_AMD__` and `-include __clang_hip_runtime_wrapper.h`. Used by
tools/consistency.py and the tests that compile for both releases.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HIP63_INCLUDE = ROOT.parent / "shared" / "hip-6.3" / "include"
OFFLOAD_ARCH = "gfx908"  # the README's: no fp8 fast path, both fp8 formats declared


def hip63_compiler() -> list[str] | None:
    """The compiler command for HIP 6.3 (None: clang++-15 or the headers are missing)."""
    clang = shutil.which("clang++-15")
    if clang is None or not (HIP63_INCLUDE / "hip" / "hip_runtime.h").is_file():
        return None
    return [
        clang,
        "-nogpuinc",
        "-D__HIP_PLATFORM_AMD__",
        f"-I{HIP63_INCLUDE}",
        "-include",
        "__clang_hip_runtime_wrapper.h",
    ]
