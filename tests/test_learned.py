"""The learned play: its kernel against numpy, its features on a hand-built position, its model files, its training."""

import importlib.util
import json
import platform
import re
import types
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
import pytest
from conftest import LUDOTEKA, lineup, mask
from typer.testing import CliRunner

from pocha.engine.backends import Threads
from pocha.engine.play_training import (
    PlayTraining,
    TrainingProgress,
    chunk_file,
    label_chunk,
    network_scores,
    record_features,
    save_record,
    train_play,
)
from pocha.engine.policies import parse_policy
from pocha.engine.simulate import Deals, simulate
from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.game.scoring import SCORINGS
from pocha.kernels.bits import ONE, ZERO
from pocha.kernels.jit import VECTORISED, jit
from pocha.kernels.labels import recorded_position
from pocha.kernels.learned import (
    CARD_FEATURES,
    STATE_FEATURES,
    add_inputs,
    card_features,
    card_scores,
    learned_card,
    suit_counts,
)
from pocha.kernels.play import DealRules
from pocha.kernels.trick import Trick, trump_masks
from pocha.kernels.view import View
from pocha.strategies import play_models
from pocha.strategies.play_models import (
    FIRST_USE,
    PlayModel,
    default_model_path,
    first_use_path,
    is_play_model_file,
    load_model,
    missing_model,
    nearest_model_path,
    pack_models,
    serves,
)

pytestmark = pytest.mark.slow  # the teacher's search and the labels compile: out of the fast tier
TEACHER = "pimc:samples=4,solve=2"  # small: the tests check the plumbing, not the strength


@jit
def kernel_scores(record, deal_rules, models, out):
    """Each recorded position's weighed cards scored by the kernels, in the rows of ``positions_features``."""
    scores, work = np.empty(64), np.empty((5, 256))
    r = 0
    for i in range(record.count[0]):
        view, trick = recorded_position(record, i)
        weighed = ZERO
        for card in range(64):
            if not np.isnan(record.values[i, card]):
                weighed |= ONE << np.uint64(card)
        card_scores(view, trick, deal_rules, weighed, models, 0, scores, work)
        for card in range(64):
            if weighed >> np.uint64(card) & ONE:
                out[r] = scores[card]
                r += 1


@pytest.fixture(scope="module")
def shipped():
    """The shipped model of the ludoteka rules at 4 players."""
    return load_model(default_model_path(LUDOTEKA))


def odd_widths(model: PlayModel) -> PlayModel:
    """A network of random weights whose hidden layers are no multiple of 8 wide (the kernels pad them)."""
    rng = np.random.default_rng(1)
    inputs, (one, two) = model.layers[0].shape[0], (13, 5)
    shapes = ((inputs, one), (one,), (one, two), (two,), (two,), (1,))
    return PlayModel(tuple(rng.normal(size=shape) for shape in shapes), model.meta)


@pytest.mark.parametrize("players, odd", [(3, False), (4, False), (6, False), (4, True)])
def test_the_kernels_score_cards_as_the_network_does(players, odd, shipped, tmp_path):
    model = odd_widths(shipped) if odd else shipped
    rules = make_rules(players=players)
    plan = PlayTraining(rules=rules, deals=4, teacher=TEACHER, sizes=(5,))
    record = label_chunk(plan, 5, 0, 4, None)
    assert record.count[0] > 0
    save_record(record, 5, tmp_path / "chunk.npz")
    features = record_features(rules, [tmp_path / "chunk.npz"])
    out = np.empty(len(features.values))
    kernel_scores(record, DealRules.of(rules, 5), pack_models((model,)), out)
    assert np.allclose(out, network_scores(model.layers, features.inputs), atol=1e-9)


@pytest.mark.parametrize("width, count, rectified", [(8, 1, False), (16, 44, False), (32, 16, True), (64, 32, True)])
def test_the_vectorised_sums_are_the_plain_sums_bit_for_bit(width, count, rectified):
    rng = np.random.default_rng(width + count)
    out, inputs, weights = rng.normal(size=width), rng.normal(size=count), rng.normal(size=3 + count * width)
    expected = [float(out[h]) for h in range(width)]
    for i in range(count):
        x = max(float(inputs[i]), 0.0) if rectified else float(inputs[i])
        for h in range(width):
            expected[h] += x * float(weights[3 + i * width + h])
    add_inputs(out, width, inputs, count, weights, 3, rectified)
    assert out.tolist() == expected


def eight_scaled(out, x):
    """Eight independent lanes, as ``add_inputs`` writes its sums."""
    a0, a1, a2, a3, a4, a5, a6, a7 = out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]
    out[0], out[1], out[2], out[3] = a0 * x[0], a1 * x[1], a2 * x[2], a3 * x[3]
    out[4], out[5], out[6], out[7] = a4 * x[4], a5 * x[5], a6 * x[6], a7 * x[7]


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="reads x86 instructions")
def test_only_a_vectorised_function_compiles_with_the_slp_vectoriser():
    setting = numba.config.SLP_VECTORIZE
    twin = types.FunctionType(eight_scaled.__code__, globals(), "eight_scaled_twin")  # the same code, another function
    plain, vectorised = numba.njit(eight_scaled), numba.njit(twin)
    VECTORISED.add(vectorised.py_func)
    try:
        for function in (plain, vectorised):
            function(np.ones(8), np.ones(8))
    finally:
        VECTORISED.discard(vectorised.py_func)
    packed = [len(re.findall(r"\bv?mulpd\b", f.inspect_asm(f.signatures[0]))) for f in (plain, vectorised)]
    assert packed[0] == 0 < packed[1]
    assert setting == numba.config.SLP_VECTORIZE


def test_a_card_s_features_on_a_hand_built_position():
    """Seat 1 of 4 follows the led 4 of oros with the ace and the 5; seat 2 has shown a void in oros."""
    rules = LUDOTEKA
    deck = rules.deck_mask
    trump_card = rules.notation.parse("1C")  # copas trump
    trumps, turned = (np.uint64(m) for m in trump_masks(trump_card))  # numba hands back Python ints
    hand = mask("1O 5O", rules)
    led_card = rules.notation.parse("4O")
    gone = (ONE << np.uint64(led_card)) | turned
    unseen = deck & ~(hand | gone)
    may_hold = np.full(4, deck, np.uint64)
    may_hold[2] &= ~(np.uint64(0xFFFF) << np.uint64(led_card & 48))  # seat 2 showed a void in oros
    view = View(
        1,
        hand,
        unseen,
        ZERO,
        -1,
        may_hold,
        np.zeros(4, np.int64),
        np.array([1, 1, 0, 1]),
        3,
        trump_card,
        np.zeros(4, np.uint64),
    )
    lane = np.uint64(0xFFFF) << np.uint64(led_card & 48)
    beat = (lane & ~((ONE << np.uint64(led_card + 1)) - ONE)) | trumps
    trick = Trick(trumps, 0, 1, lane & ~(ONE << np.uint64(led_card)), beat, 0)
    out = np.empty(len(CARD_FEATURES))
    card_features(rules.notation.parse("1O"), view, trick, DealRules.of(rules, 2), out)
    named = dict(zip(CARD_FEATURES, out, strict=True))
    assert named["trump"] == 0 and named["follows the led suit"] == 1 and named["takes the trick now"] == 1
    assert named["no unseen card of its suit above it"] == 1  # the ace is the best oros
    assert named["own cards of its suit below it"] == 1 / 13
    # seats 2 and 3 play after: seat 2 is void in oros but may trump; seat 3 may hold a trump too
    assert named["later seats in the trick that may beat it"] == 2 / 3
    assert named["other seats void in its suit"] == 1 / 3
    assert named["later seats in the trick needing tricks that may beat it"] == 1 / 3  # seat 2 bid 0: it needs none


def test_a_hand_s_masters_bottoms_and_suits_to_trump_in():
    """Copas trump, the king of oros gone: the ace and 3 of oros and the ace of copas are masters, the 2 a bottom."""
    rules = LUDOTEKA
    trumps, turned = (np.uint64(m) for m in trump_masks(rules.notation.parse("4C")))
    hand = mask("1O 3O 2O 1C", rules)
    out_cards = rules.deck_mask & ~(hand | mask("12O", rules) | turned)
    assert suit_counts(hand, out_cards, trumps) == (3, 1, 2)  # void in espadas and bastos, holding a trump
    assert suit_counts(hand & ~mask("1C", rules), out_cards, trumps) == (2, 1, 0)  # no trump: nothing to trump with


def test_forced_and_equivalent_cards_cost_no_evaluation(shipped):
    rules = LUDOTEKA
    hand = mask("4O 5O", rules)  # the 4 and 5 of oros: no card between them, the lead free
    deck = rules.deck_mask
    view = View(
        0,
        hand,
        deck & ~hand,
        ZERO,
        -1,
        np.full(4, deck, np.uint64),
        np.zeros(4, np.int64),
        np.ones(4, np.int64),
        3,
        rules.notation.parse("1C"),
        np.zeros(4, np.uint64),
    )
    trumps = np.uint64(trump_masks(view.trump_card)[0])  # numba hands back Python ints
    scores = np.full(64, 123.0)
    card = learned_card(
        view,
        hand,
        Trick(trumps, 0, 0, ZERO, ~ZERO, 0),
        DealRules.of(rules, 2),
        pack_models((shipped,)),
        0,
        scores,
        np.empty((5, 256)),
    )
    assert card == rules.notation.parse("4O") and (scores == 123.0).all()


def test_learned_runs_do_not_depend_on_chunks_or_threads():
    rules = make_rules(players=5)
    seats = lineup("expected@learned", "aces-trumps", "expected", "zero@learned", "fair-share")
    runs = [
        simulate(
            Deals(
                rules=rules,
                lineup=seats,
                cards=[3, 8],
                deals_per_size=60,
                seed=4,
                chunk_size=size,
                policy=parse_policy("learned"),
            ),
            backend=Threads(threads),
        ).total.moments
        for size, threads in ((7, 1), (60, 2))
    ]
    assert np.array_equal(*runs)


def test_a_model_file_is_checked_when_read(tmp_path, shipped):
    (tmp_path / "text.npz").write_text("not a model")
    other = PlayModel(shipped.layers, {**shipped.meta, "card_features": ["something else"]})
    other.save(tmp_path / "other.npz")
    np.savez(tmp_path / "arrays.npz", weights=np.zeros(3))
    for path, message in (
        (tmp_path / "missing.npz", "no model file"),
        (tmp_path / "text.npz", r"is not a pocha play model \(.npz of pocha train-play\)$"),  # not numpy's words
        (tmp_path / "arrays.npz", r"is not a pocha play model \(.npz of pocha train-play\)$"),
        (tmp_path, "is a folder, not a model file"),
        (tmp_path / "other.npz", "reads other features"),
    ):
        with pytest.raises(PochaError, match=message):
            PlayModel.load(path)
    assert is_play_model_file(default_model_path(LUDOTEKA)) and not is_play_model_file(tmp_path / "text.npz")
    with pytest.raises(PochaError, match=r"learned takes model=PATH \(a file of pocha train-play\), solve=N and "):
        parse_policy("learned:depth=3")


def test_learned_with_its_last_tricks_solved_is_named_by_what_differs():
    """``learned:solve=N`` plays its last N tricks as pimc of ``samples`` worlds (8 unless said), reading the bids."""
    assert parse_policy("learned:solve=0").label == "learned"
    assert parse_policy("learned:solve=3").label == "learned:solve=3"
    model = default_model_path(LUDOTEKA)
    solving = parse_policy(f"learned:samples=32,solve=4,model={model}")
    assert solving.label == f"learned:samples=32,solve=4,model={model}" and (solving.samples, solving.solve) == (32, 4)
    assert solving.sharpness == parse_policy("pimc").sharpness and solving.uses_model
    with pytest.raises(
        PochaError, match="^play: learned solve must be a whole number of tricks from 0 to 20, not 'x'$"
    ):
        parse_policy("learned:solve=x")
    with pytest.raises(PochaError, match="^play: learned samples must be a whole number from 1 to 10,000, not '0'$"):
        parse_policy("learned:solve=2,samples=0")
    with pytest.raises(
        PochaError, match="^play: learned samples=N are the worlds of its solved last tricks: give solve"
    ):
        parse_policy("learned:samples=16")


def test_a_bad_model_is_one_line_at_the_command_line_before_any_work(tmp_path):
    from pocha.cli import app

    (tmp_path / "bad.npz").write_text("x")
    (tmp_path / "cut.npz").write_bytes(Path(default_model_path(LUDOTEKA)).read_bytes()[:300])  # not a whole zip
    for name, said in (
        ("bad.npz", "not a pocha play model"),
        ("cut.npz", "not a pocha play model"),
        ("missing.npz", "no model file"),
    ):
        result = CliRunner().invoke(app, ["simulate", "-n", "10", "--play", f"learned:model={tmp_path / name}"])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert said in result.output.splitlines()[0]  # first: before any progress or compile notice


def test_every_table_has_a_default_model():
    for preset, players in (("ludoteka", 4), ("oh-hell", 3), ("polish", 4), ("turkish", 5), ("oh-hell", 7)):
        rules = make_rules(preset, players)
        assert is_play_model_file(default_model_path(rules))
    assert "ludoteka-4" in default_model_path(LUDOTEKA)


def test_training_resumes_and_gives_the_same_model_from_the_same_seed(tmp_path):
    """A run stopped and resumed ends with the model of a run never stopped; round 2 is the student's play."""
    plan = PlayTraining(
        rules=make_rules(players=3),
        deals=20,
        rounds=2,
        teacher=TEACHER,
        sizes=(2, 3),
        chunk=2,
        widths=(8, 4),
        epochs=20,
    )
    said: list[str] = []
    whole = train_play(plan, tmp_path / "whole", told=TrainingProgress(say=said.append))
    fitting = said.index("round 1: fitting the model to the positions of 1 round")  # the fit counts no deals
    assert said[fitting + 1].startswith("round 1: fitted in ")
    seen = []

    def stop_after_three(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train_play(plan, tmp_path / "stopped", told=TrainingProgress(deals=stop_after_three))
    assert len(list((tmp_path / "stopped").rglob("chunk-*.npz"))) == 3
    resumed = train_play(plan, tmp_path / "stopped")
    for a, b in zip(whole.layers, resumed.layers, strict=True):
        assert np.array_equal(a, b)
    assert whole.meta["rounds"] == 2 and whole.meta["held_out"]["positions"] > 0
    first = np.load(chunk_file(tmp_path / "whole", 0, 1))["masks"]
    second = np.load(chunk_file(tmp_path / "whole", 1, 1))["masks"]
    assert first.shape != second.shape or not np.array_equal(first, second)  # other deals, other play
    for other in (replace(plan, deals=9), replace(plan, epochs=21)):
        with pytest.raises(PochaError, match="another plan"):
            train_play(other, tmp_path / "whole")
    recorded = json.loads((tmp_path / "whole" / "plan.json").read_text())
    assert recorded["deals"] == 20 and recorded["epochs"] == whole.meta["plan"]["epochs"] == 20
    with pytest.raises(PochaError, match="passes must each be at least 1"):
        replace(plan, epochs=0)


def test_the_model_reads_what_its_meta_says(shipped):
    assert tuple(shipped.meta["state_features"]) == STATE_FEATURES
    assert shipped.meta["teacher"] == "pimc:samples=64,solve=4" and shipped.meta["held_out"]["agreement"] > 0.5
    # learned with today's network and fit, so the documented command gives it again
    assert shipped.widths == play_models.WIDTHS and shipped.meta["plan"]["epochs"] == play_models.EPOCHS


def test_a_model_serves_the_tables_of_its_play_rule_and_scoring(tmp_path, monkeypatch):
    monkeypatch.setenv("POCHA_CACHE_DIR", str(tmp_path))
    learned_at = load_model(nearest_model_path(LUDOTEKA)).rules
    for served in (make_rules(players=6), make_rules(deck="french"), make_rules("polish", 4)):
        assert serves(learned_at, served) and missing_model(served) is None
    for other in (make_rules("turkish", 4), make_rules(players=4, scoring=SCORINGS["exact-only"][0])):
        assert not serves(learned_at, other)
        assert missing_model(other) == first_use_path(other) and default_model_path(other) == nearest_model_path(other)


def test_a_model_learned_on_first_use_is_kept_by_its_features_and_network(monkeypatch):
    """One learned by a pocha that read other features (it would be refused), or fitted another network: not found."""
    rules = make_rules("turkish", 4)
    kept = first_use_path(rules)
    for name, other in (("WIDTHS", (32, 8)), ("EPOCHS", 25)):
        monkeypatch.setattr(play_models, name, other)
        assert first_use_path(rules) != kept
        monkeypatch.undo()
    monkeypatch.setattr(play_models, "CARD_FEATURES", CARD_FEATURES[:-1])
    assert first_use_path(rules) != kept


def test_a_run_learns_on_first_use_the_model_no_shipped_one_serves(tmp_path, monkeypatch):
    """Once, into the cache, then played; not asked, or without scikit-learn, the nearest shipped model plays."""
    from pocha.cli import app

    monkeypatch.setenv("POCHA_CACHE_DIR", str(tmp_path))
    for key, value in (("teacher", "pimc:samples=2,solve=1"), ("deals", 2), ("rounds", 1)):
        monkeypatch.setitem(FIRST_USE, key, value)  # a tiny plan: the test times the steps, not the model
    run = ["simulate", "--preset", "turkish", "-k", "2", "-n", "5", "-s", "expected"]
    rules, runner = make_rules("turkish", 4), CliRunner()
    refused = runner.invoke(app, [*run, "--no-learn-tables"])
    assert refused.exit_code == 0 and "the nearest, ludoteka-4, plays (--learn-tables learns one" in refused.output
    assert not (tmp_path / "models").exists()
    real_find_spec = importlib.util.find_spec
    with monkeypatch.context() as without:
        without.setattr(importlib.util, "find_spec", lambda name: None if name == "sklearn" else real_find_spec(name))
        lacking = runner.invoke(app, run)
    assert "pip install 'pocha-simulator[train]' to learn one" in lacking.output
    first = runner.invoke(app, run)
    assert first.exit_code == 0 and "learning one for these rules from pimc:samples=2,solve=1" in first.output
    assert is_play_model_file(first_use_path(rules)) and default_model_path(rules) == str(first_use_path(rules))
    assert [path.name for path in first_use_path(rules).parent.iterdir()] == [first_use_path(rules).name]
    reading = load_model(str(first_use_path(rules))).reading  # none held out: read on the positions it was fitted to
    assert np.isfinite(reading).all() and runner.invoke(app, [*run, "--play", "pimc:infer=play"]).exit_code == 0
    again = runner.invoke(app, run)
    assert "learning" not in again.output and again.stdout == first.stdout


def test_a_model_with_no_positions_held_out_says_so_not_nan(shipped):
    """The walk of issue 46: train-play --deals 20 said "held out: 0 positions, ... nan% of the time, ... loss nan"."""
    empty = {"positions": 0, "agreement": float("nan"), "regret": float("nan"), "loss": float("nan")}
    said = PlayModel(shipped.layers, {**shipped.meta, "held_out": empty}).held_out_text
    assert "nan" not in said and said.startswith("no positions")
    assert shipped.held_out_text.split(" positions")[0].replace(",", "").isdigit()


@pytest.mark.parametrize("teacher", ["greedy", "pimc:exhaustive=1", "pimc:rollout=learned", "pimc:infer=play"])
def test_a_teacher_other_than_pimc_with_greedy_play_outs_is_refused(teacher):
    """A teacher labels with greedy play-outs, reading the bids only: by the model, it would learn from itself."""
    with pytest.raises(
        PochaError, match=f"^train-play: the teacher must be pimc .* read from the bids only, not '{teacher}'$"
    ):
        PlayTraining(rules=make_rules(players=4), teacher=teacher)
