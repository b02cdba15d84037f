"""The registry of bots by name, :data:`BOTS`, and :func:`play_game`, which records what
they play.

The bots themselves: :class:`~gnoming_rules.play.simple.RandomBot` and
:class:`~gnoming_rules.play.simple.GreedyBot` (:mod:`~gnoming_rules.play.simple`, named
here too), and :class:`~gnoming_rules.play.search.SearchBot`, which plans (determinized
Monte Carlo search over the round, from its observation alone). Each sees only its seat's
observation (the :class:`Bot` protocol). This module sits above all of them: it imports
the bots and the search, and none of them imports it. A game is played by the one game
loop, :func:`~gnoming_rules.play.loop.play_out`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, Literal

from ..core.engine import new_game
from ..core.errors import UsageError
from ..core.moves import Move
from ..core.ruleset import Ruleset
from ..core.state import Phase, State
from ..formats.record import Record
from .ismcts import IsmctsBot
from .loop import MOVE_LIMIT, Bot, StopGame, play_out, seat_bots
from .recorder import Recorder
from .search import SearchBot
from .simple import GreedyBot, RandomBot, average_card, estimate, worst_unknown

BotKind = Literal["random", "greedy", "search", "ismcts"]

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus")
"""Default player names (labels only)."""


SEARCH_SIMULATIONS = 200
"""The playouts a decision of the registry's ``search`` bot runs: a budget in playouts, so
that a seeded game replays exactly (about what 50 ms a decision ran on a loaded 2-core
machine with the compiled core: benchmarks/bots.py measures it)."""


ISMCTS_ITERATIONS = 200
"""The iterations (sampled worlds, each a playout) a decision of the registry's ``ismcts``
bot runs: a budget in iterations, so that a seeded game replays exactly."""


def _search_bot(rng: random.Random, budget: int = SEARCH_SIMULATIONS) -> Bot:
    return SearchBot(seed=rng.getrandbits(64), simulations=budget)


def _ismcts_bot(rng: random.Random, budget: int = ISMCTS_ITERATIONS) -> Bot:
    return IsmctsBot(seed=rng.getrandbits(64), iterations=budget)


BOTS: Mapping[str, Callable[[random.Random], Bot]] = MappingProxyType(
    {"random": RandomBot, "greedy": GreedyBot, "search": _search_bot, "ismcts": _ismcts_bot}
)
"""The bots by name, each made from the generator it draws its choices from: the one
registry that ``gnoming play --bot``, ``gnoming impact --bots``, the Gymnasium
environment's ``bots`` and a server's bot seats read. ``search`` is
:class:`~gnoming_rules.play.search.SearchBot` with :data:`SEARCH_SIMULATIONS` a move, and
``ismcts`` :class:`~gnoming_rules.play.ismcts.IsmctsBot` with :data:`ISMCTS_ITERATIONS`."""


BUDGETED: Mapping[str, Callable[[random.Random, int], Bot]] = MappingProxyType(
    {"search": _search_bot, "ismcts": _ismcts_bot}
)
"""The bots of :data:`BOTS` that take a budget a decision, named ``NAME:BUDGET``
(``search:400``: 400 playouts a decision; ``ismcts:100``: 100 iterations): a budget in
steps, not in time, so that a seeded game replays exactly on any machine. ``NAME:200``
plays as ``NAME`` does (the same budget, drawn from the generator the same way)."""

MAX_BUDGET: Final = 1_000_000
"""The largest budget ``NAME:BUDGET`` takes (a million playouts a decision: minutes)."""


def builtin_bot(text: str) -> tuple[str, int | None] | None:
    """``text`` as a built-in bot: its name and budget (``None``: the registry's), or
    ``None`` when ``text`` names no built-in bot (``greedy`` -> ``("greedy", None)``,
    ``search:400`` -> ``("search", 400)``, ``greedy:3`` or ``search:0`` -> ``None``)."""
    if text in BOTS:
        return text, None
    name, colon, budget = text.partition(":")
    if not colon or name not in BUDGETED or not budget.isdigit() or len(budget) > 7:
        return None
    steps = int(budget)
    return (name, steps) if 1 <= steps <= MAX_BUDGET else None


def bot_names() -> str:
    """The built-in bots as an error message lists them."""
    budgeted = " or ".join(f"{name}:BUDGET" for name in BUDGETED)
    return f"{', '.join(BOTS)}, or {budgeted} (steps a decision)"


def make_bot(kind: str, rng: random.Random) -> Bot:
    """A bot of ``kind`` (a name of :data:`BOTS`, or ``NAME:BUDGET`` for one of
    :data:`BUDGETED`) drawing its choices from ``rng``."""
    found = builtin_bot(kind)
    if found is None:
        raise ValueError(f"unknown bot {kind!r}: {bot_names()}")
    name, budget = found
    if budget is None:
        return BOTS[name](rng)
    return BUDGETED[name](rng, budget)


def play_game(
    ruleset: Ruleset,
    players: int,
    *,
    seed: int,
    bot: BotKind = "greedy",
    names: Sequence[str] | None = None,
    first_player: int | None = None,
    ruleset_ref: str | dict[str, object] | None = None,
    claims: bool = True,
    rounds: int | None = None,
    agents: Mapping[int, Bot] | None = None,
    watch: Callable[[Move, State], None] | None = None,
) -> tuple[Record, State]:
    """Play a whole game with bots and return its record and the final state.

    Everything follows from ``seed``: the seat that starts (unless ``first_player`` is
    given), every deal and reshuffle and every bot choice. ``rounds`` stops after that
    many rounds (an incomplete record); by default the game is played to the end.
    ``agents`` gives some seats a player of their own (a person at the terminal, another
    bot) instead of ``bot``; one that raises :class:`StopGame` ends the game there.
    ``watch(move, after)`` is told every move as it is made (to show the game as it goes).

    Example::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.play import play_game
        >>> from gnoming_rules.referee import validate_record
        >>> rules = gr.load_ruleset("standard")
        >>> record, final = play_game(rules, players=3, seed=7)
        >>> record.players, len(record.rounds), final.is_over
        (['Ana', 'Bo', 'Cy'], 3, True)
        >>> verdict = validate_record(record)
        >>> verdict.valid, verdict.totals == final.totals
        (True, True)
    """
    chance = random.Random(seed)
    choices = random.Random(chance.getrandbits(64))
    seats = list(names) if names is not None else default_names(players)
    start = first_player if first_player is not None else chance.randrange(players)
    state = new_game(ruleset, players, start)
    recorder = Recorder(ruleset, seats, start, ruleset_ref=ruleset_ref, claims=claims)
    stop_after = ruleset.compiled.rounds if rounds is None else rounds

    def hook(_before: State, move: Move, after: State) -> None:
        recorder.add(move, after)
        if watch is not None:
            watch(move, after)

    def too_long(state: State) -> UsageError:
        return UsageError(
            "bot-stuck",
            f"seed {seed}: the game did not end within {MOVE_LIMIT} moves (stopped in round "
            f"{state.round}; some variants allow a round that no legal move can end)",
        )

    state = play_out(
        ruleset,
        state,
        chance,
        seat_bots(ruleset, dict(agents or {}), make_bot(bot, choices)),
        hook=hook,
        until=lambda state: state.phase is Phase.DEAL and state.round >= stop_after,
        limit=MOVE_LIMIT,
        too_long=too_long,
    )
    return recorder.record(), state


def default_names(players: int) -> list[str]:
    """``Ana``, ``Bo``, ... for the first seven seats, then ``P8``, ``P9``, ..."""
    return [NAMES[seat] if seat < len(NAMES) else f"P{seat + 1}" for seat in range(players)]


__all__ = [
    "BOTS",
    "BUDGETED",
    "ISMCTS_ITERATIONS",
    "MAX_BUDGET",
    "MOVE_LIMIT",
    "SEARCH_SIMULATIONS",
    "Bot",
    "BotKind",
    "GreedyBot",
    "RandomBot",
    "StopGame",
    "average_card",
    "bot_names",
    "builtin_bot",
    "default_names",
    "estimate",
    "make_bot",
    "play_game",
    "worst_unknown",
]
