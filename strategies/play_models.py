"""Learned play models as files: what one holds, the shipped ones, the one a table plays by default.

A model file (npz) holds the network's layers (``kernels.learned``) and ``meta``, a JSON text: the
format version, the features it reads (by name: a model whose features differ from this pocha's is
refused), the rules and teacher it learned from, its seed, its held-out agreement with the teacher and
its ``reading`` (how its scores read as chances, ``kernels.inference``).
"""

import hashlib
import json
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any, TypedDict

import numpy as np

from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.kernels.cache import pocha_cache_root
from pocha.kernels.learned import CARD_FEATURES, MOST_WIDTH, STATE_FEATURES, Model
from pocha.strategies.table import conditions
from pocha.version import __version__

FORMAT = "pocha-play-model/1"


class FirstUsePlan(TypedDict):
    """The plan of a model learned on first use (``pocha.engine.play_training.PlayTraining``'s fields)."""

    teacher: str
    deals: int
    rounds: int


FIRST_USE: FirstUsePlan = {"teacher": "pimc:samples=16,solve=3", "deals": 500, "rounds": 2}  # about 80 s at 4 x 10
# on 2 cores; under the trump rule 0.97 a hand ahead of the nearest shipped model (docs/learned-play.md)
WIDTHS = (64, 16)  # the network's hidden layers: a trade of strength for speed (docs/learned-play.md)
EPOCHS = 75  # passes over the positions a fit makes: the wider network gains from more (docs/learned-play.md)
SHIPPED = files("pocha.strategies") / "models"  # NAME.npz: the models pocha ships (``shipped_models``)
LAYERS = ("layer1", "bias1", "layer2", "bias2", "output", "bias3")


@dataclass(frozen=True, eq=False)
class PlayModel:
    """A learned play model: its layers (float64, the inputs' scaling folded in) and what it was learned from."""

    layers: tuple[np.ndarray, ...] = field(repr=False)  # LAYERS, in order
    meta: dict[str, Any]

    @property
    def widths(self) -> tuple[int, int]:
        """Its two hidden layers' widths."""
        return self.layers[0].shape[1], self.layers[2].shape[1]

    @property
    def held_out_text(self) -> str:
        """Its figures on the positions kept out of its fit, in words."""
        held = self.meta["held_out"]
        if not held["positions"]:  # a round too short to keep a chunk out: no figure, not nan
            return "no positions, too few deals to keep any out of the fit (more --deals measure it)"
        return (
            f"{held['positions']:,} positions, the teacher's best card {held['agreement']:.1%} of the time, "
            f"{held['regret']:.3f} points a position below it, loss {held['loss']:.3f}"
        )

    @property
    def reading(self) -> tuple[float, float]:
        """How its scores read as chances: (temperature, floor), fitted to its held-out positions; nan when none was.

        (``kernels.inference``, ``pocha.engine.play_training.fitted_reading``.)
        """
        fitted = self.meta.get("reading", {})
        return float(fitted.get("temperature", float("nan"))), float(fitted.get("floor", float("nan")))

    @property
    def rules(self) -> Rules:
        """The rules of the deals it learned from."""
        return Rules.from_dict(self.meta["rules"])

    def save(self, path: str | Path) -> None:
        """Write as npz (written whole to a temporary name first: never a half-written model)."""
        path = Path(path)
        partial = path.with_name(path.name + ".part")
        with open(partial, "wb") as out:
            arrays: dict[str, Any] = {"meta": json.dumps(self.meta, sort_keys=True)}
            arrays.update(zip(LAYERS, self.layers, strict=True))
            np.savez_compressed(out, **arrays)
        partial.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> "PlayModel":
        """Read a model file; one clear error for a file that is not one, or is for other features."""
        try:
            with open(path, "rb") as file, np.load(file, allow_pickle=False) as data:  # closed if not a zip too
                meta = json.loads(str(data["meta"]))
                layers = tuple(np.asarray(data[name], np.float64) for name in LAYERS)
        except FileNotFoundError:
            raise PochaError(f"play: no model file '{path}'") from None
        except IsADirectoryError:
            raise PochaError(f"play: '{path}' is a folder, not a model file (.npz of pocha train-play)") from None
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):  # numpy's own words would suggest pickles
            raise PochaError(f"play: '{path}' is not a pocha play model (.npz of pocha train-play)") from None
        if meta.get("format") != FORMAT:
            raise PochaError(f"play: '{path}' is a model of format {meta.get('format')!r}; this pocha reads {FORMAT}")
        if tuple(meta.get("state_features", ())) != STATE_FEATURES or tuple(meta.get("card_features", ())) != (
            CARD_FEATURES
        ):
            raise PochaError(
                f"play: '{path}' reads other features than this pocha's: learn it again (pocha train-play)"
            )
        model = cls(layers, meta)
        inputs = len(STATE_FEATURES) + len(CARD_FEATURES)
        one, two = model.widths
        shapes = ((inputs, one), (one,), (one, two), (two,), (two,), (1,))
        if tuple(layer.shape for layer in layers) != shapes or max(one, two) > MOST_WIDTH:
            raise PochaError(f"play: '{path}' has layers of the wrong shapes for its features")
        return model


def is_play_model_file(path: Path) -> bool:
    """Whether a file is a pocha play model (a file there may be replaced only then)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return bool(json.loads(str(data["meta"])).get("format") == FORMAT)
    except (OSError, ValueError, KeyError):
        return False


def pack_models(models: tuple[PlayModel, ...]) -> Model:
    """The models as the kernels take them: one flat array of weights and where each model lies in it.

    Each hidden layer is padded with units of no weight to a multiple of 8 units, as the kernels add
    eight at a time (``kernels.learned.add_inputs``); a unit of no weight adds nothing to a score.
    """
    layout = np.zeros((len(models), 4), np.int64)
    parts, offset = [], 0
    for m, model in enumerate(models):
        one, two = (-(-width // 8) * 8 for width in model.widths)
        layer1, bias1, layer2, bias2, output, bias3 = model.layers
        padded = (
            np.pad(layer1, ((0, 0), (0, one - layer1.shape[1]))),
            np.pad(bias1, (0, one - len(bias1))),
            np.pad(layer2, ((0, one - layer2.shape[0]), (0, two - layer2.shape[1]))),
            np.pad(bias2, (0, two - len(bias2))),
            np.pad(output, (0, two - len(output))),
            bias3,
        )
        layout[m] = (offset, len(STATE_FEATURES) + len(CARD_FEATURES), one, two)
        flat = np.concatenate([np.ravel(layer) for layer in padded])
        parts.append(flat)
        offset += len(flat)
    readings = np.array([model.reading for model in models], np.float64).reshape(-1, 2)
    return Model(layout, np.concatenate(parts) if parts else np.zeros(0), readings)


def shipped_models() -> dict[str, Path]:
    """The models pocha ships, by name (``ludoteka-4``: the ludoteka rules at 4 players)."""
    return {Path(item.name).stem: Path(str(item)) for item in SHIPPED.iterdir() if item.name.endswith(".npz")}


def table_distance(model: Rules, rules: Rules) -> tuple[int, ...]:
    """How far a model's table is from the run's: scoring, play rule, pack, then players (lower is nearer)."""
    return (
        model.scoring != rules.scoring,
        model.play_rule != rules.play_rule,
        model.pack != rules.pack or model.ranks != rules.ranks,
        abs(model.players - rules.players),
    )


@lru_cache(maxsize=64)
def load_model(path: str) -> PlayModel:
    """A model file, read once a process."""
    return PlayModel.load(path)


def serves(model: Rules, rules: Rules) -> bool:
    """Whether a model learned at one table plays well at another: the same scoring and play rule.

    Measured (docs/learned-play.md): the ludoteka-4 model is ahead of pimc at 5 and 6 players and with
    the French deck, and behind it under the ``trump`` play rule.
    """
    return not any(table_distance(model, rules)[:2])


@lru_cache(maxsize=64)
def nearest_model_path(rules: Rules) -> str:
    """The shipped model learned at the table nearest the rules' (``table_distance``)."""
    shipped = shipped_models()
    if not shipped:
        raise PochaError("play: no learned play model is installed with this pocha")
    nearest = min(sorted(shipped), key=lambda name: table_distance(load_model(str(shipped[name])).rules, rules))
    return str(shipped[nearest])


def first_use_path(rules: Rules) -> Path:
    """Where pocha keeps the model learned on first use for the rules: by version, named by its fit and network."""
    network = {"features": [*STATE_FEATURES, *CARD_FEATURES], "widths": WIDTHS, "epochs": EPOCHS}  # another is not this
    key = json.dumps({**conditions(rules, "learned"), **FIRST_USE, **network}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return pocha_cache_root() / "models" / __version__ / f"players-{rules.players}-{digest}.npz"


@lru_cache(maxsize=64)
def nearest_serves(rules: Rules) -> bool:
    """Whether the nearest shipped model serves the rules (no model need be learned for them)."""
    return serves(load_model(nearest_model_path(rules)).rules, rules)


def missing_model(rules: Rules) -> Path | None:
    """Where a model for the rules is to be learned on first use: no shipped one serves them, none is cached yet."""
    if nearest_serves(rules) or first_use_path(rules).is_file():
        return None
    return first_use_path(rules)


def default_model_path(rules: Rules) -> str:
    """The model a table plays by default: the nearest shipped one if it serves the rules, else one learned for them.

    Until a model is learned for them (``missing_model``), the nearest shipped one plays.
    """
    if nearest_serves(rules) or not first_use_path(rules).is_file():
        return nearest_model_path(rules)
    return str(first_use_path(rules))


def model_path(rules: Rules, spec: str) -> str:
    """The file a learned seat plays: ``spec`` (a path), or for an empty spec the table's default."""
    return spec or default_model_path(rules)


def run_models(rules: Rules, specs: tuple[str, ...], inferring: tuple[int, ...] = ()) -> Model:
    """The models of a run's learned seats (``PlayPolicy.model``, in the order of ``SeatPolicies.models``).

    inferring: the indices of those a pimc seat reads the play by (``infer=play``): each needs its fitted reading.
    """
    models = tuple(load_model(model_path(rules, spec)) for spec in specs)
    for index in inferring:
        if np.isnan(models[index].reading[0]):
            raise PochaError(
                f"play: pimc infer=play reads the play by '{model_path(rules, specs[index])}', a model without a "
                "fitted reading of its scores as chances (learned by an older pocha): learn it again with "
                "pocha train-play"
            )
    return pack_models(models)
