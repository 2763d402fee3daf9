"""The one way every command runs: check, learn the tables it needs, play; a recorded one: record, tabulate, write.

A command (``pocha.api``) reads its options into what it plays (a line-up, hand sizes: the engine's
plan, short of the seed, policy and chunk size every run takes from its options) and hands
``execute`` the plan and the engine's call; ``execute`` makes the checks every run shares, the
backend and the outputs the runner feeds (progress, the estimate's word, the trace). A recorded
command (``record_run``) then asks its kind (``pocha.reports.kinds``) for the record and the tables,
writes them, and returns the result its kind builds. The lines for the person running pocha (a
table learned, a long run's time) go to the caller's ``messages``: the library prints nothing itself.
"""

import contextlib
import functools
import importlib.util
import inspect
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, ParamSpec, TypeVar

from pocha.engine.atomic import atomic_open, check_writable
from pocha.engine.backends import Backend, Threads, default_threads
from pocha.engine.confidence import CONFIDENCE
from pocha.engine.dealing import Conditioned, condition_sizes, why_left_out
from pocha.engine.estimate import LONG
from pocha.engine.play_training import PlayTraining, TrainingProgress, train_play
from pocha.engine.policies import PlayPolicy
from pocha.engine.runner import Outputs, RunTotal
from pocha.engine.seating import Lineup
from pocha.engine.trace import is_trace
from pocha.engine.training import learn_default
from pocha.engine.workload import Amount, Estimate, Plan
from pocha.errors import PochaError
from pocha.game.conditions import written_sizes
from pocha.game.rules import Rules
from pocha.interrupt import run_over
from pocha.options import CheckpointOptions, DealOptions, OutputOptions, RunOptions, needs
from pocha.reports.kinds.kind import Kind
from pocha.reports.record import RunRecord
from pocha.strategies.base import Strategy
from pocha.strategies.play_models import FIRST_USE, missing_model, nearest_model_path
from pocha.strategies.table import DefaultTable, TrickTable, default_table, table_strategies
from pocha.words import counted, duration, round_down

if TYPE_CHECKING:
    import pandas as pd

    from pocha.engine.predictions import Rows

T = TypeVar("T")
P = TypeVar("P", bound=Plan)
R = TypeVar("R")  # a recorded command's result
Params = ParamSpec("Params")  # a recorded run's parameters, kept for type checkers
Progress = Callable[[int, int], None]  # called with (work done so far, all the work): deals or games
Messages = Callable[[str], None]  # told each line for the person running pocha (the CLI prints them on stderr)
Bidders = Iterable[tuple[Strategy, PlayPolicy]]  # each bidding strategy of a run with its play policy


def unsaid(line: str) -> None:
    """Where the lines go of a caller that asked for none."""


@dataclass(frozen=True)
class Asked:
    """What the caller of a run asks besides what it plays: how and where it plays, what it writes, who is told."""

    run: RunOptions
    output: OutputOptions | None = None  # None: a run that writes no run folder (models, training)
    saving: CheckpointOptions = CheckpointOptions()
    progress: Progress | None = None
    messages: Messages | None = None


def execute(
    plan: P,
    play: Callable[[P, Outputs, Backend], T],
    asked: Asked,
    *,
    trace: str | Path | None = None,
    predictions: "list[Rows] | None" = None,
) -> T:
    """Check what every run checks, learn the default tables the plan's bidders need under its rules, and play.

    plan: the engine's plan, made by keyword with the run options' fields (``RunOptions.plan_fields``);
    play: the engine's run of it, with the outputs and the backend. Returns what its play returned. A
    trace is written whole when the run ends, dropped when it was stopped.
    """
    run = asked.run
    plan.amount.check()
    if asked.output is not None:
        asked.output.check(asked.saving.checkpoint)
    force = asked.output is not None and asked.output.force
    checkpoint = asked.saving.make_checkpoint(force)  # a bad one refused before any work or progress line
    backend = run.make_backend()
    bidders = bidders_of(plan.bidders, plan.policy)
    learn_default_tables(bidders, plan.rule_sets, backend, asked.progress, asked.messages, run.learn_tables)
    policies = [policy for _, policy in bidders]
    learn_default_models(policies, plan.rule_sets, run.threads, asked.progress, asked.messages, run.learn_tables)
    with _trace_file(trace) as stream:
        outputs = Outputs(
            progress=counter(asked.progress, plan.planned),
            estimate=telling_cost(run, plan.amount, asked.messages),
            trace=stream,
            predictions=predictions,
            checkpoint=checkpoint,
        )
        played = play(plan, outputs, backend)
        if stream is not None and isinstance(played, RunTotal) and not played.complete:
            raise _Stopped
        if stream is not None:
            run_over()  # the trace is written as the block ends: a signal after it must not unsay it
    return played


def record_run(
    kind: Kind[P, T, R],
    plan: P,
    asked: Asked,
    *,
    command_line: str | None,
    trace: str | Path | None = None,
    predictions: bool = False,
) -> R:
    """Run a recorded command's plan by its kind's engine entry (``execute``), then its record and tables; write them.

    command_line: the command line (or Python call) that made the run.
    Returns the result the kind builds of them.
    """
    rows: list[Rows] | None = [] if predictions else None
    played = execute(plan, kind.play, asked, trace=trace, predictions=rows)
    header = {
        "command": kind.command,
        "command_line": command_line,
        "preset": plan.preset,
        "confidence": None if asked.run.confidence == CONFIDENCE else asked.run.confidence,
        "complete": played.complete,
        "played": kind.played(played.total),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    record = kind.record(plan, played.total, header)
    tables = kind.tables(record, plan, played.total, rows)
    run_over()  # writing and showing it takes moments; a signal after this must not unsay what is written
    return kind.result(record, played.total, tables, write_outputs(record, tables, asked.output))


def condition_deals(
    dealing: DealOptions,
    rules: Rules,
    sizes: Sequence[int],
    seed: int,
    messages: Messages | None,
    *,
    every: bool,
    games: bool = False,
    variant: str = "",
) -> tuple[Conditioned | None, tuple[int, ...]]:
    """A run's deal conditions read against its rules (None for any deal), and the hand sizes they apply to.

    every: ``sizes`` are all the run deals without naming them (``--cards all``, a game's schedule): the
    sizes no deal can meet are left out and said (a game deals them freely); sizes named are refused
    instead. Each mistake is one line (a variant's names it), before any work; ``messages`` hears the
    sizes left out and the share of deals that meet a ``--where`` condition. Without conditions the
    sizes are ``sizes``: a run of deals deals the sizes returned.
    """
    if not dealing.given:
        return None, tuple(sizes)
    said = f"variant '{variant}': " if variant else ""
    try:
        conditions = dealing.read(rules)
        conditioned, left_out = condition_sizes(rules, seed, conditions, list(dict.fromkeys(sizes)), every)
    except PochaError as error:
        raise PochaError(f"{said}{error}") from None
    say = messages or unsaid
    if left_out:
        kept, why = written_sizes(conditioned.sizes), why_left_out(left_out)
        say(
            f"{said}where: the conditions apply to the hands of {kept} cards; the others are dealt freely: {why}"
            if games
            else f"{said}cards: the run deals {kept} cards; no deal of the others can meet the conditions: {why}"
        )
    if conditions.conditional:
        met = ", ".join(f"{share:.1%} at {counted(cards, 'card')}" for cards, share in conditioned.shares)
        say(f"{said}where: the share of deals that meet the conditions (each deal is dealt until it does): {met}")
    return conditioned, conditioned.sizes


def bidders_of(lineup: Lineup, policy: PlayPolicy) -> list[tuple[Strategy, PlayPolicy]]:
    """Each bidding strategy of a line-up with its play policy (``policy``: of the seats that name none)."""
    return [(player.strategy, player.policy) for player in lineup.competitors(policy)]


def counter(progress: Progress | None, total: int) -> Callable[[int], None] | None:
    """The engine's per-chunk callback (work just finished) as calls of ``progress(done, total)``.

    ``progress(0, total)`` comes first, at once: the work ahead is known before a first chunk (a
    compile, the estimate's probe) ends, so a run can say what it is doing from its start.
    """
    if progress is None:
        return None
    progress(0, total)
    done = 0

    def count(amount: int) -> None:
        nonlocal done
        done += amount
        progress(done, total)

    return count


def check_trace(trace: str | Path | None, count: int | None, option: str) -> None:
    """Refuse a trace the run could not write, or a count of traced deals or games without a trace."""
    needs(option, count, "--trace", trace is not None)
    if count is not None and count < 1:  # 0 would write a trace of its header alone
        unit = option.removeprefix("trace-")
        raise PochaError(f"{option}: must be at least 1, not {count} (leave it out to trace every one of the {unit})")
    if trace is not None:
        check_writable(trace, "trace", is_trace, "pocha trace")


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


def write_outputs(
    record: RunRecord, tables: dict[str, "pd.DataFrame"], output: OutputOptions | None
) -> tuple[Path, ...]:
    """Write a finished run: FILE.csv holds the main table; a folder holds every table, figures and run.json."""
    if output is None or output.out is None or not record.complete:
        return ()
    from pocha.reports.runs import save_run, write_table

    if output.to_file:
        write_table(tables[next(iter(tables))], output.out, output.csv_style)
        return (Path(output.out),)
    figures = {}
    if output.plot:
        from pocha.reports.plots import render_figures

        figures = render_figures(record, tables)
    written = save_run(Path(output.out), record, tables, figures)
    return tuple(Path(output.out) / name for name in (*(written.files or {}), "run.json"))


def telling_cost(run: RunOptions, amount: Amount, messages: Messages | None) -> Callable[[Estimate], None] | None:
    """What says, before a run of more than LONG seconds starts, about how long it will take and how to shorten it.

    None with a Dask scheduler (a cluster's speed is not this machine's), or with no one to tell.
    """
    if run.scheduler is not None or messages is None:
        return None
    unit = "games" if amount.option == "--games" else "deals"

    def tell(estimate: Estimate) -> None:
        if estimate.seconds <= LONG:
            return
        workers = counted(estimate.workers, "Dask worker" if run.backend == "dask" else "thread")
        line = (
            f"this run will take about {duration(estimate.seconds)} on {workers} "
            f"(~{estimate.rate:,.0f} {unit}/s, the rate of its first {unit}"
            f"{' on this busy machine, its threads together as fast as one' if estimate.busy else ''}; "
            "slower if the machine gets busier)"
        )
        shorter = max(amount.least, round_down(LONG * estimate.rate / amount.per))
        if shorter < amount.value:
            line += f"; {amount.option} {shorter} takes about {duration(shorter * amount.per / estimate.rate)}"
        messages(line)

    return tell


def learn_default_tables(
    bidders: Bidders,
    rules: Rules | Sequence[Rules],
    backend: Backend,
    progress: Progress | None,
    messages: Messages | None,
    learn: bool,
) -> None:
    """Before a run: learn the default trick tables its ``table`` bidders need and pocha's cache lacks.

    bidders: each bidding strategy with its play policy; rules: the run's, or each rule set a study
    plays. Each table learned is announced in one line, then ``progress`` counts its training deals;
    a ``table`` bidder's pimc play bidding from the greedy table is said too, once (not for a table
    inside another strategy, such as montecarlo's reading of the bids: the default runs' own detail).
    Ctrl-C while learning stops the run (``KeyboardInterrupt``) and keeps no table. A table is
    written into the user's cache only when the caller asks (``learn``); otherwise its lack is one line.
    """
    say = messages or unsaid
    needed: dict[Path, tuple[DefaultTable, PlayPolicy]] = {}
    named: set[Path] = set()  # the tables of a table bidder itself
    bidders = list(bidders)
    for ruled in [rules] if isinstance(rules, Rules) else rules:
        for strategy, policy in bidders:
            for table in table_strategies(strategy):
                if not table.path:
                    default = default_table(ruled, policy.label, table.deals)
                    if table is strategy:  # the line below names a table bidder's own play
                        needed[default.path] = (default, policy)
                        named.add(default.path)
                    else:
                        needed.setdefault(default.path, (default, policy))
    said = set()
    for default, policy in needed.values():
        if default.play != policy.name and policy.name not in said and default.path in named:
            said.add(policy.name)
            say(
                f"table: no {policy.name}-play table fits these rules; {policy.label} play bids from the "
                f"{default.play}-play table (pocha train --play {policy.name} learns one, for table:path=FILE)"
            )
        if default.shipped or is_cached(default, say):
            continue
        if not learn:
            raise PochaError(
                f"table: no trick table of these rules under {default.play} play ships with pocha or is in its "
                f"cache; learning one plays {default.deals:,} deals per hand size and keeps it in "
                f"{default.path.parent}: pass learn_tables=True (the command line does), or train one "
                "(pocha train) and give table:path=FILE"
            )
        say(
            f"table: learning the trick table of these rules under {default.play} play from {default.deals:,} deals "
            f"per hand size, once (kept in {default.path.parent})"
        )
        if learn_default(default, backend, counter(progress, default.deals * default.rules.full_deal)) is None:
            raise KeyboardInterrupt


def learn_default_models(
    policies: Iterable[PlayPolicy],
    rule_sets: Sequence[Rules],
    threads: int | None,
    progress: Progress | None,
    messages: Messages | None,
    learn: bool,
) -> None:
    """Before a run: learn the play model its learned seats (and learned play-outs) need where none shipped serves.

    Learned on first use (``FIRST_USE``, a minute or two), kept in pocha's cache, and resumed if stopped
    (Ctrl-C stops the run). Not asked (``learn``), or without scikit-learn, the nearest shipped model
    plays, said in one line.
    """
    if not any(policy.uses_model and not policy.model for policy in policies):
        return
    say = messages or unsaid
    for rules in dict.fromkeys(rule_sets):
        path = missing_model(rules)
        if path is None:
            continue
        nearest = Path(nearest_model_path(rules)).stem
        why = f"no shipped play model serves {rules.play_rule} play and {rules.scoring.label} scoring"
        if not learn or importlib.util.find_spec("sklearn") is None:
            how = "--learn-tables learns one" if not learn else "pip install 'pocha-simulator[train]' to learn one"
            say(f"learned: {why}; the nearest, {nearest}, plays ({how} for these rules on first use)")
            continue
        say(
            f"learned: {why}; learning one for these rules from {FIRST_USE['teacher']} ({FIRST_USE['deals']:,} "
            f"deals a hand size, {FIRST_USE['rounds']} rounds), once: a minute or two (kept in {path.parent})"
        )
        plan = PlayTraining(rules=rules, **FIRST_USE)
        folder = path.with_name(path.stem + "-data")
        told = TrainingProgress(progress or (lambda done, total: None), say)
        train_play(plan, folder, Threads(default_threads() if threads is None else threads), told).save(path)
        shutil.rmtree(folder)


def is_cached(default: DefaultTable, say: Messages) -> bool:
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


def recorded(function: Callable[Params, T]) -> Callable[Params, T]:
    """Record, for a run called from Python, the call itself as its command (the CLI passes its command line)."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def call(*args: Params.args, **kwargs: Params.kwargs) -> T:
        if kwargs.get("command_line") is None:
            given = signature.bind_partial(*args).arguments | kwargs
            shown = [f"{name}={value!r}" for name, value in given.items() if name not in ("progress", "messages")]
            kwargs["command_line"] = f"pocha.{function.__name__}({', '.join(shown)})"
        return function(*args, **kwargs)

    return call
