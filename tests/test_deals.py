"""Every dealing command under deal conditions (``--hand``, ``--trump``, ``--where``), through the CLI and the API.

The evidence that the conditioned figures are the right ones: an exact chance at one card, the same
statistic from a plain run's trace filtered by hand, and ``pocha advise`` for the same hand and model.
The record states the conditions; chunks and threads change no byte; a mistake is one line before
any work; a run without conditions is the run it always was (tests/test_golden.py).
"""

import io
import json
import math
import shlex
from math import comb

import pandas as pd
import pytest
from typer.testing import CliRunner

import pocha
from pocha.cli import app
from pocha.errors import PochaError
from pocha.options import DealOptions

runner = CliRunner()


def invoke(command: str):
    """Run the CLI on one command line, split as a shell splits it."""
    return runner.invoke(app, shlex.split(command))


def results(command: str) -> pd.DataFrame:
    """The results table of a command run with ``--format csv``."""
    result = invoke(f"{command} --format csv")
    assert result.exit_code == 0, result.output
    return pd.read_csv(io.StringIO(result.stdout), dtype={"position": str, "cards": str})


def row(frame: pd.DataFrame, strategy: str, position: str, cards: str) -> pd.Series:
    """One row of a results table."""
    return frame[(frame.strategy == strategy) & (frame.position == position) & (frame.cards == cards)].iloc[0]


def test_the_first_bidders_ace_takes_the_trick_as_often_as_counted():
    """At one card, position 1 leads 1C (the ace of cups, the top card of its suit) and the rest is forced.

    It wins when cups are trumps (9 of the 39 cards left could be turned), or else when none of the
    other three holds a trump: 9 of the 38 unseen cards are trumps, so C(29, 3) / C(38, 3).
    """
    exact = 9 / 39 + 30 / 39 * comb(29, 3) / comb(38, 3)
    deals = 20_000
    first = row(results(f"simulate -s expected --cards 1 -n {deals} --hand 1=1C --threads 1"), "expected", "1", "1")
    assert abs(first.mean_won - exact) < 4 * math.sqrt(exact * (1 - exact) / deals), (first.mean_won, exact)


def test_a_condition_gives_what_a_plain_runs_trace_filtered_gives(tmp_path):
    """The dealer's points at 6 cards when it holds three trumps or more: a conditioned run, and a plain run's
    trace with the other deals left out. Both are the mean over the same conditional law of deals."""
    trace = tmp_path / "plain.jsonl"
    plain = invoke(f"simulate -s expected --cards 6 -n 6000 --threads 1 --trace {trace}")
    assert plain.exit_code == 0, plain.output
    _, *deals = (json.loads(line) for line in trace.read_text().splitlines())
    points = [
        deal["points"][deal["dealer"]]
        for deal in deals
        if sum(card.endswith(deal["trump"]) for card in deal["hands"][deal["dealer"]]) >= 3
    ]
    filtered = pd.Series(points)
    dealer = row(
        results('simulate -s expected --cards 6 -n 3000 --threads 1 --where "trumps(dealer) >= 3"'),
        "expected",
        "4",
        "6",
    )
    error = math.hypot(filtered.std() / math.sqrt(len(filtered)), dealer.se_points)
    assert 500 < len(filtered) < 1200  # about 12.8% of the deals
    assert abs(filtered.mean() - dealer.mean_points) < 4 * error, (filtered.mean(), dealer.mean_points, error)


@pytest.mark.parametrize("play", ["greedy", "learned"])
def test_advise_for_a_hand_is_simulate_with_that_hand(play):
    """``pocha advise`` at position 0 (the first bidder), the others assumed to bid ``expected``, every seat
    playing ``play``, against ``pocha simulate`` with every seat bidding ``expected`` and playing ``play``, the
    hand given to position 1 and the same turned card. Advice deals the unseen cards at random to the others,
    who then bid by ``expected`` after the first bid, and plays every card as simulate's seats do: the law
    simulate deals and plays by. So advice's figures for the bid ``expected`` makes with this hand (simulate's
    mean bid at position 1, always the same) are simulate's figures at position 1, within their intervals."""
    hand, trump, deals = "1O 5C 12E 2B 7E", "4O", 4000
    first = row(
        results(f'simulate -s expected --cards 5 -n {deals} --hand "1={hand}" --trump {trump} --play {play}'),
        "expected",
        "1",
        "5",
    )
    bid = int(first.mean_bid)
    assert bid == first.mean_bid
    advised = invoke(
        f'advise --hand "{hand}" --trump {trump} --position 0 --assume expected --samples {deals} --play {play}'
        " --format json"
    )
    assert advised.exit_code == 0, advised.output
    advice = next(b for b in json.loads(advised.stdout)["bids"] if b["bid"] == bid)
    points_error = math.hypot(advice["error"] / 1.96, first.se_points)
    assert abs(advice["expected_points"] - first.mean_points) < 4 * points_error
    exact_error = math.hypot(*(math.sqrt(p * (1 - p) / deals) for p in (advice["exact_chance"], first.exact_rate)))
    assert abs(advice["exact_chance"] - first.exact_rate) < 4 * exact_error


@pytest.mark.parametrize(
    "command",
    [
        'simulate --cards 5 -n 1500 --hand "1=1O" --where "trumps(dealer) >= 2"',
        'compare expected aces-trumps --cards 4,7 -n 700 --hand "seat1=3C" --where "hcp(2) >= 4" --trump 7O',
        'game -g 30 --where "voids(dealer) >= 1"',
    ],
)
def test_chunks_and_threads_change_no_byte(command, tmp_path):
    outputs = set()
    for threads, chunk in ((1, 200), (2, 200), (2, 64), (1, 4096)):
        result = invoke(f"{command} --threads {threads} --chunk-size {chunk} --format csv")
        assert result.exit_code == 0, result.output
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_the_record_trace_heading_and_report_state_the_conditions(tmp_path):
    out, trace = tmp_path / "run", tmp_path / "deals.jsonl"
    deals = '--hand "1=1O" --trump 7O --where "trumps(dealer) >= 1"'
    result = invoke(f"simulate --cards 3,5 -n 300 {deals} --out {out} --trace {trace}")
    assert result.exit_code == 0, result.output
    assert "where: the share of deals that meet the conditions (each deal is dealt until it does): " in result.stderr
    said = "deals: position 1 holds 1O; trump 7O; where trumps(dealer) >= 1 (met by "
    assert said in result.stdout
    record = json.loads((out / "run.json").read_text())
    conditions = record["conditions"]
    assert conditions["hands"] == ["1=1O"] and conditions["trump"] == "7O"
    assert conditions["where"] == ["trumps(dealer) >= 1"] and set(conditions["acceptance"]) == {"3", "5"}
    assert 0 < conditions["acceptance"]["3"] < conditions["acceptance"]["5"] < 1
    header, *deals = (json.loads(line) for line in trace.read_text().splitlines())
    assert header["conditions"] == conditions
    assert all("1O" in deal["hands"][(deal["dealer"] + 1) % 4] and deal["trump_card"] == "7O" for deal in deals)
    assert all(sum(c.endswith("O") for c in deal["hands"][deal["dealer"]]) >= 1 for deal in deals)
    page, _ = pocha.report(out)
    assert "position 1 holds 1O; trump 7O; where trumps(dealer) &gt;= 1 (met by" in page.read_text()


def test_a_game_deals_the_hands_the_conditions_cannot_meet_freely(tmp_path):
    out, trace = tmp_path / "games", tmp_path / "games.jsonl"
    result = invoke(f'game -g 40 --threads 1 --where "trumps(dealer) >= 3" --out {out} --trace {trace}')
    assert result.exit_code == 0, result.output
    assert (
        "where: the conditions apply to the hands of 3-10 cards; the others are dealt freely: 1-2 cards "
        "(0 of 100,000 deals meet the conditions)"
    ) in result.stderr
    assert "(met by 1.0% of the deals at 3 cards to 68.3% at 10; the hands of 1-2 cards dealt freely)" in result.stdout
    assert set(json.loads((out / "run.json").read_text())["conditions"]["acceptance"]) == {str(k) for k in range(3, 11)}
    _, *deals = (json.loads(line) for line in trace.read_text().splitlines())
    schedule = [deal for deal in deals if deal["hand"] < 22]  # tie-break hands after the schedule are dealt freely
    trumps = [sum(c.endswith(deal["trump"]) for c in deal["hands"][deal["dealer"]]) for deal in schedule]
    assert all(count >= 3 for count, deal in zip(trumps, schedule, strict=True) if deal["cards"] >= 3)
    assert any(count == 0 for count, deal in zip(trumps, schedule, strict=True) if deal["cards"] <= 2)


def test_variants_and_models_deal_under_the_conditions():
    study = invoke('variants ludoteka ludoteka:hook=never -g 40 --threads 1 --where "trumps(1) >= 1" --format json')
    assert study.exit_code == 0, study.output
    run = json.loads(study.stdout)["run"]
    assert [c["where"] for c in run["conditions"]] == [["trumps(1) >= 1"]] * 2 and run["same_deals"] == ["all", "all"]
    assert "variant 'ludoteka:hook=never': where: the share of deals" in study.stderr
    models = invoke('models -k 4 -n 200 --threads 1 --hand "dealer=1O 3O" -m expected -m random')
    assert models.exit_code == 0, models.output
    assert "deals: the dealer holds 1O 3O\n" in models.stdout


def test_the_python_api_takes_them_as_keywords_or_a_value():
    keywords = pocha.simulate("expected", cards=4, deals=200, hands=["dealer=1O"], where="rank(1, 1) >= 1", threads=1)
    value = pocha.simulate(
        "expected", cards=4, deals=200, dealing=DealOptions(hands=("dealer=1O",), where=("rank(1, 1) >= 1",)), threads=1
    )
    assert keywords.record.section.conditions == value.record.section.conditions
    assert keywords.tables["results"].equals(value.tables["results"])
    with pytest.raises(PochaError, match="^hand: position 1 is given 2 cards, more than a hand holds at 1 card"):
        pocha.compare(["expected", "random"], cards=[1, 4], deals=10, hands=["1=1O 3O"])
    plain = pocha.simulate("expected", cards=4, deals=200, threads=1)
    assert "conditions" not in plain.record.to_dict()


READ_MISTAKES = [  # (the options, the line's start): wrong whatever the hand size
    ('--hand "1=1O 3O 1O"', "hand: 1O is given twice; a card is dealt once"),
    ('--hand "2=8O"', "hand: position 2: '8O' is not in this deck"),
    ('--hand "5=1O"', "hand: '5' is not a place at 4 players; a bidding position 1..4 (1 bids first, 4 deals)"),
    ("--trump 13O", "trump: '13O' is not a card"),
    ("--where ./missing.py:fn", "where './missing.py:fn': no file 'missing.py'"),
]
SIZE_MISTAKES = [  # wrong at the hand sizes named (a game deals those hands freely instead)
    ('--cards 2 --hand "1=1O 3O 12O"', "hand: position 1 is given 3 cards, more than a hand holds at 2 cards"),
    ('--hand "dealer=7O" --trump 7O', "trump: 7O is predealt to the dealer, but the turned card is nobody's"),
    ('--cards 2 --where "trumps(dealer) >= 3"', "where: 0 of 100,000 deals of 2 cards meet the conditions"),
]
COMMANDS = ("simulate", "compare expected random", "models", "game")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("args", "message"), READ_MISTAKES + SIZE_MISTAKES)
def test_a_bad_deal_option_is_one_line_and_exit_1(command, args, message, tmp_path, monkeypatch):
    if command == "game" and (args, message) in SIZE_MISTAKES:
        return
    monkeypatch.chdir(tmp_path)
    amount = "-g 10 --out run" if command == "game" else f"--cards 5 -n 10{'' if command == 'models' else ' --out run'}"
    result = invoke(f"{command} {amount} {args}")
    assert result.exit_code == 1, result.output
    assert result.stderr.strip().splitlines() == [result.stderr.strip()], result.stderr
    assert result.stderr.startswith("Error: ") and message in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_bad_condition_points_at_the_place(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke('variants ludoteka -g 40 --out run --where "trumps(1) >= 2 and voids(9) > 0"')
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "Error: variant 'ludoteka': where: a bidding position is 1..4 at 4 players (1 bids first, 4 deals) or "
        "dealer, not '9'",
        "  trumps(1) >= 2 and voids(9) > 0",
        "                           ^",
    ]
    assert list(tmp_path.iterdir()) == []


def test_a_checkpoint_resumes_only_the_conditions_it_saved(tmp_path):
    saved = tmp_path / "run.npz"
    run = 'simulate --cards 5 -n 400 --chunk-size 100 --threads 1 --where "hcp(1) >= 4" --format csv'
    first = invoke(f"{run} --checkpoint {saved}")
    assert first.exit_code == 0, first.output
    assert invoke(f"{run} --resume {saved}").stdout == first.stdout
    other = invoke(f"{run.replace('>= 4', '>= 5')} --resume {saved}")
    assert other.exit_code == 1 and "was saved by a run with other options (conditions: " in other.stderr


@pytest.mark.parametrize("command", ["simulate", "compare", "game", "variants", "models"])
def test_every_dealing_command_takes_the_options(command):
    shown = " ".join(invoke(f"{command} --help").stdout.split())
    assert all(flag in shown for flag in ("--hand PLACE=CARDS", "--trump CARD", "--where EXPR", "docs/deals.md"))
