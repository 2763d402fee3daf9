"""The examples in the docstrings of the game's cards and rules run, and print what they show."""

import doctest

import pytest

import pocha.game.cards
import pocha.game.rules


@pytest.mark.parametrize("module", [pocha.game.cards, pocha.game.rules], ids=lambda module: module.__name__)
def test_the_docstring_examples_hold(module):
    failed, tried = doctest.testmod(module)
    assert tried > 0, "no examples found"
    assert failed == 0
