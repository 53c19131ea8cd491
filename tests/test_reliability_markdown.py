"""Generated Markdown is escaped for where it goes (issue 30 item 8): a path or message
holding backticks, brackets, pipes, HTML or a newline stays text in `--format markdown`
and the GitHub job summary: no live link, no image, no tag, no broken table. Rendered by a
real CommonMark parser (markdown-it-py, which rich already brings)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.reliability_support import hipport

UNPORTED = b"#include <cuda_runtime.h>\nint main() { cudaInitDevice(0, 0, 0); return 0; }\n"
NAMES = [
    "x`![i](http:evil.invalid)`y.cu",
    "[click](http:evil.invalid) <img src=x onerror=alert(1)>.cu",
    "a|b*c*_d_~~e~~.cu",
    "``two``.cu",
]


def _html(markdown: str) -> str:
    return MarkdownIt("commonmark").enable("table").enable("strikethrough").render(markdown)


@pytest.mark.parametrize("name", NAMES)
def test_a_hostile_file_name_stays_text_in_markdown(tmp_path: Path, name: str) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / name).write_bytes(UNPORTED)
    summary = tmp_path / "summary.md"
    r = hipport(
        ["check", tree, "--format", "markdown"],
        tmp_path / "c",
        GITHUB_STEP_SUMMARY=str(summary),
    )
    assert r.returncode == 1, r.stderr.decode()
    gh = hipport(
        ["check", tree, "--format", "github"], tmp_path / "c", GITHUB_STEP_SUMMARY=str(summary)
    )
    assert gh.returncode == 1, gh.stderr.decode()
    for text in (r.stdout.decode(), summary.read_text()):
        html = _html(text)
        for tag in ("<a ", "<img", "<strong>", "<em>", "<del>", "<script"):
            if tag not in ("<strong>",):  # the severity is bold by design
                assert tag not in html, (tag, html)
        finding = next(line for line in text.splitlines() if line.startswith("- **error**"))
        # the name survives, whole, as the text of one code span
        rendered = _html(finding)
        shown = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        shown = shown.replace('"', "&quot;")
        assert rendered.count("<code>") == 2 and f"{shown}:2:14</code>" in rendered, rendered


def test_a_hostile_message_stays_text(tmp_path: Path) -> None:
    """A user rename's target is shown in messages: brackets and backticks stay text."""
    from hipport.report.markdown import _cell

    html = _html("- " + _cell("see [here](http://evil.invalid) `x` <b>y</b> *z* ~~w~~"))
    assert "<a " not in html and "<b>" not in html and "<em>" not in html, html
    assert "<code>" not in html and "<del>" not in html, html
    assert os.linesep not in _cell("two\nlines")
