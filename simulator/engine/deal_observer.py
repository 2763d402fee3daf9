"""What one seat sees of a ``DealState``, as a flat tensor of named pieces and as a line of text.

Two kinds, as OpenSpiel has them: the information state (``perfect_recall``: everything the seat has
seen, in order: its cards as dealt, the bids, every card played) and the observation (the table now:
its hand, the bids and tricks by seat, what each seat has played, the trick under way). Either may
keep to the public pieces or to the seat's private one (its cards). OpenSpiel's ``pocha`` game and the
PettingZoo environment give the same ones.
"""

import numpy as np

from pocha.engine.deal_state import DealState, Moves
from pocha.game.cards import cards_of


class DealObserver:
    """One kind of what a seat sees: ``set_from(state, seat)`` fills ``tensor`` (and its named views in ``dict``).

    perfect_recall: the information state, else the observation; public, private: which pieces it keeps.
    The pieces, each one-hot: seat; public: dealer, the hand size, the trump card, the bids, and either
    every card played in order (information state) or the tricks won, the cards each seat has played
    and the trick under way, by seat; private: the seat's cards (as dealt, or as held now).
    """

    def __init__(self, moves: Moves, perfect_recall: bool = False, public: bool = True, private: bool = True) -> None:
        players, deck, most = moves.rules.players, moves.rules.deck_size, moves.most_cards
        pieces: list[tuple[str, tuple[int, ...]]] = [("seat", (players,))]
        if public:
            pieces += [("dealer", (players,)), ("cards", (most,)), ("trump", (deck,)), ("bids", (players, most + 1))]
            if perfect_recall:
                pieces.append(("plays", (players * most, deck)))
            else:
                pieces += [("won", (players, most + 1)), ("played", (players, deck)), ("trick", (players, deck))]
        if private:
            pieces.append(("dealt" if perfect_recall else "hand", (deck,)))
        self.moves, self.perfect_recall = moves, perfect_recall
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def set_from(self, state: DealState, seat: int) -> None:
        """Fill the tensor with what ``seat`` sees of ``state``."""
        self.tensor.fill(0)
        pieces, action_of = self.dict, self.moves.action_of
        pieces["seat"][seat] = 1
        if "dealer" in pieces and state.dealer >= 0:
            pieces["dealer"][state.dealer] = 1
        if "cards" in pieces and state.cards:
            pieces["cards"][state.cards - 1] = 1
        if "trump" in pieces and state.trump_card is not None and state.trump_card >= 0:
            pieces["trump"][action_of[state.trump_card]] = 1
        for position, bid in enumerate(state.bids):
            if "bids" in pieces:
                pieces["bids"][position if self.perfect_recall else state.seat_of_bid(position), bid] = 1
        for i, card in enumerate(state.plays):
            if "plays" in pieces:
                pieces["plays"][i, action_of[card]] = 1
            if "played" in pieces:
                pieces["played"][state.seat_of_play(i), action_of[card]] = 1
        if "won" in pieces and state.dealer >= 0:
            pieces["won"][np.arange(state.players), state.won] = 1
        if "trick" in pieces:
            start = len(state.plays) - len(state.trick_cards())
            for i, card in enumerate(state.trick_cards()):
                pieces["trick"][state.seat_of_play(start + i), action_of[card]] = 1
        own = "dealt" if "dealt" in pieces else "hand" if "hand" in pieces else None
        if own is not None:
            for card in cards_of((state.dealt if own == "dealt" else state.held)[seat]):
                pieces[own][action_of[card]] = 1

    def string_from(self, state: DealState, seat: int) -> str:
        """What ``seat`` sees of ``state`` in words, the pieces of the tensor in the same order."""
        pieces, names = self.dict, self.moves.rules.notation.names
        words = [f"seat {seat}"]
        if "dealer" in pieces and state.dealer >= 0:
            words.append(f"dealer {state.dealer}")
        if "cards" in pieces and state.cards:
            words.append(f"{state.cards} cards")
        if "trump" in pieces and state.trump_card is not None:
            words.append(f"trump {state.trump_name() or 'none'}")
        if "bids" in pieces and state.bids:
            if self.perfect_recall:
                words.append("bids " + " ".join(map(str, state.bids)))
            else:
                written = ["-"] * state.players
                for position, bid in enumerate(state.bids):
                    written[state.seat_of_bid(position)] = str(bid)
                words.append("bids by seat " + " ".join(written))
        if "plays" in pieces and state.plays:
            tricks = [state.plays[i : i + state.players] for i in range(0, len(state.plays), state.players)]
            words.append("played " + " | ".join(names(trick) for trick in tricks))
        if "won" in pieces and state.plays:
            words.append("won by seat " + " ".join(map(str, state.won)))
        if "played" in pieces and state.plays:
            words.append("played by seat " + " / ".join(names(state.played_by(s)) or "-" for s in range(state.players)))
        if "trick" in pieces and state.trick_cards():
            words.append("trick " + names(state.trick_cards()))
        own = "dealt" if "dealt" in pieces else "hand" if "hand" in pieces else None
        if own is not None and (state.dealt if own == "dealt" else state.held)[seat]:
            words.append(f"{own} " + names(cards_of((state.dealt if own == "dealt" else state.held)[seat])))
        return ", ".join(words)
