"""The ``pocha-trace/1`` format (RULES.md): every deal of a run, as JSON Lines, for inspection and checking."""

import json
from collections.abc import Sequence
from typing import IO, Any

import numpy as np

from simulator.cards import SUITS, card_name, cards_of
from simulator.rules import Rules

FORMAT = "pocha-trace/1"


def header(rules: Rules, labels: Sequence[str], seed: int, policy: str) -> dict[str, Any]:
    """The first line: format, rules, strategies by seat, seed and play policy."""
    return {"format": FORMAT, "rules": rules.to_dict(), "strategies": list(labels), "seed": seed, "policy": policy}


def deal_records(
    rules: Rules,
    first_number: int,
    first_deal: int,
    hands: np.ndarray,
    trump_card: np.ndarray,
    bids: np.ndarray,
    plays: np.ndarray,
    leaders: np.ndarray,
    won: np.ndarray,
    points: np.ndarray,
) -> list[dict[str, Any]]:
    """One record per deal of a batch (arrays as ``kernels.play_batch`` fills them).

    first_number: the run-wide number of the first deal; first_deal: its number within the hand
    size, which fixes the dealer. ``leaders[d, t]`` leads trick t; ``leaders[d, k]`` won the last.
    """
    players = rules.players
    cards = plays.shape[1]
    records = []
    for d in range(len(hands)):
        name = lambda card: card_name(int(card), rules.ranks)  # noqa: E731
        tricks = []
        for t in range(cards):
            leader = int(leaders[d, t])
            tricks.append({"leader": leader, "cards": [name(c) for c in plays[d, t]], "winner": int(leaders[d, t + 1])})
        records.append(
            {
                "deal": first_number + d,
                "players": players,
                "cards": cards,
                "dealer": (first_deal + d) % players,
                "trump_card": name(trump_card[d]),
                "trump": SUITS[int(trump_card[d]) >> 4],
                "hands": [[name(c) for c in cards_of(hands[d, s])] for s in range(players)],
                "bids": bids[d].tolist(),
                "tricks": tricks,
                "won": won[d].tolist(),
                "points": points[d].tolist(),
            }
        )
    return records


def write_lines(stream: IO[str], records: Sequence[dict[str, Any]]) -> None:
    """Write records as JSON Lines."""
    for record in records:
        stream.write(json.dumps(record) + "\n")
