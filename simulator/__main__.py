"""``python -m pocha``: the command line."""

from pocha.cli import main

main()
