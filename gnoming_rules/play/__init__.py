"""Play: bots, the recorder that writes a record while a game is played, a seat's
observation and the text rendering of the table.

This package exports the bots (``Bot``, ``BotKind``, ``RandomBot``, ``GreedyBot``,
``play_game``), the ``Recorder`` and a seat's view (``observe``, ``Observation``); the
view as JSON data is imported from ``gnoming_rules.play.observation_json``."""

from .bots import Bot, BotKind, GreedyBot, RandomBot, play_game
from .observation import Observation, observe
from .recorder import Recorder

__all__ = [
    "Bot",
    "BotKind",
    "GreedyBot",
    "Observation",
    "RandomBot",
    "Recorder",
    "observe",
    "play_game",
]
