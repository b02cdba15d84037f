"""A record's models built from plain data in bounded memory, whatever the data holds.

A YAML record, and a large JSON one, is first read as plain data (dicts, lists, numbers),
then checked by the record's pydantic models. Done in one call, that check holds a second
copy of every move while it runs, and, for a hostile input, one error per bad value: a
record of a million malformed moves made pydantic hold a million errors, several GB, to
report the first hundred. :func:`build_bounded` gives the same record, or the same
problems (the first :data:`~gnoming_rules.core.errors.MAX_PROBLEMS` in document order,
and their exact count), while holding:

- one copy of the moves: each round's moves are checked a few hundred at a time, each
  checked batch taking the place of its plain dicts in the same list;
- a bounded number of errors: each round and each batch of moves is checked alone, which
  counts its errors; the problems are then listed by checking, in one call, a copy of the
  record that keeps only the first faulty rounds and moves (enough of them for the
  listing, their places mapped back), as a round's and a move's errors depend on
  nothing outside them;
- at most ``MAX_PROBLEMS`` unknown fields of one mapping (each is one problem, listed
  after the mapping's own fields: the rest are only counted).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter
from pydantic import ValidationError as PydanticValidationError
from pydantic_core import ErrorDetails

from ..core.errors import MAX_PROBLEMS

__all__ = ["BATCH", "RecordModels", "build_bounded", "no_cycle_collection"]

BATCH = 2048
"""Values checked in one call (a move's fields and the cards of its list count one each):
a batch of malformed moves holds a few MB of errors at most."""

Model = TypeVar("Model", bound=BaseModel)


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector while plain data or its models are built: they form
    no cycles, and a million new containers would set off collections over all the others
    (reading a large document took three times as long)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@dataclass(frozen=True, kw_only=True)
class RecordModels(Generic[Model]):
    """The models of one kind of record, and how its problems are reported."""

    record: TypeAdapter[Model]
    round: TypeAdapter[BaseModel]
    moves: TypeAdapter[list[Any]]
    """A list of the record's move entries."""
    mappings: Mapping[str, Collection[str]]
    """The fields of each kind of mapping (``record``, ``round``, ``start``, ``result``,
    ``move``), whose unknown fields past ``MAX_PROBLEMS`` are only counted."""
    has_fields: Callable[[dict[str, Any]], bool]
    """Whether each unknown field of a move is a problem (its ``action`` is known)."""
    refusal: Callable[[list[ErrorDetails], int], Exception]
    """The error to raise for the first problems (pydantic's details) and their count."""


def build_bounded(document: object, models: RecordModels[Model]) -> Model:
    """The record ``document`` (plain data, which this consumes) holds, as
    ``models.record.validate_python(document)`` would give it; else raises
    ``models.refusal`` of the problems that call would report, and their count."""
    if not isinstance(document, dict):
        return _whole(document, models, 0)
    dropped = _trim(document, models.mappings["record"])
    result = document.get("result")
    if isinstance(result, dict):
        dropped += _trim(result, models.mappings["result"])
    rounds = document.get("rounds")
    if not isinstance(rounds, list):
        return _whole(document, models, dropped)
    document["rounds"] = []
    checked = [_check_round(round_, models) for round_ in rounds]
    del rounds
    total = dropped + sum(round_.faults + round_.dropped for round_ in checked)
    try:
        record = models.record.validate_python(document)
    except PydanticValidationError as error:
        total += error.error_count()
    else:
        if total == 0:
            return record.model_copy(update={"rounds": [round_.built for round_ in checked]})
    raise _listed(document, checked, models, total)


class _Round:
    """One round checked alone: its model (moves included) when it has no fault, else its
    count of faults and the first faulty moves (their places in the round)."""

    __slots__ = ("built", "data", "dropped", "faults", "moves", "noted", "shown")

    def __init__(self, data: object) -> None:
        self.data = data
        self.built: BaseModel | None = None
        self.faults = 0
        """The round's problems, its moves' included (the unknown fields dropped apart)."""
        self.dropped = 0
        self.moves: list[Any] | None = None
        self.shown: list[int] = []
        """The places of the faulty moves kept for the listing, in order."""
        self.noted = 0
        """The problems of the moves in :attr:`shown`."""


def _check_round(data: object, models: RecordModels[Any]) -> _Round:
    checked = _Round(data)
    if not isinstance(data, dict):
        checked.faults = _faults(models.round, data)
        return checked
    checked.dropped = _trim(data, models.mappings["round"])
    start = data.get("start")
    if isinstance(start, dict):
        checked.dropped += _trim(start, models.mappings["start"])
    moves = data.get("moves")
    if isinstance(moves, list):
        checked.moves = moves
        data["moves"] = []
        _check_moves(moves, checked, models)
    try:
        skeleton = models.round.validate_python(data)
    except PydanticValidationError as error:
        checked.faults += error.error_count()
        return checked
    if checked.faults == 0 and checked.dropped == 0:
        checked.built = skeleton.model_copy(update={"moves": moves})
    return checked


def _check_moves(moves: list[Any], checked: _Round, models: RecordModels[Any]) -> None:
    """Check ``moves`` batch by batch, each good batch taking its plain dicts' place while
    the round has no fault; count the faults into ``checked`` and note its first faulty
    moves."""
    adapter = models.moves
    for start, end in _batches(moves, checked, models):
        batch = moves[start:end]
        try:
            valid = adapter.validate_python(batch)
        except PydanticValidationError as error:
            checked.faults += error.error_count()
            if checked.noted < MAX_PROBLEMS:
                _note_faulty(batch, start, checked, adapter)
            continue
        if checked.faults == 0 and checked.dropped == 0:  # the round may still be built
            moves[start:end] = valid


def _batches(
    moves: list[Any], checked: _Round, models: RecordModels[Any]
) -> Iterator[tuple[int, int]]:
    """The batches of ``moves`` (start, end), each of about :data:`BATCH` values, a move's
    unknown fields past ``MAX_PROBLEMS`` dropped (and counted into ``checked``) first."""
    fields = models.mappings["move"]
    most = len(fields) + MAX_PROBLEMS
    start, weight = 0, 0
    for index, move in enumerate(moves):
        if type(move) is dict:
            if len(move) > most and models.has_fields(move):
                checked.dropped += _trim(move, fields)
            cards = move.get("cards")
            weight += len(move) + (len(cards) if type(cards) is list else 0)
        weight += 1  # the move itself (an empty mapping is one problem too)
        if weight >= BATCH:
            yield start, index + 1
            start, weight = index + 1, 0
    if start < len(moves):
        yield start, len(moves)


def _note_faulty(
    batch: list[Any], start: int, checked: _Round, adapter: TypeAdapter[list[Any]]
) -> None:
    """Note the faulty moves of ``batch`` (at ``start`` in the round) until the moves
    noted hold ``MAX_PROBLEMS`` problems."""
    for offset, move in enumerate(batch):
        faults = _faults(adapter, [move])
        if faults:
            checked.shown.append(start + offset)
            checked.noted += faults
            if checked.noted >= MAX_PROBLEMS:
                return


def _faults(adapter: TypeAdapter[Any], data: object) -> int:
    try:
        adapter.validate_python(data)
    except PydanticValidationError as error:
        return error.error_count()
    return 0


def _whole(document: object, models: RecordModels[Model], dropped: int) -> Model:
    """``document`` checked in one call (it holds no list of rounds to check apart)."""
    try:
        return models.record.validate_python(document)
    except PydanticValidationError as error:
        details = error.errors(include_url=False)[:MAX_PROBLEMS]
        raise models.refusal(details, error.error_count() + dropped) from None


def _trim(mapping: dict[Any, Any], fields: Collection[str]) -> int:
    """Drop the unknown fields of ``mapping`` past its first ``MAX_PROBLEMS``: each is one
    problem, listed after the mapping's own fields and the unknown ones before it, so the
    listing never reaches them. Returns how many were dropped."""
    if len(mapping) <= len(fields) + MAX_PROBLEMS:
        return 0
    unknown = [key for key in mapping if key not in fields]
    for key in unknown[MAX_PROBLEMS:]:
        del mapping[key]
    return max(0, len(unknown) - MAX_PROBLEMS)


def _listed(
    document: dict[str, Any], checked: list[_Round], models: RecordModels[Any], total: int
) -> Exception:
    """``models.refusal`` of the problems: the record checked once more in one call,
    holding only its first faulty rounds and, of each, its first faulty moves (enough for
    the listing), their places mapped back to the whole record's; ``total`` counts all."""
    kept: list[int] = []
    listed = 0
    for index, round_ in enumerate(checked):
        if round_.faults + round_.dropped and listed < MAX_PROBLEMS:
            kept.append(index)
            listed += round_.faults + round_.dropped
            if round_.moves is not None and isinstance(round_.data, dict):
                round_.data["moves"] = [round_.moves[place] for place in round_.shown]
    document["rounds"] = [checked[index].data for index in kept]
    try:
        models.record.validate_python(document)
    except PydanticValidationError as error:
        details = error.errors(include_url=False)[:MAX_PROBLEMS]
    else:  # pragma: no cover - a faulty round or record is kept, so this check fails
        raise AssertionError("a faulty record passed its listing check") from None
    return models.refusal([_mapped(detail, kept, checked) for detail in details], total)


def _mapped(detail: ErrorDetails, kept: list[int], checked: list[_Round]) -> ErrorDetails:
    """``detail`` with its round's and its move's places in the whole record."""
    loc = list(detail["loc"])
    if len(loc) >= 2 and loc[0] == "rounds" and isinstance(loc[1], int):
        round_ = checked[kept[loc[1]]]
        loc[1] = kept[loc[1]]
        if len(loc) >= 4 and loc[2] == "moves" and isinstance(loc[3], int):
            loc[3] = round_.shown[loc[3]]
    detail["loc"] = tuple(loc)
    return detail
