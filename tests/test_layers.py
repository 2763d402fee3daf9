"""The layers of DESIGN.md depend one way: a module imports only from its own layer or the ones below it.

rules -> kernels -> strategies -> engine -> reports -> api and cli. Imports are read from the
sources with ``ast`` (those inside functions and under TYPE_CHECKING count too), and the modules
of one layer must not import each other in a ring.
"""

import ast
import fnmatch

import pytest
from layout import modules

LAYERS = (  # lowest first; each module of the package belongs to exactly one
    ("rules", ("pocha.version", "pocha.errors", "pocha.atomic", "pocha.memory", "pocha.cards", "pocha.rules")),
    ("kernels", ("pocha.cache", "pocha.kernels", "pocha.policies")),
    ("strategies", ("pocha.strategies", "pocha.strategies.*")),
    ("engine", ("pocha.tally", "pocha.seating", "pocha.deals", "pocha.trace", "pocha.backends", "pocha.runner",
                "pocha.checkpoint", "pocha.engine", "pocha.games", "pocha.training", "pocha.advice", "pocha.bench")),
    ("reports", ("pocha.reports", "pocha.reports.*")),
    ("api", ("pocha", "pocha.api", "pocha.cli", "pocha.__main__")),
)  # fmt: skip


def layer_of(module: str) -> int:
    """Index in LAYERS of the layer a module belongs to."""
    found = [i for i, (_, patterns) in enumerate(LAYERS) if any(fnmatch.fnmatch(module, p) for p in patterns)]
    assert len(found) == 1, f"{module} belongs to {len(found)} layers; put it in exactly one of LAYERS"
    return found[0]


def imported(tree: ast.AST, known: set[str]) -> set[str]:
    """The package's modules a module imports (``from pocha import kernels`` is ``pocha.kernels``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known else node.module for a in node.names
            ]
        else:
            continue
        found |= {name for name in names if name in known}
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    sources = dict(modules())
    return {name: imported(ast.parse(path.read_text()), set(sources)) - {name} for name, path in sources.items()}


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a layer above its own."""
    return [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {other} ({LAYERS[layer_of(other)][0]})"
        for module, others in sorted(graph.items())
        for other in sorted(others)
        if layer_of(other) > layer_of(module)
    ]


def rings(graph: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or round a longer ring."""

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for other in graph.get(todo.pop(), ()):
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        return seen

    reachable = {module: reach(module) for module in graph}
    found = {frozenset(m for m in reachable[module] if module in reachable[m]) for module in graph}
    return sorted(sorted(ring) for ring in found if len(ring) > 1)


def test_every_module_has_a_layer():
    for module in import_graph():
        layer_of(module)


def test_no_module_imports_from_a_layer_above():
    assert upward(import_graph()) == []


def test_no_modules_import_each_other_in_a_ring():
    assert rings(import_graph()) == []


def test_the_checks_catch_an_upward_import_and_a_ring():
    graph = import_graph()
    graph["pocha.rules"] = graph["pocha.rules"] | {"pocha.engine"}
    assert "pocha.rules (rules) imports pocha.engine (engine)" in upward(graph)
    assert any({"pocha.rules", "pocha.engine"} <= set(ring) for ring in rings(graph))


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from pocha import kernels", {"pocha.kernels"}),
        ("from pocha import __version__", {"pocha"}),
        ("def f():\n    import pocha.engine", {"pocha.engine"}),
        ("import numpy", set()),
    ],
)
def test_imports_are_read_from_every_form(source, expected):
    known = {"pocha", "pocha.kernels", "pocha.engine"}
    assert imported(ast.parse(source), known) == expected
