"""How `hipport check` scales with one pathological input (issue 30 item 4): for each input
kind and size, the CPU seconds and peak resident memory of one `check FILE --no-cache`
run, measured by the kernel (wait4's rusage); the run is made in one process (the pool's
serial path), so the figures include the translation a worker would otherwise do. Prints
a table; asserts nothing (the machine's load changes the figures).

    PYTHONPATH=. python bench/pathological.py                  # every kind, two sizes each
    PYTHONPATH=. python bench/pathological.py --kind launches --sizes 10000,20000,40000
    PYTHONPATH=. python bench/pathological.py --issue-table    # issue 30's rows, both commands

Doubling the size should about double the CPU time; a ratio near 4 is a quadratic path."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def unknown_names_one_line(n: int) -> bytes:
    """n distinct unknown CUDA-looking names on one line (each a HIP004 finding)."""
    return b"void f() { " + b" ".join(b"cudaNoSuchThing%d();" % i for i in range(n)) + b" }\n"


def unknown_names_many_lines(n: int) -> bytes:
    return b"".join(b"void f%d() { cudaNoSuchThing%d(); }\n" % (i, i) for i in range(n))


def device_launches(n: int) -> bytes:
    head = b"#include <cuda_runtime.h>\n__global__ void child() {}\n__global__ void parent() {\n"
    return head + b"  child<<<1, 1>>>();\n" * n + b"}\n"


def comment_lines(n: int) -> bytes:
    return (
        b"#include <cuda_runtime.h>\n"
        + b"// a comment line\n" * n
        + b"void f() { cudaDeviceSynchronize(); }\n"
    )


def one_long_line(n: int) -> bytes:
    """About n bytes of code on one line, one CUDA call among them."""
    unit = b"int v = w + 1; "
    return b"void f() { cudaDeviceSynchronize(); " + unit * (n // len(unit)) + b"}\n"


KINDS: dict[str, tuple[Callable[[int], bytes], tuple[int, ...]]] = {
    "unknown-names-one-line": (unknown_names_one_line, (2_500, 5_000)),
    "unknown-names-many-lines": (unknown_names_many_lines, (25_000, 50_000)),
    "device-launches": (device_launches, (5_000, 10_000)),
    "comment-lines": (comment_lines, (40_000, 80_000)),
    "one-long-line": (one_long_line, (2_500_000, 5_000_000)),
}


# The inputs issue 30 item 4 names (kind, size): its goal is at most 10 s CPU and 500 MB
# for every input under 10 MB, in translate and in check.
ISSUE_ROWS = (
    ("one-long-line", 10_000_000),
    ("unknown-names-one-line", 10_000),
    ("device-launches", 100_000),
    ("comment-lines", 80_000),
    ("unknown-names-one-line", 300_000),
    ("unknown-names-many-lines", 300_000),
)


def measure(data: bytes, command: str = "check") -> tuple[float, float, float]:
    """(CPU s, peak MB, wall s) of `hipport check` (a JSON report to a file; check-text:
    the default text report to stdout; or translate) on one file holding `data`."""
    with tempfile.TemporaryDirectory(prefix="hipport-scaling-") as tmp:
        src = Path(tmp, "input.cu")
        src.write_bytes(data)
        report = Path(tmp, "report.json")
        args = [str(src), "--no-cache", "--format", "json", "-o", str(report)]
        if command == "translate":
            args = [str(src), "--no-cache", "-o", str(Path(tmp, "out"))]
        elif command == "check-text":  # the default report (text) to stdout
            args, command = [str(src), "--no-cache"], "check"
        # the whole run in one process (as bench/profiling.py does), so that the kernel's
        # figures include the translation, which a pool worker would otherwise do unseen
        code = (
            "import sys, hipport.runner.pool as p; p.execute = p.execute_serially; "
            f"from hipport.cli import main; sys.argv = ['hipport', '{command}', *sys.argv[1:]]; "
            "main()"
        )
        cmd = [sys.executable, "-c", code, *args]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        exit_code = os.waitstatus_to_exitcode(status)
    if exit_code not in (0, 1):
        raise RuntimeError(f"hipport {command} exited {exit_code}: not a finished run's figure")
    cpu = usage.ru_utime + usage.ru_stime
    return cpu, usage.ru_maxrss / 1024, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", action="append", choices=sorted(KINDS))
    parser.add_argument("--sizes", help="comma-separated sizes (default: each kind's two)")
    parser.add_argument(
        "--issue-table",
        action="store_true",
        help="issue 30's rows: check (JSON and text) and translate",
    )
    args = parser.parse_args()
    if args.issue_table:
        issue_table()
        return
    print(f"{'input kind':26} {'size':>10} {'bytes':>10} {'CPU s':>8} {'peak MB':>8} {'wall s':>8}")
    for kind in args.kind or list(KINDS):
        make, sizes = KINDS[kind]
        if args.sizes:
            sizes = tuple(int(s) for s in args.sizes.split(","))
        for size in sizes:
            data = make(size)
            cpu, peak, wall = measure(data)
            print(
                f"{kind:26} {size:>10} {len(data):>10} {cpu:>8.2f} {peak:>8.0f} {wall:>8.2f}",
                flush=True,
            )


def issue_table() -> None:
    print(f"{'input kind':26} {'size':>8} {'MB':>6} {'command':>10} {'CPU s':>7} {'peak MB':>8}")
    for kind, size in ISSUE_ROWS:
        data = KINDS[kind][0](size)
        for command in ("check", "check-text", "translate"):
            cpu, peak, _ = measure(data, command)
            print(
                f"{kind:26} {size:>8} {len(data) / 1e6:>6.2f} {command:>10} {cpu:>7.2f} "
                f"{peak:>8.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
