"""The examples in the docstrings of the game's cards and rules (and of the words every table uses) hold."""

import doctest

import pytest

import pocha.game.cards
import pocha.game.rules
import pocha.game.scoring
import pocha.words


@pytest.mark.parametrize(
    "module", [pocha.game.cards, pocha.game.rules, pocha.game.scoring, pocha.words], ids=lambda m: m.__name__
)
def test_the_docstring_examples_hold(module):
    failed, tried = doctest.testmod(module)
    assert tried > 0, "no examples found"
    assert failed == 0
