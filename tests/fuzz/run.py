"""Long fuzz run without atheris: `python tests/fuzz/run.py --seconds 600`.

Feeds random bytes and mutated corpus sources to hipport.engine.translate_source for the
default and the launch_syntax="hip" targets and checks the engine contract on each. Prints
the number of inputs tried; on a failure writes the input to fuzz-crash-<n>.bin and exits 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzz.mutate import check_one, random_input, seeds  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)
    pool = seeds()
    deadline = time.monotonic() + args.seconds
    tried = failures = 0
    while time.monotonic() < deadline:
        data = random_input(rng, pool)
        tried += 1
        try:
            check_one(data)
        except Exception:  # noqa: BLE001 - report every kind of failure
            failures += 1
            out = Path(f"fuzz-crash-{failures}.bin")
            out.write_bytes(data)
            print(f"FAILURE on input {tried} (saved to {out}):", file=sys.stderr)
            traceback.print_exc()
            if failures >= 5:
                break
    print(
        f"fuzz: {tried} inputs tried, {failures} failures (seed {seed}, "
        f"{args.seconds:.0f} s budget)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
