"""What the file's shared lookups read of a rule's Context (rules.context.Context), as a
Protocol: the API uses (rules.api_uses), the #if model (rules.branches) and the code-token
index (rules.code_index) are made by the Context and read it back, so they type their
argument as this FileContext instead of importing the Context (that import, even under
TYPE_CHECKING, made an import cycle: tests/test_imports.py). The Context satisfies it
structurally; a lookup that needs another of its members adds it here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Set as AbstractSet

    from hipport.findings import Finding, Location
    from hipport.mappings import Mappings
    from hipport.options import EngineOptions
    from hipport.rules.tokens import Directive
    from hipport.tables import Resolution, Tables
    from hipport.target import Target
    from hipport.tokens import Tokens


class DeadArms(Protocol):
    """The #if model as the code-token index asks it (rules.branches.Branches)."""

    def is_dead(self, offset: int) -> bool: ...


class FileContext(Protocol):
    """One file as a rule sees it (the members rules.context.Context documents)."""

    source: bytes
    tokens: Tokens
    path: str
    target: Target
    mappings: Mappings
    options: EngineOptions
    defined: frozenset[str]
    user_declared: frozenset[str]

    @property
    def tables(self) -> Tables: ...

    @property
    def identifiers(self) -> frozenset[str]: ...

    @property
    def include_lines(self) -> frozenset[int]: ...

    @property
    def directives(self) -> list[Directive]: ...

    @property
    def directive_at(self) -> dict[int, Directive]: ...

    @property
    def branches(self) -> DeadArms: ...

    def where(self, names: AbstractSet[str]) -> list[int]: ...

    def resolve(self, name: str) -> Resolution: ...

    def location(self, start: int, end: int) -> Location: ...

    def finding(
        self,
        code: str,
        start: int,
        end: int,
        message: str,
        location: Location | None = None,
        **fields: object,
    ) -> Finding: ...
