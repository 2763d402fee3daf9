"""benchmarks/reference.c, the C reference of pocha bench, against pocha: the same deals give the same figures.

Built with ``cc`` as ``pocha bench --against benchmarks/reference.c`` builds it; skipped without a C compiler.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pocha.engine.bench import reference_program
from pocha.engine.policies import parse_policy
from pocha.engine.seating import Entrant, Lineup
from pocha.engine.simulate import Deals, simulate
from pocha.game.presets import make_rules

pytestmark = pytest.mark.c_reference

SOURCE = Path(__file__).parent.parent / "benchmarks" / "reference.c"
WORKLOADS = {"W": ("random", "random"), "H": ("aces-trumps", "greedy")}  # the reference's modes as pocha plays them


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")
@pytest.mark.parametrize(("mode", "cards", "seed"), [("W", 10, 3), ("W", 1, 5), ("W", 7, 0), ("H", 10, 2), ("H", 4, 9)])
def test_the_c_reference_plays_pocha_s_deals(mode, cards, seed):
    deals = 3000
    done = subprocess.run(
        [*reference_program(SOURCE), mode, str(cards), str(deals), str(seed)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    printed = re.findall(r"(\w+)=(-?\d+(?:,-?\d+)*)", done.stdout)
    theirs = {name: [int(value) for value in values.split(",")] for name, values in printed}
    bids, play = WORKLOADS[mode]
    tally = simulate(
        Deals(
            rules=make_rules(players=4),
            lineup=Lineup((Entrant.of(bids),) * 4),
            cards=(cards,),
            deals_per_size=deals,
            seed=seed,
            policy=parse_policy(play),
        )
    ).total
    exact, bid, won = (tally.hand_fields[0, :, 0, field].tolist() for field in range(3))
    mine = {"points": tally.moments[0, 0, :4, 0].tolist(), "bids": bid, "won": won, "exact": exact}
    assert {name: theirs[name] for name in mine} == mine
