"""A file's result reads the same through each kind of handle the run may give it
(hipport.runner.outcome.ResultHandle): held in memory (--no-cache, results kept), left in
the cache (a warm run that streams its results) or spilled to the run's temporary file
(--no-cache, streamed: its part read without the edits and uses). Three real runs over
the test corpus, plus files that reach the project-wide filters (a name a header defines,
a per-path-ignore); every answer of every handle, and the output trees written from each
run, are compared."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent / "corpus"
EXTRA = {
    "extra/helper.h": "#pragma once\nvoid cudaMyHelper();\n",
    "extra/uses_helper.cu": (
        '#include <cuda_runtime.h>\n#include "helper.h"\n'
        "void k(){ cudaMyHelper(); cudaMyOther(); cudaThreadSynchronize(); }\n"
    ),
    # each use a kind of its own (a spilled part counts these without grouping)
    "extra/unknown_only.cu": "void u(){ cudaNoSuchA(); cudaNoSuchB(2); }\n",
    "legacy/old.cu": (
        "#include <cuda_runtime.h>\nvoid o(){ cudaThreadSynchronize(); cudaNotThere(); }\n"
    ),
    "pyproject.toml": '[tool.hipport.per-path-ignore]\n"legacy/**" = ["HIP004"]\n',
    "CMakeLists.txt": "project(p LANGUAGES CXX CUDA)\nadd_executable(k extra/uses_helper.cu)\n",
}


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    shutil.copytree(CORPUS, tree)
    for rel, text in EXTRA.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text(text)
    return tree


def _answers(handle, types) -> dict:
    """Everything a reader can ask of a handle, as plain data."""
    result = handle.load()
    part = handle.read_part()
    return {
        "changed": handle.changed,
        "output": handle.read_output(),
        "result": (
            result.path,
            result.source,
            result.output,
            result.edits,
            result.findings,
            result.uses,
            result.defined_names,
            result.skipped_dead,
            result.dead_macros,
            result.error,
        ),
        "part": (part.path, part.source, part.findings, part.skipped_dead, part.dead_macros),
        "defined_names": handle.defined_names(),
        "keyed_codes": set(handle.keyed_codes()),
        "codes": handle.codes(),
        "renamed": handle.renamed(),
        "numerics": sorted(handle.numerics(types)),
        "min_rocm": handle.min_rocm(),
    }


@pytest.mark.slow
def test_every_kind_of_handle_answers_alike(tmp_path: Path, monkeypatch) -> None:
    from hipport.cache import content_hash
    from hipport.config import load_config
    from hipport.mappings import load_mappings
    from hipport.runner import RunOptions, run_paths, write_outputs
    from hipport.runner.outcome import InMemory, Stored

    tree = _tree(tmp_path)
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))

    def run(**options):
        return run_paths([tree], load_config([tree]), RunOptions(jobs=1, **options))

    memory = run(use_cache=False)
    spilled = run(use_cache=False, stream_results=True)
    run(stream_results=True)  # fills the cache
    cached = run(stream_results=True)

    kinds = {
        "memory": (memory, InMemory, False),
        "spilled": (spilled, Stored, False),
        "cached": (cached, Stored, True),
    }
    for name, (summary, kind, from_cache) in kinds.items():
        with_result = [f for f in summary.files if f.handle is not None]
        assert len(with_result) > 40, name
        assert all(isinstance(f.handle, kind) for f in with_result), name
        assert all(f.cached == from_cache for f in with_result), name

    types = load_mappings().numeric_types
    want = {f.relpath: (f.status, f.error, _answers(f.handle, types)) for f in memory.files}
    for name, (summary, _, _) in kinds.items():
        got = {f.relpath: (f.status, f.error, _answers(f.handle, types)) for f in summary.files}
        assert got == want, name
        for f in summary.files:
            if isinstance(f.handle, Stored):  # what a write reads to skip an output as is
                output = f.handle.read_output()
                assert f.handle.output_summary() == (len(output), content_hash(output))
                # each read is loaded anew: the report may change the findings it reads
                first, second = f.handle.read_part(), f.handle.read_part()
                assert not {id(x) for x in first.findings} & {id(x) for x in second.findings}

    # the report of each kind, and a second report of the same stored results, agree
    from hipport.report.model import build_report

    reports = [build_report(summary).to_json() for summary, _, _ in kinds.values()]
    reports.append(build_report(spilled).to_json())
    assert len(set(reports)) == 1 and len(json.loads(reports[0])["findings"]) > 40

    # the project-wide filters reached each kind: the header's name and the ignored path
    answers = {rel: a for rel, (_, _, a) in want.items()}
    assert ("HIP004", "cudaMyOther") in answers["extra/uses_helper.cu"]["keyed_codes"]
    assert ("HIP004", "cudaMyHelper") not in answers["extra/uses_helper.cu"]["keyed_codes"]
    assert answers["legacy/old.cu"]["codes"]["HIP004"] == 0
    assert answers["legacy/old.cu"]["codes"]["HIP005"] == 1  # cudaThreadSynchronize kept
    assert any(a["numerics"] for a in answers.values())
    assert any(a["renamed"] for a in answers.values())

    def figures(summary) -> dict:
        stats = summary.stats()
        del stats["elapsed"], stats["cached"]
        return stats

    assert figures(spilled) == figures(memory) == figures(cached)
    assert figures(memory)["findings_per_code"]
    trees = {}
    for name, (summary, _, _) in kinds.items():
        out = tmp_path / f"out-{name}"
        out.mkdir()
        assert write_outputs(summary, "outdir", out) == []
        trees[name] = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert trees["memory"] == trees["spilled"] == trees["cached"]
    assert len(trees["memory"]) > 40
