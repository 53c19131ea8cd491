"""The translated corpus compiles with the real HIP compiler (Debian's hipcc, HIP 5.2).

Every corpus file whose report holds no error for ROCm 5.2 must compile; every file the
compiler rejects must have been reported, for an API named in the compiler's errors. Files
needing a HIP library Debian does not package are checked as text. `.ci/run` installs the
toolchain (tests/setup-system.sh), so in CI this never skips.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tools.corpus_figure import check_corpus

pytestmark = [pytest.mark.hipcc, pytest.mark.slow]

if shutil.which("hipcc") is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI must have hipcc: tests/setup-system.sh installs it")
    pytest.skip("hipcc is not installed (run tests/setup-system.sh)", allow_module_level=True)


@pytest.fixture(scope="module")
def corpus_verdicts():
    verdicts, figure = check_corpus("5.2")
    print("corpus figure:", figure)
    return verdicts, figure


def test_corpus_is_compiled_not_only_read(corpus_verdicts):
    verdicts, figure = corpus_verdicts
    assert figure["compiled"] >= 25, figure
    assert figure["files_translated"] == len(verdicts)


def test_files_without_reported_errors_compile(corpus_verdicts):
    verdicts, _ = corpus_verdicts
    bad = [
        (v.file, v.first_error)
        for v in verdicts
        if v.mode == "compiled" and not v.reported_errors and not v.compiles
    ]
    assert not bad, "files reported clean for ROCm 5.2 that do not compile:\n" + "\n".join(
        f"  {f}: {e}" for f, e in bad
    )


def test_every_rejected_file_was_reported_for_the_breaking_api(corpus_verdicts):
    verdicts, _ = corpus_verdicts
    bad = [
        (v.file, v.first_error, v.reported_errors)
        for v in verdicts
        if v.compiles is False and not v.consistent
    ]
    assert not bad, "the compiler rejects these for APIs the report does not name:\n" + "\n".join(
        f"  {f}: {e} (reported: {r})" for f, e, r in bad
    )


def test_text_only_files_are_stable(corpus_verdicts):
    verdicts, _ = corpus_verdicts
    text = [v for v in verdicts if v.mode == "text"]
    assert all(v.consistent for v in text), [(v.file, v.note) for v in text if not v.consistent]
