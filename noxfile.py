"""The project's tasks, each in its own environment with the test extra: ``nox -s fast`` (``nox -l`` lists them)."""

import nox

nox.options.sessions = ["lint", "fast"]  # plain `nox`: the edit loop's gates
nox.options.reuse_existing_virtualenvs = True


def installed(session: nox.Session) -> None:
    """The project, editable, with its test extra."""
    session.install("-e", ".[test]")


@nox.session
def lint(session: nox.Session) -> None:
    """The lint gates: ruff (lint and format), mypy on the installed layout, the layers, the typing test."""
    installed(session)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("pytest", "-n", "0", "tests/test_style.py", "tests/test_layers.py", "tests/test_typing.py")


@nox.session
def fast(session: nox.Session) -> None:
    """The fast tier: every test not marked slow (no install, browser, docs, fuzz, scale or C tests)."""
    installed(session)
    session.run("pytest", "-m", "not slow", *session.posargs)


@nox.session
def tests(session: nox.Session) -> None:
    """Every test, as the README's command and .ci/run run them."""
    installed(session)
    session.run("pytest", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Every command and Python block of the README and docs/ run, every relative link and image resolved."""
    installed(session)
    session.run("pytest", "tests/test_docs.py", *session.posargs)
