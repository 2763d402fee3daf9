"""The ``pocha`` command line: parse options, call the library, render. No game logic here."""

import contextlib
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from simulator import PochaError, __version__
from simulator.atomic import atomic_open, check_writable
from simulator.engine import POLICIES, Lineup, Seat
from simulator.rules import PRESETS, Rules, make_rules, parse_scoring

app = typer.Typer(
    help="Monte Carlo strategy simulator for Pocha (La Podrida), the Spanish Oh Hell.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DEFAULT_LINEUP = ("expected", "aces-trumps", "fair-share", "random", "zero")  # seats take these in turn
FORMATS = ("table", "csv", "json")
MAX_COMPARED = 8

Preset = Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")]
Players = Annotated[
    int, typer.Option("--players", "-p", help="Players at the table (3, 4, 5, 6 or 8; others need --deck).")
]
Deck = Annotated[
    str | None,
    typer.Option(help="Deck: 36, 40 or 48 cards in the preset's rank order, or ranks strongest first: 1,3,12,11,10,7."),
]
PlayRule = Annotated[str | None, typer.Option(help="Override the play rule: pocha, trump or follow.")]
Hook = Annotated[str | None, typer.Option(help="Override the dealer's hook rule: except-one-card, always or never.")]
Scoring = Annotated[
    str | None, typer.Option(help="Override the scoring: EXACT,PER_TRICK,MISS_PER_TRICK (default 10,5,-5).")
]
Schedule = Annotated[str | None, typer.Option(help="Override the game schedule: full, short or full-only.")]
Cards = Annotated[str, typer.Option("--cards", "-k", help="Hand size, or 'all' for every size 1..full deal.")]
Play = Annotated[str, typer.Option(help="Card-play policy of every seat: random or greedy (bid-aware).")]
Seed = Annotated[int, typer.Option(help="Seed: the same seed and options give the same results, byte for byte.")]
Out = Annotated[
    str | None,
    typer.Option(help="Write the results: a folder (tables as CSV, run.json, figures with --plot), or FILE.csv."),
]
Plot = Annotated[bool, typer.Option(help="With --out FOLDER, also draw the figures as PNG files.")]
Format = Annotated[str, typer.Option("--format", help="What to print on stdout: table, csv or json.")]
ChunkSize = Annotated[
    int | None,
    typer.Option(help="Deals per task (default 16,384, fewer to keep every worker busy; results do not change)."),
]
Strategies = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy", "-s", help="Bidding strategy spec (e.g. expected:bias=0.3), once for all seats or per seat."
    ),
]
ThreadCount = Annotated[
    int | None, typer.Option("--threads", help="Threads of the local backend (default: every core).")
]
BackendName = Annotated[str, typer.Option("--backend", help="Where the chunks run: local (threads) or dask.")]
Workers = Annotated[int, typer.Option(help="Worker processes of the Dask LocalCluster that --backend dask starts.")]
Scheduler = Annotated[str | None, typer.Option(help="Address of a running Dask scheduler, instead of a LocalCluster.")]
CheckpointFile = Annotated[
    str | None, typer.Option("--checkpoint", help="Save progress here every few seconds and on Ctrl-C.")
]
Resume = Annotated[str | None, typer.Option(help="Continue the run saved in this checkpoint (give the same options).")]
CheckpointEvery = Annotated[float, typer.Option(help="Seconds of progress between checkpoint saves.")]


class Interrupted(Exception):  # noqa: N818 - a signal to unwind, not an error
    """Ctrl-C stopped a run: its partial results are shown and no file is written."""


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn a user's mistake into one line on stderr and exit status 1."""
    try:
        yield
    except PochaError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None


def build_rules(
    preset: str, players: int, deck: str | None, play_rule: str | None, hook: str | None, scoring: str | None,
    schedule: str | None,
) -> Rules:  # fmt: skip
    """The rule set the options describe."""
    points = parse_scoring(scoring) if scoring is not None else None
    return make_rules(preset, players, deck, play=play_rule, hook=hook, scoring=points, schedule=schedule)


def parse_sizes(cards: str, rules: Rules) -> list[int]:
    """Hand sizes of ``--cards``: one number, or ``all`` for 1..full deal."""
    if cards.strip().lower() == "all":
        return list(range(1, rules.full_deal + 1))
    if not cards.strip().isdigit():
        raise PochaError(f"cards: '{cards}' is neither a hand size nor 'all'")
    rules.check_cards(int(cards))
    return [int(cards)]


def seat_lineup(specs: list[str] | None, players: int) -> Lineup:
    """One strategy per seat from ``--strategy`` given once (every seat) or once per seat; else the default line-up."""
    from strategies.registry import load

    specs = specs or [DEFAULT_LINEUP[s % len(DEFAULT_LINEUP)] for s in range(players)]
    if len(specs) not in (1, players):
        raise PochaError(f"strategy: {len(specs)} given for {players} players; give one for every seat or one per seat")
    loaded = {spec: Seat(*load(spec)) for spec in specs}
    return Lineup(tuple(loaded[spec] for spec in (specs * players)[:players]))


def check_choice(value: str, accepted: tuple[str, ...] | list[str], what: str) -> None:
    """Refuse a value outside a fixed list."""
    if value not in accepted:
        raise PochaError(f"{what}: unknown '{value}'; accepted: {', '.join(accepted)}")


def check_common(play: str, output_format: str, out: str | None, plot: bool) -> None:
    """Options every run command shares: refuse bad ones before any work."""
    check_choice(play, list(POLICIES), "play")
    check_choice(output_format, FORMATS, "format")
    if out is None:
        if plot:
            raise PochaError("plot: figures are written into the --out folder; give --out FOLDER")
    elif out.endswith(".csv"):
        if plot:
            raise PochaError("plot: figures need --out FOLDER, not a .csv file")
        check_writable(out, "out")
    else:
        from reports.runs import check_folder

        check_folder(out)


class ProgressBar:
    """Work done, on stderr: only on a terminal, and only once a run has lasted a second."""

    def __init__(self, total: int, unit: str = "deals") -> None:
        self.total, self.unit, self.done, self.start = total, unit, 0, time.monotonic()
        self.bar: Any = None  # a rich Progress once shown

    def __call__(self, amount: int) -> None:
        """Count a finished chunk; start the bar once the run has lasted a second."""
        self.done += amount
        if self.bar is None and sys.stderr.isatty() and time.monotonic() - self.start > 1.0 and self.done < self.total:
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(*Progress.get_default_columns(), console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task(self.unit, total=self.total)
            self.bar.start()
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)

    def close(self) -> None:
        """Remove the bar, if one was shown."""
        if self.bar is not None:
            self.bar.stop()


@contextlib.contextmanager
def stoppable() -> Iterator[None]:
    """Let SIGTERM stop a run the way Ctrl-C does (partial results, checkpoint saved)."""

    def terminate(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def resume_command(checkpoint: str) -> str:
    """The command line that was run, resuming from ``checkpoint``."""
    args, skip = [], False
    for arg in sys.argv[1:]:
        if skip or arg.startswith("--resume="):
            skip = False
            continue
        if arg == "--resume":
            skip = True
            continue
        args.append(arg)
    return shlex.join(["pocha", *args, "--resume", checkpoint])


def run_options(backend: str, threads: int | None, workers: int, scheduler: str | None, checkpoint: str | None,
                resume: str | None, every: float) -> tuple[Any, Any]:  # fmt: skip
    """The backend and the checkpoint the options ask for (None when no checkpoint is wanted)."""
    from simulator.backends import make_backend
    from simulator.checkpoint import Checkpoint

    chosen = make_backend(backend, threads, workers, scheduler)
    if checkpoint is None and resume is None:
        return chosen, None
    return chosen, Checkpoint(Path(checkpoint) if checkpoint else None, every, Path(resume) if resume else None)


def describe_run(command: str, preset: str, rules: Rules, lineup: Lineup, play: str, seed: int,
                 **amounts: Any) -> dict[str, Any]:  # fmt: skip
    """Everything that fixes a run's results, as plain data (``run.json``)."""
    return {
        "command": command,
        "version": __version__,
        "preset": preset,
        "rules": rules.to_dict(),
        "strategies": [seat.label for seat in lineup.seats],
        "play": play,
        "seed": seed,
        **amounts,
    }


def run_heading(run: dict[str, Any]) -> str:
    """Two lines saying what was played."""
    rules = run["rules"]
    if "games" in run:
        amount = f"{run['games']:,} games ({run['schedule']} schedule)" + (", seating rotated" if run["rotate"] else "")
    else:
        sizes = run["cards"]
        size_text = f"hand sizes {sizes[0]}..{sizes[-1]}" if len(sizes) > 1 else f"{sizes[0]} cards"
        duplicate = f", each played {rules['players']} times, seating rotated" if run.get("duplicate") else ""
        amount = f"{run['deals_per_size']:,} deals per hand size{duplicate}, {size_text}"
    seats = ", ".join(f"{s}: {label}" for s, label in enumerate(run["strategies"]))
    return (
        f"{rules['players']} players, {run['preset']} rules ({4 * len(rules['ranks'])} cards, play {rules['play']}, "
        f"hook {rules['hook']}), {run['play']} play, {amount}, seed {run['seed']}\nseats {seats}"
    )


def finish(run: dict[str, Any], tables: dict[str, Any], main: str, out: str | None, plot: bool, output_format: str,
           show: Callable[[], None], complete: bool, checkpoint: str | None = None) -> None:  # fmt: skip
    """Print the results; write them unless the run was interrupted."""
    from reports.tables import to_json

    if output_format == "csv":
        typer.echo(tables[main].to_csv(index=False, lineterminator="\n"), nl=False)
    elif output_format == "json":
        typer.echo(to_json(run, tables))
    else:
        typer.echo(run_heading(run))
        show()
    if not complete:
        typer.echo(
            "Interrupted: the results above cover the finished deals only; no output file was written.", err=True
        )
        if checkpoint:
            typer.echo(f"Progress saved in {checkpoint}; resume with:\n  {resume_command(checkpoint)}", err=True)
        raise typer.Exit(130)
    if out is None:
        return
    from reports.runs import save_run, write_table

    if out.endswith(".csv"):
        write_table(tables[main], out)
        return
    folder = Path(out)
    save_run(folder, run, tables)
    if plot:
        from reports.plots import save_figures

        for path in save_figures(folder, run, tables):
            typer.echo(f"wrote {path}", err=True)


def show_tables(frame: Any, sizes: list[int], players: int) -> None:
    """The per-position table, and the per-size table when there are several sizes."""
    from reports.tables import terminal_table

    by_position = "all hand sizes" if len(sizes) > 1 else f"{sizes[0]} cards"
    typer.echo(f"\nBy bidding position ({by_position}; 1 bids first and leads, {players} is the dealer):")
    typer.echo(terminal_table(frame, "position"))
    if len(sizes) > 1:
        typer.echo("\nBy hand size (all positions):")
        typer.echo(terminal_table(frame, "cards"))
    typer.echo("\npoints: mean points per hand; ±95%: half-width of its 95% confidence interval.")


@app.command(
    epilog=(
        "Examples:\n\n"
        "  pocha simulate\n\n"
        "  pocha simulate -p 5 --cards 8 -s expected -s aces-trumps -s random -s zero -s fair-share\n\n"
        "  pocha simulate -s expected:bias=0.3 --deals 1000000 --out results.csv\n\n"
        "  pocha simulate --out run1 --plot\n\n"
        "  pocha simulate --preset italian --hook never --cards 3 --trace deals.jsonl --trace-deals 100"
    )
)
def simulate(
    players: Players = 4,
    cards: Cards = "all",
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals per hand size.")] = 250_000,
    strategy: Strategies = None,
    play: Play = "greedy",
    preset: Preset = "ludoteka",
    deck: Deck = None,
    play_rule: PlayRule = None,
    hook: Hook = None,
    scoring: Scoring = None,
    schedule: Schedule = None,
    seed: Seed = 0,
    out: Out = None,
    plot: Plot = False,
    trace: Annotated[
        str | None, typer.Option(help="Write the deals played to this pocha-trace/1 JSON Lines file.")
    ] = None,
    trace_deals: Annotated[int | None, typer.Option(help="Trace only the first N deals of the run.")] = None,
    output_format: Format = "table",
    chunk_size: ChunkSize = None,
    threads: ThreadCount = None,
    backend: BackendName = "local",
    workers: Workers = 2,
    scheduler: Scheduler = None,
    checkpoint: CheckpointFile = None,
    resume: Resume = None,
    checkpoint_every: CheckpointEvery = 5.0,
) -> None:
    """Simulate deals with a line-up of bidding strategies and report expected points per hand."""
    from reports.stats import error_distribution, summary
    from simulator.engine import simulate as run_simulation

    with user_errors():
        rules = build_rules(preset, players, deck, play_rule, hook, scoring, schedule)
        sizes = parse_sizes(cards, rules)
        check_common(play, output_format, out, plot)
        if trace_deals is not None and trace_deals < 0:
            raise PochaError(f"trace-deals: must be 0 or more, not {trace_deals}")
        lineup = seat_lineup(strategy, players)
        if trace is not None:
            check_writable(trace, "trace")
            if resume is not None:
                raise PochaError("trace: a resumed run cannot trace the deals it skips; trace a fresh run")
        chosen, saver = run_options(backend, threads, workers, scheduler, checkpoint, resume, checkpoint_every)
        progress = ProgressBar(deals * len(sizes))
        try:
            with stoppable(), atomic_open(trace) if trace else contextlib.nullcontext() as stream:
                result = run_simulation(
                    rules, lineup, sizes, deals, seed, play, chunk_size=chunk_size, trace_stream=stream,
                    trace_deals=trace_deals, progress=progress, backend=chosen, checkpoint=saver,
                )  # fmt: skip
                if not result.complete:
                    raise Interrupted
        except Interrupted:
            pass
        finally:
            progress.close()
    frame = summary(result.tally)
    run = describe_run("simulate", preset, rules, lineup, play, seed, cards=sizes, deals_per_size=deals)
    tables = {"results": frame, "errors": error_distribution(result.tally)}
    show = lambda: show_tables(frame, sizes, players)  # noqa: E731
    finish(run, tables, "results", out, plot, output_format, show, result.complete, checkpoint)


@app.command(
    epilog=(
        "Examples:\n\n"
        "  pocha compare expected aces-trumps fair-share random\n\n"
        "  pocha compare expected expected:bias=0.5 --cards 8 --deals 200000\n\n"
        "  pocha compare expected aces-trumps --no-duplicate --out cmp --plot"
    )
)
def compare(
    specs: Annotated[list[str], typer.Argument(help="2 to 8 strategy specs to compare.", show_default=False)],
    players: Players = 4,
    cards: Cards = "all",
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals per hand size (boards, in duplicate).")] = 100_000,
    duplicate: Annotated[
        bool, typer.Option(help="Replay every deal once per rotation of the seating (--no-duplicate: plain seating).")
    ] = True,
    play: Play = "greedy",
    preset: Preset = "ludoteka",
    deck: Deck = None,
    play_rule: PlayRule = None,
    hook: Hook = None,
    scoring: Scoring = None,
    schedule: Schedule = None,
    seed: Seed = 0,
    out: Out = None,
    plot: Plot = False,
    output_format: Format = "table",
    chunk_size: ChunkSize = None,
    threads: ThreadCount = None,
    backend: BackendName = "local",
    workers: Workers = 2,
    scheduler: Scheduler = None,
    checkpoint: CheckpointFile = None,
    resume: Resume = None,
    checkpoint_every: CheckpointEvery = 5.0,
) -> None:
    """Compare bidding strategies on the same deals, with paired confidence intervals.

    Seats take the strategies in turn; in duplicate (the default) every deal is replayed once per
    rotation of the seating, so each strategy bids every seat's cards of every deal.
    """
    from reports.stats import error_distribution, pair_differences, summary
    from reports.tables import pairs_by_size, terminal_table, verdicts
    from simulator.engine import simulate as run_simulation

    with user_errors():
        rules = build_rules(preset, players, deck, play_rule, hook, scoring, schedule)
        sizes = parse_sizes(cards, rules)
        check_common(play, output_format, out, plot)
        if not 2 <= len(specs) <= MAX_COMPARED:
            raise PochaError(f"compare: give 2 to {MAX_COMPARED} strategies, not {len(specs)}")
        if len(specs) > players:
            raise PochaError(
                f"compare: {len(specs)} strategies but {players} seats; a rotation seats at most {players} "
                "(use more --players or fewer strategies)"
            )
        lineup = seat_lineup([specs[s % len(specs)] for s in range(players)], players)
        if len(lineup.labels) != len(specs):
            raise PochaError(f"compare: the same strategy is given twice among {', '.join(specs)}")
        chosen, saver = run_options(backend, threads, workers, scheduler, checkpoint, resume, checkpoint_every)
        progress = ProgressBar(deals * len(sizes))
        try:
            with stoppable():
                result = run_simulation(
                    rules, lineup, sizes, deals, seed, play, duplicate=duplicate, chunk_size=chunk_size,
                    progress=progress, backend=chosen, checkpoint=saver,
                )  # fmt: skip
        finally:
            progress.close()
    frame, pairs = summary(result.tally), pair_differences(result.tally)
    run = describe_run(
        "compare", preset, rules, lineup, play, seed, cards=sizes, deals_per_size=deals, duplicate=duplicate
    )
    tables = {"results": frame, "pairs": pairs, "errors": error_distribution(result.tally)}

    def show() -> None:
        typer.echo(f"\nPer strategy ({'all hand sizes' if len(sizes) > 1 else f'{sizes[0]} cards'}):")
        typer.echo(terminal_table(frame, "strategy"))
        typer.echo("\nPairwise, paired by deal (difference in mean points per hand, 95% CI):")
        typer.echo(verdicts(pairs))
        show_tables(frame, sizes, players)
        if len(sizes) > 1:
            typer.echo("\nPairwise by hand size (a - b, points per hand):")
            typer.echo(pairs_by_size(pairs))

    finish(run, tables, "results", out, plot, output_format, show, result.complete, checkpoint)


@app.command(
    epilog=(
        "Examples:\n\n"
        "  pocha game\n\n"
        "  pocha game -s expected -s aces-trumps -s fair-share -s zero --games 50000\n\n"
        "  pocha game -p 5 --schedule short --out games --plot"
    )
)
def game(
    strategy: Strategies = None,
    players: Players = 4,
    games: Annotated[int, typer.Option("--games", "-g", help="Whole games to play.")] = 20_000,
    rotate: Annotated[bool, typer.Option(help="Move the seating one seat on every game (no seat advantage).")] = True,
    play: Play = "greedy",
    preset: Preset = "ludoteka",
    deck: Deck = None,
    play_rule: PlayRule = None,
    hook: Hook = None,
    scoring: Scoring = None,
    schedule: Schedule = None,
    seed: Seed = 0,
    out: Out = None,
    plot: Plot = False,
    output_format: Format = "table",
    chunk_size: ChunkSize = None,
    threads: ThreadCount = None,
    backend: BackendName = "local",
    workers: Workers = 2,
    scheduler: Scheduler = None,
) -> None:
    """Play whole games by the rules' schedule and report each strategy's chance of winning."""
    from reports.game_stats import game_summary
    from reports.stats import error_distribution, summary
    from reports.tables import game_table
    from simulator.games import play_games

    with user_errors():
        rules = build_rules(preset, players, deck, play_rule, hook, scoring, schedule)
        check_common(play, output_format, out, plot)
        lineup = seat_lineup(strategy, players)
        chosen, _ = run_options(backend, threads, workers, scheduler, None, None, 1.0)
        progress = ProgressBar(games, "games")
        try:
            with stoppable():
                result = play_games(rules, lineup, games, seed, play, rotate, chunk_size, progress, chosen)
        finally:
            progress.close()
    played = result.games
    run = describe_run(
        "game", preset, rules, lineup, play, seed, games=games, rotate=rotate, schedule=rules.schedule,
        hand_sizes=rules.hand_sizes(), tie_break_games=played.tie_break_games, tie_break_hands=played.tie_break_hands,
    )  # fmt: skip
    tables = {
        "games": game_summary(played),
        "results": summary(result.hands),
        "errors": error_distribution(result.hands),
    }

    def show() -> None:
        typer.echo(f"\nWhole games ({len(rules.hand_sizes())} hands each; win: share of games won per seat held):")
        typer.echo(game_table(tables["games"]))
        share = played.tie_break_games / max(played.games, 1)
        typer.echo(
            f"\nTie-breaks: {played.tie_break_games:,} games ({share:.1%}) needed extra one-card hands "
            f"({played.tie_break_hands:,} hands in all)"
            + (f"; {played.unresolved} still tied after the limit, won by nobody." if played.unresolved else ".")
        )

    finish(run, tables, "games", out, plot, output_format, show, result.complete)


@app.command(
    epilog=(
        "Examples:\n\n"
        '  pocha advise --hand "1O 3O 12C 5E 2B" --trump 7O --players 4 --position 2 --bids 1,0\n\n'
        '  pocha advise --hand "1C" --trump 7O --position 3 --bids 0,1,0 --samples 50000 --format json'
    )
)
def advise(
    hand: Annotated[str, typer.Option(help='Your cards, e.g. "1O 3O 12C 5E 2B" (rank then suit: O C E B).')],
    trump: Annotated[
        str, typer.Option(help="The trump card: the turned-up card, or the dealer's last in a full deal.")
    ],
    position: Annotated[
        int, typer.Option(help="How many players bid before you: 0 = you bid first and lead; players-1 = dealer.")
    ] = 0,
    bids: Annotated[str, typer.Option(help="The bids made before yours, in order, e.g. 1,0.")] = "",
    bid: Annotated[int | None, typer.Option(help="Also single out this bid (it must be legal).")] = None,
    samples: Annotated[int, typer.Option(help="Play-outs per candidate bid.")] = 10_000,
    assume: Annotated[
        str, typer.Option(help="How the later bidders are assumed to bid (a strategy spec).")
    ] = "expected",
    players: Players = 4,
    play: Play = "greedy",
    preset: Preset = "ludoteka",
    deck: Deck = None,
    play_rule: PlayRule = None,
    hook: Hook = None,
    scoring: Scoring = None,
    seed: Seed = 0,
    output_format: Annotated[str, typer.Option("--format", help="table or json.")] = "table",
) -> None:
    """Advise a bid: the chance of each number of tricks and the expected points of each legal bid."""
    import json

    from simulator.advise import advise as run_advice
    from simulator.advise import read_situation
    from strategies.registry import load

    with user_errors():
        rules = build_rules(preset, players, deck, play_rule, hook, scoring, None)
        check_choice(play, list(POLICIES), "play")
        check_choice(output_format, ("table", "json"), "format")
        situation = read_situation(rules, hand, trump, position, bids)
        if bid is not None and not 0 <= bid <= situation.cards:
            raise PochaError(f"bid: {bid} is not a bid with {situation.cards} cards (0..{situation.cards})")
        if bid is not None and bid == situation.forbidden:
            raise PochaError(
                f"bid: {bid} is forbidden to the dealer: with the bids before it would make {situation.cards}, "
                "the number of tricks"
            )
        advice = run_advice(situation, samples, seed, play, load(assume)[1])
    if output_format == "json":
        typer.echo(json.dumps(advice.to_dict(), indent=2))
        return
    typer.echo(advice_text(advice, play, assume, bid))


def advice_text(advice: Any, play: str, assume: str, asked: int | None) -> str:
    """The advice as a few short tables."""
    from simulator.cards import SUIT_WORDS, card_name

    s = advice.situation
    ranks = s.rules.ranks
    who = "you bid first and lead" if s.position == 0 else (
        f"{s.position} bid before you ({', '.join(map(str, s.bids))})"
        + ("; you are the dealer" if s.position == s.rules.players - 1 else "")
    )  # fmt: skip
    trump = f"{card_name(s.trump_card, ranks)} ({SUIT_WORDS[s.trump_card >> 4]})"
    lines = [
        f"Hand {' '.join(card_name(c, ranks) for c in s.hand)} ({s.cards} cards), trump {trump}, "
        f"{s.rules.players} players; {who}.",
        f"{advice.samples:,} play-outs per bid, {play} play, later bidders bid as {assume}.",
        "",
        f"Tricks you take, playing to a bid of {advice.recommended}:",
        "tricks  chance   ±MC",
    ]
    for t, (p, e) in enumerate(zip(advice.tricks, advice.tricks_error, strict=True)):
        lines.append(f"{t:>6}  {p:6.1%}  {e:5.1%}")
    lines += ["", "bid  exact  expected points   ±MC"]
    for b, (x, p, e) in enumerate(zip(advice.exact, advice.points, advice.points_error, strict=True)):
        mark = " <- recommended" if b == advice.recommended else " <- asked" if b == asked else ""
        text = "forbidden (hook)" if np.isnan(p) else f"{p:15.2f}  {e:5.2f}"
        lines.append(f"{b:>3}  {x:5.1%}  {text}{mark}")
    lines += ["", f"Recommended bid: {advice.recommended} ({advice.points[advice.recommended]:.2f} points on average)."]
    return "\n".join(lines)


@app.command(
    epilog=(
        "Examples:\n\n"
        "  pocha train --players 4 --deals 1000000 --out strategies/tables/players-4.npz\n\n"
        "  pocha train --players 6 --deals 200000 --out six.npz   (then: -s table:path=six.npz)"
    )
)
def train(
    out: Annotated[str, typer.Option(help="Where to write the table (.npz).")],
    players: Players = 4,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals per hand size to learn from.")] = 1_000_000,
    play: Play = "greedy",
    preset: Preset = "ludoteka",
    deck: Deck = None,
    play_rule: PlayRule = None,
    hook: Hook = None,
    seed: Seed = 0,
    chunk_size: ChunkSize = None,
    threads: ThreadCount = None,
) -> None:
    """Learn a trick table for the table strategy from simulated deals (every seat bidding expected)."""
    from simulator.atomic import atomic_path
    from simulator.backends import make_backend
    from simulator.training import train_table
    from strategies.table import describe

    with user_errors():
        rules = build_rules(preset, players, deck, play_rule, hook, None, None)
        check_choice(play, list(POLICIES), "play")
        check_writable(out, "out")
        backend = make_backend("local", threads, 0, None)
        progress = ProgressBar(deals * rules.full_deal)
        try:
            with stoppable():
                table = train_table(rules, deals, seed, play, chunk_size, progress, backend)
        except KeyboardInterrupt:
            table = None
        finally:
            progress.close()
    if table is None:
        typer.echo("Interrupted: no table was written.", err=True)
        raise typer.Exit(130)
    with atomic_path(out) as temporary:
        table.save(temporary)
    facts = describe(table)
    typer.echo(
        f"wrote {out}: {facts['hands']:,} hands of {rules.players} players ({deals:,} deals per hand size), "
        f"{facts['cells_used']:,} feature cells seen, {facts['cells_with_min_hands']:,} with enough hands "
        "to stand alone"
    )


@app.command(epilog="Example:\n\n  pocha compare expected aces-trumps --out cmp\n\n  pocha report cmp")
def report(
    folder: Annotated[str, typer.Argument(help="A folder written by --out FOLDER.", show_default=False)],
) -> None:
    """Redraw a finished run's figures and write one self-contained report.html, without simulating."""
    from reports.html import write_report
    from reports.plots import save_figures
    from reports.runs import load_run

    with user_errors():
        run, tables = load_run(folder)
    figures = save_figures(Path(folder), run, tables)
    typer.echo(f"wrote {write_report(Path(folder), run, tables, figures)} ({len(figures)} figures)")


@app.command(
    name="rules",
    epilog=(
        "Examples:\n\n  pocha rules\n\n  pocha rules --players 6 --deck 48\n\n"
        "  pocha rules --preset turkish --players 3"
    ),
)
def show_rules(
    players: Players = 4,
    preset: Preset = "ludoteka",
    deck: Deck = None,
    play_rule: PlayRule = None,
    hook: Hook = None,
    scoring: Scoring = None,
    schedule: Schedule = None,
    output_format: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
) -> None:
    """Print the effective rule set: deck, cards per full deal, play and hook rules, scoring, game schedule."""
    with user_errors():
        rules = build_rules(preset, players, deck, play_rule, hook, scoring, schedule)
        check_choice(output_format, ("text", "json"), "format")
    sizes = rules.hand_sizes()
    if output_format == "json":
        import json

        typer.echo(json.dumps({"preset": preset, "rules": rules.to_dict(), "hand_sizes": sizes}, indent=2))
        return
    points = rules.scoring
    lines = {
        "preset": f"{preset} (text {PRESETS[preset].source})",
        "players": str(rules.players),
        "deck": f"{rules.deck_size} cards: ranks {' '.join(map(str, rules.ranks))} (strongest first) in suits O C E B",
        "full deal": f"{rules.full_deal} cards each"
        + ("" if rules.full_deal * rules.players == rules.deck_size else " (the deck does not split evenly)"),
        "play": rules.play,
        "hook": rules.hook,
        "scoring": f"exact {points.exact} + {points.per_trick} per trick; missed {points.miss_per_trick} per trick off",
        "schedule": f"{rules.schedule}: {' '.join(map(str, sizes))} ({len(sizes)} hands)",
    }
    for name, text in lines.items():
        typer.echo(f"{name:<10} {text}")


@app.command(
    epilog="Examples:\n\n  pocha bench\n\n  pocha bench --threads 1,2 --dask 2\n\n  pocha bench -n 200000 --repeats 3"
)
def bench(
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Deals per run (slow strategies run a share).")
    ] = 1_000_000,
    repeats: Annotated[int, typer.Option(help="Runs per workload; the median is quoted.")] = 5,
    threads: Annotated[str, typer.Option("--threads", help="Thread counts to run on, e.g. 1,2.")] = "1",
    dask: Annotated[int, typer.Option(help="Also run the first workload on a Dask LocalCluster of N workers.")] = 0,
) -> None:
    """Measure deals per second, end to end (bidding, play, tally), for standard workloads."""
    from simulator.bench import DASK_CHUNK
    from simulator.bench import bench as run_bench

    with user_errors():
        try:
            counts = [int(word) for word in threads.split(",")]
        except ValueError:
            raise PochaError(f"threads: '{threads}' is not a list of thread counts such as 1,2") from None
        if deals < 1 or repeats < 1 or min(counts) < 1 or dask < 0:
            raise PochaError("bench: --deals, --repeats and thread counts must be at least 1, --dask 0 or more")
        typer.echo(f"deals per second, median of {repeats} runs; montecarlo at its default samples; Dask in chunks "
                   f"of {DASK_CHUNK:,} deals")  # fmt: skip
        single: dict[str, float] = {}
        for m in run_bench(deals, repeats, counts, dask):
            if m.where == "1 thread":
                single[m.workload.title] = m.median
            scaling = ""
            if m.workers > 1 and m.workload.title in single:
                speedup = m.median / single[m.workload.title]
                scaling = f"  {speedup:.2f}x one thread, efficiency {speedup / m.workers:.0%}"
            runs = " ".join(f"{rate:,.0f}" for rate in m.rates)
            typer.echo(f"{m.workload.title:<38} {m.where:<29} {m.median:>11,.0f}{scaling}   "
                       f"({m.deals:,} deals a run; runs: {runs})")  # fmt: skip


def main() -> None:
    """Console-script entry point."""
    app()
