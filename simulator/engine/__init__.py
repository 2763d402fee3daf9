"""Runs: chunks of deals, seating, the bidding loop, tallies, traces, backends, checkpoints, games, training, advice."""
