"""The ``pocha`` command line: parse the options, call the Python API (``pocha.api``), print what it returns.

Data goes to stdout; progress, errors and the files written go to stderr. A user's mistake is one
line and exit status 1; a run stopped by Ctrl-C or SIGTERM prints what it has (or one line, when it
has nothing) and exits with 130.
"""

import contextlib
import importlib.util
import inspect
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import asdict, fields, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, get_args, get_origin, get_type_hints

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from pocha import options
from pocha.errors import PochaError
from pocha.interrupt import interruptible
from pocha.options import (
    FULL_DEAL_TRUMP_NAMES,
    FULL_DEALS_NAMES,
    MONTECARLO_SHARPNESS,
    MOST_PER_CORE,
    PIMC_SHARPNESS,
    PLAY_RULE_NAMES,
    PRESET_NAMES,
    RANK_ORDER_NAMES,
    SCHEDULE_NAMES,
    SCORING_NAMES,
    STRATEGY_NAMES,
    STUDY,
    STUDY_STRONG,
    STUDY_WEAK,
    TIE_BREAK_NAMES,
    VARIANT_OPTIONS,
)
from pocha.version import __version__
from pocha.words import counted


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, run on first use of one of its names (``importlib.util.LazyLoader``).

    ``pocha.api`` loads numba and pandas: ``pocha --version`` and every ``--help`` need neither.
    """
    if name in sys.modules:  # imported already (a program that uses both): that module, not a second copy
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, name
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)  # as an import does: ``pocha.api`` names it
    return module


if TYPE_CHECKING:
    from pocha import api
else:
    api = lazy_module("pocha.api")

ARGUMENTS: ContextVar[list[str] | None] = ContextVar("arguments", default=None)  # of this invocation


class Commands(TyperGroup):
    """The command group: notes the arguments it is run with (for the command line a run records), stops on Ctrl-C."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        """Note the arguments, then parse them as usual."""
        ARGUMENTS.set(list(args))
        return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        """Run the command; Ctrl-C or SIGTERM before it has results to show is one line and exit status 130."""
        try:
            with interruptible():
                return super().invoke(ctx)
        except KeyboardInterrupt:
            typer.echo("Interrupted: nothing was written.", err=True)
            raise typer.Exit(130) from None


def argument_name(argument: TyperArgument) -> str:
    """An argument as help shows it: its metavar, in brackets if optional, ``...`` if it takes several."""
    name = argument.metavar or str(argument.name).upper()
    name = name if argument.required else f"[{name}]"
    return name + ("..." if argument.nargs != 1 else "")


class Command(TyperCommand):
    """A command whose help names its arguments as people write them: ``SPEC...`` (typer: ``SPEC <list[str]>``)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """The usage line after the command's name: [OPTIONS], then each argument."""
        arguments = [argument_name(param) for param in self.get_params(ctx) if isinstance(param, TyperArgument)]
        return [str(self.options_metavar), *arguments]

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse as usual; a flag given both ways (``--duplicate --no-duplicate``) is refused (which is meant?)."""
        words = set(args)
        for param in self.get_params(ctx):
            yes, no = set(getattr(param, "opts", ())), set(getattr(param, "secondary_opts", ()))
            if words & yes and words & no:
                with user_errors():
                    raise PochaError(f"{param.name}: {min(words & yes)} and {min(words & no)} both given; give one")
        return list(super().parse_args(ctx, args))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """The Arguments and Options sections, each argument named as in the usage line (no Python type)."""
        sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None and isinstance(param, TyperArgument):
                sections["Arguments"].append((argument_name(param), record[1]))
            elif record is not None:
                sections["Options"].append(record)
        for title, records in sections.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


app = typer.Typer(
    cls=Commands,
    rich_markup_mode=None,  # plain help: wrapped to the terminal, no boxes
    help="Monte Carlo strategy simulator for Pocha (La Podrida), the Spanish Oh Hell.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # every command's too
)


def command(**settings: Any) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``app.command``, its help shown by ``Command``."""
    return app.command(cls=Command, **settings)


FORMATS = ("table", "csv", "json")

# --- the options, declared once -------------------------------------------------------------------

Preset = Annotated[str, typer.Option(metavar="NAME", help=f"Rule set: {', '.join(PRESET_NAMES)}.")]
Players = Annotated[
    int,
    typer.Option(
        "--players",
        "-p",
        metavar="N",
        help="Players at the table (pocha rules shows the counts a preset deals for; others need --deck).",
    ),
]
Deck = Annotated[
    str | None,
    typer.Option(
        metavar="DECK",
        help="Deck: a pack (french: 52 A K ... 2 of S H D C; spanish: 1 to 12 of O C E B), a size in the "
        "preset's pack (52, 48, 40, 36, ...: whole ranks go, weakest first), ranks strongest first "
        "(1,3,12,11,10,7), or both: french:32.",
    ),
]
PlayRule = Annotated[
    str | None,
    typer.Option(
        metavar="RULE", help=f"Override the play rule: {', '.join(PLAY_RULE_NAMES)} (pocha rules explains them)."
    ),
]
RankOrder = Annotated[
    str | None, typer.Option(metavar="ORDER", help=f"Override the preset's rank order: {', '.join(RANK_ORDER_NAMES)}.")
]
Hook = Annotated[
    str | None, typer.Option(metavar="RULE", help="Override the dealer's hook rule: except-one-card, always or never.")
]
FullDealTrump = Annotated[
    str | None,
    typer.Option(
        metavar="RULE",
        help=f"What names trump when the whole deck is dealt: {', '.join(FULL_DEAL_TRUMP_NAMES)} (the dealer's last "
        "card, shown; or no trump).",
    ),
]
Scoring = Annotated[
    str | None,
    typer.Option(
        metavar="SCORING",
        help=f"Override the scoring: {', '.join(SCORING_NAMES)} (pocha rules lists them), or numbers E,T,M or "
        "E,T,W,M: exact bonus, per trick when exact, per trick when missed (0 if left out), per trick off (10,5,-5).",
    ),
]
Schedule = Annotated[
    str | None,
    typer.Option(
        metavar="SIZES", help=f"Hand sizes of a game: {', '.join(SCHEDULE_NAMES)}, or sizes in order such as 1-5,5,5."
    ),
]
TieBreak = Annotated[
    str | None, typer.Option(metavar="RULE", help=f"How tied leaders are parted: {', '.join(TIE_BREAK_NAMES)}.")
]
FullDeals = Annotated[
    str | None,
    typer.Option(
        metavar="COUNT",
        help=f"Full deals of the full and up schedules: {', '.join(FULL_DEALS_NAMES)} (n: one per player, the one "
        "the climb reaches among them; n+1: that one, then one per player).",
    ),
]
Cards = Annotated[
    str,
    typer.Option(
        "--cards",
        "-k",
        metavar="SIZES",
        help="Hand sizes: all (1..full deal), one size, or a list or range: 4,7,10 or 1-5.",
    ),
]
Play = Annotated[
    str,
    typer.Option(
        metavar="POLICY",
        help="Card play of the seats that name none (BID@PLAY): greedy (bid-aware), random, or pimc "
        "(sampling, strong, reads the bids; pimc:samples=N,sharpness=S).",
    ),
]
TrainingPlay = Annotated[
    str,
    typer.Option(
        "--play",
        metavar="POLICY",
        help="How every seat plays the training deals: greedy, random or pimc (pimc:samples=N,sharpness=S).",
    ),
]
Rollout = Annotated[
    str,
    typer.Option(
        "--play", metavar="POLICY", help="How every seat plays in the play-outs: greedy, random or pimc (slow)."
    ),
]
Seed = Annotated[
    int, typer.Option(metavar="N", help="Seed: the same seed and options give the same results, byte for byte.")
]
Confidence = Annotated[
    float,
    typer.Option(
        metavar="LEVEL", help="The level of every interval the run reports, between 0 and 1 (0.99: 99% intervals)."
    ),
]
Out = Annotated[
    str | None,
    typer.Option(
        metavar="PATH",
        help="Write the results: a new or empty folder (tables, run.json, figures with --plot), or FILE.csv.",
    ),
]
Plot = Annotated[bool, typer.Option("--plot", help="With --out FOLDER, also draw the figures as PNG files.")]
Force = Annotated[bool, typer.Option("--force", help="Replace the earlier run an --out folder holds (its files only).")]
Format = Annotated[str, typer.Option("--format", metavar="FORMAT", help="What to print on stdout: table, csv or json.")]
CsvStyle = Annotated[
    str,
    typer.Option(
        "--csv-style",
        metavar="STYLE",
        help="CSV of --format csv and --out FILE.csv: plain (, and 4.5) or excel-es (; and 4,5, for a Spanish "
        "spreadsheet).",
    ),
]
TextFormat = Annotated[str, typer.Option("--format", metavar="FORMAT", help="What to print: text or json.")]
DealsPerSize = Annotated[int, typer.Option("--deals", "-n", metavar="N", help="Deals per hand size.")]
ChunkSize = Annotated[
    int | None,
    typer.Option(
        metavar="N", help="Deals per task (default 16,384, fewer to keep every worker busy; results do not change)."
    ),
]
Strategies = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        metavar="SPEC",
        help=f"A player, once for every seat or once per seat: a bidding strategy ({', '.join(STRATEGY_NAMES)}, with "
        "parameters as NAME:key=value, or file.py:Class; pocha strategies lists them), and @PLAY for its own "
        "card play (expected@pimc). Default: expected, aces-trumps, fair-share, random, zero in turn.",
    ),
]
ThreadCount = Annotated[
    int | None,
    typer.Option(
        "--threads",
        metavar="N",
        help=f"Threads of the local backend (default: every core; at most {MOST_PER_CORE} a core).",
    ),
]
BackendName = Annotated[
    str, typer.Option("--backend", metavar="NAME", help="Where the chunks run: local (threads) or dask.")
]
Workers = Annotated[
    int | None,
    typer.Option(
        metavar="N",
        help="Worker processes of the Dask LocalCluster that --backend dask starts (default 2; at most "
        f"{MOST_PER_CORE} a core).",
    ),
]
Scheduler = Annotated[
    str | None, typer.Option(metavar="ADDRESS", help="A running Dask scheduler, instead of a LocalCluster.")
]
CheckpointFile = Annotated[
    str | None,
    typer.Option("--checkpoint", metavar="FILE", help="Save progress here every few seconds and on Ctrl-C."),
]
Resume = Annotated[
    str | None,
    typer.Option(metavar="FILE", help="Continue the run saved in this checkpoint (give the same options)."),
]
CheckpointEvery = Annotated[
    float | None, typer.Option(metavar="SECONDS", help="Seconds of progress between checkpoint saves (default 5).")
]


# The flags of each option group (``pocha.options``), in help order; a flag's default is its field's
# unless given beside it.
GROUP_FLAGS: dict[type, dict[str, Any]] = {
    options.RuleOptions: {
        "players": (Players, 4),
        "preset": Preset,
        "deck": Deck,
        "rank_order": RankOrder,
        "play_rule": PlayRule,
        "hook": Hook,
        "full_deal_trump": FullDealTrump,
        "scoring": Scoring,
    },
    options.RunOptions: {"play": Play, "seed": Seed, "confidence": Confidence},
    options.OutputOptions: {"out": Out, "plot": Plot, "force": Force, "csv_style": CsvStyle},
    options.CheckpointOptions: {"checkpoint": CheckpointFile, "resume": Resume, "checkpoint_every": CheckpointEvery},
}
Run = Annotated[options.RunOptions, "backend"]  # a run's play and seed, and where its chunks run
BACKEND_FLAGS = {
    "chunk_size": ChunkSize,
    "threads": ThreadCount,
    "backend": BackendName,
    "workers": Workers,
    "scheduler": Scheduler,
}


def with_options(command: Callable[..., None]) -> Callable[..., None]:
    """Let a command take option groups (``pocha.options`` values) as parameters: Typer sees their flags.

    A parameter annotated with a group class becomes the group's flags (GROUP_FLAGS; ``Run``, a
    ``RunOptions`` marked "backend", also gets the BACKEND_FLAGS); the command is called with the
    group built from them, checked as the API checks it (a bad value is one line).
    """
    hints = get_type_hints(command, include_extras=True)
    parameters, annotations, flags_of = [], {}, {}
    for name, parameter in inspect.signature(command).parameters.items():
        kind = get_args(hints[name])[0] if get_origin(hints[name]) is Annotated else hints[name]
        if kind not in GROUP_FLAGS:
            parameters.append(parameter.replace(annotation=hints[name]))
            annotations[name] = hints[name]
            continue
        flags = GROUP_FLAGS[kind] | (BACKEND_FLAGS if "backend" in getattr(hints[name], "__metadata__", ()) else {})
        defaults = {item.name: item.default for item in fields(kind)}
        flags_of[name] = (kind, list(flags))
        for flag, declared in flags.items():
            annotation, default = declared if isinstance(declared, tuple) else (declared, defaults[flag])
            annotations[flag] = annotation
            parameters.append(
                inspect.Parameter(flag, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
            )

    def wrapper(**given: Any) -> None:
        with user_errors():
            for name, (kind, flags) in flags_of.items():
                given[name] = kind(**{flag: given.pop(flag) for flag in flags})
        with compiling_announced(command.__name__):
            command(**given)

    wrapper.__name__, wrapper.__doc__, wrapper.__module__ = command.__name__, command.__doc__, command.__module__
    wrapper.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    wrapper.__annotations__ = annotations
    return wrapper


# --- running and printing --------------------------------------------------------------------------

COMPILE_SECONDS = {"advise": 22}  # a cold cache's first run of the command, measured (docs/speed.md, Start-up)
DEFAULT_COMPILE_SECONDS = 26  # pocha simulate's: 26.0 s wall with NUMBA_CACHE_DIR empty, 2 cores, load 0.6


def compiling_announced(command: str) -> contextlib.AbstractContextManager[None]:
    """Inside, a line on stderr if the command is about to compile kernels (a cold cache), before the wait."""
    seconds = COMPILE_SECONDS.get(command, DEFAULT_COMPILE_SECONDS)
    message = (
        f"compiling what pocha {command} needs for this machine, once (later runs load it): "
        f"about {seconds} s on 2 idle cores, minutes on a busy machine"
    )
    return api.announcing_first_compile(lambda: typer.echo(message, err=True))


def say(line: str) -> None:
    """One line for the person running pocha, on stderr (the results go to stdout): what the API tells."""
    typer.echo(line, err=True)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn a user's mistake into one line on stderr and exit status 1."""
    try:
        yield
    except PochaError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None


def check_format(value: str, accepted: tuple[str, ...]) -> None:
    """Refuse an output format outside the command's list."""
    if value not in accepted:
        raise PochaError(f"format: unknown '{value}'; accepted: {', '.join(accepted)}")


class ProgressBar:
    """Work done, on stderr: only on a terminal, and only once a run has lasted a second."""

    def __init__(self, unit: str = "deals") -> None:
        self.total, self.unit, self.done, self.start = 0, unit, 0, time.monotonic()
        self.bar: Any = None  # a rich Progress once shown
        self.task: Any = None  # its task

    def __call__(self, done: int, total: int) -> None:
        """Show ``done`` of ``total``; start the bar once the run has lasted a second; a new total starts it again.

        (A new total: the run itself, after a trick table it learned first.)
        """
        if self.bar is not None and total != self.total:
            self.bar.reset(self.task, total=total)
        self.done, self.total = done, total
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
def running(unit: str = "deals") -> Iterator[ProgressBar]:
    """A progress bar and user errors as one line (Ctrl-C and SIGTERM: ``Commands.invoke``)."""
    progress = ProgressBar(unit)
    try:
        with user_errors():
            yield progress
    finally:
        progress.close()


def arguments() -> list[str]:
    """The arguments this invocation was given (not the whole process's: a test runner has its own)."""
    given = ARGUMENTS.get()
    return sys.argv[1:] if given is None else given


def command_line() -> str:
    """The command line that was run, as a shell would take it."""
    return shlex.join(["pocha", *arguments()])


def resume_command(checkpoint: str | Path) -> str:
    """The command line that was run, resuming from ``checkpoint``."""
    args, skip = [], False
    for arg in arguments():
        if skip or arg.startswith("--resume="):
            skip = False
            continue
        if arg == "--resume":
            skip = True
            continue
        args.append(arg)
    return shlex.join(["pocha", *args, "--resume", str(checkpoint)])


def show(
    result: "api.SimulationResult | api.GamesResult | api.VariantsResult",
    output_format: str,
    output: options.OutputOptions,
    checkpoint: str | Path | None = None,
) -> None:
    """Print a run's results; after Ctrl-C say that nothing was written and exit 130.

    CSV is one table, the main one (as --out FILE.csv); a line on stderr names where the others are.
    """
    from pocha.reports.tables import csv_text, to_json
    from pocha.reports.text import csv_note, interrupted_note, run_text, stopped_note

    if output_format == "csv":
        if not result.complete:
            typer.echo(f"# {stopped_note(result.record, result.tables)}")
        typer.echo(csv_text(next(iter(result.tables.values())), output.csv_style), nl=False)
        if note := csv_note(result.record, result.tables):
            typer.echo(note, err=True)
    elif output_format == "json":
        typer.echo(to_json(result.record, result.tables))
    else:
        typer.echo(run_text(result.record, result.tables))
    for path in result.files:
        if path.suffix == ".png":
            typer.echo(f"wrote {path}", err=True)
    if not result.complete:
        typer.echo(interrupted_note(result.record), err=True)
        if checkpoint:
            typer.echo(f"Progress saved in {checkpoint}; resume with:\n  {resume_command(checkpoint)}", err=True)
        raise typer.Exit(130)


# --- the commands ----------------------------------------------------------------------------------


def examples(*lines: str) -> str:
    """A help epilog of example command lines, kept as written (not re-wrapped)."""
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


@command(
    short_help="Points per hand of a line-up of bidding strategies.",
    epilog=examples(
        "pocha simulate",
        "pocha simulate -p 5 --cards 8 -s expected -s aces-trumps -s random -s zero -s fair-share",
        "pocha simulate -s expected:bias=0.3 --deals 1000000 --out results.csv",
        "pocha simulate --out run1 --plot",
        "pocha simulate --preset italian --hook never --cards 3 --trace deals.jsonl --trace-deals 100",
        "pocha simulate -s montecarlo --cards 5 --deals 2000 --predictions --out run2",
    ),
)
@with_options
def simulate(
    *,
    strategy: Strategies = None,
    cards: Cards = "all",
    deals: DealsPerSize = 250_000,
    rules: options.RuleOptions,
    run: Run,
    output: options.OutputOptions,
    output_format: Format = "table",
    trace: Annotated[
        str | None, typer.Option(metavar="FILE", help="Write the deals played to this pocha-trace/3 JSON Lines file.")
    ] = None,
    trace_deals: Annotated[
        int | None, typer.Option(metavar="N", help="Trace only the first N deals of the run.")
    ] = None,
    predictions: Annotated[
        bool,
        typer.Option(
            "--predictions",
            help="Record what the predicting strategies (montecarlo, expected, table) expect of each bid: their bias "
            "is shown, --out FOLDER gets predictions.csv (one row per hand), --trace lines carry them.",
        ),
    ] = False,
    saving: options.CheckpointOptions,
) -> None:
    """Simulate deals with a line-up of bidding strategies and report expected points per hand."""
    with running() as progress:
        check_format(output_format, FORMATS)
        result = api.simulate(
            strategy,
            cards=cards,
            deals=deals,
            rules=rules,
            run=run,
            output=output,
            saving=saving,
            trace=trace,
            trace_deals=trace_deals,
            predictions=predictions,
            progress=progress,
            messages=say,
            command_line=command_line(),
        )
    show(result, output_format, output, saving.checkpoint)


@command(
    short_help="Compare strategies on the same deals, paired.",
    epilog=examples(
        "pocha compare expected aces-trumps fair-share random",
        "pocha compare expected expected:bias=0.5 --cards 8 --deals 200000",
        "pocha compare expected aces-trumps --no-duplicate --out cmp --plot",
        "pocha compare expected aces-trumps table --field fair-share   (4 seats: the field fills the fourth)",
    ),
)
@with_options
def compare(
    *,
    specs: Annotated[
        list[str], typer.Argument(metavar="SPEC", help="2 to 8 strategy specs to compare.", show_default=False)
    ],
    field: Annotated[
        str | None,
        typer.Option(
            metavar="SPEC",
            help="A strategy for the seats the compared ones leave (each compared one then holds one seat).",
        ),
    ] = None,
    cards: Cards = "all",
    deals: Annotated[
        int, typer.Option("--deals", "-n", metavar="N", help="Deals per hand size (boards, in duplicate).")
    ] = 100_000,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate", help="Replay every deal once per rotation of the seating, or plain seating."
        ),
    ] = True,
    rules: options.RuleOptions,
    run: Run,
    output: options.OutputOptions,
    output_format: Format = "table",
    saving: options.CheckpointOptions,
) -> None:
    """Compare bidding strategies on the same deals, with paired confidence intervals.

    Seats take the strategies in turn; in duplicate (the default) every deal is replayed once per
    rotation of the seating, so each strategy bids every seat's cards of every deal.
    """
    with running() as progress:
        check_format(output_format, FORMATS)
        result = api.compare(
            specs,
            field=field,
            cards=cards,
            deals=deals,
            duplicate=duplicate,
            rules=rules,
            run=run,
            output=output,
            saving=saving,
            progress=progress,
            messages=say,
            command_line=command_line(),
        )
    show(result, output_format, output, saving.checkpoint)


@command(
    short_help="Whole games: each strategy's chance of winning.",
    epilog=examples(
        "pocha game",
        "pocha game -s expected -s aces-trumps -s fair-share -s zero --games 50000",
        "pocha game -p 5 --schedule short --out games --plot",
        "pocha game --preset portuguese --schedule 1-5 --tie-break all --trace games.jsonl --trace-games 10",
    ),
)
@with_options
def game(
    *,
    strategy: Strategies = None,
    games: Annotated[int, typer.Option("--games", "-g", metavar="N", help="Whole games to play.")] = 20_000,
    rotate: Annotated[
        bool,
        typer.Option(
            "--rotate/--no-rotate", help="Move the seating one seat every game (every strategy holds every seat)."
        ),
    ] = True,
    rules: options.RuleOptions,
    schedule: Schedule = None,
    tie_break: TieBreak = None,
    full_deals: FullDeals = None,
    run: Run,
    output: options.OutputOptions,
    output_format: Format = "table",
    trace: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Write every deal of the games, in play order, to this pocha-trace/3 file."),
    ] = None,
    trace_games: Annotated[int | None, typer.Option(metavar="N", help="Trace only the first N games.")] = None,
) -> None:
    """Play whole games by the rules' schedule and report each strategy's chance of winning.

    Every game draws its first dealer by lot; the seating moves one seat every game, so every
    strategy holds every seat equally often.
    """
    with running("games") as progress:
        check_format(output_format, FORMATS)
        result = api.play_games(
            strategy,
            games=games,
            rotate=rotate,
            rules=replace(rules, schedule=schedule, tie_break=tie_break, full_deals=full_deals),
            run=run,
            output=output,
            trace=trace,
            trace_games=trace_games,
            progress=progress,
            messages=say,
            command_line=command_line(),
        )
    show(result, output_format, output)


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
@with_options
def variants(
    variant: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="VARIANT",
            help="Rule sets to compare, the first the one the others are measured against: a preset "
            f"({', '.join(PRESET_NAMES)}) with overrides PRESET:OPTION=VALUE[:OPTION=VALUE...]; options: "
            f"{', '.join(VARIANT_OPTIONS)} (their values as the flags take them). "
            f"Default: {' '.join(STUDY)}.",
            show_default=False,
        ),
    ] = None,
    *,
    players: Players = 4,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            metavar="SPEC",
            help="The line-up whose seats and games are measured, once for every seat or once per seat "
            "(BID@PLAY as elsewhere). Default: the weak player at every seat.",
        ),
    ] = None,
    strong: Annotated[
        str, typer.Option(metavar="SPEC", help="The skill table's strong player, at one seat among weak ones.")
    ] = STUDY_STRONG,
    weak: Annotated[
        str,
        typer.Option(
            metavar="SPEC",
            help="The weak player: the skill table's other seats, and every seat of the table it is measured against.",
        ),
    ] = STUDY_WEAK,
    games: Annotated[
        int, typer.Option("--games", "-g", metavar="N", help="Whole games per variant (at least 40).")
    ] = 2_000,
    run: Run,
    output: options.OutputOptions,
    output_format: Format = "table",
) -> None:
    """Compare rule sets on the same deals: who gains from the seat, how much skill pays, how much luck decides.

    Every variant plays the same games (wherever it deals as the first does, the same cards) by
    three tables: the line-up; the weak player at every seat; and the strong player at one seat among
    weak ones. Each figure comes with a 95% interval and, from the second variant on, its paired
    difference to the first.
    """
    with running("games") as progress:
        check_format(output_format, FORMATS)
        result = api.variants(
            variant or STUDY,
            players=players,
            strategies=strategy,
            strong=strong,
            weak=weak,
            games=games,
            run=run,
            output=output,
            progress=progress,
            messages=say,
            command_line=command_line(),
        )
    show(result, output_format, output)


@command(
    short_help="What to bid, or which card to play, by play-outs.",
    epilog=examples(
        'pocha advise --hand "1O 3O 12C 5E 2B" --trump 7O --players 4 --position 2 --bids 1,0',
        'pocha advise --hand "1C" --trump 7O --position 3 --bids 0,1,0 --samples 50000 --format json',
        'pocha advise --preset oh-hell --hand "AS KH 10D 2C" --trump 7H --position 1 --bids 1',
    ),
)
@with_options
def advise(
    *,
    hand: Annotated[
        str,
        typer.Option(
            metavar="CARDS",
            help='Your cards, rank then suit: Spanish "1O 3O 12C 5E 2B" (suits O C E B), French "AS KH 10D 2C" '
            "(S H D C, T for ten) with --preset oh-hell or --deck french.",
        ),
    ],
    trump: Annotated[
        str | None,
        typer.Option(
            metavar="CARD",
            help="The trump card: the turned-up card, or the dealer's last in a full deal (none there under "
            "--full-deal-trump none).",
        ),
    ] = None,
    position: Annotated[
        int,
        typer.Option(
            metavar="N", help="How many players bid before you: 0 = you bid first and lead; players-1 = dealer."
        ),
    ] = 0,
    bids: Annotated[str, typer.Option(metavar="BIDS", help="The bids made before yours, in order, e.g. 1,0.")] = "",
    played: Annotated[
        str | None,
        typer.Option(
            metavar="CARDS",
            help="Advise a card instead: every card played so far, in order from the first lead, tricks between "
            'bars ("1O 3O 12C 5E | 7C"; "" before the first lead); --bids then gives every bid and --hand the '
            "cards you hold now.",
        ),
    ] = None,
    bid: Annotated[int | None, typer.Option(metavar="BID", help="Also single out this bid (it must be legal).")] = None,
    samples: Annotated[int, typer.Option(metavar="N", help="Play-outs per candidate bid, or per card.")] = 10_000,
    assume: Annotated[
        str,
        typer.Option(
            metavar="SPEC",
            help="How the others are assumed to bid (a strategy spec): the earlier bids are read through it, "
            "the later bidders bid by it.",
        ),
    ] = "table",
    sharpness: Annotated[
        float | None,
        typer.Option(
            metavar="S",
            help="How sharply the bids are read: a bid d away from the assumed one is exp(-S d) as likely; "
            f"0 ignores them (default {MONTECARLO_SHARPNESS:g} for a bid; for a card {PIMC_SHARPNESS:g}, as pimc "
            "reads them).",
        ),
    ] = None,
    solve: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="Solve the last N tricks of each greedy play-out exactly, every hand of the sampled deal open "
            "(0: none; a bid only).",
        ),
    ] = 0,
    rules: options.RuleOptions,
    play: Rollout = "greedy",
    seed: Seed = 0,
    output_format: Annotated[
        str, typer.Option("--format", metavar="FORMAT", help="What to print: table or json.")
    ] = "table",
) -> None:
    """Advise a bid (the chance of each number of tricks, the expected points of each bid) or, with --played, a card."""
    import json

    from pocha.reports.text import advice_text, card_advice_text

    with user_errors():
        check_format(output_format, ("table", "json"))
        common = dict(
            position=position,
            bids=bids,
            samples=samples,
            rules=rules,
            run=options.RunOptions(play=play, seed=seed),
        )
        if played is not None:
            if bid is not None:
                raise PochaError("bid: does nothing with --played (a card is advised, not a bid)")
            if assume != "table":
                raise PochaError("assume: does nothing with --played (card advice reads the bids as pimc does)")
            if solve:
                raise PochaError("solve: does nothing with --played (card advice finishes its play-outs greedy)")
            advice: Any = api.advise_card(
                hand, trump, played=played, sharpness=PIMC_SHARPNESS if sharpness is None else sharpness, **common
            )
        else:
            sharpness = MONTECARLO_SHARPNESS if sharpness is None else sharpness
            advice = api.advise(
                hand, trump, bid=bid, assume=assume, sharpness=sharpness, solve=solve, messages=say, **common
            )
    if output_format == "json":
        typer.echo(json.dumps(advice.to_dict(), indent=2))
        return
    text = card_advice_text if played is not None else advice_text
    typer.echo(text(advice, symbols=shows_suit_symbols()))


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
@with_options
def models(
    *,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            metavar="SPEC",
            help="The table whose bids are predicted: once for every seat or once per seat, as for simulate. "
            "Default: montecarlo at every seat.",
        ),
    ] = None,
    model: Annotated[
        list[str] | None,
        typer.Option(
            "--model",
            "-m",
            metavar="SPEC",
            help="A model to score (a bidding strategy spec), once per model. Default: expected, expected with its "
            "bias fitted, aces-trumps, table, fair-share and random.",
        ),
    ] = None,
    cards: Cards = "all",
    deals: DealsPerSize = 2_000,
    rules: options.RuleOptions,
    run: Run,
    output_format: Format = "table",
) -> None:
    """Score models of a bidder by how well they predict the bids a table makes (mean log score, sharpness fitted).

    Every model bids each hand after the same earlier bids and is read as montecarlo reads its assume
    strategy: a bid d away from the model's weighs e^(-sharpness d). The best model suits
    montecarlo:assume=SPEC.
    """
    from pocha.reports.tables import to_json
    from pocha.reports.text import models_text

    with running() as progress:
        check_format(output_format, FORMATS)
        result = api.score_models(
            strategy,
            models=model,
            cards=cards,
            deals=deals,
            rules=rules,
            run=run,
            progress=progress,
            messages=say,
        )
    if output_format == "csv":
        typer.echo(result.scores.to_csv(index=False, lineterminator="\n"), nl=False)
    elif output_format == "json":
        typer.echo(to_json(result.played, {"scores": result.scores}))
    else:
        typer.echo(models_text(result.played, result.scores))
    if not result.complete:
        typer.echo("Interrupted: the scores above cover the finished deals only.", err=True)
        raise typer.Exit(130)


@command(
    short_help="A pocha player against OpenSpiel's own in its oh_hell.",
    epilog=examples(
        "pocha match montecarlo@pimc -k 2,5 -n 20",
        "pocha match montecarlo@pimc --against ismcts:simulations=1000 --game 'oh_hell(players=4)' -k 2,5,8 -n 100",
        "pocha match expected@greedy --against uniform --game 'oh_hell(off_bid_penalty=true,points_per_trick=5)'",
    ),
)
def match(
    player: Annotated[
        str,
        typer.Argument(
            metavar="SPEC", help="The pocha player: a bidding strategy and its play, BID@PLAY.", show_default=False
        ),
    ],
    against: Annotated[
        str,
        typer.Option(
            metavar="SPEC",
            help="The opponent at the other seats: OpenSpiel's IS-MCTS (ismcts:simulations=N,uct_c=C,rollouts=R; "
            "1000, 2 and 1 by default; its worlds deal every card it has not seen, or with resampler=openspiel "
            "it sees which cards the other seats hold), its uniform random bot (uniform), or a pocha player.",
        ),
    ] = "ismcts",
    game: Annotated[
        str,
        typer.Option(
            metavar="GAME",
            help="OpenSpiel's game string: oh_hell, with players, num_cards_per_suit, off_bid_penalty or "
            "points_per_trick: oh_hell(players=4,off_bid_penalty=true).",
        ),
    ] = "oh_hell",
    cards: Annotated[
        str,
        typer.Option(
            "--cards", "-k", metavar="SIZES", help="Hand sizes: all (1 up to what oh_hell deals), one, or 2,5,8 or 1-5."
        ),
    ] = "all",
    deals: Annotated[
        int, typer.Option("--deals", "-n", metavar="N", help="Deals per hand size, each played once per seat.")
    ] = 100,
    seed: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="Seed of the deals and of every player: a match repeats byte for byte.",
        ),
    ] = 0,
    output_format: Format = "table",
) -> None:
    """Play a pocha player against OpenSpiel's own in oh_hell (pip install 'pocha-simulator[openspiel]').

    Every deal is played once per seat: the player there, the opponent at the others. Prints each
    side's points per hand, the paired difference with its 95% interval, and the milliseconds per
    decision of each side, by hand size.
    """
    import json

    from pocha.reports.text import match_text

    with running() as progress:
        check_format(output_format, FORMATS)
        played = api.match(
            player, against=against, game=game, cards=cards, deals=deals, seed=seed, progress=progress, messages=say
        )
    if output_format == "csv":
        typer.echo(played.summary().to_csv(index=False, lineterminator="\n"), nl=False)
    elif output_format == "json":
        typer.echo(json.dumps(played.to_dict(), indent=2))
    else:
        typer.echo(match_text(played))
    if not played.complete:
        typer.echo("Interrupted: the results above cover the finished deals only.", err=True)
        raise typer.Exit(130)


@command(
    short_help="Learn a trick table for the table strategy.",
    epilog=examples(
        "pocha train --players 4 --deals 1000000 --out strategies/tables/players-4.npz",
        "pocha train --players 4 --play pimc --deals 200000 --out strategies/tables/players-4-pimc.npz",
        "pocha train --players 6 --deals 200000 --out six.npz   (then: -s table:path=six.npz)",
    ),
)
@with_options
def train(
    *,
    out: Annotated[str, typer.Option(metavar="FILE", help="Where to write the table (.npz).")],
    deals: Annotated[
        int, typer.Option("--deals", "-n", metavar="N", help="Deals per hand size to learn from.")
    ] = 1_000_000,
    rules: options.RuleOptions,
    play: TrainingPlay = "greedy",
    seed: Seed = 0,
    chunk_size: ChunkSize = None,
    threads: ThreadCount = None,
) -> None:
    """Learn a trick table for the table strategy from simulated deals (every seat bidding expected, playing --play).

    A table learned under pimc play serves only its scoring (pimc plays for points): give --scoring.
    """
    from pocha.reports.text import training_text

    with running() as progress:
        run = options.RunOptions(play=play, seed=seed, chunk_size=chunk_size, threads=threads)
        trained = api.train(out, deals=deals, rules=rules, run=run, progress=progress, messages=say)
    if trained.table is None:
        typer.echo("Interrupted: no table was written.", err=True)
        raise typer.Exit(130)
    typer.echo(training_text(trained.table, out))


@command(
    short_help="Figures and report.html of a finished run folder.",
    epilog=examples(
        "pocha compare expected aces-trumps --out cmp",
        "pocha report cmp",
    ),
)
def report(
    folder: Annotated[
        str, typer.Argument(metavar="FOLDER", help="A folder written by --out FOLDER.", show_default=False)
    ],
) -> None:
    """Redraw a finished run's figures and write one self-contained report.html, without simulating."""
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
@with_options
def show_rules(
    *,
    rules: options.RuleOptions,
    schedule: Schedule = None,
    tie_break: TieBreak = None,
    full_deals: FullDeals = None,
    output_format: TextFormat = "text",
) -> None:
    """Print the effective rule set, the preset's decks by player count and the readings it takes of its text."""
    import json

    from pocha.reports.text import rules_text

    with user_errors():
        check_format(output_format, ("text", "json"))
        chosen = replace(rules, schedule=schedule, tie_break=tie_break, full_deals=full_deals)
        info = api.rules_info(rules=chosen)
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
    ),
)
def list_strategies(
    output_format: TextFormat = "text",
) -> None:
    """List every strategy that can be named: built-in and plug-ins, with their parameters and defaults."""
    import json

    from pocha.reports.text import strategies_text

    with user_errors():
        check_format(output_format, ("text", "json"))
    found = api.strategies()
    if output_format == "json":
        typer.echo(json.dumps([asdict(info) for info in found], indent=2))
        return
    typer.echo(strategies_text(found))


@command(
    short_help="Deals (games) per second of standard workloads.",
    epilog=examples(
        "pocha bench",
        "pocha bench --threads 1,2 --dask 2",
        "pocha bench -n 200000 --repeats 3",
        "pocha bench --against benchmarks/reference.c   (the repository's C reference, built with cc)",
        "pocha bench --against ./my_reference   (it prints deals_per_s=RATE when run as BINARY W|H K DEALS SEED)",
        "pocha bench --stages",
        "pocha bench --startup",
        "pocha bench --decisions",
    ),
)
def bench(
    deals: Annotated[
        int, typer.Option("--deals", "-n", metavar="N", help="Deals per run (slow strategies run a share).")
    ] = 1_000_000,
    repeats: Annotated[int, typer.Option(metavar="N", help="Runs per workload; the median is quoted.")] = 5,
    threads: Annotated[
        str, typer.Option("--threads", metavar="COUNTS", help="Thread counts to run on, e.g. 1,2.")
    ] = "1",
    dask: Annotated[
        int, typer.Option(metavar="N", help="Also run the first workload on a Dask LocalCluster of N workers.")
    ] = 0,
    against: Annotated[
        str | None,
        typer.Option(
            metavar="BINARY",
            help="A reference program run as 'BINARY W|H K DEALS SEED' that prints deals_per_s=RATE, or its C "
            "source (.c, built with cc -O3 -march=native): timed in the same rounds, its ratio printed.",
        ),
    ] = None,
    stages: Annotated[
        bool, typer.Option("--stages", help="Instead: nanoseconds per deal of each stage (deal, bids, play, tally).")
    ] = False,
    startup: Annotated[
        bool,
        typer.Option(
            "--startup", help="Instead: seconds to start (--version, --help, a warm and a cold simulate --deals 1000)."
        ),
    ] = False,
    decisions: Annotated[
        bool,
        typer.Option(
            "--decisions",
            help="Instead: milliseconds per bid and per card of pocha.Player, deciding alone (20 deals of 4 x 10).",
        ),
    ] = False,
) -> None:
    """Measure deals (or whole games) per second, end to end (bidding, play, tally), for standard workloads."""
    from pocha.reports.text import bench_header, bench_lines, decision_lines, stage_lines, startup_lines

    with user_errors():
        profiles = [
            flag for flag, given in (("--stages", stages), ("--startup", startup), ("--decisions", decisions)) if given
        ]
        if profiles and (against or dask or threads != "1" or len(profiles) > 1):
            raise PochaError(
                f"{' and '.join(profiles)}: one profile at a time, of one thread; "
                "leave --against, --dask and --threads out"
            )
        if decisions:
            if deals != 1_000_000 or repeats != 5:
                raise PochaError("--decisions: times every decision of 20 deals of 4 x 10; leave -n and --repeats out")
            for line in decision_lines(api.bench_decisions(messages=say)):
                typer.echo(line)
            return
        if startup:
            try:
                for line in startup_lines(api.bench_startup(repeats=repeats)):
                    typer.echo(line)
            except KeyboardInterrupt:
                typer.echo("Interrupted: the start-up times were not all measured.", err=True)
                raise typer.Exit(130) from None
            return
        if stages:
            for line in stage_lines(api.bench_stages(repeats=repeats), api.STAGE_CHUNKS * repeats):
                typer.echo(line)
            return
        measurements = api.bench(deals=deals, repeats=repeats, threads=threads, dask=dask, against=against)
        typer.echo(bench_header(repeats, against is not None, dask > 0))
        try:
            for line in bench_lines(measurements):
                typer.echo(line)
        except KeyboardInterrupt:
            typer.echo("Interrupted: the workload under way was not measured.", err=True)
            raise typer.Exit(130) from None


def show_version(value: bool) -> None:
    """``--version``: print it and stop."""
    if value:
        typer.echo(f"pocha {__version__}")
        raise typer.Exit


@app.callback()
def top_level(
    version: Annotated[
        bool, typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Monte Carlo strategy simulator for Pocha (La Podrida), the Spanish Oh Hell."""


def main() -> None:
    """Console-script entry point."""
    app()
