"""The Python API: every run of the command line as a function returning a result object.

The CLI parses its options, calls these functions and prints what they return, so a notebook and
the command line give the same numbers for the same options. Options take the CLI's values, in
groups (``pocha.options``: ``rules=RuleOptions(...)``, ``run=``, ``output=``, ``saving=``) or as
plain keywords (``players=5``; ``rules`` then also takes a preset name or a ``Rules`` object);
``cards`` is a hand size, a list of them or ``"all"``, strategies are spec strings
(``"expected:bias=0.3"``) or strategy objects; the deals a run asks for (``dealing=DealOptions(...)``,
or ``hands=``, ``trump=``, ``where=``: docs/deals.md) are read against its rules. Every check of the
options happens before any deal is played; a mistake raises ``PochaError`` with one line. Each run
is a short call of the one execution path (``pocha._execution``).
A Ctrl-C stops a run after the chunks finished so far: the result says ``complete=False`` and
nothing is written. The lines for the person running pocha go to ``messages`` (the CLI prints
them on stderr; the library prints nothing): a default trick table learned first, and before a run
expected to last over 30 s, how long and the amount that would take about that long (its first
deals timed: ``pocha.engine.estimate``).
"""

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from pocha._execution import (
    Asked,
    Messages,
    Progress,
    check_trace,
    condition_deals,
    counter,
    execute,
    learn_default_tables,
    record_run,
    recorded,
)
from pocha.advising import advise as advise
from pocha.advising import advise_card as advise_card
from pocha.engine.atomic import atomic_path, check_writable
from pocha.engine.backends import Threads, default_threads
from pocha.engine.games import Games
from pocha.engine.lineups import (
    DEFAULT_MODELS,
    MODELLED_TABLE,
    Spec,
    compared_lineup,
    entrant_of,
    lineup_from,
    model_entrants,
)
from pocha.engine.models import ModelBids
from pocha.engine.play_training import PlayTraining, TrainingProgress
from pocha.engine.play_training import train_play as train_play_rounds
from pocha.engine.player import DealView as DealView
from pocha.engine.player import Decider
from pocha.engine.policies import TEACHER, TRAIN_PLAY_DEALS, TRAIN_PLAY_ROUNDS
from pocha.engine.seating import Lineup
from pocha.engine.simulate import Comparison, Deals
from pocha.engine.training import Training, train_table
from pocha.engine.variants import Study
from pocha.engine.workload import MOST_DEALS, Amount
from pocha.errors import PochaError
from pocha.game.rules import Rules
from pocha.game.sizes import every_size, read_cards
from pocha.interrupt import run_over
from pocha.kernels.jit import announcing_first_compile as announcing_first_compile
from pocha.options import (
    COMPARED_DEALS,
    LEARN_DEALS,
    SIMULATED_DEALS,
    STUDY,
    STUDY_STRONG,
    STUDY_WEAK,
    CheckpointOptions,
    DealOptions,
    DealsKeywords,
    GamesKeywords,
    ModelsKeywords,
    OutputOptions,
    RuleKeywords,
    RuleOptions,
    RulesGiven,
    RulesRunKeywords,
    RunOptions,
    StudyKeywords,
    check_seed,
    parse_study,
    resolve_rules,
    with_flat_options,
)
from pocha.playing import END_OF_INPUT as END_OF_INPUT
from pocha.playing import INTERRUPTED as INTERRUPTED
from pocha.playing import play_game as play_game
from pocha.reports import kinds
from pocha.results import GamesResult, ModelsResult, RulesInfo, SimulationResult, TrainingResult, VariantsResult
from pocha.strategies.base import Predicts
from pocha.strategies.play_models import PlayModel, is_play_model_file
from pocha.strategies.registry import StrategyInfo, catalogue
from pocha.strategies.table import is_table_file

if TYPE_CHECKING:
    from pocha.engine.bench import Benchmark
    from pocha.engine.decisions import DecisionTime
    from pocha.engine.startup import StartupTime
    from pocha.reports.match import Match

STAGE_CHUNKS = 10  # chunks a stage profile times per repeat
BENCH_DEALS = 1_000_000  # deals a bench run plays (slow strategies a share)
BENCH_REPEATS = 5  # runs per workload, and per command of the start-up times
MATCH_DEALS = 100  # deals per hand size of a match, each played once per seat


class Player(Decider):
    """One player deciding alone, for a person at a table or another program: ``decide(DealView(...))``.

    spec: a player as in a run (``montecarlo@pimc``); rules: a ``Rules`` or ``RuleOptions``; seed: its
    choices are those of deal ``deal`` in a run with this seed. The default trick tables it bids
    from are learned first into pocha's cache if it lacks them and ``learn_tables`` asks (one line to
    ``messages`` says so); without ``learn_tables`` their lack is one line (a ``PochaError``).
    """

    def __init__(
        self,
        spec: str,
        rules: RulesGiven = RuleOptions(),
        seed: int = 0,
        messages: Messages | None = None,
        learn_tables: bool = False,
    ) -> None:
        if not isinstance(rules, RuleOptions | str | Rules):
            raise PochaError(f"rules: a preset name, a pocha.RuleOptions or a pocha.Rules, not {rules!r}")
        super().__init__(spec, resolve_rules(rules)[1], seed)
        bidders = [(self.entrant.strategy, self.policy)]
        learn_default_tables(bidders, self.rules, RunOptions().make_backend(), None, messages, learn_tables)


@recorded
@with_flat_options
def simulate(
    strategies: Spec | Sequence[Spec] | None = None,
    *,
    cards: str | int | Sequence[int] = "all",
    deals: int = SIMULATED_DEALS,
    rules: RulesGiven = RuleOptions(),
    run: RunOptions = RunOptions(),
    dealing: DealOptions = DealOptions(),
    output: OutputOptions = OutputOptions(),
    saving: CheckpointOptions = CheckpointOptions(),
    trace: str | Path | None = None,
    trace_deals: int | None = None,
    predictions: bool = False,
    progress: Progress | None = None,
    messages: Messages | None = None,
    command_line: str | None = None,
    **flat: Unpack[DealsKeywords],
) -> SimulationResult:
    """Deal ``deals`` deals of each hand size to a line-up of strategies and tally the points of every hand.

    strategies: one spec for every seat, or one per seat (default: expected, aces-trumps, fair-share,
    random, zero in turn). The option groups may also be given as plain keywords (``players=5,
    seed=2, out="run1"``). trace: a pocha-trace/3 file of the first ``trace_deals`` deals (all when
    None). predictions: record what the predicting strategies expect of each bid (the table
    ``predictions``, ``predictions.csv`` in an ``out`` folder; the trace lines carry them too).
    """
    preset, chosen = resolve_rules(rules)
    sizes = tuple(read_cards(cards, chosen))
    lineup = lineup_from(strategies, chosen.players)
    check_trace(trace, trace_deals, "trace-deals")
    if trace is not None and saving.resume is not None:
        raise PochaError("trace: a resumed run cannot trace the deals it skips; trace a fresh run")
    if predictions:
        check_predictions(lineup, saving)
    conditioned, sizes = condition_deals(dealing, chosen, sizes, run.seed, messages, every=every_size(cards))
    plan = Deals(
        rules=chosen,
        preset=preset,
        lineup=lineup,
        cards=sizes,
        deals_per_size=deals,
        trace_deals=trace_deals,
        conditioned=conditioned,
        **run.plan_fields,
    )
    asked = Asked(run, output, saving, progress, messages)
    return record_run(
        kinds.simulate.SIMULATE_KIND,
        plan,
        asked,
        command_line=command_line,
        trace=trace,
        predictions=predictions,
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
    deals: int = COMPARED_DEALS,
    duplicate: bool = True,
    rules: RulesGiven = RuleOptions(),
    run: RunOptions = RunOptions(),
    dealing: DealOptions = DealOptions(),
    output: OutputOptions = OutputOptions(),
    saving: CheckpointOptions = CheckpointOptions(),
    progress: Progress | None = None,
    messages: Messages | None = None,
    command_line: str | None = None,
    **flat: Unpack[DealsKeywords],
) -> SimulationResult:
    """Compare 2 to 8 strategies on the same deals, with paired confidence intervals (``result.pairs()``).

    Seats take the strategies in turn, each the same number of seats; when they cannot share the
    table evenly, ``field`` (a strategy) fills the seats they leave, one seat each for the compared
    ones. In duplicate (the default) every deal is replayed once per rotation of the seating, so
    each strategy bids every seat's cards of every deal. More strategies than seats take turns at the
    table (in duplicate, without a field): every deal is played once per strategy, the seats taking
    the next ones round the cycle each time, so each still bids every seat's cards once.
    """
    preset, chosen = resolve_rules(rules)
    sizes = tuple(read_cards(cards, chosen))
    lineup = compared_lineup(strategies, field, chosen.players, duplicate)
    filler = lineup.seats[-1].label if field is not None else None
    conditioned, sizes = condition_deals(dealing, chosen, sizes, run.seed, messages, every=every_size(cards))
    plan = Comparison(
        rules=chosen,
        preset=preset,
        lineup=lineup,
        cards=sizes,
        deals_per_size=deals,
        duplicate=duplicate,
        field=filler,
        conditioned=conditioned,
        **run.plan_fields,
    )
    asked = Asked(run, output, saving, progress, messages)
    return record_run(kinds.compare.COMPARE_KIND, plan, asked, command_line=command_line)


@recorded
@with_flat_options
def play_games(
    strategies: Spec | Sequence[Spec] | None = None,
    *,
    games: int = 20_000,
    rotate: bool = True,
    rules: RulesGiven = RuleOptions(),
    run: RunOptions = RunOptions(),
    dealing: DealOptions = DealOptions(),
    output: OutputOptions = OutputOptions(),
    trace: str | Path | None = None,
    trace_games: int | None = None,
    progress: Progress | None = None,
    messages: Messages | None = None,
    command_line: str | None = None,
    **flat: Unpack[GamesKeywords],
) -> GamesResult:
    """Play whole games by the rules' schedule, points carried over, ties parted; report the chance of winning.

    Every game draws its first dealer by lot. With ``rotate`` (the default) game ``g`` seats the
    line-up moved ``g`` seats on from its first dealer, so every strategy holds every seat equally
    often. The rules' schedule (full, short, up, full-only, or hand sizes ``"1-5"``), full_deals (n or n+1 full
    deals of full and up) and tie_break (all, tied or one) shape each game. trace: a pocha-trace/3 file of every
    deal of the first ``trace_games`` games (all when None).
    """
    preset, chosen = resolve_rules(rules)
    lineup = lineup_from(strategies, chosen.players)
    check_trace(trace, trace_games, "trace-games")
    conditioned = condition_deals(dealing, chosen, chosen.hand_sizes(), run.seed, messages, every=True, games=True)[0]
    plan = Games(
        rules=chosen,
        preset=preset,
        lineup=lineup,
        games=games,
        rotate=rotate,
        trace_games=trace_games,
        conditioned=conditioned,
        **run.plan_fields,
    )
    asked = Asked(run, output, progress=progress, messages=messages)
    return record_run(kinds.game.GAME_KIND, plan, asked, command_line=command_line, trace=trace)


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
    dealing: DealOptions = DealOptions(),
    output: OutputOptions = OutputOptions(),
    progress: Progress | None = None,
    messages: Messages | None = None,
    command_line: str | None = None,
    **flat: Unpack[StudyKeywords],
) -> VariantsResult:
    """Rule sets side by side: the same games under each variant, by the same players.

    variants: presets with overrides, ``PRESET[:OPTION=VALUE]...`` (``ludoteka:hook=never``); the
    first is the one the others are compared with. strategies: the line-up whose seats and games are
    measured (default: the weak player at every seat). strong, weak: the players of the skill table
    (the strong one at one seat among weak ones) and of the all-weak table it is compared with.
    """
    run.at_95_only("variants")
    condition = partial(condition_deals, dealing, seed=run.seed, messages=messages, every=True, games=True)
    studied = [
        replace(variant, conditioned=condition(variant.rules, variant.rules.hand_sizes(), variant=variant.name)[0])
        for variant in parse_study(variants, players)
    ]
    strong_entrant, weak_entrant = (entrant_of(spec, flag) for spec, flag in ((strong, "strong"), (weak, "weak")))
    lineup = lineup_from(weak if strategies is None else strategies, players)
    plan = Study(
        variants=tuple(studied), lineup=lineup, strong=strong_entrant, weak=weak_entrant, games=games, **run.plan_fields
    )
    asked = Asked(run, output, progress=progress, messages=messages)
    return record_run(kinds.variants.VARIANTS_KIND, plan, asked, command_line=command_line)


@recorded
@with_flat_options
def score_models(
    strategies: Spec | Sequence[Spec] | None = None,
    *,
    models: Sequence[Spec] | None = None,
    cards: str | int | Sequence[int] = "all",
    deals: int = 2_000,
    rules: RulesGiven = RuleOptions(),
    run: RunOptions = RunOptions(),
    dealing: DealOptions = DealOptions(),
    progress: Progress | None = None,
    messages: Messages | None = None,
    command_line: str | None = None,
    **flat: Unpack[ModelsKeywords],
) -> ModelsResult:
    """Which model of a bidder predicts a table's bids best: the mean log score of the bids made, under each model.

    strategies: the table whose bids are predicted (one spec for every seat, or one per seat;
    default ``montecarlo`` at every seat). models: the candidate models, specs (default
    ``DEFAULT_MODELS``, among them ``expected`` with its bias fitted). Every model bids each hand
    after the same earlier bids and is read as montecarlo reads its ``assume`` strategy
    (``bid_likelihood``), at the sharpness that fits best (``pocha.reports.models``).
    """
    run.at_95_only("models")
    preset, chosen = resolve_rules(rules)
    sizes = tuple(read_cards(cards, chosen))
    lineup = lineup_from(MODELLED_TABLE if strategies is None else strategies, chosen.players)
    entrants, families = model_entrants(DEFAULT_MODELS if models is None else models)
    conditioned, sizes = condition_deals(dealing, chosen, sizes, run.seed, messages, every=every_size(cards))
    plan = ModelBids(
        rules=chosen,
        preset=preset,
        lineup=lineup,
        models=tuple(entrants),
        families=tuple(families),
        cards=sizes,
        deals_per_size=deals,
        conditioned=conditioned,
        **run.plan_fields,
    )
    asked = Asked(run, progress=progress, messages=messages)
    return record_run(kinds.models.MODELS_KIND, plan, asked, command_line=command_line)


def match(
    player: str,
    *,
    against: str = "ismcts",
    game: str = "oh_hell",
    cards: str | int | Sequence[int] = "all",
    deals: int = MATCH_DEALS,
    seed: int = 0,
    progress: Progress | None = None,
    messages: Messages | None = None,
    learn_tables: bool = False,
) -> "Match":
    """A pocha player against OpenSpiel's own in its ``oh_hell`` (needs ``pip install 'pocha-simulator[openspiel]'``).

    player: a pocha player spec (``montecarlo@pimc``). against: OpenSpiel's IS-MCTS
    (``ismcts:simulations=N,uct_c=C,rollouts=R,resampler=pocha|openspiel``), its uniform random bot
    (``uniform``), or another pocha player. game: OpenSpiel's game string
    (``oh_hell(players=4,off_bid_penalty=true)``); cards: hand sizes as elsewhere, ``all`` the ones it
    deals. Every deal is played once per seat, the player there and the opponent at the others.
    learn_tables: learn a default trick table the players lack into pocha's cache (else refuse).
    ``result.summary()`` has a row per hand size.
    """
    from pocha.openspiel.games import load_game, most_tricks, rules_for
    from pocha.openspiel.match import BOTS, play_match

    check_seed(seed)
    for name, value in (("player", player), ("against", against)):
        if not isinstance(value, str):
            raise PochaError(
                f"{name}: a spec such as 'montecarlo@pimc' (against: also ismcts or uniform), not {value!r}"
            )
    loaded = load_game(game)
    rules = rules_for(loaded)
    sizes = read_cards(f"1-{most_tricks(loaded)}" if every_size(cards) else cards, rules)
    Amount("--deals", deals, MOST_DEALS).check()
    by_openspiel = against.strip().partition(":")[0] in BOTS
    try:
        opponent = against if by_openspiel else Player(against, rules, seed, messages, learn_tables)
    except PochaError as error:
        raise PochaError(
            f"against: '{against}' is neither OpenSpiel's {' nor '.join(BOTS)} nor a pocha player ({error})"
        ) from None
    return play_match(
        Player(player, rules, seed, messages, learn_tables),
        against=opponent,
        game=game,
        sizes=sizes,
        deals=deals,
        seed=seed,
        progress=counter(progress, deals * len(sizes)),
    )


@with_flat_options
def train(
    out: str | Path,
    *,
    deals: int = LEARN_DEALS,
    rules: RulesGiven = RuleOptions(),
    run: RunOptions = RunOptions(),
    progress: Progress | None = None,
    messages: Messages | None = None,
    **flat: Unpack[RulesRunKeywords],
) -> TrainingResult:
    """Learn a trick table for ``table`` (every seat bidding ``expected``, playing ``run.play``), written to ``out``."""
    run.at_95_only("train")
    _, chosen = resolve_rules(rules)
    if not str(out).endswith(".npz"):
        raise PochaError(f"out: a trick table is an .npz file; give a name ending in .npz, not '{out}'")
    check_writable(out, "out", is_table_file, "pocha trick table")
    plan = Training(rules=chosen, deals_per_size=deals, **run.plan_fields)
    table = execute(plan, train_table, Asked(run, progress=progress, messages=messages))
    if table is None:
        return TrainingResult(None, None)
    run_over()  # a signal once the table is written must not end the command as "no table was written"
    with atomic_path(out) as temporary:
        table.save(temporary)
    return TrainingResult(table, Path(out))


def train_play(
    out: str | Path,
    *,
    data: str | Path,
    deals: int = TRAIN_PLAY_DEALS,
    rounds: int = TRAIN_PLAY_ROUNDS,
    teacher: str = TEACHER,
    rules: RuleOptions = RuleOptions(),
    seed: int = 0,
    threads: int | None = None,
    progress: Progress | None = None,
    messages: Messages | None = None,
) -> PlayModel:
    """Learn a play model for ``learned`` from ``teacher`` (``pocha.engine.play_training``), written to ``out``.

    data: the folder its labelled positions and each round's model go to; a stopped run given the
    same folder resumes. Raises KeyboardInterrupt on Ctrl-C, the work done kept in ``data``.
    """
    _, chosen = rules.resolve()
    if not str(out).endswith(".npz"):
        raise PochaError(f"out: a play model is an .npz file; give a name ending in .npz, not '{out}'")
    check_writable(out, "out", is_play_model_file, "pocha play model")
    plan = PlayTraining(rules=chosen, deals=deals, rounds=rounds, teacher=teacher, seed=seed)
    told = TrainingProgress(progress or (lambda done, total: None), messages or (lambda line: None))
    model = train_play_rounds(plan, Path(data), Threads(threads or default_threads()), told)
    model.save(out)
    return model


def report(folder: str | Path) -> tuple[Path, list[Path]]:
    """Redraw a finished run folder's figures and write its ``report.html``: ``(report, figures)``.

    Only the files its run.json lists are read, and checked first; the new files appear together.
    """
    from pocha.reports.runs import write_report

    return write_report(Path(folder))


@with_flat_options
def rules_info(*, rules: RulesGiven = RuleOptions(), **flat: Unpack[RuleKeywords]) -> RulesInfo:
    """The effective rule set of a preset and player count with single options overridden (``players=6``)."""
    return RulesInfo(*resolve_rules(rules))


def strategies(names: Sequence[str] | None = None) -> list[StrategyInfo]:
    """Every strategy that can be named, built-in and plug-ins, with its parameters and defaults; or those named.

    names: names, ``module:Class`` or ``path/to/file.py:Class`` specs (a strategy of your own), in that order.
    """
    from pocha.strategies.registry import described

    return catalogue() if not names else [described(name) for name in names]


def bench(
    *,
    deals: int = BENCH_DEALS,
    repeats: int = BENCH_REPEATS,
    threads: str | Sequence[int] = (1,),
    dask: int = 0,
    against: str | Path | None = None,
    stages: bool = False,
    startup: bool = False,
    decisions: bool = False,
    play: str | None = None,
    messages: Messages | None = None,
) -> Iterable[Any]:
    """Deals (or games) per second of the standard workloads, each measurement as it is made.

    play: instead of them, one play policy alone, every seat playing it at 4 x 10 and bidding ``expected``.

    threads: the thread counts to run on (``"1,2"`` or a list); dask: also run the first workload on
    a Dask LocalCluster of that many workers; against: a reference program timed in the same rounds
    (a ``.c`` file is built first, e.g. the repository's benchmarks/reference.c). Or instead one
    profile of one thread: the ``stages`` (``bench_stages``), the ``startup`` times
    (``bench_startup``) or the ``decisions`` of a Player (``bench_decisions``), with none of those.
    """
    from pocha.engine.bench import bench as measured

    asked = {"--stages": stages, "--startup": startup, "--decisions": decisions, "--play": play is not None}
    profiles = [flag for flag, given in asked.items() if given]
    if play is not None and len(profiles) > 1:
        raise PochaError(f"{' and '.join(profiles)}: --play times one policy as the workloads are timed; give one")
    if play is None and profiles and (against or dask or threads not in ("1", (1,), [1]) or len(profiles) > 1):
        raise PochaError(
            f"{' and '.join(profiles)}: one profile at a time, of one thread; leave --against, --dask and --threads out"
        )
    if decisions and (deals, repeats) != (BENCH_DEALS, BENCH_REPEATS):
        raise PochaError("--decisions: times every decision of 20 deals of 4 x 10; leave -n and --repeats out")
    if decisions:
        return bench_decisions(messages=messages)
    if startup:
        return bench_startup(repeats=repeats)
    if stages:
        return bench_stages(repeats=repeats)
    return measured(deals, repeats, threads, dask, against, play)


def bench_stages(*, repeats: int = BENCH_REPEATS) -> Iterator[tuple["Benchmark", dict[str, float]]]:
    """Nanoseconds per deal of each stage (deal, bids, play, tally) of the staged workloads, on one thread."""
    from pocha.engine.bench import stage_profile

    return stage_profile(repeats, STAGE_CHUNKS)


def bench_startup(*, repeats: int = BENCH_REPEATS, cold: bool = True) -> Iterator["StartupTime"]:
    """Seconds to start ``pocha --version``, ``--help`` and a warm ``simulate --deals 1000``; a cold run if ``cold``.

    Each command's times as they are measured.
    """
    from pocha.engine.startup import startup_times

    return startup_times(repeats, cold)


def bench_decisions(
    *,
    deals: int = 20,
    rules: RuleOptions = RuleOptions(),
    messages: Messages | None = None,
    learn_tables: bool = False,
) -> Iterator["DecisionTime"]:
    """Milliseconds a ``Player`` takes per bid and per card, for players from the quickest to the strongest.

    ``deals`` full deals of the rules (4 players, 10 cards by default), every decision asked of the player.
    The times come as each player's are measured, as ``bench_stages``' and ``bench_startup``'s do.
    """
    from pocha.engine.decisions import DECISION_PLAYERS, decision_times

    Amount("--deals", deals, 10_000).check()
    _, chosen = rules.resolve()
    for spec in DECISION_PLAYERS:
        Player(spec, chosen, messages=messages, learn_tables=learn_tables)  # the default tables they bid from
    return decision_times(chosen, chosen.full_deal, deals)
