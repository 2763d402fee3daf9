import importlib.metadata
from types import SimpleNamespace

import numpy as np
import pytest
import reference
from conftest import LUDOTEKA, ids, mask
from hypothesis import given, settings
from hypothesis import strategies as st

from pocha.engine.chunk import deal_chunk
from pocha.errors import PochaError
from pocha.game.presets import PRESETS, make_rules
from pocha.game.rules import Rules, forbidden_bids
from pocha.game.scoring import parse_scoring
from pocha.kernels.codes import NO_TRUMP
from pocha.strategies import catalog, registry
from pocha.strategies.base import BidContext, StrategyError, checked_bids, nearest_legal
from pocha.strategies.heuristics import AcesTrumps, Expected, FairShare, RandomBid, ZeroBid, expected_tricks
from pocha.strategies.montecarlo import MonteCarlo
from pocha.strategies.table import TableStrategy


def context(
    hands: list[str], trump_card: str | None, earlier: list[int] | None = None, rules: Rules = LUDOTEKA
) -> BidContext:
    """The context of the bidder after ``earlier`` bids, one deal per hand in ``hands`` (trump_card None: no trump)."""
    cards = len(ids(hands[0], rules))
    earlier_bids = np.array([earlier or []] * len(hands), np.int64).reshape(len(hands), -1)
    return BidContext(
        rules=rules,
        cards=cards,
        position=earlier_bids.shape[1],
        hands=np.array([mask(h, rules) for h in hands], np.uint64),
        trump_card=np.array((ids(trump_card, rules) if trump_card else [NO_TRUMP]) * len(hands), np.int64),
        earlier_bids=earlier_bids,
        forbidden=forbidden_bids(rules, cards, earlier_bids),
        seed=0,
        numbers=np.arange(len(hands), dtype=np.int64),
    )


def with_forbidden(ctx: BidContext, forbidden: int) -> BidContext:
    ctx.forbidden = np.full(ctx.size, forbidden, np.int64)
    return ctx


DEALER_AFTER = [1, 1, 1]  # three bids of 1 before the dealer: with 5 cards, 2 is forbidden


def test_forbidden_bid_only_for_the_dealer_and_only_if_reachable():
    five = "1O 3O 12O 11O 10O"
    assert context([five], "7C", [1, 1]).forbidden.tolist() == [-1]  # not the dealer
    assert context([five], "7C", DEALER_AFTER).forbidden.tolist() == [2]
    assert context([five], "7C", [3, 2, 1]).forbidden.tolist() == [-1]  # bids already over 5


@pytest.mark.parametrize(("hook", "forbidden"), [("except-one-card", -1), ("always", 1), ("never", -1)])
def test_hook_with_one_card(hook, forbidden):
    rules = make_rules(hook=hook)
    assert context(["1O"], "7C", [0, 0, 0], rules).forbidden.tolist() == [forbidden]


def test_nearest_legal_rounds_half_up_and_steps_toward_the_estimate():
    ctx = context(["1O 3O 12O 11O 10O"] * 5, "7C")
    assert nearest_legal(np.array([0.2, 2.5, 2.49, 7.0, -1.0]), ctx).tolist() == [0, 3, 2, 5, 0]
    with_forbidden(ctx, 2)
    assert nearest_legal(np.array([2.4, 1.6, 2.0, 2.5, 0.0]), ctx).tolist() == [3, 1, 3, 3, 0]
    with_forbidden(ctx, 5)
    assert nearest_legal(np.array([6.0]), context(["1O 3O 12O 11O 10O"], "7C")).tolist() == [5]
    assert nearest_legal(np.array([5.2] * 5), ctx).tolist() == [4] * 5  # no bid above 5: step down


@settings(max_examples=300, deadline=None)
@given(
    estimates=st.lists(st.one_of(st.floats(-3, 13), st.integers(-2, 12).map(lambda n: n + 0.5)), min_size=1),
    cards=st.integers(1, 10),
    forbidden=st.integers(-1, 10),
)
def test_nearest_legal_matches_its_definition(estimates, cards, forbidden):
    ctx = with_forbidden(context(["1O"] * len(estimates), "7C"), forbidden)
    ctx.cards = cards
    expected = [reference.nearest_legal(e, cards, forbidden) for e in estimates]
    assert nearest_legal(np.array(estimates), ctx).tolist() == expected


def test_nearest_legal_takes_one_estimate_per_deal():
    with pytest.raises(ValueError, match="one estimate per deal: 2, not an array of shape \\(3,\\)"):
        nearest_legal(np.zeros(3), context(["1O"] * 2, "7C"))


def test_a_bid_from_a_nan_estimate_is_refused():
    ctx = context(["1O 3O 12O 11O 10O"], "7C")
    with pytest.raises(StrategyError, match="bid -1 in deal 0"):
        checked_bids("nan", SimpleNamespace(bid=lambda ctx: nearest_legal(np.array([np.nan]), ctx)), ctx)


def test_zero():
    assert ZeroBid().bid(context(["1O 3O 12O 11O 10O"], "7C")).tolist() == [0]
    assert ZeroBid().bid(with_forbidden(context(["1O 3O 12O 11O 10O"], "7C"), 0)).tolist() == [1]


def test_fair_share():
    assert FairShare().bid(context(["1O 3O 12O 11O 10O 7O 6O 5O 4O 2O"], "7C")).tolist() == [3]  # 10 / 4 = 2.5
    assert FairShare().bid(context(["1O 3O 12O"], "7C")).tolist() == [1]  # 0.75
    assert FairShare().bid(with_forbidden(context(["1O 3O 12O 11O 10O 7O 6O 5O 4O 2O"], "7C"), 3)).tolist() == [2]


def test_aces_trumps():
    # trumps oros: 1O 3O 7O, and the ace of copas; the ace of trumps counts once
    assert AcesTrumps().bid(context(["1O 3O 7O 1C 5E"], "2O")).tolist() == [4]
    assert AcesTrumps().bid(context(["4C 5E 6B 7C 2E"], "2O")).tolist() == [0]


def test_expected_on_clear_hands():
    full = "1O 3O 12O 11O 10O 7O 6O 5O 4O 2O"
    assert Expected().bid(context([full], "2O")).tolist() == [10]  # every trump in a full deal
    weakest = "2C 2E 2B 4C 4E 4B 5C 5E 5B 6C"
    assert Expected().bid(context([weakest], "2O")).tolist() == [0]
    assert Expected().bid(context(["1O"], "7O")).tolist() == [1]  # a one-card hand with the ace of trumps
    assert Expected().bid(context(["2C"], "7O")).tolist() == [0]


def test_without_trump_no_suit_is_trump_and_every_ace_counts():
    rules = make_rules(players=4, full_deal_trump="none")
    ctx = context(["1O 3O 12O 1C 3C 2E 4E 5B 6B 1B"], None, rules=rules)
    assert ctx.trump.tolist() == [-1] and not ctx.is_trump.any()
    assert ctx.trump_cards.tolist() == [0] and ctx.trump_count.tolist() == [0]
    assert AcesTrumps().bid(ctx).tolist() == [3]  # the aces of oros, copas and bastos
    assert Expected().bid(context(["1O 3O 12O 11O 10O 7O 6O 5O 4O 2O"], None, rules=rules)).tolist() == [10]
    assert Expected().bid(context(["2C 2E 2B 4C 4E 4B 5C 5E 5B 6C"], None, rules=rules)).tolist() == [0]


def test_expected_grows_with_strength_and_bias():
    hands = ["4O 5C 6E 7B 2C", "1O 5C 6E 7B 2C", "1O 3O 6E 7B 2C", "1O 3O 1C 1E 2C"]
    estimates = expected_tricks(context(hands, "2O"))
    assert np.all(np.diff(estimates) > 0)
    low, high = (Expected(bias).bid(context(["1O 3O 6E 7B 2C"], "2O"))[0] for bias in (-1.0, 1.0))
    assert high - low == 2


@pytest.mark.parametrize("full_deal_trump", ["dealer-card", "none"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_expected_kernel_adds_exactly_as_the_numpy_version(preset, full_deal_trump):
    """The estimate is rounded to a bid: the kernel must reproduce the numpy arithmetic to the last bit."""
    for players in range(3, 9):
        try:
            rules = make_rules(preset, players=players, full_deal_trump=full_deal_trump)
        except PochaError:
            continue  # the preset has no deck for this many players
        for cards in sorted({1, 2, rules.full_deal // 2, rules.full_deal}):
            chunk = deal_chunk(rules, 7, cards, np.arange(2000, dtype=np.int64))
            earlier = np.zeros((2000, 1), np.int64)
            ctx = BidContext(
                rules=rules,
                cards=cards,
                position=1,
                hands=chunk.hands[:, 0],
                trump_card=chunk.trump_card,
                earlier_bids=earlier,
                forbidden=forbidden_bids(rules, cards, earlier),
                seed=0,
                numbers=chunk.numbers,
            )
            assert np.array_equal(expected_tricks(ctx), reference.expected_estimate(ctx))


def test_random_is_legal_uniform_and_reproducible():
    ctx = with_forbidden(context(["1O 3O 12O 11O 10O"] * 60_000, "7C"), 2)
    bids = RandomBid().bid(ctx)
    counts = np.bincount(bids, minlength=6)
    assert counts[2] == 0 and bids.min() >= 0 and bids.max() <= 5
    # 5 legal bids, 12,000 each expected; 5 standard deviations of a binomial count
    assert np.all(np.abs(np.delete(counts, 2) - 12_000) < 5 * np.sqrt(60_000 * 0.2 * 0.8))
    again = RandomBid().bid(with_forbidden(context(["1O 3O 12O 11O 10O"] * 60_000, "7C"), 2))
    assert np.array_equal(bids, again)


@pytest.mark.parametrize("forbidden", [-1, 0, 3, 5])
def test_random_bids_are_the_bidders_first_uniforms(forbidden):
    ctx = with_forbidden(context(["1O 3O 12O 11O 10O"] * 2000, "7C", [1, 1, 1]), forbidden)
    uniforms = with_forbidden(context(["1O 3O 12O 11O 10O"] * 2000, "7C", [1, 1, 1]), forbidden).uniform()[:, 0]
    assert RandomBid().bid(ctx).tolist() == [reference.random_bid(u, 5, forbidden) for u in uniforms]


def test_registry_specs_and_labels():
    label, strategy = registry.load("expected:bias=0.30")
    assert label == "expected:bias=0.3" and strategy == Expected(0.3)
    assert registry.load(" aces-trumps ")[0] == "aces-trumps"
    assert registry.load("expected")[1] == Expected()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expectd", "did you mean 'expected'"),
        ("expected:bais=1", "unknown parameter 'bais'; expected takes: bias"),
        ("expected:bias=high", "'high' is not a number"),
        ("montecarlo:samples=many", "'many' is not a whole number"),
        ("expected:bias", "has no value"),
        ("random:x=1", "random takes: none"),
        ("no_such_module:Thing", "cannot import no_such_module"),
        ("sample_strategy:Missing", "has no 'Missing'"),
        (
            "montecarlo:rollout=pimc:rollout=learned",
            r"^strategy 'montecarlo:rollout=pimc:rollout=learned': too many ':'; write NAME or NAME:key=value,"
            r"key=value \(a value is a name with no parameters of its own: rollout=pimc, not rollout=pimc:rollout="
            r"learned\)$",
        ),
    ],
)
def test_registry_errors(spec, message):
    with pytest.raises(PochaError, match=message):
        registry.load(spec)


def test_user_classes_load_by_module_and_class():
    label, strategy = registry.load("sample_strategy:Cautious:level=2")
    assert label == "sample_strategy:Cautious:level=2"
    assert strategy.bid(context(["1O 3O 12O"], "7C")).tolist() == [2]


def test_entry_points_are_read_only_for_unknown_names(monkeypatch):
    calls = []

    def fake_entry_points(group):
        calls.append(group)
        return [importlib.metadata.EntryPoint("cautious", "sample_strategy:Cautious", group)]

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    registry.load("zero")
    assert calls == []
    label, strategy = registry.load("cautious:level=1")
    assert calls == ["pocha.strategies"] and label == "cautious:level=1" and strategy.level == 1


PLUGIN = '''
from dataclasses import dataclass

import numpy as np
from helper import LEVEL

from pocha.strategies.base import BidContext, nearest_legal


@dataclass(frozen=True)
class Steady:
    """Bids the same number whatever the hand."""

    name = "steady"
    level: int = LEVEL

    def bid(self, ctx: BidContext) -> np.ndarray:
        return nearest_legal(np.full(ctx.size, float(self.level)), ctx)
'''


@pytest.fixture
def plugin_file(tmp_path):
    folder = tmp_path / "my bids"
    folder.mkdir()
    (folder / "helper.py").write_text("LEVEL = 1\n")  # a module beside the file, imported by it
    (folder / "steady.py").write_text(PLUGIN)
    return folder / "steady.py"


def test_a_strategy_from_a_file_path_needs_no_pythonpath(plugin_file, monkeypatch):
    monkeypatch.chdir(plugin_file.parent.parent)
    label, strategy = registry.load("my bids/steady.py:Steady:level=2")
    assert label == "my bids/steady.py:Steady:level=2" and strategy.level == 2
    assert strategy.bid(context(["1O 3O 12O"], "7C")).tolist() == [2]
    assert registry.load(f"{plugin_file}:Steady")[1].level == 1  # an absolute path; the default from helper.py
    assert registry.portable("my bids/steady.py:Steady:level=2") == f"{plugin_file}:Steady:level=2"


def test_a_file_path_strategy_runs_through_the_command_line(plugin_file, tmp_path):
    from typer.testing import CliRunner

    from pocha.cli import app

    result = CliRunner().invoke(app, ["compare", f"{plugin_file}:Steady", "zero", "-k", "3", "-n", "50"])
    assert result.exit_code == 0, result.output
    assert "steady.py:Steady" in result.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("missing.py:Steady", "no file 'missing.py'"),
        ("{file}:Nothing", "has no 'Nothing'"),
        ("{broken}:Steady", r"failed to load \(line 1\): SyntaxError"),
        ("{failing}:Steady", "failed to load: ZeroDivisionError"),
        ("os:path", "os:path is not a class or function that makes a strategy"),
        ("json:loads", "json:loads needs s=VALUE"),
        ("collections:Counter", "collections:Counter made an object without a bid"),
        ("{raising}:Steady", "raising.py:Steady failed to make a strategy: ZeroDivisionError"),
        ("{folder}/mybids:X", r"mybids' is not a \.py file; give path/to/file\.py:Class$"),
        ("{folder}/notes.txt:X", r"notes\.txt' is not a \.py file; give path/to/file\.py:Class$"),
        ("{folder}/myfolder:X", r"myfolder' is a folder; give path/to/file\.py:Class$"),
        ("./missing:X", r"no file '\./missing'; give path/to/file\.py:Class$"),
    ],
)
def test_user_code_strategy_errors_are_one_line(text, message, plugin_file):
    broken, failing, raising = (plugin_file.with_name(f"{name}.py") for name in ("broken", "failing", "raising"))
    broken.write_text("def (:\n")
    failing.write_text("1 / 0\n")
    raising.write_text("class Steady:\n    def __init__(self):\n        1 / 0\n")
    folder = plugin_file.parent  # paths that do not end in .py: a file without the suffix, a text file, a folder
    (folder / "mybids").write_text("class X:\n    pass\n")
    (folder / "notes.txt").write_text("notes\n")
    (folder / "myfolder").mkdir()
    given = text.format(file=plugin_file, broken=broken, failing=failing, raising=raising, folder=folder)
    with pytest.raises(PochaError, match=message):
        registry.load(given)


def test_an_at_sign_in_a_strategy_file_path_is_not_a_play(plugin_file, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from pocha.cli import app

    plugin_file.parent.rename(tmp_path / "bids@2")
    monkeypatch.chdir(tmp_path)
    spec = "bids@2/steady.py:Steady:level=0@greedy"
    result = CliRunner().invoke(app, ["simulate", "-s", spec, "-k", "2", "-n", "10"])
    assert result.exit_code == 0, result.output
    assert f"seats 0: {spec}, 1: {spec}" in result.stdout


def test_the_catalogue_lists_every_strategy_with_parameters_and_defaults(monkeypatch):
    group = "pocha.strategies"
    plugins = [
        importlib.metadata.EntryPoint("cautious", "sample_strategy:Cautious", group),
        importlib.metadata.EntryPoint("gone", "no_such_module:Gone", group),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: plugins)
    found = {info.name: info for info in registry.catalogue()}
    assert set(registry.BUILTIN) < set(found)
    assert found["expected"].parameters == (
        ("bias", "float", "0.0", "added to the estimate before rounding: > 0 bids more, < 0 less"),
    )
    assert [p[:3] for p in found["montecarlo"].parameters] == [
        ("samples", "int", "32"),
        ("assume", "Strategy", "table"),
        ("rollout", "str", "'greedy'"),
        ("sharpness", "float", "1.5"),
        ("oversample", "int", "4"),
        ("solve", "int", "0"),
        ("shortlist", "int", "0"),
    ]
    assert found["expected"].description.startswith("Bids the sum over the hand")
    assert (
        found["cautious"].parameters == (("level", "int", "0", ""),) and "sample_strategy" in found["cautious"].source
    )
    assert found["gone"].description.startswith("cannot be loaded: ModuleNotFoundError")


def test_the_catalog_the_help_prints_names_every_shipped_strategy_in_order():
    assert tuple(registry.BUILTIN) == catalog.SHIPPED_NAMES
    assert MonteCarlo().sharpness == catalog.MONTECARLO_SHARPNESS


def test_a_bidder_for_points_bids_by_the_scoring_and_a_bidder_for_tricks_does_not():
    """Under bonus-only every bid that comes true scores 10, so ``table`` (the most expected points under the
    scoring) bids the trick count it finds likeliest; under pocha a made bid scores 5 more a trick, so it bids
    higher on some hands and lower on few. ``expected`` rounds its estimate of the tricks, whatever the scoring.
    """
    bids = {}
    for name in ("pocha", "bonus-only"):
        rules = make_rules(players=4, scoring=parse_scoring(name))  # the shipped greedy table fits both
        chunk = deal_chunk(rules, 3, 5, np.arange(2000, dtype=np.int64))
        none = np.zeros((2000, 0), np.int64)  # the first bidder: no bids to read, no hook
        ctx = BidContext(rules, 5, 0, chunk.hands[:, 0], chunk.trump_card, none, np.full(2000, -1), 0, chunk.numbers)
        bids[name] = {strategy.name: strategy.bid(ctx) for strategy in (TableStrategy(), Expected())}
    pocha, bonus = bids["pocha"]["table"], bids["bonus-only"]["table"]
    assert (pocha > bonus).mean() > 0.05 and (pocha > bonus).sum() > 3 * (pocha < bonus).sum()
    assert np.array_equal(bids["pocha"]["expected"], bids["bonus-only"]["expected"])


def test_the_guide_names_the_fields_of_bidcontext_as_the_class_does():
    """docs/strategies.md's table of fields, and the names it says are worked out on first use."""
    import dataclasses
    import re

    from layout import ROOT

    from pocha.strategies.base import BidContext

    page = (ROOT / "docs" / "strategies.md").read_text()
    table = page.split("| field | type, shape | meaning |")[1].split("\n\n")[0]
    listed = re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE)
    assert listed == [field.name for field in dataclasses.fields(BidContext) if not field.name.startswith("_")]
    worked_out = page.split("Worked out on first use:")[1].split("Two helpers")[0]
    named = re.findall(r"`(\w+)(?:\(\w*\))?`\s+\(", worked_out)
    assert len(named) >= 9 and all(hasattr(BidContext, name) for name in named), named
