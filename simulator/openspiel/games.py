"""OpenSpiel's games as pocha reads them: ``oh_hell`` as pocha's rules and cards, a state as a seat's view.

``pocha`` (``pocha.openspiel.pocha_game``) plays pocha's rules themselves; ``oh_hell`` is plain Oh Hell.
How ``oh_hell`` maps onto pocha, read from its source (``open_spiel/games/oh_hell/oh_hell.cc``) and
checked by playing its states (tests/test_openspiel.py):

- Cards: a card's action is ``rank * 4 + suit``, rank 0 the 2, suits C D S H. A suit of
  ``num_cards_per_suit`` cards holds the lowest ranks (10: 2 up to J): OpenSpiel strips the top of
  the pack where pocha's deck sizes strip the bottom, so the rules name the ranks.
- The deal: chance draws the hand size (``num_tricks_fixed``) and the dealer, then deals players 0,
  1, ... a card in turn and turns one more up: trump. Every deal turns one up (a hand holds at most
  ``(cards - 1) // players``), so pocha's ``full_deal_trump`` never comes into play.
- Bids: action ``cards + bid``, from the dealer's left round to the dealer, who may not make them add
  up to the hand size, in one-card hands too: pocha's hook ``always``.
- Play: follow suit, else any card (``follow``); the dealer's left leads, each trick's winner the next.
- Scoring: exact, 10 + points_per_trick per trick; missed, points_per_trick per trick, or with
  ``off_bid_penalty`` -points_per_trick per trick off the bid.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from pocha.engine.player import DealView
from pocha.errors import PochaError
from pocha.game.cards import PACKS, SUIT_COUNT, Notation, mask_of, suit_of
from pocha.game.presets import make_rules
from pocha.game.rules import Rules
from pocha.game.scoring import Scoring
from pocha.openspiel.pocha_game import POCHA, game_moves

OH_HELL = "oh_hell"
GAMES = (OH_HELL, POCHA)  # the games pocha plays at OpenSpiel's tables: plain Oh Hell, and pocha's own rules
SIZE_PARAMETER = {OH_HELL: ("num_tricks_fixed", -1), POCHA: ("cards", 0)}  # the hand size, and "any"
SUITS = "CDSH"  # OpenSpiel's suit order: a card's action is rank * 4 + suit
LOWEST_RANK = 2  # OpenSpiel's rank 0
MADE_BID_BONUS = 10  # oh_hell.cc's kMadeBidBonus
FRENCH = PACKS["french"]


# --- the game and its rules ------------------------------------------------------------------------


def load_game(text: str) -> "pyspiel.Game":
    """A game from OpenSpiel's game string: ``oh_hell(players=4,off_bid_penalty=true)``, ``pocha(hook=never)``.

    A string OpenSpiel refuses, another game, or parameters pocha cannot play are one line each
    (OpenSpiel writes its own complaint to stderr first, so the string is read here before it is loaded).
    """
    if not isinstance(text, str):
        raise PochaError(f"game: OpenSpiel's game string, e.g. {OH_HELL}(players=4) or pocha(players=4), not {text!r}")
    name, bracket, rest = text.strip().partition("(")
    name = name.strip()
    if name not in GAMES:
        raise PochaError(
            f"game: '{text}' is none of {' and '.join(GAMES)}; pocha plays OpenSpiel's {OH_HELL}, "
            f"e.g. {OH_HELL}(players=4), and its own rules, e.g. pocha(players=4)"
        )
    spec = default_parameters(name)
    if bracket and not rest.endswith(")"):
        raise PochaError(f"game: '{text}' lacks its closing ')'")
    items = [parameter(item, spec, name) for item in rest.removesuffix(")").split(",") if item.strip()]
    twice = sorted({name for name, _ in items if [n for n, _ in items].count(name) > 1})
    if twice:
        raise PochaError(f"game: {', '.join(twice)} given more than once in '{text}'")
    given = dict(items)
    if name == POCHA:
        game_moves(given)  # refused here in one line, not by OpenSpiel
        return pyspiel.load_game(name, given)
    parameters = spec | given
    check_parameters(parameters)
    return pyspiel.load_game(OH_HELL, parameters)


def parameter(item: str, spec: dict[str, Any], game: str = OH_HELL) -> tuple[str, Any]:
    """``(name, value)`` of one ``name=value`` of a game string, of the type OpenSpiel takes for it."""
    name, _, text = (part.strip() for part in item.partition("="))
    if name not in spec:
        raise PochaError(f"game: unknown parameter '{name}'; {game} takes {', '.join(spec)}")
    if isinstance(spec[name], str):
        return name, text
    if isinstance(spec[name], bool):
        if text not in ("true", "false"):
            raise PochaError(f"game: {name} is true or false, not '{text}'")
        return name, text == "true"
    if not text.removeprefix("-").isdigit():
        raise PochaError(f"game: {name} is a whole number, not '{text}'")
    return name, int(text)


def default_parameters(game: str = OH_HELL) -> dict[str, Any]:
    """OpenSpiel's parameters of a game (``oh_hell``, ``pocha``) and their defaults."""
    found = next(kind for kind in pyspiel.registered_games() if kind.short_name == game)
    return dict(found.parameter_specification)


def is_pocha(game: "pyspiel.Game") -> bool:
    """Whether the game is pocha's own, ``pocha``, rather than ``oh_hell``."""
    return bool(game.get_type().short_name == POCHA)


def check_parameters(parameters: dict[str, Any]) -> None:
    """Refuse what OpenSpiel refuses (its checks print to stderr) and what pocha cannot play."""
    players, suits, ranks = parameters["players"], parameters["num_suits"], parameters["num_cards_per_suit"]
    if not 3 <= players <= 7:
        raise PochaError(f"game: OpenSpiel's {OH_HELL} seats 3 to 7 players, not {players}")
    if suits != SUIT_COUNT:
        raise PochaError(f"game: pocha plays four suits, not num_suits={suits}")
    if not 2 <= ranks <= len(FRENCH.rank_names):
        raise PochaError(f"game: num_cards_per_suit is 2 to {len(FRENCH.rank_names)}, not {ranks}")
    if SUIT_COUNT * ranks <= players:
        raise PochaError(f"game: {SUIT_COUNT * ranks} cards deal {players} players no hand with a card left to turn")


def rules_for(game: "pyspiel.Game") -> Rules:
    """The pocha rules of a game: a ``pocha`` game's own.

    For ``oh_hell``: its players and ranks, follow-suit play, the hook always, its scoring.
    """
    if is_pocha(game):
        return game.moves.rules
    parameters = game.get_parameters()
    if game.get_type().short_name != OH_HELL:
        raise PochaError(f"game: pocha plays OpenSpiel's {' and '.join(GAMES)}, not {game.get_type().short_name}")
    check_parameters(parameters)
    ranks = range(LOWEST_RANK + parameters["num_cards_per_suit"] - 1, LOWEST_RANK - 1, -1)  # strongest first
    per_trick = parameters["points_per_trick"]
    if parameters["off_bid_penalty"]:
        scoring = Scoring(exact=MADE_BID_BONUS, per_trick=per_trick, per_trick_missed=0, miss_per_trick=-per_trick)
    else:
        scoring = Scoring(exact=MADE_BID_BONUS, per_trick=per_trick, per_trick_missed=per_trick, miss_per_trick=0)
    return make_rules(
        "oh-hell",
        parameters["players"],
        deck="french:" + ",".join(FRENCH.rank_names[rank] for rank in ranks),
        play_rule="follow",
        hook="always",
        scoring=scoring,
    )


def deck_size(game: "pyspiel.Game") -> int:
    """Cards in the deck: also the action of bid 0 (a bid's action is the deck size + the bid), in either game."""
    if is_pocha(game):
        return int(game.moves.bid_offset)
    return int(game.get_parameters()["num_cards_per_suit"]) * SUIT_COUNT


def most_tricks(game: "pyspiel.Game") -> int:
    """The largest hand a game deals: ``oh_hell`` leaves a card to turn up; ``pocha`` deals its rules' full deal."""
    if is_pocha(game):
        return int(game.moves.rules.full_deal)
    return (deck_size(game) - 1) // game.num_players()


# --- cards both ways -------------------------------------------------------------------------------


def card_name(action: int) -> str:
    """The pocha notation of an OpenSpiel card: action 0 is ``2C``, 51 ``AH``."""
    rank, suit = divmod(action, SUIT_COUNT)
    return f"{FRENCH.rank_names[LOWEST_RANK + rank]}{SUITS[suit]}"


def card_action(card: str, notation: Notation) -> int:
    """OpenSpiel's action of a card written in pocha's notation (``10D``, ``TD``, ``Q♥``)."""
    card_id = notation.parse(card)
    suit = FRENCH.suits[suit_of(card_id)]
    return (notation.rank_of(card_id) - LOWEST_RANK) * SUIT_COUNT + SUITS.index(suit)


# --- a pocha player in OpenSpiel -------------------------------------------------------------------


def view_of(state: "pyspiel.State") -> DealView:
    """The deal as the player to move sees it: a ``pocha`` state's own view, else read from the state's history.

    An ``oh_hell`` history is every action: the hand size, the dealer, the cards dealt to players 0, 1, ... in
    turn, the trump card, the bids from the dealer's left, the cards played. Of the cards dealt only
    the mover's own are read.
    """
    if is_pocha(state.get_game()):
        return state.deal.view()  # type: ignore[no-any-return]
    seat, players = state.current_player(), state.num_players()
    cards, dealer, dealt, trump, after = deal_parts(state.history(), players)
    bids = [action - deck_size(state.get_game()) for action in after[:players]]
    played = after[players:]
    hand = [card for card in dealt[seat::players] if card not in played]
    return DealView(
        seat=seat,
        dealer=dealer,
        hand=[card_name(card) for card in hand],
        trump=card_name(trump),
        bids=bids,
        played=[card_name(card) for card in played],
    )


def deal_parts(history: Sequence[int], players: int) -> tuple[int, int, list[int], int, list[int]]:
    """A history's hand size, dealer, cards in dealing order, trump card, and what followed: bids, then cards played."""
    cards, dealer = history[0], history[1]
    return (
        cards,
        dealer,
        list(history[2 : 2 + players * cards]),
        history[2 + players * cards],
        list(history[3 + players * cards :]),
    )


def card_ids(game: "pyspiel.Game") -> np.ndarray:
    """The pocha card id of each OpenSpiel card action, in either game."""
    if is_pocha(game):
        return np.array(game.moves.ids, np.int64)
    notation = rules_for(game).notation
    return np.array([notation.parse(card_name(action)) for action in range(deck_size(game))], np.int64)


def searched_position(state: "pyspiel.State", ids: np.ndarray) -> tuple[int, int, int, int, np.ndarray, np.ndarray]:
    """The mover's position as pocha's kernels take it, in either game.

    ``(hand size, dealer, the mover's dealt cards as a mask, the trump card's id, each seat's bid (-1: yet to
    bid), the ids of the cards played)``; ids: ``card_ids``. ``oh_hell`` is read from its history, ``pocha``
    from its deal.
    """
    players, seat = state.num_players(), state.current_player()
    if is_pocha(state.get_game()):
        deal = state.deal
        size, dealer, mine, trump, made = deal.cards, deal.dealer, deal.dealt[seat], deal.trump_card, deal.bids
        played = np.array(deal.plays, np.int64)
    else:
        size, dealer, dealt, turned, after = deal_parts(state.history(), players)
        mine, trump = mask_of(ids[dealt[seat::players]].tolist()), int(ids[turned])
        made = [action - deck_size(state.get_game()) for action in after[:players]]
        played = ids[after[players:]] if len(after) > players else np.zeros(0, np.int64)
    bids = np.full(players, -1, np.int64)
    for position, bid in enumerate(made):
        bids[(dealer + 1 + position) % players] = bid
    return size, dealer, mine, trump, bids, played
