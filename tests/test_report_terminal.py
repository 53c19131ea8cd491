"""The terminal report as people read it: each layout equals its reviewed golden copy, made
from a real run on the bundled example (tests/golden/terminal/); paths relative to where
the user stands; colour by --color, NO_COLOR and FORCE_COLOR (also at a real pseudo-
terminal); hints once per rule; `check -` from standard input; report paths checked before
the scan.

The goldens were written by running, in examples/saxpy_project with NO_COLOR and
FORCE_COLOR unset and output piped:

    hipport check . --rocm 6.3 --color never                  > full.txt
    hipport check . --rocm 6.3 --output-format concise        > concise.txt
    hipport check . --rocm 6.3 --output-format grouped        > grouped.txt
    hipport check . --rocm 6.3 -q --no-hints                  > quiet-no-hints.txt
    COLUMNS=40 hipport check . --rocm 6.3 --output-format concise --statistics=api \
        > concise-statistics.txt
    hipport check . --rocm 6.3 --statistics                   > statistics.txt

then read line by line. The target is pinned so that a newer release in the tables does
not change them; regenerate them the same way when the example or its mappings change,
and review the diff.
"""

from __future__ import annotations

import difflib
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from tests.terminal_support import read_terminal

EXAMPLE = ROOT / "examples" / "saxpy_project"
GOLDEN = ROOT / "tests" / "golden" / "terminal"
GOLDEN_ROCM = "6.3"
GOLDEN_RUNS = {
    "full.txt": (["--color", "never"], {}),
    "concise.txt": (["--output-format", "concise"], {}),
    "grouped.txt": (["--output-format", "grouped"], {}),
    "quiet-no-hints.txt": (["-q", "--no-hints"], {}),
    "concise-statistics.txt": (
        ["--output-format", "concise", "--statistics=api"],
        {"COLUMNS": "40"},
    ),
    "statistics.txt": (["--statistics"], {}),
}
HEAD = "#include <cuda_runtime.h>\n"


@pytest.fixture(scope="module")
def env(subprocess_env, tmp_path_factory):
    out = {k: v for k, v in subprocess_env.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    out["HIPPORT_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    return out


def check(cmd, env, *args, cwd=EXAMPLE, stdin=None, extra_env=None):
    return subprocess.run(
        [*cmd, "check", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**env, **(extra_env or {})},
        input=stdin,
        timeout=300,
    )


@pytest.mark.parametrize("name", sorted(GOLDEN_RUNS))
@pytest.mark.slow
def test_layout_equals_its_golden(name, hipport_cmd, env):
    args, extra = GOLDEN_RUNS[name]
    proc = check(hipport_cmd, env, ".", "--rocm", GOLDEN_ROCM, *args, extra_env=extra)
    assert proc.returncode == 0, proc.stderr
    expected = (GOLDEN / name).read_text(encoding="utf-8")
    if proc.stdout != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                proc.stdout.splitlines(keepends=True),
                f"golden/{name}",
                "actual",
            )
        )
        pytest.fail(f"`hipport check . {' '.join(args)}` differs from its golden:\n{diff}")


def test_goldens_say_what_each_layout_promises():
    """The reviewed goldens themselves: what a reader of each layout gets."""
    full = (GOLDEN / "full.txt").read_text()
    concise = (GOLDEN / "concise.txt").read_text()
    grouped = (GOLDEN / "grouped.txt").read_text()
    assert "   18 |         v += __shfl_down_sync(0xffffffff, v, offset);" in full
    assert "      |                               ^~~~~~~~~~" in full  # column 31, 10 wide
    assert full.count("    hint: ") == 5 and "hint:" not in concise + grouped
    findings = [
        line for line in concise.splitlines() if ": warning: " in line or ": note: " in line
    ]
    assert len(findings) == 5 and all(line.startswith(("src/", "CMakeLists")) for line in findings)
    assert "\nsrc/reduce.cu\n  13:15  warning" in grouped
    quiet = (GOLDEN / "quiet-no-hints.txt").read_text()
    assert "hint:" not in quiet and "hipport check" not in quiet and "^" in quiet
    stats = (GOLDEN / "concise-statistics.txt").read_text()
    # piped, a 40-column terminal setting truncates nothing
    assert "curandSetPseudoRandomGeneratorSeed" in stats and "…" not in stats
    assert "hiprandSetPseudoRandomGeneratorSeed" in stats
    assert ": warning: " not in stats  # the tables stand in for the listing
    per_rule = (GOLDEN / "statistics.txt").read_text().splitlines()
    assert ": warning: " not in "".join(per_rule)  # ruff's: one line per rule, no listing
    assert [line.split()[1] for line in per_rule[:-1]] == sorted(
        {line.rsplit("[", 1)[1].rstrip("]") for line in findings},
        key=lambda code: (-sum(f"[{code}]" in line for line in findings), code),
    )


@pytest.mark.slow
def test_hints_once_per_rule(hipport_cmd, env, tmp_path):
    src = tmp_path / "p" / "a.cu"
    src.parent.mkdir()
    (tmp_path / "p" / ".hipport.toml").write_text("")
    body = "".join(
        f"__global__ void k{i}(int v){{ v = __shfl_down_sync(~0ull, v, 1); }}\n" for i in range(4)
    )
    src.write_text(HEAD + body)
    # 6.3: the *_sync builtins still need HIP_ENABLE_WARP_SYNC_BUILTINS (HIP010), not on 7.0+
    proc = check(hipport_cmd, env, ".", "--rocm", "6.3", cwd=src.parent)
    lines = proc.stdout.splitlines()
    assert sum(": note: " in line and "[HIP010]" in line for line in lines) == 4
    assert sum(line.startswith("    hint: ") for line in lines) == 1
    quiet = check(hipport_cmd, env, ".", "--rocm", "6.3", "--no-hints", cwd=src.parent)
    assert "[HIP010]" in quiet.stdout and "    hint: " not in quiet.stdout


@pytest.mark.slow
def test_paths_relative_to_the_current_directory(hipport_cmd, env):
    inside = check(hipport_cmd, env, "..", "--output-format", "concise", cwd=EXAMPLE / "src")
    lines = [line for line in inside.stdout.splitlines() if "[HIP" in line]
    assert any(line.startswith("reduce.cu:13:15: warning") for line in lines)
    # outside the current directory: absolute, so it opens from here
    cmake = str(EXAMPLE / "CMakeLists.txt")
    assert any(line.startswith(cmake + ":1:32: warning") for line in lines)
    assert not any(line.startswith("./") for line in lines)
    # from the repository root the same file is examples/saxpy_project/src/reduce.cu
    top = check(hipport_cmd, env, "examples/saxpy_project", "--output-format", "concise", cwd=ROOT)
    assert "examples/saxpy_project/src/reduce.cu:13:15: warning" in top.stdout


ANSI = "\x1b["


@pytest.mark.parametrize(
    "args,extra,coloured",
    [
        (["--color", "always"], {}, True),
        (["--color", "always"], {"NO_COLOR": "1"}, True),  # the flag wins over the variable
        ([], {"FORCE_COLOR": "1"}, True),
        ([], {}, False),  # piped: plain
        (["--color", "never"], {"FORCE_COLOR": "1"}, False),
        ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    ],
)
@pytest.mark.slow
def test_colour_when_piped(hipport_cmd, env, args, extra, coloured):
    proc = check(hipport_cmd, env, ".", *args, extra_env=extra)
    assert (ANSI in proc.stdout) is coloured


def at_a_terminal(cmd, env, args, cwd) -> str:
    """Run with stdout on a real pseudo-terminal; what it printed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [*cmd, "check", *args], cwd=cwd, env=env, stdout=follower, stderr=subprocess.DEVNULL
    )
    os.close(follower)
    return read_terminal(leader, proc).decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.slow
def test_colour_at_a_terminal(hipport_cmd, env):
    assert ANSI in at_a_terminal(hipport_cmd, env, ["."], EXAMPLE)
    assert ANSI not in at_a_terminal(hipport_cmd, {**env, "NO_COLOR": "1"}, ["."], EXAMPLE)


@pytest.mark.slow
def test_check_reads_one_source_from_stdin(hipport_cmd, env):
    source = (EXAMPLE / "src" / "reduce.cu").read_text()
    # first a run on the tree, so its index knows CUDA_CHECK is the project's own macro
    check(hipport_cmd, env, ".")
    proc = check(
        hipport_cmd,
        env,
        "-",
        "--stdin-filename",
        "src/reduce.cu",
        "--output-format",
        "concise",
        stdin=source.replace("constexpr int kWarp = 32;", "constexpr int kWarp = 32; // edited"),
    )
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if "[HIP" in line]
    # the default target (7.2.2) has the *_sync builtins without a macro: no HIP010
    assert [line.split(": ")[0] for line in lines] == [
        "src/reduce.cu:13:15",
        "src/reduce.cu:18:31",
    ]
    assert "HIP004" not in proc.stdout  # CUDA_CHECK is defined in src/main.cu
    bad = check(
        hipport_cmd,
        env,
        "-",
        "--format",
        "json",
        stdin=HEAD + "void f(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n",
    )
    assert bad.returncode == 1
    found = json.loads(bad.stdout)["findings"]
    assert [(f["code"], f["location"]["path"]) for f in found] == [
        ("HIP001", "examples/saxpy_project/stdin.cu")  # root-relative, as JSON paths are
    ]


@pytest.mark.slow
def test_stdin_is_not_mixed_with_paths(hipport_cmd, env):
    assert check(hipport_cmd, env, "-", "src").returncode == 2
    assert check(hipport_cmd, env, "src", "--stdin-filename", "a.cu").returncode == 2


@pytest.mark.parametrize(
    "where",
    ["missing-dir/report.json", "a-directory", "/proc/hipport-report.json"],
)
@pytest.mark.slow
def test_unwritable_report_path_exits_2_before_the_scan(hipport_cmd, env, tmp_path, where):
    (tmp_path / "a-directory").mkdir()
    cache = tmp_path / "cache"
    target = where if where.startswith("/") else str(tmp_path / where)
    for args in (["-o", target], ["--report", f"sarif={target}"]):
        proc = check(
            hipport_cmd,
            env,
            str(EXAMPLE),
            "--format",
            "json",
            *args,
            extra_env={"HIPPORT_CACHE_DIR": str(cache)},
        )
        assert proc.returncode == 2, proc.stderr
        assert "cannot write the report" in proc.stderr or "is a directory" in proc.stderr
        assert not cache.exists()  # nothing was scanned


@pytest.mark.slow
def test_one_run_writes_several_reports(hipport_cmd, env, tmp_path):
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    proc = check(
        hipport_cmd,
        env,
        ".",
        "--format",
        "github",
        "--report",
        f"sarif={tmp_path / 'r.sarif'}",
        "--report",
        f"gitlab={tmp_path / 'gl.json'}",
        extra_env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("::warning file=")
    assert '"version": "2.1.0"' in (tmp_path / "r.sarif").read_text()
    assert '"check_name"' in (tmp_path / "gl.json").read_text()
    text = summary.read_text()
    assert text.startswith("earlier step\n# hipport porting report")  # appended
    assert check(hipport_cmd, env, ".", "--report", "yaml=x").returncode == 2
    assert check(hipport_cmd, env, ".", "--report", "sarif").returncode == 2


@pytest.mark.slow
def test_sarif_limit_warning_on_stderr(hipport_cmd, env, tmp_path):
    out = tmp_path / "r.sarif"
    proc = check(
        hipport_cmd, env, ".", "--format", "sarif", "-o", str(out), "--sarif-max-results", "2"
    )
    assert proc.returncode == 0
    assert "kept the 2 most severe" in proc.stderr
    assert Path(out).read_text().count('"ruleId"') == 2


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.sampled_from(
                [
                    "a",
                    " ",
                    "|",
                    "^",
                    "~",
                    ":",
                    "\t",
                    "\r",
                    "\x07",
                    "\x0b",
                    "é",
                    "漢",
                    "\x7f",
                    "\u200b",
                ]
            ),
            max_size=12,
        ),
        max_size=8,
    )
)
def test_plain_lines_print_as_rich_prints_them(lines):
    """The text report writes printable ASCII lines itself and hands the rest to rich: the
    bytes are those rich gives for one print per line (tabs expanded, controls stripped)."""
    import io

    from rich.console import Console

    from hipport.report.text import UNBOUNDED_WIDTH, _Printer

    def console(buffer):
        return Console(
            file=buffer,
            no_color=True,
            color_system=None,
            width=UNBOUNDED_WIDTH,
            highlight=False,
            soft_wrap=True,
            emoji=False,
        )

    fast, slow = io.StringIO(), io.StringIO()
    printer = _Printer(console(fast), False)
    for line in lines:
        printer.line(line)
    printer.flush()
    reference = console(slow)
    for line in lines:
        reference.print(line, markup=False)
    assert fast.getvalue() == slow.getvalue()
