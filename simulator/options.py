"""A command's option groups as values: frozen, checked in one place, resolved into what the engine takes.

The command line builds these from its flags and the Python API takes them (or builds them from its
keyword arguments). Each ``__post_init__`` refuses what it can tell alone with one line naming the
option (the seed, the play policy, options that need another); the rest is checked when the run
resolves them, before any deal is played: the rules (``resolve``), the backend, and whether the
files may be written.
"""

import functools
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypedDict, TypeVar

from pocha.engine.atomic import check_writable, named
from pocha.engine.backends import PER_CORE, Backend, make_backend
from pocha.engine.confidence import CONFIDENCE as CONFIDENCE
from pocha.engine.confidence import check_confidence
from pocha.engine.policies import DEFAULT_PLAY as DEFAULT_PLAY
from pocha.engine.policies import PIMC_SHARPNESS as PIMC_SHARPNESS
from pocha.engine.policies import TEACHER as TEACHER
from pocha.engine.policies import TRAIN_PLAY_DEALS as TRAIN_PLAY_DEALS
from pocha.engine.policies import TRAIN_PLAY_ROUNDS as TRAIN_PLAY_ROUNDS
from pocha.engine.policies import PlayPolicy, parse_policy
from pocha.errors import PochaError
from pocha.game.conditions import DealConditions, read_conditions
from pocha.game.presets import DEFAULT_PRESET as DEFAULT_PRESET
from pocha.game.presets import PRESETS, make_rules
from pocha.game.rules import (
    FULL_DEAL_TRUMPS,
    FULL_DEALS,
    PLAY_RULES,
    RANK_ORDERS,
    SCHEDULES,
    TIE_BREAKS,
    Rules,
    check_players,
)
from pocha.game.scoring import SCORINGS, Scoring, parse_scoring
from pocha.strategies.catalog import LEARN_DEALS as LEARN_DEALS
from pocha.strategies.catalog import MONTECARLO_SHARPNESS as MONTECARLO_SHARPNESS
from pocha.strategies.catalog import SHIPPED_NAMES
from pocha.words import did_you_mean

if TYPE_CHECKING:  # the engine loads numba: imported when a checkpoint (a study) is made, so --help stays quick
    from pocha.engine.checkpoint import Checkpoint
    from pocha.engine.variants import Variant

# The names each option accepts, for help texts and messages.
PRESET_NAMES = tuple(PRESETS)
PLAY_RULE_NAMES = tuple(PLAY_RULES)
RANK_ORDER_NAMES = RANK_ORDERS
SCHEDULE_NAMES = tuple(SCHEDULES)
SCORING_NAMES = tuple(SCORINGS)
TIE_BREAK_NAMES = tuple(TIE_BREAKS)
FULL_DEALS_NAMES = tuple(FULL_DEALS)
FULL_DEAL_TRUMP_NAMES = tuple(FULL_DEAL_TRUMPS)
STRATEGY_NAMES = SHIPPED_NAMES
MOST_PER_CORE = PER_CORE  # threads, or LocalCluster processes, a core may be asked to run


def check_seed(seed: int) -> None:
    """Refuse a seed the random streams cannot take."""
    if not 0 <= seed < 2**63:
        raise PochaError(f"seed: must be a whole number from 0 to 2**63 - 1, not {seed}")


def needs(option: str, value: object, other: str, given: bool) -> None:
    """Refuse an option that does nothing without another one."""
    if value is not None and not given:
        raise PochaError(f"{option}: does nothing without {other}; give {other} too, or leave it out")


@dataclass(frozen=True)
class RuleOptions:
    """The rule set: a preset for a player count with single options overridden, or a whole ``Rules`` object."""

    preset: str | Rules = DEFAULT_PRESET  # a preset name, or a Rules object that holds every option itself
    players: int | None = None  # None: 4
    deck: str | None = None  # a pack (french, spanish), a size (52, 48, 40, ...), ranks strongest first, or "french:32"
    rank_order: str | None = None  # overrides the preset's: ace-three or natural
    play_rule: str | None = None  # overrides the preset's: a key of PLAY_RULES (pocha, trump, follow, ...)
    hook: str | None = None  # overrides the preset's: except-one-card, always, never
    scoring: str | Scoring | None = None  # a name (pocha, tricks+10, ...), "E,T,M", "E,T,W,M", or a Scoring
    schedule: str | tuple[int, ...] | None = None  # a name (full, short, up, full-only) or hand sizes ("1-5,5")
    tie_break: str | None = None  # all, tied, one
    full_deal_trump: str | None = None  # what names trump when the whole deck is dealt: dealer-card, none
    full_deals: str | None = None  # the full deals of the full and up schedules: n (the players), n+1

    def __post_init__(self) -> None:
        if isinstance(self.preset, Rules):
            given = [name for name, value in vars(self).items() if name != "preset" and value is not None]
            if given:
                raise PochaError(f"rules: a Rules object holds every option; set {', '.join(given)} in it instead")
        else:
            if isinstance(self.schedule, Sequence) and not isinstance(self.schedule, str | tuple):
                object.__setattr__(self, "schedule", tuple(self.schedule))
            if not isinstance(self.scoring, str | Scoring | None):
                raise PochaError(f"scoring: a name or numbers such as '10,5,-5', or a Scoring; not {self.scoring!r}")
            self.resolve()  # every option checked now, as the rules they make

    def resolve(self) -> tuple[str | None, Rules]:
        """``(preset, rules)``: the preset's name (None for a Rules object) and the rules it gives."""
        return self.resolved

    @cached_property
    def resolved(self) -> tuple[str | None, Rules]:
        """What ``resolve`` gives, made once: the options are checked when made, a run reads them again."""
        if isinstance(self.preset, Rules):
            return None, self.preset
        scoring = parse_scoring(self.scoring) if isinstance(self.scoring, str) else self.scoring
        made = make_rules(
            self.preset,
            4 if self.players is None else self.players,
            self.deck,
            self.rank_order,
            play_rule=self.play_rule,
            hook=self.hook,
            scoring=scoring,
            schedule=self.schedule,
            tie_break=self.tie_break,
            full_deal_trump=self.full_deal_trump,
            full_deals=self.full_deals,
        )
        return self.preset, made


SIMULATED_DEALS = 20_000  # simulate's deals per hand size: intervals of about 0.06 a strategy, 7 s on 2 cores
COMPARED_DEALS = 10_000  # compare's boards per hand size: a pair's difference to about 0.05, 11 s on 2 cores
STUDY_STRONG = "montecarlo@pimc"  # a study's strong player: the strongest shipped bidder and play a study can afford
STUDY_WEAK = "expected@greedy"  # a study's weak player: a plain heuristic
STUDY = (  # pocha variants without variants: the six presets and the hook rules, at one table
    "ludoteka",
    "ludoteka:hook=always",
    "ludoteka:hook=never",
    "polish",
    "portuguese",
    "italian",
    "turkish",
    "oh-hell",
)


VARIANT_OPTIONS = tuple(  # the rule options a variant may override, as written (``play-rule``)
    item.name.replace("_", "-") for item in fields(RuleOptions) if item.name not in ("preset", "players")
)


def parse_variant(text: str, players: int) -> tuple[str, RuleOptions]:
    """A variant as written, ``PRESET[:OPTION=VALUE]...`` (``ludoteka:hook=never``): its name and its rules.

    The name is the variant in canonical form (lower-case preset and options, no spaces). A part
    without ``=`` continues the value before it, so ``oh-hell:deck=french:32`` reads the deck
    ``french:32``. Players are the study's, not a variant's.
    """
    preset, *parts = (part.strip() for part in text.strip().split(":"))
    preset = preset.lower()
    given: dict[str, str] = {}
    for part in parts:
        name, equals, value = (word.strip() for word in part.partition("="))
        option = name.lower()
        if equals and option in ("players", "player"):  # a did-you-mean would offer play-rule
            given_to = value or "N"
            raise PochaError(
                f"variant '{text}': players are the study's, not a variant's: give -p {given_to} "
                f"(--players; players={given_to} from Python)"
            )
        if equals and option not in VARIANT_OPTIONS:
            known = ", ".join(VARIANT_OPTIONS)
            raise PochaError(
                f"variant '{text}': unknown option '{name}'; {did_you_mean(name, VARIANT_OPTIONS)}accepted: {known}"
            )
        if equals and option in given:
            raise PochaError(f"variant '{text}': {option} given twice")
        if equals and not value:
            raise PochaError(f"variant '{text}': {option} needs a value ({option}=VALUE)")
        if not equals and not given:
            raise PochaError(f"variant '{text}': '{part}' is not OPTION=VALUE (e.g. {STUDY[2]})")
        if equals:
            given[option] = value
        else:
            given[list(given)[-1]] += ":" + part
    try:
        rules = RuleOptions(preset, players, **{option.replace("-", "_"): v for option, v in given.items()})
    except PochaError as error:  # its advice in the variant's own words: --deck 40 -> PRESET:deck=40
        advice = re.sub(
            r"--([a-z-]+) (\S+)", lambda m: f"{preset}:{m[1]}={m[2]}" if m[1] in VARIANT_OPTIONS else m[0], str(error)
        )
        raise PochaError(f"variant '{text}': {advice}") from None
    return ":".join([preset, *(f"{option}={value}" for option, value in given.items())]), rules


def parse_study(variants: str | Sequence[str], players: int) -> "list[Variant]":
    """A study's variants as written (``parse_variant``), each once; the others are compared with the first."""
    from pocha.engine.variants import Variant

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
    return studied


@dataclass(frozen=True)
class RunOptions:
    """How a run plays and where its chunks run."""

    # the seats' card play as named (greedy, random, learned, pimc[:samples=N,...]); values compare by the parsed policy
    play: str = field(default=DEFAULT_PLAY, compare=False)
    seed: int = 0  # the same seed and options give the same results, byte for byte
    chunk_size: int | None = None  # deals per task; None: the engine's choice (results do not change)
    threads: int | None = None  # threads of the local backend; None: every core
    backend: str = "local"  # local (threads) or dask
    workers: int | None = None  # processes of the Dask LocalCluster; None: 2
    scheduler: str | None = None  # a running Dask scheduler's address, instead of a LocalCluster
    confidence: float = CONFIDENCE  # the level of every interval the run reports (and of its verdicts)
    learn_tables: bool = False  # learn a default trick table or play model the run lacks into the cache (else refuse)

    policy: PlayPolicy = field(init=False, repr=False)  # ``play`` parsed, once: what two values compare

    def __post_init__(self) -> None:
        check_seed(self.seed)
        check_confidence(self.confidence)
        object.__setattr__(self, "policy", parse_policy(self.play))
        self.make_backend()  # refused before any work: an unknown backend, an option it has no use for, no Dask

    def at_95_only(self, command: str) -> None:
        """Refuse another level for a command whose intervals are 95% ones only, so far."""
        if self.confidence != CONFIDENCE:
            raise PochaError(f"confidence: {command} reports 95% intervals only; leave --confidence out")

    def make_backend(self) -> Backend:
        """The backend these options name."""
        return make_backend(self.backend, self.threads, self.workers, self.scheduler)

    @property
    def plan_fields(self) -> dict[str, Any]:
        """The fields every engine plan takes from these options: ``Deals(..., **run.plan_fields)``."""
        return {"seed": self.seed, "policy": self.policy, "chunk_size": self.chunk_size}


@dataclass(frozen=True)
class OutputOptions:
    """What a finished run writes: a folder (tables, run.json, figures with ``plot``) or FILE.csv."""

    out: str | Path | None = None
    plot: bool = False  # draw the figures (into the folder)
    force: bool = False  # replace the earlier run the folder holds
    csv_style: str = "plain"  # of FILE.csv and of --format csv: plain (, and .) or excel-es (; and decimal ,)

    def __post_init__(self) -> None:
        from pocha.reports.tables import CSV_STYLES

        if self.csv_style not in CSV_STYLES:
            hint = did_you_mean(self.csv_style, CSV_STYLES)
            raise PochaError(f"csv-style: unknown style '{self.csv_style}'; {hint}accepted: {', '.join(CSV_STYLES)}")
        if self.csv_style != "plain" and self.out is not None and not self.to_file:
            raise PochaError(
                "csv-style: a run folder holds plain CSV (pocha report reads it back); give --out FILE.csv "
                "or --format csv for a spreadsheet"
            )
        if self.out is None and self.plot:
            raise PochaError("plot: figures are written into the --out folder; give --out FOLDER")
        if self.to_file and self.plot:
            raise PochaError("plot: figures need --out FOLDER, not a .csv file")

    @property
    def to_file(self) -> bool:
        """Whether ``out`` names one table's file (``.csv`` in any case, as a file manager shows it) or a folder."""
        return self.out is not None and str(self.out).lower().endswith(".csv")

    def check(self, checkpoint: str | Path | None = None) -> None:
        """Refuse, before any work, an output the run could not write or must not overwrite, or ``force`` alone.

        An earlier table is replaced only with ``force``, as an earlier run's folder is: a second run
        with the same ``--out`` must not lose the first without a word. checkpoint: the run's
        ``--checkpoint``, which ``force`` may also replace (a stopped run's: ``Checkpoint``).
        """
        if self.out is None:
            if self.force and checkpoint is None:
                raise PochaError(
                    "force: it replaces an earlier run in the --out folder or file; give --out FOLDER or --out FILE.csv"
                )
            return
        from pocha.reports.runs import check_out_folder, is_table_csv

        if not self.to_file:
            check_out_folder(self.out, self.force)
        elif check_writable(self.out, "out", is_table_csv, "pocha table").exists() and not self.force:
            raise PochaError(f"out: '{self.out}' holds an earlier pocha table; --force replaces it")


@dataclass(frozen=True)
class CheckpointOptions:
    """Saving a long run's progress every few seconds and on Ctrl-C, and resuming it."""

    checkpoint: str | Path | None = None  # the file progress is saved to
    resume: str | Path | None = None  # a checkpoint file to continue from (the same options)
    checkpoint_every: float | None = None  # seconds of progress between saves; None: DEFAULT_EVERY

    def __post_init__(self) -> None:
        needs("checkpoint-every", self.checkpoint_every, "--checkpoint", self.checkpoint is not None)
        for what, path in (("checkpoint", self.checkpoint), ("resume", self.resume)):
            if path is not None:
                named(path, what)
        if self.checkpoint_every is not None and not self.checkpoint_every > 0:
            raise PochaError(f"checkpoint-every: must be more than 0 seconds, not {self.checkpoint_every}")

    def make_checkpoint(self, force: bool = False) -> "Checkpoint | None":
        """The checkpoint these options ask for, None when they ask for none; force: it may replace a stopped run's."""
        from pocha.engine.checkpoint import DEFAULT_EVERY, Checkpoint

        if self.checkpoint is None and self.resume is None:
            return None
        return Checkpoint(
            Path(self.checkpoint) if self.checkpoint else None,
            DEFAULT_EVERY if self.checkpoint_every is None else self.checkpoint_every,
            Path(self.resume) if self.resume else None,
            force=force,
        )


@dataclass(frozen=True)
class DealOptions:
    """The deals a run asks for (docs/deals.md): cards predealt to places, the turned card, conditions; none: any deal.

    hands: ``PLACE=CARDS`` texts (``1=1O 3O``: bidding position 1 bids first; ``dealer=7C``;
    ``seat2=AS KS``) or a mapping of places to cards; trump: the turned card; where: conditions
    (``trumps(dealer) >= 3``) or predicates in files (``./cond.py:fn``), all to hold. Read against
    the rules of the run (``read``), each mistake one line.
    """

    hands: tuple[str, ...] | Mapping[str | int, str] = ()
    trump: str | None = None
    where: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("hands", "where"):
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, (value,))
            elif value is None or (isinstance(value, Sequence) and not isinstance(value, tuple)):
                object.__setattr__(self, name, tuple(value or ()))
            elif not isinstance(value, tuple | Mapping):
                raise PochaError(f"{name}: a list of texts such as {DEAL_EXAMPLES[name]}, not {value!r}")
        if self.trump is not None and not isinstance(self.trump, str):
            raise PochaError(f"trump: a card such as '7O', not {self.trump!r}")

    @property
    def given(self) -> bool:
        """Whether the run asks for any deals but random ones."""
        return bool(self.hands or self.trump is not None or self.where)

    def read(self, rules: Rules) -> DealConditions:
        """The conditions these options name, read against ``rules``."""
        return read_conditions(rules, self.hands, self.trump, self.where)


RulesGiven = RuleOptions | str | Rules  # what a run's ``rules`` takes: the options, a preset's name, or whole rules


def resolve_rules(rules: RulesGiven) -> tuple[str | None, Rules]:
    """``(preset, rules)`` of what a run's ``rules`` was given (``RuleOptions.resolve``)."""
    return (rules if isinstance(rules, RuleOptions) else RuleOptions(preset=rules)).resolve()


Result = TypeVar("Result")  # what a run returns, kept for type checkers through with_flat_options
Parameters = ParamSpec("Parameters")  # a run's parameters, its flat keywords among them (``**flat``)
DEAL_EXAMPLES = {"hands": "'1=1O 3O' or 'dealer=7C'", "where": "'trumps(dealer) >= 3'"}
GROUPS = {
    "rules": RuleOptions,
    "run": RunOptions,
    "output": OutputOptions,
    "saving": CheckpointOptions,
    "dealing": DealOptions,
}
GROUP_OF = {item.name: group for group, kind in GROUPS.items() for item in fields(kind) if item.init}  # option -> group


class RuleKeywords(TypedDict, total=False):
    """``RuleOptions``' fields as plain keywords: what a type checker lets a run take beside ``rules``."""

    preset: str | Rules
    players: int | None
    deck: str | None
    rank_order: str | None
    play_rule: str | None
    hook: str | None
    scoring: str | Scoring | None
    schedule: str | tuple[int, ...] | None
    tie_break: str | None
    full_deal_trump: str | None
    full_deals: str | None


class RunKeywords(TypedDict, total=False):
    """``RunOptions``' fields as plain keywords."""

    play: str
    seed: int
    chunk_size: int | None
    threads: int | None
    backend: str
    workers: int | None
    scheduler: str | None
    confidence: float
    learn_tables: bool


class OutputKeywords(TypedDict, total=False):
    """``OutputOptions``' fields as plain keywords."""

    out: str | Path | None
    plot: bool
    force: bool
    csv_style: str


class SavingKeywords(TypedDict, total=False):
    """``CheckpointOptions``' fields as plain keywords."""

    checkpoint: str | Path | None
    resume: str | Path | None
    checkpoint_every: float | None


class DealKeywords(TypedDict, total=False):
    """``DealOptions``' fields as plain keywords."""

    hands: str | Sequence[str] | Mapping[str | int, str]
    trump: str | None
    where: str | Sequence[str]


class RulesRunKeywords(RuleKeywords, RunKeywords, total=False):
    """The plain keywords of a run that takes ``rules`` and ``run`` (training, advice)."""


class ModelsKeywords(RulesRunKeywords, DealKeywords, total=False):
    """The plain keywords of ``score_models``: ``rules``, ``run``, ``dealing``."""


class GamesKeywords(ModelsKeywords, OutputKeywords, total=False):
    """The plain keywords of ``play_games``: ``rules``, ``run``, ``dealing``, ``output``."""


class DealsKeywords(GamesKeywords, SavingKeywords, total=False):
    """The plain keywords of ``simulate`` and ``compare``: every group's."""


class StudyKeywords(RunKeywords, DealKeywords, OutputKeywords, total=False):
    """The plain keywords of ``variants``: ``run``, ``dealing``, ``output`` (each variant names its rules)."""


def with_flat_options(function: Callable[Parameters, Result]) -> Callable[Parameters, Result]:
    """Let a run take its groups' options as plain keywords too: ``players=5`` for ``rules=RuleOptions(players=5)``.

    ``rules`` may also be a preset name or a ``Rules`` object. The keywords a run leaves out keep the
    values of the group the run defaults to (advice's greedy play-outs); a keyword given with its whole
    group is refused. The run declares them as ``**flat`` (one of the ``...Keywords`` above), so a
    type checker reads them as the run's own keywords; they reach it inside their groups, ``flat`` empty.
    """
    parameters = inspect.signature(function).parameters
    accepted = {name for name, parameter in parameters.items() if parameter.kind is not parameter.VAR_KEYWORD}

    @functools.wraps(function)
    def call(*args: Parameters.args, **kwargs: Parameters.kwargs) -> Result:
        flat = {name: kwargs.pop(name) for name in list(kwargs) if name not in accepted}
        if not isinstance(kwargs.get("rules", RuleOptions()), RuleOptions):
            flat["preset"] = kwargs.pop("rules")
        for group, kind in GROUPS.items():
            given = {name: value for name, value in flat.items() if GROUP_OF.get(name) == group}
            if group in accepted and given:
                if group in kwargs:
                    raise PochaError(f"{group}: give {', '.join(given)} inside it, not beside it")
                declared = parameters[group].default
                options: Any = declared if isinstance(declared, kind) else kind()
                kwargs[group] = replace(options, **given)
        unknown = {name for name in flat if GROUP_OF.get(name) not in accepted}
        if unknown:
            raise TypeError(f"{function.__name__}() got unexpected keyword arguments: {', '.join(sorted(unknown))}")
        return function(*args, **kwargs)

    return call
