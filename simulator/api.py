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
import functools
import inspect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pocha.engine.advice import Advice, read_situation
from pocha.engine.advice import advise as advise_situation
from pocha.engine.atomic import atomic_open, atomic_path, check_folder_writable, check_writable
from pocha.engine.backends import Backend, make_backend
from pocha.engine.checkpoint import DEFAULT_EVERY, Checkpoint
from pocha.engine.games import play_games as play_whole_games
from pocha.engine.policies import PlayPolicy, parse_policy
from pocha.engine.seating import Lineup, Seat
from pocha.engine.simulate import simulate as simulate_deals
from pocha.engine.tally import GameTally, Tally
from pocha.engine.trace import is_trace
from pocha.engine.training import train_table
from pocha.errors import PochaError
from pocha.game.rules import DEFAULT_PRESET, Rules, Scoring, make_rules, parse_scoring, parse_sizes
from pocha.reports.record import RunRecord
from pocha.strategies.base import Strategy
from pocha.strategies.montecarlo import ROLLOUTS
from pocha.strategies.registry import load
from pocha.strategies.table import TrickTable, is_table_file

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_LINEUP = ("expected", "aces-trumps", "fair-share", "random", "zero")  # seats take these in turn
MAX_COMPARED = 8
MOST_DEALS = 10**15  # deals per hand size; deal numbers stay within 64 bits
MOST_GAMES = 10**14  # a game's hands are numbered (game * hands + hand) * players + dealer

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
    if not sizes:
        raise PochaError("cards: give at least one hand size")
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


def plays_of(lineup: Lineup, play: str) -> tuple[PlayPolicy, tuple[str, ...]]:
    """The run's play policy (for the seats that name none) and every seat's, as labels."""
    policy = parse_policy(play)
    return policy, tuple((seat.play or policy).label for seat in lineup.seats)


def check_out(out: str | Path | None, plot: bool, force: bool) -> None:
    """Refuse, before any work, an output the run could not write or must not overwrite."""
    from pocha.reports.runs import check_out_folder, is_table_csv

    if out is None:
        if plot or force:
            option = "plot: figures are written" if plot else "force: it replaces an earlier run"
            raise PochaError(f"{option} into the --out folder; give --out FOLDER")
    elif str(out).endswith(".csv"):
        if plot or force:
            option = "plot: figures need" if plot else "force: replaces a run in"
            raise PochaError(f"{option} --out FOLDER, not a .csv file (a pocha table there is replaced anyway)")
        check_writable(out, "out", is_table_csv, "pocha table")
    else:
        check_out_folder(out, force)


def check_seed(seed: int) -> None:
    """Refuse a seed the generator does not take."""
    if not 0 <= seed < 2**63:
        raise PochaError(f"seed: must be a whole number from 0 to 2**63 - 1, not {seed}")


def check_amount(what: str, amount: int, most: int) -> None:
    """Refuse an amount of play below 1 or beyond what deal numbers can count."""
    if not 1 <= amount <= most:
        raise PochaError(f"{what}: must be from 1 to {most:,}, not {amount:,}")


def needs(option: str, value: object, other: str, given: bool) -> None:
    """Refuse an option that does nothing without another one."""
    if value is not None and not given:
        raise PochaError(f"{option}: does nothing without {other}; give {other} too, or leave it out")


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


def backend_from(backend: str, threads: int | None, workers: int | None, scheduler: str | None) -> Backend:
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

        tables = {"results": summary(self.tally, self.record.play_of)}
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
        plays = self.record.play_of
        return {
            "games": game_summary(self.games, plays),
            "results": summary(hands, plays),
            "errors": error_distribution(hands),
        }

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
    """Write a finished run: FILE.csv holds the main table; a folder holds every table, figures and run.json."""
    if out is None:
        return ()
    from pocha.reports.runs import save_run, write_table

    main = next(iter(result.tables))
    if str(out).endswith(".csv"):
        write_table(result.tables[main], out)
        return (Path(out),)
    figures = {}
    if plot:
        from pocha.reports.plots import render_figures

        figures = render_figures(result.record, result.tables)
    result.record = save_run(Path(out), result.record, result.tables, figures)
    return tuple(Path(out) / name for name in (*(result.record.files or {}), "run.json"))


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


def _finish(result: "SimulationResult | GamesResult", played: int, out: str | Path | None, plot: bool) -> None:
    """Note what the run played; write its outputs if it ran to the end (a stopped run writes nothing)."""
    ended = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    result.record = replace(result.record, complete=result.complete, played=played, date=ended)
    if result.complete:
        result.files = write_outputs(result, out, plot)


def checkpoint_from(checkpoint: str | Path | None, resume: str | Path | None, every: float | None) -> Checkpoint | None:
    """The checkpoint the options ask for, None when they ask for none."""
    needs("checkpoint-every", every, "--checkpoint", checkpoint is not None)
    if checkpoint is None and resume is None:
        return None
    return Checkpoint(
        Path(checkpoint) if checkpoint else None, every or DEFAULT_EVERY, Path(resume) if resume else None
    )


# --- runs ----------------------------------------------------------------------------------------


def recorded(function: Callable[..., Any]) -> Callable[..., Any]:
    """Record, for a run called from Python, the call itself as its command (the CLI passes its command line)."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("command_line") is None:
            bound = signature.bind(*args, **kwargs).arguments
            shown = [f"{name}={value!r}" for name, value in bound.items() if name != "progress"]
            kwargs["command_line"] = f"pocha.{function.__name__}({', '.join(shown)})"
        return function(*args, **kwargs)

    return call


@recorded
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
    force: bool = False,
    trace: str | Path | None = None,
    trace_deals: int | None = None,
    chunk_size: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    resume: str | Path | None = None,
    checkpoint_every: float | None = None,
    progress: Progress | None = None,
    command_line: str | None = None,
) -> SimulationResult:
    """Deal ``deals`` deals of each hand size to a line-up of strategies and tally the points of every hand.

    strategies: one spec for every seat, or one per seat (default: expected, aces-trumps, fair-share,
    random, zero in turn). out: a folder (tables, run.json, figures with ``plot``; ``force``
    replaces an earlier run there) or FILE.csv. trace: a pocha-trace/1 file of the first
    ``trace_deals`` deals (all when None). checkpoint / resume: save progress to a file every
    ``checkpoint_every`` seconds (default 5) and on Ctrl-C, and continue a run from one.
    """
    preset, chosen = rules_from(rules, players, deck, play_rule, hook, scoring, rank_order=rank_order)
    sizes = hand_sizes(cards, chosen)
    lineup = lineup_from(strategies, chosen.players)
    policy, plays = plays_of(lineup, play)
    record = RunRecord("simulate", chosen, tuple(s.label for s in lineup.seats), policy.label, seed, preset,
                       plays=plays, command_line=command_line, cards=tuple(sizes), deals_per_size=deals)  # fmt: skip
    needs("trace-deals", trace_deals, "--trace", trace is not None)
    if trace_deals is not None and trace_deals < 0:
        raise PochaError(f"trace-deals: must be 0 or more, not {trace_deals}")
    if trace is not None:
        check_writable(trace, "trace", is_trace, "pocha trace")
        if resume is not None:
            raise PochaError("trace: a resumed run cannot trace the deals it skips; trace a fresh run")
    return _deal(record, lineup, False, out, plot, force, trace, trace_deals, chunk_size, threads, backend, workers,
                 scheduler, checkpoint, resume, checkpoint_every, progress)  # fmt: skip


@recorded
def compare(
    strategies: Sequence[Spec],
    *,
    field: Spec | None = None,
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
    force: bool = False,
    chunk_size: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    checkpoint: str | Path | None = None,
    resume: str | Path | None = None,
    checkpoint_every: float | None = None,
    progress: Progress | None = None,
    command_line: str | None = None,
) -> SimulationResult:
    """Compare 2 to 8 strategies on the same deals, with paired confidence intervals (``result.pairs()``).

    Seats take the strategies in turn, each the same number of seats; when they cannot share the
    table evenly, ``field`` (a strategy) fills the seats they leave, one seat each for the compared
    ones. In duplicate (the default) every deal is replayed once per rotation of the seating, so
    each strategy bids every seat's cards of every deal.
    """
    preset, chosen = rules_from(rules, players, deck, play_rule, hook, scoring, rank_order=rank_order)
    sizes = hand_sizes(cards, chosen)
    lineup = compared_lineup(strategies, field, chosen.players)
    policy, plays = plays_of(lineup, play)
    record = RunRecord("compare", chosen, tuple(s.label for s in lineup.seats), policy.label, seed, preset,
                       plays=plays,
                       command_line=command_line, cards=tuple(sizes), deals_per_size=deals, duplicate=duplicate,
                       field=lineup.seats[-1].label if field is not None else None)  # fmt: skip
    return _deal(record, lineup, duplicate, out, plot, force, None, None, chunk_size, threads, backend, workers,
                 scheduler, checkpoint, resume, checkpoint_every, progress)  # fmt: skip


def compared_lineup(strategies: Spec | Sequence[Spec], field: Spec | None, seats: int) -> Lineup:
    """The seats of a comparison: the strategies in turn, each as often, or once each and the field in the rest."""
    specs = [strategies] if isinstance(strategies, str | Strategy) else list(strategies)
    count = len(specs)
    if not 2 <= count <= MAX_COMPARED:
        raise PochaError(f"compare: give 2 to {MAX_COMPARED} strategies, not {count}")
    if count > seats:
        raise PochaError(
            f"compare: {count} strategies but {seats} seats; a rotation seats at most {seats} "
            "(use more --players or fewer strategies)"
        )
    if field is None and seats % count:
        raise PochaError(
            f"compare: {count} strategies cannot share {seats} seats evenly (one would sit twice and meet "
            f"itself); give --field STRATEGY to fill the {seats - count} other seats, e.g. --field expected"
        )
    if field is not None and count == seats:
        raise PochaError(f"field: the {count} strategies fill all {seats} seats; leave --field out")
    order = [specs[s % count] for s in range(seats)] if field is None else specs + [field] * (seats - count)
    lineup = lineup_from(order, seats)
    if len(lineup.labels) != count + (field is not None):
        raise PochaError(f"compare: the same strategy is given twice among {', '.join(map(str, [*specs, field]))}")
    return lineup


def _deal(record: RunRecord, lineup: Lineup, duplicate: bool, out: str | Path | None, plot: bool, force: bool,
          trace: str | Path | None, trace_deals: int | None, chunk_size: int | None, threads: int | None,
          backend: str, workers: int | None, scheduler: str | None, checkpoint: str | Path | None,
          resume: str | Path | None, checkpoint_every: float | None,
          progress: Progress | None) -> SimulationResult:  # fmt: skip
    """Check the options every dealing run shares, play the run (simulate or compare) and write its outputs."""
    sizes, deals = list(record.cards or ()), record.deals_per_size or 0
    check_seed(record.seed)
    check_amount("deals", deals, MOST_DEALS)
    check_out(out, plot, force)
    where = backend_from(backend, threads, workers, scheduler)
    saver = checkpoint_from(checkpoint, resume, checkpoint_every)
    with _trace_file(trace) as stream:
        played = simulate_deals(
            record.rules, lineup, sizes, deals, record.seed, parse_policy(record.play), duplicate=duplicate,
            chunk_size=chunk_size,
            trace_stream=stream, trace_deals=trace_deals, progress=counter(progress, deals * len(sizes)),
            backend=where, checkpoint=saver,
        )  # fmt: skip
        if not played.complete and stream is not None:
            raise _Stopped
    result = SimulationResult(record, played.tally, played.complete)
    _finish(result, int(played.tally.boards.sum()), out, plot)
    return result


@recorded
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
    force: bool = False,
    trace: str | Path | None = None,
    trace_games: int | None = None,
    chunk_size: int | None = None,
    threads: int | None = None,
    backend: str = "local",
    workers: int | None = None,
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
    lineup = lineup_from(strategies, chosen.players)
    policy, plays = plays_of(lineup, play)
    check_seed(seed)
    check_amount("games", games, MOST_GAMES)
    check_out(out, plot, force)
    needs("trace-games", trace_games, "--trace", trace is not None)
    if trace_games is not None and trace_games < 0:
        raise PochaError(f"trace-games: must be 0 or more, not {trace_games}")
    if trace is not None:
        check_writable(trace, "trace", is_trace, "pocha trace")
    where = backend_from(backend, threads, workers, scheduler)
    with _trace_file(trace) as stream:
        played = play_whole_games(chosen, lineup, games, seed, policy, rotate, chunk_size, counter(progress, games),
                                  where, stream, trace_games)  # fmt: skip
        if not played.complete and stream is not None:
            raise _Stopped
    tally = played.games
    record = RunRecord(
        "game", chosen, tuple(s.label for s in lineup.seats), policy.label, seed, preset, plays=plays,
        command_line=command_line,
        games=games, rotate=rotate, hand_sizes=tuple(chosen.hand_sizes()), tie_break_games=tally.tie_break_games,
        tie_break_hands=tally.tie_break_hands, shared_games=tally.shared_games, unresolved_games=tally.unresolved,
    )  # fmt: skip
    result = GamesResult(record, played.hands, tally, played.complete)
    _finish(result, tally.games, out, plot)
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
    if play not in ROLLOUTS:
        raise PochaError(f"play: advise plays its play-outs {' or '.join(ROLLOUTS)}, not '{play}'")
    check_seed(seed)
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
    policy = parse_policy(play)
    check_seed(seed)
    check_amount("deals", deals, MOST_DEALS)
    check_writable(out, "out", is_table_file, "pocha trick table")
    where = backend_from("local", threads, None, None)
    table = train_table(chosen, deals, seed, policy, chunk_size, counter(progress, deals * chosen.full_deal), where)
    if table is None:
        return TrainingResult(None, None)
    with atomic_path(out) as temporary:
        table.save(temporary)
    return TrainingResult(table, Path(out))


def report(folder: str | Path) -> tuple[Path, list[Path]]:
    """Redraw a finished run folder's figures and write its ``report.html``: ``(report, figures)``.

    Only the files its run.json lists are read, and checked first; the new files appear together.
    """
    from pocha.reports.html import report_page
    from pocha.reports.plots import render_figures
    from pocha.reports.runs import add_to_run, load_run

    place = Path(folder)
    run, tables = load_run(place)
    check_folder_writable(place, "report")
    figures = render_figures(run, tables)
    contents = {f"{name}.png": data for name, data in figures.items()}
    contents["report.html"] = report_page(run, tables, figures).encode("utf-8")
    add_to_run(place, run, contents)
    return place / "report.html", [place / f"{name}.png" for name in figures]
