"""Portability hazards: CUDA that ports cleanly token by token but breaks, fails to build or
behaves differently on AMD GPUs (64-lane wavefronts, no PTX, a different HIP API).

Checks only: every hazard is a Finding, never an edit, because the right fix depends on
what the code means. One module per rule code, named after the rule (HIP101 inline-ptx is
inline_ptx.py), each ending in `RULE = HazardRule(INFO, check, triggers, vocabulary)`.

All matching is on the file's code-token index (hipport.rules.code_index.CodeIndex,
Context.code, over `v.tokens`, the code view of hipport.tokens: comments dropped, read as
`v.tokens.texts`/`kinds`, `v.tokens[k]` a Token, `v.tokens.match`/`arguments` for brackets
and calls; string literals are single LITERAL tokens), so nothing inside a comment or a
string ever fires.

Add a hazard = add one module + one catalogue entry:
  1. hipport/catalogue.py: a RuleInfo with a free code (HIP1xx), its kebab-case name,
     severity, docs, and module="rules.hazards.<name_with_underscores>".
  2. hipport/rules/hazards/<name_with_underscores>.py: `check(v: CodeIndex) ->
     list[Finding]` and `RULE = HazardRule(INFO, check, triggers, vocabulary)`, where
     `triggers` (rules.context.Triggers) says what the check reacts to, so the engine
     skips it on a file without any (identifiers, names the mappings list, bytes of the
     source such as a keyword or a header's name), and `vocabulary` is the set of token
     texts the check looks up with v.indices() (the presence of the non-identifier ones
     is learnt in one pass for all the rules when a check needs it). Ask v.is_dead last:
     rules.branches is costly.
  3. tests/cases/rules/<CODE>/ (the code's one test home): firing and silent .cu cases
     with .expected lists (tests/test_rule_cases.py).
Helpers a second rule needs go to rules/tokens.py or rules/code_index.py, never imported
from another rule module. Facts that change with the ROCm release come from mappings/
through ctx.mappings (hipport.mappings.Mappings), never from a dict in the module; a
vocabulary made of such facts is a function of the Mappings (`lambda m: m.gate.macros`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hipport.findings import Finding, RuleInfo
from hipport.rules.code_index import CodeIndex
from hipport.rules.context import Context, RuleResult, Triggers

if TYPE_CHECKING:
    from hipport.mappings import Mappings

Check = Callable[[CodeIndex], list[Finding]]


@dataclass(frozen=True)
class HazardRule:
    """A check-only rule of one code: runs `check` on the file's code-token index."""

    info: RuleInfo
    check: Check
    triggers: Triggers  # what the check reacts to: the engine runs it on such files only
    # the texts it looks up: a set, or the function of the run's mappings that lists them
    vocabulary: frozenset[str] | Callable[[Mappings], Collection[str]] = frozenset()

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def codes(self) -> tuple[str, ...]:
        return (self.info.code,)

    def run(self, ctx: Context) -> RuleResult:
        return RuleResult(findings=self.check(ctx.code))
