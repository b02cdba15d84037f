"""Adapters to the frameworks people train agents with: PettingZoo, OpenSpiel, Gymnasium.

Install them with the ``rl`` extra (``pip install '.[rl]'`` in a clone). Nothing here is
imported by ``import gnoming_rules``; each framework is imported only by its own module:

- :mod:`gnoming_rules.adapters.actions`: one fixed integer action space per ruleset, the
  mapping both ways to the library's moves and the legal-action mask (numpy only).
- :mod:`gnoming_rules.adapters.encoding`: a seat's view of the table as a flat array.
- :mod:`gnoming_rules.adapters.pettingzoo_env`: a PettingZoo AEC environment, one agent a seat.
- :mod:`gnoming_rules.adapters.openspiel_game`: an OpenSpiel game with explicit chance nodes.
- :mod:`gnoming_rules.adapters.gymnasium_env`: a Gymnasium environment, one seat against bots.
"""

__all__: list[str] = []
