"""What every rule sees (Context: the source, its tokens, the target, the tables and
options, plus the lookups several rules share, computed once per file), what every rule
returns (RuleResult: its edits, findings and API uses, as a value) and the Rule protocol."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress, repeat
from operator import eq
from typing import Protocol

from hipport.edits import Edit
from hipport.findings import RULES, Finding, Location, Severity, Use
from hipport.lexer import IDENTIFIER, Columns, Token, TokenList, columns, line_starts
from hipport.options import EngineOptions
from hipport.rules.code_index import CodeIndex
from hipport.rules.tokens import Directive, LazyTokens, directives, positions
from hipport.tables import Resolution, Tables, resolve
from hipport.target import Target

# Up to this many names, Context.where scans the texts once per name (list.index, a few
# ns a token) rather than testing every token against the set (tens of ns a token).
_FEW_NAMES = 4


@dataclass
class Context:
    source: bytes
    # The file's tokens as the lexer gave them: columns (hipport.lexer.lex_columns) or a
    # list of Token; `tokens` makes the Token objects on first use.
    lexed: Columns | list[Token]
    path: str
    target: Target
    tables: Tables
    options: EngineOptions
    # Filled by the engine from earlier rules / the project index: names defined here.
    defined: frozenset[str] = frozenset()
    # Names a semantic pass found to be the user's own declarations (never renamed).
    user_declared: frozenset[str] = frozenset()
    # Byte offsets of the kernel names of launches the semantic pass confirmed as AST nodes;
    # None without a semantic pass (then every token-level launch counts).
    confirmed_launches: frozenset[int] | None = None
    # The uses the rules before this one returned (the engine appends each rule's
    # RuleResult.uses after it ran); rules read it, never write it.
    earlier_uses: list[Use] = field(default_factory=list)
    # Token texts the rules look up in `code` (their vocabularies), indexed up front.
    vocabulary: frozenset[str] = frozenset()
    _resolutions: dict[str, Resolution] = field(default_factory=dict, repr=False)

    @cached_property
    def tokens(self) -> list[Token]:
        """The file's Token objects (made on first use: a rule that can work from the
        columns never pays for them)."""
        lexed = self.lexed
        return lexed.tokens() if isinstance(lexed, Columns) else lexed

    @cached_property
    def columns(self) -> TokenList | Columns:
        """The tokens as columns (`texts`, `kinds`, `starts`, `ends`: lists parallel to
        `tokens`), for tests at C speed over the whole file."""
        return columns(self.lexed)

    @cached_property
    def token_view(self) -> Sequence[Token]:
        """`tokens` if made already, else a sequence that makes each Token when indexed
        (tokens.LazyTokens): for the helpers of rules/tokens.py at a rule's few positions."""
        made = self.__dict__.get("tokens")
        return made if made is not None else LazyTokens(self.token, len(self.kinds))

    def token(self, i: int) -> Token:
        """Token i, without making the others."""
        lexed = self.lexed
        return lexed.token(i) if isinstance(lexed, Columns) else lexed[i]

    @property
    def texts(self) -> list[str]:
        return self.columns.texts

    @property
    def kinds(self) -> list[str]:
        return self.columns.kinds

    @cached_property
    def identifiers(self) -> frozenset[str]:
        """The distinct texts of the file's identifier tokens (directives included)."""
        cols = self.columns
        return frozenset(compress(cols.texts, map(eq, cols.kinds, repeat(IDENTIFIER))))

    def where(self, names: AbstractSet[str]) -> list[int]:
        """Ascending indices of the identifier tokens spelled as one of `names`, found at
        C speed over the texts (pass the file's few names, e.g. `identifiers & ...`): one
        `list.index` scan per name for a handful of them, else one set lookup per token."""
        kinds, texts = self.kinds, self.texts
        if len(names) <= _FEW_NAMES:
            hits: Iterable[int] = sorted(i for name in names for i in positions(texts, name))
        else:
            hits = compress(range(len(kinds)), map(names.__contains__, texts))
        return [i for i in hits if kinds[i] == IDENTIFIER]

    @cached_property
    def line_starts(self) -> list[int]:
        return line_starts(self.source)

    @cached_property
    def code(self) -> CodeIndex:
        """The code-token index every hazard reads: built once per file, on first use."""
        return CodeIndex(self, self.vocabulary)

    @cached_property
    def directives(self) -> list[Directive]:
        return directives(self.source, self.lexed)

    @cached_property
    def directive_at(self) -> dict[int, Directive]:
        """Token index -> the directive that token belongs to (only tokens inside one)."""
        out: dict[int, Directive] = {}
        for d in self.directives:
            for i in range(d.hash, d.end):
                out[i] = d
        return out

    @cached_property
    def newline(self) -> bytes:
        """The file's line ending (CRLF if its first line ends so)."""
        nl = self.source.find(b"\n")
        return b"\r\n" if nl > 0 and self.source[nl - 1] == 0x0D else b"\n"

    def release(self) -> None:
        """Drop everything the file's lookups made (the code index refers back to this
        context): the engine calls it when the rules are done, so the file's tokens are
        freed at once instead of waiting for the cyclic collector."""
        self.__dict__.clear()

    def resolve(self, name: str) -> Resolution:
        res = self._resolutions.get(name)
        if res is None:
            res = self._resolutions[name] = resolve(self.tables, name, self.target)
        return res

    def position(self, offset: int) -> tuple[int, int]:  # the _Lines protocol
        """1-based line and byte column of a byte offset."""
        starts = self.line_starts
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def location(self, start: int, end: int) -> Location:
        line, col = self.position(start)
        end_line, end_col = self.position(end)
        return Location(self.path, line, col, end_line, end_col)

    def token_location(self, tok: Token) -> Location:
        line, column = tok.where.position(tok.start)  # tok.line, tok.column in one lookup
        end_line, end_col = self.position(tok.end)
        return Location(self.path, line, column, end_line, end_col)

    def token_location_at(self, i: int) -> Location:
        """token_location(token(i)), without making the Token."""
        lexed = self.lexed
        where = lexed.where if isinstance(lexed, Columns) else lexed[i].where
        cols = self.columns
        line, column = where.position(cols.starts[i])
        end_line, end_col = self.position(cols.ends[i])
        return Location(self.path, line, column, end_line, end_col)

    def finding(  # a finding's parts
        self,
        code: str,
        start: int,
        end: int,
        message: str,
        location: Location | None = None,
        **fields: object,
    ) -> Finding:
        """A Finding with the registered default severity of `code`, at `location` if the
        caller has it already (it must be location(start, end)), else at start..end."""
        severity = RULES[code].severity if code in RULES else Severity.WARNING
        where = location if location is not None else self.location(start, end)
        return Finding(code, severity, message, where, **fields)  # type: ignore[arg-type]

    def use(self, tok: Token, res: Resolution, new_name: str | None = None) -> Use:
        """The record of one occurrence of a CUDA identifier, for statistics."""
        return Use(
            tok.text, res.family, res.status, self.token_location(tok), new_name, res.min_rocm
        )

    def edit(self, start: int, end: int, new: bytes | str, rule: str) -> Edit:
        data = new.encode("utf-8", "surrogateescape") if isinstance(new, str) else new
        return Edit(start, end, data, rule, self.source[start:end])


@dataclass
class RuleResult:
    """What one rule made of one file: edits to apply, findings, and the CUDA API uses it saw."""

    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)


class Rule(Protocol):
    """A rewrite or a check. `name` is for edit attribution and debugging; `codes` are the
    catalogue codes its findings may carry (checked by tests/test_catalogue.py)."""

    name: str
    codes: tuple[str, ...]

    def run(self, ctx: Context) -> RuleResult: ...
