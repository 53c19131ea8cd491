"""json_text (hipport.report.jsontext), the JSON reports' encoder: the standard library's
text, joined piece by piece."""

from __future__ import annotations

import json

from hipport.report.jsontext import json_text


def test_the_text_is_json_dumps_with_a_newline() -> None:
    value = {
        "findings": [{"path": f"é/{i}.cu", "line": i, "extra": {}} for i in range(9000)],
        "empty": [],
        "nested": {"a": [1, 2.5, None, True, 'x\n"y"'], "b": {}},
    }
    for indent in (2, 4, None):
        assert (
            json_text(value, indent) == json.dumps(value, indent=indent, ensure_ascii=False) + "\n"
        )


def test_lists_of_names_are_json_dumps_too() -> None:
    """A list of strings only is joined at once (the blocking APIs: 300,000 names), in
    pieces of CHUNK names; nested, at the top, with escapes, one item, a str subclass
    (not a plain str: the item-by-item path) and a tuple."""
    from hipport.report.jsontext import CHUNK

    class Name(str):
        pass

    names = [f'cuda\u00e9"{i}\\\n' for i in range(2 * CHUNK + 3)]
    values = [
        names,
        {"rocm": {"blocking_apis": names, "one": ["x"], "mixed": ["a", 1, None]}},
        [Name("n"), "m"],
        {"t": ("a", "b")},
        [[], ["a"], [["b"]]],
    ]
    for value in values:
        for indent in (2, 3):
            text = json.dumps(value, indent=indent, ensure_ascii=False) + "\n"
            assert json_text(value, indent) == text


def test_an_empty_list_is_one_piece() -> None:
    assert json_text([]) == "[]\n"


def _expanded(document: dict) -> dict:
    """The document with each Rows value listed as its items' plain values."""
    from hipport.report.jsontext import Rows

    return {k: [v.plain(i) for i in v.items] if type(v) is Rows else v for k, v in document.items()}


def test_a_document_with_rows_is_written_as_json_dumps_writes_it() -> None:
    """json_chunks: rows written fast (flat_text), rows whose fast text declines, rows of
    values json converts (tuples, non-string keys, NaN, booleans), empty rows, and plain
    values between them; the joined pieces are json.dumps's text."""
    from hipport.report.jsontext import Rows, flat_text, json_chunks

    plain_rows = [
        {"api": f"cudaX{i}", "uses": i, "hip": None, "codes": ["HIP004"]} for i in range(50)
    ]
    odd_rows = [
        {"t": (1, "a"), 3: "int key", "f": 0.5, "b": True, "n": float("nan")},
        {"nested": {"k": [{}, []]}, "e": [], "s": 'é\n"\\'},
        ("a", "tuple", "row"),
    ]
    document = {
        "first": {"x": [1, 2]},
        "fast": Rows(plain_rows, dict, flat_text),
        "declined": Rows(odd_rows, lambda r: r, flat_text),
        "slow": Rows(odd_rows, lambda r: r),
        "empty": Rows([], dict, flat_text),
        "between": (None, "x"),
        "last": Rows(range(3), lambda i: {"i": i}),
    }
    text = "".join(json_chunks(document))
    assert text == json.dumps(_expanded(document), indent=2, ensure_ascii=False) + "\n"
    assert "".join(json_chunks({})) == "{}\n"


def test_long_rows_come_in_pieces_never_the_whole_text() -> None:
    """A report's long lists are never held as one text: 40,000 rows come in pieces, none
    more than a tenth of the whole (the whole text and dict form of a 300,000-finding
    report were 1.5 GB at the peak)."""
    from hipport.report.jsontext import Rows, json_chunks

    rows = Rows(range(40_000), lambda i: {"path": f"src/{i}.cu", "line": i})
    pieces = list(json_chunks({"findings": rows, "total": 40_000}))
    whole = sum(map(len, pieces))
    assert len(pieces) > 10 and max(map(len, pieces)) < whole / 10
    assert (
        "".join(pieces)
        == json.dumps(_expanded({"findings": rows, "total": 40_000}), indent=2) + "\n"
    )


def test_a_row_with_str_subclasses_is_written_as_json_dumps_writes_it() -> None:
    """A file's row holds its status as a StrEnum member (FileStatus): the row's text is
    made in one call, as json.dumps writes it (the member's text), not by the dict
    writer; a bool still goes to the dict writer (json writes true, not 1)."""
    from enum import StrEnum

    from hipport.report.jsontext import flat_text

    class Kind(StrEnum):
        CHANGED = "changed"

    class Odd(str):
        def __str__(self) -> str:
            return "not this"

    row = {"path": "a/b.cu", "status": Kind.CHANGED, "who": Odd('x"y'), "n": 3, "e": None}
    for indent in ("  ", "    "):
        text = flat_text(row, "\n" + indent, indent)
        assert text is not None
        assert text == json.dumps(row, indent=len(indent), ensure_ascii=False).replace(
            "\n", "\n" + indent
        )
    assert flat_text({"flag": True}, "\n  ", "  ") is None
