"""``pocha play``: a person's whole game against pocha's players, driven by a script, on standard input and in a
pseudo terminal; refusals with reasons, ``pocha advise``'s figures, the score sheet and the trace."""

import json
import os
import pty
import re
import select
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pocha
from pocha.cli import app
from pocha.engine.decisions import decision_views
from pocha.game.cards import cards_of
from pocha.game.rules import Rules
from pocha.playing import Session, play_game

pytestmark = pytest.mark.slow  # whole games at the terminal and in a pseudo terminal: out of the fast tier

OPTIONS = [
    "-p",
    "4",
    "--seat",
    "1",
    "-s",
    "expected@greedy",
    "--schedule",
    "2,3,4,5",
    "--samples",
    "400",
    "--seed",
    "3",
]
RULES = pocha.RuleOptions(players=4, schedule="2,3,4,5")


class Person:
    """A scripted person: asks for advice at its first bid and first card, tries the hook's forbidden bid and an
    illegal card once each, else makes its first legal move; every answer is kept to be played again."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.answers: list[str] = []
        self.tried: set[str] = set()
        self.hands: list[int] = []  # where each hand's answers start
        self.deal = None

    def __call__(self, prompt: str) -> str:
        state = self.session.state
        if state is not self.deal:
            self.deal = state
            self.hands.append(len(self.answers))
        kind = "bid" if state.bidding else "card"
        held = state.held[self.session.seat]
        illegal = 0 if state.bidding else held & ~state.legal_cards()
        if f"advice {kind}" not in self.tried:
            self.tried.add(f"advice {kind}")
            answer = "?"
        elif state.bidding and state.forbidden() >= 0 and "hook" not in self.tried:
            self.tried.add("hook")
            answer = str(state.forbidden())
        elif illegal and "illegal" not in self.tried:
            self.tried.add("illegal")
            answer = state.moves.name(cards_of(illegal)[0])
        else:
            answer = state.moves.action_text(state.legal_actions()[0]).removeprefix("bid ")
        self.answers.append(answer)
        return answer


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A whole game played through the session by the scripted person: (person, what was said, outcome, trace)."""
    path = tmp_path_factory.mktemp("play") / "game.jsonl"
    person, said = Person(), []
    start = Session.play

    def watched(session):
        person.session = session
        return start(session)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Session, "play", watched)
        outcome = play_game(
            "expected@greedy", seat=1, samples=400, trace=path, rules=RULES, seed=3, ask=person, say=said.append
        )
    return person, said, outcome, path


def test_a_whole_game_with_advice_and_refused_moves(played):
    person, said, outcome, _ = played
    assert outcome.complete and outcome.hands == 4 and person.tried == {"advice bid", "advice card", "hook", "illegal"}
    text = "\n".join(said)
    assert "Refused: the dealer may not bid" in text and "(the hook)" in text
    assert any(line.startswith("Refused: ") and "may not be played: you" in line for line in said)
    assert "Your cards:" in text and "takes the trick" in text and "trump" in text
    assert said[-1].startswith(("Seat ", "You ")) and " with " in said[-1] and "The hands played are in" in said[-1]
    sheet = [line for line in text.splitlines() if line.lstrip().startswith("total")]
    assert len(sheet) == 4 and sheet[-1].split()[1:] == [str(score) for score in outcome.scores]


def test_the_advice_is_pocha_advises_to_the_figure(played):
    _, said, _, _ = played
    commands = [i for i, line in enumerate(said) if line.startswith("(pocha advise says the same: ")]
    assert len(commands) == 2  # a bid and a card
    for index in commands:
        command = said[index].removeprefix("(pocha advise says the same: ").removesuffix(")")
        shown = said[index - 1]
        printed = CliRunner().invoke(app, shlex.split(command)[1:])
        assert printed.exit_code == 0, printed.output
        assert printed.stdout.rstrip("\n") == shown


def test_the_trace_is_read_as_any_other(played):
    _, _, outcome, path = played
    header, *lines = (json.loads(line) for line in path.read_text().splitlines())
    rules = Rules.from_dict(header["rules"])
    assert header["format"] == "pocha-trace/3" and header["strategies"][1] == "person" and rules.players == 4
    assert [line["hand"] for line in lines] == [0, 1, 2, 3] and [line["cards"] for line in lines] == [2, 3, 4, 5]
    assert [sum(line["points"][seat] for line in lines) for seat in range(4)] == outcome.scores
    for line in lines:
        assert len(list(decision_views(line))) == 4 + 4 * line["cards"]  # bench --decisions reads it
    pocha_game = pytest.importorskip(
        "pocha.openspiel.pocha_game", reason="OpenSpiel: pip install 'pocha-simulator[openspiel]'"
    )
    import test_openspiel_game

    for line in lines:
        test_openspiel_game.replay(line, rules)  # and OpenSpiel's pocha game plays it card for card
    assert pocha_game.POCHA == "pocha"


def test_the_same_game_on_standard_input(played, tmp_path, monkeypatch):
    person, said, _, _ = played
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(app, ["play", *OPTIONS], input="\n".join(person.answers) + "\n")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.count("Refused: ") == 2 and said[-1].split(" The hands")[0] in shown.stdout
    assert (tmp_path / "pocha-play.jsonl").exists()


def test_stopping_keeps_the_hands_played(played, tmp_path, monkeypatch):
    person, _, _, _ = played
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    first_hand = person.answers[: person.hands[1]]
    stopped = runner.invoke(app, ["play", *OPTIONS, "--trace", "t.jsonl"], input="\n".join([*first_hand, "q"]))
    assert stopped.exit_code == 0 and "Stopped after 1 hand. The hands played are in t.jsonl." in stopped.stdout
    assert len((tmp_path / "t.jsonl").read_text().splitlines()) == 1 + 1
    ended = runner.invoke(app, ["play", *OPTIONS, "--trace", "u.jsonl"], input="\n".join(first_hand[:-1]))
    assert ended.exit_code == 1 and ": \nStopped after 0 hands.\n" in ended.stdout  # the input ran out
    assert ended.stderr == "Error: the input ended before the game did (q stops a game)\n"
    assert not (tmp_path / "u.jsonl").exists()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_at_a_question_ends_its_line_and_exits_130(stop, tmp_path):
    """Ctrl-C (or SIGTERM) while pocha play waits for an answer: the prompt's line ends, the game stops, status 130."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pocha", "play", *OPTIONS],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not ignored, as in a terminal
    )
    shown = b""
    while not shown.endswith(b": "):  # the first question waits
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, shown + process.communicate()[1]
        shown += chunk
    process.send_signal(stop)
    out, err = process.communicate()
    assert process.returncode == 130, err
    assert (shown + out).decode().endswith(": \nStopped after 0 hands.\n") and b"Traceback" not in err


def test_a_forced_card_is_played_without_asking(played):
    """The last card of every hand is the only one left: the person is never asked for it."""
    person, said, outcome, _ = played
    forced = [line for line in said if line.endswith(", the only card you may play.")]
    hands = len(RULES.resolve()[1].hand_sizes())
    assert outcome.complete and len(forced) >= hands
    assert len(person.answers) == sum(1 for line in said if line.startswith(("You bid", "You play"))) - len(forced) + 4


def test_the_same_game_in_a_pseudo_terminal(played, tmp_path):
    person, said, _, _ = played
    pid, terminal = pty.fork()
    if pid == 0:  # the child: pocha play in the terminal
        os.chdir(tmp_path)
        os.execv(sys.executable, [sys.executable, "-m", "pocha", "play", *OPTIONS])
    output, answers, deadline = b"", list(person.answers), time.monotonic() + 300
    while time.monotonic() < deadline:
        if not select.select([terminal], [], [], 1.0)[0]:
            continue
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the child has ended
            break
        output += chunk
        if answers and output.endswith(b": "):  # a question waits (an answer's echo ends the line)
            os.write(terminal, answers.pop(0).encode() + b"\n")
    os.waitpid(pid, 0)
    text = output.decode(errors="replace").replace("\r\n", "\n")
    assert not answers and text.count("Refused: ") == 2 and said[-1].split(" The hands")[0] in text
    assert (tmp_path / "pocha-play.jsonl").exists()


def test_the_session_shown_in_the_docs_is_what_pocha_play_prints(tmp_path, monkeypatch):
    """docs/play.md's transcript: its answers typed again (echoed, as a terminal shows them), every line the same."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "play.md").read_text(encoding="utf-8")
    transcript = page.split("```text\n", 1)[1].split("```", 1)[0]
    command = next(line for line in page.splitlines() if line.startswith("pocha play") and "--seed" in line)
    answers = re.findall(r"(?:Your bid, 0 to \d+|Your card): (.*)$", transcript, re.M)

    def typed(prompt):
        if not answers:
            raise EOFError
        print(prompt + answers[0])
        return answers.pop(0)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", typed)
    shown = CliRunner().invoke(app, shlex.split(command)[1:])
    assert shown.exit_code == 0 and shown.stdout == transcript


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--seat", "4"], "seat: 4 is not a seat; 4 players sit at seats 0..3"),
        (
            ["-s", "expected", "-s", "random"],
            "strategy: 2 given for 3 other seats; give 1 (every other seat plays it) or 3 (1 a seat)",
        ),
        (["--trace", "no/such/folder/t.jsonl"], "folder 'no/such/folder' does not exist"),
        (["--samples", "1"], "samples: the advice's play-outs are a whole number from 2 to 100,000"),
        (["-s", "nosuch"], "nosuch"),
    ],
)
def test_a_bad_option_is_one_line(arguments, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(app, ["play", *arguments], input="q\n")
    assert shown.exit_code == 1 and message in shown.output and shown.output.count("\n") == 1
    assert not list(tmp_path.iterdir())
