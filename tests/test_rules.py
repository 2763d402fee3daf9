import numpy as np
import pytest

from pocha.errors import PochaError
from pocha.game.presets import PRESETS, make_rules
from pocha.game.rules import Rules, parse_sizes
from pocha.game.scoring import SCORINGS, Scoring, parse_scoring


@pytest.mark.parametrize(
    ("players", "size", "full"),
    [(3, 36, 12), (4, 40, 10), (5, 40, 8), (6, 36, 6), (8, 48, 6)],
)
def test_default_deck_by_player_count(players, size, full):
    rules = make_rules("ludoteka", players)
    assert (rules.deck_size, rules.full_deal) == (size, full)


def test_three_and_six_players_drop_the_twos_and_eight_players_add_eights_and_nines():
    assert 2 not in make_rules(players=3).ranks
    assert 2 not in make_rules(players=6).ranks
    assert {8, 9} <= set(make_rules(players=8).ranks)
    assert make_rules(players=6, deck="48").full_deal == 8  # the 48-card reading of text 003 is one option away


@pytest.mark.parametrize("players", [2, 7, 9])
def test_counts_without_a_default_deck_are_refused(players):
    with pytest.raises(PochaError, match="no deck for"):
        make_rules("ludoteka", players)


@pytest.mark.parametrize("preset", ["italian", "portuguese", "turkish"])
@pytest.mark.parametrize(
    ("players", "size", "full"),
    [(2, 40, 20), (3, 36, 12), (4, 40, 10), (5, 40, 8), (6, 36, 6), (7, 28, 4), (8, 40, 5), (9, 36, 4), (10, 40, 4)],
)
def test_the_forty_card_texts_serve_two_to_ten_players(preset, players, size, full):
    """Texts 000, 001, 002 know only the 40 cards: drop whole ranks, weakest first, until the deal splits evenly."""
    rules = make_rules(preset, players)
    assert (rules.deck_size, rules.full_deal, rules.full_deal * players) == (size, full, size)
    assert not {8, 9} & set(rules.ranks)  # never a 48-card deck
    weakest_first = make_rules(preset, 4).ranks[::-1]
    assert set(make_rules(preset, 4).ranks) - set(rules.ranks) == set(weakest_first[: (40 - size) // 4])


def test_twenty_eight_cards_drop_the_weakest_ranks_of_the_order():
    assert make_rules("italian", 7).ranks == (1, 12, 11, 10, 7, 6, 5)  # natural: 2, 3, 4 go
    assert make_rules("portuguese", 7).ranks == (1, 3, 12, 11, 10, 7, 6)  # ace-three: 2, 4, 5 go


def test_the_portuguese_rank_order_has_its_other_reading_one_option_away():
    assert make_rules("portuguese").ranks == (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
    assert make_rules("portuguese", rank_order="natural").ranks == make_rules("italian").ranks
    with pytest.raises(PochaError, match="rank-order: unknown 'bridge'"):
        make_rules("portuguese", rank_order="bridge")


def test_every_preset_names_its_text_in_words_and_its_readings():
    for preset in PRESETS.values():
        assert "text 00" in preset.text or "no text" in preset.text
    assert any("três" in reading for reading in PRESETS["portuguese"].readings)
    assert any("montando" in reading for reading in PRESETS["turkish"].readings)
    assert any("pocha-trump-lead-free" in reading for reading in PRESETS["ludoteka"].readings)
    for name in ("italian", "portuguese"):  # texts 000 and 001 state the duty to beat without exception
        assert PRESETS[name].play_rule == "pocha"
        assert any("--play-rule pocha-always-beat" in reading for reading in PRESETS[name].readings)
    for name in ("ludoteka", "polish", "italian", "turkish"):  # texts 003, 004, 000, 002
        assert any("--full-deals n+1" in reading for reading in PRESETS[name].readings)
        assert any("--tie-break tied" in reading for reading in PRESETS[name].readings)
    assert any("--tie-break all" in reading for reading in PRESETS["portuguese"].readings)
    assert PRESETS["portuguese"].tie_break == "one" and make_rules("portuguese").tie_break == "one"
    assert make_rules("ludoteka").tie_break == "all"


@pytest.mark.parametrize(("size", "missing"), [(32, {8, 9, 2, 4}), (20, {8, 9, 2, 4, 5, 6, 7})])
def test_smaller_decks_leave_out_the_weakest_ranks(size, missing):
    rules = make_rules("ludoteka", 4, deck=str(size))
    assert rules.deck_size == size and set(range(1, 13)) - set(rules.ranks) == missing


def test_explicit_deck_allows_other_counts():
    rules = make_rules("ludoteka", 7, deck="40")
    assert rules.full_deal == 5  # 35 of 40 cards: the deck does not split evenly, hands stay below a full deal


def test_preset_player_counts():
    with pytest.raises(PochaError, match="polish"):
        make_rules("polish", 5)
    assert make_rules("polish", 3).deck_size == 36


def test_a_deck_too_small_for_the_table_is_refused():
    with pytest.raises(PochaError, match="does not give"):
        make_rules("ludoteka", 9, deck="1,3")


@pytest.mark.parametrize("deck", ["1,1,3", "1,13", "fifty", "44", "42", "0"])
def test_bad_decks_are_refused(deck):
    with pytest.raises(PochaError):
        make_rules("ludoteka", 4, deck=deck)


def test_presets_as_in_rules_md():
    table = {
        "ludoteka": ("spanish", "ace-three", "pocha", "except-one-card"),
        "polish": ("spanish", "ace-three", "pocha", "except-one-card"),
        "portuguese": ("spanish", "ace-three", "pocha", "always"),
        "italian": ("spanish", "natural", "pocha", "always"),
        "turkish": ("spanish", "natural", "trump", "always"),
        "oh-hell": ("french", "natural", "follow", "always"),
    }
    assert set(PRESETS) == set(table)
    for name, (pack, order, play, hook) in table.items():
        preset = PRESETS[name]
        assert (preset.pack, preset.rank_order, preset.play_rule, preset.hook) == (pack, order, play, hook)
    assert PRESETS["oh-hell"].decks == {players: 52 for players in range(3, 8)}
    assert {name for name, preset in PRESETS.items() if preset.full_deal_trump == "none"} == {"oh-hell"}
    assert not make_rules("oh-hell", 4).has_trump(13) and make_rules("oh-hell", 4).has_trump(12)
    assert make_rules("italian").ranks == (1, 12, 11, 10, 7, 6, 5, 4, 3, 2)
    assert make_rules("ludoteka").ranks == (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)


def test_single_options_override_the_preset():
    rules = make_rules(
        "italian", 4, hook="never", play_rule="follow", schedule="short", scoring=parse_scoring("20,2,-10")
    )
    assert (rules.hook, rules.play_rule, rules.schedule) == ("never", "follow", "short")
    assert rules.scoring == Scoring(exact=20, per_trick=2, miss_per_trick=-10)
    assert rules.ranks == make_rules("italian", 4).ranks


@pytest.mark.parametrize(
    ("field", "value"), [("play_rule", "bridge"), ("hook", "sometimes"), ("schedule", "long"), ("tie_break", "coin")]
)
def test_unknown_options_name_the_field(field, value):
    with pytest.raises(PochaError, match=field.replace("_", "-")):
        make_rules("ludoteka", 4, **{field: value})


def test_rules_written_before_the_play_rule_was_named_so_still_read():
    old = make_rules("turkish", 5).to_dict()
    old["play"] = old.pop("play_rule")
    assert Rules.from_dict(old) == make_rules("turkish", 5)


def test_to_dict_round_trips_and_holds_the_trace_fields():
    rules = make_rules("turkish", 5, hook="never")
    data = rules.to_dict()
    assert {"ranks", "pack", "play_rule", "hook", "scoring"} <= set(data)
    assert data["scoring"] == {"exact": 10, "per_trick": 5, "per_trick_missed": 0, "miss_per_trick": -5}
    assert Rules.from_dict(data) == rules
    with pytest.raises(PochaError, match="unknown field"):
        Rules.from_dict({**data, "jokers": 2})


def test_a_full_deal_may_be_played_without_trump():
    assert all(make_rules(name).full_deal_trump == "dealer-card" for name in PRESETS if name != "oh-hell")
    rules = make_rules(players=4, full_deal_trump="none")
    assert [rules.has_trump(cards) for cards in (1, 9, 10)] == [True, True, False]
    assert make_rules(players=4).has_trump(10)
    assert make_rules(players=7, deck="40", full_deal_trump="none").has_trump(5)  # 35 of 40 cards: one is turned
    with pytest.raises(PochaError, match="full-deal-trump: unknown rule 'joker'; accepted: dealer-card, none"):
        make_rules(full_deal_trump="joker")


def test_rules_written_before_the_full_deal_could_go_without_trump_still_read():
    old = make_rules(players=4).to_dict()
    assert old.pop("full_deal_trump") == "dealer-card" and Rules.from_dict(old) == make_rules(players=4)
    rules = make_rules(players=4, full_deal_trump="none")
    assert rules.to_dict()["full_deal_trump"] == "none" and Rules.from_dict(rules.to_dict()) == rules


def test_schedules():
    rules = make_rules(players=4)
    assert rules.hand_sizes() == [*range(1, 10), 10, 10, 10, 10, *range(9, 0, -1)]
    assert len(rules.hand_sizes()) == 22
    assert make_rules(players=4, schedule="short").hand_sizes() == list(range(1, 11))
    assert make_rules(players=3, schedule="full-only").hand_sizes() == [12, 12, 12]
    assert make_rules(players=3, schedule="up").hand_sizes() == [*range(1, 12), 12, 12, 12]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_climbing_schedules_play_n_or_n_plus_one_full_deals(players):
    """ "As many hands with the whole deck as there are players": the climb's arrival among them (n), or before them."""
    top = make_rules(players=players).full_deal
    rising = list(range(1, top))
    assert make_rules(players=players).hand_sizes() == rising + [top] * players + rising[::-1]
    assert make_rules(players=players, full_deals="n+1").hand_sizes() == rising + [top] * (players + 1) + rising[::-1]
    assert make_rules(players=players, schedule="up", full_deals="n").hand_sizes() == rising + [top] * players
    assert make_rules(players=players, schedule="up", full_deals="n+1").hand_sizes() == rising + [top] * (players + 1)


def test_four_players_play_five_full_deals_by_the_other_reading():
    rules = make_rules(players=4, full_deals="n+1")
    assert rules.hand_sizes() == [*range(1, 10), 10, 10, 10, 10, 10, *range(9, 0, -1)] and len(rules.hand_sizes()) == 23


@pytest.mark.parametrize("schedule", ["short", "full-only", "1-3,10"])
def test_n_plus_one_full_deals_is_refused_without_a_climbing_schedule(schedule):
    with pytest.raises(PochaError) as error:
        make_rules(players=4, schedule=schedule, full_deals="n+1")
    message = str(error.value)
    assert message.startswith("full-deals: n+1 counts the full deals of the full and up schedules, not of '")
    assert message.endswith("accepted with it: n") and "\n" not in message
    assert (
        make_rules(players=4, schedule=schedule, full_deals="n").hand_sizes()
        == make_rules(players=4, schedule=schedule).hand_sizes()
    )
    with pytest.raises(PochaError, match=r"full-deals: unknown rule 'n\+2'; did you mean 'n\+1'\? accepted: n, n\+1"):
        make_rules(full_deals="n+2")


def test_rules_written_before_the_full_deals_were_counted_still_read():
    old = make_rules(players=4).to_dict()
    assert old.pop("full_deals") == "n" and Rules.from_dict(old) == make_rules(players=4)
    rules = make_rules(players=4, schedule="up", full_deals="n+1")
    assert rules.to_dict()["full_deals"] == "n+1" and Rules.from_dict(rules.to_dict()) == rules


def test_eight_players_may_play_the_forty_card_deck_of_text_003():
    """ "By default the 40-card deck": at 8 players 5 cards each, the 48-card reading one option away."""
    assert make_rules("ludoteka", 8).deck_size == 48 and make_rules("ludoteka", 8).full_deal == 6
    rules = make_rules("ludoteka", 8, deck="40")
    assert (rules.deck_size, rules.full_deal, rules.full_deal * rules.players) == (40, 5, 40)
    assert rules.ranks == make_rules("ludoteka", 4).ranks
    assert any("--deck 40" in reading for reading in PRESETS["ludoteka"].readings)


def test_a_schedule_can_be_the_hand_sizes_agreed_beforehand():
    rules = make_rules(players=4, schedule="1-3,10,10,2")
    assert rules.schedule == (1, 2, 3, 10, 10, 2) and rules.hand_sizes() == [1, 2, 3, 10, 10, 2]
    assert Rules.from_dict(rules.to_dict()) == rules and rules.to_dict()["schedule"] == [1, 2, 3, 10, 10, 2]
    for bad, message in (("1,11", "schedule: 11 is not a hand size"), ("1,x", "not hand sizes"), ("", "unknown")):
        with pytest.raises(PochaError, match=message):
            make_rules(players=4, schedule=bad or "nonsense")


def test_hand_sizes_as_lists_and_ranges():
    assert parse_sizes("4,7,10", "cards") == [4, 7, 10]
    assert parse_sizes("1-5", "cards") == [1, 2, 3, 4, 5]
    assert parse_sizes("1-3, 9", "cards") == [1, 2, 3, 9]
    with pytest.raises(PochaError, match="'4-' is not hand sizes"):
        parse_sizes("4-", "cards")
    with pytest.raises(PochaError, match="the range '5-2' runs backwards; write 2-5"):
        parse_sizes("1,5-2", "cards")


@pytest.mark.parametrize(
    ("hook", "one_card", "more_cards"),
    [("except-one-card", False, True), ("always", True, True), ("never", False, False)],
)
def test_when_the_hook_applies(hook, one_card, more_cards):
    rules = make_rules(hook=hook)
    assert (rules.hook_applies(1), rules.hook_applies(5)) == (one_card, more_cards)


def test_hand_size_checks():
    rules = make_rules(players=4)
    rules.check_cards(10)
    for cards in (0, 11):
        with pytest.raises(PochaError, match="1..10"):
            rules.check_cards(cards)


# (bid, tricks won) -> points under each named system, worked out by hand
HAND_SCORED = {
    "pocha": {(0, 0): 10, (3, 3): 25, (2, 4): -10, (4, 1): -15, (1, 0): -5},
    "tricks+10": {(0, 0): 10, (3, 3): 13, (2, 4): 4, (4, 1): 1, (1, 0): 0},  # a missed bid scores its tricks
    "exact-only": {(0, 0): 10, (3, 3): 13, (2, 4): 0, (4, 1): 0, (1, 0): 0},
    "bonus-only": {(0, 0): 10, (3, 3): 10, (2, 4): 0, (4, 1): 0, (1, 0): 0},
    "openspiel-penalty": {(0, 0): 10, (3, 3): 13, (2, 4): -2, (4, 1): -3, (1, 0): -1},
}


def test_every_named_scoring_system_is_scored_by_hand():
    assert set(HAND_SCORED) == set(SCORINGS)
    for name, scored in HAND_SCORED.items():
        scoring = parse_scoring(name)
        assert scoring.name == scoring.label == name
        for (bid, won), points in scored.items():
            assert scoring.points(bid, won) == points, (name, bid, won)
            assert scoring.points_grid(5)[bid, won] == points, (name, bid, won)


def test_the_points_grid_is_the_formula():
    for scoring in [system for system, _ in SCORINGS.values()] + [parse_scoring("7,-2,3,-4")]:
        grid = scoring.points_grid(6)
        assert grid.shape == (7, 7) and grid.dtype == np.int64
        for bid in range(7):
            for won in range(7):
                if bid == won:
                    assert grid[bid, won] == scoring.exact + scoring.per_trick * won
                else:
                    assert grid[bid, won] == scoring.per_trick_missed * won + scoring.miss_per_trick * abs(won - bid)


def test_scoring_is_a_name_or_three_or_four_numbers():
    assert parse_scoring("pocha") == Scoring() == parse_scoring("10,5,-5") == parse_scoring("10,5,0,-5")
    assert parse_scoring("tricks+10") == parse_scoring("10,1,1,0") == parse_scoring(" Tricks+10")
    assert parse_scoring("20,2,-10") == Scoring(exact=20, per_trick=2, per_trick_missed=0, miss_per_trick=-10)
    assert parse_scoring("20, 2, 3, -10") == Scoring(exact=20, per_trick=2, per_trick_missed=3, miss_per_trick=-10)
    for scoring in (parse_scoring("20,2,-10"), parse_scoring("20,2,3,-10"), *(s for s, _ in SCORINGS.values())):
        assert parse_scoring(scoring.spec) == scoring  # the numbers shown are the numbers to type
    assert parse_scoring("20,2,-10").spec == "20,2,-10" and parse_scoring("20,2,3,-10").spec == "20,2,3,-10"
    assert parse_scoring("20,2,-10").name is None and parse_scoring("20,2,-10").label == "20,2,-10"
    assert parse_scoring("1,0,0,-1").in_words() == "exact 1; missed -1 per trick off"
    assert parse_scoring("10,1,1,-2").in_words() == "exact 10 + 1 per trick; missed 1 per trick taken, -2 per trick off"


@pytest.mark.parametrize("text", ["10,5", "a,b,c", "10;5;-5", "1,2,3,4,5", "tricks", "10,5,-5.5", ""])
def test_bad_scoring_text(text):
    with pytest.raises(PochaError) as error:
        parse_scoring(text)
    message = str(error.value)
    assert message.startswith(f"scoring: '{text}' is neither a name") and "\n" not in message
    assert all(name in message for name in SCORINGS) and "E,T,M" in message and "E,T,W,M" in message


def test_scoring_fields_are_given_by_name():
    with pytest.raises(TypeError):
        Scoring(20, 2, -10)  # three numbers in a row: which is which?
    with pytest.raises(PochaError, match="scoring.per_trick_missed: must be a whole number"):
        Scoring(per_trick_missed=0.5)


def test_a_scoring_that_pays_for_missing_is_refused():
    with pytest.raises(PochaError, match="would pay a missed bid 1 point per trick off"):
        Scoring(miss_per_trick=1)
    lopsided = Scoring(exact=0, per_trick=0, per_trick_missed=5, miss_per_trick=0)  # a made bid scores nothing
    with pytest.raises(PochaError, match="a bid of 0 that takes 1 trick scores 5, more than the exact bid of 1"):
        make_rules(scoring=lopsided)
    for scoring, _ in SCORINGS.values():
        for preset in PRESETS:
            for players in PRESETS[preset].decks:
                make_rules(preset, players, scoring=scoring)  # every named scoring, at every table


def test_rules_written_before_tricks_of_missed_bids_counted_still_read():
    old = {**make_rules().to_dict(), "scoring": {"exact": 10, "per_trick": 5, "miss_per_trick": -5}}  # pocha-trace/2
    assert Rules.from_dict(old) == make_rules()
    counted = make_rules(scoring=parse_scoring("tricks+10"))
    assert counted.to_dict()["scoring"] == {"exact": 10, "per_trick": 1, "per_trick_missed": 1, "miss_per_trick": 0}
    assert Rules.from_dict(counted.to_dict()) == counted
