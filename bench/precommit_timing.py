"""How long the pre-commit hook takes for one changed file in a 5,000-file repository.

    python bench/precommit_timing.py [--files 5000] [--repeat 5] [--workdir DIR]

Builds a git repository of synthetic CUDA and C++ sources (kernels, runtime calls, headers
declaring project functions other files call), warms hipport's cache with one full
`hipport check .`, then, `--repeat` times, changes one file and measures:

  hipport     `hipport check FILE` on its own (a fresh process: startup, tables, the file,
              the cached project index);
  pre-commit  the whole `pre-commit run hipport-check --files FILE`, with the hook
              installed from a snapshot of this checkout's working tree (one commit, so
              uncommitted work is measured too; the virtualenv is built once, untimed).

Prints the median of each against the targets (0.5 s and 1 s). Exit status 1 if a median
misses its target, so the script can gate CI too.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"hipport": 0.5, "pre-commit": 1.0}
GIT_ID = [
    "-c",
    "user.name=hipport bench",
    "-c",
    "user.email=bench@hipport.invalid",
    "-c",
    "commit.gpgsign=false",
]

KERNEL = """#include <cuda_runtime.h>
#include "common/api_{m}.h"

__global__ void kernel_{n}(float *x, int count) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) x[i] = helper_{m}(x[i]) * {n}.0f;
}}

int launch_{n}(float *host, int count) {{
  float *dev = nullptr;
  cudaMalloc(&dev, count * sizeof(float));
  cudaMemcpy(dev, host, count * sizeof(float), cudaMemcpyHostToDevice);
  kernel_{n}<<<(count + 255) / 256, 256>>>(dev, count);
  cudaError_t err = cudaGetLastError();
  cudaMemcpy(host, dev, count * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  return err == cudaSuccess ? 0 : 1;
}}
"""
HOST = """#include <vector>
#include "common/api_{m}.h"

int launch_{k}(float *host, int count);

int run_{n}() {{
  std::vector<float> data(1024, 1.0f);
  int status = launch_{k}(data.data(), static_cast<int>(data.size()));
  return status + static_cast<int>(host_helper_{m}(data[0]));
}}
"""
HEADER = """#pragma once
#include <cuda_runtime.h>

__host__ __device__ inline float helper_{n}(float v) {{ return v * 0.5f + {n}.0f; }}
float host_helper_{n}(float v);
"""


def build_repository(repo: Path, count: int) -> list[Path]:
    """count sources: 10% headers, 45% .cu kernels, 45% .cpp host files, 100 per folder."""
    headers = max(1, count // 10)
    paths = []
    for n in range(count):
        folder = repo / ("common" if n < headers else f"src/m{n // 100:03d}")
        folder.mkdir(parents=True, exist_ok=True)
        if n < headers:
            path, text = folder / f"api_{n}.h", HEADER.format(n=n)
        elif n % 2:
            path, text = folder / f"k{n}.cu", KERNEL.format(n=n, m=n % headers)
        else:
            path, text = folder / f"h{n}.cpp", HOST.format(n=n, m=n % headers, k=n - 1)
        path.write_text(text)
        paths.append(path)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "synthetic CUDA project")
    return paths


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *GIT_ID, *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


def snapshot_checkout(dest: Path) -> str:
    """This checkout's working tree (tracked and untracked, not ignored) as one commit."""
    listed = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for rel in filter(None, listed.split("\0")):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "snapshot")
    return git(dest, "rev-parse", "HEAD").strip()


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, int, str]:
    """(wall seconds, CPU seconds of the process tree, exit code, output). CPU time is the
    figure to read on a loaded machine: wall time there mostly measures the queue."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode, done.stdout + done.stderr


def change(path: Path, round_: int) -> None:
    """An edit like a developer's: one new function in the file."""
    with path.open("a") as fh:
        fh.write(f"\nint added_in_round_{round_}() {{ return {round_}; }}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--workdir",
        type=Path,
        help="Keep the repository here (default: a temporary directory, removed after).",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="Reuse the repository and warm cache left in --workdir.",
    )
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="hipport-precommit-bench-"))
    try:
        return run(work, args.files, args.repeat, args.reuse and args.workdir is not None)
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)


def run(work: Path, count: int, repeat: int, reuse: bool) -> int:
    repo, hooks = work / "project", work / "hooks"
    reuse = reuse and (repo / ".git").is_dir()
    for d in (repo, hooks) if not reuse else (hooks,):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    # As a user's machine has it: bytecode is cached (some CI images turn that off, which
    # costs every run ~0.4 s of compiling); the cache goes to the work directory.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GIT_", "PRE_COMMIT")) and k != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(
        HIPPORT_CACHE_DIR=str(work / "hipport-cache"),
        NO_COLOR="1",
        PRE_COMMIT_HOME=str(work / "pre-commit-home"),
        PRE_COMMIT_COLOR="never",
        PYTHONPYCACHEPREFIX=str(work / "pycache"),
    )
    own_env = env | {"PYTHONPATH": str(ROOT)}
    hipport = [sys.executable, "-m", "hipport"]

    if reuse:
        paths = sorted(p for p in repo.rglob("*") if p.suffix in (".cu", ".cpp", ".h"))
        print(f"repository: reusing {len(paths)} files in {repo}")
    else:
        t0 = time.perf_counter()
        paths = build_repository(repo, count)
        print(f"repository: {count} files in {time.perf_counter() - t0:.1f} s")
    wall, _, code, out = timed([*hipport, "check", ".", "--fail-on", "never"], repo, own_env)
    if code != 0:
        print(out)
        return 2
    print(f"warm-up: full `hipport check .` in {wall:.1f} s")

    rev = snapshot_checkout(hooks)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks.as_posix()}\n    rev: {rev}\n    hooks:\n"
        f"      - id: hipport-check\n"
    )
    git(repo, "add", ".pre-commit-config.yaml")
    pre_commit = [sys.executable, "-m", "pre_commit"]
    t0 = time.perf_counter()
    subprocess.run(
        [*pre_commit, "install-hooks"], cwd=repo, env=env, check=True, capture_output=True
    )
    print(f"hook virtualenv built in {time.perf_counter() - t0:.1f} s (untimed)")

    target = paths[len(paths) // 2]
    rel = target.relative_to(repo).as_posix()
    # the hook's own command line, as .pre-commit-hooks.yaml gives it
    entry = _hook_entry("hipport-check")
    results: dict[str, list[tuple[float, float]]] = {"hipport": [], "pre-commit": []}
    for i in range(repeat):
        change(target, 2 * i)
        wall, cpu, code, out = timed([*hipport, *entry[1:], rel], repo, own_env)
        _expect_clean(code, out)
        results["hipport"].append((wall, cpu))
        change(target, 2 * i + 1)
        wall, cpu, code, out = timed(
            [*pre_commit, "run", "hipport-check", "--files", rel], repo, env
        )
        _expect_clean(code, out)
        results["pre-commit"].append((wall, cpu))

    load = os.getloadavg()[0]
    print(
        f"one changed file ({rel}) in {count} files, median of {repeat} "
        f"({os.cpu_count()} CPUs, load average {load:.1f}):"
    )
    missed = False
    for name, values in results.items():
        wall = statistics.median(v[0] for v in values)
        cpu = statistics.median(v[1] for v in values)
        ok = wall <= TARGETS[name]
        missed |= not ok
        runs = " ".join(f"{v[0]:.2f}" for v in values)
        print(
            f"  {name:<10} wall {wall:.3f} s, CPU {cpu:.3f} s (target {TARGETS[name]} s: "
            f"{'ok' if ok else 'MISSED'})  wall runs: {runs}"
        )
    return 1 if missed else 0


def _hook_entry(hook_id: str) -> list[str]:
    import shlex

    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == hook_id)
    return shlex.split(hook["entry"]) + list(hook.get("args", []))


def _expect_clean(code: int, out: str) -> None:
    if code != 0:
        raise SystemExit(f"the timed run failed (exit {code}):\n{out}")


if __name__ == "__main__":
    sys.exit(main())
