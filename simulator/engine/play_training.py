"""``pocha train-play``: a learned play model distilled from a pimc teacher, DAgger-style, resumable.

Each round plays deals of every hand size (the seats bidding as the shipped heuristics do, in turn)
with every seat the teacher: at each choice among cards that differ, the teacher weighs every one
of them over its worlds (no card dropped early) and the position and those values are kept
(``kernels.labels``). In round 0 the teacher's own card is played; from round 1 on the model of
the round before plays and the teacher only labels (DAgger: the student meets its own positions).
After each round a network is fitted on every round's positions (``fit``: scikit-learn's
multi-layer perceptron, the ``train`` extra) to each card's value against the position's mean.

A round's deals go in chunks; each chunk's positions are written to its own file in the data
folder as it finishes, so a stopped run resumes where it was, and the same seed gives the same
files, whatever the thread count. The deals of round r are numbered from r * ROUND_NUMBERS.
"""

import json
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from pocha.engine.backends import Backend, Threads
from pocha.engine.chunk import collect_bids, deal_chunk, policies_table
from pocha.engine.policies import TEACHER, TRAIN_PLAY_DEALS, TRAIN_PLAY_ROUNDS, PlayPolicy, parse_policy
from pocha.engine.seating import Competitor
from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.kernels.labels import Record, new_record, positions_features
from pocha.kernels.learned import CARD_FEATURES, CARD_WIDTH, STATE_FEATURES, STATE_WIDTH, no_model
from pocha.kernels.pimc import Reading
from pocha.kernels.play import DealRules, Outcome, Policies, no_log, play_batch
from pocha.strategies.heuristics import expected_tables
from pocha.strategies.play_models import EPOCHS, FORMAT, WIDTHS, PlayModel, pack_models
from pocha.strategies.registry import load
from pocha.version import __version__
from pocha.words import counted

BIDDERS = ("expected", "aces-trumps", "fair-share", "expected")  # the seats' bidders, in turn round the deals
ROUND_NUMBERS = 1_000_000_000  # deal numbers a round may use: round r deals from r * ROUND_NUMBERS on
HELD_OUT = 10  # every HELD_OUT-th chunk of each round is kept out of the fit, to measure the model on


@dataclass(frozen=True, kw_only=True)
class PlayTraining:
    """What a learned play model is learned from; the same plan gives the same model."""

    rules: Rules
    deals: int = TRAIN_PLAY_DEALS  # per hand size and round
    rounds: int = TRAIN_PLAY_ROUNDS
    teacher: str = TEACHER
    seed: int = 0
    chunk: int = 20  # deals a chunk (a file of positions)
    sizes: tuple[int, ...] = ()  # hand sizes; () for every one from 1 to the full deal
    widths: tuple[int, int] = WIDTHS
    epochs: int = EPOCHS  # passes over the positions each fit makes

    def __post_init__(self) -> None:
        if not self.sizes:
            object.__setattr__(self, "sizes", tuple(range(1, self.rules.full_deal + 1)))
        for cards in self.sizes:
            self.rules.check_cards(cards)
        if min(self.deals, self.rounds, self.chunk, self.epochs) < 1:
            raise PochaError("train-play: deals, rounds, chunk size and passes must each be at least 1")
        policy = self.teacher_policy
        if policy.name != "pimc" or policy.exhaustive or policy.rollout != "greedy" or policy.infer != "bids":
            raise PochaError(
                "train-play: the teacher must be pimc weighing one card of each run, its worlds played out "
                f"greedily and read from the bids only, not '{self.teacher}'"
            )

    @property
    def teacher_policy(self) -> PlayPolicy:
        """The teacher's play policy."""
        return parse_policy(self.teacher)

    @property
    def chunks_per_size(self) -> int:
        """Chunks of one hand size in one round."""
        return -(-self.deals // self.chunk)

    def tasks(self, round_: int) -> list[tuple[int, int, int]]:
        """Round ``round_``'s chunks as (hand size, first deal number, deals), sizes interleaved."""
        return [
            (cards, round_ * ROUND_NUMBERS + c * self.chunk, min(self.chunk, self.deals - c * self.chunk))
            for c in range(self.chunks_per_size)
            for cards in self.sizes
        ]

    def to_dict(self) -> dict[str, Any]:
        """The plan as plain data (a model's meta, the data folder's plan.json)."""
        data = asdict(self)
        data["rules"] = self.rules.to_dict()
        data["sizes"], data["widths"] = list(self.sizes), list(self.widths)
        return data


def label_chunk(plan: PlayTraining, cards: int, first: int, count: int, student: PlayModel | None) -> Record:
    """Play ``count`` deals of ``cards`` cards from deal number ``first``, every seat the teacher; its labels.

    With a ``student``, the student plays and the teacher labels.
    """
    rules = plan.rules
    numbers = np.arange(first, first + count, dtype=np.int64)
    chunk = deal_chunk(rules, plan.seed, cards, numbers)
    bidders = [Competitor(*load(name), plan.teacher_policy) for name in BIDDERS]
    seating = (numbers[:, None] + np.arange(rules.players)[None, :]) % len(bidders)
    collect_bids(rules, bidders, seating, plan.seed, chunk)
    table = policies_table([plan.teacher_policy])
    codes, samples, sharpness, exhaustive, solve, paranoid, _, rollout, infer, _ = table.rows(
        np.zeros((1, rules.players), np.int64)
    )
    model = np.full((1, rules.players), 0 if student else -1, np.int64)
    deal_rules = DealRules.of(rules, cards, Reading(sharpness, *expected_tables(rules, cards)))
    record = new_record(count * cards * rules.players, rules.players)
    outcome = Outcome(np.empty((count, rules.players), np.int64), np.empty((count, rules.players), np.int64))
    models = pack_models((student,)) if student else no_model()
    play_batch(
        plan.seed,
        chunk,
        deal_rules,
        Policies(codes, samples, exhaustive, solve, paranoid, model, rollout, infer),
        outcome,
        no_log(),
        models,
        record,
    )
    return record


RECORD_FIELDS = ("ints", "masks", "seats", "counts", "values")


def save_record(record: Record, cards: int, path: Path) -> None:
    """Write a chunk's labelled positions (the filled part of ``record``), whole or not at all."""
    filled = int(record.count[0])
    temporary = path.with_name(path.name + ".part")
    with open(temporary, "wb") as out:
        np.savez_compressed(out, cards=cards, **{name: getattr(record, name)[:filled] for name in RECORD_FIELDS})
    temporary.replace(path)


def load_record(path: Path) -> tuple[int, Record]:
    """A chunk file's hand size and positions."""
    with np.load(path) as data:
        arrays = {name: data[name] for name in RECORD_FIELDS}
        return int(data["cards"]), Record(**arrays, count=np.array([len(arrays["ints"])], np.int64))


@dataclass
class Features:
    """Rows of (position, weighed card) for the fit: inputs, target (the card's value less the position's mean)."""

    inputs: np.ndarray  # float64[row, STATE_WIDTH + CARD_WIDTH]
    values: np.ndarray  # float64[row]: the teacher's value of the card
    position: np.ndarray  # int64[row]: the row's position, numbered across the rows given

    @property
    def target(self) -> np.ndarray:
        """Each card's value less the mean of its position's cards: what the network learns."""
        counts = np.bincount(self.position)
        means = np.bincount(self.position, self.values) / np.maximum(counts, 1)
        return self.values - means[self.position]


def record_features(rules: Rules, files: Sequence[Path]) -> Features:
    """The fit's rows from chunk files of labelled positions."""
    inputs, values, positions, base = [], [], [], 0
    for path in files:
        cards, record = load_record(path)
        rows = int(np.isfinite(record.values).sum())
        states, card_inputs = np.empty((rows, STATE_WIDTH)), np.empty((rows, CARD_WIDTH))
        position, card_ids = np.empty(rows, np.int64), np.empty(rows, np.int64)
        positions_features(record, DealRules.of(rules, cards), states, card_inputs, position, card_ids)
        inputs.append(np.hstack([states, card_inputs]))
        values.append(record.values[position, card_ids])
        positions.append(position + base)
        base += int(record.count[0])
    if not inputs:
        width = STATE_WIDTH + CARD_WIDTH
        return Features(np.empty((0, width)), np.empty(0), np.empty(0, np.int64))
    return Features(np.vstack(inputs), np.concatenate(values), np.concatenate(positions))


def fitting_library() -> tuple[Any, Any, Any]:
    """scikit-learn's warning of a fit cut short, its perceptron and its BLAS thread limit; one line without them.

    The thread limit is threadpoolctl's, which scikit-learn installs. Checked before any work.
    """
    try:
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.neural_network import MLPRegressor
        from threadpoolctl import threadpool_limits
    except ImportError:
        raise PochaError("train-play: fitting needs scikit-learn: pip install 'pocha-simulator[train]'") from None
    return ConvergenceWarning, MLPRegressor, threadpool_limits


def fit(features: Features, widths: tuple[int, int], seed: int, epochs: int) -> tuple[np.ndarray, ...]:
    """Fit the network to ``features``; its layers (``play_models.LAYERS``) with the inputs' scaling folded in."""
    ConvergenceWarning, MLPRegressor, threadpool_limits = fitting_library()
    if not len(features.values):
        raise PochaError("train-play: no position to learn from (every card was forced): give more deals or sizes")
    mean, scale = features.inputs.mean(axis=0), features.inputs.std(axis=0)
    constant = scale < 1e-9  # the same in every position seen (the player count...): it teaches nothing
    scale[constant] = 1.0
    network = MLPRegressor(
        hidden_layer_sizes=widths,
        alpha=1e-4,
        batch_size=min(512, len(features.values)),
        learning_rate_init=1e-3,
        max_iter=epochs,
        n_iter_no_change=epochs,
        tol=0.0,
        random_state=seed,
    )
    # A fixed number of passes, not a tolerance ("not converged" says nothing); BLAS on one thread, since
    # its sums in another order on more threads would change the last bits of the weights.
    with warnings.catch_warnings(), threadpool_limits(limits=1):
        warnings.simplefilter("ignore", ConvergenceWarning)
        network.fit((features.inputs - mean) / scale, features.target)
    if network.n_iter_ < epochs:  # scikit-learn ends a fit early on Ctrl-C, with a warning only: not a model
        raise KeyboardInterrupt
    (w1, w2, w3), (b1, b2, b3) = network.coefs_, network.intercepts_
    w1[constant] = 0.0  # weights it never trained: elsewhere (another player count) they would add noise
    return w1 / scale[:, None], b1 - (mean / scale) @ w1, w2, b2, w3[:, 0], b3


def network_scores(layers: Sequence[np.ndarray], inputs: np.ndarray) -> np.ndarray:
    """The network's score of each row of ``inputs`` (numpy; the kernels' ``card_score`` does the same)."""
    first, bias1, second, bias2, output, bias3 = layers
    hidden = np.maximum(inputs @ first + bias1, 0.0)
    return np.maximum(hidden @ second + bias2, 0.0) @ output + bias3[0]


@dataclass(frozen=True)
class Agreement:
    """How a model plays the held-out positions against the teacher's values."""

    positions: int
    agreement: float  # share of positions where it plays a card the teacher values best
    regret: float  # mean points a position its card is worth less than the teacher's best
    loss: float  # mean squared error of its scores against the targets, per card

    def to_dict(self) -> dict[str, Any]:
        """As plain data."""
        return asdict(self)


def agreement(layers: Sequence[np.ndarray], features: Features) -> Agreement:
    """The model of ``layers`` on ``features`` (held out): agreement, regret and loss against the teacher."""
    if not len(features.values):
        return Agreement(0, float("nan"), float("nan"), float("nan"))
    scores = network_scores(layers, features.inputs)
    order = np.lexsort((-scores, features.position))  # each position's rows, the model's best first
    first = order[np.r_[0, np.flatnonzero(np.diff(features.position[order])) + 1]]
    best = np.maximum.reduceat(features.values[order], np.r_[0, np.flatnonzero(np.diff(features.position[order])) + 1])
    chosen = features.values[first]
    loss = float(np.mean((scores - features.target) ** 2))
    return Agreement(len(first), float(np.mean(chosen >= best - 1e-9)), float(np.mean(best - chosen)), loss)


def fitted_reading(layers: Sequence[np.ndarray], features: Features) -> dict[str, float]:
    """How to read the model's scores as a player's chances: the temperature and floor that fit held-out ``features``.

    A seat reading the play (``kernels.inference``) gives each of n distinct cards the chance
    (1 - floor) softmax(score / temperature) + floor / n: too low a temperature and one unexpected card
    rules a world out, too high and the play says nothing; the floor keeps a card the model would not
    play possible (another player is not the model). Both are chosen to give the teacher's best cards
    the most chance (golden-section searches); ``log_likelihood`` is the mean log of that chance a position.
    """
    if not len(features.values):
        return {"temperature": float("nan"), "floor": float("nan"), "log_likelihood": float("nan")}
    position, count = features.position, int(features.position.max()) + 1
    scores = network_scores(layers, features.inputs)
    top_value, top_score = np.full(count, -np.inf), np.full(count, -np.inf)
    np.maximum.at(top_value, position, features.values)
    np.maximum.at(top_score, position, scores)
    best = features.values >= top_value[position] - 1e-9
    shifted = scores - top_score[position]
    cards = np.bincount(position, minlength=count)
    seen = cards > 0
    best_share = np.bincount(position, best, minlength=count)[seen] / cards[seen]

    def log_likelihood(log_temperature: float, floor: float) -> float:
        weights = np.exp(shifted / np.exp(log_temperature))
        chosen = np.bincount(position, weights * best, minlength=count)[seen]
        chance = chosen / np.bincount(position, weights, minlength=count)[seen]
        return float(np.mean(np.log((1.0 - floor) * chance + floor * best_share)))

    def temperature(floor: float) -> float:
        return golden_maximum(lambda t: log_likelihood(t, floor), np.log(0.05), np.log(200.0))

    floor = golden_maximum(lambda f: log_likelihood(temperature(f), f), 0.0, 0.95)
    log_temperature = temperature(floor)
    return {
        "temperature": float(np.exp(log_temperature)),
        "floor": floor,
        "log_likelihood": log_likelihood(log_temperature, floor),
    }


def golden_maximum(function: Callable[[float], float], low: float, high: float, steps: int = 40) -> float:
    """Where ``function`` (one peak) is highest between ``low`` and ``high``: a golden-section search."""
    ratio = (np.sqrt(5.0) - 1.0) / 2.0
    for _ in range(steps):
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        if function(left) < function(right):
            low = left
        else:
            high = right
    return float((low + high) / 2.0)


def label_task(
    plan: PlayTraining, tasks: Sequence[tuple[int, int, int]], student: PlayModel | None, index: int
) -> tuple[int, Record]:
    """Task ``index`` of ``tasks`` labelled (``label_chunk``), with its index: the backend yields them as they end."""
    cards, first, count = tasks[index]
    return index, label_chunk(plan, cards, first, count, student)


def chunk_file(folder: Path, round_: int, index: int) -> Path:
    """Where chunk ``index`` of round ``round_`` keeps its positions."""
    return folder / f"round-{round_}" / f"chunk-{index:06d}.npz"


def held_out(plan: PlayTraining, index: int) -> bool:
    """Whether a round's chunk ``index`` is kept out of the fit: every HELD_OUT-th chunk of each hand size."""
    return index // len(plan.sizes) % HELD_OUT == HELD_OUT - 1


@dataclass
class TrainingProgress:
    """What ``train_play`` tells as it goes: deals played of all (a progress bar), and a line for each step."""

    deals: Callable[[int, int], None] = lambda done, total: None
    say: Callable[[str], None] = lambda line: None


def train_play(
    plan: PlayTraining, folder: Path, backend: Backend = Threads(1), told: TrainingProgress | None = None
) -> PlayModel:
    """Learn a play model round by round (module docstring), its data and each round's model kept in ``folder``.

    A folder holding an earlier run of the same plan is resumed: chunks and models already there are kept.
    Raises KeyboardInterrupt on Ctrl-C, everything finished kept.
    """
    told = told or TrainingProgress()
    fitting_library()
    check_folder(plan, folder)
    model: PlayModel | None = None
    total, done = plan.deals * len(plan.sizes) * plan.rounds, 0
    for round_ in range(plan.rounds):
        saved = folder / f"model-round-{round_}.npz"
        tasks = plan.tasks(round_)
        todo = [i for i in range(len(tasks)) if not chunk_file(folder, round_, i).exists()]
        done += plan.deals * len(plan.sizes) - sum(tasks[i][2] for i in todo)
        told.deals(done, total)
        if todo:
            told.say(
                f"round {round_ + 1} of {plan.rounds}: {'the teacher' if model is None else 'the model'} plays, "
                f"the teacher labels ({len(todo):,} chunks to play)"
            )
        chunk_file(folder, round_, 0).parent.mkdir(parents=True, exist_ok=True)

        for index, record in backend.run(partial(label_task, plan, tasks, model), todo):
            save_record(record, tasks[index][0], chunk_file(folder, round_, index))
            done += tasks[index][2]
            told.deals(done, total)
        if saved.exists():
            model = PlayModel.load(saved)
            continue
        told.say(f"round {round_ + 1}: fitting the model to the positions of {counted(round_ + 1, 'round')}")
        started = time.perf_counter()  # the fit counts no deals: said first, not a silent wait
        learned = fit_rounds(plan, folder, round_ + 1)
        told.say(
            f"round {round_ + 1}: fitted in {time.perf_counter() - started:.0f} s; held out: {learned.held_out_text}"
        )
        learned.save(saved)
        model = learned
    assert model is not None
    return model


def fit_rounds(plan: PlayTraining, folder: Path, rounds: int) -> PlayModel:
    """The model fitted on the first ``rounds`` rounds' chunks (held-out chunks measure it and fit its reading)."""
    files = [(chunk_file(folder, r, i), held_out(plan, i)) for r in range(rounds) for i in range(len(plan.tasks(r)))]
    training = record_features(plan.rules, [path for path, out in files if not out])
    testing = record_features(plan.rules, [path for path, out in files if out])
    read_on = testing if len(testing.values) else training  # a small first-use model keeps no chunk out
    layers = fit(training, plan.widths, plan.seed, plan.epochs)
    meta = {
        "format": FORMAT,
        "state_features": list(STATE_FEATURES),
        "card_features": list(CARD_FEATURES),
        "rules": plan.rules.to_dict(),
        "teacher": plan.teacher,
        "plan": plan.to_dict(),
        "rounds": rounds,
        "positions": int(training.position.max() + 1) if len(training.position) else 0,
        "held_out": agreement(layers, testing).to_dict(),
        "reading": fitted_reading(layers, read_on),
        "pocha": __version__,
    }
    return PlayModel(layers, meta)


def check_folder(plan: PlayTraining, folder: Path) -> None:
    """Make the data folder, or check that it holds a run of this same plan (then it is resumed).

    The rounds may differ: a run given more rounds goes on from the last one, fewer stop sooner.
    """
    record = folder / "plan.json"
    wanted = json.dumps({**plan.to_dict(), "rounds": None}, sort_keys=True, indent=1)
    if record.exists():
        if json.dumps({**json.loads(record.read_text()), "rounds": None}, sort_keys=True, indent=1) != wanted:
            raise PochaError(f"train-play: '{folder}' holds the data of another plan; give a new --data folder")
        for stale in folder.rglob("*.part"):  # a file a stopped run was writing
            stale.unlink()
        return
    folder.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(plan.to_dict(), sort_keys=True, indent=1))
