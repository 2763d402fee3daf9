"""Strategies by name: spec strings such as ``expected:bias=0.3`` or ``mypkg.bids:Cautious:level=2``.

Names are looked up among the shipped strategies, then (lazily, only for an unknown name) in the
entry-point group ``pocha.strategies``; a ``package.module:Class`` name imports user code.
Parameters are the factory's typed keyword arguments.
"""

import difflib
import importlib
import inspect
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, get_type_hints

from simulator import PochaError
from strategies.base import Strategy
from strategies.heuristics import AcesTrumps, Expected, FairShare, RandomBid, ZeroBid
from strategies.montecarlo import MonteCarlo
from strategies.table import TableStrategy

ENTRY_POINT_GROUP = "pocha.strategies"
BUILTIN: dict[str, Callable[..., Strategy]] = {
    factory.name: factory
    for factory in (RandomBid, ZeroBid, FairShare, AcesTrumps, Expected, MonteCarlo, TableStrategy)
}


def split_spec(spec: str) -> tuple[str, str]:
    """``(name, parameters)`` of a spec; ``module:Class`` is one name (parameters always hold a '=')."""
    parts = spec.strip().split(":")
    user_code = len(parts) > 1 and parts[0] not in BUILTIN and parts[1].strip().isidentifier()
    cut = 2 if user_code else 1
    if len(parts) > cut + 1:
        raise PochaError(f"strategy '{spec}': too many ':'; write NAME or NAME:key=value,key=value")
    return ":".join(parts[:cut]), (parts[cut] if len(parts) > cut else "")


def find_factory(name: str) -> Callable[..., Strategy]:
    """The class or function that builds strategy ``name``."""
    if name in BUILTIN:
        return BUILTIN[name]
    if ":" in name:
        return _import_factory(name)
    plugins = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    if name in plugins:
        return plugins[name].load()
    known = sorted(BUILTIN) + sorted(plugins)
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise PochaError(f"strategy: unknown name '{name}'; {hint}known: {', '.join(known)} (or package.module:Class)")


def _import_factory(name: str) -> Callable[..., Strategy]:
    module_name, _, attribute = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise PochaError(f"strategy '{name}': cannot import {module_name} ({error})") from None
    if not hasattr(module, attribute):
        raise PochaError(f"strategy '{name}': module {module_name} has no '{attribute}'")
    return getattr(module, attribute)


def parameters(factory: Callable[..., Strategy]) -> dict[str, type]:
    """The typed keyword parameters a factory accepts, in order."""
    hints = get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    return {name: hints.get(name, str) for name in inspect.signature(factory).parameters}


def _convert(value: str, kind: type, where: str) -> Any:
    if kind is bool:
        lowered = value.lower()
        if lowered in ("true", "yes", "1", "on"):
            return True
        if lowered in ("false", "no", "0", "off"):
            return False
        raise PochaError(f"{where}: '{value}' is not true or false")
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise PochaError(f"{where}: '{value}' is not a {getattr(kind, '__name__', kind)}") from None


def load(spec: str) -> tuple[str, Strategy]:
    """``(label, strategy)`` of a spec; the label is the spec in canonical form (``expected:bias=0.3``)."""
    name, text = split_spec(spec)
    factory = find_factory(name)
    accepted = parameters(factory)
    kwargs: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals:
            raise PochaError(f"strategy '{spec}': parameter '{item}' has no value; write key=value")
        if key not in accepted:
            listed = ", ".join(accepted) or "none"
            raise PochaError(f"strategy '{spec}': unknown parameter '{key}'; {name} takes: {listed}")
        kwargs[key] = _convert(value.strip(), accepted[key], f"strategy '{spec}' parameter {key}")
    strategy = factory(**kwargs)
    if not callable(getattr(strategy, "bid", None)):
        raise PochaError(f"strategy '{spec}': {name} made an object without a bid(ctx) method")
    given = ",".join(f"{key}={kwargs[key]}" for key in accepted if key in kwargs)
    return (f"{name}:{given}" if given else name), strategy
