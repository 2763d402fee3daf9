"""Golden deals worked by hand, one per edge case of the play rules, in pocha-trace/3 format.

Each is checked twice: the reference accepts every card and the result, and the kernels, playing
the same hands with the same bids under the greedy policy, write exactly the same trace line.
"""

import json
from pathlib import Path

import numpy as np
import pytest
import reference

from pocha.engine import trace
from pocha.engine.chunk import Chunk, play_chunk, same_policy
from pocha.engine.policies import GREEDY
from pocha.game.cards import mask_of
from pocha.game.rules import Rules, forbidden_bids

GOLDEN = sorted(Path(__file__).parent.joinpath("golden").glob("*.jsonl"))


def golden_deals() -> list:
    deals = []
    for path in GOLDEN:
        header, *lines = (json.loads(line) for line in path.read_text().splitlines())
        deals += [pytest.param(header, deal, id=f"{path.stem}-{deal['deal']}") for deal in lines]
    return deals


def test_there_are_golden_deals():
    assert len(golden_deals()) >= 7


@pytest.mark.parametrize(("header", "deal"), golden_deals())
def test_golden_deal(header, deal):
    assert header["format"] == trace.FORMAT and header["policy"] == "greedy"
    rules = Rules.from_dict(header["rules"])
    hands = [rules.notation.parse_list(" ".join(h)) for h in deal["hands"]]
    trump_card = rules.notation.parse(deal["trump_card"])
    players, cards = rules.players, deal["cards"]

    # the bids keep the hook rule
    forbidden = forbidden_bids(
        rules,
        cards,
        np.array([deal["bids"][(deal["dealer"] + 1 + p) % players] for p in range(players - 1)]).reshape(1, -1),
    )
    assert deal["bids"][deal["dealer"]] != forbidden[0]

    # the reference accepts the whole deal
    held = [list(h) for h in hands]
    won = [0] * players
    for trick in deal["tricks"]:
        played: list[int] = []
        for j, name in enumerate(trick["cards"]):
            seat = (trick["leader"] + j) % players
            card = rules.notation.parse(name)
            assert card in reference.legal_cards(held[seat], played, trump_card >> 4, rules.play_rule), (name, trick)
            held[seat].remove(card)
            played.append(card)
        assert trick["winner"] == (trick["leader"] + reference.trick_winner(played, trump_card >> 4)) % players
        won[trick["winner"]] += 1
    assert deal["won"] == won
    assert deal["points"] == [reference.score(b, w, rules.scoring) for b, w in zip(deal["bids"], won, strict=True)]

    # the kernels play it the same way and the trace writer writes the same line
    chunk = Chunk(
        cards=cards,
        numbers=np.array([deal["dealer"]], np.int64),
        hands=np.array([[mask_of(h) for h in hands]], np.uint64),
        trump_card=np.array([trump_card], np.int64),
        bids=np.array([deal["bids"]], np.int64),
    )
    kernel_won, points, plays, leaders = play_chunk(rules, 0, chunk, same_policy(GREEDY, chunk), traced=True)
    (line,) = trace.deal_lines(rules, [deal["deal"]], chunk, plays, leaders, kernel_won, points, 1)
    assert line == {key: value for key, value in deal.items() if key != "note"}
