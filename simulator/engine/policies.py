"""Card-play policies by spec: ``greedy``, ``random``, ``pimc`` or ``pimc:samples=32,sharpness=1``, ``learned``.

``greedy`` and ``random`` are described in ``greedy_card`` and ``random_card``.
``pimc`` (perfect-information Monte Carlo, ``pimc_card``) samples the hidden cards ``samples``
times consistently with what the player has seen (its hand, the trump card, the cards played and
what each play revealed: voids, and under the pocha rule the cards a player would have had to play),
plays every legal card out in each sample with every seat greedy (one of each run of equivalent
cards, ``distinct_cards``; ``exhaustive=1`` every card, as pimc did first), and plays the card with
the most expected points for itself given every bid. With ``solve=N`` the last N tricks of every
play-out are solved exactly with every hand of the world known (``kernels.solve``: each seat
playing for its own points, or with ``paranoid=1`` every other seat against the pimc seat), the
tricks before them played greedily: ``solve`` at least the hand size solves every world whole.
With ``rollout=learned`` every seat finishes each world by the learned play instead of greedily, each
from its own view of the world (``finish_learned``), before the last N tricks are solved.
It reads the bids as evidence about the hands: it deals twice as many worlds as it plays, and plays those
drawn without replacement by how likely they make the others' bids were the others bidding like the
``expected`` strategy, read with ``sharpness`` (``kernels.pimc.Reading``); ``sharpness=0`` reads nothing.
With ``infer=play`` it reads every card the others have played too: four times as many worlds dealt,
each as likely as well as it makes their cards the learned play's choices (``kernels.inference``).
``learned`` plays a network learned from pimc (``kernels.learned``, ``strategies.play_models``); with
``solve=N`` it plays its last N tricks as pimc does with the whole rest solved (``samples`` worlds, the
bids read), where the network is weakest.
"""

from dataclasses import dataclass

from pocha.errors import PochaError
from pocha.kernels.codes import POLICIES, POLICY_LEARNED
from pocha.words import did_you_mean

PIMC_SAMPLES = 8  # pimc worlds per decision: the measured strength/speed trade-off (README, Strong play)
MOST_PIMC_SAMPLES = 10_000
PIMC_SHARPNESS = 5.0  # how sharply pimc reads the bids: measured (README, Strong card play)
MOST_PIMC_SHARPNESS = 1_000.0
DEFAULT_SOLVE = 0  # tricks left from which pimc solves its worlds: 0, greedy play-outs (docs/card-play.md)
ROLLOUTS = ("greedy", "learned")  # how a pimc seat finishes its worlds (``pimc:rollout=``)
INFERENCES = ("bids", "play")  # what a pimc seat reads the hidden hands from (``pimc:infer=``): bids, or play too
DEFAULT_PLAY = "learned"  # seats that name no play: the strongest play fast enough for millions of deals
DEFAULT_PLAY_WHY = (  # why, as pocha rules and pocha strategies say it
    "learned by default: which bidding earns the most depends on the play it meets, and learned is the "
    "strongest play fast enough for millions of deals (0.72 points a hand ahead of pimc at 4 players, at over ten "
    "times its speed; greedy, about 50 times faster, plays 2.33 points a hand worse)"
)
TEACHER = "pimc:samples=64,solve=4"  # what pocha train-play's models learn from: the strong player's play
TRAIN_PLAY_DEALS = 1_500  # deals per hand size and round of pocha train-play: the shipped models' plan
TRAIN_PLAY_ROUNDS = 3


@dataclass(frozen=True)
class PlayPolicy:
    """How a seat plays its cards: a policy of ``POLICIES`` and, for pimc, its samples and sharpness."""

    name: str
    samples: int = 0  # pimc: worlds played per decision
    sharpness: float = 0.0  # pimc: how sharply it reads the bids as the expected strategy's (0: not at all)
    exhaustive: bool = False  # pimc: every legal card weighed, as pimc did first, not one of equivalent ones
    solve: int = 0  # pimc: the last tricks of a play-out solved exactly (0: none, all greedy)
    paranoid: bool = False  # pimc: the solver plays every other seat against this one, not each for itself
    model: str = ""  # learned: the model file ("": the table's default, ``strategies.play_models``)
    rollout: str = "greedy"  # pimc: how every seat finishes its worlds, greedy or by the table's learned model
    infer: str = "bids"  # pimc: "play" reads the cards played as well as the bids, by the table's learned model

    @property
    def code(self) -> int:
        """The policy as the kernels take it."""
        return POLICIES[self.name]

    @property
    def rollout_code(self) -> int:
        """How a pimc seat finishes its worlds, as the kernels take it (a policy code: greedy or learned)."""
        return POLICIES[self.rollout]

    @property
    def uses_model(self) -> bool:
        """Whether the seat reads a learned model: learned, or pimc playing its worlds out or reading the play by it."""
        return self.code == POLICY_LEARNED or self.rollout_code == POLICY_LEARNED or self.infer == "play"

    @property
    def label(self) -> str:
        """The spec in canonical form: the parameters that are not the defaults (``pimc``, ``pimc:sharpness=0.0``)."""
        given = []
        if (self.name == "pimc" or self.solve) and self.samples != PIMC_SAMPLES:
            given.append(f"samples={self.samples}")
        if self.name == "pimc" and self.sharpness != PIMC_SHARPNESS:
            given.append(f"sharpness={self.sharpness}")
        if self.name == "pimc" and self.exhaustive:
            given.append("exhaustive=1")
        if self.solve != DEFAULT_SOLVE:
            given.append(f"solve={self.solve}")
        if self.name == "pimc" and self.paranoid:
            given.append("paranoid=1")
        if self.rollout != "greedy":
            given.append(f"rollout={self.rollout}")
        if self.infer != "bids":
            given.append(f"infer={self.infer}")
        if self.model:
            given.append(f"model={self.model}")
        return f"{self.name}:{','.join(given)}" if given else self.name


GREEDY = PlayPolicy("greedy")
ABOUT = {  # policy -> what it does and its parameters (name, type, default, meaning), as pocha strategies lists them
    "greedy": (
        "Bid-aware: while short of its bid, the weakest card that takes the trick (leading: its strongest); "
        "once the bid is made, the strongest card that does not.",
        (),
    ),
    "random": ("Uniform among the legal cards.", ()),
    "learned": (
        "A small network learned from pimc with the exact solver (pocha train-play) scores each legal card from "
        "what the seat has seen, and plays the best: ahead of pimc at over ten times its speed; the default.",
        (
            ("model", "path", "the table's", "a model file of pocha train-play, instead of the shipped one"),
            ("solve", "int", "0", "the last tricks played as pimc, the rest of each world solved exactly"),
            ("samples", "int", str(PIMC_SAMPLES), "worlds a card in those last tricks"),
        ),
    ),
    "pimc": (
        "Deals the hidden cards as what the seat has seen allows, the likeliest under the bids, plays every legal "
        "card out in each world (every seat greedy, or learned), and plays the one with the most expected points.",
        (
            ("samples", "int", str(PIMC_SAMPLES), "worlds played per decision"),
            (
                "sharpness",
                "float",
                str(PIMC_SHARPNESS),
                "how sharply the bids are read as expected's: 0 ignores them",
            ),
            ("exhaustive", "0 or 1", "0", "1: every legal card weighed, not one of each run of equivalent cards"),
            ("solve", "int", str(DEFAULT_SOLVE), "the last tricks of each world solved exactly, every hand known"),
            ("paranoid", "0 or 1", "0", "1: the solver plays the other seats against this one, not for themselves"),
            ("rollout", "greedy or learned", "greedy", "how every seat plays each world out before the solved tricks"),
            ("infer", "bids or play", "bids", "play: the worlds weighed by the cards played too, as the learned play"),
        ),
    ),
}


def parse_policy(spec: str) -> PlayPolicy:
    """A play policy from its spec: ``greedy``, ``random``, ``pimc``, ``pimc:samples=N,sharpness=S,rollout=learned``."""
    name, _, parameters = spec.strip().partition(":")
    if name not in POLICIES:
        raise PochaError(f"play: unknown '{spec}'; {policy_choices(spec)}")
    if name == "learned":
        return learned_policy(spec, parameters)
    if name != "pimc":
        if parameters:
            raise PochaError(f"play: {name} takes no parameters, not '{parameters}'")
        return PlayPolicy(name)
    samples, sharpness, exhaustive, solve, paranoid = PIMC_SAMPLES, PIMC_SHARPNESS, False, DEFAULT_SOLVE, False
    rollout, infer = "greedy", "bids"
    for item in filter(None, (p.strip() for p in parameters.split(","))):
        key, _, value = (part.strip() for part in item.partition("="))
        if key == "samples":
            samples = pimc_samples(value)
        elif key == "sharpness":
            sharpness = pimc_sharpness(value)
        elif key == "exhaustive" and value in ("0", "1"):
            exhaustive = value == "1"
        elif key == "solve":
            solve = pimc_solve(value)
        elif key == "paranoid" and value in ("0", "1"):
            paranoid = value == "1"
        elif key == "rollout":
            rollout = pimc_rollout(value)
        elif key == "infer" and value in INFERENCES:
            infer = value
        else:
            raise PochaError(
                "play: pimc takes samples=N, sharpness=S, exhaustive=0 or 1, solve=N, paranoid=0 or 1, "
                f"rollout=greedy or learned and infer=bids or play, not '{item}'"
            )
    return PlayPolicy("pimc", samples, sharpness, exhaustive, solve, paranoid, rollout=rollout, infer=infer)


def learned_policy(spec: str, parameters: str) -> PlayPolicy:
    """``learned`` or ``learned:model=PATH,solve=N,samples=N``; a model file named is read and checked here.

    Checked as the option is read, a bad file is refused before any work. Its module is imported here
    only: it loads numba, which ``pocha --help`` and ``--version`` do without.
    """
    from pocha.strategies.play_models import load_model

    model, solve, samples = "", DEFAULT_SOLVE, PIMC_SAMPLES
    for item in filter(None, (p.strip() for p in parameters.split(","))):
        key, _, value = (part.strip() for part in item.partition("="))
        if key == "model" and value:
            model = value
            load_model(model)
        elif key == "solve":
            solve = pimc_solve(value, "learned")
        elif key == "samples":
            samples = pimc_samples(value, "learned")
        else:
            raise PochaError(
                f"play: learned takes model=PATH (a file of pocha train-play), solve=N and samples=N, not '{item}'"
            )
    if not solve:
        if samples != PIMC_SAMPLES:
            raise PochaError("play: learned samples=N are the worlds of its solved last tricks: give solve=N too")
        return PlayPolicy("learned", model=model)
    return PlayPolicy("learned", samples, PIMC_SHARPNESS, solve=solve, model=model)


def pimc_samples(value: str, policy: str = "pimc") -> int:
    """The worlds of ``samples=N``: a whole number from 1 to MOST_PIMC_SAMPLES."""
    if not value.isdigit() or not 1 <= int(value) <= MOST_PIMC_SAMPLES:
        most = f"{MOST_PIMC_SAMPLES:,}"
        raise PochaError(f"play: {policy} samples must be a whole number from 1 to {most}, not '{value}'")
    return int(value)


def pimc_solve(value: str, policy: str = "pimc") -> int:
    """The tricks of ``solve=N``: a whole number from 0 (none solved) to MOST_SOLVE."""
    from pocha.kernels.solve import MOST_SOLVE  # loads numba: not before a policy asks to solve (--help stays quick)

    if not value.isdigit() or not 0 <= int(value) <= MOST_SOLVE:
        raise PochaError(f"play: {policy} solve must be a whole number of tricks from 0 to {MOST_SOLVE}, not '{value}'")
    return int(value)


def pimc_rollout(value: str) -> str:
    """The play-out of ``rollout=NAME``: greedy or learned."""
    if value not in ROLLOUTS:
        hint = did_you_mean(value, ROLLOUTS)
        raise PochaError(f"play: pimc rollout: unknown '{value}'; {hint}accepted: {', '.join(ROLLOUTS)}")
    return value


def pimc_sharpness(value: str) -> float:
    """The sharpness of ``sharpness=S``: a number from 0 (the bids not read) to MOST_PIMC_SHARPNESS."""
    try:
        sharpness = float(value)
    except ValueError:
        sharpness = float("nan")
    if not 0 <= sharpness <= MOST_PIMC_SHARPNESS:
        raise PochaError(
            f"play: pimc sharpness must be a number from 0 (bids not read) to {MOST_PIMC_SHARPNESS:,.0f}, not '{value}'"
        )
    return sharpness + 0.0  # -0.0 is 0


def policy_choices(spec: str) -> str:
    """What to say to a ``spec`` that names no play policy: the one it may mean, and the policies accepted."""
    hint = did_you_mean(spec.strip().partition(":")[0], POLICIES)
    return f"{hint}accepted: {', '.join(POLICIES)} (pimc:samples=N,sharpness=S,rollout=learned; learned:model=PATH)"


def is_policy_spec(text: str) -> bool:
    """Whether a text names a play policy (the part after '@' in ``BID@PLAY``)."""
    return text.strip().partition(":")[0] in POLICIES
