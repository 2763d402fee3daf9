"""Card-play policies by spec: ``greedy``, ``random``, ``pimc`` or ``pimc:samples=32``.

``greedy`` and ``random`` are described in ``greedy_card`` and ``random_card``.
``pimc`` (perfect-information Monte Carlo, ``pimc_card``) samples the hidden cards ``samples``
times consistently with what the player has seen (its hand, the trump card, the cards played and
what each play revealed: voids, and under the pocha rule the cards a player would have had to play),
plays every legal card out in each sample with every seat greedy, and plays the card with the most
expected points for itself given every bid. It does not read the bids as evidence about the hands.
"""

from dataclasses import dataclass

from pocha.errors import PochaError
from pocha.kernels.codes import POLICIES

DEFAULT_SAMPLES = 8  # pimc worlds per decision: the measured strength/speed trade-off (README, Strong play)
MOST_SAMPLES = 10_000


@dataclass(frozen=True)
class PlayPolicy:
    """How a seat plays its cards: a policy of ``POLICIES`` and, for pimc, its samples."""

    name: str
    samples: int = 0  # pimc: worlds sampled per decision

    @property
    def code(self) -> int:
        """The policy as the kernels take it."""
        return POLICIES[self.name]

    @property
    def label(self) -> str:
        """The spec in canonical form (``pimc`` at the default samples, else ``pimc:samples=N``)."""
        if self.name != "pimc" or self.samples == DEFAULT_SAMPLES:
            return self.name
        return f"{self.name}:samples={self.samples}"


GREEDY = PlayPolicy("greedy")


def parse_policy(spec: str) -> PlayPolicy:
    """A play policy from its spec: ``greedy``, ``random``, ``pimc``, ``pimc:samples=N``."""
    name, _, parameters = spec.strip().partition(":")
    if name not in POLICIES:
        raise PochaError(f"play: unknown '{spec}'; accepted: {', '.join(POLICIES)} (pimc:samples=N)")
    if name != "pimc":
        if parameters:
            raise PochaError(f"play: {name} takes no parameters, not '{parameters}'")
        return PlayPolicy(name)
    samples = DEFAULT_SAMPLES
    for item in filter(None, (p.strip() for p in parameters.split(","))):
        key, _, value = item.partition("=")
        if key.strip() != "samples":
            raise PochaError(f"play: pimc takes samples=N, not '{item}'")
        if not value.strip().isdigit() or not 1 <= int(value) <= MOST_SAMPLES:
            raise PochaError(f"play: pimc samples must be a whole number from 1 to {MOST_SAMPLES:,}, not '{value}'")
        samples = int(value)
    return PlayPolicy("pimc", samples)


def is_policy_spec(text: str) -> bool:
    """Whether a text names a play policy (the part after '@' in ``BID@PLAY``)."""
    return text.strip().partition(":")[0] in POLICIES
