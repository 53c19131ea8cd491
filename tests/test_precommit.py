"""The hooks in .pre-commit-hooks.yaml, run by the real pre-commit.

pre-commit installs a hook repository by cloning it at a commit and pip-installing it in a
virtualenv of its own. `pre-commit try-repo` would do that too, but on a dirty checkout it
commits only tracked files (untracked new modules would be missing) and clones anew on every
call. So the module snapshots this checkout's working tree (tracked and untracked files that
git does not ignore) into a temporary repository with one commit, and every test points a
.pre-commit-config.yaml at that commit. PRE_COMMIT_HOME is shared by the module: the
virtualenv is built once (it needs PyPI, or a pip cache, for libclang, click and rich).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
GIT_ID = [
    "-c",
    "user.name=hipport tests",
    "-c",
    "user.email=tests@hipport.invalid",
    "-c",
    "commit.gpgsign=false",
]

CLEAN = b"""#include <hip/hip_runtime.h>
__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
int main() { float *p; hipMalloc(&p, 4); hipFree(p); return 0; }
"""
UNPORTED = b"""#include <cuda_runtime.h>
int main() {
  cudaInitDevice(0, 0, 0);
  return 0;
}
"""
SUPPRESSED = UNPORTED.replace(b"0, 0, 0);", b"0, 0, 0);  // hipport: ignore[HIP001]")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *GIT_ID, *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def pre_commit_env(tmp_path_factory) -> dict[str, str]:
    if shutil.which("git") is None:
        pytest.fail("git is needed to test the pre-commit hooks")
    home = tmp_path_factory.mktemp("pre-commit-home")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        PRE_COMMIT_HOME=str(home),
        HIPPORT_CACHE_DIR=str(home / "hipport-cache"),
        PRE_COMMIT_COLOR="never",
        NO_COLOR="1",
    )
    env.pop("PYTHONPATH", None)  # the hook must run the hipport installed in its virtualenv
    return env


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> tuple[Path, str]:
    """This checkout's working tree as a one-commit repository: (path, commit)."""
    snapshot = tmp_path_factory.mktemp("hipport-snapshot")
    listed = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for rel in filter(None, listed.split("\0")):
        source = ROOT / rel
        if source.is_file():  # deleted but still in the index: skip
            (snapshot / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / rel)
    git(snapshot, "init", "-q")
    git(snapshot, "add", "-A")
    git(snapshot, "commit", "-q", "-m", "snapshot of the working tree")
    return snapshot, git(snapshot, "rev-parse", "HEAD").strip()


@pytest.fixture
def project(tmp_path: Path, hook_repo) -> Path:
    """An empty git repository whose .pre-commit-config.yaml uses the snapshot's hooks."""
    repo, rev = hook_repo
    git(tmp_path, "init", "-q")
    (tmp_path / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo.as_posix()}\n    rev: {rev}\n    hooks:\n"
        f"      - id: hipport-check\n      - id: hipport-translate\n        stages: [manual]\n"
    )
    git(tmp_path, "add", ".pre-commit-config.yaml")
    return tmp_path


def pre_commit(project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def stage(project: Path, rel: str, data: bytes) -> None:
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    git(project, "add", rel)


def test_clean_staged_file_passes(project: Path, pre_commit_env) -> None:
    stage(project, "src/scale.hip", CLEAN)
    stage(project, "src/scale.cu", CLEAN)
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "hipport check" in done.stdout and "Passed" in done.stdout


def test_unported_api_fails_with_the_finding(project: Path, pre_commit_env) -> None:
    stage(project, "src/init.cu", UNPORTED)
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert "src/init.cu:3:3: error: cudaInitDevice" in done.stdout
    assert "[HIP001]" in done.stdout


@pytest.mark.parametrize("suffix", [".cuh", ".inc", ".inl", ".hpp", ".cxx", ".c"])
def test_every_source_suffix_reaches_the_hook(project: Path, pre_commit_env, suffix: str) -> None:
    stage(project, f"lib/init{suffix}", UNPORTED)
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 1 and f"lib/init{suffix}:3:3" in done.stdout, done.stdout


def test_hip_files_reach_the_hook(project: Path, pre_commit_env) -> None:
    """identify gives .hip no tag at all; the hook's `files` pattern must still select it
    (hipport reads .hip as HIP already, so it passes)."""
    stage(project, "lib/kernel.hip", CLEAN)
    done = pre_commit(project, pre_commit_env, "--verbose")
    assert done.returncode == 0, done.stdout
    assert "(no files to check)" not in done.stdout and "Passed" in done.stdout


def test_other_files_are_not_checked(project: Path, pre_commit_env) -> None:
    stage(project, "notes.txt", UNPORTED)
    stage(project, "tool.py", UNPORTED)
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 0, done.stdout
    assert "(no files to check)" in done.stdout


def test_baseline_accepts_known_findings(
    project: Path, pre_commit_env, hipport_cmd, subprocess_env
) -> None:
    stage(project, "src/init.cu", UNPORTED)
    made = subprocess.run(
        [*hipport_cmd, "baseline", "."],
        cwd=project,
        capture_output=True,
        text=True,
        env=subprocess_env | {"HIPPORT_CACHE_DIR": pre_commit_env["HIPPORT_CACHE_DIR"]},
    )
    assert made.returncode == 0, made.stderr
    assert (project / ".hipport-baseline.json").is_file()
    git(project, "add", ".hipport-baseline.json")
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 0, done.stdout + done.stderr
    # a new unported use in another file is not covered by the baseline
    stage(project, "src/other.cu", UNPORTED)
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 1 and "src/other.cu:3:3" in done.stdout, done.stdout
    assert "src/init.cu:3:3" not in done.stdout


def test_inline_suppression_passes(project: Path, pre_commit_env) -> None:
    stage(project, "src/init.cu", SUPPRESSED)
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_translate_hook_rewrites_in_place(project: Path, pre_commit_env) -> None:
    source = b"#include <cuda_runtime.h>\nint main() { float *p; cudaMalloc(&p, 4); }\n"
    stage(project, "src/alloc.cu", source)
    done = pre_commit(project, pre_commit_env, "--hook-stage", "manual", "hipport-translate")
    # pre-commit fails a hook that modifies files, so the user reviews the rewrite
    assert done.returncode == 1, done.stdout + done.stderr
    assert "files were modified by this hook" in done.stdout
    assert (project / "src/alloc.cu").read_bytes() == source.replace(
        b"cuda_runtime.h", b"hip/hip_runtime.h"
    ).replace(b"cudaMalloc", b"hipMalloc")
    git(project, "add", "src/alloc.cu")
    again = pre_commit(project, pre_commit_env, "--hook-stage", "manual", "hipport-translate")
    assert again.returncode == 0, again.stdout + again.stderr


def test_configured_exclude_applies_to_staged_files(project: Path, pre_commit_env) -> None:
    """The hooks pass --force-exclude (as ruff's do): a staged file the project excludes is
    not checked, and a commit of only excluded sources passes (--allow-empty)."""
    (project / ".hipport.toml").write_text('exclude = ["generated/**"]\n')
    git(project, "add", ".hipport.toml")
    stage(project, "generated/init.cu", UNPORTED)
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 0, done.stdout + done.stderr
    stage(project, "src/init.cu", UNPORTED)
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 1 and "src/init.cu:" in done.stdout, done.stdout
    assert "generated/init.cu" not in done.stdout


def test_a_staged_file_named_like_an_option_is_a_path(project: Path, pre_commit_env) -> None:
    """The hooks' entry ends in `--`: a staged `--exclude=*.cu` is a file to check, never
    an option that would exclude every source and turn a failing hook into a passing one."""
    stage(project, "src/init.cu", UNPORTED)
    (project / "--exclude=*.cu").write_bytes(b"int not_cuda;\n")
    git(project, "add", "--", "--exclude=*.cu")
    done = pre_commit(project, pre_commit_env)
    assert done.returncode == 1 and "src/init.cu:" in done.stdout, done.stdout + done.stderr


AGREEMENT = {
    # case: (staged source, the hook's args (check and translate get the same), verdict)
    "unported": (UNPORTED, [], 1),
    "suppressed": (SUPPRESSED, [], 0),
    "another code selected": (UNPORTED, ["--select", "HIP002"], 0),
    "its code selected": (UNPORTED, ["--select", "HIP001"], 1),
    "ignored by name": (UNPORTED, ["--ignore", "unsupported-api"], 0),
    "baselined": (UNPORTED, ["--baseline", "accepted.json"], 0),
}


@pytest.mark.parametrize("case", AGREEMENT)
def test_hook_check_and_translate_give_one_verdict(
    tmp_path: Path, hook_repo, pre_commit_env, hipport_cmd, subprocess_env, case: str
) -> None:
    """The same staged file and options: the real hook, `hipport check` and
    `hipport translate --fail-on error` pass or fail it alike (one findings policy)."""
    source, args, expected = AGREEMENT[case]
    repo, rev = hook_repo
    git(tmp_path, "init", "-q")
    # options go in an overridden entry, before its `--` (args would land after it)
    entry = " ".join(["hipport check --jobs 1 --force-exclude --allow-empty", *args, "--"])
    (tmp_path / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo.as_posix()}\n    rev: {rev}\n    hooks:\n"
        f"      - id: hipport-check\n        entry: {entry}\n"
    )
    git(tmp_path, "add", ".pre-commit-config.yaml")
    stage(tmp_path, "src/init.cu", source)
    env = subprocess_env | {"HIPPORT_CACHE_DIR": str(tmp_path / "cache")}

    def hipport(*command: str) -> int:
        done = subprocess.run(
            [*hipport_cmd, *command], cwd=tmp_path, capture_output=True, text=True, env=env
        )
        assert done.returncode in (0, 1), done.stderr
        return done.returncode

    if "--baseline" in args:
        assert hipport("baseline", "src", "--baseline", "accepted.json") == 0
        git(tmp_path, "add", "accepted.json")
    hook = pre_commit(tmp_path, pre_commit_env)
    assert hook.returncode in (0, 1), hook.stdout + hook.stderr
    verdicts = {
        "hook": hook.returncode,
        "check": hipport("check", *args, "src/init.cu"),
        "translate": hipport("translate", "--stdout", "--fail-on", "error", *args, "src/init.cu"),
    }
    assert verdicts == dict.fromkeys(verdicts, expected), hook.stdout


def test_shim_check_hook_fails_on_a_stale_shim(
    tmp_path: Path, hook_repo, pre_commit_env, hipport_cmd, subprocess_env
) -> None:
    """The hipport-shim-check hook, through real pre-commit: passes on the shim that
    `hipport shim` wrote, fails once a staged source uses a name the shim lacks."""
    repo, rev = hook_repo
    git(tmp_path, "init", "-q")
    (tmp_path / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo.as_posix()}\n    rev: {rev}\n    hooks:\n"
        "      - id: hipport-shim-check\n        args: [hip-shim, src, --rocm, '6.2']\n"
    )
    git(tmp_path, "add", ".pre-commit-config.yaml")
    stage(tmp_path, "src/scale.cu", CLEAN)
    env = subprocess_env | {"HIPPORT_CACHE_DIR": str(tmp_path / "cache")}
    made = subprocess.run(
        [*hipport_cmd, "shim", "src", "-o", "hip-shim", "--rocm", "6.2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert made.returncode == 0, made.stderr
    git(tmp_path, "add", "hip-shim")
    done = pre_commit(tmp_path, pre_commit_env)
    assert done.returncode == 0, done.stdout + done.stderr
    stage(tmp_path, "src/more.cu", b"#include <cuda_runtime.h>\nvoid f(){ cudaDeviceReset(); }\n")
    done = pre_commit(tmp_path, pre_commit_env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "shim is stale" in done.stdout


def test_committed_baseline_and_one_changed_file_prints_only_that_file(
    project: Path, pre_commit_env, hipport_cmd, subprocess_env
) -> None:
    """A run over the staged files judges only their baseline entries: the other files'
    entries (here made stale by hand, as after work done elsewhere) are not listed."""
    for i in range(8):
        stage(project, f"src/k{i}.cu", UNPORTED)
    made = subprocess.run(
        [*hipport_cmd, "baseline", "."],
        cwd=project,
        capture_output=True,
        text=True,
        env=subprocess_env | {"HIPPORT_CACHE_DIR": pre_commit_env["HIPPORT_CACHE_DIR"]},
    )
    assert made.returncode == 0, made.stderr
    baseline = project / ".hipport-baseline.json"
    data = json.loads(baseline.read_text())
    for entry in data["entries"]:
        entry["count"] += 1  # every entry is now stale by one
    baseline.write_text(json.dumps(data))
    git(project, "add", "-A")
    git(project, "commit", "-q", "--no-verify", "-m", "baselined")
    more = b"cudaInitDevice(1, 0, 0);\n  cudaInitDevice(2, 0, 0);\n  return 0;"
    stage(project, "src/k3.cu", UNPORTED.replace(b"return 0;", more))
    done = pre_commit(project, pre_commit_env)
    out = done.stdout
    # three uses against a count of two: the third is new, and the only finding printed
    assert done.returncode == 1 and "src/k3.cu:5:3: error: cudaInitDevice" in out, out
    assert "stale baseline entry" not in out, out
    for i in (0, 1, 2, 4, 5, 6, 7):
        assert f"src/k{i}.cu" not in out, out
