"""The one place that knows the project's token API: a source in, plain (kind, text) lists
and the fast code's answers out. When the token API changes, this module changes; the
oracles and tests/test_oracles.py do not."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

from hipport.engine import _context
from hipport.lexer import COMMENT, Columns, lex_columns
from hipport.options import EngineOptions
from hipport.rules import code_index
from hipport.rules.code_index import CodeIndex
from hipport.rules.declared import names_defined_by
from hipport.rules.gate_facts import macro_names
from hipport.rules.tokens import directives
from hipport.target import Target

Tok = tuple[str, str]


@dataclass(frozen=True)
class Lexed:
    source: bytes
    tokens: list[Tok]  # every token, comments included
    directives: list[tuple[str, int, int]]  # (name, index of the `#`, end index)

    @property
    def code(self) -> list[Tok]:
        """The code tokens (comments left out), the index space of match/arguments."""
        return [t for t in self.tokens if t[0] != COMMENT]


@cache  # a test session lexes each file once
def _columns(source: bytes) -> Columns:
    """The lexer's columns of `source`: one lexing serves the oracles and the fast code."""
    return lex_columns(source, "oracle.cu")


def lexed(source: bytes) -> Lexed:
    cols = _columns(source)
    found = [(d.name, d.hash, d.end) for d in directives(source, cols)]
    return Lexed(source, list(zip(cols.kinds, cols.texts, strict=True)), found)


def nvcc_macros() -> frozenset[str]:
    return frozenset(macro_names())


def fast_names(source: bytes) -> frozenset[str]:
    return names_defined_by(_columns(source), source)


@dataclass(frozen=True)
class Brackets:
    match: Callable[[int, int | None], int | None]
    arguments: Callable[[int, int], list[tuple[int, int]]]
    code: list[Tok]  # the code tokens the fast code indexes


@contextmanager
def fast_brackets(source: bytes, near: int | None = None) -> Iterator[Brackets]:
    """The code index's match and arguments on `source`. `near`: how far a bracket pair is
    walked before the whole file's bracket depths are used (None: the code's own; 0: the
    depths always)."""
    saved = code_index._NEAR
    if near is not None:
        code_index._NEAR = near
    try:
        ctx = _context(
            source, lex_columns(source, "oracle.cu"), "oracle.cu", Target(), EngineOptions()
        )
        v = CodeIndex(ctx, frozenset())
        yield Brackets(v.match, v.arguments, list(zip(v.kinds, v.texts, strict=True)))
    finally:
        code_index._NEAR = saved
