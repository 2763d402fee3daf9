"""The ``pocha-trace/3`` format (README, "The trace format"): every deal of a run as JSON Lines, to check."""

import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from pocha.engine.chunk import Chunk
from pocha.engine.dealing import Conditioned, conditions_entry
from pocha.engine.policies import PlayPolicy
from pocha.engine.predictions import Predicted
from pocha.engine.seating import Lineup
from pocha.game.cards import cards_of
from pocha.game.rules import Rules
from pocha.kernels.codes import NO_TRUMP

FORMAT = "pocha-trace/3"


def is_trace(path: Path) -> bool:
    """Whether a file is a pocha trace of any format version (its first line says so), so a new trace may replace it."""
    try:
        with open(path, encoding="utf-8") as stream:
            return json.loads(stream.readline(1 << 20)).get("format").startswith("pocha-trace/")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        return False


def header(
    rules: Rules, lineup: Lineup, seed: int, policy: PlayPolicy, conditioned: Conditioned | None = None
) -> dict[str, Any]:
    """The first line: format, rules, the deck as the lines write it, strategies by seat, seed and play policy.

    A run under deal conditions adds them, as run.json holds them (none otherwise).
    """
    strategies = [seat.label for seat in lineup.seats]
    return {
        "format": FORMAT,
        "rules": rules.to_dict(),
        "deck": deck_entry(rules),
        "strategies": strategies,
        "seed": seed,
        "policy": policy.label,
        **conditions_entry(conditioned),
    }


def deck_entry(rules: Rules) -> dict[str, Any]:
    """The deck in the words of the lines: its pack, size, ranks strongest first and suit letters."""
    pack = rules.notation.pack
    ranks = [pack.rank_names[rank] for rank in rules.ranks]
    return {"pack": pack.name, "cards": rules.deck_size, "ranks": ranks, "suits": list(pack.suits)}


def deal_lines(
    rules: Rules,
    numbers: Sequence[int] | np.ndarray,
    chunk: Chunk,
    plays: np.ndarray,
    leaders: np.ndarray,
    won: np.ndarray,
    points: np.ndarray,
    count: int,
    *,
    predicted: Predicted | None = None,
) -> list[dict[str, Any]]:
    """Records of the first ``count`` deals of a played chunk (arrays as ``kernels.play_batch`` fills them).

    numbers: what each line calls its deal (the run-wide number). ``leaders[d, t]`` leads trick t;
    ``leaders[d, k]`` won the last. predicted: the chunk's recorded predictions, when there are any.
    """
    players = rules.players

    def name(card: int) -> str:
        return rules.notation.name(int(card))

    by_seat = () if predicted is None else predicted.by_seat(chunk.numbers)
    lines = []
    for d in range(count):
        tricks = [
            {"leader": int(leaders[d, t]), "cards": [name(c) for c in plays[d, t]], "winner": int(leaders[d, t + 1])}
            for t in range(chunk.cards)
        ]
        trump_card = int(chunk.trump_card[d])
        trumped = trump_card != NO_TRUMP  # a deal without trump writes null for both
        lines.append(
            {
                "deal": int(numbers[d]),
                "players": players,
                "cards": chunk.cards,
                "dealer": int(chunk.numbers[d] % players),
                "trump_card": name(trump_card) if trumped else None,
                "trump": rules.notation.pack.suits[trump_card >> 4] if trumped else None,
                "hands": [[name(c) for c in cards_of(chunk.hands[d, s])] for s in range(players)],
                "bids": chunk.bids[d].tolist(),
                "tricks": tricks,
                "won": won[d].tolist(),
                "points": points[d].tolist(),
            }
        )
        for key, part in zip(("predicted_tricks", "predicted_points"), by_seat, strict=False):
            lines[-1][key] = [None if np.isnan(value) else float(value) for value in part[d]]
    return lines


def write_lines(stream: IO[str], lines: Sequence[dict[str, Any]]) -> None:
    """Write trace lines as JSON Lines."""
    for line in lines:
        stream.write(json.dumps(line) + "\n")
