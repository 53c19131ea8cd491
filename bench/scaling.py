"""Scaling of one file (issue 19): lines -> seconds and peak memory.

    python bench/scaling.py [--lines 1000,2000,5000,10000,20000,50000,100000]
                            [--long-line-mb 10] [--million] [--json OUT]

Each input is one file of repeated file-scope calls (`cudaFree(p);` on its own line: the
shape that made the old declaration parse grow about quadratically) and one file of that
call repeated on a single line of --long-line-mb megabytes. Each is timed in a fresh process:

  lex     hipport.lexer.lex over the file (tokens only)
  check   hipport check FILE --no-cache --jobs 1 --format json -o /dev/null --fail-on never

with wall and CPU seconds (user + sys of the process tree) and the peak RSS of the largest
process (wait4). --million also checks, cold and with one job, a generated tree
(bench/generate.py) of at least one million lines, the peak-memory figure of issue 20.
No figure is judged here: it prints the table (and the cost per line, whose growth with the
size is what linear means).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from generate import FILES_AT_SCALE_1, generate  # noqa: E402

CALL = b"cudaFree(p);"
LEX = (
    "import sys; from hipport.lexer import lex; "
    "print(len(lex(open(sys.argv[1], 'rb').read(), sys.argv[1])))"
)


def timed(cmd: list[str], env: dict) -> dict:
    """`cmd` in a fresh process: wall, CPU (user + sys, with its children), peak RSS."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise RuntimeError(f"exit {code}: {' '.join(cmd)}\n{err.decode()[-2000:]}")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "rss_mb": usage.ru_maxrss / 1024,
    }


def check_cmd(path: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "hipport",
        "check",
        str(path),
        "--no-cache",
        "--jobs",
        "1",
        "--format",
        "json",
        "-o",
        os.devnull,
        "--fail-on",
        "never",
    ]


def one_file(path: Path, env: dict) -> dict:
    data = path.read_bytes()
    lex = timed([sys.executable, "-c", LEX, str(path)], env)
    check = timed(check_cmd(path), env)
    lines = max(1, data.count(b"\n"))
    return {
        "file": path.name,
        "lines": data.count(b"\n"),
        "bytes": len(data),
        "lex": lex,
        "check": check,
        "check_us_per_line": check["cpu_s"] / lines * 1e6,
        "lex_us_per_kb": lex["cpu_s"] / (len(data) / 1024) * 1e6 / 1e3,
        "load": os.getloadavg()[0],
    }


def million(work: Path, env: dict) -> dict:
    tree = work / "million"
    scale = 1.0
    stats = generate(tree, scale=scale, with_corpus=False)
    if stats["lines"] < 1_000_000:
        shutil.rmtree(tree)
        scale = 1_000_000 / stats["lines"] * 1.02
        stats = generate(tree, files=round(FILES_AT_SCALE_1 * scale), with_corpus=False)
    check = timed(check_cmd(tree), env)
    shutil.rmtree(tree, ignore_errors=True)
    return {"files": stats["files"], "lines": stats["lines"], "check": check}


def render(report: dict) -> str:
    out = [
        f"scaling (one file; load average {report['load_before']} -> {report['load_after']}):",
        f"  {'input':28} {'lines':>8} {'MB':>6} {'lex cpu s':>10} {'lex MB':>7} "
        f"{'check cpu s':>12} {'check wall s':>13} {'check MB':>9} {'us/line':>8}",
    ]
    for row in report["files"]:
        out.append(
            f"  {row['file']:28} {row['lines']:8} {row['bytes'] / 1e6:6.2f} "
            f"{row['lex']['cpu_s']:10.2f} {row['lex']['rss_mb']:7.0f} "
            f"{row['check']['cpu_s']:12.2f} {row['check']['wall_s']:13.2f} "
            f"{row['check']['rss_mb']:9.0f} {row['check_us_per_line']:8.1f}"
        )
    if "million" in report:
        m = report["million"]
        out.append(
            f"  one-million-line tree: {m['files']} files, {m['lines']} lines: check --no-cache "
            f"--jobs 1 {m['check']['cpu_s']:.1f} s cpu, {m['check']['wall_s']:.1f} s wall, "
            f"peak RSS {m['check']['rss_mb']:.0f} MB (target: at most 300 MB)"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", default="1000,2000,5000,10000,20000,50000,100000")
    parser.add_argument("--long-line-mb", type=float, default=10.0)
    parser.add_argument("--million", action="store_true", help="also a 1M-line tree")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    env = dict(os.environ, CI="1")
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    work = Path(tempfile.mkdtemp(prefix="hipport-scaling-"))
    env["HIPPORT_CACHE_DIR"] = str(work / "cache")
    report: dict = {"load_before": [round(x, 2) for x in os.getloadavg()], "files": []}
    try:
        for n in (int(x) for x in args.lines.split(",") if x.strip()):
            path = work / f"calls-{n}.cu"
            path.write_bytes((CALL + b"\n") * n)
            print(f"  {path.name} ...", file=sys.stderr, flush=True)
            report["files"].append(one_file(path, env))
        if args.long_line_mb > 0:
            path = work / f"one-line-{args.long_line_mb:g}MB.cu"
            count = int(args.long_line_mb * 1e6) // (len(CALL) + 1)
            path.write_bytes(b" ".join([CALL] * count))
            print(f"  {path.name} ...", file=sys.stderr, flush=True)
            report["files"].append(one_file(path, env))
        if args.million:
            print("  one-million-line tree ...", file=sys.stderr, flush=True)
            report["million"] = million(work, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(render(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
