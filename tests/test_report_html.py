"""The HTML report: self-contained, escaped, semantic, and right in a real browser, from a
5-file tree to a generated 700-file one.

The report is made the way users make it, `hipport check --format html -o FILE` in a
subprocess, next to `--format json` of the same tree, so the page is compared with the
JSON figures. The browser tests drive headless Chromium (Debian `chromium`) over the
DevTools protocol (tests/chromium_pipe.py): they measure the headline and the page at
1280 x 800, type into the search box, pick filters, click directories, files and groups
open, and check that no two chart labels overlap. They skip only outside CI when
Chromium is missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from hipport.catalogue import RULES, Kind

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


@pytest.mark.slow
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


@pytest.mark.slow
def test_user_text_is_escaped(made):
    text = made["html"]
    assert "<b>odd" not in text
    assert "&lt;b&gt;odd&amp;&quot;name&quot;.cu" in text
    assert '<b>odd&"name".cu' in "".join(parse(text).text)  # the tree shows it by name


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
    assert ("nav", {"class": "toc", "aria-label": "Contents"}) in tags
    assert (
        "input",
        {
            "type": "search",
            "id": "search",
            "placeholder": "API, path or message",
            "autocomplete": "off",
        },
    ) in tags
    assert any(t == "title" for t, _ in tags[5:])  # SVG tooltips, beyond <head>'s title
    assert any(t == "style" for t, _ in tags) and "@media print" in made["html"]


def test_headline_equals_json(made):
    page = parse(made["html"])
    data = made["json"]
    assert headline(page) == expected_headline(data)
    assert data["totals"]["needs_newer_rocm"] >= 1 and data["totals"]["unsupported"] >= 2
    assert page.testids["target-rocm"]["text"] == data["rocm"]["target"]


def test_headline_counts_files_with_an_error(made):
    page = parse(made["html"])
    with_errors = sum(1 for f in made["json"]["files"] if f["errors"])
    assert with_errors >= 1
    assert page.testids["files-with-errors"]["text"] == str(with_errors)


@pytest.mark.slow
def test_a_patch_release_target_labels_its_tick_and_no_port_is_said(
    made, hipport_cmd, subprocess_env
):
    """--rocm 7.2.2 resolves to the tables' 7.2.0: the chart's target tick says 7.2.2; the
    oldest-release sentence says it covers only the APIs some release maps."""
    out = made["dir"] / "patch.html"
    proc = subprocess.run(
        [*hipport_cmd, "check", str(made["dir"] / "project"), "--rocm", "7.2.2"]
        + ["--format", "html", "-o", str(out)],
        capture_output=True, text=True, env=subprocess_env, timeout=300,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    text = out.read_text(encoding="utf-8")
    tick = re.search(r'class="axis tick is-target">([^<]+)</text>', text)
    assert tick and tick.group(1) == "7.2.2", tick
    assert ">7.2.0</text>" not in text
    blocking = made["json"]["rocm"]["blocking_apis"]
    assert blocking
    deciding = re.search(r'<p id="deciding">(.*?)</p>', text, re.S)
    assert deciding and "that some release maps" in deciding.group(1)
    assert f"{len(blocking)} API" in deciding.group(1)


def section(text: str, key: str) -> str:
    start = text.index(f'<section id="{key}">')
    end = text.find("<section id=", start + 10)
    while end != -1 and text.startswith('<section id="rule-', end):
        end = text.find("<section id=", end + 10)
    return text[start : end if end != -1 else len(text)]


def test_findings_grouped_by_api_with_locations(made):
    text = made["html"]
    findings = section(text, "findings")
    data = made["json"]
    groups = Counter((f["api"] or "(no API)", f["code"]) for f in data["findings"])
    shown = re.findall(r'<details class="group" id="[^"]+" data-rule="([^"]+)"', findings)
    assert sorted(shown) == sorted(code for _, code in groups)
    assert "cudaDeviceFlushGPUDirectRDMAWrites" in findings
    assert "2 findings in 1 file" in findings  # the two uses in src/unsupported.cu
    assert "src/unsupported.cu:2:" in findings and "src/unsupported.cu:3:" in findings
    assert "cudaDeviceSetLimit" in findings and "needs newer ROCm" in findings
    assert "hipDeviceSetLimit" in findings and "ROCm 5.3" in findings  # the HIP name
    assert "HIP103" in findings and "src/warp.cu:3:" in findings  # hazards too
    # collapsed by default, and nothing but <details> needed to open one
    assert not re.search(r'<details class="group"[^>]* open', findings)


@pytest.mark.slow
def test_findings_grouped_by_the_kind_of_their_rule(made):
    """One section per kind with findings, in the catalogue's order of kinds, holding the
    groups of the rules of that kind (each rule's kind read from the catalogue)."""
    findings = section(made["html"], "findings")
    kinds = [f["code"] for f in made["json"]["findings"]]
    present = {RULES[code].kind for code in kinds}
    assert {Kind.REWRITE, Kind.HAZARD} <= present  # the example has both
    sections = re.findall(
        r'<section class="kind" id="kind-([a-z]+)" data-kind="\1"><h3>([^<]+)(.*?)</section>',
        findings,
        re.S,
    )
    assert [k for k, _, _ in sections] == [k.value for k in Kind if k in present]
    in_sections = 0
    for kind, title, body in sections:
        assert title.strip() == Kind(kind).title
        groups = re.findall(
            r'<details class="group" [^>]*data-rule="([^"]+)" data-kind="([^"]+)"', body
        )
        assert groups and all(k == kind and RULES[c].kind == Kind(kind) for c, k in groups)
        in_sections += len(groups)
    assert in_sections == len({(f["api"], f["code"]) for f in made["json"]["findings"]})


def test_each_rule_explained_once(made):
    text = made["html"]
    rules = section(text, "rules")
    for rule in made["json"]["rules"]:
        assert text.count(_attr(rule["fix"])) == 1, rule["code"]
        assert f'id="rule-{rule["code"]}"' in rules


def test_tree_rolls_up_every_directory(made):
    text = made["html"]
    files = made["json"]["files"]
    for path, work in _tree_figures(text).items():
        below = [f for f in files if not path or f["path"].startswith(path + "/")]
        assert work == sum(f["work_left"] for f in below), path
    assert _tree_figures(text)[""] == sum(f["work_left"] for f in files)


def _tree_figures(text: str) -> dict[str, int]:
    """Directory path -> the work left its summary shows."""
    found = re.findall(
        r'<details class="dir" data-path="([^"]*)"[^>]*><summary>.*?'
        r'<span class="w" title="work left">(\d+)</span>',
        text,
    )
    return {html_unescape(p): int(n) for p, n in found}


def _attr(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)


def test_search_and_filters_need_script(made):
    text = made["html"]
    assert '<form class="filters" id="filters" hidden' in text  # shown by the script only


def test_charts_carry_labels_and_legend(made):
    text = made["html"]
    families = section(text, "families")
    for label in ("mapped", "needs newer ROCm", "unsupported"):
        assert f"</span>{label}</li>" in families  # the legend names each colour in text
    assert "<title>runtime:" in families
    coverage = section(text, "coverage")
    assert "5.3.0" in coverage and "cudaDeviceSetLimit" in coverage  # 5.3 unblocks it
    assert 'class="axis tick is-target"' in coverage


@pytest.mark.slow
def test_empty_tree(tmp_path, hipport_cmd, subprocess_env):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "a.cu").write_text("int main() { return 0; }\n")
    env = {**subprocess_env, "HIPPORT_CACHE_DIR": str(tmp_path / "cache")}
    check(hipport_cmd, env, tmp_path / "p", "html", tmp_path / "r.html")
    page = parse((tmp_path / "r.html").read_text())
    assert headline(page)["uses"] == "0" and headline(page)["min-rocm"] == ""
    assert "No CUDA API uses" in "".join(page.text)


def test_axis_labels_are_thinned_and_rotated_for_every_release(tables):
    from hipport.report.html import axis_labels
    from hipport.report.model import known_releases

    texts = [str(v) for v in known_releases(tables)]
    xs = [56 + i * 880 / (len(texts) - 1) for i in range(len(texts))]
    shown, rotated = axis_labels(xs, texts, {len(texts) - 1})
    assert rotated and len(texts) - 1 in shown
    few, flat = axis_labels(xs[:2] + [936], texts[:3], set())
    assert not flat and few == [0, 1, 2]


# ------------------------------------------------------------------ a real browser

needs_browser = [pytest.mark.browser, browser]


def _visible(selector: str) -> str:
    """JavaScript: the elements matching `selector` that the page shows."""
    return (
        f"Array.prototype.filter.call(document.querySelectorAll('{selector}'),"
        "function(g){return g.checkVisibility();})"
    )


def _browser(tmp_path: Path):
    from tests.chromium_pipe import Browser

    b = Browser(tmp_path / "profile")
    b.viewport(1280, 800)
    return b


@pytest.fixture(scope="module")
def big(tmp_path_factory, hipport_cmd, subprocess_env):
    """The generated 700-file tree, its HTML and JSON reports, and the time the HTML took."""
    from tests.report_tree import TARGET, write_tree

    base = tmp_path_factory.mktemp("big")
    root = base / "samples"
    shape = write_tree(root)
    (root / ".hipport.toml").write_text("")
    env = {**subprocess_env, "HIPPORT_CACHE_DIR": str(base / "cache")}

    def report(fmt: str) -> Path:
        out = base / f"report.{fmt}"
        proc = subprocess.run(
            [*hipport_cmd, "check", str(root), "--rocm", TARGET, "--format", fmt, "-o", str(out)],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        assert proc.returncode in (0, 1), proc.stderr
        return out

    data = json.loads(report("json").read_text())
    start = time.perf_counter()  # warm cache: the report's own cost, plus start-up
    page = report("html")
    elapsed = time.perf_counter() - start
    size = page.stat().st_size
    print(
        f"\n700-file tree: {shape}, {len(data['findings'])} findings, "
        f"{len(data['rocm']['blocking_apis'])} blocking APIs; HTML {size / 1e6:.2f} MB "
        f"in {elapsed:.2f} s (warm cache, whole command)"
    )
    return {"dir": base, "html_path": page, "json": data, "shape": shape}


@pytest.mark.slow
def test_big_tree_is_the_size_the_issue_measured(big):
    data = big["json"]
    assert data["totals"]["files"] == 700 and big["shape"]["directories"] >= 200
    assert len(data["findings"]) >= 1200 and len(data["rocm"]["blocking_apis"]) >= 150


@pytest.mark.slow
def test_big_page_is_under_2_mb_and_self_contained(big):
    text = big["html_path"].read_text(encoding="utf-8")
    assert big["html_path"].stat().st_size < 2_000_000
    lowered = text.lower()
    for needle in ("@import", "url(", "<script src", "<link", "<img"):
        assert needle not in lowered, needle


@pytest.mark.slow
def test_big_headline_names_a_handful(big):
    page = parse(big["html_path"].read_text(encoding="utf-8"))
    assert headline(page) == expected_headline(big["json"])
    text = big["html_path"].read_text(encoding="utf-8")
    header = text[text.index("<header") : text.index("</header>")]
    blocking = big["json"]["rocm"]["blocking_apis"]
    named = [n for n in blocking if f"<code>{n}</code>" in header]
    assert 1 <= len(named) <= 5
    assert f"{len(blocking) - len(named)} more</a>" in header


@pytest.mark.browser
@browser
def test_big_page_layout_at_1280(big, tmp_path):
    b = _browser(tmp_path)
    try:
        b.open(big["html_path"].as_uri())
        layout = b.js(
            "(function(){var d=document.documentElement;return {"
            "h2: document.querySelector('h2').getBoundingClientRect().top,"
            "header: document.querySelector('header').getBoundingClientRect().bottom,"
            "scroll: d.scrollWidth, client: d.clientWidth, height: d.scrollHeight,"
            "navTop: (window.scrollTo(0, 5000), document.querySelector('nav.toc')"
            ".getBoundingClientRect().top)};})()"
        )
        print(
            f"\nat 1280x800: first h2 at {layout['h2']:.0f} px, headline ends at "
            f"{layout['header']:.0f} px, page {layout['height']} px tall"
        )
        assert layout["header"] <= 800 and layout["h2"] <= 900  # the headline fits a screen
        assert layout["scroll"] <= layout["client"]  # no horizontal scroll
        assert layout["height"] <= 30_000
        assert layout["navTop"] == 0  # the contents stay at the top while scrolling
        b.js("window.scrollTo(0, 0)")
        b.screenshot(tmp_path / "big.png")
        assert (tmp_path / "big.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        b.close()


@pytest.mark.browser
@browser
def test_no_chart_label_overlaps_another(big, tmp_path):
    """Every release the tables know is a point; the drawn labels' boxes never intersect."""
    from hipport.report.model import known_releases
    from hipport.tables import load_tables

    b = _browser(tmp_path)
    try:
        b.open(big["html_path"].as_uri())
        # each label's own box (getBBox, before rotation) mapped through its transform to
        # the screen: four corners of a possibly rotated rectangle
        boxes = b.js(
            "Array.prototype.map.call(document.querySelectorAll('#coverage-chart text'),"
            "function(t){var b=t.getBBox(), m=t.getScreenCTM(), s=t.ownerSVGElement;"
            "return [t.textContent].concat([[b.x,b.y],[b.x+b.width,b.y],"
            "[b.x+b.width,b.y+b.height],[b.x,b.y+b.height]].map(function(c){"
            "var p=s.createSVGPoint(); p.x=c[0]; p.y=c[1]; p=p.matrixTransform(m);"
            "return [p.x,p.y];}));})"
        )
        dots = b.js("document.querySelectorAll('#coverage-chart circle').length")
    finally:
        b.close()
    assert dots == len(known_releases(load_tables()))
    ticks = [box for box in boxes if re.fullmatch(r"\d+\.\d+\.\d+", box[0])]
    assert len(ticks) >= dots // 3
    for i, a in enumerate(boxes):
        for c in boxes[i + 1 :]:
            assert not _quads_overlap(a[1:], c[1:]), f"{a[0]!r} overlaps {c[0]!r}"


def _quads_overlap(p: list, q: list, slack: float = 0.5) -> bool:
    """Two convex quadrilaterals intersect unless an edge normal separates them (the
    separating axis theorem); `slack` px of touching is allowed."""
    for poly in (p, q):
        for k in range(4):
            (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % 4]
            nx, ny = y1 - y0, x0 - x1
            norm = (nx * nx + ny * ny) ** 0.5 or 1.0
            a = [(x * nx + y * ny) / norm for x, y in p]
            b = [(x * nx + y * ny) / norm for x, y in q]
            if max(a) <= min(b) + slack or max(b) <= min(a) + slack:
                return False
    return True


@pytest.mark.browser
@browser
def test_search_filters_and_opening(big, tmp_path):
    data = big["json"]
    by_api = Counter(f["api"] for f in data["findings"] if f["api"])
    api, uses = by_api.most_common(1)[0]
    one_file = next(f["location"]["path"] for f in data["findings"] if f["api"] == api)
    visible_groups = _visible("details.group")
    b = _browser(tmp_path)
    try:
        b.open(big["html_path"].as_uri())
        total = b.js("document.querySelectorAll('details.group').length")
        # typing an API name leaves its groups only
        b.type_into("#search", api)
        names = b.js(
            visible_groups + ".map(function(g){return g.querySelector('.api').textContent;})"
        )
        assert names and set(names) == {api}
        assert b.js("document.getElementById('filter-count').textContent").startswith(
            f"{len(names)} of {total}"
        )
        # a file's path: the groups with a finding there, opened, showing that file's rows only
        b.js("var s=document.getElementById('search'); s.value=''; s.focus()")
        b.page("Input.insertText", {"text": one_file})
        rows = b.js(
            "Array.prototype.filter.call(document.querySelectorAll('details.group li[data-path]'),"
            "function(r){return r.checkVisibility();}).map(function(r){"
            "return r.getAttribute('data-path');})"
        )
        expected = sum(1 for f in data["findings"] if f["location"]["path"] == one_file)
        assert rows and set(rows) == {one_file} and len(rows) == expected
        # severity filter (a real <select> change) with an empty search
        b.js(
            "var s=document.getElementById('search'); s.value='';"
            "s.dispatchEvent(new Event('input'));"
            "var f=document.getElementById('filter-severity'); f.value='warning';"
            "f.dispatchEvent(new Event('change'))"
        )
        severities = b.js(
            visible_groups + ".map(function(g){return g.getAttribute('data-severity');})"
        )
        assert severities and set(severities) == {"warning"}
        b.js(
            "var f=document.getElementById('filter-severity'); f.value='';"
            "f.dispatchEvent(new Event('change'))"
        )
        # clicking a closed group's summary opens it: its locations become visible (the
        # path search above left the groups it matched open, so take one it did not open)
        b.js("document.querySelector('details.group:not([open])').id = 'probe-group'")
        first = "#probe-group"
        assert not b.js(f"document.querySelector('{first}').open")
        b.click(f"{first} > summary")
        assert b.js(f"document.querySelector('{first}').open")
        assert b.js(f"document.querySelector('{first} li[data-path]').checkVisibility()")
        # the tree: a directory opens to its entries, a file to its findings
        directory = "#tree > details > ul > li > details.dir"
        assert b.js(f"document.querySelector('{directory} > ul').checkVisibility()") is False
        b.click(f"{directory} > summary")
        assert b.js(f"document.querySelector('{directory} > ul').checkVisibility()")
        nested = b.js(
            f"(function(){{var d=document.querySelector('{directory}');"
            "while(d.querySelector(':scope > ul > li > details.dir'))"
            "{d.open=true; d=d.querySelector(':scope > ul > li > details.dir');}"
            "d.open=true; var f=d.querySelector('details.file');"
            "return f ? f.getAttribute('data-path') : null;})()"
        )
        assert nested
        selector = f'details.file[data-path="{nested}"]'
        b.click(f"{selector} > summary")
        shown = b.js(f"document.querySelectorAll('{selector} .findings-list li').length")
        assert shown == sum(1 for f in data["findings"] if f["location"]["path"] == nested)
        # a link to a group (#api-...) opens it, and the directories around a file
        group_id = b.js("document.querySelectorAll('details.group')[5].id")
        b.open("about:blank")  # a new document, not a same-page fragment change
        b.open(big["html_path"].as_uri() + "#" + group_id)
        assert b.js(f"document.getElementById('{group_id}').open")
        b.open("about:blank")
        b.open(big["html_path"].as_uri() + "#" + nested)
        assert b.js(
            f"(function(){{var f=document.querySelector('{selector}');var ok=f.open;"
            "for(var d=f.parentElement; d; d=d.parentElement){"
            "if(d.tagName==='DETAILS' && !d.open){ok=false;}} return ok;})()"
        )
    finally:
        b.close()


@pytest.mark.browser
@browser
def test_kind_sections_and_the_kind_filter(big, tmp_path):
    """The findings sit under their rule's kind in the page as the browser shows it; the
    Kind filter (a real <select> change, and a #kind= link) leaves that kind's groups and
    hides the other kinds' sections."""
    data = big["json"]
    groups_of = Counter(
        RULES[f["code"]].kind.value
        for f in {(f["api"], f["code"]): f for f in data["findings"]}.values()
    )
    hazard = Kind.HAZARD.value
    assert groups_of[hazard] and len(groups_of) >= 2
    b = _browser(tmp_path)
    try:
        b.open(big["html_path"].as_uri())
        shown = b.js(
            _visible("#groups > section.kind")
            + ".map(function(s){return [s.getAttribute('data-kind'),"
            "s.querySelector('h3').textContent];})"
        )
        order = [k.value for k in Kind]
        assert [k for k, _ in shown] == sorted({k for k, _ in shown}, key=order.index)
        assert all(title.startswith(Kind(k).title) for k, title in shown)
        pairs = b.js(
            "Array.prototype.map.call(document.querySelectorAll('details.group'),"
            "function(g){return [g.getAttribute('data-rule'), g.getAttribute('data-kind'),"
            "g.closest('section.kind').getAttribute('data-kind')];})"
        )
        assert Counter(kind for _, kind, _ in pairs) == groups_of
        assert all(RULES[code].kind.value == kind == around for code, kind, around in pairs)
        b.js(
            "var f=document.getElementById('filter-kind'); f.value='hazard';"
            "f.dispatchEvent(new Event('change'))"
        )
        kinds = b.js(
            _visible("details.group") + ".map(function(g){return g.getAttribute('data-kind');})"
        )
        assert kinds == [hazard] * groups_of[hazard]
        sections = b.js(
            _visible("section.kind") + ".map(function(s){return s.getAttribute('data-kind');})"
        )
        assert set(sections) == {hazard}
        # a link holds the filter
        b.open("about:blank")
        b.open(big["html_path"].as_uri() + "#kind=" + Kind.REWRITE.value)
        assert b.js("document.getElementById('filter-kind').value") == Kind.REWRITE.value
        kinds = b.js(
            _visible("details.group") + ".map(function(g){return g.getAttribute('data-kind');})"
        )
        assert kinds == [Kind.REWRITE.value] * groups_of[Kind.REWRITE.value]
    finally:
        b.close()


@pytest.mark.browser
@browser
def test_print_hides_the_interactive_parts(big, tmp_path):
    b = _browser(tmp_path)
    try:
        b.open(big["html_path"].as_uri())
        b.page("Emulation.setEmulatedMedia", {"media": "print"})
        hidden = b.js(
            "[getComputedStyle(document.querySelector('nav.toc')).display,"
            "getComputedStyle(document.getElementById('filters')).display]"
        )
        assert hidden == ["none", "none"]
    finally:
        b.close()


@pytest.mark.browser
@browser
def test_small_page_in_the_browser(made, tmp_path):
    b = _browser(tmp_path)
    try:
        b.open(made["html_path"].as_uri())
        shown = b.js(
            "(function(){var o={};document.querySelectorAll('[data-testid^=headline-]')"
            ".forEach(function(e){o[e.getAttribute('data-testid')]=e.textContent.trim();});"
            "return o;})()"
        )
        totals = made["json"]["totals"]
        assert shown["headline-files"] == str(totals["files"])
        assert shown["headline-uses"] == str(totals["uses"])
        assert shown["headline-share-mapped"] == f"{totals['conversion_percent']}%"
        assert shown["headline-min-rocm"] == made["json"]["rocm"]["minimum"]
        assert b.js("document.getElementById('filters').hidden") is False  # the script ran
        width = b.js("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1]  # the long path wraps, no horizontal scroll
    finally:
        b.close()


def test_the_overlap_check_has_teeth():
    square = [[0, 0], [10, 0], [10, 10], [0, 10]]
    assert _quads_overlap(square, [[5, 5], [15, 5], [15, 15], [5, 15]])
    assert not _quads_overlap(square, [[11, 0], [21, 0], [21, 10], [11, 10]])
    # two 45-degree rotated boxes whose bounding boxes meet but whose shapes do not
    diamond = [[5, 0], [10, 5], [5, 10], [0, 5]]
    assert not _quads_overlap(diamond, [[12, 3], [17, 8], [12, 13], [7, 8]])


@pytest.mark.nvcc
def test_generated_tree_is_real_cuda(tmp_path):
    """A sample of the generated files (every category, hazards included) compiles."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not on PATH")
    from tests.report_tree import write_tree

    write_tree(tmp_path / "tree", files=40)
    sources = sorted((tmp_path / "tree").rglob("*.cu"))
    assert any("__shfl_down_sync" in s.read_text() for s in sources)
    for source in sources[::3]:
        done = subprocess.run(
            [nvcc, "-x", "cu", "-std=c++17", "-arch=sm_80", "-c", str(source), "-o", os.devnull],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{source.name}:\n{done.stderr[-3000:]}"
