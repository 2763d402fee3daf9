"""The Python API: every run of the command line as a function returning a result object.

The CLI parses its options, calls these functions and prints what they return, so a notebook and
the command line give the same numbers for the same options. Options take the CLI's values, in
groups (``pocha.options``: ``rules=RuleOptions(...)``, ``run=``, ``output=``, ``saving=``) or as
plain keywords (``players=5``; ``rules`` then also takes a preset name or a ``Rules`` object);
``cards`` is a hand size, a list of them or ``"all"``, strategies are spec strings
(``"expected:bias=0.3"``) or strategy objects. Every check of the options happens before any deal
is played; a mistake raises ``PochaError`` with one line.
A Ctrl-C stops a run after the chunks finished so far: the result says ``complete=False`` and
nothing is written. A run expected to last over 30 s says so on stderr before it starts, with
the amount that would take about that long (its first deals timed: ``pocha.engine.estimate``).
"""

import contextlib
import functools
import inspect
import math
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pocha.engine.advice import Advice, CardAdvice, read_situation
from pocha.engine.advice import advise as advise_situation
from pocha.engine.advice import advise_card as advise_card_view
from pocha.engine.atomic import atomic_open, atomic_path, check_folder_writable, check_writable
from pocha.engine.backends import Backend, check_count
from pocha.engine.estimate import LONG
from pocha.engine.games import GamesRequest
from pocha.engine.games import play_games as play_whole_games
from pocha.engine.models import ModelsRequest, record_bids
from pocha.engine.player import DealView as DealView
from pocha.engine.player import Player as SeatPlayer
from pocha.engine.policies import DEFAULT_SHARPNESS as PIMC_SHARPNESS
from pocha.engine.policies import PlayPolicy
from pocha.engine.predictions import Rows
from pocha.engine.seating import Lineup, Seat, spare_field
from pocha.engine.simulate import DealsRequest
from pocha.engine.simulate import simulate as simulate_deals
from pocha.engine.tally import GameTally, Tally
from pocha.engine.trace import is_trace
from pocha.engine.training import TrainingRequest, learn_default, train_table
from pocha.engine.variants import GAME_GROUPS, Variant, VariantsRequest, VariantTally, play_variants
from pocha.engine.workload import Estimate
from pocha.errors import PochaError
from pocha.game.rules import PRESETS, SCORINGS, Rules, check_players, parse_sizes
from pocha.kernels.jit import announcing_first_compile as announcing_first_compile
from pocha.options import (
    STUDY,
    STUDY_STRONG,
    STUDY_WEAK,
    CheckpointOptions,
    OutputOptions,
    RuleOptions,
    RunOptions,
    needs,
    parse_variant,
)
from pocha.reports.record import CompareRun, DealsRun, GameRun, RunRecord, VariantsRun
from pocha.strategies.base import Predicts, Strategy
from pocha.strategies.catalog import DEFAULT_SHARPNESS
from pocha.strategies.montecarlo import ROLLOUT_NAMES, ROLLOUTS
from pocha.strategies.registry import StrategyInfo, catalogue
from pocha.strategies.table import DefaultTable, TrickTable, default_table, is_table_file, table_strategies
from pocha.words import counted

if TYPE_CHECKING:
    import pandas as pd

    from pocha.engine.bench import Benchmark, Measurement
    from pocha.engine.decisions import DecisionTime
    from pocha.engine.startup import StartupTime
    from pocha.reports.match import Match
    from pocha.reports.models import ModelsRun

DEFAULT_LINEUP = ("expected", "aces-trumps", "fair-share", "random", "zero")  # seats take these in turn
MODELLED_TABLE = "montecarlo"  # the strong bidder at every seat whose bids ``score_models`` predicts
DEFAULT_MODELS = {  # each a family: its best fitting spec stands for it
    "expected": ("expected",),
    "expected, bias fitted": tuple(f"expected:bias={step / 20:g}" for step in range(-20, 9)),  # -1 .. 0.4
    "aces-trumps": ("aces-trumps",),
    "table": ("table",),
    "fair-share": ("fair-share",),
    "random": ("random",),  # fitted, a uniform choice among the legal bids: the baseline
}
MAX_COMPARED = 8
STAGE_CHUNKS = 10  # chunks a stage profile times per repeat
MATCH_DEALS = 100  # deals per hand size of a match, each played once per seat
MOST_DEALS = 10**15  # deals per hand size; deal numbers stay within 64 bits
MOST_GAMES = 10**14  # a game's hands are numbered (game * hands + hand) * players + dealer

Spec = str | Strategy
Progress = Callable[[int, int], None]  # called with (work done so far, all the work): deals or games


# --- options -------------------------------------------------------------------------------------

GROUPS = {"rules": RuleOptions, "run": RunOptions, "output": OutputOptions, "saving": CheckpointOptions}
GROUP_OF = {item.name: group for group, kind in GROUPS.items() for item in fields(kind) if item.init}  # option -> group


def with_flat_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """Let a run take its groups' options as plain keywords too: ``players=5`` for ``rules=RuleOptions(players=5)``.

    ``rules`` may also be a preset name or a ``Rules`` object. The keywords a run leaves out keep the
    group's values; a keyword given with its whole group is refused.
    """
    accepted = set(inspect.signature(function).parameters)

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        flat = {name: kwargs.pop(name) for name in list(kwargs) if name in GROUP_OF and name not in accepted}
        if not isinstance(kwargs.get("rules", RuleOptions()), RuleOptions):
            flat["preset"] = kwargs.pop("rules")
        for group, kind in GROUPS.items():
            given = {name: value for name, value in flat.items() if GROUP_OF[name] == group}
            if group in accepted and given:
                if group in kwargs:
                    raise PochaError(f"{group}: give {', '.join(given)} inside it, not beside it")
                kwargs[group] = kind(**given)
        unknown = set(flat) - {name for name in flat if GROUP_OF[name] in accepted}
        if unknown:
            raise TypeError(f"{function.__name__}() got unexpected keyword arguments: {', '.join(sorted(unknown))}")
        return function(*args, **kwargs)

    return call


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


def check_amount(what: str, amount: int, most: int) -> None:
    """Refuse an amount of play below 1 or beyond what deal numbers can count."""
    if not 1 <= amount <= most:
        raise PochaError(f"{what}: must be from 1 to {most:,}, not {amount:,}")


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


# --- results -------------------------------------------------------------------------------------


class RecordedResult:
    """What the results of recorded runs share: their record says whether they ran to the end."""

    record: RunRecord

    @property
    def complete(self) -> bool:
        """Whether the run played everything it was asked to (else Ctrl-C stopped it, and nothing was written)."""
        return self.record.complete


@dataclass(frozen=True, eq=False)
class SimulationResult(RecordedResult):
    """A ``simulate`` or ``compare`` run: its record, its accumulators, its tables and the files it wrote."""

    record: RunRecord
    tally: Tally
    tables: dict[str, "pd.DataFrame"]  # by CSV file name: results, pairs (compare), errors, predictions (if recorded)
    files: tuple[Path, ...] = ()  # what ``out`` wrote, main table first

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


@dataclass(frozen=True, eq=False)
class GamesResult(RecordedResult):
    """A ``game`` run: its record, the per-hand and whole-game accumulators, its tables and the files it wrote."""

    record: RunRecord
    hand_tally: Tally  # every hand of the games
    game_tally: GameTally  # the games' final results
    tables: dict[str, "pd.DataFrame"]  # by CSV file name: games, results (per hand) and errors
    files: tuple[Path, ...] = ()  # what ``out`` wrote, main table first

    def to_frame(self) -> "pd.DataFrame":
        """``games.csv``: one row per strategy: win rate and final score with intervals, score quantiles."""
        return self.tables["games"]


def deal_tables(record: RunRecord, tally: Tally) -> dict[str, "pd.DataFrame"]:
    """A dealing run's tables: results, pairs (compare) and errors."""
    from pocha.reports.stats import error_distribution, pair_differences, summary

    tables = {"results": summary(tally, record.policy_of)}
    if record.command == "compare":
        tables["pairs"] = pair_differences(tally)
    tables["errors"] = error_distribution(tally)
    return tables


def game_tables(record: RunRecord, hand_tally: Tally, game_tally: GameTally) -> dict[str, "pd.DataFrame"]:
    """A game run's tables: games, results (per hand) and errors."""
    from pocha.reports.game_stats import game_summary
    from pocha.reports.stats import error_distribution, summary

    policies = record.policy_of
    return {
        "games": game_summary(game_tally, policies),
        "results": summary(hand_tally, policies),
        "errors": error_distribution(hand_tally),
    }


@dataclass(frozen=True)
class TrainingResult:
    """A trained trick table (None when Ctrl-C stopped the training), and where it was written."""

    table: TrickTable | None
    path: Path | None

    @property
    def complete(self) -> bool:
        """Whether the training ran to the end (and the table was written)."""
        return self.table is not None


def write_outputs(record: RunRecord, tables: dict[str, "pd.DataFrame"], output: OutputOptions) -> tuple[Path, ...]:
    """Write a finished run: FILE.csv holds the main table; a folder holds every table, figures and run.json."""
    if output.out is None or not record.complete:
        return ()
    from pocha.reports.runs import save_run, write_table

    if str(output.out).endswith(".csv"):
        write_table(tables[next(iter(tables))], output.out)
        return (Path(output.out),)
    figures = {}
    if output.plot:
        from pocha.reports.plots import render_figures

        figures = render_figures(record, tables)
    written = save_run(Path(output.out), record, tables, figures)
    return tuple(Path(output.out) / name for name in (*(written.files or {}), "run.json"))


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


def ended(record: RunRecord, complete: bool, played: int) -> RunRecord:
    """The record of a run that has ended: whether it ran to the end, what it played, and when."""
    return replace(record, complete=complete, played=played, date=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))


def check_trace(trace: str | Path | None, count: int | None, option: str) -> None:
    """Refuse a trace the run could not write, or a count of traced deals or games without a trace."""
    needs(option, count, "--trace", trace is not None)
    if count is not None and count < 1:  # 0 would write a trace of its header alone
        unit = option.removeprefix("trace-")
        raise PochaError(f"{option}: must be at least 1, not {count} (leave it out to trace every one of the {unit})")
    if trace is not None:
        check_writable(trace, "trace", is_trace, "pocha trace")


def telling_cost(
    run: RunOptions, option: str, amount: int, per_amount: int, least: int = 1
) -> Callable[[Estimate], None] | None:
    """What says, before a run of more than LONG seconds starts, about how long it will take and how to shorten it.

    option: the flag that sets the run's amount (``--deals``), ``amount`` its value; per_amount:
    the deals (games) the run plays per unit of it (its hand sizes, variants); least: its smallest
    value. None with a Dask scheduler: a cluster's speed is not this machine's.
    """
    if run.scheduler is not None:
        return None
    unit = "games" if option == "--games" else "deals"

    def tell(estimate: Estimate) -> None:
        if estimate.seconds <= LONG:
            return
        where = counted(estimate.workers, "Dask worker" if run.backend == "dask" else "thread")
        line = (
            f"this run will take about {duration(estimate.seconds)} on {where} "
            f"(~{estimate.rate:,.0f} {unit}/s, timed on its first {unit})"
        )
        shorter = max(least, round_down(LONG * estimate.rate / per_amount))
        if shorter < amount:
            line += f"; {option} {shorter} takes about {duration(shorter * per_amount / estimate.rate)}"
        say(line)

    return tell


def duration(seconds: float) -> str:
    """A time as a person says it: ``40 s``, ``8 min``, ``2.5 h``, ``3 days``."""
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    hours = seconds / 3600
    return f"{hours:.1f} h" if hours < 10 else f"{hours:.0f} h" if hours < 48 else f"{hours / 24:,.0f} days"


def round_down(value: float) -> int:
    """The largest of 1, 2, 5, 10, 20, 50, ... not above ``value`` (0 below 1)."""
    if value < 1:
        return 0
    power = 10 ** int(math.log10(value))
    return max(step * power for step in (1, 2, 5) if step * power <= value)


# --- default trick tables ----------------------------------------------------------------------


def say(line: str) -> None:
    """One line for the person running pocha, on stderr (the results go to stdout)."""
    print(line, file=sys.stderr)


def learn_tables(
    players: Iterable[tuple[Strategy, PlayPolicy]],
    rules: Rules | Sequence[Rules],
    where: Backend,
    progress: Progress | None,
) -> None:
    """Before a run: learn the default trick tables its ``table`` bidders need and pocha's cache lacks.

    players: each bidding strategy with its play policy; rules: the run's, or each rule set a study
    plays. Each table learned is announced in one line, then ``progress`` counts its training deals;
    a ``table`` bidder's pimc play bidding from the greedy table is said too, once (not for a table
    inside another strategy, such as montecarlo's reading of the bids: the default runs' own detail).
    Ctrl-C while learning stops the run (``KeyboardInterrupt``) and keeps no table.
    """
    needed: dict[Path, tuple[DefaultTable, PlayPolicy]] = {}
    named: set[Path] = set()  # the tables of a table bidder itself
    players = list(players)
    for ruled in [rules] if isinstance(rules, Rules) else rules:
        for strategy, policy in players:
            for table in table_strategies(strategy):
                if not table.path:
                    default = default_table(ruled, policy.label, table.deals)
                    needed.setdefault(default.path, (default, policy))
                    named |= {default.path} if table is strategy else set()
    said = set()
    for default, policy in needed.values():
        if default.play != policy.name and policy.name not in said and default.path in named:
            said.add(policy.name)
            say(
                f"table: no {policy.name}-play table fits these rules; {policy.label} play bids from the "
                f"{default.play}-play table (pocha train --play {policy.name} learns one, for table:path=FILE)"
            )
        if default.shipped or is_cached(default):
            continue
        say(
            f"table: learning the trick table of these rules under {default.play} play from {default.deals:,} deals "
            f"per hand size, once (kept in {default.path.parent})"
        )
        if learn_default(default, where, counter(progress, default.deals * default.rules.full_deal)) is None:
            raise KeyboardInterrupt


class Player(SeatPlayer):
    """One player deciding alone, for a person at a table or another program: ``decide(DealView(...))``.

    spec: a player as in a run (``montecarlo@pimc``); rules: a ``Rules`` or ``RuleOptions``; seed: its
    choices are those of deal ``deal`` in a run with this seed. The default trick tables it bids
    from are learned first if pocha's cache lacks them (one line says so).
    """

    def __init__(self, spec: str, rules: Rules | RuleOptions | str = RuleOptions(), seed: int = 0) -> None:
        if isinstance(rules, str):
            rules = RuleOptions(preset=rules)
        if not isinstance(rules, Rules | RuleOptions):
            raise PochaError(f"rules: a preset name, a pocha.RuleOptions or a pocha.Rules, not {rules!r}")
        super().__init__(spec, rules if isinstance(rules, Rules) else rules.resolve()[1], seed)
        learn_tables([(self.seat.strategy, self.policy)], self.rules, RunOptions().make_backend(), None)


def is_cached(default: DefaultTable) -> bool:
    """Whether pocha's cache holds the default table, readable and fitting (else it says why it learns it again)."""
    if not default.path.is_file():
        return False
    try:
        fits = TrickTable.load(default.path).fits(default.rules, default.play)
    except PochaError as error:
        say(f"{error}; learning it again")
        return False
    if not fits:
        say(f"table: '{default.path}' holds a table of other rules; learning it again")
    return fits


# --- runs ----------------------------------------------------------------------------------------


def recorded(function: Callable[..., Any]) -> Callable[..., Any]:
    """Record, for a run called from Python, the call itself as its command (the CLI passes its command line)."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("command_line") is None:
            given = signature.bind_partial(*args).arguments | kwargs
            shown = [f"{name}={value!r}" for name, value in given.items() if name != "progress"]
            kwargs["command_line"] = f"pocha.{function.__name__}({', '.join(shown)})"
        return function(*args, **kwargs)

    return call


@recorded
@with_flat_options
def simulate(
    strategies: Spec | Sequence[Spec] | None = None,
    *,
    cards: str | int | Sequence[int] = "all",
    deals: int = 250_000,
    rules: RuleOptions = RuleOptions(),
    run: RunOptions = RunOptions(),
    output: OutputOptions = OutputOptions(),
    saving: CheckpointOptions = CheckpointOptions(),
    trace: str | Path | None = None,
    trace_deals: int | None = None,
    predictions: bool = False,
    progress: Progress | None = None,
    command_line: str | None = None,
) -> SimulationResult:
    """Deal ``deals`` deals of each hand size to a line-up of strategies and tally the points of every hand.

    strategies: one spec for every seat, or one per seat (default: expected, aces-trumps, fair-share,
    random, zero in turn). The option groups may also be given as plain keywords (``players=5,
    seed=2, out="run1"``). trace: a pocha-trace/3 file of the first ``trace_deals`` deals (all when
    None). predictions: record what the predicting strategies expect of each bid (the table
    ``predictions``, ``predictions.csv`` in an ``out`` folder; the trace lines carry them too).
    """
    preset, chosen = rules.resolve()
    sizes = hand_sizes(cards, chosen)
    lineup = lineup_from(strategies, chosen.players)
    check_trace(trace, trace_deals, "trace-deals")
    if trace is not None and saving.resume is not None:
        raise PochaError("trace: a resumed run cannot trace the deals it skips; trace a fresh run")
    if predictions:
        check_predictions(lineup, saving)
    section = DealsRun(cards=tuple(sizes), deals_per_size=deals)
    record = RunRecord(
        command="simulate",
        rules=chosen,
        preset=preset,
        **seats_of(lineup, run),
        section=section,
        command_line=command_line,
    )
    return _deal(
        record,
        lineup,
        run,
        output,
        saving,
        trace=trace,
        trace_deals=trace_deals,
        predictions=predictions,
        progress=progress,
    )


def check_predictions(lineup: Lineup, saving: CheckpointOptions) -> None:
    """Refuse predictions no strategy of the line-up makes, or that a resumed run would lack for the deals it skips."""
    if not any(isinstance(seat.strategy, Predicts) for seat in lineup.seats):
        raise PochaError("predictions: no strategy of the line-up predicts; montecarlo, expected and table do")
    if saving.resume is not None:
        raise PochaError("predictions: a resumed run cannot record the deals it skips; record a fresh run")


@recorded
@with_flat_options
def compare(
    strategies: Sequence[Spec],
    *,
    field: Spec | None = None,
    cards: str | int | Sequence[int] = "all",
    deals: int = 100_000,
    duplicate: bool = True,
    rules: RuleOptions = RuleOptions(),
    run: RunOptions = RunOptions(),
    output: OutputOptions = OutputOptions(),
    saving: CheckpointOptions = CheckpointOptions(),
    progress: Progress | None = None,
    command_line: str | None = None,
) -> SimulationResult:
    """Compare 2 to 8 strategies on the same deals, with paired confidence intervals (``result.pairs()``).

    Seats take the strategies in turn, each the same number of seats; when they cannot share the
    table evenly, ``field`` (a strategy) fills the seats they leave, one seat each for the compared
    ones. In duplicate (the default) every deal is replayed once per rotation of the seating, so
    each strategy bids every seat's cards of every deal.
    """
    preset, chosen = rules.resolve()
    sizes = hand_sizes(cards, chosen)
    lineup = compared_lineup(strategies, field, chosen.players)
    filler = lineup.seats[-1].label if field is not None else None
    section = CompareRun(cards=tuple(sizes), deals_per_size=deals, duplicate=duplicate, field=filler)
    record = RunRecord(
        command="compare",
        rules=chosen,
        preset=preset,
        **seats_of(lineup, run),
        section=section,
        command_line=command_line,
    )
    return _deal(record, lineup, run, output, saving, duplicate=duplicate, progress=progress)


def player_policies(lineup: Lineup, run: RunOptions) -> list[tuple[Strategy, PlayPolicy]]:
    """Each bidding strategy of a line-up with its play policy."""
    return [(player.strategy, player.policy) for player in lineup.players(run.policy)]


def seats_of(lineup: Lineup, run: RunOptions) -> dict[str, Any]:
    """What a run record says of the seats: strategies, play policies, seed."""
    policies = tuple((seat.policy or run.policy).label for seat in lineup.seats)
    strategies = tuple(seat.label for seat in lineup.seats)
    return {"strategies": strategies, "policy": run.policy.label, "policies": policies, "seed": run.seed}


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
        spare = spare_field(specs)
        raise PochaError(
            f"compare: {count} strategies cannot share {seats} seats evenly (one would sit twice and meet "
            f"itself); give --field STRATEGY to fill the {counted(seats - count, 'other seat')}"
            + (f", e.g. --field {spare}" if spare else "")
        )
    if field is not None and count == seats:
        raise PochaError(f"field: the {count} strategies fill all {seats} seats; leave --field out")
    order = [specs[s % count] for s in range(seats)] if field is None else specs + [field] * (seats - count)
    lineup = lineup_from(order, seats)
    if len(lineup.labels) != count + (field is not None):
        given = [*specs, *([field] if field is not None else [])]
        raise PochaError(f"compare: the same strategy is given twice among {', '.join(map(str, given))}")
    return lineup


def _deal(
    record: RunRecord,
    lineup: Lineup,
    run: RunOptions,
    output: OutputOptions,
    saving: CheckpointOptions,
    *,
    duplicate: bool = False,
    trace: str | Path | None = None,
    trace_deals: int | None = None,
    predictions: bool = False,
    progress: Progress | None = None,
) -> SimulationResult:
    """Check the options every dealing run shares, play the run (simulate or compare) and write its outputs."""
    assert isinstance(record.section, DealsRun)
    sizes, deals = list(record.section.cards), record.section.deals_per_size
    check_amount("deals", deals, MOST_DEALS)
    output.check()
    where = run.make_backend()
    learn_tables(player_policies(lineup, run), record.rules, where, progress)
    rows: list[Rows] | None = [] if predictions else None
    with _trace_file(trace) as stream:
        played = simulate_deals(
            DealsRequest(
                rules=record.rules,
                lineup=lineup,
                sizes=sizes,
                deals=deals,
                seed=run.seed,
                policy=run.policy,
                duplicate=duplicate,
                chunk_size=run.chunk_size,
                backend=where,
                progress=counter(progress, deals * len(sizes)),
                estimate=telling_cost(run, "--deals", deals, len(sizes)),
                trace=stream,
                trace_deals=trace_deals,
                predictions=rows,
                checkpoint=saving.make_checkpoint(),
            )
        )
        if not played.complete and stream is not None:
            raise _Stopped
    record = ended(record, played.complete, int(played.total.boards.sum()))
    tables = deal_tables(record, played.total)
    if rows is not None:
        from pocha.reports.predictions import prediction_table

        tables["predictions"] = prediction_table(rows, lineup.labels)
    return SimulationResult(record, played.total, tables, write_outputs(record, tables, output))


@recorded
@with_flat_options
def play_games(
    strategies: Spec | Sequence[Spec] | None = None,
    *,
    games: int = 20_000,
    rotate: bool = True,
    rules: RuleOptions = RuleOptions(),
    run: RunOptions = RunOptions(),
    output: OutputOptions = OutputOptions(),
    trace: str | Path | None = None,
    trace_games: int | None = None,
    progress: Progress | None = None,
    command_line: str | None = None,
) -> GamesResult:
    """Play whole games by the rules' schedule, points carried over, ties parted; report the chance of winning.

    Every game draws its first dealer by lot. With ``rotate`` (the default) game ``g`` seats the
    line-up moved ``g`` seats on from its first dealer, so every strategy holds every seat equally
    often. The rules' schedule (full, short, up, full-only, or hand sizes ``"1-5"``), full_deals (n or n+1 full
    deals of full and up) and tie_break (all, tied or one) shape each game. trace: a pocha-trace/3 file of every
    deal of the first ``trace_games`` games (all when None).
    """
    preset, chosen = rules.resolve()
    lineup = lineup_from(strategies, chosen.players)
    check_amount("games", games, MOST_GAMES)
    output.check()
    check_trace(trace, trace_games, "trace-games")
    where = run.make_backend()
    learn_tables(player_policies(lineup, run), chosen, where, progress)
    with _trace_file(trace) as stream:
        played = play_whole_games(
            GamesRequest(
                rules=chosen,
                lineup=lineup,
                games=games,
                seed=run.seed,
                policy=run.policy,
                rotate=rotate,
                chunk_size=run.chunk_size,
                backend=where,
                progress=counter(progress, games),
                estimate=telling_cost(run, "--games", games, 1),
                trace=stream,
                trace_games=trace_games,
            )
        )
        if not played.complete and stream is not None:
            raise _Stopped
    tally = played.total.game_tally
    section = GameRun(
        games=games,
        rotate=rotate,
        hand_sizes=tuple(chosen.hand_sizes()),
        tie_break_games=tally.tie_break_games,
        tie_break_hands=tally.tie_break_hands,
        shared_games=tally.shared_games,
        unresolved_games=tally.unresolved,
    )
    record = RunRecord(
        command="game", rules=chosen, preset=preset, **seats_of(lineup, run), section=section, command_line=command_line
    )
    record = ended(record, played.complete, tally.games)
    tables = game_tables(record, played.total.hand_tally, tally)
    return GamesResult(record, played.total.hand_tally, tally, tables, write_outputs(record, tables, output))


@dataclass(frozen=True, eq=False)
class VariantsResult(RecordedResult):
    """A ``variants`` study: its record, its sums by group of games, its table and the files it wrote."""

    record: RunRecord
    tally: VariantTally
    tables: dict[str, "pd.DataFrame"]  # by CSV file name: variants
    files: tuple[Path, ...] = ()  # what ``out`` wrote, the table first

    def to_frame(self) -> "pd.DataFrame":
        """``variants.csv``: every figure of every variant with its interval and its difference to the first."""
        return self.tables["variants"]


@recorded
@with_flat_options
def variants(
    variants: Sequence[str] = STUDY,
    *,
    players: int = 4,
    strategies: Spec | Sequence[Spec] | None = None,
    strong: Spec = STUDY_STRONG,
    weak: Spec = STUDY_WEAK,
    games: int = 2_000,
    run: RunOptions = RunOptions(),
    output: OutputOptions = OutputOptions(),
    progress: Progress | None = None,
    command_line: str | None = None,
) -> VariantsResult:
    """Rule sets side by side: the same games under each variant, by the same players.

    variants: presets with overrides, ``PRESET[:OPTION=VALUE]...`` (``ludoteka:hook=never``); the
    first is the one the others are compared with. strategies: the line-up whose seats and games are
    measured (default: the weak player at every seat). strong, weak: the players of the skill table
    (the strong one at one seat among weak ones) and of the all-weak table it is compared with.
    """
    from pocha.reports.variants import same_deals, variant_table

    written = [variants] if isinstance(variants, str) else list(variants)
    check_players(players)  # the study's, before any variant asks for a deck of that many
    if not written:
        raise PochaError("variants: give at least one, e.g. ludoteka ludoteka:hook=never")
    studied: list[Variant] = []
    for text in written:
        name, options = parse_variant(text, players)
        if any(name == variant.name for variant in studied):
            raise PochaError(
                f"variants: {name} given twice; a variant against itself differs in nothing (to see it, "
                f"write it once more with an option it already has, e.g. ludoteka ludoteka:hook=except-one-card)"
            )
        studied.append(Variant(name, *options.resolve()))
    strong_seat, weak_seat = (seat_of(spec, flag) for spec, flag in ((strong, "strong"), (weak, "weak")))
    lineup = lineup_from(weak if strategies is None else strategies, players)
    if games < GAME_GROUPS:
        raise PochaError(
            f"games: at least {GAME_GROUPS} (the intervals need {GAME_GROUPS} groups of games), not {games}"
        )
    check_amount("games", games, MOST_GAMES)
    output.check()
    where = run.make_backend()
    needed = [*lineup.players(run.policy), *Lineup((strong_seat, weak_seat)).players(run.policy)]
    rule_sets = [variant.rules for variant in studied]
    learn_tables([(player.strategy, player.policy) for player in needed], rule_sets, where, progress)
    played = play_variants(
        VariantsRequest(
            rules=studied[0].rules,
            variants=tuple(studied),
            lineup=lineup,
            strong=strong_seat,
            weak=weak_seat,
            games=games,
            seed=run.seed,
            policy=run.policy,
            chunk_size=run.chunk_size,
            backend=where,
            progress=counter(progress, games * len(studied)),
            estimate=telling_cost(run, "--games", games, len(studied), GAME_GROUPS),
        )
    )
    section = VariantsRun(
        games=games,
        variants=tuple(variant.name for variant in studied),
        variant_rules=tuple(variant.rules.to_dict() for variant in studied),
        same_deals=tuple(same_deals(studied[0], variant) for variant in studied),
        strong=strong_seat.label,
        weak=weak_seat.label,
    )
    record = RunRecord(
        command="variants",
        rules=studied[0].rules,
        preset=studied[0].preset,
        **seats_of(lineup, run),
        section=section,
        command_line=command_line,
    )
    record = ended(record, played.complete, int(played.total.games.sum()))
    tables = {"variants": variant_table(tuple(studied), played.total)}
    return VariantsResult(record, played.total, tables, write_outputs(record, tables, output))


@with_flat_options
def advise(
    hand: str | Sequence[str],
    trump: str | None = None,
    *,
    position: int = 0,
    bids: str | Sequence[int] = (),
    bid: int | None = None,
    samples: int = 10_000,
    assume: str = "table",
    sharpness: float = DEFAULT_SHARPNESS,
    rules: RuleOptions = RuleOptions(),
    run: RunOptions = RunOptions(),
) -> Advice:
    """What to bid with ``hand`` (``"1O 3O 12C"``) and trump card ``trump``, by play-outs of the deal.

    trump: None only where the deal has no trump (a full deal under ``full_deal_trump="none"``).
    position: how many players bid before you (0: you bid first and lead); bids: their bids, in
    order. bid: a bid to single out (it must be legal). ``assume`` is how the others are taken to bid:
    the earlier bids are read through it (``sharpness``: how sharply; 0 does not read them) and the
    later bidders bid by it, answering each candidate bid; ``run.play`` is how every seat plays the
    play-outs. ``result.to_frame()`` has a row per bid; ``result.model`` says what was assumed.
    """
    _, chosen = rules.resolve()
    if run.policy.name not in ROLLOUTS:
        raise PochaError(f"play: advise plays its play-outs {ROLLOUT_NAMES}, not '{run.play}'")
    hand_text = hand if isinstance(hand, str) else " ".join(hand)
    bids_text = bids if isinstance(bids, str) else ",".join(map(str, bids))
    situation = read_situation(chosen, hand_text, trump, position, bids_text)
    if bid is not None:
        situation.check_bid(bid)
    assumed = bidder(assume, "assume", "the play-outs play --play").strategy
    learn_tables([(assumed, run.policy)], chosen, run.make_backend(), None)
    return advise_situation(
        situation,
        samples=samples,
        seed=run.seed,
        rollout=run.policy.name,
        assume=(assume, assumed),
        sharpness=sharpness,
        asked=bid,
    )


@with_flat_options
def advise_card(
    hand: str | Sequence[str],
    trump: str | None = None,
    *,
    position: int = 0,
    bids: str | Sequence[int] = (),
    played: str | Sequence[str] = (),
    samples: int = 10_000,
    sharpness: float = PIMC_SHARPNESS,
    rules: RuleOptions = RuleOptions(),
    run: RunOptions = RunOptions(),
) -> CardAdvice:
    """Which card to play: each legal card's chance to make your bid and its expected points, by play-outs.

    hand: the cards you hold now; position: your bidding position (0: you bid first and led the
    first trick); bids: every bid, in bidding order; played: every card played so far, in order from
    the first lead ("1O 3O 12C 5E | 7C", the bars optional). ``samples`` worlds consistent with what
    you have seen are drawn, the bids read as pimc reads them (``sharpness``); after your card every
    seat plays greedy. ``result.to_frame()`` has a row per legal card; ``result.model`` says what was assumed.
    """
    _, chosen = rules.resolve()
    if run.policy.name != "greedy":
        raise PochaError(f"play: card advice finishes its play-outs greedy, not '{run.play}'; leave out --play")
    dealer = chosen.players - 1  # seats numbered by bidding position: the dealer bids last
    view = DealView(position, dealer, hand, trump, bids, played)
    return advise_card_view(chosen, view, samples=samples, sharpness=sharpness, seed=run.seed)


@dataclass(frozen=True, eq=False)
class ModelsResult:
    """A ``score_models`` run: what it played, and how well each model predicts the table's bids."""

    played: "ModelsRun"
    scores: "pd.DataFrame"  # one row per model and hand size, with ``all`` (see ``pocha.reports.models``)

    @property
    def complete(self) -> bool:
        """Whether the run played every deal (else Ctrl-C stopped it, and the scores cover the deals finished)."""
        return self.played.complete

    def to_frame(self) -> "pd.DataFrame":
        """The scores: one row per model and hand size, with ``all``."""
        return self.scores


@with_flat_options
def score_models(
    strategies: Spec | Sequence[Spec] | None = None,
    *,
    models: Sequence[Spec] | None = None,
    cards: str | int | Sequence[int] = "all",
    deals: int = 2_000,
    rules: RuleOptions = RuleOptions(),
    run: RunOptions = RunOptions(),
    progress: Progress | None = None,
) -> ModelsResult:
    """Which model of a bidder predicts a table's bids best: the mean log score of the bids made, under each model.

    strategies: the table whose bids are predicted (one spec for every seat, or one per seat;
    default ``montecarlo`` at every seat). models: the candidate models, specs (default
    ``DEFAULT_MODELS``, among them ``expected`` with its bias fitted). Every model bids each hand
    after the same earlier bids and is read as montecarlo reads its ``assume`` strategy
    (``bid_likelihood``), at the sharpness that fits best (``pocha.reports.models``).
    """
    from pocha.reports.models import ModelsRun, model_table

    preset, chosen = rules.resolve()
    sizes = hand_sizes(cards, chosen)
    lineup = lineup_from(MODELLED_TABLE if strategies is None else strategies, chosen.players)
    given = (
        [(name, spec) for name, members in DEFAULT_MODELS.items() for spec in members]
        if models is None
        else [(None, spec) for spec in models]
    )
    seats = [bidder(spec, "model", "a model only bids") for _, spec in given]
    labels = [seat.label for seat in seats]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise PochaError(f"model: {', '.join(repeated)} given more than once")
    families: dict[str, list[str]] = {}
    for (name, _), label in zip(given, labels, strict=True):
        families.setdefault(name or label, []).append(label)
    check_amount("deals", deals, MOST_DEALS)
    where = run.make_backend()
    models_too = [(seat.strategy, run.policy) for seat in seats]  # a model bids for the run's play
    learn_tables(player_policies(lineup, run) + models_too, chosen, where, progress)
    recorded = record_bids(
        ModelsRequest(
            rules=chosen,
            lineup=lineup,
            models=tuple(seats),
            sizes=sizes,
            deals=deals,
            seed=run.seed,
            policy=run.policy,
            chunk_size=run.chunk_size,
            backend=where,
            progress=counter(progress, deals * len(sizes)),
            estimate=telling_cost(run, "--deals", deals, len(sizes)),
        )
    )
    played = ModelsRun(
        rules=chosen,
        preset=preset,
        strategies=tuple(seat.label for seat in lineup.seats),
        policy=run.policy.label,
        sizes=tuple(sizes),
        deals=deals,
        seed=run.seed,
        complete=recorded.complete,
    )
    return ModelsResult(played, model_table(recorded.total, labels, families, chosen.players))


def match(
    player: str,
    *,
    against: str = "ismcts",
    game: str = "oh_hell",
    cards: str | int | Sequence[int] = "all",
    deals: int = MATCH_DEALS,
    seed: int = 0,
    progress: Progress | None = None,
) -> "Match":
    """A pocha player against OpenSpiel's own in its ``oh_hell`` (needs ``pip install 'pocha-simulator[openspiel]'``).

    player: a pocha player spec (``montecarlo@pimc``). against: OpenSpiel's IS-MCTS
    (``ismcts:simulations=N,uct_c=C,rollouts=R,resampler=pocha|openspiel``), its uniform random bot
    (``uniform``), or another pocha player. game: OpenSpiel's game string
    (``oh_hell(players=4,off_bid_penalty=true)``); cards: hand sizes as elsewhere, ``all`` the ones it
    deals. Every deal is played once per seat, the player there and the opponent at the others.
    ``result.summary()`` has a row per hand size.
    """
    from pocha.openspiel import BOTS, load_game, most_tricks, play_match, rules_for

    RunOptions(seed=seed)  # the seed, checked as every run's
    for name, value in (("player", player), ("against", against)):
        if not isinstance(value, str):
            raise PochaError(
                f"{name}: a spec such as 'montecarlo@pimc' (against: also ismcts or uniform), not {value!r}"
            )
    loaded = load_game(game)
    rules = rules_for(loaded)
    every = isinstance(cards, str) and cards.strip().lower() == "all"
    sizes = hand_sizes(f"1-{most_tricks(loaded)}" if every else cards, rules)
    check_amount("deals", deals, MOST_DEALS)
    by_openspiel = against.strip().partition(":")[0] in BOTS
    try:
        opponent = against if by_openspiel else Player(against, rules, seed)
    except PochaError as error:
        raise PochaError(
            f"against: '{against}' is neither OpenSpiel's {' nor '.join(BOTS)} nor a pocha player ({error})"
        ) from None
    return play_match(
        Player(player, rules, seed),
        against=opponent,
        game=game,
        sizes=sizes,
        deals=deals,
        seed=seed,
        progress=counter(progress, deals * len(sizes)),
    )


def seat_of(spec: Spec, option: str) -> Seat:
    """The player an option names, its mistakes said under the option's name (``strong: ...``)."""
    try:
        return Seat.of(spec)
    except PochaError as error:
        raise PochaError(f"{option}: {error}") from None


def bidder(spec: Spec, option: str, why: str) -> Seat:
    """A bidding strategy that plays no card (a model, advise's assumed bidders): ``BID@PLAY`` is refused."""
    seat = Seat.of(spec)
    if seat.policy is not None:
        raise PochaError(f"{option}: '{spec}' names a card play; {why}, give its bidding strategy")
    return seat


@with_flat_options
def train(
    out: str | Path,
    *,
    deals: int = 1_000_000,
    rules: RuleOptions = RuleOptions(),
    run: RunOptions = RunOptions(),
    progress: Progress | None = None,
) -> TrainingResult:
    """Learn a trick table for ``table`` (every seat bidding ``expected``, playing ``run.play``), written to ``out``."""
    _, chosen = rules.resolve()
    check_amount("deals", deals, MOST_DEALS)
    if not str(out).endswith(".npz"):
        raise PochaError(f"out: a trick table is an .npz file; give a name ending in .npz, not '{out}'")
    check_writable(out, "out", is_table_file, "pocha trick table")
    where = run.make_backend()
    table = train_table(
        TrainingRequest(
            rules=chosen,
            deals=deals,
            seed=run.seed,
            policy=run.policy,
            chunk_size=run.chunk_size,
            backend=where,
            progress=counter(progress, deals * chosen.full_deal),
            estimate=telling_cost(run, "--deals", deals, chosen.full_deal),
        )
    )
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


@dataclass(frozen=True)
class RulesInfo:
    """A rule set as ``pocha rules`` shows it: the preset it came from (None for a Rules object) and its rules."""

    preset: str | None
    rules: Rules

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the rules, hand sizes, scoring name, named scorings; the preset's text, decks, readings."""
        data: dict[str, Any] = {
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "hand_sizes": self.rules.hand_sizes(),
            "scoring_name": self.rules.scoring.name,
            "scoring_systems": {name: asdict(system) | {"about": about} for name, (system, about) in SCORINGS.items()},
        }
        if self.preset:
            known = PRESETS[self.preset]
            data |= {"text": known.text, "decks": known.decks, "readings": list(known.readings)}
        return data


@with_flat_options
def rules_info(*, rules: RuleOptions = RuleOptions()) -> RulesInfo:
    """The effective rule set of a preset and player count with single options overridden (``players=6``)."""
    return RulesInfo(*rules.resolve())


def strategies() -> list[StrategyInfo]:
    """Every strategy that can be named, built-in and plug-ins, with its parameters and defaults."""
    return catalogue()


def bench(
    *,
    deals: int = 1_000_000,
    repeats: int = 5,
    threads: str | Sequence[int] = (1,),
    dask: int = 0,
    against: str | Path | None = None,
) -> Iterator["Measurement"]:
    """Deals (or games) per second of the standard workloads, each measurement as it is made.

    threads: the thread counts to run on (``"1,2"`` or a list); dask: also run the first workload on
    a Dask LocalCluster of that many workers; against: a reference program timed in the same rounds
    (a ``.c`` file is built first, e.g. the repository's benchmarks/reference.c).
    """
    from pocha.engine.bench import bench as run_bench
    from pocha.engine.bench import check_reference, reference_program

    counts = thread_counts(threads)
    if deals < 1 or repeats < 1 or dask < 0:
        raise PochaError("bench: --deals, --repeats and thread counts must be at least 1, --dask 0 or more")
    for option, count in (("threads", max(counts)), ("dask", dask)):
        if count:
            check_count(option, count)
    reference = reference_program(Path(against)) if against else None
    if reference:
        check_reference(reference)
    return run_bench(deals, repeats, counts, dask, reference)


def bench_stages(*, repeats: int = 5) -> Iterator[tuple["Benchmark", dict[str, float]]]:
    """Nanoseconds per deal of each stage (deal, bids, play, tally) of the staged workloads, on one thread."""
    from pocha.engine.bench import stage_times, staged

    if repeats < 1:
        raise PochaError(f"repeats: must be at least 1, not {repeats}")
    return ((benchmark, stage_times(benchmark, STAGE_CHUNKS * repeats)) for benchmark in staged())


def bench_startup(*, repeats: int = 5, cold: bool = True) -> list["StartupTime"]:
    """Seconds to start ``pocha --version``, ``--help`` and a warm ``simulate --deals 1000``; a cold run if ``cold``."""
    from pocha.engine.startup import startup_times

    if repeats < 1:
        raise PochaError(f"repeats: must be at least 1, not {repeats}")
    return startup_times(repeats, cold)


def bench_decisions(*, deals: int = 20, rules: RuleOptions = RuleOptions()) -> list["DecisionTime"]:
    """Milliseconds a ``Player`` takes per bid and per card, for players from the quickest to the strongest.

    ``deals`` full deals of the rules (4 players, 10 cards by default), every decision asked of the player.
    """
    from pocha.engine.decisions import DECISION_PLAYERS, decision_times

    check_amount("deals", deals, 10_000)
    _, chosen = rules.resolve()
    for spec in DECISION_PLAYERS:
        Player(spec, chosen)  # the default tables they bid from, learned if the cache lacks them
    return decision_times(chosen, chosen.full_deal, deals)


def thread_counts(threads: str | Sequence[int]) -> list[int]:
    """Thread counts from ``"1,2"`` or a list; each at least 1."""
    try:
        counts = [int(word) for word in threads.split(",")] if isinstance(threads, str) else list(threads)
    except ValueError:
        raise PochaError(f"threads: '{threads}' is not a list of thread counts such as 1,2") from None
    if not counts or min(counts) < 1:
        raise PochaError(f"threads: give thread counts of at least 1, such as 1,2; not '{threads}'")
    return counts
