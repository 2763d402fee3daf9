"""The ``pocha`` command line: parse the options, call the Python API (``pocha.api``), print what it returns.

Data goes to stdout; progress, errors and the files written go to stderr. A user's mistake is one
line and exit status 1; a run stopped by Ctrl-C or SIGTERM prints what it has (or one line, when it
has nothing) and exits with 130. Every flag is declared once (``pocha.cli.flags``); a command builds
the option values (``pocha.options``) from its flags and imports the API when it runs, so
``--version`` and every ``--help`` load no numba.
"""

import sys
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from pocha import options
from pocha.cli import flags
from pocha.cli.app import app, command, command_line, interrupted, resume_command, running, say, user_errors
from pocha.errors import PochaError
from pocha.interrupt import closing
from pocha.options import (
    COMPARED_DEALS,
    CONFIDENCE,
    DEFAULT_PLAY,
    DEFAULT_PRESET,
    LEARN_DEALS,
    SIMULATED_DEALS,
    STUDY,
    STUDY_STRONG,
    STUDY_WEAK,
    TEACHER,
    TRAIN_PLAY_DEALS,
    TRAIN_PLAY_ROUNDS,
)
from pocha.words import counted, did_you_mean

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from pocha import api

G = TypeVar("G", bound="DataclassInstance")


GAME_RULES = ("schedule", "tie_break", "full_deals")  # rule options only whole games use
ONE_DECISION = ("chunk_size", "threads", "backend", "workers", "scheduler", "confidence")  # run options advice lacks


def group(kind: type[G], given: dict[str, Any], unflagged: tuple[str, ...] = ()) -> G:
    """An option value (``pocha.options``) of a command's flags named as its fields: ``group(RunOptions, locals())``.

    A field the command has no flag for keeps the value's default only when named in ``unflagged``:
    a flag whose name strays from its field is an error here, not a default kept without a word. A
    value it refuses is one line (``user_errors``).
    """
    names = [item.name for item in fields(kind) if item.init]
    missing = [name for name in names if name not in given and name not in unflagged]
    stray = [name for name in unflagged if name not in names or name in given]
    if missing or stray:
        raise TypeError(f"group({kind.__name__}): no flag for {missing}; unflagged but a flag or no field: {stray}")
    return kind(**{name: given[name] for name in names if name in given})


def examples(*lines: str) -> str:
    """A help epilog of example command lines, kept as written (not re-wrapped)."""
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


FORMATS = ("table", "csv", "json")
RUN_FORMATS = ("table", "summary", "csv", "json")  # a recorded run's: summary, its first table and answers alone


def check_format(value: str, accepted: tuple[str, ...]) -> None:
    """Refuse an output format outside the command's list."""
    if value not in accepted:
        raise PochaError(f"format: unknown '{value}'; {did_you_mean(value, accepted)}accepted: {', '.join(accepted)}")


def show(
    ctx: typer.Context,
    result: "api.SimulationResult | api.GamesResult | api.VariantsResult | api.ModelsResult",
    output_format: str,
    csv_style: str,
    saving: options.CheckpointOptions | None = None,
) -> None:
    """Print a run's results; after Ctrl-C say that nothing was written and exit 130.

    CSV is one table, the main one (as --out FILE.csv); a line on stderr names where the others are.
    A finished run says that its checkpoint, kept on disk, is no longer needed.
    """
    checkpoint = saving.checkpoint if saving else None
    from pocha.reports.tables import csv_text, to_json
    from pocha.reports.text import csv_note, interrupted_note, run_text, stopped_note

    if output_format == "csv":
        if not result.complete:
            typer.echo(f"# {stopped_note(result.record, result.tables)}")
        typer.echo(csv_text(next(iter(result.tables.values())), csv_style), nl=False)
        if note := csv_note(result.record, result.tables):
            typer.echo(note, err=True)
    elif output_format == "json":
        typer.echo(to_json(result.record, result.tables))
    else:
        typer.echo(run_text(result.record, result.tables, brief=output_format == "summary"))
    if len(result.files) == 1:  # --out FILE.csv
        typer.echo(f"wrote {result.files[0]}", err=True)
    elif result.files:  # a folder: its tables and run.json as well as its figures
        typer.echo(f"wrote {result.files[0].parent}: {', '.join(path.name for path in result.files)}", err=True)
    kept = sorted({str(path) for path in (checkpoint, saving and saving.resume) if path and Path(path).is_file()})
    if result.complete and kept:
        say(f"The run is complete: its checkpoint {' and '.join(kept)} is no longer needed; remove it when you like")
    if not result.complete:
        saved = (
            [f"Progress saved in {checkpoint}; resume with:\n  {resume_command(ctx, checkpoint)}"] if checkpoint else []
        )
        interrupted(interrupted_note(result.record), *saved)


# --- the commands ----------------------------------------------------------------------------------


@command(
    short_help="Points per hand of a line-up of bidding strategies.",
    epilog=examples(
        "pocha simulate",
        "pocha simulate -p 5 --cards 8 -s expected -s aces-trumps -s random -s zero -s fair-share",
        "pocha simulate -s expected:bias=0.3 --deals 1000000 --out results.csv",
        "pocha simulate --out run1 --plot",
        "pocha simulate --preset italian --hook never --cards 3 --trace deals.jsonl --trace-deals 100",
        "pocha simulate -s montecarlo --cards 5 --deals 2000 --predictions --out run2",
        'pocha simulate --cards 6 --where "trumps(dealer) >= 3"   (the deals where the dealer holds 3 trumps)',
    ),
)
def simulate(
    *,
    ctx: typer.Context,
    strategy: flags.Strategies = None,
    cards: flags.Cards = "all",
    deals: flags.DealsPerSize = SIMULATED_DEALS,
    hands: flags.DealtHands = None,
    trump: flags.FixedTrump = None,
    where: flags.Where = None,
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    play: flags.Play = DEFAULT_PLAY,
    seed: flags.Seed = 0,
    learn_tables: flags.LearnTables = True,
    confidence: flags.Confidence = CONFIDENCE,
    chunk_size: flags.ChunkSize = None,
    threads: flags.ThreadCount = None,
    backend: flags.BackendName = "local",
    workers: flags.Workers = None,
    scheduler: flags.Scheduler = None,
    out: flags.Out = None,
    plot: flags.Plot = False,
    force: flags.CheckpointedForce = False,
    csv_style: flags.CsvStyle = "plain",
    output_format: flags.Format = "table",
    trace: flags.DealsTrace = None,
    trace_deals: flags.TraceDeals = None,
    predictions: flags.Predictions = False,
    checkpoint: flags.CheckpointFile = None,
    resume: flags.Resume = None,
    checkpoint_every: flags.CheckpointEvery = None,
) -> None:
    """Simulate deals with a line-up of bidding strategies and report expected points per hand."""
    with running("simulate") as progress:
        rules = group(options.RuleOptions, locals(), GAME_RULES)
        run = group(options.RunOptions, locals())
        output = group(options.OutputOptions, locals())
        saving = group(options.CheckpointOptions, locals())
        check_format(output_format, RUN_FORMATS)
        from pocha import api

        result = api.simulate(
            strategy,
            cards=cards,
            deals=deals,
            rules=rules,
            run=run,
            dealing=group(options.DealOptions, locals()),
            output=output,
            saving=saving,
            trace=trace,
            trace_deals=trace_deals,
            predictions=predictions,
            progress=progress,
            messages=say,
            command_line=command_line(ctx),
        )
    show(ctx, result, output_format, csv_style, saving)


@command(
    short_help="Compare strategies on the same deals, paired.",
    epilog=examples(
        "pocha compare expected aces-trumps fair-share random",
        "pocha compare expected expected:bias=0.5 --cards 8 --deals 200000",
        "pocha compare expected aces-trumps --no-duplicate --out cmp --plot",
        "pocha compare expected aces-trumps table --field fair-share   (4 seats: the field fills the fourth)",
        "pocha compare expected aces-trumps --cards 5 --hand 1=1O --trump 7O   (the first bidder holds the trump ace)",
    ),
)
def compare(
    ctx: typer.Context,
    specs: flags.Compared,
    *,
    field: flags.Field = None,
    cards: flags.Cards = "all",
    deals: flags.Boards = COMPARED_DEALS,
    duplicate: flags.Duplicate = True,
    hands: flags.DealtHands = None,
    trump: flags.FixedTrump = None,
    where: flags.Where = None,
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    play: flags.Play = DEFAULT_PLAY,
    seed: flags.Seed = 0,
    learn_tables: flags.LearnTables = True,
    confidence: flags.Confidence = CONFIDENCE,
    chunk_size: flags.ChunkSize = None,
    threads: flags.ThreadCount = None,
    backend: flags.BackendName = "local",
    workers: flags.Workers = None,
    scheduler: flags.Scheduler = None,
    out: flags.Out = None,
    plot: flags.Plot = False,
    force: flags.CheckpointedForce = False,
    csv_style: flags.CsvStyle = "plain",
    output_format: flags.Format = "table",
    checkpoint: flags.CheckpointFile = None,
    resume: flags.Resume = None,
    checkpoint_every: flags.CheckpointEvery = None,
) -> None:
    """Compare bidding strategies on the same deals, with paired confidence intervals.

    Seats take the strategies in turn; in duplicate (the default) every deal is replayed once per
    rotation of the seating, so each strategy bids every seat's cards of every deal. More strategies
    than seats take turns at the table: every deal is played once per strategy.
    """
    with running("compare") as progress:
        rules = group(options.RuleOptions, locals(), GAME_RULES)
        run = group(options.RunOptions, locals())
        output = group(options.OutputOptions, locals())
        saving = group(options.CheckpointOptions, locals())
        check_format(output_format, RUN_FORMATS)
        from pocha import api

        result = api.compare(
            specs,
            field=field,
            cards=cards,
            deals=deals,
            duplicate=duplicate,
            rules=rules,
            run=run,
            dealing=group(options.DealOptions, locals()),
            output=output,
            saving=saving,
            progress=progress,
            messages=say,
            command_line=command_line(ctx),
        )
    show(ctx, result, output_format, csv_style, saving)


@command(
    short_help="Whole games: each strategy's chance of winning.",
    epilog=examples(
        "pocha game",
        "pocha game -s expected -s aces-trumps -s fair-share -s zero --games 50000",
        "pocha game -p 5 --schedule short --out games --plot",
        "pocha game --preset portuguese --schedule 1-5 --tie-break all --trace games.jsonl --trace-games 10",
    ),
)
def game(
    *,
    ctx: typer.Context,
    strategy: flags.Strategies = None,
    games: flags.WholeGames = 20_000,
    rotate: flags.Rotate = True,
    hands: flags.DealtHands = None,
    trump: flags.FixedTrump = None,
    where: flags.Where = None,
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    schedule: flags.Schedule = None,
    tie_break: flags.TieBreak = None,
    full_deals: flags.FullDeals = None,
    play: flags.Play = DEFAULT_PLAY,
    seed: flags.Seed = 0,
    learn_tables: flags.LearnTables = True,
    confidence: flags.Confidence = CONFIDENCE,
    chunk_size: flags.ChunkSize = None,
    threads: flags.ThreadCount = None,
    backend: flags.BackendName = "local",
    workers: flags.Workers = None,
    scheduler: flags.Scheduler = None,
    out: flags.Out = None,
    plot: flags.Plot = False,
    force: flags.Force = False,
    csv_style: flags.CsvStyle = "plain",
    output_format: flags.Format = "table",
    trace: flags.GamesTrace = None,
    trace_games: flags.TraceGames = None,
) -> None:
    """Play whole games by the rules' schedule and report each strategy's chance of winning.

    Every game draws its first dealer by lot; the seating moves one seat every game, so every
    strategy holds every seat equally often.
    """
    with running("game", "games") as progress:
        rules = group(options.RuleOptions, locals())
        run = group(options.RunOptions, locals())
        output = group(options.OutputOptions, locals())
        check_format(output_format, RUN_FORMATS)
        from pocha import api

        result = api.play_games(
            strategy,
            games=games,
            rotate=rotate,
            rules=rules,
            run=run,
            dealing=group(options.DealOptions, locals()),
            output=output,
            trace=trace,
            trace_games=trace_games,
            progress=progress,
            messages=say,
            command_line=command_line(ctx),
        )
    show(ctx, result, output_format, csv_style)


@command(
    short_help="Rule sets side by side: seat advantage, skill, luck and the game itself.",
    epilog=examples(
        "pocha variants",
        "pocha variants ludoteka ludoteka:hook=never ludoteka:hook=always --games 5000",
        "pocha variants turkish turkish:play-rule=pocha italian italian:deck=36 --out study --plot",
        "pocha variants oh-hell oh-hell:scoring=tricks+10 oh-hell:full-deal-trump=dealer-card -p 5",
        "pocha variants ludoteka ludoteka:full-deals=n+1 --strong expected@pimc --weak random -g 500",
    ),
)
def variants(
    ctx: typer.Context,
    variant: flags.Variants = None,
    *,
    players: flags.Players = 4,
    strategy: flags.StudiedLineup = None,
    strong: flags.Strong = STUDY_STRONG,
    weak: flags.Weak = STUDY_WEAK,
    games: flags.StudyGames = 2_000,
    hands: flags.DealtHands = None,
    trump: flags.FixedTrump = None,
    where: flags.Where = None,
    play: flags.Play = DEFAULT_PLAY,
    seed: flags.Seed = 0,
    learn_tables: flags.LearnTables = True,
    confidence: flags.Confidence = CONFIDENCE,
    chunk_size: flags.ChunkSize = None,
    threads: flags.ThreadCount = None,
    backend: flags.BackendName = "local",
    workers: flags.Workers = None,
    scheduler: flags.Scheduler = None,
    out: flags.Out = None,
    plot: flags.Plot = False,
    force: flags.Force = False,
    csv_style: flags.CsvStyle = "plain",
    output_format: flags.Format = "table",
) -> None:
    """Compare rule sets on the same deals: who gains from the seat, how much skill pays, how much luck decides.

    Every variant plays the same games (wherever it deals as the first does, the same cards) by
    three tables: the line-up; the weak player at every seat; and the strong player at one seat among
    weak ones. Each figure comes with a 95% interval and, from the second variant on, its paired
    difference to the first.
    """
    with running("variants", "games") as progress:
        run = group(options.RunOptions, locals())
        output = group(options.OutputOptions, locals())
        check_format(output_format, RUN_FORMATS)
        from pocha import api

        result = api.variants(
            variant or STUDY,
            players=players,
            strategies=strategy,
            strong=strong,
            weak=weak,
            games=games,
            run=run,
            dealing=group(options.DealOptions, locals()),
            output=output,
            progress=progress,
            messages=say,
            command_line=command_line(ctx),
        )
    show(ctx, result, output_format, csv_style)


@command(
    short_help="What to bid, or which card to play, by play-outs.",
    epilog=examples(
        'pocha advise --hand "1O 3O 12C 5E 2B" --trump 7O --players 4 --position 2 --bids 1,0',
        'pocha advise --hand "1C" --trump 7O --position 3 --bids 0,1,0 --samples 50000 --format json',
        'pocha advise --preset oh-hell --hand "AS KH 10D 2C" --trump 7H --position 1 --bids 1',
    ),
)
def advise(
    *,
    hand: flags.Hand,
    trump: flags.Trump = None,
    position: flags.Position = 0,
    bids: flags.Bids = "",
    played: flags.Played = None,
    bid: flags.Bid = None,
    samples: flags.Samples = 10_000,
    assume: flags.Assume = "table",
    sharpness: flags.Sharpness = None,
    solve: flags.Solve = 0,
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    play: flags.Rollout = DEFAULT_PLAY,
    seed: flags.Seed = 0,
    learn_tables: flags.LearnTables = True,
    output_format: flags.AdviceFormat = "table",
) -> None:
    """Advise a bid (the chance of each number of tricks, the expected points of each bid) or, with --played, a card."""
    import json

    from pocha.reports.text import advice_text

    with running("advise", "play-outs") as progress:
        rules = group(options.RuleOptions, locals(), GAME_RULES)
        check_format(output_format, ("table", "json"))
        from pocha import api

        advice = api.advise(
            hand,
            trump,
            position=position,
            bids=bids,
            played=played,
            bid=bid,
            samples=samples,
            assume=assume,
            sharpness=sharpness,
            solve=solve,
            rules=rules,
            run=group(options.RunOptions, locals(), ONE_DECISION),
            progress=progress,
            messages=say,
        )
    if output_format == "json":
        typer.echo(json.dumps(advice.to_dict(), indent=2))
        return
    typer.echo(advice_text(advice, symbols=shows_suit_symbols()))


def shows_suit_symbols() -> bool:
    """Whether stdout is a terminal that can show the French suit symbols."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "\u2660\u2665\u2666\u2663".encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return sys.stdout.isatty()


@command(
    short_help="Which cheap model predicts a strong table's bids best.",
    epilog=examples(
        "pocha models",
        "pocha models -p 3 -k 1,3,5,8 -n 4000 --threads 1",
        "pocha models -s table --model expected --model expected:bias=-0.1 --model aces-trumps",
        "pocha models -k 5 --format csv > scores.csv",
    ),
)
def models(
    *,
    ctx: typer.Context,
    strategy: flags.PredictedTable = None,
    model: flags.Models = None,
    cards: flags.Cards = "all",
    deals: flags.DealsPerSize = 2_000,
    hands: flags.DealtHands = None,
    trump: flags.FixedTrump = None,
    where: flags.Where = None,
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    play: flags.Play = DEFAULT_PLAY,
    seed: flags.Seed = 0,
    learn_tables: flags.LearnTables = True,
    confidence: flags.Confidence = CONFIDENCE,
    chunk_size: flags.ChunkSize = None,
    threads: flags.ThreadCount = None,
    backend: flags.BackendName = "local",
    workers: flags.Workers = None,
    scheduler: flags.Scheduler = None,
    output_format: flags.Format = "table",
) -> None:
    """Score models of a bidder by how well they predict the bids a table makes (mean log score, sharpness fitted).

    Every model bids each hand after the same earlier bids and is read as montecarlo reads its assume
    strategy: a bid d away from the model's weighs e^(-sharpness d). The best model suits
    montecarlo:assume=SPEC.
    """
    with running("models") as progress:
        rules = group(options.RuleOptions, locals(), GAME_RULES)
        run = group(options.RunOptions, locals())
        check_format(output_format, FORMATS)
        from pocha import api

        dealing = group(options.DealOptions, locals())
        result = api.score_models(
            strategy,
            models=model,
            cards=cards,
            deals=deals,
            rules=rules,
            run=run,
            dealing=dealing,
            progress=progress,
            messages=say,
            command_line=command_line(ctx),
        )
    show(ctx, result, output_format, "plain")


@command(
    short_help="A pocha player against OpenSpiel's own, in oh_hell or on Pocha's rules.",
    epilog=examples(
        "pocha match montecarlo@pimc -k 2,5 -n 20",
        "pocha match montecarlo@pimc --against ismcts:simulations=1000 --game 'oh_hell(players=4)' -k 2,5,8 -n 100",
        "pocha match expected@greedy --against uniform --game 'oh_hell(off_bid_penalty=true,points_per_trick=5)'",
        "pocha match montecarlo@pimc --against ismcts:simulations=100 --game 'pocha(players=4)' -k 2,5 -n 10",
    ),
)
def match(
    player: flags.MatchPlayer,
    against: flags.Opponent = "ismcts",
    game: flags.OpenSpielGame = "oh_hell",
    cards: flags.MatchCards = "all",
    deals: flags.MatchDeals = 100,
    seed: flags.MatchSeed = 0,
    learn_tables: flags.LearnTables = True,
    output_format: flags.Format = "table",
) -> None:
    """Play a pocha player against OpenSpiel's own in oh_hell or pocha (pip install 'pocha-simulator[openspiel]').

    Every deal is played once per seat: the player there, the opponent at the others. Prints each
    side's points per hand, the paired difference with its 95% interval, and the milliseconds per
    decision of each side, by hand size.
    """
    import json

    from pocha.reports.tables import csv_text
    from pocha.reports.text import match_text

    with running("match") as progress:
        check_format(output_format, FORMATS)
        from pocha import api

        played = api.match(
            player,
            against=against,
            game=game,
            cards=cards,
            deals=deals,
            seed=seed,
            progress=progress,
            messages=say,
            learn_tables=learn_tables,
        )
    if output_format == "csv":
        typer.echo(csv_text(played.summary()), nl=False)
    elif output_format == "json":
        typer.echo(json.dumps(played.to_dict(), indent=2))
    else:
        typer.echo(match_text(played))
    if not played.complete:
        interrupted("the results above cover the finished deals only")


@command(
    short_help="Play whole games in the terminal against pocha's players.",
    epilog=examples(
        "pocha play",
        "pocha play -p 3 --seat 2 -s expected@greedy --schedule 1-4",
        "pocha play --preset oh-hell -p 5 -s montecarlo@pimc -s expected -s table@pimc -s random --trace game.jsonl",
    ),
)
def play(
    *,
    strategy: flags.Opponents = None,
    seat: flags.YourSeat = 0,
    samples: flags.AdviceSamples = 10_000,
    trace: flags.PlayTrace = "pocha-play.jsonl",
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    schedule: flags.Schedule = None,
    tie_break: flags.TieBreak = None,
    full_deals: flags.FullDeals = None,
    seed: flags.Seed = 0,
    learn_tables: flags.LearnTables = True,
) -> None:
    """Play a whole game against pocha's players: bid and play when asked, ? for advice at any decision.

    The deals are those pocha game deals with the same seed; a move the rules refuse is told why and
    asked again; the game is written to the trace after every hand. Exit status: 0 when the game ends
    or q stops it, 1 when the input ends first, 130 on Ctrl-C or SIGTERM.
    """
    with running("play"):
        rules = group(options.RuleOptions, locals())
        from pocha import api

        outcome = api.play_game(
            strategy,
            seat=seat,
            samples=samples,
            trace=trace,
            rules=rules,
            seed=seed,
            say=typer.echo,
            messages=say,
            learn_tables=learn_tables,
        )
    if outcome.stopped == api.END_OF_INPUT:
        say("Error: the input ended before the game did (q stops a game)")
        raise typer.Exit(1)
    if outcome.stopped == api.INTERRUPTED:
        raise typer.Exit(130)


@command(
    short_help="Learn a trick table for the table strategy.",
    epilog=examples(
        "pocha train --players 4 --deals 1000000 --out strategies/tables/players-4.npz",
        "pocha train --players 4 --play pimc --deals 200000 --out strategies/tables/players-4-pimc.npz",
        "pocha train --players 6 --deals 200000 --out six.npz   (then: -s table:path=six.npz)",
    ),
)
def train(
    *,
    out: flags.TableFile,
    deals: flags.TrainingDeals = LEARN_DEALS,
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    play: flags.TrainingPlay = DEFAULT_PLAY,
    seed: flags.Seed = 0,
    chunk_size: flags.ChunkSize = None,
    threads: flags.ThreadCount = None,
) -> None:
    """Learn a trick table for the table strategy from simulated deals (every seat bidding expected, playing --play).

    A table learned under pimc play serves only its scoring (pimc plays for points): give --scoring.
    """
    from pocha.reports.text import training_text

    with running("train") as progress:
        rules = group(options.RuleOptions, locals(), GAME_RULES)
        run = group(options.RunOptions, locals(), ("backend", "workers", "scheduler", "confidence", "learn_tables"))
        from pocha import api

        trained = api.train(out, deals=deals, rules=rules, run=run, progress=progress, messages=say)
    if trained.table is None:
        interrupted("no table was written")
    typer.echo(training_text(trained.table, out))


@command(
    name="train-play",
    short_help="Learn a play model for the learned play, from pimc.",
    epilog=examples(
        "pocha train-play --players 4 --data ludoteka-4 --out mine.npz   (then: --play learned:model=mine.npz)",
        "pocha train-play --preset oh-hell --players 3 --deals 500 --rounds 2 --data oh3 --out oh3.npz",
    ),
)
def train_play(
    *,
    out: flags.ModelFile,
    data: flags.TrainingData,
    deals: flags.TrainingDeals = TRAIN_PLAY_DEALS,
    rounds: flags.Rounds = TRAIN_PLAY_ROUNDS,
    teacher: flags.Teacher = TEACHER,
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    seed: flags.Seed = 0,
    threads: flags.ThreadCount = None,
) -> None:
    """Learn a play model from a pimc teacher, DAgger-style (needs scikit-learn: pip install 'pocha-simulator[train]').

    Each round plays --deals deals of every hand size, every seat bidding as the shipped heuristics do:
    in the first the teacher plays, in the others the model of the round before, and the teacher
    values every card that differs at each choice; a model is fitted after each round on every
    round's positions, and measured on positions kept out of the fit. Data takes hours of one thread
    at the defaults: a stopped run, given the same --data folder, resumes where it was.
    """
    with running("train-play") as progress:
        rules = group(options.RuleOptions, locals(), GAME_RULES)
        from pocha import api

        try:
            model = api.train_play(
                out,
                data=data,
                deals=deals,
                rounds=rounds,
                teacher=teacher,
                rules=rules,
                seed=seed,
                threads=threads,
                progress=progress,
                messages=say,
            )
        except KeyboardInterrupt:
            interrupted(f"no model was written; run the same command again to resume from {data}")
    typer.echo(f"Wrote {out}; held out: {model.held_out_text}.")


@command(
    short_help="Figures and report.html of a finished run folder.",
    epilog=examples(
        "pocha compare expected aces-trumps --out cmp",
        "pocha report cmp",
    ),
)
def report(folder: flags.RunFolder) -> None:
    """Redraw a finished run's figures and write one self-contained report.html, without simulating."""
    from pocha import api

    with user_errors():
        page, figures = api.report(folder)
    typer.echo(f"wrote {page} ({counted(len(figures), 'figure')})")


@command(
    short_help="The effective rules, decks and readings of a preset.",
    name="rules",
    epilog=examples(
        "pocha rules",
        "pocha rules --players 6 --deck 48",
        "pocha rules --preset turkish --players 3",
    ),
)
def show_rules(
    *,
    players: flags.Players = 4,
    preset: flags.Preset = DEFAULT_PRESET,
    deck: flags.Deck = None,
    rank_order: flags.RankOrder = None,
    play_rule: flags.PlayRule = None,
    hook: flags.Hook = None,
    full_deal_trump: flags.FullDealTrump = None,
    scoring: flags.Scoring = None,
    schedule: flags.Schedule = None,
    tie_break: flags.TieBreak = None,
    full_deals: flags.FullDeals = None,
    output_format: flags.TextFormat = "text",
) -> None:
    """Print the effective rule set, the preset's decks by player count and the readings it takes of its text."""
    import json

    from pocha import api
    from pocha.reports.text import rules_text

    with user_errors():
        rules = group(options.RuleOptions, locals())
        check_format(output_format, ("text", "json"))
        info = api.rules_info(rules=rules)
    if output_format == "json":
        typer.echo(json.dumps(info.to_dict(), indent=2))
        return
    typer.echo(rules_text(info.preset, info.rules))


@command(
    short_help="Every strategy that can be named, with parameters.",
    name="strategies",
    epilog=examples(
        "pocha strategies",
        "pocha strategies --format json",
        "pocha strategies montecarlo ./mybids.py:TrumpsOnly",
    ),
)
def list_strategies(name: flags.Described = None, output_format: flags.TextFormat = "text") -> None:
    """List every strategy that can be named, or those named: built-in and plug-ins, with parameters and defaults."""
    import json
    from dataclasses import asdict

    from pocha import api
    from pocha.reports.text import strategies_text

    with user_errors():
        check_format(output_format, ("text", "json"))
        found = api.strategies(name)
    if output_format == "json":
        typer.echo(json.dumps([asdict(info) for info in found], indent=2))
        return
    typer.echo(strategies_text(found, whole=not name))


@command(
    short_help="Deals (games) per second of standard workloads.",
    epilog=examples(
        "pocha bench",
        "pocha bench --threads 1,2 --dask 2",
        "pocha bench --against benchmarks/reference.c   (the repository's C reference, built with cc)",
        "pocha bench --against ./my_reference   (it prints deals_per_s=RATE when run as BINARY W|H K DEALS SEED)",
        "pocha bench --stages",
        "pocha bench --startup",
        "pocha bench --decisions",
        "pocha bench --play pimc:rollout=learned -n 2000 --repeats 3   (one play policy alone, every seat at it)",
    ),
)
def bench(
    *,
    deals: flags.BenchDeals = 1_000_000,
    repeats: flags.Repeats = 5,
    threads: flags.ThreadCounts = "1",
    dask: flags.DaskWorkers = 0,
    against: flags.Reference = None,
    stages: flags.Stages = False,
    startup: flags.Startup = False,
    decisions: flags.Decisions = False,
    play: flags.BenchPlay = None,
) -> None:
    """Measure deals (or whole games) per second, end to end (bidding, play, tally), for standard workloads."""
    given = dict(locals())  # the flags, named as pocha.bench's keywords
    from pocha import api
    from pocha.reports.text import bench_header, bench_lines, decision_lines, stage_lines, startup_lines

    with running("bench"):
        try:
            measured = api.bench(**given, messages=say)  # one profile at a time, checked
            if not (stages or startup or decisions):
                typer.echo(bench_header(repeats, against is not None, dask > 0))
            shown = decision_lines if decisions else startup_lines if startup else bench_lines
            for line in stage_lines(measured, api.STAGE_CHUNKS * repeats) if stages else shown(measured):
                typer.echo(line)
        except KeyboardInterrupt:
            if stages or decisions:
                raise  # Commands: nothing was written
            unmeasured = "the start-up times were not all" if startup else "the workload under way was not"
            interrupted(f"{unmeasured} measured")


@app.callback()
def top_level(version: flags.Version = False) -> None:
    """Monte Carlo strategy simulator for Pocha (La Podrida), the Spanish Oh Hell."""


def main() -> None:
    """Console-script entry point; once the command has ended, a signal no longer changes how the process ends."""
    try:
        app()
    finally:
        closing()
