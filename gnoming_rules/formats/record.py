"""Game records (``gnoming-record/1``, docs/record-format.md): models, reading, writing.

A record is parsed in one pass by pydantic (its Rust core reads JSON bytes directly),
strictly: integers are integers, unknown fields are refused, faces are ``int`` (0 included),
``"H"`` or ``"M"``. Moves are typed dictionaries rather than model objects, because a
record holds hundreds of them and a validator replays thousands of records: a dict costs
less to build, and the validator turns each distinct move into a shared engine move.

A record is a full one (:class:`Record`, every card dealt) or, with ``information:
public``, a public-information one (:class:`PublicRecord`: only what the table saw, the
form a person writes at a real table); :func:`parse_record` reads either.

Every problem becomes a :class:`~gnoming_rules.core.errors.RecordError` with code
``bad-record`` and a message that starts with the path of the offending field, e.g.
``rounds[1].moves[7].slot: must be an integer, got "4"``. YAML is read by
:mod:`~gnoming_rules.formats.safe_yaml` (no aliases, no "billion laughs"), and inputs over
:data:`MAX_RECORD_BYTES` are refused before parsing.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Final, Literal, TypeAlias, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, TypeAdapter
from pydantic import ValidationError as PydanticValidationError
from pydantic.annotated_handlers import GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, ErrorDetails, core_schema, from_json

from ..core.entry_check import COMPILED as FAST_ENTRY_CHECK
from ..core.entry_check import FULL_FORMS, PUBLIC_FORMS, EntryForms
from ..core.entry_forms import (
    ACTIONS,
    BounceEntry,
    CardFace,
    DiscardEntry,
    DrawEntry,
    FlipEntry,
    Int64,
    MoveEntry,
    Pile,
    PlaceEntry,
    PublicDrawEntry,
    PublicFlipEntry,
    PublicMoveEntry,
    PublicReshuffleEntry,
    PublicRevealEntry,
    ReshuffleEntry,
    RevealEntry,
    Seat,
    field_problem,
)
from ..core.errors import (
    MAX_PROBLEMS,
    DuplicateKeyError,
    RecordError,
    RecordProblem,
    UnreadableYamlError,
    one_line,
    quoted,
    quoted_key,
)
from ..core.fields import StrictModel, field_path
from ..core.ruleset import MAX_DECK, MAX_PILES, MAX_PLAYERS, MAX_ROUNDS
from .bounded import RecordModels, build_bounded, no_cycle_collection
from .reading import read_regular_file
from .safe_yaml import load_yaml

__all__ = [
    "ACTIONS",
    "FORMAT",
    "MAX_RECORD_BYTES",
    "MAX_YAML_BYTES",
    "PUBLIC_ADAPTER",
    "RECORD_ADAPTER",
    "SCHEMA_ADAPTER",
    "AnyRecord",
    "BounceEntry",
    "CardFace",
    "DiscardEntry",
    "DrawEntry",
    "FlipEntry",
    "Int64",
    "MoveEntry",
    "Pile",
    "PlaceEntry",
    "PublicDrawEntry",
    "PublicFlipEntry",
    "PublicMoveEntry",
    "PublicRecord",
    "PublicReshuffleEntry",
    "PublicRevealEntry",
    "PublicRound",
    "Record",
    "RecordFormat",
    "ReshuffleEntry",
    "Result",
    "RevealEntry",
    "Round",
    "RulesetRef",
    "Seat",
    "Start",
    "dump_record",
    "format_of",
    "parse_record",
    "read_record",
    "record_error_from",
    "write_record",
]

FORMAT = "gnoming-record/1"
"""The value of a record's ``format`` field."""

MAX_YAML_BYTES = 2 * 1024 * 1024
"""Largest YAML record accepted (2 MiB): YAML is read in Python, event by event, about
twenty times slower than JSON, so a larger one is refused unread and any YAML record is
answered within seconds (a whole game written by hand is a few tens of KB)."""

SHAPE_CHECK_BYTES = 256 * 1024
"""A JSON record larger than this (a whole game of 7 players is about 35 KB) is first
read as plain data (fast) to refuse a list no ruleset allows before the record's models
are built (:func:`_refuse_impossible_lengths`), which are then built in bounded memory
(:mod:`~gnoming_rules.formats.bounded`)."""

MAX_JSON_CONTAINERS = 1_000_000
"""Most ``{`` and ``[`` a JSON record may hold, in strings too (counted, not parsed): a
record holds about one a move, and 16 MiB of the shortest moves a game allows is about
half a million; read, a million of them takes at most about 200 MB."""

MAX_DIRECT_ERRORS = 1000
"""A smaller JSON record is read by pydantic straight from its bytes; when that reading
finds more problems than this, the record is read again as plain data, to list the first
of them without building every one (a megabyte of ``{},`` made a third of a million)."""

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""Largest record accepted (16 MiB; a whole standard game of 7 players is about 60 KB).
With it, validating any one record needs well under 1 GiB of memory, JSON or YAML (the
readers take at most about 17 times the input's size: see ``benchmarks/memory.py``)."""

RecordFormat: TypeAlias = Literal["json", "yaml"]

# --- field types (the entries and their fields: core/entry_forms.py) ----------------------


class _RulesetRefSchema:
    """Pydantic metadata for ``ruleset``: a name or path, or an inline mapping."""

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.union_schema(
            [
                core_schema.str_schema(strict=True, min_length=1),
                core_schema.dict_schema(core_schema.str_schema(), core_schema.any_schema()),
            ],
            custom_error_type="ruleset_ref",
            custom_error_message="must name a bundled ruleset, give a path to a ruleset file, "
            "or hold an inline ruleset mapping",
        )

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {
            "description": "A bundled ruleset's name, a path to a ruleset file (relative to the "
            "record's folder), or an inline ruleset mapping (see ruleset.schema.json).",
            "anyOf": [{"type": "string", "minLength": 1}, {"type": "object"}],
        }


RulesetRef = Annotated[str | dict[str, Any], _RulesetRefSchema()]


# --- the record ----------------------------------------------------------------------------


class Round(StrictModel):
    """One round: its deal, its moves, and optionally the claimed scores."""

    deal: list[CardFace] = Field(description="Every card of the deck, top first (rule 3.1).")
    moves: list[MoveEntry] = Field(description="The round's moves and reshuffles, in order.")
    scores: list[Int64] | None = Field(
        default=None, description="Claim: this round's score per seat, 8.6 included."
    )


class Result(StrictModel):
    """The claimed outcome of the game."""

    totals: list[Int64] | None = Field(default=None, description="Claim: each seat's total.")
    winners: list[Seat] | None = Field(
        default=None, description="Claim: the winning seats (compared as a set)."
    )


class Record(StrictModel):
    """A gnoming-record/1 game record (docs/record-format.md) that holds every card dealt."""

    format: Literal["gnoming-record/1"] = Field(description="Exactly gnoming-record/1.")
    information: Literal["full"] = Field(
        default="full", description="full (the default): every card dealt is recorded."
    )
    ruleset: RulesetRef
    ruleset_sha256: (
        Annotated[str, Field(pattern="^[0-9a-f]{64}$", description="SHA-256 of the rules.")] | None
    ) = Field(default=None, description="SHA-256 (hex) of the resolved ruleset's canonical JSON.")
    players: list[str] = Field(min_length=1, description="Seat order; names are labels only.")
    first_player: Seat = Field(
        description="The seat that starts round 0, the first (the youngest)."
    )
    rounds: list[Round]
    result: Result | None = None


class Start(StrictModel):
    """How a round of a public record starts: what the table saw of the deal (rule 3.3)."""

    piles: list[CardFace] = Field(
        description="The faces that started the discard piles, one per pile, in pile order."
    )
    removed: list[CardFace] = Field(
        default_factory=list, description="The hazards removed while starting the piles."
    )


class PublicRound(StrictModel):
    """One round of a public record: its start, its moves, what the table saw at its end."""

    start: Start
    moves: list[PublicMoveEntry] = Field(description="The round's moves, in order.")
    scores: list[Int64] | None = Field(
        default=None, description="Claim: this round's score per seat, 8.6 included."
    )
    final: list[list[CardFace | None]] | None = Field(
        default=None,
        description="Every seat's layout after the end-of-round reveal (8.1), one face per "
        "slot, null for a slot emptied during play (10.6); required once the round finished.",
    )


class PublicRecord(StrictModel):
    """A public-information game record (``information: public``, docs/record-format.md): only what
    the whole table saw, card by card as each became visible; no deal."""

    format: Literal["gnoming-record/1"] = Field(description="Exactly gnoming-record/1.")
    information: Literal["public"] = Field(
        description="public: only what the whole table saw is recorded."
    )
    ruleset: RulesetRef
    ruleset_sha256: (
        Annotated[str, Field(pattern="^[0-9a-f]{64}$", description="SHA-256 of the rules.")] | None
    ) = Field(default=None, description="SHA-256 (hex) of the resolved ruleset's canonical JSON.")
    players: list[str] = Field(min_length=1, description="Seat order; names are labels only.")
    first_player: Seat = Field(description="The seat that starts round 1 (the youngest).")
    rounds: list[PublicRound]
    result: Result | None = None


AnyRecord: TypeAlias = Record | PublicRecord
"""A game record of either kind."""

RECORD_ADAPTER: TypeAdapter[Record] = TypeAdapter(Record)
PUBLIC_ADAPTER: TypeAdapter[PublicRecord] = TypeAdapter(PublicRecord)
SCHEMA_ADAPTER: TypeAdapter[AnyRecord] = TypeAdapter(AnyRecord)
"""Both kinds, for the JSON Schema (``schemas/record.schema.json``)."""


class _Information(BaseModel):
    """Only a record's ``information`` field, to pick the model that reads the rest."""

    model_config = ConfigDict(extra="ignore")
    information: object = "full"


# --- reading -------------------------------------------------------------------------------


def read_record(path: str | Path) -> AnyRecord:
    """Read a record file (JSON, or YAML for ``.yaml``/``.yml``), full or public; raises
    :class:`RecordError`."""
    file = Path(path)
    try:
        data = read_regular_file(file, MAX_RECORD_BYTES)
    except OSError as error:
        reason = error.strerror or str(error)
        raise RecordError("bad-record", f"cannot read {one_line(str(file))}: {reason}") from None
    return parse_record(data, format=format_of(file))


def format_of(path: Path) -> RecordFormat | None:
    """The format a file name says (``.json``, ``.yaml``, ``.yml``), else ``None`` (sniff)."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    return None


def parse_record(data: bytes | str, *, format: RecordFormat | None = None) -> AnyRecord:
    """Parse a record, full or public, from JSON or YAML text; ``format=None`` sniffs
    (``{`` first: JSON).

    Raises :class:`RecordError` (``bad-record``) with the field path; ``round`` and
    ``move`` are set when the bad field is inside a move.
    """
    raw = _utf8(data) if isinstance(data, str) else data
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(
            "bad-record", f"the input is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB"
        )
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if format is None:
        format = "json" if raw.lstrip()[:1] == b"{" else "yaml"
    if format == "yaml" and len(raw) > MAX_YAML_BYTES:
        raise RecordError(
            "bad-record",
            f"a YAML record may be at most {MAX_YAML_BYTES // (1024 * 1024)} MiB (this one is "
            f"{len(raw):,} bytes): write a record this large as JSON",
        )
    if format == "json":
        _refuse_too_many_containers(raw)
    public = False
    try:
        if format == "json":
            public = b'"information"' in raw and _says_public(raw)
            return _read_json(raw, public)
        document = _load_yaml(raw)
        public = isinstance(document, dict) and document.get("information") == "public"
        _refuse_impossible_lengths(document, public)
        return _build(document, public)
    except PydanticValidationError as error:
        problem = record_error_from(error)
        problem.public = public
        raise problem from None
    except RecordError as problem:
        problem.public = public
        raise
    except RecursionError:
        raise RecordError("bad-record", "the input is nested too deeply") from None


def _refuse_too_many_containers(raw: bytes) -> None:
    """Refuse, unread, a JSON document with more ``{`` and ``[`` than
    :data:`MAX_JSON_CONTAINERS`: read, each list or mapping would take 60 to 200 bytes,
    twenty to a hundred times its text (``[],`` or ``{},``)."""
    if len(raw) <= MAX_JSON_CONTAINERS:  # too short to hold more (and counting takes time)
        return
    count = raw.count(b"{") + raw.count(b"[")
    if count > MAX_JSON_CONTAINERS:
        raise RecordError(
            "bad-record",
            f"a JSON record may hold at most {MAX_JSON_CONTAINERS:,} lists and mappings "
            f"(every '{{' and '[' counts, in strings too), this one {count:,}: a record "
            "holds about one a move",
        )


def _build(document: object, public: bool) -> AnyRecord:
    """The record's models from plain data (which this consumes), in bounded memory;
    raises ``bad-record`` with the problems pydantic's one call would report."""
    with no_cycle_collection():
        if public:
            return build_bounded(document, _PUBLIC_MODELS)
        return build_bounded(document, _FULL_MODELS)


def _refusal(details: list[ErrorDetails], total: int) -> RecordError:
    """``bad-record`` listing the first problems (pydantic's) of ``total``."""
    return RecordError.of([_problem(detail) for detail in details], total)


def _fields(union: object) -> frozenset[str]:
    """Every field the move entries of ``union`` (:data:`MoveEntry`, :data:`PublicMoveEntry`)
    declare."""
    entries = get_args(get_args(union)[0])  # Annotated[A | B | ..., Field(...)]
    return frozenset().union(
        *(entry.__required_keys__ | entry.__optional_keys__ for entry in entries)
    )


def _action_known(move: dict[str, Any]) -> bool:
    """Whether each unknown field of a move entry is a problem of its own (pydantic reports
    only the ``action`` of an entry whose action is unknown)."""
    return move.get("action") in ACTIONS


_MAPPINGS: dict[str, frozenset[str]] = {
    "record": frozenset(Record.model_fields) | frozenset(PublicRecord.model_fields),
    "round": frozenset(Round.model_fields) | frozenset(PublicRound.model_fields),
    "start": frozenset(Start.model_fields),
    "result": frozenset(Result.model_fields),
}
_FULL_MODELS: RecordModels[Record] = RecordModels(
    record=RECORD_ADAPTER,
    round=TypeAdapter(Round),
    moves=TypeAdapter(list[MoveEntry]),
    mappings={
        **_MAPPINGS,
        "move": _fields(MoveEntry),
    },
    has_fields=_action_known,
    refusal=_refusal,
)
_PUBLIC_MODELS: RecordModels[PublicRecord] = RecordModels(
    record=PUBLIC_ADAPTER,
    round=TypeAdapter(PublicRound),
    moves=TypeAdapter(list[PublicMoveEntry]),
    mappings={
        **_MAPPINGS,
        "move": _fields(PublicMoveEntry),
    },
    has_fields=_action_known,
    refusal=_refusal,
)


def _json_outline(raw: bytes) -> object:
    """The JSON document as plain data, read by pydantic's own JSON reader (in Rust), or
    ``None`` when it is no JSON object: the model's reader then says why. For a large
    document this is both faster and several times smaller than building the models
    straight from the bytes, whose intermediate form takes about 50 bytes a value."""
    try:
        with no_cycle_collection():
            outline = from_json(raw, cache_strings="all")
    except ValueError:
        return None
    return outline if isinstance(outline, dict) else None


_LONGEST: Final = {
    "rounds": MAX_ROUNDS,
    "deal": MAX_DECK,
    "cards": MAX_DECK,
    "removed": MAX_DECK,
    "players": MAX_PLAYERS,
    "scores": MAX_PLAYERS,
    "totals": MAX_PLAYERS,
    "winners": MAX_PLAYERS,
    "final": MAX_PLAYERS,
    "piles": MAX_PILES,
}
"""The lists of a record whose length no ruleset allows past a bound (rule 2.2, 1.1, 2.1,
3.3): a game has at most 100 rounds, a deck at most 10,000 cards, a table at most 100
seats (a claim holds one number a seat, the winners are seats, and ``final`` one layout
a seat), at most 4 discard piles."""

MOST_SLOTS: Final = 25
"""Most slots of a layout (rule 2.3: at most 5 rows of 5): a ``final`` layout's bound."""


_Place: TypeAlias = tuple[str | int, ...]
_TooLong: TypeAlias = tuple[_Place, int, int]
"""A list past its bound: where, its length, the bound."""


def _refuse_impossible_lengths(document: object, public: bool) -> None:
    """Refuse, before the record's models are built, a list longer than any ruleset allows
    (:data:`_LONGEST`): a hostile record of a million rounds or a deal of millions of cards
    is answered in the time it takes to read, not in the time to build every model. A deal
    is ``bad-deal`` at its round (rule 3.1: it must hold the deck exactly); any other list
    is ``bad-record`` at its path. Moves are not bounded: a round with reshuffles has no
    longest length (:mod:`~gnoming_rules.formats.bounded` checks them a batch at a time)."""
    if not isinstance(document, dict):
        return
    found: list[_TooLong] = []
    for key in ("rounds", "players"):
        _check_length(document.get(key), (key,), found)
    rounds = document.get("rounds")
    for index, round_ in enumerate(rounds if isinstance(rounds, list) else ()):
        if found or not isinstance(round_, dict):
            break
        for key in ("deal", "scores", "final"):
            _check_length(round_.get(key), ("rounds", index, key), found)
        final = round_.get("final")
        for seat, layout in enumerate(final if isinstance(final, list) else ()):
            _check_length(layout, ("rounds", index, "final", seat), found, MOST_SLOTS)
        start = round_.get("start")
        if isinstance(start, dict):
            for key in ("piles", "removed"):
                _check_length(start.get(key), ("rounds", index, "start", key), found)
        moves = round_.get("moves")
        for number, move in enumerate(moves if isinstance(moves, list) else ()):
            if isinstance(move, dict) and isinstance(move.get("cards"), list):
                _check_length(move["cards"], ("rounds", index, "moves", number, "cards"), found)
    result = document.get("result")
    if not found and isinstance(result, dict):
        for key in ("totals", "winners"):
            _check_length(result.get(key), ("result", key), found)
    if not found:
        return
    location, length, most = found[0]
    path = field_path(location)
    round_index, move_index = _move_location(location)
    if location[-1] == "deal":
        message = (
            f"{path}: the deal must hold exactly the whole deck, and no deck holds more "
            f"than {most:,} cards: got {length:,}"
        )
        dealt = location[1] if isinstance(location[1], int) else None
        raise RecordError("bad-deal", message, dealt, None, public=public)
    message = f"{path}: at most {most:,} items, as no ruleset allows more: got {length:,}"
    raise RecordError("bad-record", message, round_index, move_index, public=public)


def _check_length(
    value: object, location: _Place, found: list[_TooLong], most: int | None = None
) -> None:
    if most is None:
        most = _LONGEST[str(location[-1])]
    if isinstance(value, list) and len(value) > most:
        found.append((location, len(value), most))


def _read_json(raw: bytes, public: bool) -> AnyRecord:
    """A JSON record, read by pydantic's own reader (the fastest way), and refused if a
    mapping repeats a key, which JSON readers, pydantic's too, pass silently (the last
    value wins).

    Every key ends with a ``:`` outside any string, so a document with no more colons than
    the record has keys repeats none: then nothing else is read. Otherwise (a colon inside
    a string, or a key given twice), and before any problem of the structure is reported,
    the document is read again with Python's reader, keeping every key, to find out.
    ``public``: the document says ``information: public`` (only a document that holds the
    word is read for that field alone first, by :func:`_says_public`)."""
    adapter: TypeAdapter[Record] | TypeAdapter[PublicRecord] = (
        PUBLIC_ADAPTER if public else RECORD_ADAPTER
    )
    outline = _json_outline(raw) if len(raw) > SHAPE_CHECK_BYTES else None
    try:
        if outline is None:
            fitting = None
            if FAST_ENTRY_CHECK:  # compiled; pure Python reads faster through pydantic
                fitting = _read_fitting(raw, adapter, PUBLIC_FORMS if public else FULL_FORMS)
            record = adapter.validate_json(raw) if fitting is None else fitting
        else:  # a large document: its lengths checked, then its models built from the data
            if raw.count(b":") > _keys_in(outline):  # a key given twice comes first
                _refuse_duplicate_keys(raw)
            _refuse_impossible_lengths(outline, public)
            return _build(outline, public)
    except PydanticValidationError as error:
        if outline is None and error.errors(include_url=False)[0]["type"] != "json_invalid":
            _refuse_duplicate_keys(raw)  # (a large document's keys were counted above)
        if error.error_count() > MAX_DIRECT_ERRORS:  # listed without building them all
            return _build(from_json(raw, cache_strings="all"), public)
        raise
    if raw.count(b":") > _key_count(record):
        _refuse_duplicate_keys(raw)
    return record


def _read_fitting(
    raw: bytes, adapter: TypeAdapter[Record] | TypeAdapter[PublicRecord], forms: EntryForms
) -> AnyRecord | None:
    """The record, when every move entry has exactly its form (the compiled check of
    :mod:`~gnoming_rules.core.entry_check`) and the rest of it reads; else ``None``, and
    pydantic's reading of the whole document says what is wrong (or, for entries whose
    keys come in another order, reads them).

    The document is read as plain data; its moves are checked entry by entry, taken out,
    and the rest is read by the record's own strict models (a round with no moves), into
    whose rounds the checked moves are then put: the same record pydantic's reading of
    the bytes builds, in about half its time (most of which it spends on the entries)."""
    try:
        document = from_json(raw, cache_strings="all")
    except ValueError:
        return None
    rounds = document.get("rounds") if type(document) is dict else None
    if type(rounds) is not list:
        return None
    moves: list[list[object]] = []
    for round_ in rounds:
        entries = round_.get("moves") if type(round_) is dict else None
        if type(entries) is not list or not forms.all_fit(entries):
            return None
        moves.append(entries)
        round_["moves"] = []
    try:
        record = adapter.validate_python(document)
    except PydanticValidationError:
        return None
    checked = [
        round_.model_copy(update={"moves": entries})
        for round_, entries in zip(record.rounds, moves, strict=True)
    ]
    return record.model_copy(update={"rounds": checked})


def _says_public(raw: bytes) -> bool:
    try:
        return _Information.model_validate_json(raw).information == "public"
    except PydanticValidationError:  # not a JSON object: the full model says what is wrong
        return False


def _key_count(record: AnyRecord) -> int:
    """How many keys the record's mappings hold, all of them."""
    count = len(record.model_fields_set) + _keys_in(record.ruleset)
    for round_ in record.rounds:
        count += len(round_.model_fields_set) + sum(map(len, round_.moves))
        if isinstance(round_, PublicRound):
            count += len(round_.start.model_fields_set)
    if record.result is not None:
        count += len(record.result.model_fields_set)
    return count


def _keys_in(value: object) -> int:
    """How many keys the mappings in ``value`` (plain data) hold: only the lists and
    mappings are visited, so a list of millions of numbers costs one pass in C."""
    count = 0
    pending = [value]
    while pending:
        node = pending.pop()
        if type(node) is dict:
            count += len(node)
            node = node.values()
        elif type(node) is not list:
            continue
        pending += [item for item in node if type(item) is dict or type(item) is list]
    return count


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its (key, value) pairs, repeated keys included."""


def _refuse_duplicate_keys(raw: bytes) -> None:
    """Raise ``bad-record`` for the JSON object nearest the top that repeats a key (the
    YAML reader reports the same one)."""
    try:  # numbers dropped: only the keys matter (and any size is read, in little memory)
        tree = json.loads(raw, object_pairs_hook=_Pairs, parse_int=_drop, parse_float=_drop)
    except (ValueError, RecursionError):
        return  # pydantic's reader read it: let its verdict stand
    queue: deque[tuple[tuple[str | int, ...], Any]] = deque([((), tree)])
    while queue:
        location, node = queue.popleft()
        if isinstance(node, _Pairs):
            seen: set[str] = set()
            for key, value in node:
                if key in seen:
                    raise _duplicate_key(location, key)
                seen.add(key)
                if isinstance(value, list):  # a _Pairs too; a scalar holds no key
                    queue.append(((*location, key), value))
        elif isinstance(node, list):  # only the containers: a list of millions of numbers
            queue.extend(  # is walked in a second, not a minute
                ((*location, index), value)
                for index, value in enumerate(node)
                if isinstance(value, list)
            )


def _drop(text: str) -> None:
    return None


def _duplicate_key(location: tuple[str | int, ...], key: str) -> RecordError:
    path = field_path(location)
    round_index, move_index = _move_location(location)
    message = f"{path + ': ' if path else ''}key {quoted_key(key)} given more than once"
    return RecordError("bad-record", message, round_index, move_index)


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate: not Unicode text
        character = ord(text[error.start])
        raise RecordError(
            "bad-record",
            f"not Unicode text: character {error.start} is a lone surrogate (U+{character:04X})",
        ) from None


def _load_yaml(raw: bytes) -> object:
    try:
        return load_yaml(raw)
    except DuplicateKeyError as duplicate:
        raise _duplicate_key(duplicate.location, duplicate.key) from None
    except UnreadableYamlError as problem:
        raise RecordError("bad-record", problem.message) from None


def record_error_from(error: PydanticValidationError) -> RecordError:
    """Every problem of a pydantic error (at most :data:`MAX_PROBLEMS`), as one
    ``bad-record`` :class:`RecordError` located at the first."""
    details = error.errors(include_url=False)
    problems = [_problem(detail) for detail in details[:MAX_PROBLEMS]]
    return RecordError.of(problems, len(details))


def _problem(detail: ErrorDetails) -> RecordProblem:
    """One problem of a pydantic error: its path and message, and the move it lies in."""
    raw = tuple(detail["loc"])
    loc = _strip_tags(raw)
    message = _message(detail)
    if detail["type"] == "union_tag_invalid" or detail["type"] == "union_tag_not_found":
        loc = (*loc, "action")
    path = field_path(loc)
    round_index, move_index = _move_location(loc)
    return RecordProblem(round_index, move_index, f"{path}: {message}" if path else message)


def _strip_tags(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """Drop the discriminator tag pydantic puts after a move's index (``moves.7.reveal.slot``)."""
    kept: list[int | str] = []
    for index, part in enumerate(loc):
        if (
            index >= 2
            and part in ACTIONS
            and isinstance(loc[index - 1], int)
            and loc[index - 2] == "moves"
        ):
            continue
        kept.append(part)
    return tuple(kept)


def _move_location(loc: tuple[int | str, ...]) -> tuple[int | None, int | None]:
    if len(loc) >= 4 and loc[0] == "rounds" and loc[2] == "moves":
        round_index, move_index = loc[1], loc[3]
        if isinstance(round_index, int) and isinstance(move_index, int):
            return round_index, move_index
    return None, None


def _message(error: ErrorDetails) -> str:
    """The record's own cases (the document, its ruleset, ``information``, the hash), else
    the one wording of an entry's and a record's fields (:func:`field_problem`)."""
    kind = error["type"]
    given = error.get("input")
    if not error["loc"] and kind in ("model_type", "dict_type"):
        return f"a record must be a mapping (a JSON object), got {quoted(given)}"
    if kind == "ruleset_ref":
        return f"{error['msg']}, got {quoted(given)}"
    if kind == "literal_error" and tuple(error["loc"]) == ("information",):
        return f"must be full or public, got {quoted(given)}"
    if kind == "string_pattern_mismatch":
        return f"must be 64 lowercase hex digits, got {quoted(given)}"
    return field_problem(error, AnyRecord)


# --- writing -------------------------------------------------------------------------------


def dump_record(record: AnyRecord, format: RecordFormat = "json") -> str:
    """The record as text: one move per line, so that a person can read and edit it."""
    return _dump_json(record) if format == "json" else _dump_yaml(record)


def write_record(
    record: AnyRecord, path: str | Path, *, format: RecordFormat | None = None
) -> None:
    """Write ``record`` to ``path`` (JSON, or YAML for ``.yaml``/``.yml`` or ``format="yaml"``)."""
    file = Path(path)
    text = dump_record(record, format or format_of(file) or "json")
    file.write_text(text, encoding="utf-8")


def move_entry(move: Mapping[str, Any]) -> dict[str, Any]:
    """A move entry without the optional fields that are unset (``None``), as written.

    One of the writer's steps (not in ``__all__``).
    """
    return {key: value for key, value in move.items() if value is not None}


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _start(round_: Round | PublicRound) -> tuple[str, object]:
    """The round's first field: ``deal`` in a full record, ``start`` in a public one (its
    ``removed`` left out when empty, as a person would write it)."""
    if isinstance(round_, Round):
        return "deal", round_.deal
    start = round_.start
    return "start", {"piles": start.piles, **({"removed": start.removed} if start.removed else {})}


def _ending(round_: Round | PublicRound) -> list[tuple[str, object]]:
    """The round's fields after its moves: the claimed ``scores``, a public ``final``."""
    fields: list[tuple[str, object]] = []
    if round_.scores is not None:
        fields.append(("scores", round_.scores))
    if isinstance(round_, PublicRound) and round_.final is not None:
        fields.append(("final", round_.final))
    return fields


def _dump_json(record: AnyRecord) -> str:
    lines = ["{", f'  "format": {_compact(record.format)},']
    if isinstance(record, PublicRecord):
        lines.append(f'  "information": {_compact(record.information)},')
    if isinstance(record.ruleset, str):
        lines.append(f'  "ruleset": {_compact(record.ruleset)},')
    else:
        inline = json.dumps(record.ruleset, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        lines.append(f'  "ruleset": {inline},')
    if record.ruleset_sha256 is not None:
        lines.append(f'  "ruleset_sha256": {_compact(record.ruleset_sha256)},')
    lines.append(f'  "players": {_compact(record.players)},')
    lines.append(f'  "first_player": {record.first_player},')
    lines.append('  "rounds": [')
    rounds: Sequence[Round | PublicRound] = record.rounds
    for round_index, round_ in enumerate(rounds):
        lines.append("    {")
        key, value = _start(round_)
        lines.append(f'      "{key}": {_compact(value)},')
        moves = [f"        {_compact(move_entry(move))}" for move in round_.moves]
        ending = _ending(round_)
        closing = "      ]" + ("," if ending else "")
        if moves:
            lines.append('      "moves": [')
            lines.append(",\n".join(moves))
            lines.append(closing)
        else:
            lines.append('      "moves": [' + closing.strip())
        for index, (key, value) in enumerate(ending):
            comma = "," if index < len(ending) - 1 else ""
            lines.append(f'      "{key}": {_compact(value)}{comma}')
        last = round_index == len(record.rounds) - 1
        lines.append("    }" + ("" if last else ","))
    lines.append("  ]" + ("," if record.result is not None else ""))
    if record.result is not None:
        result = record.result.model_dump(exclude_none=True)
        lines.append(f'  "result": {_compact(result)}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _yaml_flow(value: object) -> str:
    """A JSON value as YAML flow text (JSON is YAML; mapping keys and H/M left bare)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_yaml_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_flow(item) for item in value) + "]"
    if value in ("H", "M", "deck", "discard") or (isinstance(value, str) and value in ACTIONS):
        return str(value)
    if isinstance(value, str):
        return _yaml_string(value)
    return json.dumps(value, ensure_ascii=False)


_NOT_RAW_IN_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
"""Characters a YAML file may not hold raw (DEL, C1 controls, U+FFFE, U+FFFF) or that a
YAML reader takes for line breaks (NEL, LS, PS) or a byte order mark."""


def _yaml_string(text: str) -> str:
    """A double-quoted YAML scalar that reads back as ``text``: JSON's escapes (YAML has
    them all), plus ``\\uXXXX`` for the characters YAML may not hold raw."""
    quoted = json.dumps(text, ensure_ascii=False)
    return _NOT_RAW_IN_YAML.sub(lambda found: f"\\u{ord(found.group()):04x}", quoted)


def _dump_yaml(record: AnyRecord) -> str:
    lines = [f"format: {record.format}"]
    if isinstance(record, PublicRecord):
        lines.append(f"information: {record.information}")
    if isinstance(record.ruleset, str):
        lines.append(f"ruleset: {_yaml_string(record.ruleset)}")
    else:
        inline = yaml.safe_dump(record.ruleset, sort_keys=False, allow_unicode=True)
        lines.append("ruleset:")
        lines += [f"  {line}" for line in inline.splitlines()]
    if record.ruleset_sha256 is not None:
        lines.append(f"ruleset_sha256: {record.ruleset_sha256}")
    lines.append(f"players: {_yaml_flow(record.players)}")
    lines.append(f"first_player: {record.first_player}")
    lines.append("rounds:" + ("" if record.rounds else " []"))
    rounds: Sequence[Round | PublicRound] = record.rounds
    for round_ in rounds:
        key, value = _start(round_)
        lines.append(f"  - {key}: {_yaml_flow(value)}")
        lines.append("    moves:" + ("" if round_.moves else " []"))
        lines += [f"      - {_yaml_flow(move_entry(move))}" for move in round_.moves]
        lines += [f"    {key}: {_yaml_flow(value)}" for key, value in _ending(round_)]
    if record.result is not None:
        lines.append("result:")
        for key, value in record.result.model_dump(exclude_none=True).items():
            lines.append(f"  {key}: {_yaml_flow(value)}")
    return "\n".join(lines) + "\n"
