"""The game as data: cards and decks, the rules, presets and the readings of the rule texts."""
