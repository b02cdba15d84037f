"""Writing a game down as it is played: a :class:`Recorder` turns moves into a :class:`Record`.

Feed it every move given to :func:`~gnoming_rules.core.engine.apply` (deals and reshuffles
included) with the state that followed; :meth:`Recorder.record` then gives a record that
the validator accepts. It always names the rules by ``ruleset_sha256``. With
``claims=True`` (the default) it also writes what the table saw: each move's ``card``
(the drawn card, the displaced card of a place or bounce, the card a reveal or flip
turns up: docs/decisions.md, record reading 1), each round's ``scores`` and the
``result``, so that a hand edit of any of them is caught.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.entries import card_claim, move_to_entry
from ..core.moves import Deal, Move
from ..core.ruleset import Ruleset
from ..core.state import State
from ..formats.record import FORMAT, Record
from ..formats.rulesets import bundled_rulesets, load_ruleset


class Recorder:
    """Collects a game's moves into a ``gnoming-record/1`` record."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: Sequence[str],
        first_player: int,
        *,
        ruleset_ref: str | Mapping[str, Any] | None = None,
        claims: bool = True,
    ) -> None:
        """``ruleset_ref`` is what the record's ``ruleset`` field says; by default the
        bundled name when ``ruleset`` is a bundled ruleset, else the whole ruleset inline."""
        self.ruleset = ruleset
        self.players = list(players)
        self.first_player = first_player
        self.ruleset_ref = ruleset_ref if ruleset_ref is not None else default_reference(ruleset)
        self.claims = claims
        self._rounds: list[dict[str, Any]] = []
        self._result: dict[str, Any] | None = None
        self._last: State | None = None
        """The state the last move left: a card turned up that left with its line (rule
        10.6) is read from it."""

    def add(self, move: Move, after: State) -> None:
        """Write down ``move``; ``after`` is the state :func:`apply` returned for it."""
        before, self._last = self._last, after
        if isinstance(move, Deal):
            self._rounds.append({"deal": list(move.cards), "moves": []})
            return
        if not self._rounds:
            raise ValueError("a record starts with a deal")
        current = self._rounds[-1]
        claim = card_claim(move, after, before) if self.claims else None
        current["moves"].append(move_to_entry(move, claim))
        finished = len(after.scores)
        if self.claims and finished == len(self._rounds):
            current["scores"] = list(after.scores[-1])
        if self.claims and after.is_over:
            self._result = {"totals": list(after.totals), "winners": list(after.winners)}

    def record(self) -> Record:
        """The record of the moves so far (a game stopped early gives a valid, incomplete one)."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset_ref,
            "ruleset_sha256": self.ruleset.sha256,
            "players": self.players,
            "first_player": self.first_player,
            "rounds": self._rounds,
        }
        if self._result is not None:
            data["result"] = self._result
        return Record.model_validate(data)


def default_reference(ruleset: Ruleset) -> str | dict[str, Any]:
    """The bundled name of ``ruleset`` if it is one unchanged, else the ruleset inline."""
    if ruleset.name in bundled_rulesets():
        bundled = load_ruleset(ruleset.name)
        if bundled.sha256 == ruleset.sha256:
            return ruleset.name
    return ruleset.data()


__all__ = [
    "Recorder",
]
