"""The layers depend one way, and a module's layer is its folder.

base -> game -> kernels -> strategies -> engine -> reports -> api -> cli: a module imports only from
its own layer or the ones below it. Imports are read from the sources with ``ast``: absolute and
relative ones, those inside functions and under TYPE_CHECKING, and ``import_module`` loads of the
package's modules. The modules of one layer must not import each other in a ring, and the command
line reaches the rest of the package only through the API, its flags and terminal, the option values, the text
and table renderers, errors, interrupts, version and words.
"""

import ast

import pytest
from layout import modules

LAYERS = (  # lowest first: a layer is a folder (a sub-package), or a few named modules at the top
    ("base", ("pocha.errors", "pocha.interrupt", "pocha.version", "pocha.words")),
    ("game", ("pocha.game",)),
    ("kernels", ("pocha.kernels",)),
    ("strategies", ("pocha.strategies",)),
    ("engine", ("pocha.engine",)),
    ("reports", ("pocha.reports",)),
    (
        "api",
        (
            "pocha",
            "pocha.advising",
            "pocha.api",
            "pocha.execution",
            "pocha.options",
            "pocha.openspiel",
            "pocha.openspiel_game",
            "pocha.pettingzoo",
            "pocha.playing",
            "pocha.results",
        ),
    ),
    ("cli", ("pocha.cli", "pocha.flags", "pocha.terminal", "pocha.__main__")),
)
CLI_MAY_IMPORT = {
    "pocha.api",
    "pocha.flags",
    "pocha.terminal",
    "pocha.options",
    "pocha.reports.text",
    "pocha.reports.tables",
    "pocha.errors",
    "pocha.interrupt",
    "pocha.version",
    "pocha.words",
}
LOADERS = {"import_module", "__import__"}  # calls that import a module named by a string


def layer_of(module: str) -> int:
    """Index in LAYERS of the layer a module belongs to: the longest name in LAYERS that is it or holds it."""
    found = [
        (len(prefix), i)
        for i, (_, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or (prefix != "pocha" and module.startswith(prefix + "."))
    ]
    assert found, f"{module} belongs to no layer; put it in a layer's folder or name it in LAYERS"
    return max(found)[1]


def absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module an import statement names (``from ..engine import x`` in ``pocha.game.rules``)."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imported(tree: ast.AST, module: str, known: set[str], is_package: bool = False) -> set[str]:
    """The package's modules a module imports (``from pocha import kernels`` is ``pocha.kernels``)."""
    found: set[str] = set()
    loads = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            source = absolute(node, module, is_package)
            found |= {f"{source}.{a.name}" if f"{source}.{a.name}" in known else source for a in node.names}
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            loads |= name in LOADERS
    if loads:  # a load by name: every project module the source names in a string may be the one loaded
        found |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return {name for name in found if name in known}


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    sources = dict(modules())
    return {
        name: imported(ast.parse(path.read_text()), name, set(sources), path.stem == "__init__") - {name}
        for name, path in sources.items()
    }


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a layer above its own."""
    return [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {other} ({LAYERS[layer_of(other)][0]})"
        for module, others in sorted(graph.items())
        for other in sorted(others)
        if layer_of(other) > layer_of(module)
    ]


def beside_the_api(graph: dict[str, set[str]]) -> list[str]:
    """Every import of the command line from outside what it may use (the API, renderers, errors, version, words)."""
    return [f"pocha.cli imports {other}" for other in sorted(graph.get("pocha.cli", set()) - CLI_MAY_IMPORT)]


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


def test_a_module_is_in_the_layer_of_its_folder():
    assert LAYERS[layer_of("pocha.game.rules")][0] == "game"
    assert LAYERS[layer_of("pocha.kernels.play")][0] == "kernels"
    assert LAYERS[layer_of("pocha.engine.simulate")][0] == "engine"
    assert LAYERS[layer_of("pocha.reports.text")][0] == "reports"
    assert LAYERS[layer_of("pocha")][0] == "api"


def test_no_module_imports_from_a_layer_above():
    assert upward(import_graph()) == []


def test_no_modules_import_each_other_in_a_ring():
    assert rings(import_graph()) == []


def test_the_cli_talks_only_to_the_api():
    assert beside_the_api(import_graph()) == []


def test_the_checks_catch_an_upward_import_and_a_ring():
    graph = import_graph()
    graph["pocha.game.rules"] = graph["pocha.game.rules"] | {"pocha.engine.simulate"}
    assert "pocha.game.rules (game) imports pocha.engine.simulate (engine)" in upward(graph)
    assert any({"pocha.game.rules", "pocha.engine.simulate"} <= set(ring) for ring in rings(graph))
    graph["pocha.cli"] = graph["pocha.cli"] | {"pocha.engine.simulate"}
    assert beside_the_api(graph) == ["pocha.cli imports pocha.engine.simulate"]


@pytest.mark.parametrize(
    "line",
    [
        "from ..engine.simulate import simulate",
        "from ..engine import simulate",
        "from .. import engine",
        "import pocha.engine.simulate",
        "def f():\n    from pocha.engine.simulate import simulate",
        "import importlib\nmodule = importlib.import_module('pocha.engine.simulate')",
    ],
)
def test_a_wrong_way_import_fails_the_test_written_any_way(line):
    sources = dict(modules())
    known = set(sources)
    tree = ast.parse(sources["pocha.game.rules"].read_text() + "\n" + line + "\n")
    graph = import_graph() | {"pocha.game.rules": imported(tree, "pocha.game.rules", known)}
    assert any(found.startswith("pocha.game.rules (game) imports pocha.engine") for found in upward(graph))


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("from pocha import kernels", "pocha.api", {"pocha.kernels"}),
        ("from pocha import __version__", "pocha.api", {"pocha"}),
        ("def f():\n    import pocha.engine", "pocha.api", {"pocha.engine"}),
        ("from .rules import Rules", "pocha.game.cards", {"pocha.game.rules"}),
        ("from ..kernels import play", "pocha.engine.chunk", {"pocha.kernels.play"}),
        ("from . import rules", "pocha.game.cards", {"pocha.game.rules"}),
        ("import numpy", "pocha.api", set()),
    ],
)
def test_imports_are_read_from_every_form(source, module, expected):
    known = {"pocha", "pocha.kernels", "pocha.kernels.play", "pocha.engine", "pocha.game.rules", "pocha.api"}
    assert imported(ast.parse(source), module, known) == expected


def test_a_package_reads_its_relative_imports_from_itself():
    assert imported(ast.parse("from .play import x"), "pocha.kernels", {"pocha.kernels.play"}, True) == {
        "pocha.kernels.play"
    }
