"""The rules, in the order the engine runs them (hipport.catalogue.RULE_MODULES).

A rule is a small module exposing `RULE`, an object with `name`, `codes` (the catalogue
codes its findings carry) and `run(ctx: Context) -> RuleResult`: it reads the file through
the Context (its tokens: `ctx.tokens`, a hipport.tokens.Tokens, and `ctx.code`, the
code-token index; its API uses: `ctx.api_uses`, resolved before the rules run) and returns
its edits, findings and API uses as a value. It declares `triggers` (what it reacts to,
rules.context.Triggers: the engine skips it on a file without any; names that are facts
come from the mappings) and, a rewrite, its `priority` between overlapping edits (see
rules.context.Rule). Token helpers that
more than one rule needs live in rules/tokens.py, and the code-token index the hazards
share in rules/code_index.py; a rule never imports another rule.

Add a rule = add one module + one catalogue entry:
  - a hazard (a check, no edits): hipport/rules/hazards/<rule_name>.py, plus one RuleInfo
    in hipport/catalogue.py whose module is "rules.hazards.<rule_name>"; the engine finds
    it from the entry (see hipport/rules/hazards/__init__.py).
  - a rewrite: hipport/rules/<name>.py, its RuleInfo entries (module "rules.<name>"), and
    its place in catalogue.REWRITE_ORDER and its `priority` (lower wins overlapping
    edits).
Then add its cases (each code's firing and silent cases in its home tests/cases/rules/<CODE>/,
a rewrite's CUDA/HIP pairs in tests/cases/engine/<name>/) and run python
tools/gen_rules_doc.py. A module named in the
catalogue that is missing or has no RULE is an error, never skipped; a module under rules/
that defines a RULE the catalogue does not run fails tests/test_catalogue.py.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from hipport.catalogue import RULE_MODULES, rule_by_code_or_name
from hipport.rules.context import Context, Rule, RuleResult, Triggers

if TYPE_CHECKING:
    from hipport.mappings import Mappings

__all__ = [
    "Context",
    "Rule",
    "RuleResult",
    "Triggers",
    "all_rules",
    "rule_for",
    "rule_priorities",
    "triggered",
    "vocabulary",
]

# The priority of a rule that declares none (the checks: they make no edits).
DEFAULT_PRIORITY = 100


class MissingRule(LookupError):
    """The catalogue names a rule module that does not exist or exposes no RULE."""


def load_rule(module: str) -> Rule:
    """The RULE of hipport.<module> (e.g. "rules.rename")."""
    try:
        mod = importlib.import_module(f"hipport.{module}")
    except ModuleNotFoundError as exc:
        if exc.name != f"hipport.{module}":
            raise
        raise MissingRule(f"the catalogue names hipport.{module}, which does not exist") from None
    rule = getattr(mod, "RULE", None)
    if rule is None:
        raise MissingRule(f"hipport.{module} has no RULE")
    return rule


@cache
def all_rules() -> tuple[Rule, ...]:
    """The rule objects, in run order (imported once)."""
    return tuple(load_rule(m) for m in RULE_MODULES)


_VOCABULARIES: WeakKeyDictionary[Mappings, frozenset[str]] = WeakKeyDictionary()


def vocabulary(mappings: Mappings) -> frozenset[str]:
    """The token texts every rule looks up in Context.code (a rule's optional
    `vocabulary`: a set, or a function of the mappings for the names their facts list),
    so the index is built for all of them in one pass. Once per Mappings."""
    found = _VOCABULARIES.get(mappings)
    if found is None:
        words: set[str] = set()
        for rule in all_rules():
            vocab = getattr(rule, "vocabulary", ())
            words.update(vocab(mappings) if callable(vocab) else vocab)
        found = _VOCABULARIES[mappings] = frozenset(words)
    return found


@cache
def rule_priorities() -> dict[str, int]:
    """Rule name -> its priority between overlapping edits (lower wins)."""
    return {rule.name: getattr(rule, "priority", DEFAULT_PRIORITY) for rule in all_rules()}


def triggered(rule: Rule, ctx: Context) -> bool:
    """The file has something the rule reacts to (its declared Triggers)."""
    return rule.triggers.fire(ctx)


def rule_for(key: str) -> Rule:
    """The rule for a code ("HIP101"), a rule name ("inline-ptx") or a rule module
    ("rules.hazards")."""
    if key in RULE_MODULES:
        return load_rule(key)
    info = rule_by_code_or_name(key)
    if info is None or info.module not in RULE_MODULES:
        raise MissingRule(f"no engine rule for {key!r}")
    return load_rule(info.module)
