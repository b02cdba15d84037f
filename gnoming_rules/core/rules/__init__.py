"""The rules of play, one module per part of the rule book (docs/rules.md).

:mod:`~gnoming_rules.core.engine` keeps the public API (``apply``, ``legal_moves``,
``explain``, ...) and the dispatch table ``HANDLERS``; the handlers of the moves and the
rule steps they share live here:

- ``setup``: the deal and the setup reveals (rule 3);
- ``turn``: draw, place and discard (rule 4);
- ``bouncing``: the bounce chain (rule 5);
- ``hazards``: the flips a hazard's discard owes, and the flip (rule 6);
- ``mulligans``: where a mulligan may go at the limit (rule 7);
- ``lines``: the removal of complete lines (rule 10.6);
- ``round_end``: the end of a turn and of a round, its scores, the game's end and the
  reshuffle (rules 8, 2.2, 10.8);
- ``checks``: the checks and small steps the handlers share (RECORD's order of checks).

The handlers and rule steps build the next State with its fields passed by position
(``State._fields`` gives their order): compiled, a direct call of the native class's
constructor, where ``State.replace`` takes keywords and runs through a dict. The modules
are compiled with the engine (docs/architecture.md, "The compiled core") and call each
other directly.
"""

from .round_end import round_scores

__all__ = ["round_scores"]
