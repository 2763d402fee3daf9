"""A person at the table: whole games against pocha's players, a move at a time (``pocha play``).

The session is lines of text: it asks with ``ask(prompt)`` and tells with ``say(line)``, so a terminal,
a script on standard input or a test drives it alike. The game is dealt as ``pocha game`` deals game 0
with the same seed (the first dealer by lot, each hand's deal number), the other seats decide as
``pocha.Player`` does, and every move goes through ``engine.deal_state`` (pocha's own rules): a move
the rules refuse is told with its reason and asked again. At any decision ``?`` gives what ``pocha
advise`` gives there (the same call, and the command that repeats it). The game is written to a
``pocha-trace/3`` file after every hand, so a game stopped halfway keeps the hands played.
"""

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from pocha._execution import Messages, check_trace, learn_default_tables, unsaid
from pocha.advising import advise, advise_card
from pocha.engine import trace as traces
from pocha.engine.atomic import atomic_path
from pocha.engine.chunk import deal_chunk
from pocha.engine.deal_state import DealState, Moves, dealing_actions
from pocha.engine.games import Games, break_ties
from pocha.engine.player import Decider
from pocha.engine.policies import GREEDY
from pocha.engine.seating import Entrant, Lineup
from pocha.errors import PochaError
from pocha.game.cards import cards_of
from pocha.game.presets import DEFAULT_PRESET
from pocha.game.rules import Rules
from pocha.kernels.jit import announcing_first_compile
from pocha.options import RuleOptions, RunOptions, check_seed
from pocha.reports.text import advice_text, card_advice_text
from pocha.words import compile_notice, counted

PERSON = "person"  # the person's seat in the trace's strategies
OPPONENT = "montecarlo@pimc"  # the other seats' player when none is named
ADVICE_SAMPLES = 10_000  # play-outs per bid or card of the advice: pocha advise's default
# The first ? may come long after the game's own compile: it says its own. Measured from an empty cache at
# load 6: 35 s at a table of expected@greedy, 1 s at the default montecarlo@pimc's (their kernels serve it).
ADVICE_COMPILES = compile_notice("the advice (?) needs", 40)
HELP = "a bid (a number) or a card (1O, 12C, AS ...); ? advice; s the score sheet; h this help; q stop"


QUIT, END_OF_INPUT, INTERRUPTED = "q", "end of input", "interrupted"  # what stopped a game before its end


class Stopped(Exception):  # noqa: N818 - the person's wish, not an error
    """The person stopped the game: ``why`` is QUIT, END_OF_INPUT or INTERRUPTED (Ctrl-C, SIGTERM)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass
class GameOutcome:
    """A game played: every seat's score, the seats in first place, the hands played, and what stopped it early.

    ``stopped`` tells the command line its exit status: a game quit with q ran as asked, one cut short by
    the end of the input or a signal did not.
    """

    scores: list[int]
    first: list[int]
    hands: int
    stopped: str | None  # None: played to the end
    trace: Path | None

    @property
    def complete(self) -> bool:
        """Whether the game ran to its end."""
        return self.stopped is None


@dataclass
class Session:
    """A game in progress between a person at ``seat`` and pocha's ``players`` (None at the person's seat)."""

    rules: Rules
    options: RuleOptions  # as given, for the advise command the advice repeats
    players: list[Decider | None]
    seat: int
    seed: int = 0
    samples: int = ADVICE_SAMPLES
    trace: Path | None = None
    ask: Callable[[str], str] | None = None  # None: ``input``, the standard input
    say: Callable[[str], None] = print
    messages: Messages | None = None  # told that the advice compiles first, when the cache lacks its kernels
    state: DealState | None = None  # the deal under way
    lines: list[dict[str, Any]] = field(default_factory=list)  # the trace lines of the hands played

    @property
    def labels(self) -> list[str]:
        """Each seat's player as the score sheet and the trace name it."""
        return [PERSON if player is None else player.entrant.label for player in self.players]

    def play(self) -> GameOutcome:
        """The whole game: the schedule's hands, points carried over, ties parted as the rules say."""
        rules, seats = self.rules, [Entrant(label, Entrant.of("zero").strategy) for label in self.labels]
        table = Games(
            rules=rules, lineup=Lineup(tuple(seats)), games=1, seed=self.seed, policy=GREEDY, rotate=False, chunk_size=1
        ).seat(np.zeros(1, np.int64), self.seed)
        schedule = rules.hand_sizes()
        self.say(f"{rules.players} players, {rules.notation.describe()}; you are seat {self.seat}.")
        self.say("Seats: " + ", ".join(f"{seat} {label}" for seat, label in enumerate(self.labels)) + ".")
        self.say(f"{counted(len(schedule), 'hand')}: {', '.join(map(str, schedule))} cards. Type {HELP}.")
        scores = np.zeros((1, rules.players), np.int64)
        try:
            for index, cards in enumerate(schedule):
                scores[0] += self.hand(table, index, cards, len(schedule))
            first, _, _ = break_ties(scores, rules.tie_break, lambda rows, t: self.tie_hand(table, len(schedule) + t))
        except (Stopped, KeyboardInterrupt) as stop:
            self.say(f"Stopped after {counted(len(self.lines), 'hand')}." + self.saved())
            why = stop.why if isinstance(stop, Stopped) else INTERRUPTED
            return GameOutcome(scores[0].tolist(), [], len(self.lines), why, self.trace)
        leaders = np.flatnonzero(first[0]).tolist()
        won = " and ".join("you" if seat == self.seat else f"seat {seat} ({self.labels[seat]})" for seat in leaders)
        won = won[0].upper() + won[1:]
        verb = "win" if len(leaders) > 1 or leaders == [self.seat] else "wins"
        self.say(f"{won} {verb} with {scores[0, leaders[0]]} points." + self.saved())
        return GameOutcome(scores[0].tolist(), leaders, len(self.lines), None, self.trace)

    def tie_hand(self, table: Any, index: int) -> np.ndarray:
        """A one-card hand of the tie-break."""
        self.say("Tied: a one-card hand to part the leaders.")
        return np.array([self.hand(table, index, 1, 0)])

    def saved(self) -> str:
        """Where the hands played are kept."""
        return f" The hands played are in {self.trace}." if self.trace is not None and self.lines else ""

    def hand(self, table: Any, index: int, cards: int, count: int) -> np.ndarray:
        """Deal, bid and play hand ``index`` of the game (of ``count``; 0 in the tie-break): every seat's points."""
        rules, players = self.rules, self.rules.players
        number = int(table.deal_numbers(index)[0])
        dealt = deal_chunk(rules, self.seed, cards, np.array([number], np.int64))
        moves, dealer = Moves.of(rules, cards), number % players
        state = self.state = moves.initial()
        hands = [cards_of(hand) for hand in dealt.hands[0]]
        for action in dealing_actions(moves, dealer, hands, int(dealt.trump_card[0])):
            state.deal(action)
        place = f"Hand {index + 1} of {count}" if count else "Tie-break hand"
        trump = f"trump {state.trump_name()}" if state.trump_name() else "no trump"
        self.say("")
        deals = "you deal" if dealer == self.seat else f"seat {dealer} deals"
        self.say(f"{place}: {counted(cards, 'card')} each, {deals}, {trump}.")
        self.say(f"Your cards: {rules.notation.names(state.dealt_cards(self.seat))}")
        while not state.is_over:
            seat = state.current()
            forced = seat == self.seat and not state.bidding and len(state.legal_actions()) == 1
            if forced:  # nothing to choose: played without asking
                action = int(state.legal_actions()[0])
            else:
                action = self.move(state, number) if seat == self.seat else self.decide(state, seat, number)
            self.tell(state, seat, action, forced)
            state.apply(action)
            if state.plays and len(state.plays) % players == 0 and len(state.winners) == len(state.plays) // players:
                taker = "You take" if state.winners[-1] == self.seat else f"Seat {state.winners[-1]} takes"
                self.say(f"{taker} the trick ({rules.notation.names(state.plays[-players:])}).")
        points = state.points()
        line = state.trace_line(number)
        self.lines.append({**line, "game": 0, "hand": index, "strategies": self.labels})
        self.write()
        self.say(self.sheet())
        return np.array(points, np.int64)

    def decide(self, state: DealState, seat: int, number: int) -> int:
        """A pocha player's move, as OpenSpiel's ``PochaBot`` takes it."""
        player = self.players[seat]
        assert player is not None
        decision = player.decide(state.view(seat), number, predict=False)
        if decision.kind == "bid":
            return state.moves.bid_offset + int(decision.choice)
        return state.moves.action_of[self.rules.notation.parse(str(decision.choice))]

    def tell(self, state: DealState, seat: int, action: int, forced: bool = False) -> None:
        """Say a move as the table sees it; a card the person was not asked for says why."""
        who = "You" if seat == self.seat else f"Seat {seat} ({self.labels[seat]})"
        if state.bidding:
            self.say(f"{who} {'bid' if seat == self.seat else 'bids'} {action - state.moves.bid_offset}.")
        else:
            why = ", the only card you may play" if forced else ""
            self.say(f"{who} {'play' if seat == self.seat else 'plays'} {state.moves.action_text(action)}{why}.")

    def move(self, state: DealState, number: int) -> int:
        """The person's move, asked until the rules take it (a refusal says why); ``?``, ``s``, ``h`` on the way."""
        notation = self.rules.notation
        while True:
            if state.bidding:
                made = ", ".join(f"seat {state.seat_of_bid(p)} {bid}" for p, bid in enumerate(state.bids)) or "none yet"
                prompt = f"Bids: {made}. Your bid, 0 to {state.cards}: "
            else:
                trick = notation.names(state.trick_cards()) or "you lead"
                held = notation.names(cards_of(state.held[self.seat]))
                prompt = f"Trick {len(state.winners) + 1}: {trick}. Your cards: {held}. Your card: "
            try:
                answer = (self.ask or input)(prompt).strip()
            except (EOFError, KeyboardInterrupt) as stop:
                self.say("")  # the prompt's line, left open, ends before the next
                raise Stopped(END_OF_INPUT if isinstance(stop, EOFError) else INTERRUPTED) from None
            word = answer.lower()
            if word in ("q", "quit"):
                raise Stopped(QUIT)
            if word in ("?", "a", "advice"):
                self.advise(state)
            elif word in ("s", "score"):
                self.say(self.sheet())
            elif word in ("", "h", "help"):
                self.say(f"Type {HELP}.")
            else:
                action, why = self.read(state, answer)
                if why is None:
                    return action
                self.say(f"Refused: {why}")

    def read(self, state: DealState, answer: str) -> tuple[int, str | None]:
        """The action an answer names, and why the rules refuse it (None: they take it)."""
        moves = state.moves
        if state.bidding:
            if not answer.isdigit():
                return -1, f"'{answer}' is not a bid: type a number from 0 to {state.cards}"
            action = moves.bid_offset + int(answer)
            return action, state.refusal(action) if int(answer) <= state.cards else state.refusal(-1)
        try:
            card = self.rules.notation.parse(answer)
        except PochaError as error:
            return -1, str(error)
        return moves.action_of[card], state.refusal(moves.action_of[card])

    def advise(self, state: DealState) -> None:
        """What ``pocha advise`` says of the person's decision now, and the command that says it."""
        notation, seat = self.rules.notation, self.seat
        position = (seat - state.dealer - 1) % self.rules.players
        hand = notation.names(cards_of(state.held[seat]))
        common: dict[str, Any] = {"position": position, "bids": list(state.bids), "samples": self.samples}
        run = RunOptions(seed=self.seed)
        with announcing_first_compile(lambda: (self.messages or unsaid)(ADVICE_COMPILES)):
            if state.bidding:
                advice: Any = advise(hand, state.trump_name(), rules=self.options, run=run, **common)
                self.say(advice_text(advice))
            else:
                played = notation.names(state.plays)
                advice = advise_card(hand, state.trump_name(), played=played, rules=self.options, run=run, **common)
                self.say(card_advice_text(advice))
        self.say(f"(pocha advise says the same: {self.advise_command(state, hand, position)})")

    def advise_command(self, state: DealState, hand: str, position: int) -> str:
        """The ``pocha advise`` command line of the person's decision now."""
        words, trump = ["pocha", "advise", "--hand", hand], state.trump_name()
        words += ["--trump", trump] if trump else []
        for item in fields(RuleOptions):
            value = getattr(self.options, item.name)
            whole_game = item.name in ("schedule", "tie_break", "full_deals")  # advice is of one deal
            if value is not None and not whole_game and value != DEFAULT_PRESET:
                words += [f"--{item.name.replace('_', '-')}", str(value)]
        words += ["--position", str(position)]
        words += ["--bids", ",".join(map(str, state.bids))] if state.bids else []
        words += [] if state.bidding else ["--played", self.rules.notation.names(state.plays)]
        words += ["--samples", str(self.samples)] if self.samples != ADVICE_SAMPLES else []
        words += ["--seed", str(self.seed)] if self.seed else []
        return shlex.join(words)

    def sheet(self) -> str:
        """The score sheet: each hand's points (bid/won) by seat, and the totals."""
        width = max(10, *(len(f"{seat} {label}") for seat, label in enumerate(self.labels)))
        head = "hand cards " + " ".join(f"{f'{seat} {label}':>{width}}" for seat, label in enumerate(self.labels))
        rows, totals = [head], [0] * self.rules.players
        for line in self.lines:
            cells = [
                f"{points:+d} ({bid}/{won})"
                for points, bid, won in zip(line["points"], line["bids"], line["won"], strict=True)
            ]
            totals = [total + points for total, points in zip(totals, line["points"], strict=True)]
            rows.append(f"{line['hand'] + 1:>4} {line['cards']:>5} " + " ".join(f"{cell:>{width}}" for cell in cells))
        rows.append(f"{'total':>10} " + " ".join(f"{total:>{width}}" for total in totals))
        return "\n".join(rows)

    def write(self) -> None:
        """The hands played so far, as a ``pocha-trace/3`` file (written whole)."""
        if self.trace is None:
            return
        seats = Lineup(tuple(Entrant(label, Entrant.of("zero").strategy) for label in self.labels))
        header = traces.header(self.rules, seats, self.seed, GREEDY)
        with atomic_path(self.trace) as temporary, open(temporary, "w", encoding="utf-8") as stream:
            traces.write_lines(stream, [header, *self.lines])


def play_game(
    strategies: str | Sequence[str] | None = None,
    *,
    seat: int = 0,
    samples: int = ADVICE_SAMPLES,
    trace: str | Path | None = "pocha-play.jsonl",
    rules: RuleOptions = RuleOptions(),
    seed: int = 0,
    ask: Callable[[str], str] | None = None,
    say: Callable[[str], None] = print,
    messages: Messages | None = None,
    learn_tables: bool = False,
) -> GameOutcome:
    """A whole game between a person at ``seat`` and pocha's players, asked through ``ask``, told through ``say``.

    ask(prompt): the person's answer (None: ``input``, the standard input). strategies: the other seats'
    players (``BID@PLAY`` specs), one for them all or one per seat in seat order (default
    ``montecarlo@pimc``); rules: the rule options, a whole game of their schedule and tie-break;
    samples: play-outs per bid or card of the advice; trace: the ``pocha-trace/3`` file the game is
    written to after every hand (None: none); seed: the deals and every player's choices;
    learn_tables: learn a default trick table the players lack into pocha's cache (else refuse).
    """
    _, chosen = rules.resolve()
    players = chosen.players
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise PochaError(f"seat: {seat!r} is not a seat; {players} players sit at seats 0..{players - 1}")
    specs = [OPPONENT] if strategies is None else [strategies] if isinstance(strategies, str) else list(strategies)
    if len(specs) not in (1, players - 1):
        raise PochaError(
            f"strategy: {len(specs)} given for {players - 1} other seats; give 1 (every other seat plays it) "
            f"or {players - 1} (1 a seat)"
        )
    others = iter(specs * (players - 1) if len(specs) == 1 else specs)
    check_seed(seed)
    if not isinstance(samples, int) or not 2 <= samples <= 100_000:
        raise PochaError(f"samples: the advice's play-outs are a whole number from 2 to 100,000, not {samples!r}")
    check_trace(trace, None, "trace")
    seated: list[Decider | None] = [None if s == seat else Decider(next(others), chosen, seed) for s in range(players)]
    bidders = [(player.entrant.strategy, player.policy) for player in seated if player is not None]
    learn_default_tables(bidders, chosen, RunOptions().make_backend(), None, messages, learn_tables)
    path = None if trace is None else Path(trace)
    return Session(
        chosen, rules, seated, seat, seed=seed, samples=samples, trace=path, ask=ask, say=say, messages=messages
    ).play()
