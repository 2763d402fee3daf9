"""Bidding strategies: the contract (``base``), the registry of names (``registry``), the shipped heuristics."""
