"""Mulligans (rule 7): where a held mulligan may go once the layout has the limit of
face-up mulligans. The play's own refusal (``mulligan-limit``) is in
:mod:`~gnoming_rules.core.rules.turn`'s place."""

from __future__ import annotations

from ..cards import MULLIGAN
from ..compiled import CompiledRules
from ..state import State


def mulligan_slots(rules: CompiledRules, state: State, seat: int) -> list[int] | None:
    """Where a held mulligan may go when the limit is reached (rule 7.2), else ``None``.

    At the limit, a mulligan may only replace one of the layout's face-up mulligans.
    One of the engine's rule steps (not in ``__all__``).
    """
    layout, up = state.cards[seat], state.face_up[seat]
    up_mulligans = [s for s, card in enumerate(layout) if card == MULLIGAN and up >> s & 1]
    return up_mulligans if len(up_mulligans) >= rules.max_mulligans else None


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
