"""The ``pocha`` command line: parse options, call the library, render. No game logic here."""

import contextlib
import sys
import time
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from simulator import PochaError, __version__
from simulator.atomic import atomic_open, check_writable
from simulator.engine import DEFAULT_CHUNK, POLICIES, Seat
from simulator.engine import simulate as run_simulation
from simulator.rules import PRESETS, Rules, make_rules, parse_scoring

app = typer.Typer(
    help="Monte Carlo strategy simulator for Pocha (La Podrida), the Spanish Oh Hell.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DEFAULT_LINEUP = ("expected", "aces-trumps", "fair-share", "random", "zero")  # seats take these in turn
FORMATS = ("table", "csv", "json")

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
Format = Annotated[str, typer.Option("--format", help="What to print on stdout: table, csv or json.")]


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn a user's mistake into one line on stderr and exit status 1."""
    try:
        yield
    except PochaError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None


def build_rules(
    preset: str,
    players: int,
    deck: str | None,
    play_rule: str | None,
    hook: str | None,
    scoring: str | None,
    schedule: str | None,
) -> Rules:
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


def build_seats(specs: list[str], players: int) -> list[Seat]:
    """One strategy per seat from ``--strategy`` given once (every seat) or once per seat."""
    from strategies.registry import load

    if len(specs) not in (1, players):
        raise PochaError(f"strategy: {len(specs)} given for {players} players; give one for every seat or one per seat")
    loaded = {spec: Seat(*load(spec)) for spec in specs}
    return [loaded[spec] for spec in (specs * players)[:players]]


def check_choice(value: str, accepted: tuple[str, ...] | list[str], what: str) -> None:
    """Refuse a value outside a fixed list."""
    if value not in accepted:
        raise PochaError(f"{what}: unknown '{value}'; accepted: {', '.join(accepted)}")


class ProgressBar:
    """Deals done, on stderr: only on a terminal, and only once a run has lasted a second."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.bar: Any = None  # a rich Progress once shown

    def __call__(self, deals: int) -> None:
        """Count a finished chunk; start the bar once the run has lasted a second."""
        self.done += deals
        if self.bar is None and sys.stderr.isatty() and time.monotonic() - self.start > 1.0 and self.done < self.total:
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(*Progress.get_default_columns(), console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task("deals", total=self.total)
            self.bar.start()
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)

    def close(self) -> None:
        """Remove the bar, if one was shown."""
        if self.bar is not None:
            self.bar.stop()


@app.command(
    epilog=(
        "Examples:\n\n"
        "  pocha simulate\n\n"
        "  pocha simulate -p 5 --cards 8 -s expected -s aces-trumps -s random -s zero -s fair-share\n\n"
        "  pocha simulate -s expected:bias=0.3 --deals 1000000 --out results.csv\n\n"
        "  pocha simulate --preset italian --hook never --cards 3 --trace deals.jsonl --trace-deals 100"
    )
)
def simulate(
    players: Players = 4,
    cards: Annotated[
        str, typer.Option("--cards", "-k", help="Hand size, or 'all' for every size 1..full deal.")
    ] = "all",
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals per hand size.")] = 250_000,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            help="Bidding strategy spec (e.g. expected:bias=0.3), once for all seats or once per seat.",
        ),
    ] = None,
    play: Annotated[str, typer.Option(help="Card-play policy of every seat: random or greedy (bid-aware).")] = "greedy",
    preset: Preset = "ludoteka",
    deck: Deck = None,
    play_rule: PlayRule = None,
    hook: Hook = None,
    scoring: Scoring = None,
    schedule: Schedule = None,
    seed: Annotated[
        int, typer.Option(help="Seed: the same seed and options give the same results, byte for byte.")
    ] = 0,
    out: Annotated[str | None, typer.Option(help="Also write the full results table to this CSV file.")] = None,
    trace: Annotated[
        str | None, typer.Option(help="Write the deals played to this pocha-trace/1 JSON Lines file.")
    ] = None,
    trace_deals: Annotated[int | None, typer.Option(help="Trace only the first N deals of the run.")] = None,
    output_format: Format = "table",
    chunk_size: Annotated[
        int, typer.Option(help="Deals per batch (memory vs overhead; results do not change).")
    ] = DEFAULT_CHUNK,
) -> None:
    """Simulate deals with a line-up of bidding strategies and report expected points per hand."""
    with user_errors():
        rules = build_rules(preset, players, deck, play_rule, hook, scoring, schedule)
        sizes = parse_sizes(cards, rules)
        check_choice(play, list(POLICIES), "play")
        check_choice(output_format, FORMATS, "format")
        if deals < 1:
            raise PochaError(f"deals: must be at least 1, not {deals}")
        if trace_deals is not None and trace_deals < 0:
            raise PochaError(f"trace-deals: must be 0 or more, not {trace_deals}")
        specs = strategy or [DEFAULT_LINEUP[s % len(DEFAULT_LINEUP)] for s in range(players)]
        seats = build_seats(specs, players)
        for path, what in ((out, "out"), (trace, "trace")):
            if path is not None:
                check_writable(path, what)
        progress = ProgressBar(deals * len(sizes))
        with atomic_open(trace) if trace else contextlib.nullcontext() as stream:
            try:
                tally = run_simulation(
                    rules, seats, sizes, deals, seed, play, chunk_size, stream, trace_deals, progress
                )
            finally:
                progress.close()
    from reports.stats import summary
    from reports.tables import terminal_table, to_json, write_csv

    frame = summary(tally)
    if out is not None:
        write_csv(frame, out)
    run = describe_run(preset, rules, seats, play, sizes, deals, seed)
    if output_format == "csv":
        typer.echo(frame.to_csv(index=False, lineterminator="\n"), nl=False)
    elif output_format == "json":
        typer.echo(to_json(frame, run))
    else:
        typer.echo(run_heading(run))
        by_position = "all hand sizes" if len(sizes) > 1 else f"{sizes[0]} cards"
        typer.echo(f"\nBy bidding position ({by_position}; 1 bids first and leads, {players} is the dealer):")
        typer.echo(terminal_table(frame, "position"))
        if len(sizes) > 1:
            typer.echo("\nBy hand size (all positions):")
            typer.echo(terminal_table(frame, "cards"))
        typer.echo("\npoints: mean points per hand; ±95%: half-width of its 95% confidence interval.")


def describe_run(
    preset: str, rules: Rules, seats: list[Seat], play: str, sizes: list[int], deals: int, seed: int
) -> dict[str, Any]:
    """Everything that fixes a run's results, as plain data."""
    return {
        "version": __version__,
        "preset": preset,
        "rules": rules.to_dict(),
        "strategies": [seat.label for seat in seats],
        "play": play,
        "cards": sizes,
        "deals_per_size": deals,
        "seed": seed,
    }


def run_heading(run: dict[str, Any]) -> str:
    """Two lines saying what was simulated."""
    rules, sizes = run["rules"], run["cards"]
    size_text = f"hand sizes {sizes[0]}..{sizes[-1]}" if len(sizes) > 1 else f"{sizes[0]} cards"
    seats = ", ".join(f"{s}: {label}" for s, label in enumerate(run["strategies"]))
    return (
        f"{rules['players']} players, {run['preset']} rules ({4 * len(rules['ranks'])} cards, play {rules['play']}, "
        f"hook {rules['hook']}), {run['play']} play, {run['deals_per_size']:,} deals per hand size, "
        f"{size_text}, seed {run['seed']}\nseats {seats}"
    )


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


@app.command(epilog="Examples:\n\n  pocha bench\n\n  pocha bench --deals 200000 --repeats 3")
def bench(
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals per run.")] = 1_000_000,
    repeats: Annotated[int, typer.Option(help="Runs per workload; the median is quoted.")] = 5,
) -> None:
    """Measure deals per second, single thread, end to end (bidding, play, tally) for standard workloads."""
    from simulator.bench import bench as run_bench
    from simulator.bench import median

    with user_errors():
        if deals < 1 or repeats < 1:
            raise PochaError("bench: --deals and --repeats must be at least 1")
    typer.echo(f"deals per second, single thread, median of {repeats} runs of {deals:,} deals")

    def report(workload: Any, rates: list[float]) -> None:
        runs = " ".join(f"{rate:,.0f}" for rate in rates)
        typer.echo(f"{workload.title:<40} {median(rates):>12,.0f}   (runs: {runs})")

    run_bench(deals, repeats, report)


def main() -> None:
    """Console-script entry point."""
    app()
