"""The rules, in the order the engine runs them. Each is a small module with a `RULE`
object following the `Rule` protocol: `run(ctx) -> (edits, findings)`.

To add a rule: write hipport/rules/<name>.py exposing `RULE`, register its finding codes
there with `hipport.findings.register`, and list the module below.
"""

from __future__ import annotations

import importlib

from hipport.rules.context import Context, Rule

__all__ = ["Context", "Rule", "all_rules"]

# Module names, in run order. Modules that do not exist (yet) are skipped.
_MODULES = ("rename", "includes", "launch", "symbols", "unknown", "hazards")


def _load() -> list[Rule]:
    rules: list[Rule] = []
    for name in _MODULES:
        try:
            module = importlib.import_module(f"hipport.rules.{name}")
        except ImportError as exc:
            if exc.name != f"hipport.rules.{name}":
                raise
            continue
        rule = getattr(module, "RULE", None)
        if rule is not None:
            rules.append(rule)
    return rules


_RULES: list[Rule] | None = None


def all_rules() -> list[Rule]:
    """The ordered rule objects (imported once; importing also registers their codes)."""
    global _RULES
    if _RULES is None:
        _RULES = _load()
    return _RULES
