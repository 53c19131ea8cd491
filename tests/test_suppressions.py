"""Inline suppressions: each form, codes or names, comment kinds, unused ones reported."""

from __future__ import annotations

import pytest

from hipport.suppressions import FILE, LINE, NEXT_LINE, comments, parse
from tests.report_support import codes, report_of

HEAD = "#include <cuda_runtime.h>\n"
BAD = "cudaDeviceFlushGPUDirectRDMAWrites(t, s);"  # HIP001


@pytest.mark.parametrize(
    "source",
    [
        HEAD + f"void f(){{ {BAD} }} // hipport: ignore\n",
        HEAD + f"void f(){{ {BAD} }} // hipport: ignore[HIP001]\n",
        HEAD + f"void f(){{ {BAD} }} // hipport: ignore[unsupported-api]\n",
        HEAD
        + f"void f(){{ {BAD} }} /* hipport: ignore[HIP004, HIP001] */\n".replace("HIP004, ", ""),
        HEAD + f"// hipport: ignore-next-line[HIP001]\nvoid f(){{ {BAD} }}\n",
        HEAD + f"/* hipport:\n   ignore-next-line */\nvoid f(){{ {BAD} }}\n",
        f"// hipport: ignore-file[HIP001]\n{HEAD}void f(){{ {BAD} }}\nvoid g(){{ {BAD} }}\n",
        f"{HEAD}void f(){{ {BAD} }}\n/* hipport: ignore-file */\n",
    ],
    ids=[
        "line",
        "line-code",
        "line-name",
        "block",
        "next-line",
        "next-line-block",
        "file-code",
        "file-all",
    ],
)
def test_each_form_silences(source):
    report = report_of({"a.cu": source})
    assert codes(report) == set(), [f.message for f in report.findings]
    assert {f.code for f in report.suppressed} == {"HIP001"}


def test_other_codes_still_reported():
    report = report_of(
        {"a.cu": HEAD + f"void f(){{ {BAD} cudaFrobnicate(); }} // hipport: ignore[HIP004]\n"}
    )
    assert codes(report) == {"HIP001"}


def test_next_line_does_not_cover_its_own_line():
    report = report_of({"a.cu": HEAD + f"void f(){{ {BAD} }} // hipport: ignore-next-line\n"})
    assert "HIP001" in codes(report)
    assert "HIP201" in codes(report)


def test_unused_suppressions_are_reported():
    src = (
        HEAD
        + "void f(){ cudaFree(p); } // hipport: ignore\n"
        + f"void g(){{ {BAD} }} // hipport: ignore[HIP001, HIP004]\n"
    )
    report = report_of({"a.cu": src})
    unused = [f for f in report.findings if f.code == "HIP201"]
    assert [f.location.line for f in unused] == [2, 3]
    assert "HIP004" in unused[1].message and "HIP001" not in unused[1].message.split(":")[-1]
    # an unknown rule name is a HIP206 finding, not a HIP201: tests/test_policy.py


def test_unused_reports_can_be_turned_off_per_file():
    src = "// hipport: ignore-file[HIP201]\n" + HEAD + "void f(){} // hipport: ignore\n"
    assert codes(report_of({"a.cu": src})) == set()


def test_directives_in_strings_are_not_comments():
    src = (
        HEAD
        + f'const char* s = "// hipport: ignore"; void f(){{ {BAD} }}\n'
        + 'auto r = R"x(// hipport: ignore-file)x";\n'
    )
    assert "HIP001" in codes(report_of({"a.cu": src}))


def test_parse_kinds_and_lines():
    src = (
        b"int a = 1'000; // hipport: ignore[HIP001]\n/* hipport: ignore-next-line */\n"
        b"x();\n# not a comment in C\n// hipport: ignore-file\n"
    )
    sups = parse(src, "a.cu")
    assert [(s.kind, s.line, s.codes) for s in sups] == [
        (LINE, 1, ("HIP001",)),
        (NEXT_LINE, 3, ()),
        (FILE, 0, ()),
    ]


def test_cmake_comments():
    src = b'set(X "# not a comment") # hipport: ignore[HIP301]\n#[[ block ]]\n'
    spans = list(comments(src, "CMakeLists.txt"))
    assert [src[a:b] for a, b in spans] == [b"# hipport: ignore[HIP301]", b"#[[ block ]]"]
    report = report_of(
        {
            "CMakeLists.txt": "cuda_add_executable(app main.cu) "
            "# hipport: ignore[cmake-untranslatable]\n"
        }
    )
    assert codes(report) == set()


def test_suppressions_can_be_disabled():
    src = HEAD + f"void f(){{ {BAD} }} // hipport: ignore\n"
    assert "HIP001" in codes(report_of({"a.cu": src}, suppressions=False))
