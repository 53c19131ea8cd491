"""Results a --no-cache run keeps out of memory (hipport.runner.spill) and the pipe's
pickling (hipport.runner.wire): what comes back is the result that went in."""

from __future__ import annotations

import pickle
import tempfile

import pytest

from hipport.edits import Edit
from hipport.engine import translate_source
from hipport.findings import Finding, Location, Severity, Use
from hipport.runner import wire
from hipport.runner.spill import Spill, pack
from hipport.target import Target

SOURCE = b"#include <cuda_runtime.h>\nint main() { cudaFree(0); cudaFrobnicate(1); }\n"


def test_a_spilled_result_loads_as_it_was_made() -> None:
    result = translate_source(SOURCE, "a.cu", Target())
    assert result.changed and result.findings and result.uses and result.edits
    spilled = Spill().keep(pack(result))
    assert spilled.output() == result.output
    assert spilled.load() == result


def test_an_unchanged_result_keeps_its_source_once() -> None:
    result = translate_source(b"int x;\n", "b.cu", Target())
    packed = pack(result)
    assert packed.output is None and not packed.info.changed
    spilled = Spill().keep(packed)
    assert spilled.output() == b"int x;\n"
    assert spilled.load() == result


def test_results_stay_in_memory_when_no_temporary_file_can_be_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    result = translate_source(SOURCE, "a.cu", Target())
    spill = Spill()
    first, second = spill.keep(pack(result)), spill.keep(pack(result))
    assert first.load() == result and second.output() == result.output


def test_records_cross_the_pipe_by_their_constructor() -> None:
    table = wire.record_table(*wire.RESULT_RECORDS)
    values = [Edit(1, 2, b"x", "rename", b"y", (b"a", (1, 2))), Location("p", 1, 2, 3, 4)]
    assert pickle.loads(wire.dumps(values, table)) == values


def test_a_record_with_a_post_init_is_refused() -> None:
    with pytest.raises(TypeError):
        wire.record_table(Target)


def test_records_by_columns_are_made_again_as_they_were() -> None:
    result = translate_source(SOURCE, "a.cu", Target())
    for records, cls in ((result.findings, Finding), (result.uses, Use), ([], Edit)):
        assert wire.from_columns(wire.to_columns(records, cls), cls) == records


@pytest.mark.parametrize(
    "source",
    [
        SOURCE,  # mapped and unknown uses: grouped by kind
        b"void u() { cudaNoSuchA(); cudaNoSuchB(1); cudaNoSuchC(); }\n",  # each its own kind
        b"void u() { cudaNoSuchA(); cudaNoSuchB(); cudaNoSuchA(); }\n",  # a kind used twice
        b"int x;\n",  # no use
    ],
)
def test_a_spilled_part_is_the_cached_part(source: bytes) -> None:
    """What the report reads of a spilled result (its part: nothing of the edits) is what
    it reads of a cached one (report_part.part_fields through JSON, then make_part)."""
    import json

    from hipport.runner.report_part import make_part, part_fields

    result = translate_source(source, "a.cu", Target())
    cached = make_part(source, json.loads(json.dumps(part_fields(result))))
    for spill in (Spill(), _memory_spill()):
        part = spill.keep(pack(result)).part()
        assert list(part.uses) == list(part.uses) == list(cached.uses)
        assert (part.path, part.source, part.findings) == (
            cached.path,
            cached.source,
            cached.findings,
        )
        assert (part.bytes_changed, part.lines_changed) == (
            cached.bytes_changed,
            cached.lines_changed,
        )
        assert (part.skipped_dead, part.dead_macros) == (cached.skipped_dead, cached.dead_macros)


def _memory_spill() -> Spill:
    """A Spill whose temporary file could not be written: it keeps the bytes."""
    spill = Spill()
    spill._failed = True
    return spill


def test_a_field_of_one_object_throughout_is_kept_once() -> None:
    """A column whose every record holds the same object is (object, count); equal but
    distinct objects (each finding's own `extra` dict) stay a list, and come back
    distinct: a report that writes into one finding's extra touches no other."""
    loc = Location("a.cu", 1, 2, 1, 5)
    findings = [Finding("HIP004", Severity.WARNING, f"m{i}", loc, api=f"n{i}") for i in range(3)]
    columns = wire.to_columns(findings, Finding)
    code, severity, message, location, api, *_, extra = columns
    assert code == ("HIP004", 3) and severity == (Severity.WARNING, 3)
    assert message == ["m0", "m1", "m2"] and type(extra) is list
    assert location[0] == ("a.cu", 3)
    back = wire.from_columns(pickle.loads(pickle.dumps(columns)), Finding)
    assert back == findings
    back[0].extra["fingerprint"] = "x"
    assert back[1].extra == {} and back[2].extra == {}
    assert wire.from_columns(wire.to_columns([], Finding), Finding) == []
