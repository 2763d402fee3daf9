"""Advice at the table: what to bid with a hand, and which card to play, by play-outs of the deal as seen so far."""

from collections.abc import Sequence
from typing import Unpack

from pocha._execution import Messages, Progress, counter, learn_default_tables
from pocha.engine.advice import Advice, CardAdvice, read_situation
from pocha.engine.advice import advise as advise_situation
from pocha.engine.advice import advise_card as advise_card_view
from pocha.engine.lineups import bidder
from pocha.engine.player import DealView
from pocha.engine.policies import PIMC_SHARPNESS
from pocha.errors import PochaError
from pocha.options import RuleOptions, RulesGiven, RulesRunKeywords, RunOptions, resolve_rules, with_flat_options
from pocha.strategies.catalog import MONTECARLO_SHARPNESS
from pocha.strategies.montecarlo import ROLLOUT_NAMES, ROLLOUTS


@with_flat_options
def advise(
    hand: str | Sequence[str],
    trump: str | None = None,
    *,
    position: int = 0,
    bids: str | Sequence[int] = (),
    played: str | Sequence[str] | None = None,
    bid: int | None = None,
    samples: int = 10_000,
    assume: str = "table",
    sharpness: float | None = None,
    solve: int = 0,
    rules: RulesGiven = RuleOptions(),
    run: RunOptions = RunOptions(),
    progress: Progress | None = None,
    messages: Messages | None = None,
    **flat: Unpack[RulesRunKeywords],
) -> Advice | CardAdvice:
    """What to bid with ``hand`` (``"1O 3O 12C"``) and trump card ``trump``, by play-outs of the deal.

    trump: None only where the deal has no trump (a full deal under ``full_deal_trump="none"``).
    position: how many players bid before you (0: you bid first and lead); bids: their bids, in
    order. bid: a bid to single out (it must be legal). ``assume`` is how the others are taken to bid:
    the earlier bids are read through it (``sharpness``: how sharply, MONTECARLO_SHARPNESS when None;
    0 does not read them) and the later bidders bid by it, answering each candidate bid; ``run.play``
    is how every seat plays the play-outs, ``solve`` how many of their last tricks are solved
    exactly, every hand open (greedy only). ``result.to_frame()`` has a row per bid; ``result.model``
    says what was assumed. Given ``played``, the card to play instead (``advise_card``, which takes
    no bid, assume or solve: ``pocha advise --played``). progress: called with (samples played out,
    ``samples``) as they are; a trick table learned first counts its deals the same way.
    """
    if played is not None:
        for given, name, why in (
            (bid is not None, "bid", "a card is advised, not a bid"),
            (assume != "table", "assume", "card advice reads the bids as pimc does"),
            (solve, "solve", "card advice solves no tricks of its play-outs"),
        ):
            if given:
                raise PochaError(f"{name}: does nothing with --played ({why})")
        card_sharpness = PIMC_SHARPNESS if sharpness is None else sharpness
        return advise_card(
            hand,
            trump,
            position=position,
            bids=bids,
            played=played,
            samples=samples,
            sharpness=card_sharpness,
            rules=rules,
            run=run,
            progress=progress,
        )
    _, chosen = resolve_rules(rules)
    if run.policy.name not in ROLLOUTS:
        raise PochaError(f"play: advise plays its play-outs {ROLLOUT_NAMES}, not '{run.play}'")
    hand_text = hand if isinstance(hand, str) else " ".join(hand)
    bids_text = bids if isinstance(bids, str) else ",".join(map(str, bids))
    situation = read_situation(chosen, hand_text, trump, position, bids_text)
    if bid is not None:
        situation.check_bid(bid)
    assumed = bidder(assume, "assume", "the play-outs play --play").strategy
    learn_default_tables([(assumed, run.policy)], chosen, run.make_backend(), progress, messages, run.learn_tables)
    return advise_situation(
        situation,
        samples=samples,
        seed=run.seed,
        rollout=run.policy.name,
        assume=(assume, assumed),
        sharpness=MONTECARLO_SHARPNESS if sharpness is None else sharpness,
        asked=bid,
        solve=solve,
        progress=counter(progress, samples),
    )


@with_flat_options
def advise_card(
    hand: str | Sequence[str],
    trump: str | None = None,
    *,
    position: int = 0,
    bids: str | Sequence[int] = (),
    played: str | Sequence[str] = (),
    samples: int = 10_000,
    sharpness: float = PIMC_SHARPNESS,
    rules: RulesGiven = RuleOptions(),
    run: RunOptions = RunOptions(),
    progress: Progress | None = None,
    **flat: Unpack[RulesRunKeywords],
) -> CardAdvice:
    """Which card to play: each legal card's chance to make your bid and its expected points, by play-outs.

    hand: the cards you hold now; position: your bidding position (0: you bid first and led the
    first trick); bids: every bid, in bidding order; played: every card played so far, in order from
    the first lead ("1O 3O 12C 5E | 7C", the bars optional). ``samples`` worlds consistent with what
    you have seen are drawn, the bids read as pimc reads them (``sharpness``); after your card every
    seat plays ``run.play``, greedy or learned. ``result.to_frame()`` has a row per legal card;
    ``result.model`` says what was assumed. progress: called with (worlds played, all of them).
    """
    _, chosen = resolve_rules(rules)
    dealer = chosen.players - 1  # seats numbered by bidding position: the dealer bids last
    view = DealView(position, dealer, hand, trump, bids, played)
    return advise_card_view(
        chosen,
        view,
        samples=samples,
        sharpness=sharpness,
        seed=run.seed,
        rollout=run.policy,
        progress=counter(progress, samples),
    )
