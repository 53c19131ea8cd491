"""The text report's own helpers (the report as users see it: tests/test_check_cli.py,
tests/test_report_formats.py)."""

from __future__ import annotations


def test_trailing_blanks_go_as_str_rstrip_takes_them_from_each_line():
    """The text report strips each line's trailing blanks (lines end at \n only): what
    rstrip() takes from each line, for every character str.isspace() holds (a lone \r,
    \x0b, \x85 and \u2028 are blanks, not line ends, here), mid-line ones kept."""
    import io
    import sys

    from hipport.report.text import _without_trailing_spaces

    blanks = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace() and c != "\n")
    assert len(blanks) > 20
    lines = [f"a{b}b{b}" for b in blanks] + [blanks, "", "x" + blanks + "y", " \t "]
    text = "\n".join(lines) + "\n" + blanks
    expected = "\n".join(line.rstrip() for line in text.split("\n"))
    assert _without_trailing_spaces(io.StringIO(text)) == expected
