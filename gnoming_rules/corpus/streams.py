"""Named random streams, and the chance of games whose deals must repeat exactly.

Paired games (``gnoming impact``) and duplicate deals (``gnoming tournament``) play one
deal several times, with other bots or seats: each round's deal, and each round's
reshuffles, come from a stream of its own, named by the purpose, the seed and the round,
so every replaying of a deal sees the same cards however differently the earlier rounds
went.
"""

from __future__ import annotations

import random

from ..core.state import Phase, State

__all__ = ["RoundChance", "named_stream"]


def named_stream(purpose: str, seed: int, *name: object) -> random.Random:
    """A generator seeded by ``purpose``, ``seed`` and ``name`` (stable across runs and
    processes: a string seed)."""
    return random.Random(f"{purpose}/" + "/".join(str(part) for part in (seed, *name)))


class RoundChance:
    """The generator of a game's chance event: each round's deal from a stream of its
    own, and the round's reshuffles from another (``purpose``/``seed``/deal or
    reshuffle/round)."""

    def __init__(self, purpose: str, seed: int) -> None:
        self.purpose = purpose
        self.seed = seed
        self.reshuffles: random.Random | None = None

    def __call__(self, state: State) -> random.Random:
        if state.phase is Phase.DEAL:
            self.reshuffles = named_stream(self.purpose, self.seed, "reshuffle", state.round)
            return named_stream(self.purpose, self.seed, "deal", state.round)
        assert self.reshuffles is not None
        return self.reshuffles
