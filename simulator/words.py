"""Counts in words, for every layer's messages and headings: "1 card", "2 cards", "1,000 deals"."""


def counted(number: int, noun: str, nouns: str | None = None) -> str:
    """``number`` and its noun, singular for exactly one: ``counted(3, "card")`` is "3 cards".

    nouns: the plural where adding "s" is wrong (``counted(2, "strategy", "strategies")``).
    """
    return f"{number:,} {noun if number == 1 else nouns or noun + 's'}"
