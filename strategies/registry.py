"""Strategies by name: spec strings such as ``expected:bias=0.3``, ``./mybids.py:Cautious:level=2``.

A spec is a name and, after a ':', parameters ``key=value,key=value``. Names are looked up among
the shipped strategies, then (lazily, only for an unknown name) in the entry-point group
``pocha.strategies``; ``package.module:Class`` imports user code from the import path and
``path/to/file.py:Class`` loads it from a file, no ``PYTHONPATH`` needed. Parameters are the
factory's typed keyword arguments; one typed as a ``Strategy`` takes a spec itself
(``montecarlo:assume=fair-share``).
"""

import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, cast, get_type_hints

from pocha.errors import PochaError
from pocha.strategies.base import Strategy
from pocha.strategies.heuristics import AcesTrumps, Expected, FairShare, RandomBid, ZeroBid
from pocha.strategies.montecarlo import MonteCarlo
from pocha.strategies.table import TableStrategy
from pocha.words import did_you_mean

ENTRY_POINT_GROUP = "pocha.strategies"
Factory = Callable[..., Strategy]  # a class or function building a strategy from its parameters
BUILTIN: dict[str, Callable[..., Strategy]] = {
    factory.name: factory
    for factory in (RandomBid, ZeroBid, FairShare, AcesTrumps, Expected, MonteCarlo, TableStrategy)
}
NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)  # parameters a spec can give
FILE_SPEC = re.compile(r"(?P<path>.+?\.py):(?P<attribute>[A-Za-z_]\w*)(?::(?P<parameters>.*))?$")


def split_spec(spec: str) -> tuple[str, str]:
    """``(name, parameters)`` of a spec; ``module:Class`` and ``file.py:Class`` are one name."""
    text = spec.strip()
    file = FILE_SPEC.match(text)
    if file:
        return f"{file['path']}:{file['attribute']}", file["parameters"] or ""
    parts = text.split(":")
    user_code = len(parts) > 1 and parts[0] not in BUILTIN and parts[1].strip().isidentifier()
    cut = 2 if user_code else 1
    if len(parts) > cut + 1:
        given = parts[cut].rpartition(",")[2].strip()  # the parameter a second ':' follows: a spec as its value
        raise PochaError(
            f"strategy '{spec}': too many ':'; write NAME or NAME:key=value,key=value (a value is a name with no "
            f"parameters of its own: {given}, not {given}:{parts[cut + 1]})"
        )
    return ":".join(parts[:cut]), (parts[cut] if len(parts) > cut else "")


def portable(spec: str) -> str:
    """The spec with a file path made absolute, so another process (a Dask worker) can build it again."""
    file = FILE_SPEC.match(spec.strip())
    if not file:
        return spec
    rest = f":{file['parameters']}" if file["parameters"] is not None else ""
    return f"{Path(file['path']).resolve()}:{file['attribute']}{rest}"


def find_factory(name: str) -> Factory:
    """The class or function that builds strategy ``name``."""
    if name in BUILTIN:
        return BUILTIN[name]
    file = FILE_SPEC.match(name)
    if file:
        return cast(Factory, getattr_or_error(load_file(Path(file["path"]), name), file["attribute"], name))
    if ":" in name:
        module_name, _, attribute = name.partition(":")
        if module_name.startswith(".") or "/" in module_name or "\\" in module_name:  # a path, not a module
            raise PochaError(f"strategy '{name}': {not_python_file(module_name)}; give path/to/file.py:Class")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise PochaError(f"strategy '{name}': cannot import {module_name} ({error})") from None
        return cast(Factory, getattr_or_error(module, attribute, name))
    plugins = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    if name in plugins:
        return cast(Factory, plugins[name].load())
    known = sorted(BUILTIN) + sorted(plugins)
    problem = f"unknown name '{name}'" if name.strip() else "no strategy named"
    hint = did_you_mean(name, known)
    raise PochaError(
        f"strategy: {problem}; {hint}known: {', '.join(known)} (or package.module:Class, or file.py:Class)"
    )


def not_python_file(path: str) -> str:
    """What is wrong with a strategy's path that does not end in ``.py``, the path as given."""
    if Path(path).is_dir():
        return f"'{path}' is a folder"
    if Path(path).is_file():
        return f"'{path}' is not a .py file"
    return f"no file '{path}'"


def getattr_or_error(module: Any, attribute: str, name: str, what: str = "strategy") -> Any:
    """``module.attribute``, or one line saying it is not there (``what``: the option that named it)."""
    if not hasattr(module, attribute):
        where = getattr(module, "__file__", None) or module.__name__
        defined = [key for key, value in vars(module).items() if getattr(value, "__module__", None) == module.__name__]
        hint = did_you_mean(attribute, defined).strip()
        hint = f"; {hint}" if hint else ""
        raise PochaError(f"{what} '{name}': {where} has no '{attribute}'{hint}")
    return getattr(module, attribute)


def load_file(path: Path, name: str, what: str = "strategy") -> Any:
    """The module of a Python file, loaded once per process under a name made from its absolute path.

    The file's folder is on the import path while it loads, so it can import modules beside it.
    what: the option that named it, for the messages (a strategy, a ``where`` predicate).
    """
    if not path.is_file():
        raise PochaError(f"{what} '{name}': no file '{path}'")
    resolved = path.resolve()
    stem = re.sub(r"\W", "_", resolved.stem)
    module_name = f"pocha_user_{stem}_{hashlib.sha1(bytes(resolved)).hexdigest()[:10]}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise PochaError(f"{what} '{name}': '{path}' is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickle look classes up here
    sys.path.insert(0, str(resolved.parent))
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        where = f" (line {error.lineno})" if isinstance(error, SyntaxError) else ""
        problem = f"{type(error).__name__}: {error}"
        raise PochaError(f"{what} '{name}': '{path}' failed to load{where}: {problem}") from None
    finally:
        sys.path.remove(str(resolved.parent))
    return module


def parameters(factory: Callable[..., Strategy]) -> dict[str, inspect.Parameter]:
    """The keyword parameters a factory accepts, in order, with their type hints as annotations."""
    hints = get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    return {
        name: parameter.replace(annotation=hints.get(name, str))
        for name, parameter in inspect.signature(factory).parameters.items()
    }


KIND_WORDS = {int: "a whole number", float: "a number", str: "a text"}  # a parameter's kind as messages name it


def convert(value: str, kind: Any, where: str) -> tuple[Any, str]:
    """``(value, canonical text)`` of a parameter given as text: bool, a strategy spec, or ``kind(value)``."""
    if kind is bool:
        lowered = value.lower()
        if lowered in ("true", "yes", "1", "on"):
            return True, "True"
        if lowered in ("false", "no", "0", "off"):
            return False, "False"
        raise PochaError(f"{where}: '{value}' is not true or false")
    if kind is Strategy:
        label, strategy = load(value)
        return strategy, label
    try:
        converted = kind(value)
    except (TypeError, ValueError):
        raise PochaError(f"{where}: '{value}' is not {KIND_WORDS.get(kind, getattr(kind, '__name__', kind))}") from None
    return converted, str(converted)


def load(spec: str) -> tuple[str, Strategy]:
    """``(label, strategy)`` of a spec; the label is the spec in canonical form (``expected:bias=0.3``)."""
    name, text = split_spec(spec)
    factory = find_factory(name)
    try:
        accepted = parameters(factory)
    except (TypeError, ValueError):  # not a class or function (a module, a number), or one without a signature
        raise PochaError(f"strategy '{spec}': {name} is not a class or function that makes a strategy") from None
    kwargs: dict[str, Any] = {}
    shown: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals:
            raise PochaError(f"strategy '{spec}': parameter '{item}' has no value; write key=value")
        if key not in accepted:
            listed = ", ".join(accepted) or "none"
            raise PochaError(f"strategy '{spec}': unknown parameter '{key}'; {name} takes: {listed}")
        if key in kwargs:
            raise PochaError(f"strategy '{spec}': parameter {key} given twice; give it once")
        kwargs[key], shown[key] = convert(value.strip(), accepted[key].annotation, f"strategy '{spec}' parameter {key}")
    needed = [key for key, p in accepted.items() if p.default is p.empty and p.kind in NAMED and key not in kwargs]
    if needed:
        raise PochaError(f"strategy '{spec}': {name} needs {', '.join(f'{key}=VALUE' for key in needed)}")
    try:
        strategy = factory(**kwargs)
    except PochaError:
        raise
    except Exception as error:  # a user's class failing as it is made: one line, as a file failing to load
        raise PochaError(
            f"strategy '{spec}': {name} failed to make a strategy: {type(error).__name__}: {error}"
        ) from None
    if not callable(getattr(strategy, "bid", None)):
        raise PochaError(f"strategy '{spec}': {name} made an object without a bid(ctx) method")
    given = ",".join(f"{key}={shown[key]}" for key in accepted if key in kwargs)
    return (f"{name}:{given}" if given else name), strategy


@dataclass(frozen=True)
class StrategyInfo:
    """What ``pocha strategies`` shows of one strategy."""

    name: str
    source: str  # "built-in", or the distribution of an entry point
    description: str  # the first line of its docstring
    parameters: tuple[tuple[str, str, str, str], ...]  # (name, type, default, the comment beside it in the source)


def describe(name: str, factory: Callable[..., Strategy], source: str) -> StrategyInfo:
    """A strategy's name, where it comes from, its one-line description and its parameters."""
    doc = inspect.getdoc(factory) or ""
    try:
        code = inspect.getsource(factory)
    except (OSError, TypeError):
        code = ""
    shown = []
    for key, parameter in parameters(factory).items():
        kind = parameter.annotation
        default = parameter.default
        if default is inspect.Parameter.empty:
            text = "(required)"
        elif kind is Strategy:
            text = str(getattr(default, "name", default))
        else:
            text = repr(default)
        comment = re.search(rf"^\s*{key}\s*:.*#\s*(.+)$", code, re.MULTILINE)
        shown.append((key, getattr(kind, "__name__", str(kind)), text, comment[1].strip() if comment else ""))
    return StrategyInfo(name, source, doc.split("\n")[0].replace("``", ""), tuple(shown))


def described(spec: str) -> StrategyInfo:
    """One strategy as ``pocha strategies NAME`` shows it, named as a spec names it (its parameters aside)."""
    name = split_spec(spec)[0]
    factory = find_factory(name)
    source = (
        "built-in" if name in BUILTIN else "file" if FILE_SPEC.match(name) else "module" if ":" in name else "plug-in"
    )
    return describe(name, factory, source)


def catalogue() -> list[StrategyInfo]:
    """Every strategy that can be named: the built-in ones, then the entry points' (one that fails to load says so)."""
    found = [describe(name, factory, "built-in") for name, factory in BUILTIN.items()]
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name):
        source = f"entry point {entry.value}" + (f" ({entry.dist.name})" if entry.dist else "")
        try:
            found.append(describe(entry.name, entry.load(), source))
        except Exception as error:  # a broken plug-in must not hide the others
            found.append(StrategyInfo(entry.name, source, f"cannot be loaded: {type(error).__name__}: {error}", ()))
    return found
