"""Seeds and mutations shared by the hypothesis fuzz test and the long-running script.

Seeds are the CUDA corpus and the examples; a mutation is a small list of operations
(byte flips, insertions of tokens that upset lexers, truncation) applied in order, so a
failing input can be rebuilt from (seed index, operations) and shrunk by hypothesis.
"""

from __future__ import annotations

import random
from pathlib import Path

from hipport.edits import apply
from hipport.engine import TranslationResult, translate_source
from hipport.target import Target

ROOT = Path(__file__).resolve().parents[2]

# Fragments that stress a C/CUDA lexer: launch brackets, open strings and comments, line
# splices, preprocessor branches, NUL, invalid UTF-8 (lone continuation, overlong, surrogate
# encoding, truncated sequence), a BOM, CR.
INSERTS = (
    b"<<<",
    b">>>",
    b'"',
    b"'",
    b"/*",
    b"*/",
    b"//",
    b"\\\n",
    b"\\\r\n",
    b"#if",
    b"#if 0\n",
    b"#endif\n",
    b"#define X(",
    b"\0",
    b"\x80",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xe2\x82",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"\r",
    b'R"x(',
    b"cudaMalloc",
    b"<<<1, 2>>>(",
    b"__global__",
    b"{",
    b"}",
    b"(",
    b")",
    b"\t",
    b"??/",
)

TARGETS = (Target(), Target(launch_syntax="hip"))


def seeds() -> list[bytes]:
    paths = sorted((ROOT / "tests" / "corpus").glob("*.cu"))
    paths += sorted((ROOT / "examples").glob("**/*.cu"))
    out = [p.read_bytes() for p in paths]
    return out or [b"__global__ void k() {}\nint main() { k<<<1, 1>>>(); cudaMalloc(0, 0); }\n"]


def mutate(data: bytes, ops: list[tuple[int, int, int]]) -> bytes:
    """Apply operations (kind, position, value): 0 flip a byte, 1 insert a fragment,
    2 truncate, 3 delete a run, 4 insert a random byte. Positions wrap around the length."""
    buf = bytearray(data)
    for kind, pos, value in ops:
        n = len(buf)
        at = pos % (n + 1)
        if kind == 0 and n:
            buf[at % n] ^= 1 << (value % 8)
        elif kind == 1:
            buf[at:at] = INSERTS[value % len(INSERTS)]
        elif kind == 2:
            del buf[at:]
        elif kind == 3:
            del buf[at : at + value % 64]
        else:
            buf[at:at] = bytes([value % 256])
    return bytes(buf)


def check_one(data: bytes, path: str = "fuzz.cu") -> None:
    """The engine contract on one input, for every fuzz target. Raises AssertionError (or
    whatever the engine raised) on a violation."""
    for target in TARGETS:
        result = translate_source(data, path, target)
        check_result(data, result)


def check_result(data: bytes, result: TranslationResult) -> None:
    assert isinstance(result, TranslationResult)
    assert result.source == data
    if result.error is not None:
        assert isinstance(result.error, str) and result.error
        assert result.output == data, "a file with an error must be left as it is"
        return
    last = 0
    for edit in sorted(result.edits):
        assert 0 <= edit.start <= edit.end <= len(data), f"edit out of range: {edit}"
        assert edit.start >= last, f"overlapping edits: {result.edits}"
        last = edit.end
    # every byte outside the edits is unchanged
    assert apply(data, result.edits) == result.output


def ops_from_bytes(blob: bytes) -> list[tuple[int, int, int]]:
    """Operations from a byte string, 5 bytes each (kind, 24-bit position, value): hypothesis
    generates and shrinks a flat byte string far faster than a list of tuples."""
    return [
        (blob[i] % 5, int.from_bytes(blob[i + 1 : i + 4], "little"), blob[i + 4])
        for i in range(0, len(blob) - 4, 5)
    ]


def random_input(rng: random.Random, pool: list[bytes]) -> bytes:
    """For the long-running script: random bytes a fifth of the time, else a mutated seed."""
    if rng.random() < 0.2:
        return rng.randbytes(rng.randrange(0, 2048))
    ops = [
        (rng.randrange(5), rng.randrange(1 << 20), rng.randrange(1 << 16))
        for _ in range(rng.randrange(1, 12))
    ]
    return mutate(rng.choice(pool), ops)
