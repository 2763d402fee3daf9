"""Rule options and play policies as the kernels see them (small integers), and the random streams of a deal.

One compiled kernel serves every rule set: the options arrive as these numbers, never as strings.
"""

PLAY_POCHA, PLAY_TRUMP, PLAY_FOLLOW, PLAY_POCHA_TRUMP_LEAD_FREE, PLAY_POCHA_ALWAYS_BEAT = 0, 1, 2, 3, 4
PLAY_CODES = {
    "pocha": PLAY_POCHA,
    "trump": PLAY_TRUMP,
    "follow": PLAY_FOLLOW,
    "pocha-trump-lead-free": PLAY_POCHA_TRUMP_LEAD_FREE,
    "pocha-always-beat": PLAY_POCHA_ALWAYS_BEAT,
}
NO_TRUMP = -1  # the trump card of a deal without trump (its suit, NO_TRUMP >> 4, is -1 too: no suit)
POLICY_RANDOM, POLICY_GREEDY, POLICY_PIMC, POLICY_LEARNED = 0, 1, 2, 3
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "pimc": POLICY_PIMC, "learned": POLICY_LEARNED}
# Independent random streams of one deal (bidding strategies use STREAM_BID + 64 * (position + 1) + n);
# STREAM_LOT, of a whole game's number (hand size 0), draws its first dealer; STREAM_CARD_ADVICE the worlds that
# weigh a seat's cards for advice (``kernels.decide.card_outcomes``).
STREAM_DEAL, STREAM_PLAY, STREAM_BID, STREAM_SAMPLE, STREAM_ROLLOUT, STREAM_LOT = 1, 2, 3, 4, 5, 6
STREAM_CARD_ADVICE = 7
