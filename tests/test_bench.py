"""The benchmark keeps working: a short run writes every figure (their values are not tested:
timing assertions would only make CI flaky)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

TIMED = (
    "limit",
    "floor",
    "cold_translate_jobs1",
    "cold_translate_all",
    "warm_rerun",
    "warm_rerun_fresh_output",
    "check_cold_jobs1",
    "check_cold",
    "check_warm",
    "precommit_hipport",
    "warm_check_cold",
    "warm_check_unchanged",
    "warm_check_unchanged_concise",
    "warm_check_unchanged_concise_again",
    "warm_check_one_file",
    "warm_check_one_header",
    "warm_check_hook",
    "warm_translate_new_dir",
    "table_load",
    "cli_help",
)


def test_generator_is_deterministic(tmp_path: Path) -> None:
    from generate import generate

    a = generate(tmp_path / "a", files=40, with_corpus=False)
    b = generate(tmp_path / "b", files=40, with_corpus=False)
    assert a == b and a["files"] >= 40 and a["plain_files"] > 0
    for path in (tmp_path / "a").rglob("*"):
        if path.is_file():
            twin = tmp_path / "b" / path.relative_to(tmp_path / "a")
            assert path.read_bytes() == twin.read_bytes(), path


@pytest.mark.slow
def test_short_benchmark_writes_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "run.py"),
            "--short",
            "--scale",
            "0.02",
            "--tree-files",
            "80",
            "--json",
            str(out),
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(out.read_text())
    results = report["results"]
    for key in TIMED:
        assert key in results, f"{key} missing; skipped: {report['skipped']}"
        assert results[key]["wall_s"] > 0, key
    for key in ("cold_translate_jobs1", "check_cold_jobs1", "limit", "precommit_hipport"):
        assert results[key]["cpu_s"] > 0 and results[key]["rss_mb"] > 0, key
    assert results["limit"]["tokens"] > 0 and results["limit"]["files"] > 0
    assert results["floor"]["tokens"] > 0 and results["floor"]["cpu_s"] > 0
    for key in ("limit_ratio_translate", "limit_ratio_check", "floor_ratio_translate"):
        assert results[key]["wall"] > 0 and results[key]["cpu"] > 0, key
    assert results["lines_per_s"]["wall"] > 0 and results["peak_rss_mb"]["value"] > 0
    assert "precommit_run" in results or "precommit_run" in report["skipped"]
    assert {t[3] for t in report["targets"]} <= {"PASS", "MISS", "-"}
    assert "targets:" in proc.stdout and "ratio to the limit, cold check" in proc.stdout
    assert "ratio to the lexing floor (issue 15)" in proc.stdout


def test_limit_tokenizes_the_files_hipport_processes(tmp_path: Path) -> None:
    """bench/limit.py reads the files hipport's walk finds and gets the tokens hipport's
    lexer gets (the limit is measured over the same work, not a smaller one)."""
    import limit
    from generate import generate

    from hipport.lexer import lex
    from hipport.project import discover

    generate(tmp_path / "tree", files=30, with_corpus=False, seed=3)
    (tmp_path / "tree" / "notes.txt").write_text("cudaFree(p);\n")  # not a source
    paths = limit.source_files(tmp_path / "tree")
    found = [f.path for f in discover([tmp_path / "tree"]).files if f.kind == "source"]
    assert paths == found and len(paths) >= 30
    figures = limit.measure(paths)
    assert figures["files"] == len(paths)
    assert figures["tokens"] == sum(len(lex(p.read_bytes())) for p in paths)
    assert figures["cpu_s"] > 0 and figures["lines"] > 0
