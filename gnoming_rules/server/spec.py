"""What a new table is made of: the request that creates it, checked (:func:`read_spec`).

``POST /tables`` takes a JSON object::

    {"ruleset": "standard",              # a bundled name, or an inline ruleset (a mapping)
     "seats": [{"name": "Ana"},          # a seat for a person
               {"name": "Bo", "bot": "greedy"},
               {"bot": "random"}],
     "move_seconds": 30,                 # optional: per-move time control
     "default_bot": "greedy",            # optional: who moves for a person out of time
     "first_player": 0}                  # optional: default, chosen at random

A seat's bot is a built-in one (:data:`BUILTIN_BOTS`) or the label of an external bot
that the server's operator registered (``gnoming serve --bot LABEL=COMMAND``): a client
picks a bot by name among those, and never names a command, so no request makes the
server run a program of the client's choosing. ``default_bot`` is a built-in one.

A ruleset named by a remote client is a bundled name or inline data: the server reads no
file on a client's say (``files="none"``; an inline ruleset may extend a bundled one).
Anything else raises :class:`~gnoming_rules.core.errors.Refusal` (``bad-request``)
naming the field.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from ..core.errors import GnomingError, Refusal, one_line
from ..core.fields import field_path
from ..core.ruleset import Ruleset
from ..formats.rulesets import load_ruleset
from ..play.bots import default_names

__all__ = ["BUILTIN_BOTS", "MAX_MOVE_SECONDS", "TableSpec", "read_spec"]

MAX_MOVE_SECONDS = 24 * 3600.0
"""The longest per-move time a table may ask for (a day)."""

BotName = Literal["random", "greedy"]

BUILTIN_BOTS: Final = ("random", "greedy")
"""The built-in bots a client may seat (the registry's quick ones: a server's bots share
its workers)."""


class _Seat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = Field(default=None, min_length=1, max_length=40)
    bot: str | None = None  # checked by read_spec against the names allowed, which it lists


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    ruleset: str | dict[str, Any] = "standard"
    seats: list[_Seat] = Field(min_length=1, max_length=64)
    move_seconds: float | None = Field(default=None, gt=0, le=MAX_MOVE_SECONDS)
    default_bot: BotName = "greedy"
    first_player: int | None = Field(default=None, ge=0)


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table's checked specification, as stored (:meth:`to_dict`) and read back."""

    ruleset_ref: str | dict[str, Any]
    names: list[str]
    bots: list[str | None]
    """Each seat's bot: a name of :data:`BUILTIN_BOTS`, a registered external bot's
    label, or ``None`` for a person."""
    move_seconds: float | None
    default_bot: BotName
    first_player: int

    @property
    def players(self) -> int:
        return len(self.names)

    def to_dict(self) -> dict[str, Any]:
        """The specification as JSON data, which :func:`read_spec` reads back."""
        return {
            "ruleset": self.ruleset_ref,
            "seats": [
                {"name": name, "bot": bot} for name, bot in zip(self.names, self.bots, strict=True)
            ],
            "move_seconds": self.move_seconds,
            "default_bot": self.default_bot,
            "first_player": self.first_player,
        }


def read_spec(data: object, external: Collection[str] = ()) -> tuple[TableSpec, Ruleset]:
    """The table ``data`` asks for, and its ruleset; raises ``Refusal`` (``bad-request``,
    or the ruleset's own code) saying what is wrong. A seat's bot is a name of
    :data:`BUILTIN_BOTS` or one of the ``external`` bots' labels (the server's own
    registered bots); anything else is refused with the names allowed."""
    try:
        request = _Request.model_validate(data)
    except PydanticValidationError as error:
        problem = error.errors()[0]
        where = field_path(problem["loc"]) or "(the request)"
        raise Refusal("bad-request", f"{where}: {one_line(problem['msg'], 200)}") from None
    allowed = (*BUILTIN_BOTS, *(label for label in external if label not in BUILTIN_BOTS))
    for index, seat in enumerate(request.seats):
        if seat.bot is not None and seat.bot not in allowed:
            names = ", ".join(repr(name) for name in allowed)
            raise Refusal(
                "bad-request",
                f"seats[{index}].bot: no bot {one_line(seat.bot, 40)!r} at this server: "
                f"one of {names}",
            )
    try:
        ruleset = load_ruleset(request.ruleset, files="none")
    except GnomingError as error:
        raise Refusal(error.code, f"ruleset: {error.message}") from None
    players = len(request.seats)
    low, high = ruleset.players.min, ruleset.players.max
    if not low <= players <= high:
        raise Refusal(
            "bad-request", f"seats: {ruleset.name} is for {low} to {high} players, got {players}"
        )
    first = request.first_player
    if first is not None and first >= players:
        raise Refusal("bad-request", f"first_player: {first} is not a seat (0 to {players - 1})")
    defaults = default_names(players)
    spec = TableSpec(
        ruleset_ref=request.ruleset,
        names=[seat.name or defaults[index] for index, seat in enumerate(request.seats)],
        bots=[seat.bot for seat in request.seats],
        move_seconds=request.move_seconds,
        default_bot=request.default_bot,
        first_player=random.SystemRandom().randrange(players) if first is None else first,
    )
    return spec, ruleset
