"""The ``--where`` language: a condition on a deal's hands, read by a small hand-written parser (never ``eval``).

A condition counts cards in the hands of bidding positions (1 bids first, as the result tables
number them; ``dealer``, the last, is position ``players``) and compares the counts::

    condition  := conjunct ("or" conjunct)*
    conjunct   := negation ("and" negation)*
    negation   := "not" negation | comparison
    comparison := sum [("==" | "!=" | "<" | "<=" | ">" | ">=") sum]
    sum        := term (("+" | "-") term)*
    term       := NUMBER | "cards" | "-" term | "(" condition ")" | FUNCTION "(" POSITION ("," ARGUMENT)* ")"

A sum is a number and a comparison (or ``has``) is true or false; ``and``, ``or`` and ``not`` take
truths, comparisons take numbers, and the whole is a truth. Cards, suits and ranks are written in
the rule set's notation, a card in quotes (``"1O"``; a suit or rank may go without), and the suit
may also be ``trump``. The parse is checked against the rules (positions, cards, ranks of the deck),
and each mistake is one line with the expression and a caret under the place.

Hand-written rather than Python's ``ast`` in a whitelist mode: ``ast`` would accept Python's own
grammar (chained comparisons, ``=`` mistakes read as syntax errors with Python's words, ``**``,
attribute access to refuse one by one), and the types (number or truth) and the caret need a walk
of their own anyway; the grammar is six rules.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from pocha.errors import PochaError
from pocha.game.rules import Rules

TRUMP_SUIT = -1  # a suit argument that means the deal's trump suit (no cards in a deal without trump)
HCP_POINTS = (4, 3, 2, 1)  # hcp(): points of the strongest ranks of the deck in its rank order, strongest first
FUNCTIONS = {  # name -> (the arguments after the position, what it gives)
    "trumps": ((), "the trumps the position holds"),
    "length": (("suit",), "the cards of a suit it holds"),
    "has": (("card",), "whether it holds a card"),
    "rank": (("rank",), "the cards of a rank it holds"),
    "top": (("suit", "count"), "how many of a suit's N strongest cards it holds"),
    "hcp": ((), "its high-card points: 4, 3, 2, 1 for each card of the deck's four strongest ranks"),
    "voids": ((), "the suits it holds no card of"),
}
TRUTHS = ("has",)  # the functions that give a truth, not a number
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
TOKEN = re.compile(
    r"(?P<number>\d+)|(?P<name>[A-Za-z_]\w*)|(?P<text>\"[^\"]*\"|'[^']*')|(?P<op>==|!=|<=|>=|[<>()+\-,=!&|])"
)
MISTAKES = {"=": "==", "!": "not", "&": "and", "|": "or"}  # what a Python or C writer types, and pocha's word


@dataclass(frozen=True)
class Number:
    """A whole number written in the condition."""

    value: int


@dataclass(frozen=True)
class HandSize:
    """``cards``: the hand size of the deal."""


@dataclass(frozen=True)
class Call:
    """A count over one position's hand, its arguments read into ids.

    arguments: ``length``: (suit,); ``has``: (card id,); ``rank``: (strength,); ``top``: (suit, count);
    a suit is an index of the pack's suits or TRUMP_SUIT.
    """

    name: str  # a key of FUNCTIONS
    position: int  # bidding position from 0, the first bidder (written from 1)
    arguments: tuple[int, ...] = ()


@dataclass(frozen=True)
class Unary:
    """``-`` of a number or ``not`` of a truth."""

    op: str
    operand: "Node"


@dataclass(frozen=True)
class Binary:
    """``+ -`` of numbers, a comparison of numbers, or ``and``/``or`` of truths."""

    op: str
    left: "Node"
    right: "Node"


Node = Number | HandSize | Call | Unary | Binary


@dataclass(frozen=True)
class Condition:
    """A ``--where`` expression as written and read against a rule set."""

    text: str
    tree: Node


@dataclass(frozen=True)
class Token:
    """One word or sign of the expression and where it starts."""

    kind: str  # number, name, text, op, or end
    value: str
    at: int


def mistake(text: str, at: int, message: str) -> PochaError:
    """The one error of a condition: what is wrong, then the expression with a caret under the place."""
    shown = text.replace("\n", " ").replace("\t", " ")
    return PochaError(f"where: {message}\n  {shown}\n  {' ' * at}^")


def tokens(text: str) -> list[Token]:
    """The expression's tokens, ending with an ``end`` token; a character the language has no use for is refused."""
    found: list[Token] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return [*found, Token("end", "", at)]
        match = TOKEN.match(text, at)
        if match is None:
            problem = "this quote is not closed" if text[at] in "\"'" else f"'{text[at]}' has no meaning here"
            raise mistake(text, at, problem)
        kind = match.lastgroup or "op"
        if kind == "op" and match.group() in MISTAKES:
            raise mistake(text, at, f"write {MISTAKES[match.group()]}, not {match.group()}")
        found.append(Token(kind, match.group(), at))
        at = match.end()


def parse_where(text: str, rules: Rules) -> Condition:
    """Read a ``--where`` expression against a rule set: its tree, or one line (and a caret) saying what is wrong."""
    if not text.strip():
        raise PochaError('where: an empty condition; write one such as "trumps(1) >= 2"')
    parser = Parser(text, rules, tokens(text))
    tree, kind, at = parser.condition()
    ending = parser.peek()
    if ending.kind != "end":
        if ending.value in COMPARISONS:
            raise mistake(text, ending.at, "comparisons do not chain; write a < b and b < c")
        raise mistake(text, ending.at, f"'{ending.value}' is not expected here")
    if kind != "truth":
        raise mistake(text, at, "this is a number, not a condition; compare it, e.g. trumps(1) >= 2")
    return Condition(text, tree)


class Parser:
    """Recursive descent over the tokens, one method a rule of the grammar; each returns (node, kind, start).

    kind is ``number`` or ``truth``; start is where the node's text begins, for the caret.
    """

    def __init__(self, text: str, rules: Rules, found: list[Token]) -> None:
        self.text, self.rules, self.found, self.index = text, rules, found, 0

    def peek(self) -> Token:
        """The next token, not taken."""
        return self.found[self.index]

    def take(self) -> Token:
        """The next token, taken."""
        token = self.found[self.index]
        self.index += 1
        return token

    def expect(self, value: str, what: str) -> Token:
        """Take the token ``value`` or refuse at the place it was missed."""
        token = self.peek()
        if token.value != value or token.kind not in ("op", "name"):
            got = f"'{token.value}'" if token.kind != "end" else "the end"
            raise mistake(self.text, token.at, f"expected {what}, found {got}")
        return self.take()

    def check(self, kind: str, wanted: str, start: int, what: str) -> None:
        """Refuse a number where a truth is wanted, or the other way round."""
        if kind != wanted:
            need = "a condition (a comparison, has(...), not, and, or)" if wanted == "truth" else "a number"
            raise mistake(self.text, start, f"{what} takes {need}, not {'a number' if kind == 'number' else 'a truth'}")

    def keyword(self, word: str) -> bool:
        """Take the next token if it is the keyword ``word`` (any case)."""
        token = self.peek()
        if token.kind == "name" and token.value.lower() == word:
            self.take()
            return True
        return False

    def condition(self) -> tuple[Node, str, int]:
        """The rule ``condition := conjunct ("or" conjunct)*``."""
        return self.joined("or", self.conjunct)

    def conjunct(self) -> tuple[Node, str, int]:
        """The rule ``conjunct := negation ("and" negation)*``."""
        return self.joined("and", self.negation)

    def joined(self, word: str, part: Callable[[], tuple[Node, str, int]]) -> tuple[Node, str, int]:
        """Parts joined by ``and`` or ``or``, left to right; each must be a truth when there is more than one."""
        node, kind, start = part()
        while self.peek().kind == "name" and self.peek().value.lower() == word:
            self.check(kind, "truth", start, word)
            self.take()
            right, right_kind, right_start = part()
            self.check(right_kind, "truth", right_start, word)
            node, kind = Binary(word, node, right), "truth"
        return node, kind, start

    def negation(self) -> tuple[Node, str, int]:
        """The rule ``negation := "not" negation | comparison``."""
        start = self.peek().at
        if self.keyword("not"):
            operand, kind, at = self.negation()
            self.check(kind, "truth", at, "not")
            return Unary("not", operand), "truth", start
        return self.comparison()

    def comparison(self) -> tuple[Node, str, int]:
        """The rule ``comparison := sum [COMPARISON sum]``."""
        left, kind, start = self.sum()
        if self.peek().value in COMPARISONS and self.peek().kind == "op":
            op = self.take().value
            self.check(kind, "number", start, op)
            right, right_kind, right_start = self.sum()
            self.check(right_kind, "number", right_start, op)
            return Binary(op, left, right), "truth", start
        return left, kind, start

    def sum(self) -> tuple[Node, str, int]:
        """The rule ``sum := term (("+" | "-") term)*``."""
        node, kind, start = self.term()
        while self.peek().kind == "op" and self.peek().value in "+-":
            op = self.take().value
            self.check(kind, "number", start, op)
            right, right_kind, right_start = self.term()
            self.check(right_kind, "number", right_start, op)
            node = Binary(op, node, right)
        return node, kind, start

    def term(self) -> tuple[Node, str, int]:
        """The rule ``term := NUMBER | "cards" | "-" term | "(" condition ")" | FUNCTION "(" arguments ")"``."""
        token = self.take()
        if token.kind == "number":
            return Number(int(token.value)), "number", token.at
        if token.value == "-" and token.kind == "op":
            operand, kind, at = self.term()
            self.check(kind, "number", at, "-")
            return Unary("-", operand), "number", token.at
        if token.value == "(" and token.kind == "op":
            node, kind, _ = self.condition()
            self.expect(")", "')'")
            return node, kind, token.at
        if token.kind == "name" and token.value.lower() == "cards":
            return HandSize(), "number", token.at
        if token.kind == "name" and token.value.lower() in FUNCTIONS:
            return self.call(token)
        if token.kind == "name":
            known = ", ".join(FUNCTIONS)
            raise mistake(self.text, token.at, f"unknown name '{token.value}'; known: {known}, cards, and, or, not")
        got = f"'{token.value}'" if token.kind != "end" else "the end"
        raise mistake(self.text, token.at, f"expected a number, cards or a function such as trumps(1), found {got}")

    def call(self, name: Token) -> tuple[Node, str, int]:
        """A function's arguments, read against the rules."""
        function = name.value.lower()
        wanted = FUNCTIONS[function][0]
        usage = f"{function}({', '.join(('position', *wanted))})"
        self.expect("(", f"'(' after {function}: {usage}")
        position = self.position()
        arguments = []
        for kind in wanted:
            self.expect(",", f"',' and then the {kind}: {usage}")
            arguments.append(self.argument(kind))
        self.expect(")", f"')' to end {usage}")
        return Call(function, position, tuple(arguments)), "truth" if function in TRUTHS else "number", name.at

    def position(self) -> int:
        """A bidding position, read from 0: written as a number 1..players (1 bids first) or ``dealer``."""
        token = self.take()
        players = self.rules.players
        if token.kind == "name" and token.value.lower() == "dealer":
            return players - 1
        if token.kind == "number" and 1 <= int(token.value) <= players:
            return int(token.value) - 1
        raise mistake(
            self.text,
            token.at,
            f"a bidding position is 1..{players} at {players} players (1 bids first, {players} deals) "
            f"or dealer, not '{token.value}'",
        )

    def argument(self, kind: str) -> int:
        """A suit (or ``trump``), card, rank or count, read into an id (see ``Call``)."""
        token = self.take()
        notation = self.rules.notation
        if kind == "count":
            suit = len(notation.ranks)
            if token.kind == "number" and 0 < int(token.value) <= suit:
                return int(token.value)
            raise mistake(
                self.text, token.at, f"top's count is 1..{suit} (a suit has {suit} cards), not '{token.value}'"
            )
        if kind == "suit" and token.kind == "name" and token.value.lower() == "trump":
            return TRUMP_SUIT
        if (token.kind == "number" and kind == "rank") or (token.kind == "name" and kind != "card"):
            written = token.value
        elif token.kind == "text":
            written = token.value[1:-1]
        else:
            example = {"suit": f'"{notation.pack.suits[0]}" or trump', "card": f'"{notation.pack.example.split()[0]}"'}
            shown = example.get(kind, f'"{notation.pack.rank_names[notation.ranks[0]]}"')
            raise mistake(self.text, token.at, f"expected a {kind} in quotes, such as {shown}")
        try:
            if kind == "suit":
                return notation.pack.parse_suit(written)
            if kind == "card":
                return notation.parse(written)
            rank = notation.pack.parse_rank(written)
        except PochaError as error:
            raise mistake(self.text, token.at, str(error)) from None
        if rank not in notation.ranks:
            present = " ".join(notation.pack.rank_names[r] for r in notation.ranks)
            raise mistake(self.text, token.at, f"'{written}' is not a rank of this deck: its ranks are {present}")
        return notation.strength(rank)
