"""Line-ups as a run's options name them: the strategy specs of every seat, of a comparison, of the models scored."""

from collections.abc import Sequence

from pocha.engine.seating import Entrant, Lineup, spare_field
from pocha.errors import PochaError
from pocha.strategies.base import Strategy
from pocha.words import counted

DEFAULT_LINEUP = ("expected", "aces-trumps", "fair-share", "random", "zero")  # seats take these in turn
MAX_COMPARED = 8
MODELLED_TABLE = "montecarlo"  # the strong bidder at every seat whose bids ``score_models`` predicts
DEFAULT_MODELS = {  # each a family: its best fitting spec stands for it
    "expected": ("expected",),
    "expected, bias fitted": tuple(f"expected:bias={step / 20:g}" for step in range(-20, 9)),  # -1 .. 0.4
    "aces-trumps": ("aces-trumps",),
    "table": ("table",),
    "fair-share": ("fair-share",),
    "random": ("random",),  # fitted, a uniform choice among the legal bids: the baseline
}

Spec = str | Strategy


def lineup_from(strategies: Spec | Sequence[Spec] | None, players: int) -> Lineup:
    """One strategy per seat: one that every seat plays, or one a seat; None for the default line-up."""
    if strategies is None:
        specs: list[Spec] = [DEFAULT_LINEUP[s % len(DEFAULT_LINEUP)] for s in range(players)]
    elif isinstance(strategies, str | Strategy):
        specs = [strategies]
    else:
        specs = list(strategies)
    if len(specs) not in (1, players):
        raise PochaError(
            f"strategy: {len(specs)} given for {players} players; give 1 (every seat plays it) or {players} (1 a seat)"
        )
    entrants = [Entrant.of(spec) for spec in specs]
    return Lineup(tuple((entrants * players)[:players]))


def compared_lineup(
    strategies: Spec | Sequence[Spec], field: Spec | None, seats: int, duplicate: bool = True
) -> Lineup:
    """The seats of a comparison: the strategies in turn, each as often, or once each and the field in the rest.

    More strategies than seats (in duplicate, without a field) hold one entrant each, seated ``seats``
    at a time in turn round the cycle (``Comparison.rotations``): each bids every seat's cards once.
    """
    specs = [strategies] if isinstance(strategies, str | Strategy) else list(strategies)
    count = len(specs)
    if not 2 <= count <= MAX_COMPARED:
        raise PochaError(f"compare: give 2 to {MAX_COMPARED} strategies, not {count}")
    if count > seats and (field is not None or not duplicate):
        raise PochaError(
            f"compare: {count} strategies but {seats} seats; more strategies than seats take turns at the table "
            "in duplicate only, without --field (or use more --players)"
        )
    if field is None and count < seats and seats % count:
        spare = spare_field(specs)
        raise PochaError(
            f"compare: {count} strategies cannot share {seats} seats evenly (one would sit twice and meet "
            f"itself); give --field STRATEGY to fill the {counted(seats - count, 'other seat')}"
            + (f", e.g. --field {spare}" if spare else "")
        )
    if field is not None and count == seats:
        raise PochaError(f"field: the {count} strategies fill all {seats} seats; leave --field out")
    if count > seats:
        order = specs
    else:
        order = [specs[s % count] for s in range(seats)] if field is None else specs + [field] * (seats - count)
    lineup = Lineup(tuple(Entrant.of(spec) for spec in order))
    if len(lineup.labels) != count + (field is not None):
        given = [*specs, *([field] if field is not None else [])]
        raise PochaError(f"compare: the same strategy is given twice among {', '.join(map(str, given))}")
    return lineup


def entrant_of(spec: Spec, option: str) -> Entrant:
    """The player an option names, its mistakes said under the option's name (``strong: ...``)."""
    try:
        return Entrant.of(spec)
    except PochaError as error:
        raise PochaError(f"{option}: {error}") from None


def bidder(spec: Spec, option: str, why: str) -> Entrant:
    """A bidding strategy that plays no card (a model, advise's assumed bidders): ``BID@PLAY`` is refused."""
    entrant = Entrant.of(spec)
    if entrant.policy is not None:
        raise PochaError(f"{option}: '{spec}' names a card play; {why}, give its bidding strategy")
    return entrant


def model_entrants(models: Sequence[Spec] | dict[str, tuple[str, ...]]) -> tuple[list[Entrant], list[str]]:
    """The candidate models of ``score_models`` as bidders, and each one's family (a spec alone is its own)."""
    given = (
        [(name, spec) for name, members in models.items() for spec in members]
        if isinstance(models, dict)
        else [(None, spec) for spec in models]
    )
    entrants = [bidder(spec, "model", "a model only bids") for _, spec in given]
    labels = [entrant.label for entrant in entrants]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise PochaError(f"model: {', '.join(repeated)} given more than once")
    return entrants, [name or label for (name, _), label in zip(given, labels, strict=True)]
