"""The command line's flags, declared once: each an ``Annotated`` type with its flag names, value name and help.

``pocha.cli.commands`` gives every command its flags as parameters of these types, so a flag reads the
same in every command that takes it. Its default is the parameter's, the option value's
(``pocha.options``) where it fills one. Nothing here loads numba: ``--help`` stays quick.
"""

from typing import Annotated

import typer

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
    TIE_BREAK_NAMES,
    VARIANT_OPTIONS,
)
from pocha.version import __version__

# --- the options groups' flags (pocha.options), and those several commands share --------------------

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
        help="Card play of the seats that name none (BID@PLAY): learned (a network learned from pimc's search: "
        "ahead of pimc at over ten times its speed; learned:model=FILE), greedy (bid-aware, 50 times faster), "
        "random or pimc (sampling, reads the bids; pimc:samples=N,sharpness=S,rollout=learned).",
    ),
]
TrainingPlay = Annotated[
    str,
    typer.Option(
        "--play",
        metavar="POLICY",
        help="How every seat plays the training deals: greedy, random, learned or pimc (pimc:samples=N,...).",
    ),
]
Rollout = Annotated[
    str,
    typer.Option(
        "--play", metavar="POLICY", help="How every seat plays the play-outs: greedy, random, learned or pimc (slow)."
    ),
]
LearnTables = Annotated[
    bool,
    typer.Option(
        "--learn-tables/--no-learn-tables",
        help="Learn a trick table a table bidder (or montecarlo, reading the bids) needs where none ships for "
        "the rules, and a play model for learned play where none serves them: once, kept in pocha's cache "
        "folder; --no-learn-tables refuses the table instead, and plays the nearest model.",
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
Force = Annotated[
    bool,
    typer.Option(
        "--force", help="Replace the earlier run an --out folder holds (its files only), or an --out FILE.csv."
    ),
]
CheckpointedForce = Annotated[  # a command that takes --checkpoint: --force also starts a stopped run over
    bool,
    typer.Option(
        "--force",
        help="Replace the earlier run an --out folder holds (its files only), an --out FILE.csv, or a stopped "
        "run's --checkpoint (to start it over).",
    ),
]
Format = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="FORMAT",
        help="What to print on stdout: table, csv or json; summary: a run's first table and verdicts alone.",
    ),
]
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
        metavar="N",
        help="Deals per task (default 16,384, fewer to keep every worker busy or a slow run's tasks to about a "
        "second; results do not change).",
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

DealtHands = Annotated[
    list[str] | None,
    typer.Option(
        "--hand",
        metavar="PLACE=CARDS",
        help='Cards every deal gives a player, the rest dealt at random: "1=1O 3O" (bidding position 1, the '
        'first bidder, as the tables number them; pocha advise\'s --position 0), "dealer=7C" (the last), or a '
        'seat, "seat2=AS KS". Once per player; hand sizes as for --where (docs/deals.md).',
    ),
]
FixedTrump = Annotated[
    str | None,
    typer.Option(
        "--trump",
        metavar="CARD",
        help="The turned card of every deal (in a full deal the dealer's last card, which the dealer then holds).",
    ),
]
Where = Annotated[
    list[str] | None,
    typer.Option(
        "--where",
        metavar="EXPR",
        help='Keep only the deals that meet a condition on the hands by bidding position: "trumps(dealer) >= 3", '
        '"voids(1) >= 1", "has(1, \'1O\') and hcp(2) < 4" (trumps, length, has, rank, top, hcp, voids, cards), or '
        "a predicate in a file, ./cond.py:fn. Repeatable: all must hold. Hand sizes no deal can meet are left out "
        "of --cards all (said on stderr) and refused when named; a game deals its other hands freely "
        "(docs/deals.md).",
    ),
]

# --- each command's own, and pocha's ---------------------------------------------------------------------------

DealsTrace = Annotated[
    str | None, typer.Option(metavar="FILE", help="Write the deals played to this pocha-trace/3 JSON Lines file.")
]
TraceDeals = Annotated[int | None, typer.Option(metavar="N", help="Trace only the first N deals of the run.")]
Predictions = Annotated[
    bool,
    typer.Option(
        "--predictions",
        help="Record what the predicting strategies (montecarlo, expected, table) expect of each bid: their bias "
        "is shown, --out FOLDER gets predictions.csv (one row per hand), --trace lines carry them.",
    ),
]
Compared = Annotated[
    list[str], typer.Argument(metavar="SPEC", help="2 to 8 strategy specs to compare.", show_default=False)
]
Field = Annotated[
    str | None,
    typer.Option(
        metavar="SPEC",
        help="A strategy for the seats the compared ones leave (each compared one then holds one seat).",
    ),
]
Boards = Annotated[int, typer.Option("--deals", "-n", metavar="N", help="Deals per hand size (boards, in duplicate).")]
Duplicate = Annotated[
    bool,
    typer.Option(
        "--duplicate/--no-duplicate", help="Replay every deal once per rotation of the seating, or plain seating."
    ),
]
WholeGames = Annotated[int, typer.Option("--games", "-g", metavar="N", help="Whole games to play.")]
Rotate = Annotated[
    bool,
    typer.Option(
        "--rotate/--no-rotate", help="Move the seating one seat every game (every strategy holds every seat)."
    ),
]
GamesTrace = Annotated[
    str | None,
    typer.Option(metavar="FILE", help="Write every deal of the games, in play order, to this pocha-trace/3 file."),
]
TraceGames = Annotated[int | None, typer.Option(metavar="N", help="Trace only the first N games.")]
Described = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="NAME",
        help="Show only these strategies, by name, module:Class or path/to/file.py:Class (your own too).",
        show_default=False,
    ),
]
Variants = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="VARIANT",
        help="Rule sets to compare, the first the one the others are measured against: a preset "
        f"({', '.join(PRESET_NAMES)}) with overrides PRESET:OPTION=VALUE[:OPTION=VALUE...]; options: "
        f"{', '.join(VARIANT_OPTIONS)} (their values as the flags take them). "
        f"Default: {' '.join(STUDY)}.",
        show_default=False,
    ),
]
StudiedLineup = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        metavar="SPEC",
        help="The line-up whose seats and games are measured, once for every seat or once per seat "
        "(BID@PLAY as elsewhere). Default: the weak player at every seat.",
    ),
]
Strong = Annotated[
    str, typer.Option(metavar="SPEC", help="The skill table's strong player, at one seat among weak ones.")
]
Weak = Annotated[
    str,
    typer.Option(
        metavar="SPEC",
        help="The weak player: the skill table's other seats, and every seat of the table it is measured against.",
    ),
]
StudyGames = Annotated[int, typer.Option("--games", "-g", metavar="N", help="Whole games per variant (at least 40).")]
Hand = Annotated[
    str,
    typer.Option(
        metavar="CARDS",
        help='Your cards, rank then suit: Spanish "1O 3O 12C 5E 2B" (suits O C E B), French "AS KH 10D 2C" '
        "(S H D C, T for ten) with --preset oh-hell or --deck french.",
    ),
]
Trump = Annotated[
    str | None,
    typer.Option(
        metavar="CARD",
        help="The trump card: the turned-up card, or the dealer's last in a full deal (none there under "
        "--full-deal-trump none).",
    ),
]
Position = Annotated[
    int,
    typer.Option(metavar="N", help="How many players bid before you: 0 = you bid first and lead; players-1 = dealer."),
]
Bids = Annotated[str, typer.Option(metavar="BIDS", help="The bids made before yours, in order, e.g. 1,0.")]
Played = Annotated[
    str | None,
    typer.Option(
        metavar="CARDS",
        help="Advise a card instead: every card played so far, in order from the first lead, tricks between "
        'bars ("1O 3O 12C 5E | 7C"; "" before the first lead); --bids then gives every bid and --hand the '
        "cards you hold now.",
    ),
]
Bid = Annotated[int | None, typer.Option(metavar="BID", help="Also single out this bid (it must be legal).")]
Samples = Annotated[int, typer.Option(metavar="N", help="Play-outs per candidate bid, or per card.")]
Assume = Annotated[
    str,
    typer.Option(
        metavar="SPEC",
        help="How the others are assumed to bid (a strategy spec): the earlier bids are read through it, "
        "the later bidders bid by it.",
    ),
]
Sharpness = Annotated[
    float | None,
    typer.Option(
        metavar="S",
        help="How sharply the bids are read: a bid d away from the assumed one is exp(-S d) as likely; "
        f"0 ignores them (default {MONTECARLO_SHARPNESS:g} for a bid; for a card {PIMC_SHARPNESS:g}, as pimc "
        "reads them).",
    ),
]
Solve = Annotated[
    int,
    typer.Option(
        metavar="N",
        help="Solve the last N tricks of each greedy play-out exactly, every hand of the sampled deal open "
        "(0: none; a bid only).",
    ),
]
AdviceFormat = Annotated[str, typer.Option("--format", metavar="FORMAT", help="What to print: table or json.")]
PredictedTable = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        metavar="SPEC",
        help="The table whose bids are predicted: once for every seat or once per seat, as for simulate. "
        "Default: montecarlo at every seat.",
    ),
]
Models = Annotated[
    list[str] | None,
    typer.Option(
        "--model",
        "-m",
        metavar="SPEC",
        help="A model to score (a bidding strategy spec), once per model. Default: expected, expected with its "
        "bias fitted, aces-trumps, table, fair-share and random.",
    ),
]
MatchPlayer = Annotated[
    str,
    typer.Argument(
        metavar="SPEC", help="The pocha player: a bidding strategy and its play, BID@PLAY.", show_default=False
    ),
]
Opponent = Annotated[
    str,
    typer.Option(
        metavar="SPEC",
        help="The opponent at the other seats: OpenSpiel's IS-MCTS (ismcts:simulations=N,uct_c=C,rollouts=R; "
        "1000, 2 and 1 by default; its worlds deal every card it has not seen, or with resampler=openspiel "
        "it sees which cards the other seats hold), its uniform random bot (uniform), or a pocha player.",
    ),
]
OpenSpielGame = Annotated[
    str,
    typer.Option(
        metavar="GAME",
        help="OpenSpiel's game string: oh_hell, with players, num_cards_per_suit, off_bid_penalty or "
        "points_per_trick: oh_hell(players=4,off_bid_penalty=true); or Pocha's own rules, pocha, with the rule "
        "options: pocha(players=5,preset=portuguese).",
    ),
]
MatchCards = Annotated[
    str,
    typer.Option(
        "--cards", "-k", metavar="SIZES", help="Hand sizes: all (1 up to what oh_hell deals), one, or 2,5,8 or 1-5."
    ),
]
MatchDeals = Annotated[
    int, typer.Option("--deals", "-n", metavar="N", help="Deals per hand size, each played once per seat.")
]
MatchSeed = Annotated[
    int, typer.Option(metavar="N", help="Seed of the deals and of every player: a match repeats byte for byte.")
]
TableFile = Annotated[str, typer.Option(metavar="FILE", help="Where to write the table (.npz).")]
ModelFile = Annotated[str, typer.Option(metavar="FILE", help="Where to write the model (.npz).")]
TrainingData = Annotated[
    str,
    typer.Option(
        metavar="FOLDER",
        help="Where the labelled positions and each round's model go; run again with the same folder to resume.",
    ),
]
Rounds = Annotated[
    int,
    typer.Option(metavar="N", help="Rounds: the teacher plays the first, the model of the round before the others."),
]
Teacher = Annotated[
    str,
    typer.Option(metavar="POLICY", help="The pimc play the model learns from (pimc:samples=N,solve=N,...)."),
]
TrainingDeals = Annotated[int, typer.Option("--deals", "-n", metavar="N", help="Deals per hand size to learn from.")]
RunFolder = Annotated[
    str, typer.Argument(metavar="FOLDER", help="A folder written by --out FOLDER.", show_default=False)
]
BenchDeals = Annotated[
    int, typer.Option("--deals", "-n", metavar="N", help="Deals per run (slow strategies run a share).")
]
Repeats = Annotated[int, typer.Option(metavar="N", help="Runs per workload; the median is quoted.")]
ThreadCounts = Annotated[str, typer.Option("--threads", metavar="COUNTS", help="Thread counts to run on, e.g. 1,2.")]
DaskWorkers = Annotated[
    int, typer.Option(metavar="N", help="Also run the first workload on a Dask LocalCluster of N workers.")
]
Reference = Annotated[
    str | None,
    typer.Option(
        metavar="BINARY",
        help="A reference program run as 'BINARY W|H K DEALS SEED' that prints deals_per_s=RATE (a file, "
        "relative or absolute, a .py one run by this Python, or a program on the PATH), or its C source (.c, "
        "built with cc -O3 -march=native): timed in the same rounds, its ratio printed.",
    ),
]
Stages = Annotated[
    bool, typer.Option("--stages", help="Instead: nanoseconds per deal of each stage (deal, bids, play, tally).")
]
Startup = Annotated[
    bool,
    typer.Option(
        "--startup", help="Instead: seconds to start (--version, --help, a warm and a cold simulate --deals 1000)."
    ),
]
BenchPlay = Annotated[
    str | None,
    typer.Option(
        "--play",
        metavar="POLICY",
        help="Instead: deals per second of one play policy alone, every seat playing it at 4 x 10 and bidding "
        "expected (-n deals, e.g. -n 2000 for pimc:rollout=learned).",
    ),
]
Decisions = Annotated[
    bool,
    typer.Option(
        "--decisions",
        help="Instead: milliseconds per bid and per card of pocha.Player, deciding alone (20 deals of 4 x 10).",
    ),
]


def show_version(value: bool) -> None:
    """``--version``: print it and stop."""
    if value:
        typer.echo(f"pocha {__version__}")
        raise typer.Exit


Version = Annotated[
    bool, typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit.")
]

# pocha play
Opponents = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        metavar="SPEC",
        help="The other seats' players (BID@PLAY): once for them all or once per other seat, in seat order. "
        "Default: montecarlo@pimc.",
    ),
]
YourSeat = Annotated[
    int, typer.Option(metavar="N", help="Your seat, 0..players-1 (the seat after the dealer bids first).")
]
AdviceSamples = Annotated[
    int, typer.Option(metavar="N", help="Play-outs per bid or card of the advice (? at a decision).")
]
PlayTrace = Annotated[
    str, typer.Option(metavar="FILE", help="Where the game is written, hand by hand (pocha-trace/3).")
]
