"""The Python API: every run of the command line as a function returning a result object.

The CLI parses its options, calls these functions and prints what they return, so a notebook and
the command line give the same numbers for the same options. Options take the CLI's values:
``rules`` is a preset name or a ``Rules`` object, ``cards`` is a hand size, a list of them or
``"all"``, strategies are spec strings (``"expected:bias=0.3"``) or strategy objects. Every check
of the options happens before any deal is played; a mistake raises ``PochaError`` with one line.
A Ctrl-C stops a run after the chunks finished so far: the result says ``complete=False`` and
nothing is written.
"""

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING

from pocha import engine, training
from pocha.advice import Advice, read_situation
from pocha.advice import advise as advise_situation
from pocha.atomic import atomic_open, atomic_path, check_writable
from pocha.backends import Backend, make_backend
from pocha.checkpoint import DEFAULT_EVERY, Checkpoint
from pocha.deals import POLICIES
from pocha.errors import PochaError
from pocha.games import play_games as play_whole_games
from pocha.reports.record import RunRecord
from pocha.rules import DEFAULT_PRESET, Rules, Scoring, make_rules, parse_scoring, parse_sizes
from pocha.seating import Lineup, Seat
from pocha.strategies.base import Strategy
from pocha.strategies.registry import load
from pocha.strategies.table import TrickTable
from pocha.tally import GameTally, Tally

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_LINEUP = ("expected", "aces-trumps", "fair-share", "random", "zero")  # seats take these in turn
MAX_COMPARED = 8

Spec = str | Strategy
Progress = Callable[[int, int], None]  # called with (work done so far, all the work): deals or games


# --- options -------------------------------------------------------------------------------------


def rules_from(
    rules: Rules | str = DEFAULT_PRESET,
    players: int | None = None,
    deck: str | None = None,
    play_rule: str | None = None,
    hook: str | None = None,
    scoring: str | Scoring | None = None,
    schedule: str | Sequence[int] | None = None,
    tie_break: str | None = None,
    rank_order: str | None = None,
) -> tuple[str | None, Rules]:
    """``(preset, rules)``: a preset for a player count with single options overridden, or a ``Rules`` as it is.

    schedule: a name (full, short, up, full-only) or hand sizes (``"1-5,5"`` or a list).
    """
    if isinstance(rules, Rules):
        options = {"players": players, "deck": deck, "play_rule": play_rule, "hook": hook, "scoring": scoring,
                   "schedule": schedule, "tie_break": tie_break, "rank_order": rank_order}  # fmt: skip
        given = [name for name, value in options.items() if value is not None]
        if given:
            raise PochaError(f"rules: a Rules object holds every option; set {', '.join(given)} in it instead")
        return None, rules
    points = parse_scoring(scoring) if isinstance(scoring, str) else scoring
    sizes = schedule if schedule is None or isinstance(schedule, str) else tuple(schedule)
    made = make_rules(rules, 4 if players is None else players, deck, rank_order, play=play_rule, hook=hook,
                      scoring=points, schedule=sizes, tie_break=tie_break)  # fmt: skip
    return rules, made


def hand_sizes(cards: str | int | Sequence[int], rules: Rules) -> list[int]:
    """Hand sizes of a ``cards`` option: ``"all"`` (1..full deal), one size, or a list or range: ``4,7,10``, ``1-5``."""
    if isinstance(cards, str):
        sizes = list(range(1, rules.full_deal + 1)) if cards.strip().lower() == "all" else parse_sizes(cards, "cards")
    else:
        sizes = [cards] if isinstance(cards, int) else list(cards)
    for size in sizes:
        rules.check_cards(size)
    repeated = sorted({size for size in sizes if sizes.count(size) > 1})
    if repeated:
        raise PochaError(f"cards: {', '.join(map(str, repeated))} given more than once")
    return sizes


def lineup_from(strategies: Spec | Sequence[Spec] | None, players: int) -> Lineup:
    """One strategy per seat: one for every seat, or one per seat; None for the default line-up."""
    if strategies is None:
        specs: list[Spec] = [DEFAULT_LINEUP[s % len(DEFAULT_LINEUP)] for s in range(players)]
    elif isinstance(strategies, str | Strategy):
        specs = [strategies]
    else:
        specs = list(strategies)
    if len(specs) not in (1, players):
        raise PochaError(f"strategy: {len(specs)} given for {players} players; give one for every seat or one per seat")
    seats = [Seat.of(spec) for spec in specs]
    return Lineup(tuple((seats * players)[:players]))


def check_play(play: str) -> None:
    """Refuse an unknown card-play policy."""
    if play not in POLICIES:
        raise PochaError(f"play: unknown '{play}'; accepted: {', '.join(POLICIES)}")


def check_out(out: str | Path | None, plot: bool) -> None:
    """Refuse, before any work, an output the run could not write."""
    from pocha.reports.runs import check_folder

    if out is None:
        if plot:
            raise PochaError("plot: figures are written into the --out folder; give --out FOLDER")
    elif str(out).endswith(".csv"):
        if plot:
            raise PochaError("plot: figures need --out FOLDER, not a .csv file")
        check_writable(out, "out")
    else:
        check_folder(out)


def counter(progress: Progress | None, total: int) -> Callable[[int], None] | None:
    """The engine's per-chunk callback (work just finished) as calls of ``progress(done, total)``."""
    if progress is None:
        return None
    done = 0

    def count(amount: int) -> None:
        nonlocal done
        done += amount
        progress(done, total)

    return count


def backend_from(backend: str, threads: int | None, workers: int, scheduler: str | None) -> Backend:
    """The backend the options name (local threads by default, every core)."""
    return make_backend(backend, threads, workers, scheduler)


# --- results -------------------------------------------------------------------------------------


@dataclass(eq=False)
class SimulationResult:
    """A ``simulate`` or ``compare`` run: its record, its accumulators, and whether it ran to the end."""

    record: RunRecord
    tally: Tally
    complete: bool = True
    files: tuple[Path, ...] = ()  # what ``out`` wrote, main table first

    @cached_property
    def tables(self) -> dict[str, "pd.DataFrame"]:
        """The run's tables by CSV file name: results, pairs (compare) and errors."""
        from pocha.reports.stats import error_distribution, pair_differences, summary

        tables = {"results": summary(self.tally)}
        if self.record.command == "compare":
            tables["pairs"] = pair_differences(self.tally)
        tables["errors"] = error_distribution(self.tally)
        return tables

    def to_frame(self) -> "pd.DataFrame":
        """``results.csv``: one row per strategy, hand size and bidding position, with ``all`` margins."""
        return self.tables["results"]

    def pairs(self) -> "pd.DataFrame":
        """``pairs.csv``: the paired difference of every pair of strategies, by hand size."""
        from pocha.reports.stats import pair_differences

        return self.tables["pairs"] if "pairs" in self.tables else pair_differences(self.tally)

    def errors(self) -> "pd.DataFrame":
        """``errors.csv``: hands per value of tricks won minus tricks bid."""
        return self.tables["errors"]


@dataclass(eq=False)
class GamesResult:
    """A ``game`` run: its record, the per-hand and whole-game accumulators, and whether it ran to the end."""

    record: RunRecord
    hands: Tally
    games: GameTally
    complete: bool = True
    files: tuple[Path, ...] = ()  # what ``out`` wrote, main table first

    @cached_property
    def tables(self) -> dict[str, "pd.DataFrame"]:
        """The run's tables by CSV file name: games, results (per hand) and errors."""
        from pocha.reports.game_stats import game_summary
        from pocha.reports.stats import error_distribution, summary

        hands = self.hands
        return {"games": game_summary(self.games), "results": summary(hands), "errors": error_distribution(hands)}

    def to_frame(self) -> "pd.DataFrame":
        """``games.csv``: one row per strategy: win rate and final score with intervals, score quantiles."""
        return self.tables["games"]


@dataclass(frozen=True)
class TrainingResult:
    """A trained trick table (None when Ctrl-C stopped the training), and where it was written."""

    table: TrickTable | None
    path: Path | None

    @property
    def complete(self) -> bool:
        """Whether the training ran to the end (and the table was written)."""
        return self.table is not None


def write_outputs(result: SimulationResult | GamesResult, out: str | Path | None, plot: bool) -> tuple[Path, ...]:
    """Write a finished run's tables: FILE.csv holds the main table; a folder holds every table, run.json, figures."""
    if out is None:
        return ()
    from pocha.reports.runs import save_run, write_table

    main = next(iter(result.tables))
    if str(out).endswith(".csv"):
        write_table(result.tables[main], out)
        return (Path(out),)
    folder = Path(out)
    save_run(folder, result.record, result.tables)
    written = [folder / f"{name}.csv" for name in result.tables] + [folder / "run.json"]
    if plot:
        from pocha.reports.plots import save_figures

        written += save_figures(folder, result.record, result.tables)
    return tuple(written)


class _Stopped(Exception):  # noqa: N818 - a signal to unwind, not an error
    """A run ended early: the file being written is dropped."""


@contextlib.contextmanager
def _trace_file(path: str | Path | None) -> Iterator[IO[str] | None]:
    """The trace file, written whole when the block ends normally, dropped when it raises ``_Stopped``."""
    if path is None:
        yield None
        return
    with contextlib.suppress(_Stopped), atomic_open(path) as stream:
        yield stream


# --- runs ----------------------------------------------------------------------------------------


def simulate(
    strategies: Spec | Sequence[Spec] | None = None,
    *,
    players: int | None = None,
    cards: str | int | Sequence[int] = "all",
    deals: int = 250_000,
    play: str = "greedy",
    rules: Rules | str = DEFAULT_PRESET,
    deck: str | None = None,
    play_rule: str | None = None,
    hook: str | None = None,
    scoring: str | Scoring | None = None,
    rank_order: str | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    plot: bool = False,
    trace: str | Path | None = None,
    trace_deals: int | None = None,
    chunk_size: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    workers: int = 2,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    resume: str | Path | None = None,
    checkpoint_every: float = DEFAULT_EVERY,
    progress: Progress | None = None,
    command_line: str | None = None,
) -> SimulationResult:
    """Deal ``deals`` deals of each hand size to a line-up of strategies and tally the points of every hand.

    strategies: one spec for every seat, or one per seat (default: expected, aces-trumps, fair-share,
    random, zero in turn). out: a folder (tables, run.json, figures with ``plot``) or FILE.csv.
    trace: a pocha-trace/1 file of the first ``trace_deals`` deals (all when None). checkpoint /
    resume: save progress to a file and continue a run from one.
    """
    preset, chosen = rules_from(rules, players, deck, play_rule, hook, scoring, rank_order=rank_order)
    sizes = hand_sizes(cards, chosen)
    check_play(play)
    check_out(out, plot)
    if trace_deals is not None and trace_deals < 0:
        raise PochaError(f"trace-deals: must be 0 or more, not {trace_deals}")
    lineup = lineup_from(strategies, chosen.players)
    if trace is not None:
        check_writable(trace, "trace")
        if resume is not None:
            raise PochaError("trace: a resumed run cannot trace the deals it skips; trace a fresh run")
    record = RunRecord("simulate", chosen, tuple(s.label for s in lineup.seats), play, seed, preset,
                       command_line=command_line, cards=tuple(sizes), deals_per_size=deals)  # fmt: skip
    where, saver = (
        backend_from(backend, threads, workers, scheduler),
        checkpoint_from(checkpoint, resume, checkpoint_every),
    )
    with _trace_file(trace) as stream:
        played = engine.simulate(
            chosen, lineup, sizes, deals, seed, play, chunk_size=chunk_size, trace_stream=stream,
            trace_deals=trace_deals, progress=counter(progress, deals * len(sizes)), backend=where, checkpoint=saver,
        )  # fmt: skip
        if not played.complete and stream is not None:
            raise _Stopped
    result = SimulationResult(record, played.tally, played.complete)
    _finish(result, out, plot)
    return result


def compare(
    strategies: Sequence[Spec],
    *,
    players: int | None = None,
    cards: str | int | Sequence[int] = "all",
    deals: int = 100_000,
    duplicate: bool = True,
    play: str = "greedy",
    rules: Rules | str = DEFAULT_PRESET,
    deck: str | None = None,
    play_rule: str | None = None,
    hook: str | None = None,
    scoring: str | Scoring | None = None,
    rank_order: str | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    plot: bool = False,
    chunk_size: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    workers: int = 2,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    resume: str | Path | None = None,
    checkpoint_every: float = DEFAULT_EVERY,
    progress: Progress | None = None,
    command_line: str | None = None,
) -> SimulationResult:
    """Compare 2 to 8 strategies on the same deals, with paired confidence intervals (``result.pairs()``).

    Seats take the strategies in turn; in duplicate (the default) every deal is replayed once per
    rotation of the seating, so each strategy bids every seat's cards of every deal.
    """
    preset, chosen = rules_from(rules, players, deck, play_rule, hook, scoring, rank_order=rank_order)
    sizes = hand_sizes(cards, chosen)
    check_play(play)
    check_out(out, plot)
    specs = [strategies] if isinstance(strategies, str | Strategy) else list(strategies)
    if not 2 <= len(specs) <= MAX_COMPARED:
        raise PochaError(f"compare: give 2 to {MAX_COMPARED} strategies, not {len(specs)}")
    seats = chosen.players
    if len(specs) > seats:
        raise PochaError(
            f"compare: {len(specs)} strategies but {seats} seats; a rotation seats at most {seats} "
            "(use more --players or fewer strategies)"
        )
    lineup = lineup_from([specs[s % len(specs)] for s in range(seats)], seats)
    if len(lineup.labels) != len(specs):
        raise PochaError(f"compare: the same strategy is given twice among {', '.join(map(str, specs))}")
    record = RunRecord("compare", chosen, tuple(s.label for s in lineup.seats), play, seed, preset,
                       command_line=command_line, cards=tuple(sizes), deals_per_size=deals,
                       duplicate=duplicate)  # fmt: skip
    where, saver = (
        backend_from(backend, threads, workers, scheduler),
        checkpoint_from(checkpoint, resume, checkpoint_every),
    )
    played = engine.simulate(
        chosen, lineup, sizes, deals, seed, play, duplicate=duplicate, chunk_size=chunk_size,
        progress=counter(progress, deals * len(sizes)), backend=where, checkpoint=saver,
    )  # fmt: skip
    result = SimulationResult(record, played.tally, played.complete)
    _finish(result, out, plot)
    return result


def _finish(result: "SimulationResult | GamesResult", out: str | Path | None, plot: bool) -> None:
    """Write a run's outputs if it ran to the end (a stopped run writes nothing)."""
    if result.complete:
        result.files = write_outputs(result, out, plot)


def checkpoint_from(checkpoint: str | Path | None, resume: str | Path | None, every: float) -> Checkpoint | None:
    """The checkpoint the options ask for, None when they ask for none."""
    if checkpoint is None and resume is None:
        return None
    return Checkpoint(Path(checkpoint) if checkpoint else None, every, Path(resume) if resume else None)


def play_games(
    strategies: Spec | Sequence[Spec] | None = None,
    *,
    players: int | None = None,
    games: int = 20_000,
    rotate: bool = True,
    play: str = "greedy",
    rules: Rules | str = DEFAULT_PRESET,
    deck: str | None = None,
    play_rule: str | None = None,
    hook: str | None = None,
    scoring: str | Scoring | None = None,
    rank_order: str | None = None,
    schedule: str | Sequence[int] | None = None,
    tie_break: str | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    plot: bool = False,
    trace: str | Path | None = None,
    trace_games: int | None = None,
    chunk_size: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    workers: int = 2,
    scheduler: str | None = None,
    progress: Progress | None = None,
    command_line: str | None = None,
) -> GamesResult:
    """Play whole games by the rules' schedule, points carried over, ties parted; report the chance of winning.

    Every game draws its first dealer by lot. With ``rotate`` (the default) game ``g`` seats the
    line-up moved ``g`` seats on from its first dealer, so every strategy holds every seat equally
    often. schedule: full, short, up, full-only, or hand sizes (``"1-5"``); tie_break: all, tied or
    one. trace: a pocha-trace/1 file of every deal of the first ``trace_games`` games (all when None).
    """
    preset, chosen = rules_from(rules, players, deck, play_rule, hook, scoring, schedule, tie_break, rank_order)
    check_play(play)
    check_out(out, plot)
    if trace_games is not None and trace_games < 0:
        raise PochaError(f"trace-games: must be 0 or more, not {trace_games}")
    lineup = lineup_from(strategies, chosen.players)
    if trace is not None:
        check_writable(trace, "trace")
    where = backend_from(backend, threads, workers, scheduler)
    with _trace_file(trace) as stream:
        played = play_whole_games(chosen, lineup, games, seed, play, rotate, chunk_size, counter(progress, games),
                                  where, stream, trace_games)  # fmt: skip
        if not played.complete and stream is not None:
            raise _Stopped
    tally = played.games
    record = RunRecord(
        "game", chosen, tuple(s.label for s in lineup.seats), play, seed, preset, command_line=command_line,
        games=games, rotate=rotate, hand_sizes=tuple(chosen.hand_sizes()), tie_break_games=tally.tie_break_games,
        tie_break_hands=tally.tie_break_hands, shared_games=tally.shared_games, unresolved_games=tally.unresolved,
    )  # fmt: skip
    result = GamesResult(record, played.hands, tally, played.complete)
    _finish(result, out, plot)
    return result


def advise(
    hand: str | Sequence[str],
    trump: str,
    *,
    position: int = 0,
    bids: str | Sequence[int] = (),
    bid: int | None = None,
    samples: int = 10_000,
    assume: str = "expected",
    players: int | None = None,
    play: str = "greedy",
    rules: Rules | str = DEFAULT_PRESET,
    deck: str | None = None,
    play_rule: str | None = None,
    hook: str | None = None,
    scoring: str | Scoring | None = None,
    rank_order: str | None = None,
    seed: int = 0,
) -> Advice:
    """What to bid with ``hand`` (``"1O 3O 12C"``) and trump card ``trump``, by play-outs of the deal.

    position: how many players bid before you (0: you bid first and lead); bids: their bids, in
    order. bid: a bid to single out (it must be legal). ``assume`` is how the later bidders are taken
    to bid. ``result.to_frame()`` has a row per bid.
    """
    _, chosen = rules_from(rules, players, deck, play_rule, hook, scoring, rank_order=rank_order)
    check_play(play)
    hand_text = hand if isinstance(hand, str) else " ".join(hand)
    bids_text = bids if isinstance(bids, str) else ",".join(map(str, bids))
    situation = read_situation(chosen, hand_text, trump, position, bids_text)
    if bid is not None:
        situation.check_bid(bid)
    return advise_situation(situation, samples, seed, play, load(assume)[1], bid)


def train(
    out: str | Path,
    *,
    players: int | None = None,
    deals: int = 1_000_000,
    play: str = "greedy",
    rules: Rules | str = DEFAULT_PRESET,
    deck: str | None = None,
    play_rule: str | None = None,
    hook: str | None = None,
    rank_order: str | None = None,
    seed: int = 0,
    chunk_size: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> TrainingResult:
    """Learn a trick table for the ``table`` strategy (every seat bidding ``expected``) and write it to ``out``."""
    _, chosen = rules_from(rules, players, deck, play_rule, hook, rank_order=rank_order)
    check_play(play)
    check_writable(out, "out")
    where = backend_from("local", threads, 0, None)
    table = training.train_table(
        chosen, deals, seed, play, chunk_size, counter(progress, deals * chosen.full_deal), where
    )
    if table is None:
        return TrainingResult(None, None)
    with atomic_path(out) as temporary:
        table.save(temporary)
    return TrainingResult(table, Path(out))


def report(folder: str | Path) -> tuple[Path, list[Path]]:
    """Redraw a finished run folder's figures and write its ``report.html``: ``(report, figures)``."""
    from pocha.reports.html import write_report
    from pocha.reports.plots import save_figures
    from pocha.reports.runs import load_run

    run, tables = load_run(folder)
    figures = save_figures(Path(folder), run, tables)
    return write_report(Path(folder), run, tables, figures), figures
