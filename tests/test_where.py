"""The ``--where`` language: its parse and its mistakes, and the kernel's program against a slow evaluator.

The hypothesis test writes random conditions together with what they mean (a Python function of a
deal written beside the text, not read from the parser's tree), and checks the kernel's verdict on
random deals against it, under every preset, both packs and 2 to 10 players.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pytest
from conftest import EVERY_RULE_SET, rule_id
from hypothesis import given, settings
from hypothesis import strategies as st

from pocha.errors import PochaError
from pocha.game.presets import make_rules
from pocha.game.rules import PLAY_RULES, Rules
from pocha.game.where import FUNCTIONS, HCP_POINTS, Binary, Call, HandSize, Number, Unary, parse_where
from pocha.kernels.codes import NO_TRUMP
from pocha.kernels.where import holds, program


@dataclass(frozen=True)
class Deal:
    """A deal as the slow evaluator reads it: card ids by bidding position, the trump card, the hand size."""

    positions: list[list[int]]
    trump_card: int  # NO_TRUMP without trump
    cards: int


Meaning = Callable[[Deal], int]


def suit_count(deal: Deal, position: int, suit: int | None) -> int:
    return sum(card >> 4 == suit for card in deal.positions[position]) if suit is not None else 0


def trump_suit(deal: Deal) -> int | None:
    return None if deal.trump_card == NO_TRUMP else deal.trump_card >> 4


def strongest(rules: Rules) -> int:
    return len(rules.ranks) - 1


@st.composite
def call(draw, rules: Rules, truth: bool) -> tuple[str, Meaning]:
    """A function call written as a user would, and its meaning."""
    notation = rules.notation
    players = rules.players
    p = draw(st.integers(0, players - 1))
    where = draw(st.sampled_from([str(p + 1), "dealer"])) if p == players - 1 else str(p + 1)
    if truth:
        card = int(draw(st.sampled_from(list(rules.deck()))))
        return f'has({where}, "{notation.name(card).lower()}")', lambda d: int(card in d.positions[p])
    name = draw(st.sampled_from(sorted(set(FUNCTIONS) - {"has"})))
    if name in ("length", "top"):
        suit = draw(st.integers(-1, 3))
        words = [notation.pack.suits[suit], notation.pack.suit_words[suit].upper()] if suit >= 0 else ["trump"]
        written = draw(st.sampled_from(words))
        written = written if suit < 0 else f'"{written}"'

        def chosen(d: Deal, suit: int = suit) -> int | None:
            return trump_suit(d) if suit < 0 else suit

        if name == "length":
            return f"length({where}, {written})", lambda d: suit_count(d, p, chosen(d))
        n = draw(st.integers(1, len(rules.ranks)))
        top = strongest(rules) + 1 - n
        return f"top({where}, {written}, {n})", lambda d: sum(
            c >> 4 == chosen(d) and c % 16 >= top for c in d.positions[p]
        )
    if name == "rank":
        rank = draw(st.sampled_from(rules.ranks))
        strength = notation.strength(rank)
        written = notation.pack.rank_names[rank]
        text = written if written.isdigit() and draw(st.booleans()) else f"'{written}'"
        return f"rank({where}, {text})", lambda d: sum(c % 16 == strength for c in d.positions[p])
    if name == "hcp":
        points = {strongest(rules) - i: value for i, value in enumerate(HCP_POINTS)}
        return f"hcp({where})", lambda d: sum(points.get(c % 16, 0) for c in d.positions[p])
    if name == "voids":
        return f"voids({where})", lambda d: 4 - len({c >> 4 for c in d.positions[p]})
    return f"trumps({where})", lambda d: suit_count(d, p, trump_suit(d))


@st.composite
def number(draw, rules: Rules, depth: int) -> tuple[str, Meaning]:
    """A sum: terms joined by + and -, left to right."""
    text, meaning = draw(term(rules, depth))
    for _ in range(draw(st.integers(0, 2 if depth else 0))):
        op = draw(st.sampled_from("+-"))
        right, value = draw(term(rules, depth - 1))
        text = f"{text} {op} {right}"
        meaning = (
            (lambda a, b: lambda d: a(d) + b(d))(meaning, value)
            if op == "+"
            else (lambda a, b: lambda d: a(d) - b(d))(meaning, value)
        )
    return text, meaning


@st.composite
def term(draw, rules: Rules, depth: int) -> tuple[str, Meaning]:
    kind = draw(st.sampled_from(["number", "cards", "call", "call", "negative", "parenthesis"]))
    if kind == "number":
        n = draw(st.integers(0, 14))
        return str(n), lambda d: n
    if kind == "cards":
        return "cards", lambda d: d.cards
    if kind == "call" or depth <= 0:
        return draw(call(rules, truth=False))
    if kind == "negative":
        text, meaning = draw(term(rules, depth - 1))
        return f"-{text}", lambda d: -meaning(d)
    text, meaning = draw(number(rules, depth - 1))
    return f"({text})", meaning


COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


@st.composite
def condition(draw, rules: Rules, depth: int) -> tuple[str, Meaning]:
    """Conjuncts joined by or, of negations joined by and: the grammar's precedence, parentheses only where needed."""
    parts = []
    for _ in range(draw(st.integers(1, 3 if depth else 1))):
        factors = []
        for _ in range(draw(st.integers(1, 3 if depth else 1))):
            factors.append(draw(negation(rules, depth)))
        factors_text = " and ".join(text for text, _ in factors)
        meanings = [meaning for _, meaning in factors]
        parts.append((factors_text, (lambda ms: lambda d: all(m(d) for m in ms))(meanings)))
    text = " or ".join(text for text, _ in parts)
    meanings = [meaning for _, meaning in parts]
    return text, (lambda ms: lambda d: any(m(d) for m in ms))(meanings)


@st.composite
def negation(draw, rules: Rules, depth: int) -> tuple[str, Meaning]:
    nots = draw(st.integers(0, 2))
    kind = draw(st.sampled_from(["compare", "compare", "has", "parenthesis"]))
    if kind == "has" or (kind == "parenthesis" and depth <= 0):
        text, meaning = draw(call(rules, truth=True))
    elif kind == "compare":
        left, a = draw(number(rules, depth))
        op = draw(st.sampled_from(sorted(COMPARE)))
        right, b = draw(number(rules, depth))
        text, meaning = f"{left} {op} {right}", (lambda a, b, f: lambda d: f(a(d), b(d)))(a, b, COMPARE[op])
    else:
        inner, meaning = draw(condition(rules, depth - 1))
        text = f"({inner})"
    for _ in range(nots):
        text, meaning = f"not {text}", (lambda m: lambda d: not m(d))(meaning)
    return text, meaning


def random_deal(rules: Rules, rng: np.random.Generator) -> tuple[np.ndarray, int, int, Deal]:
    """A deal by numpy, not by pocha: ``(hands by seat, mano, trump card, Deal)``."""
    cards = int(rng.integers(1, rules.full_deal + 1))
    deck = rng.permutation(rules.deck())
    players = rules.players
    positions = [sorted(int(c) for c in deck[p * cards : (p + 1) * cards]) for p in range(players)]
    if not rules.has_trump(cards):
        trump = NO_TRUMP
    elif cards * players < rules.deck_size:
        trump = int(deck[cards * players])
    else:
        trump = int(rng.choice(positions[-1]))
    mano = int(rng.integers(players))
    hands = np.zeros(players, np.uint64)
    for p, ids in enumerate(positions):
        hands[(mano + p) % players] = sum(np.uint64(1) << np.uint64(c) for c in ids)
    return hands, mano, trump, Deal(positions, trump, cards)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(EVERY_RULE_SET).flatmap(lambda r: st.tuples(st.just(r), condition(r, 2))), st.integers(0, 2**32))
def test_the_kernel_evaluates_conditions_as_written(written, seed):
    rules, (text, meaning) = written
    rows = program([parse_where(text, rules)], rules)
    stack = np.empty(len(rows), np.int64)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        hands, mano, trump, deal = random_deal(rules, rng)
        assert holds(rows, hands, mano, trump, deal.cards, stack) == bool(meaning(deal)), (text, deal)


def test_conditions_are_anded_and_none_holds_always():
    rules = make_rules()
    stack = np.empty(16, np.int64)
    hands, mano, trump, deal = random_deal(rules, np.random.default_rng(3))
    yes, no = parse_where("cards >= 1", rules), parse_where("cards < 1", rules)
    assert holds(program([], rules), hands, mano, trump, deal.cards, stack)
    assert holds(program([yes, yes], rules), hands, mano, trump, deal.cards, stack)
    assert not holds(program([yes, no], rules), hands, mano, trump, deal.cards, stack)


def test_the_tree_reads_precedence_and_names():
    rules = make_rules()  # ludoteka, 4 players, ace-three: 1O is strength 9 of suit 0
    tree = parse_where('not has(dealer, "1o") and trumps(1) + 1 >= cards or length(2, oros) == 0', rules).tree
    expected = Binary(
        "or",
        Binary(
            "and",
            Unary("not", Call("has", 3, (9,))),
            Binary(">=", Binary("+", Call("trumps", 0), Number(1)), HandSize()),
        ),
        Binary("==", Call("length", 1, (0,)), Number(0)),
    )
    assert tree == expected
    assert parse_where("top(3, trump, 2) >= 1 AND rank(1, 3) > 0", rules).tree == Binary(
        "and",
        Binary(">=", Call("top", 2, (-1, 2)), Number(1)),
        Binary(">", Call("rank", 0, (8,)), Number(0)),
    )
    assert parse_where("1 - 2 - 3 < 0", rules).tree.left == Binary("-", Binary("-", Number(1), Number(2)), Number(3))


def test_hcp_counts_the_four_strongest_ranks_of_each_pack():
    stack = np.empty(16, np.int64)
    for rules, hand, points in (
        (make_rules(), "1O 3C 3E 12B 10O", 4 + 3 + 3 + 2 + 0),  # ace-three: 1, 3, king, knight
        (make_rules(rank_order="natural"), "1O 3C 3E 12B 10O", 4 + 0 + 0 + 3 + 1),  # natural: 1, king, knight, jack
        (make_rules("oh-hell", 4), "AS KH QD JC 10S", 10),  # bridge's high-card points
        (make_rules("italian", 8), "1O 3O 12O 11O 10O", 10),  # 8 players, 28 cards: still the four strongest
    ):
        ids = rules.notation.parse_list(hand)
        hands = np.zeros(rules.players, np.uint64)
        hands[1] = sum(np.uint64(1) << np.uint64(c) for c in ids)
        rows = program([parse_where(f"hcp(1) == {points}", rules)], rules)
        assert holds(rows, hands, 1, -1, len(ids), stack)


@pytest.mark.parametrize("play_rule", sorted(PLAY_RULES))
@pytest.mark.parametrize("rules", EVERY_RULE_SET, ids=rule_id)
def test_every_rule_set_reads_its_own_notation(rules, play_rule):
    rules = replace(rules, play_rule=play_rule)
    notation, last = rules.notation, rules.players - 1
    strongest_card, weakest = notation.name(int(rules.deck().max())), notation.pack.rank_names[rules.ranks[-1]]
    suit = notation.pack.suits[3]
    text = f'has(dealer, "{strongest_card}") or rank({rules.players}, "{weakest}") > 0 or top(1, "{suit}", 1) == 1'
    parsed = parse_where(text, rules).tree
    assert parsed.left.left == Call("has", last, (int(rules.deck().max()),))
    other = "1O" if rules.pack == "french" else "AS"
    with pytest.raises(PochaError, match="is not a card"):
        parse_where(f'has(1, "{other}")', rules)
    with pytest.raises(PochaError, match=f"1..{rules.players} at {rules.players} players"):
        parse_where(f"trumps({rules.players + 1}) > 0", rules)


MISTAKES = [  # (condition, what the line says, the caret's column)
    ("trumps(5) >= 3", "a bidding position is 1..4 at 4 players", 7),
    ("trump(0) > 1", "unknown name 'trump'", 0),
    ("trumps(1)", "this is a number, not a condition", 0),
    ("has(1, 1O)", 'expected a card in quotes, such as "1O"', 7),
    ('length(1, "X") == 0', "'X' is not a suit of the Spanish pack", 10),
    ('rank(1, "8") > 0', "'8' is not a rank of this deck", 8),
    ("top(1, trump, 11) > 0", "top's count is 1..10", 14),
    ("trumps(1) = 3", "write ==, not =", 10),
    ("1 < 2 < 3", "comparisons do not chain", 6),
    ("trumps(1) >= 2 and 3", "and takes a condition", 19),
    ("(trumps(1) >= 2", "expected ')', found the end", 15),
    ('has(1, "1O") + 1 > 0', "+ takes a number, not a truth", 0),
    ("trumps(1) >= 2 && voids(2) > 0", "write and, not &", 15),
    ("trumps(1) >= 2 # three", "'#' has no meaning here", 15),
    ('has(1, "1O)', "this quote is not closed", 7),
    ("not 3", "not takes a condition", 4),
    ("trumps 0 > 1", "expected '(' after trumps", 7),
    ("length(1) > 1", "expected ',' and then the suit", 8),
    ('has(1, "AS")', "a French card needs the French pack", 7),
    ("hcp(1) >", "expected a number, cards or a function", 8),
    ("hcp(1) > 1 2", "'2' is not expected here", 11),
]


@pytest.mark.parametrize(("text", "message", "column"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_each_mistake_is_named_with_a_caret_under_it(text, message, column):
    with pytest.raises(PochaError) as caught:
        parse_where(text, make_rules())
    line, shown, caret = str(caught.value).split("\n")
    assert line.startswith("where: ") and message in line
    assert shown == f"  {text}" and caret == "  " + " " * column + "^"


def test_an_empty_condition_is_one_line():
    with pytest.raises(PochaError, match="^where: an empty condition"):
        parse_where("  ", make_rules())
