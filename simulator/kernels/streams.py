"""Per-deal randomness: every deal's random numbers come from (seed, hand size, deal number, stream) alone.

A splitmix64 mix of the four numbers seeds a stream's state; so any chunking, thread count or
machine gives the same deals. The draws are wyrand's: the state steps by a constant, and a draw
is the two halves of one 64 x 64 -> 128-bit product of the state, XORed (one multiplication a
draw, where splitmix64 takes two and three shifts).
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from pocha.kernels.jit import jit, jit_inline

GAMMA = np.uint64(0x9E3779B97F4A7C15)
WY_STEP = np.uint64(0xA0761D6478BD642F)
WY_MIX = np.uint64(0xE7037ED1A0B428DB)


@jit
def mix64(z):
    """splitmix64 finaliser: a bijective 64-bit hash of ``z`` (uint64)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit_inline
def stream_state(seed, cards, deal, stream):
    """Start state of one random stream of one deal, from ``(seed, hand size, deal index, stream)`` only.

    This is what makes runs reproducible whatever the chunking: no state crosses deals.
    """
    z = mix64(np.uint64(seed) + GAMMA * np.uint64(cards))
    z = mix64(z + GAMMA * np.uint64(deal))
    return mix64(z + GAMMA * np.uint64(stream))


@jit_inline
def decision_state(start, index):
    """The state a choice of a deal draws from: its own stream, from the deal's ``start`` state and its card's index.

    A seat that decides alone (``pocha.Player``) can work it out from what it sees, so its choices are
    the batch's: no earlier draw of the deal (another seat's) moves it.
    """
    return mix64(start + GAMMA * np.uint64(index + 1))


@jit_inline
def attempt_state(start, attempt):
    """The state attempt ``attempt`` of a deal's dealing draws from (a deal redrawn until its conditions hold).

    Attempt 0 is the deal's own stream, so a deal that meets its conditions at once is the deal dealt
    without them; a later attempt draws from a sub-stream of its own, as a decision does.
    """
    return start if attempt == 0 else decision_state(start, attempt)


@intrinsic
def multiply_high(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two uint64 (one ``mul`` on x86-64)."""

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return types.uint64(types.uint64, types.uint64), codegen


@jit
def next_state(state):
    """Advance a stream's state (wyrand's step)."""
    return state + WY_STEP


@jit
def draw(state):
    """The state's 64 random bits: wyrand's output, the 128-bit product of the state and the state ^ WY_MIX folded."""
    other = state ^ WY_MIX
    return multiply_high(state, other) ^ (state * other)


@jit
def below(state, n):
    """A number in ``0..n-1`` from the state's draw (bias below n / 2**32, negligible for n <= 64)."""
    return np.int64(((draw(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@jit
def uniform(state):
    """A float64 in [0, 1) from the state's draw (53 random bits)."""
    return np.float64(draw(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def stream_states(seed, cards, numbers, stream):
    """uint64[deal]: the start state of stream ``stream`` of each deal of ``numbers`` (int64[deal]).

    For a kernel called piece by piece, which takes each deal's state in and leaves it where its draws
    ended: the pieces then draw what one call would.
    """
    out = np.empty(numbers.shape[0], np.uint64)
    for d in range(numbers.shape[0]):
        out[d] = stream_state(seed, cards, numbers[d], stream)
    return out


@jit
def uniform_batch(seed, cards, numbers, stream, out):
    """Fill ``out`` (float64[row, draw]) with uniforms in [0, 1) from stream ``stream`` of deal ``numbers[row]``."""
    for d in range(out.shape[0]):
        state = stream_state(seed, cards, numbers[d], stream)
        for j in range(out.shape[1]):
            state = next_state(state)
            out[d, j] = uniform(state)
