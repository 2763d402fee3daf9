"""The ``cards`` option read: the hand sizes a run deals, from ``"all"``, one size, or a list or range."""

from collections.abc import Sequence

from pocha.errors import PochaError
from pocha.game.rules import Rules, parse_sizes


def every_size(cards: str | int | Sequence[int]) -> bool:
    """Whether a ``cards`` option asks for every hand size (``"all"``) rather than naming them."""
    return isinstance(cards, str) and cards.strip().lower() == "all"


def read_cards(cards: str | int | Sequence[int], rules: Rules) -> list[int]:
    """Hand sizes of a ``cards`` option: ``"all"`` (1..full deal), one size, or a list or range: ``4,7,10``, ``1-5``.

    Read, not named ``hand_sizes``: that is a game's schedule (``Rules.hand_sizes``, run.json's ``hand_sizes``).
    """
    if isinstance(cards, str):
        sizes = list(range(1, rules.full_deal + 1)) if every_size(cards) else parse_sizes(cards, "cards")
    else:
        sizes = [cards] if isinstance(cards, int) else list(cards)
    if not sizes:
        raise PochaError("cards: give at least one hand size")
    for size in sizes:
        rules.check_cards(size)
    repeated = sorted({size for size in sizes if sizes.count(size) > 1})
    if repeated:
        raise PochaError(f"cards: {', '.join(map(str, repeated))} given more than once")
    return sizes
