"""The HTML report: self-contained, escaped, semantic, and right in a real browser.

The report is made the way users make it, `hipport check --format html -o FILE` in a
subprocess, next to `--format json` of the same tree, so the page is compared with the
JSON figures. The browser tests render it in headless Chromium (Debian `chromium`); they
skip only outside CI when Chromium is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

HEAD = "#include <cuda_runtime.h>\n"
ODD_NAME = 'src/<b>odd&"name".cu'
LONG_NAME = "src/" + "a_really_long_directory_name_without_any_break" * 3 + "/kernel.cu"
TREE = {
    "src/limit.cu": HEAD + "void f(){ cudaDeviceSetLimit(cudaLimitStackSize, 1024); }\n",
    "src/unsupported.cu": HEAD + "void g(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n"
    "void h(){ cudaDeviceFlushGPUDirectRDMAWrites(t, s); }\n",
    "src/warp.cu": HEAD + "__device__ float w(float v) {\n"
    "  return __shfl_down_sync(0xffffffff, v, 16);\n}\n",
    ODD_NAME: HEAD + "void k(){ cudaMalloc(0, 0); cudaFree(0); }\n",
    LONG_NAME: HEAD + "void m(){ cudaMalloc(0, 0); }\n",
}
ROCM = "5.2"  # cudaDeviceSetLimit needs 5.3: one "needs newer ROCm" use
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
browser = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="headless Chromium is not installed (it must be in CI)",
)


def check(cmd, env, root: Path, fmt: str, out: Path) -> None:
    proc = subprocess.run(
        [*cmd, "check", str(root), "--rocm", ROCM, "--format", fmt, "-o", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert out.is_file(), proc.stderr


@pytest.fixture(scope="module")
def made(tmp_path_factory, hipport_cmd, subprocess_env):
    base = tmp_path_factory.mktemp("html")
    root = base / "project"
    for name, text in TREE.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    env = {**subprocess_env, "HIPPORT_CACHE_DIR": str(base / "cache")}
    check(hipport_cmd, env, root, "html", base / "report.html")
    check(hipport_cmd, env, root, "json", base / "report.json")
    return {
        "dir": base,
        "html_path": base / "report.html",
        "html": (base / "report.html").read_text(encoding="utf-8"),
        "json": json.loads((base / "report.json").read_text(encoding="utf-8")),
    }


class Page(HTMLParser):
    """Tags with attributes, the text of elements with a data-testid, and all text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.testids: dict[str, dict[str, str]] = {}
        self._open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attrs))
        if "data-testid" in attrs:
            self.testids[attrs["data-testid"]] = {**attrs, "text": ""}
            self._open.append(attrs["data-testid"])
        elif self._open:
            self._open.append("")

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        self.text.append(data)
        for key in self._open:
            if key:
                self.testids[key]["text"] += data


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    return page


def headline(page: Page) -> dict[str, str]:
    return {
        k[len("headline-") :]: v["data-value"]
        for k, v in page.testids.items()
        if k.startswith("headline-")
    }


def expected_headline(data: dict) -> dict[str, str]:
    totals = data["totals"]
    return {
        "files": str(totals["files"]),
        "uses": str(totals["uses"]),
        "share-mapped": str(totals["conversion_percent"]),
        "min-rocm": data["rocm"]["minimum"] or "",
        "blocking": str(len(data["rocm"]["blocking_apis"])),
    }


# ------------------------------------------------------------------------- the file


def test_self_contained(made):
    text = made["html"]
    for tag, attrs in parse(text).tags:
        assert tag not in ("link", "img", "iframe", "object", "embed", "base"), tag
        assert not (tag == "script" and "src" in attrs)
        for name, value in attrs.items():
            if "http:" in value or "https:" in value or "//" in value.lstrip()[:2]:
                assert (tag, name) == ("a", "href"), (tag, name, value)
    lowered = text.lower()
    for needle in ("@import", "url(", "<script src", "<link"):
        assert needle not in lowered, needle


def test_user_text_is_escaped(made):
    text = made["html"]
    assert "<b>odd" not in text
    assert "&lt;b&gt;odd&amp;&quot;name&quot;.cu" in text
    assert 'src/<b>odd&"name".cu' in "".join(parse(text).text)


def test_semantic_structure(made):
    page = parse(made["html"])
    tags = page.tags
    assert tags[0] == ("html", {"lang": "en"})
    assert [t for t, _ in tags].count("h1") == 1 and ("h2", {}) in tags
    ths = [a for t, a in tags if t == "th"]
    assert ths and all(a.get("scope") in ("col", "row") for a in ths)
    assert [t for t, _ in tags].count("figure") == 2
    assert [t for t, _ in tags].count("figcaption") == 2
    assert [t for t, _ in tags].count("svg") == 2
    assert any(t == "title" for t, _ in tags[5:])  # SVG tooltips, beyond <head>'s title
    assert any(t == "style" for t, _ in tags) and "@media print" in made["html"]


def test_headline_equals_json(made):
    page = parse(made["html"])
    data = made["json"]
    assert headline(page) == expected_headline(data)
    assert data["totals"]["needs_newer_rocm"] >= 1 and data["totals"]["unsupported"] >= 2
    assert page.testids["target-rocm"]["text"] == data["rocm"]["target"]


def test_unported_apis_with_locations_and_hints(made):
    text = made["html"]
    section = text[text.index('id="unported"') : text.index('id="hazards"')]
    assert "cudaDeviceFlushGPUDirectRDMAWrites" in section
    assert "src/unsupported.cu:2:" in section and "src/unsupported.cu:3:" in section
    assert "cudaDeviceSetLimit" in section and "needs newer ROCm" in section
    assert "hipDeviceSetLimit" in section and "ROCm 5.3" in section  # the fix hint
    for api in made["json"]["apis"]:
        if api["status"] != "mapped":
            assert api["api"] in section


def test_hazards_listed(made):
    text = made["html"]
    section = text[text.index('id="hazards"') : text.index('id="other-findings"')]
    assert "HIP103" in section and "src/warp.cu:3:" in section
    hazards = [f for f in made["json"]["findings"] if f["code"].startswith("HIP1")]
    assert hazards and all(f["code"] in section for f in hazards)


def test_charts_carry_labels_and_legend(made):
    text = made["html"]
    families = text[text.index('id="families"') : text.index('id="coverage"')]
    for label in ("mapped", "needs newer ROCm", "unsupported"):
        assert f"</span>{label}</li>" in families  # the legend names each colour in text
    assert "<title>runtime:" in families
    coverage = text[text.index('id="coverage"') : text.index('id="work"')]
    assert "5.3.0" in coverage and "cudaDeviceSetLimit" in coverage  # 5.3 unblocks it
    assert "(target)" in coverage


def test_work_tables_sorted_by_work_left(made):
    files = made["json"]["files"]
    text = made["html"]
    table = text[text.index('id="work-files"') :]
    table = table[: table.index("</table>")]
    positions = [table.index(f'data-v="{_attr(f["path"])}"') for f in files]
    assert positions == sorted(positions)
    assert [f["work_left"] for f in files] == sorted((f["work_left"] for f in files), reverse=True)
    assert 'aria-sort="descending"' in table


def _attr(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def test_empty_tree(tmp_path, hipport_cmd, subprocess_env):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "a.cu").write_text("int main() { return 0; }\n")
    env = {**subprocess_env, "HIPPORT_CACHE_DIR": str(tmp_path / "cache")}
    check(hipport_cmd, env, tmp_path / "p", "html", tmp_path / "r.html")
    page = parse((tmp_path / "r.html").read_text())
    assert headline(page)["uses"] == "0" and headline(page)["min-rocm"] == ""
    assert "No CUDA API uses" in "".join(page.text)


# ------------------------------------------------------------------ a real browser


def chromium(profile: Path, *args: str) -> subprocess.CompletedProcess:
    assert CHROMIUM, "chromium is required in CI"
    cmd = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def dump_dom(made, tmp_path: Path, fragment: str = "") -> Page:
    url = made["html_path"].as_uri() + fragment
    proc = chromium(tmp_path / "profile", "--dump-dom", url)
    assert proc.returncode == 0 and "<html" in proc.stdout, proc.stderr[-2000:]
    return parse(proc.stdout)


@pytest.mark.browser
@browser
def test_screenshot(made, tmp_path):
    png = tmp_path / "report.png"
    proc = chromium(tmp_path / "profile", f"--screenshot={png}", made["html_path"].as_uri())
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 900)
    assert len(data) > 20_000  # a blank page is a few kB


@pytest.mark.browser
@browser
def test_dom_headline_equals_json(made, tmp_path):
    page = dump_dom(made, tmp_path)
    assert headline(page) == expected_headline(made["json"])
    shown = {k: v["text"].strip() for k, v in page.testids.items()}
    totals = made["json"]["totals"]
    assert shown["headline-files"] == str(totals["files"])
    assert shown["headline-uses"] == str(totals["uses"])
    assert shown["headline-share-mapped"] == f"{totals['conversion_percent']}%"
    assert shown["headline-min-rocm"] == made["json"]["rocm"]["minimum"]
    # the script ran: the sortable headers became buttons
    assert sum(1 for t, _ in page.tags if t == "button") >= 8


@pytest.mark.browser
@browser
def test_no_horizontal_scroll_at_1280(made, tmp_path):
    page = dump_dom(made, tmp_path, "#layout-check")
    html_attrs = next(a for t, a in page.tags if t == "html")
    assert "data-scroll-width" in html_attrs, "the layout probe did not run"
    assert int(html_attrs["data-scroll-width"]) <= 1280
