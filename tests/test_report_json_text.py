"""json_text (hipport.report.model), the JSON reports' encoder: the standard library's
text, joined piece by piece."""

from __future__ import annotations

import json

from hipport.report.model import json_text


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


def test_an_empty_list_is_one_piece() -> None:
    assert json_text([]) == "[]\n"
