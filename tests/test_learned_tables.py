"""`table` without a path: the shipped table where one fits, else one learned on first use into pocha's cache.

The tables learned here are test-sized (``table:deals=N``); the session's cache folder is its own (conftest).
"""

import shlex

import numpy as np
import pytest
from typer.testing import CliRunner

import pocha
from pocha.cli import app
from pocha.engine.backends import Threads
from pocha.engine.policies import parse_policy
from pocha.engine.training import Training, train_table
from pocha.errors import PochaError
from pocha.game.presets import PRESETS, make_rules
from pocha.strategies.montecarlo import MonteCarlo
from pocha.strategies.table import TableStrategy, TrickTable, default_table

pytestmark = pytest.mark.slow  # the heavy kernels (play-outs, pimc, the solver, IS-MCTS): out of the fast tier

TINY = 20  # deals per hand size of a test's learned table


def invoke(command: str):
    return CliRunner().invoke(app, shlex.split(command))


@pytest.mark.parametrize(
    ("preset", "players"), [(preset, players) for preset in sorted(PRESETS) for players in PRESETS[preset].decks]
)
def test_table_bids_under_every_preset_and_player_count(preset, players):
    rules = make_rules(preset, players=players)
    told = []
    result = pocha.simulate(
        f"table:deals={TINY}",
        rules=rules,
        cards=[1, rules.full_deal],
        deals=3,
        messages=told.append,
        learn_tables=True,
        play="greedy",
    )
    assert result.complete and result.to_frame().hands.sum() > 0
    default = default_table(rules, "greedy", TINY)
    said = "".join(line + "\n" for line in told)
    if default.shipped:  # the default rules' 3 to 5 players, which polish and portuguese share
        assert said == "" and preset in ("ludoteka", "polish", "portuguese") and 3 <= players <= 5
    else:
        assert said in (
            "",
            f"table: learning the trick table of these rules under greedy play from {TINY} deals "
            f"per hand size, once (kept in {default.path.parent})\n",
        )  # "": another preset learned it
        assert default.path.is_file()


def test_montecarlo_reading_the_bids_through_table_gets_its_table_too():
    rules = make_rules("turkish", players=3)
    bidder = MonteCarlo(samples=2, assume=TableStrategy(deals=21))
    told = []
    result = pocha.simulate(
        bidder, rules=rules, cards=2, deals=3, messages=told.append, learn_tables=True, play="greedy"
    )
    assert result.complete and any("table: learning the trick table" in line for line in told)
    assert default_table(rules, "greedy", 21).path.is_file()


def test_a_learned_table_is_kept_and_read_again_without_learning(capsys):
    rules = make_rules("turkish", players=5)
    default = default_table(rules, "greedy", 30)
    told = []
    pocha.simulate(
        "table:deals=30", rules=rules, cards=2, deals=5, messages=told.append, learn_tables=True, play="greedy"
    )
    assert told[0].startswith("table: learning the trick table of these rules under greedy play from 30 deals")
    assert capsys.readouterr().err == ""  # the library prints nothing itself: its lines went to messages
    written = default.path.stat().st_mtime_ns
    told.clear()
    again = pocha.simulate(
        "table:deals=30", rules=rules, cards=2, deals=5, messages=told.append, learn_tables=True, play="greedy"
    )
    assert told == [] and default.path.stat().st_mtime_ns == written and again.complete
    assert TrickTable.load(default.path).rules == rules and not list(default.path.parent.glob("*.part"))


def test_a_damaged_or_foreign_table_in_the_cache_is_learned_again():
    rules = make_rules("oh-hell", players=4)
    default = default_table(rules, "greedy", 31)
    default.path.parent.mkdir(parents=True, exist_ok=True)
    default.path.write_bytes(b"half a table")
    said = []
    pocha.simulate(
        "table:deals=31", rules=rules, cards=2, deals=5, messages=said.append, learn_tables=True, play="greedy"
    )
    assert (
        said[0].startswith(f"table: cannot read '{default.path}' as a trick table") and "learning it again" in said[0]
    )
    assert said[1].startswith("table: learning") and TrickTable.load(default.path).fits(rules)
    ludoteka = TrickTable.load(default_table(make_rules(players=4), "greedy").path)  # the play rule differs
    TrickTable(ludoteka.rules, "greedy", np.zeros_like(ludoteka.counts)).save(default.path)
    said.clear()
    pocha.simulate(
        "table:deals=31", rules=rules, cards=2, deals=5, messages=said.append, learn_tables=True, play="greedy"
    )
    assert "holds a table of other rules; learning it again" in said[0]


def test_a_cache_folder_that_cannot_be_made_is_one_clear_line(monkeypatch, tmp_path):
    (tmp_path / "a file").write_text("not a folder")
    monkeypatch.setenv("POCHA_CACHE_DIR", str(tmp_path / "a file"))
    with pytest.raises(PochaError, match="cannot make the cache folder .* set POCHA_CACHE_DIR to a folder you can"):
        pocha.simulate(
            "table:deals=5", rules=make_rules("italian", players=5), cards=1, deals=2, learn_tables=True, play="greedy"
        )


def test_nothing_is_written_into_the_cache_unless_asked(tmp_path):
    """From Python a missing table is one line saying where it would go; the command line learns it unless told."""
    rules = make_rules("turkish", players=4)
    default = default_table(rules, "greedy", 23)
    missing = "table: no trick table of these rules under greedy play ships with pocha or is in its cache"
    with pytest.raises(PochaError, match=f"{missing}.*keeps it in .*: pass learn_tables=True"):
        pocha.simulate("table:deals=23", rules=rules, cards=2, deals=3, play="greedy")
    with pytest.raises(PochaError, match=missing):
        pocha.Player("table:deals=23@greedy", rules)
    with pytest.raises(PochaError, match=missing):
        options = pocha.RuleOptions(preset=rules)
        pocha.advise("1O 3O", "7C", rules=options, assume="table:deals=23", samples=10, play="greedy")
    refused = invoke("simulate -s table:deals=23@greedy --preset turkish -p 4 -k 2 -n 3 --no-learn-tables")
    assert refused.exit_code == 1 and refused.stderr.startswith(f"Error: {missing}") and not default.path.exists()
    learned = invoke("simulate -s table:deals=23@greedy --preset turkish -p 4 -k 2 -n 3")
    assert learned.exit_code == 0 and "table: learning" in learned.stderr and default.path.is_file()


def test_ctrl_c_while_learning_keeps_no_table_and_plays_nothing(monkeypatch):
    from pocha.engine.training import Training

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(Training, "run", interrupted)
    result = invoke("simulate -s table:deals=40 --preset italian -p 6 -k 2 -n 5 --play greedy")
    assert result.exit_code == 130 and "Interrupted: nothing was written." in result.stderr
    assert "table: learning" in result.stderr and result.stdout == ""
    default = default_table(make_rules("italian", players=6), "greedy", 40)
    assert not default.path.exists() and not list(default.path.parent.glob("*.part"))


def test_pimc_play_says_which_table_it_bids_from():
    result = invoke("compare table:deals=25@pimc expected --preset italian -p 2 -k 1,2 -n 3")
    assert result.exit_code == 0, result.output
    said = result.stderr.splitlines()
    assert said[0].startswith("table: no pimc-play table fits these rules; pimc play bids from the greedy-play table")
    shipped = invoke("simulate -s table@pimc -k 2 -n 3")  # 4 players, default rules: the shipped pimc table
    assert shipped.exit_code == 0 and shipped.stderr == ""


def test_a_table_inside_another_strategy_goes_unsaid():
    """montecarlo@pimc reads the bids through a greedy-play table on default runs: no line of tables' jargon."""
    from pocha._execution import learn_default_tables

    rules, pimc = make_rules("italian", players=2), parse_policy("pimc")
    said: list[str] = []
    tables = [(MonteCarlo(samples=2, assume=TableStrategy(deals=25)), pimc)]
    learn_default_tables(tables, rules, Threads(1), None, said.append, learn=True)
    assert not any("pimc-play table" in line for line in said)
    learn_default_tables([(TableStrategy(deals=25), pimc)], rules, Threads(1), None, said.append, learn=True)  # said
    assert any("table: no pimc-play table fits these rules" in line for line in said)
    said.clear()  # a table bidder after a montecarlo of another play reading the same table: its own play is named
    solved = parse_policy("pimc:samples=4,solve=2")
    tables = [(MonteCarlo(samples=2, assume=TableStrategy(deals=25)), solved), (TableStrategy(deals=25), pimc)]
    learn_default_tables(tables, rules, Threads(1), None, said.append, learn=True)
    assert [line for line in said if "play bids from" in line] == [
        "table: no pimc-play table fits these rules; pimc play bids from the greedy-play table "
        "(pocha train --play pimc learns one, for table:path=FILE)"
    ]


def test_train_learns_under_pimc_play_and_the_table_says_so(tmp_path):
    trained = pocha.train(tmp_path / "pimc.npz", players=3, deals=2, play="pimc:samples=2")
    table = TrickTable.load(trained.path)
    assert table.policy == "pimc:samples=2" and table.counts.sum() == 2 * 12 * 3
    assert table.fits(make_rules(players=3), "pimc") and not table.fits(make_rules(players=3), "greedy")
    policy = parse_policy("pimc:samples=2")
    again = train_table(Training(rules=make_rules(players=3), deals_per_size=2, policy=policy), backend=Threads(2))
    assert np.array_equal(again.counts, table.counts)  # whatever the thread count
    result = invoke(f"train -p 3 -n 2 --play pimc --out {tmp_path / 'cli.npz'}")
    assert result.exit_code == 0 and "under pimc play" in result.stdout
    assert TrickTable.load(tmp_path / "cli.npz").policy == "pimc"
