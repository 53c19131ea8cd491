"""The package's import graph has no cycle, counting imports inside functions (a late
import hides a cycle, it does not remove it), and none either when the imports under
`if TYPE_CHECKING:` count too (a type-only cycle is still two modules that each need the
other to be understood). The rule modules the engine loads by name from the catalogue count
as imports of hipport.rules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hipport.catalogue import RULE_MODULES

PACKAGE = Path(__file__).resolve().parent.parent / "hipport"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool, type_checking: bool = False) -> set[str]:
    """Every hipport module imported anywhere in `tree`; inside TYPE_CHECKING blocks only
    with `type_checking`."""
    out: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node) and not type_checking:
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            out.add(base)
            # `from hipport.rules import tokens` imports the submodule too
            out.update(f"{base}.{a.name}" for a in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return {m for m in out if m == "hipport" or m.startswith("hipport.")}


def import_graph(type_checking: bool = False) -> dict[str, set[str]]:
    """module -> the hipport modules it imports (with `type_checking`, also those imported
    under `if TYPE_CHECKING:`)."""
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found = _imports(tree, name, path.name == "__init__.py", type_checking)
        # importing a.b.c runs a/__init__ and a/b/__init__ first
        edges = {m for m in found if m in files}
        graph[name] = {m for m in edges if m != name}
    graph["hipport.rules"] |= {f"hipport.{m}" for m in RULE_MODULES}
    # a module's package __init__ runs before it: an edge from the package to its parent
    # is implied and adds no cycle of its own, so it is not added
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


@pytest.mark.slow
def test_the_package_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.slow
def test_no_cycle_with_the_type_checking_imports_either():
    graph, plain = import_graph(type_checking=True), import_graph()
    assert any(graph[m] - plain[m] for m in graph), "no TYPE_CHECKING import seen"
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle through TYPE_CHECKING imports: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_late_import_cycle():
    src_a = "def f():\n    from hipport.b import x\n"
    src_b = "from hipport.a import y\n"
    graph = {
        "hipport.a": _imports(ast.parse(src_a), "hipport.a", False),
        "hipport.b": _imports(ast.parse(src_b), "hipport.b", False),
    }
    assert find_cycle(graph) == ["hipport.a", "hipport.b", "hipport.a"]


def test_type_checking_imports_count_only_when_asked():
    src = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from hipport.b import x\n"
    assert _imports(ast.parse(src), "hipport.a", False) == set()
    assert _imports(ast.parse(src), "hipport.a", False, True) == {"hipport.b", "hipport.b.x"}


@pytest.mark.slow
def test_the_graph_sees_the_rule_modules():
    graph = import_graph()
    assert "hipport.rules.tokens" in graph
    assert {f"hipport.{m}" for m in RULE_MODULES} <= graph["hipport.rules"]
