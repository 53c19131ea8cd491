"""Long fuzz run without atheris: `python tests/fuzz/run.py --seconds 600`.

Feeds random bytes and mutated corpus sources to hipport.engine.translate_source for the
default and the launch_syntax="hip" targets and checks the engine contract on each. Prints
the number of inputs tried, crashes (an exception), invariant failures (the contract's
assertions) and hangs (an input still running after --input-seconds: a watchdog thread
saves it to fuzz-hang.bin and ends the run, since a hang in libclang cannot be
interrupted); a failing input is saved to fuzz-crash-<n>.bin, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzz.mutate import check_one, random_input, seeds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--input-seconds",
        type=float,
        default=30.0,
        help="an input still running after this is a hang (default 30)",
    )
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)
    pool = seeds()
    deadline = time.monotonic() + args.seconds
    tried = crashes = invariants = 0
    slowest = 0.0
    current: list = [b"", time.monotonic(), True]  # input, its start, still running
    _watch(current, args.input_seconds, lambda: (tried, seed))
    while time.monotonic() < deadline:
        data = random_input(rng, pool)
        tried += 1
        current[:] = [data, time.monotonic(), True]
        try:
            check_one(data)
        except AssertionError:
            invariants += 1
            _save(data, crashes + invariants, "an invariant failed")
        except Exception:
            crashes += 1
            _save(data, crashes + invariants, "a crash")
        slowest = max(slowest, time.monotonic() - current[1])
        current[2] = False
        if crashes + invariants >= 5:
            break
    print(
        f"fuzz: {tried} inputs tried, {crashes} crashes, 0 hangs, {invariants} invariant "
        f"failures (seed {seed}, {args.seconds:.0f} s budget, slowest input {slowest:.2f} s, "
        f"limit {args.input_seconds:g} s)"
    )
    return 1 if crashes or invariants else 0


def _save(data: bytes, n: int, what: str) -> None:
    out = Path(f"fuzz-crash-{n}.bin")
    out.write_bytes(data)
    print(f"FAILURE ({what}; input saved to {out}):", file=sys.stderr)
    traceback.print_exc()


def _watch(current: list, limit: float, progress) -> None:
    """A thread that ends the run when one input runs past `limit` (a hang)."""
    import os
    import threading

    def watch() -> None:
        while True:
            time.sleep(min(1.0, limit / 4))
            data, start, running = current
            if running and time.monotonic() - start > limit:
                Path("fuzz-hang.bin").write_bytes(data)
                tried, seed = progress()
                print(
                    f"fuzz: HANG on input {tried} (over {limit:g} s; saved to fuzz-hang.bin; "
                    f"seed {seed})",
                    flush=True,
                )
                os._exit(1)

    threading.Thread(target=watch, name="fuzz-watchdog", daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
