"""The one place that knows the project's token API: a source in, plain (kind, text) lists
and the fast code's answers out. When the token API changes, this module changes; the
oracles and tests/test_oracles.py do not."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

from hipport import tokens as token_model
from hipport.lexer import COMMENT, Tokens, lex
from hipport.mappings import load_mappings
from hipport.rules.declared import names_defined_by
from hipport.rules.tokens import directives

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
def _columns(source: bytes) -> Tokens:
    """The lexer's tokens of `source`: one lexing serves the oracles and the fast code."""
    return lex(source, "oracle.cu")


def lexed(source: bytes) -> Lexed:
    cols = _columns(source)
    found = [(d.name, d.hash, d.end) for d in directives(source, cols)]
    return Lexed(source, list(zip(cols.kinds, cols.texts, strict=True)), found)


def nvcc_macros() -> frozenset[str]:
    return load_mappings().gate.macro_names


def fast_names(source: bytes) -> frozenset[str]:
    return names_defined_by(_columns(source))


@dataclass(frozen=True)
class Brackets:
    match: Callable[[int, int | None], int | None]
    arguments: Callable[[int, int], list[tuple[int, int]]]
    code: list[Tok]  # the code tokens the fast code indexes


@contextmanager
def fast_brackets(source: bytes, near: int | None = None) -> Iterator[Brackets]:
    """The code view's match and arguments on `source`. `near`: how far a bracket pair is
    walked before the whole file's bracket depths are used (None: the code's own; 0: the
    depths always)."""
    saved = token_model._NEAR
    if near is not None:
        token_model._NEAR = near
    try:
        view = lex(source, "oracle.cu").code()  # a fresh view: no depths made yet
        yield Brackets(view.match, view.arguments, list(zip(view.kinds, view.texts, strict=True)))
    finally:
        token_model._NEAR = saved
