"""What the terminal shows: each command's results as plain text (the CLI only prints these strings)."""

import statistics
import textwrap
from collections.abc import Iterable
from dataclasses import astuple

import numpy as np
import pandas as pd

from pocha.engine.advice import Advice, CardAdvice
from pocha.engine.backends import DEFAULT_CHUNK
from pocha.engine.bench import DASK_CHUNK, STAGES, Benchmark, Measurement
from pocha.engine.decisions import DecisionTime
from pocha.engine.policies import ABOUT as POLICY_ABOUT
from pocha.engine.policies import DEFAULT_PLAY_WHY
from pocha.engine.seating import NAMED_PLAYERS
from pocha.engine.startup import StartupTime
from pocha.game.cards import cards_of, mask_of
from pocha.game.presets import PRESETS
from pocha.game.rules import CLIMBING, FULL_DEAL_TRUMPS, FULL_DEALS, PLAY_RULES, TIE_BREAKS, Rules
from pocha.game.scoring import SCORINGS
from pocha.reports.kinds import hands, kind_of
from pocha.reports.match import Match
from pocha.reports.record import RunRecord, schedule_text, scoring_note
from pocha.reports.tables import match_table
from pocha.strategies.registry import StrategyInfo
from pocha.strategies.table import TrickTable, describe
from pocha.words import counted

Tables = dict[str, pd.DataFrame]


def run_heading(run: RunRecord) -> str:
    """Two lines saying what was played (its kind's)."""
    return kind_of(run.command).heading(run)


def per_strategy(run: RunRecord, frame: pd.DataFrame) -> list[str]:
    """The summary of a run that tallies hands: one row per strategy, every position and hand size together."""
    return hands.per_strategy(run, frame, kind_of(run.command).sizes(run))


def stopped_note(run: RunRecord, tables: Tables) -> str:
    """One line saying a stopped run's results cover only what it played, and how evenly."""
    return kind_of(run.command).stopped(run, tables)


def run_text(run: RunRecord, tables: Tables, brief: bool = False) -> str:
    """A run's results as the terminal shows them: the heading, then its kind's sections (brief: its summary)."""
    heading = [run_heading(run)] if run.complete else [run_heading(run), stopped_note(run, tables)]
    kind = kind_of(run.command)
    return "\n".join([*heading, *(kind.summary(run, tables) if brief else kind.text(run, tables))])


def csv_note(run: RunRecord, tables: Tables) -> str | None:
    """Where the tables are that ``--format csv`` leaves out, when they answer the command's question."""
    if not kind_of(run.command).names_others:
        return None
    main, *others = tables
    return f"the CSV is {main}.csv alone; --out FOLDER also writes {', '.join(f'{name}.csv' for name in others)}"


def interrupted_note(run: RunRecord) -> str:
    """What the command line says on stderr after a stopped run's results (after ``Interrupted: ``)."""
    kind = kind_of(run.command)
    covered = f"the results above cover the finished {kind.unit}s only"
    return f"{covered}; no output file was written" if kind.writes_folder else covered  # models writes none ever


def advice_text(advice: Advice | CardAdvice, symbols: bool = False) -> str:
    """The advice as a few short tables; symbols: the suits as the pack's symbols (a terminal that shows them).

    Card advice (``pocha advise --played``) as ``card_advice_text`` shows it.
    """
    if isinstance(advice, CardAdvice):
        return card_advice_text(advice, symbols)
    s = advice.situation
    notation = s.rules.notation
    who = (
        "you bid first and lead"
        if s.position == 0
        else (
            f"{s.position} bid before you ({', '.join(map(str, s.bids))})"
            + ("; you are the dealer" if s.position == s.rules.players - 1 else "")
        )
    )
    trump = (
        f"trump {notation.name(s.trump_card, symbols)} ({notation.suit_word(s.trump_card)})"
        if s.rules.has_trump(s.cards)
        else "no trump"
    )
    lines = [
        f"Hand {notation.names(s.hand, symbols)} ({counted(s.cards, 'card')}), {trump}, "
        f"{s.rules.players} players{scoring_note(s.rules)}; {who}.",
        *textwrap.wrap(f"Assumed: {advice.model}.", 100),
        f"{counted(advice.samples, 'play-out')} per bid"
        + (f", worth {advice.effective:,.0f} unweighted" if advice.effective < advice.samples else "")
        + "; ±95%: half-width of the 95% interval (sampling noise under that model).",
        "",
        f"Tricks you take, playing to a bid of {advice.recommended}:",
        "tricks  chance   ±95%",
    ]
    for t, (p, e) in enumerate(zip(advice.tricks, advice.tricks_error, strict=True)):
        lines.append(f"{t:>6}  {p:6.1%}  {e:5.1%}")
    lines += ["", "bid  exact  expected points   ±95%"]
    for b, (x, p, e) in enumerate(zip(advice.exact, advice.points, advice.points_error, strict=True)):
        mark = " <- recommended" if b == advice.recommended else " <- asked" if b == advice.asked else ""
        text = "forbidden (hook)" if np.isnan(p) else f"{p:15.2f}  {e:5.2f}"
        lines.append(f"{b:>3}  {x:5.1%}  {text}{mark}")
    lines += ["", f"Recommended bid: {advice.recommended} ({advice.points[advice.recommended]:.2f} points on average)."]
    return "\n".join(lines)


def card_advice_text(advice: CardAdvice, symbols: bool = False) -> str:
    """The card advice as a short table, one row per legal card; symbols as for ``advice_text``."""
    s, notation = advice.situation, advice.situation.rules.notation
    held = cards_of(mask_of(s.held))
    trump = f"trump {notation.name(s.trump_card, symbols)}" if s.rules.has_trump(s.cards) else "no trump"
    tricks = len(s.played) // s.rules.players
    lines = [
        f"Hand {notation.names(held, symbols)} ({len(held)} of {counted(s.cards, 'card')} left), {trump}, "
        f"{s.rules.players} players; you bid {s.bids[s.position]} at position {s.position} "
        f"(bids {', '.join(map(str, s.bids))}); {counted(tricks, 'trick')} played.",
        *textwrap.wrap(f"Assumed: {advice.model}.", 100),
        f"{counted(advice.samples, 'play-out')} per card; ±95%: half-width of the 95% interval (sampling noise "
        "under that model).",
        "",
        "card  makes the bid  ±95%  expected points  ±95%",
    ]
    columns = advice.predictions
    for card, chance, chance_error, points, points_error in zip(*columns.values(), strict=True):
        mark = (
            (" <- the only legal card" if len(columns["card"]) == 1 else " <- recommended")
            if card == advice.recommended
            else ""
        )
        shown = notation.name(notation.parse(card), symbols)
        lines.append(f"{shown:>4}  {chance:13.1%}  {chance_error:4.1%}  {points:15.2f}  {points_error:4.2f}{mark}")
    best = int(np.argmax(columns["expected_points"]))
    lines += ["", f"Recommended card: {advice.recommended} ({columns['expected_points'][best]:.2f} points on average)."]
    return "\n".join(lines)


def rules_text(preset: str | None, rules: Rules) -> str:
    """The effective rule set, one option a line, then the preset's decks and the readings it takes."""
    sizes = rules.hand_sizes()
    lines = {
        "preset": f"{preset}: {PRESETS[preset].text}" if preset else "custom rules",
        "players": str(rules.players),
        "deck": rules.notation.describe(),
        "full deal": f"{counted(rules.full_deal, 'card')} each"
        + (
            f"; trump {rules.full_deal_trump}: {FULL_DEAL_TRUMPS[rules.full_deal_trump]}"
            if rules.full_deal * rules.players == rules.deck_size
            else " (the deck does not split evenly)"
        ),
        "play rule": f"{rules.play_rule}: {PLAY_RULES[rules.play_rule]}",
        "hook": rules.hook,
        "scoring": f"{rules.scoring.label}: {rules.scoring.in_words()}",
        "schedule": f"{schedule_text(rules)}: {' '.join(map(str, sizes))} ({counted(len(sizes), 'hand')})",
    }
    if rules.schedule in CLIMBING:
        lines["full deals"] = f"{rules.full_deals}: {FULL_DEALS[rules.full_deals]}"
    lines["tie-break"] = f"{rules.tie_break}: {TIE_BREAKS[rules.tie_break]}"
    lines["card play"] = f"not a rule, how pocha's seats play (--play): {DEFAULT_PLAY_WHY}"
    text = [f"{name:<10} {value}" for name, value in lines.items()]
    if preset:
        decks = ", ".join(f"{players}: {size}" for players, size in PRESETS[preset].decks.items())
        text.append(f"\nDecks of the {preset} preset by player count (cards): {decks}; others need --deck.")
        readings = PRESETS[preset].readings
        if readings:
            unclear = "tables differ" if PRESETS[preset].text.endswith("(no text)") else "its text is unclear"
            text.append(f"Readings this preset takes where {unclear}:")
            text += [f"  - {reading}" for reading in readings]
    width = max(map(len, SCORINGS))
    text += [
        "\nScoring systems: --scoring NAME, or the numbers E,T,W,M (E,T,M: W is 0). An exact bid scores E + T per "
        "trick,\na missed one W per trick taken + M per trick off.",
        f"  {'':<{width}}   E   T   W   M",
    ]
    text += [
        f"  {name:<{width}}" + "".join(f"{value:>4}" for value in astuple(scoring)) + f"  {about}"
        for name, (scoring, about) in SCORINGS.items()
    ]
    return "\n".join(text)


def bench_header(repeats: int, reference: bool, dask: bool) -> str:
    """The line above the bench figures: what they are (Dask and the reference only when they run)."""
    dask_chunks = f"; Dask in chunks of {DASK_CHUNK:,} deals" if dask else ""
    same_rounds = "; reference on one thread, same rounds" if reference else ""
    return (
        f"per second, median of {counted(repeats, 'run')}; montecarlo at its default samples{dask_chunks}{same_rounds}"
    )


def bench_lines(measurements: Iterable[Measurement]) -> Iterable[str]:
    """One line per measurement as it comes: the median, the speed-up over one thread, the reference's ratio."""
    single: dict[str, float] = {}
    for m in measurements:
        work = m.benchmark
        if m.where == "1 thread":
            single[work.title] = m.median
        notes = ""
        if work.decisions:
            notes += f" = {m.median * work.players:,.0f} bidding decisions"
        if m.workers > 1 and work.title in single:
            speedup = m.median / single[work.title]
            notes += f"  {speedup:.2f}x one thread, efficiency {speedup / m.workers:.0%}"
        if m.reference:
            similar = "" if work.reference == "W" else ", its mode H"
            notes += f"  reference {statistics.median(m.reference):,.0f}{similar}: ratio {m.ratio:.2f}"
        runs = " ".join(f"{rate:,.0f}" for rate in m.rates)
        yield (
            f"{work.title:<54} {m.where:<29} {m.median:>11,.0f} {work.unit}/s{notes}   "
            f"({counted(m.deals, work.unit.removesuffix('s'))} a run; runs: {runs})"
        )


def stage_lines(profile: Iterable[tuple[Benchmark, dict[str, float]]], chunks: int) -> Iterable[str]:
    """The stage profile: nanoseconds per deal of each stage, their total and the deals per second it makes."""
    yield f"nanoseconds per deal by stage, median of {counted(chunks, 'chunk')} of {DEFAULT_CHUNK:,} deals, one thread"
    yield f"{'workload':<44}" + "".join(f"{stage:>8}" for stage in STAGES) + f"{'total':>8}{'deals/s':>12}"
    for benchmark, times in profile:
        total = sum(times.values())
        cells = "".join(f"{times[stage]:>8.0f}" for stage in STAGES)
        yield f"{benchmark.title:<44}{cells}{total:>8.0f}{1e9 / total:>12,.0f}"


def startup_lines(times: Iterable[StartupTime], cold: bool = True) -> Iterable[str]:
    """Seconds to start each command line: the median of its runs, and the runs; what is timed said first."""
    last = "; last, a run from an empty cache, which compiles first (tens of seconds)" if cold else ""
    yield f"seconds from the command to its end, each run a new process{last}"
    for time in times:
        name = f"{time.command} ({'cold cache: compiles first' if time.cold else 'warm'})"
        runs = " ".join(f"{seconds:.2f}" for seconds in time.seconds)
        yield f"{name:<54} {time.median:6.2f} s   (runs: {runs})"


def decision_lines(times: Iterable[DecisionTime]) -> Iterable[str]:
    """Milliseconds per decision of each player: the median and the 95th percentile, bids and cards apart."""
    yield "milliseconds per decision of pocha.Player (one thread): median, 95th percentile, decisions timed"
    for time in times:
        median, slowest = 1000 * time.median, 1000 * time.slowest
        yield f"{time.player:<18} {time.kind:<5} {median:8.2f} {slowest:8.2f}  ({len(time.seconds):,})"


def strategies_text(found: list[StrategyInfo], whole: bool = True) -> str:
    """Strategies with their descriptions and parameters; whole (every one): then how to name them, and the play."""
    lines = []
    for info in found:
        lines += described(f"{info.name}  ({info.source})", info.description, info.parameters)
    if not whole:
        return "\n".join(lines).lstrip("\n")
    lines.append("\nA spec names one with parameters: NAME:key=value,key=value (e.g. expected:bias=0.3).")
    lines.append("Your own: package.module:Class or path/to/file.py:Class, or the entry-point group pocha.strategies.")
    lines.append("\nCard play: --play POLICY for every seat that names none, or BID@POLICY for one (expected@pimc);")
    lines.append(f"{DEFAULT_PLAY_WHY}.")
    for name, (about, parameters) in POLICY_ABOUT.items():
        lines += described(name, about, parameters)
    lines.append("\nA policy takes parameters as pimc:key=value,key=value (e.g. pimc:samples=16).")
    lines.append("\nWhole players, a bidding strategy with its play (named alone, without @POLICY):")
    for name, spec in NAMED_PLAYERS.items():
        lines += described(name, f"{spec}: the strongest player pocha has (docs/card-play.md).", ())
    return "\n".join(lines)


def described(title: str, about: str, parameters: Iterable[tuple[str, str, str, str]]) -> list[str]:
    """One strategy or play policy: its name, what it does, and each parameter with its type and default."""
    lines = [title, f"    {about}"]
    for name, kind, default, meaning in parameters:
        lines.append(f"    {name}: {kind} = {default}" + (f"  ({meaning})" if meaning else ""))
    return lines


def training_text(table: TrickTable, path: str) -> str:
    """What ``pocha train`` learned and where it wrote it."""
    facts = describe(table)
    return (
        f"wrote {path}: {counted(facts['hands'], 'hand')} of {table.rules.players} players under {table.policy} "
        f"play ({counted(table.deals_per_size, 'deal')} per hand size), {counted(facts['cells_used'], 'feature cell')} "
        f"seen, {facts['cells_with_min_hands']:,} with enough hands to stand alone"
    )


def match_text(match: Match) -> str:
    """A match: what was played by whom, then points per hand and time per decision by hand size."""
    rules = match.rules
    lines = [
        f"OpenSpiel's {match.game}: {rules.players} players, {rules.deck_size} cards "
        f"({' '.join(rules.notation.pack.rank_names[rank] for rank in rules.ranks)}), play {rules.play_rule}, "
        f"hook {rules.hook}, scoring {rules.scoring.label}; seed {match.seed}",
        f"player {match.player}, opponent {match.opponent}: every deal played {rules.players} times, the player at "
        "each seat in turn and the opponent at the others; ms: milliseconds per decision",
    ]
    if not match.complete:
        lines.append(f"stopped: {counted(len(match.deals), 'deal')} played; the results cover those only")
    return "\n".join([*lines, match_table(match.summary())])
