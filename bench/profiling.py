"""Profile a cold `translate --jobs 1` and a warm re-run with pyinstrument, in one process.

    pip install pyinstrument
    python bench/profiling.py [--scale 0.25] [--out DIR]

The runner hands even --jobs 1 to a one-worker process pool, which a profiler in the parent
cannot see into; here its `_execute` is replaced by a plain loop over the same `_process`,
so everything the worker does shows up. Writes cold.txt / warm.txt (call trees) and
cold-flat.txt / warm-flat.txt (functions by own time, wall) from pyinstrument, and
cold-cprofile.txt / warm-cprofile.txt from cProfile on CPU time (steady on a loaded machine),
to --out, and prints the cProfile tops.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from generate import generate  # noqa: E402


def translate(corpus: Path, out: Path, *extra: str) -> None:
    from hipport.cli import main

    try:
        main(
            ["translate", str(corpus), "-o", str(out), "--jobs", "1", "-q", *extra],
            standalone_mode=False,
        )
    except SystemExit:
        pass


def profiled(name: str, outdir: Path, func, *args) -> None:
    from pyinstrument import Profiler
    from pyinstrument.renderers import ConsoleRenderer

    profiler = Profiler(interval=0.001)
    profiler.start()
    func(*args)
    session = profiler.stop()
    (outdir / f"{name}.txt").write_text(profiler.output_text(unicode=False, color=False))
    flat = ConsoleRenderer(unicode=False, color=False, flat=True, time="seconds")
    (outdir / f"{name}-flat.txt").write_text(flat.render(session))
    print(
        f"== {name} (pyinstrument, wall): {session.duration:.2f} s wall, "
        f"{session.cpu_time:.2f} s cpu -> {outdir / name}.txt"
    )


def cpu_profiled(name: str, outdir: Path, func, *args) -> None:
    """cProfile on CPU time (time.process_time): steady on a loaded machine, and it counts
    calls; its per-call overhead inflates small Python functions a little."""
    import cProfile
    import io
    import pstats
    import time

    prof = cProfile.Profile(time.process_time)
    prof.runcall(func, *args)
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(30)
    (outdir / f"{name}-cprofile.txt").write_text(buf.getvalue())
    print(f"== {name} (cProfile, cpu): {stats.total_tt:.2f} s -> {outdir / name}-cprofile.txt")
    print("\n".join(buf.getvalue().splitlines()[:40]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.25)
    parser.add_argument("--out", type=Path, default=Path("bench-profile"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="hipport-profile-"))
    os.environ["HIPPORT_CACHE_DIR"] = str(work / "cache")
    os.environ["CI"] = "1"
    try:
        corpus = work / "corpus"
        stats = generate(corpus, scale=args.scale)
        print(f"corpus: {stats['files']} files, {stats['lines']} lines")
        from hipport.runner import pool

        pool.execute = pool.execute_serially  # in this process, so the profile sees it
        profiled("cold", args.out, translate, corpus, work / "cold", "--no-cache")
        cpu_profiled("cold", args.out, translate, corpus, work / "cold2", "--no-cache")
        translate(corpus, work / "warm")  # fill the cache
        profiled("warm", args.out, translate, corpus, work / "warm")
        cpu_profiled("warm", args.out, translate, corpus, work / "warm")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
