"""Bit tricks on hands.

A card id is ``suit * 16 + strength`` (strength 0 the weakest rank of the rule set), so a hand is a
``uint64`` mask with one 16-bit lane per suit.
"""

import numba
import numpy as np
from llvmlite import binding, ir
from numba import types
from numba.extending import intrinsic

from pocha.kernels.jit import jit

LANE_MASK = np.uint64(0xFFFF)


LANES = np.uint64(0x0001000100010001)  # the weakest card of every suit


ONE = np.uint64(1)


ZERO = np.uint64(0)


@jit
def popcount(x):
    """Number of set bits of a uint64 (portable bit trick)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@jit
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM makes it one instruction)."""
    return popcount((x & (ZERO - x)) - ONE)


@intrinsic
def _leading_zeros(typingctx, x):
    """LLVM's ctlz of a uint64: one instruction where the CPU has one, a short sequence elsewhere."""

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


@intrinsic
def unlikely(typingctx, condition):
    """A condition LLVM is told is almost always false (``llvm.expect``).

    A branch on it stays a branch, which the CPU predicts, instead of being folded into selects
    that would lengthen every card's chain of work by what the branch does.
    """

    def codegen(context, builder, signature, args):
        function = ir.FunctionType(ir.IntType(1), [ir.IntType(1), ir.IntType(1)])
        expect = builder.module.declare_intrinsic("llvm.expect", [ir.IntType(1)], function)
        return builder.call(expect, [args[0], ir.Constant(ir.IntType(1), 0)])

    return types.boolean(types.boolean), codegen


@jit
def highest_bit(x):
    """Index of the highest set bit of a non-zero uint64."""
    return 63 - np.int64(_leading_zeros(x))


def _fast_pdep() -> bool:
    """Whether numba compiles for a CPU with a fast BMI2 ``pdep`` (not AMD before Zen 3, where it is microcode)."""
    name = numba.config.CPU_NAME or binding.get_host_cpu_name()
    features = numba.config.CPU_FEATURES or binding.get_host_cpu_features().flatten()
    return "+bmi2" in features.split(",") and name not in ("generic", "znver1", "znver2")


@intrinsic
def _deposit(typingctx, source, mask):
    """BMI2 ``pdep``: the low bits of ``source`` deposited, in order, at the set bits of ``mask``."""

    def codegen(context, builder, signature, args):
        function = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        return builder.call(builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=function), args)

    return types.uint64(types.uint64, types.uint64), codegen


@jit
def nth_card_by_deposit(mask, n):
    """The ``n``-th lowest (0-based) card id of a mask, in three instructions (CPUs with fast ``pdep``)."""
    return lowest_bit(_deposit(ONE << np.uint64(n), mask))


@jit
def nth_card_by_loop(mask, n):
    """The ``n``-th lowest (0-based) card id of a mask, clearing the lower bits one at a time (any CPU)."""
    for _ in range(n):
        mask &= mask - ONE
    return lowest_bit(mask)


# Choosing a random legal card is the play's hottest step: pdep halves it where it is fast.
nth_card = nth_card_by_deposit if _fast_pdep() else nth_card_by_loop


@jit
def lane(hand, suit):
    """The 16-bit lane of one suit of a hand, as uint64."""
    return (hand >> np.uint64(16 * suit)) & LANE_MASK


@jit
def strengths(mask):
    """The strengths present in any suit of a mask: its four lanes ORed (bit i: some card of strength i)."""
    return (mask | mask >> np.uint64(16) | mask >> np.uint64(32) | mask >> np.uint64(48)) & LANE_MASK
