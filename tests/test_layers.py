"""The layers depend one way, and a module's layer is its folder.

base -> game -> kernels -> strategies -> engine -> reports -> api -> cli: a module imports only from
its own layer or the ones below it. A layer is a set of folders, the packages pyproject.toml
installs (its root folder ``simulator/`` is ``pocha``, the API, with the adapters' folders beside it);
the base is the root's four modules every layer may use, and ``python -m pocha`` is the command line's.
Imports are read from the sources with ``ast``: absolute and relative ones, those inside functions and
under TYPE_CHECKING, and ``import_module`` loads of the package's modules. The modules of one layer
must not import each other in a ring, and the command line reaches the rest of the package only
through the API, the option values, the text and table renderers, errors, interrupts, version and words.
"""

import ast

import pytest
from layout import modules, package_folders

BASE = ("pocha.errors", "pocha.interrupt", "pocha.version", "pocha.words")  # root modules below every layer
LAYERS = (  # lowest first: each layer's folders (packages), and the root's modules named apart from theirs
    ("base", (), BASE),
    ("game", ("pocha.game",), ()),
    ("kernels", ("pocha.kernels",), ()),
    ("strategies", ("pocha.strategies",), ()),
    ("engine", ("pocha.engine",), ()),
    ("reports", ("pocha.reports", "pocha.reports.kinds"), ()),
    ("api", ("pocha", "pocha.openspiel", "pocha.pettingzoo"), ()),  # the API, and the adapters to other programs
    ("cli", ("pocha.cli",), ("pocha.__main__",)),
)
CLI_MAY_IMPORT = {  # what the command line may use beyond its own folder
    "pocha.api",
    "pocha.options",
    "pocha.reports.text",
    "pocha.reports.tables",
    *BASE,
}
FOLDERS = set(package_folders())  # every package the wheel installs
LOADERS = {"import_module", "__import__"}  # calls that import a module named by a string


def folder_of(module: str) -> str:
    """The package whose folder holds a module: itself for a package, else its parent."""
    return module if module in FOLDERS else module.rpartition(".")[0]


def layer_of(module: str) -> int:
    """Index in LAYERS of the layer a module belongs to: the one naming it, else the one holding its folder."""
    found = [i for i, (_, folders, named) in enumerate(LAYERS) if module in named]
    found = found or [i for i, (_, folders, _) in enumerate(LAYERS) if folder_of(module) in folders]
    assert len(found) == 1, f"{module} belongs to no layer; put it in a layer's folder, or its folder in LAYERS"
    return found[0]


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
    """Every import of the command line from outside its folder and what it may use (the API, renderers, ...)."""
    return [
        f"{module} imports {other}"
        for module, others in sorted(graph.items())
        if folder_of(module) == "pocha.cli"
        for other in sorted(others - CLI_MAY_IMPORT)
        if folder_of(other) != "pocha.cli"
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


def test_a_module_is_in_the_layer_of_its_folder():
    assert LAYERS[layer_of("pocha.game.rules")][0] == "game"
    assert LAYERS[layer_of("pocha.kernels.play")][0] == "kernels"
    assert LAYERS[layer_of("pocha.engine.simulate")][0] == "engine"
    assert LAYERS[layer_of("pocha.reports.text")][0] == "reports"
    assert LAYERS[layer_of("pocha")][0] == "api"
    assert LAYERS[layer_of("pocha.api")][0] == "api"
    assert LAYERS[layer_of("pocha.openspiel.bots")][0] == "api"
    assert LAYERS[layer_of("pocha.cli.commands")][0] == "cli"
    assert LAYERS[layer_of("pocha.words")][0] == "base"


def test_every_installed_folder_is_in_one_layer():
    folders = [folder for _, named, _ in LAYERS for folder in named]
    assert sorted(folders) == sorted(FOLDERS)


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
    graph["pocha.cli.commands"] = graph["pocha.cli.commands"] | {"pocha.engine.simulate"}
    assert beside_the_api(graph) == ["pocha.cli.commands imports pocha.engine.simulate"]


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
