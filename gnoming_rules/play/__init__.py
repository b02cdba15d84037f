"""Play: bots, the recorder that writes a record while a game is played, a seat's
observation and the text rendering of the table.

This package exports the bots (``Bot``, ``BotKind``, ``RandomBot``, ``GreedyBot``, the
registry ``BOTS``, ``play_game``), the one game loop (``step``, ``play_out``), the
``Recorder`` and a seat's view (``observe``, ``Observation``); the view as JSON data is
imported from ``gnoming_rules.play.observation_json``."""

from .bots import BOTS, Bot, BotKind, GreedyBot, RandomBot, play_game
from .loop import play_out, step
from .observation import Observation, observe
from .recorder import Recorder

__all__ = [
    "BOTS",
    "Bot",
    "BotKind",
    "GreedyBot",
    "Observation",
    "RandomBot",
    "Recorder",
    "observe",
    "play_game",
    "play_out",
    "step",
]
