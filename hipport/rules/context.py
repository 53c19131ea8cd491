"""What every rule sees (Context: the source, its tokens, the target, the mappings and
options, plus the lookups several rules share, computed once per file), what every rule
returns (RuleResult: its edits, findings and API uses, as a value) and the Rule protocol."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress, repeat
from operator import eq
from typing import TYPE_CHECKING, Protocol
from weakref import WeakKeyDictionary

from hipport.edits import Edit
from hipport.findings import RULES, Finding, Location, Severity, Use
from hipport.options import EngineOptions
from hipport.rules.api_uses import ApiUse, api_uses
from hipport.rules.branches import Branches, branches
from hipport.rules.code_index import CodeIndex
from hipport.rules.tokens import Directive, directives
from hipport.tables import Resolution, Tables, resolve
from hipport.target import Target
from hipport.tokens import IDENTIFIER, Token, Tokens, positions

if TYPE_CHECKING:
    from hipport.mappings import Mappings

# Up to this many names, Context.where scans the texts once per name (list.index, a few
# ns a token) rather than testing every token against the set (tens of ns a token).
_FEW_NAMES = 4
# Context.token_locations looks up this many tokens' lines at a time (the offsets, lines
# and columns of a batch are made as lists: a few of 8,192 ints, not of the whole file's).
_BATCH = 8192


@dataclass
class Context:
    source: bytes
    # The file's tokens (hipport.tokens: columns, a Token per index read, the code view).
    tokens: Tokens
    path: str
    target: Target
    mappings: Mappings  # every versioned fact, from one directory (hipport.mappings)
    options: EngineOptions
    # Filled by the engine from earlier rules / the project index: names defined here.
    defined: frozenset[str] = frozenset()
    # Names a semantic pass found to be the user's own declarations (never renamed).
    user_declared: frozenset[str] = frozenset()
    # Byte offsets of the kernel names of launches the semantic pass confirmed as AST nodes;
    # None without a semantic pass (then every token-level launch counts).
    confirmed_launches: frozenset[int] | None = None
    # Token texts the rules look up in `code` (their vocabularies), indexed up front.
    vocabulary: frozenset[str] = frozenset()
    _resolutions: dict[str, Resolution] = field(default_factory=dict, repr=False)

    @property
    def tables(self) -> Tables:
        """The API-name tables (mappings.tables)."""
        return self.mappings.tables

    @cached_property
    def identifiers(self) -> frozenset[str]:
        """The distinct texts of the file's identifier tokens (directives included)."""
        toks = self.tokens
        return frozenset(compress(toks.texts, map(eq, toks.kinds, repeat(IDENTIFIER))))

    def where(self, names: AbstractSet[str]) -> list[int]:
        """Ascending indices of the identifier tokens spelled as one of `names`, found at
        C speed over the texts (pass the file's few names, e.g. `identifiers & ...`): one
        `list.index` scan per name for a handful of them, else one set lookup per token."""
        kinds, texts = self.tokens.kinds, self.tokens.texts
        if len(names) <= _FEW_NAMES:
            hits: Iterable[int] = sorted(i for name in names for i in positions(texts, name))
        else:
            hits = compress(range(len(kinds)), map(names.__contains__, texts))
        return [i for i in hits if kinds[i] == IDENTIFIER]

    def present(self, names: AbstractSet[str]) -> frozenset[str]:
        """Those of `names` the file spells as identifiers and does not define as its own
        (defined here, listed as the project's, or declared by the user per the semantic
        pass): the facts a rule about CUDA names acts on."""
        found = self.identifiers & names
        if not found:
            return frozenset()
        return found - (self.defined | self.options.project_names | self.user_declared)

    @cached_property
    def code(self) -> CodeIndex:
        """The code-token index every hazard reads: built once per file, on first use."""
        return CodeIndex(self, self.vocabulary)

    @cached_property
    def api_uses(self) -> list[ApiUse]:
        """The file's CUDA API uses with their resolutions (rules.api_uses): the engine
        makes them before the rules run; rename, includes and HIP111 read them."""
        return api_uses(self)

    @cached_property
    def include_lines(self) -> frozenset[int]:
        """The token indices inside an #include line."""
        return frozenset(
            i for d in self.directives if d.name == "include" for i in range(d.hash, d.end)
        )

    @cached_property
    def branches(self) -> Branches:
        """The file's #if chains as hipcc sees them (rules.branches), made on first use:
        ask it last, of the few tokens that would be found (it is costly)."""
        return branches(self)

    @cached_property
    def directives(self) -> list[Directive]:
        return directives(self.source, self.tokens)

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

    def location(self, start: int, end: int) -> Location:
        """The Location of the bytes start..end (lines as clang counts them)."""
        position = self.tokens.position
        line, col = position(start)
        end_line, end_col = position(end)
        return Location(self.path, line, col, end_line, end_col)

    def token_locations(self, indices: Sequence[int]) -> list[Location]:
        """`token_location(i)` of each of `indices`, the lines and columns looked up a
        batch at a time (Tokens.positions_of): no Python step of this module per token."""
        toks, path = self.tokens, self.path
        starts, ends, positions_of = toks.starts, toks.ends, toks.positions_of
        out: list[Location] = []
        for at in range(0, len(indices), _BATCH):
            batch = indices[at : at + _BATCH]
            lines, columns = positions_of(list(map(starts.__getitem__, batch)))
            end_lines, end_columns = positions_of(list(map(ends.__getitem__, batch)))
            out += map(Location, repeat(path), lines, columns, end_lines, end_columns)
        return out

    def token_location(self, i: int) -> Location:
        """The Location of token i (no Token is made)."""
        toks = self.tokens
        return self.location(toks.starts[i], toks.ends[i])

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
        where = location if location is not None else self.location(start, end)
        return Finding(code, _severity(code), message, where, **fields)  # type: ignore[arg-type]

    def findings(
        self,
        code: str,
        messages: Iterable[str],
        locations: Iterable[Location],
        apis: Iterable[str | None],
    ) -> list[Finding]:
        """`finding(code, ..., message, location, api=api)` of each message, location and
        api taken together, made without a Python step of this module per finding."""
        severity = _severity(code)
        return list(map(Finding, repeat(code), repeat(severity), messages, locations, apis))

    def use(self, tok: Token, res: Resolution, new_name: str | None = None) -> Use:
        """The record of one occurrence of a CUDA identifier, for statistics."""
        end_line, end_col = self.tokens.position(tok.end)
        where = Location(self.path, tok.line, tok.column, end_line, end_col)
        return Use(tok.text, res.family, res.status, where, new_name, res.min_rocm)

    def edit(self, start: int, end: int, new: bytes | str, rule: str) -> Edit:
        data = new.encode("utf-8", "surrogateescape") if isinstance(new, str) else new
        return Edit(start, end, data, rule, self.source[start:end])


def _severity(code: str) -> Severity:
    """The registered default severity of `code` (WARNING for a code not registered)."""
    return RULES[code].severity if code in RULES else Severity.WARNING


@dataclass(frozen=True)
class Triggers:
    """What a rule reacts to: the engine runs the rule only on a file that has one of them
    (a superset is fine, a miss is a lost finding: tests/test_rule_inputs.py runs the
    corpora with and without this filter and compares).

    `names`: identifiers; `data`: identifiers the run's mappings list (a function of the
    Mappings, asked once per Mappings: `lambda m: m.arguments.calls.keys()`); `texts`:
    bytes of the source (keywords such as `asm`, tokens such as `<<<`, header names);
    `folded`: bytes of the source lower-cased with its underscores dropped (`warp` finds
    WARP_SIZE and W_ARP); `when`: a test of the run's options and target under which the
    rule reacts to any file (the user's renames, strings translated); `every_file`: why a
    rule must see every file (then the rest is unused)."""

    names: AbstractSet[str] = frozenset()
    data: Callable[[Mappings], Collection[str]] | None = None
    texts: tuple[bytes, ...] = ()
    folded: tuple[bytes, ...] = ()
    when: Callable[[Context], bool] | None = None
    every_file: str = ""

    def fire(self, ctx: Context) -> bool:
        if self.every_file or (self.when is not None and self.when(ctx)):
            return True
        ids = ctx.identifiers
        if not ids.isdisjoint(self.names):
            return True
        if self.data is not None and not ids.isdisjoint(_data_names(ctx.mappings, self.data)):
            return True
        source = ctx.source
        if any(text in source for text in self.texts):
            return True
        if self.folded:
            folded = source.lower().replace(b"_", b"")
            return any(text in folded for text in self.folded)
        return False


# The names each `Triggers.data` function gives, per Mappings (weakly: a dropped Mappings
# drops its entries): made once a run, not once a file.
_DATA_NAMES: WeakKeyDictionary[Mappings, dict[Callable[..., Collection[str]], frozenset[str]]] = (
    WeakKeyDictionary()
)


def _data_names(mappings: Mappings, data: Callable[[Mappings], Collection[str]]) -> frozenset[str]:
    known = _DATA_NAMES.setdefault(mappings, {})
    names = known.get(data)
    if names is None:
        names = known[data] = frozenset(data(mappings))
    return names


@dataclass
class RuleResult:
    """What one rule made of one file: edits to apply, findings, and the CUDA API uses it saw."""

    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)


class Rule(Protocol):
    """A rewrite or a check. `name` is for edit attribution and debugging; `codes` are the
    catalogue codes its findings may carry (checked by tests/test_catalogue.py).

    `triggers` (Triggers) says what it reacts to: the engine runs it only on a file that
    has one of them (a rule that must see every file says so, and why, in
    `Triggers(every_file=...)`). Optional: `priority` (an int, rewrites only: where edits of
    two rules overlap, the lower priority's edit is applied and the other dropped),
    `vocabulary` (token texts the rule looks up in Context.code, indexed up front)."""

    name: str
    codes: tuple[str, ...]
    triggers: Triggers

    def run(self, ctx: Context) -> RuleResult: ...
