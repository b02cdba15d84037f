"""The forms of a record's move entries, declared once (docs/record-format.md, Moves).

One ``TypedDict`` per action says which fields an entry has, which are optional, and
their types; a public-information record's entries (a ``card`` wherever one became
visible, a reshuffle without cards) share their other fields with the full record's.
Everything else derives from these declarations: the record's pydantic models
(:mod:`gnoming_rules.formats.record`) and its JSON Schema, the strict reading of a
single entry (:func:`~gnoming_rules.core.entries.move_from_entry`, through
:data:`ENTRY_ADAPTER`), and the one wording of a problem in an entry's fields
(:func:`field_problem`), which a record's reader and the entry reader both give. What
the forms cannot say, because it depends on the table (a seat that does not exist, a
pile past the ruleset's last, a draw's ``pile`` against its ``source``), is read by
:func:`~gnoming_rules.core.entries.read_entry`, once.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import ConfigDict, Field, GetCoreSchemaHandler, TypeAdapter, ValidationError
from pydantic.annotated_handlers import GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, ErrorDetails, core_schema
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from .cards import Face
from .errors import INT64_MAX, INT64_MIN, MAX_PROBLEMS, RecordError, RecordProblem, quoted
from .fields import field_path, problem_words

__all__ = [
    "ACTIONS",
    "ENTRY_ADAPTER",
    "FACE_PATTERN",
    "BounceEntry",
    "CardFace",
    "DiscardEntry",
    "DrawEntry",
    "FlipEntry",
    "Int64",
    "KnockEntry",
    "MoveEntry",
    "PassEntry",
    "PeekEntry",
    "Pile",
    "PlaceEntry",
    "PublicDiscardEntry",
    "PublicDrawEntry",
    "PublicFlipEntry",
    "PublicMoveEntry",
    "PublicPeekEntry",
    "PublicReshuffleEntry",
    "PublicRevealEntry",
    "ReshuffleEntry",
    "RevealEntry",
    "Seat",
    "SwapEntry",
    "checked_entry",
    "field_problem",
]

ACTIONS = (
    "reveal",
    "draw",
    "place",
    "bounce",
    "discard",
    "flip",
    "reshuffle",
    "peek",
    "swap",
    "pass",
    "knock",
)
"""The ``action`` names of the record format, in its table's order."""

FACE_PATTERN = "^[A-Z][A-Z0-9]{0,2}$"
"""A named face as text (rule 10.1); ``H`` and ``M`` are named faces of their own."""


# --- field types ---------------------------------------------------------------------------


class _CardFaceSchema:
    """Pydantic metadata for a card face: one clear error instead of three union branches.
    A face is an integer from ``low`` to ``high`` or a text matching ``pattern`` (what the
    fast check of entries, :mod:`~gnoming_rules.core.entry_check`, reads too)."""

    low = INT64_MIN
    high = INT64_MAX
    pattern = FACE_PATTERN

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.union_schema(
            [
                core_schema.int_schema(strict=True, ge=self.low, le=self.high),
                core_schema.str_schema(strict=True, pattern=self.pattern),
            ],
            custom_error_type="card_face",
            custom_error_message='not a card: write an integer, "H", "M" or a face name (K)',
        )

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {
            "description": "A card by its face: an integer (0 included), "
            '"H" (hazard), "M" (mulligan) or a name the ruleset declares (rule 10.1).',
            "anyOf": [
                {"type": "integer", "minimum": INT64_MIN, "maximum": INT64_MAX},
                {"type": "string", "pattern": FACE_PATTERN},
            ],
        }


CardFace = Annotated[Face, _CardFaceSchema()]
"""A face as a record writes it (rule 1.3)."""
Int64 = Annotated[int, Field(ge=INT64_MIN, le=INT64_MAX)]
"""Every integer of a record lies in the signed 64-bit range: a sane game never leaves it,
and a larger one (YAML writes 0xfff... of any length) is refused at its field."""
Seat = Annotated[int, Field(ge=0, le=INT64_MAX, description="A seat, 0 to players - 1.")]
Pile = Annotated[
    int,
    Field(
        ge=0,
        le=INT64_MAX,
        description="A discard pile: 0 or 1 (0 to k - 1 under a ruleset with k piles).",
    ),
]
"""Its upper bound is the ruleset's, checked when the move entry is read."""

_STRICT = ConfigDict(extra="forbid", strict=True)


# --- the entries: the fields each action shares between full and public records ----------


class _Reveal(TypedDict):
    action: Literal["reveal"]
    player: Seat
    slot: Int64


class _Draw(TypedDict):
    action: Literal["draw"]
    player: Seat
    source: Literal["deck", "discard"]
    pile: NotRequired[Pile | None]


class _Place(TypedDict):
    action: Literal["place"]


class _Bounce(TypedDict):
    action: Literal["bounce"]


class _IntoSlot(TypedDict):
    """The fields place and bounce share, in full and public records alike: ``card`` is
    the displaced one (rules 4.2, 5). Each entry names its action's base first, so that
    ``action`` leads its fields (in the schema too)."""

    player: Seat
    slot: Int64
    card: NotRequired[CardFace | None]


class _Flip(TypedDict):
    action: Literal["flip"]
    player: Seat
    slot: Int64


class _Reshuffle(TypedDict):
    action: Literal["reshuffle"]


class _Peek(TypedDict):
    action: Literal["peek"]
    player: Seat
    slot: Int64
    target: NotRequired[Seat | None]


class SwapEntry(TypedDict):
    """swap: the player's slot and the target seat's target_slot change places (rule 11.4)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    action: Literal["swap"]
    player: Seat
    slot: Int64
    target: Seat
    target_slot: Int64


class PassEntry(TypedDict):
    """pass: the player declines the power open to them, or the swap after a look (11.4)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    action: Literal["pass"]
    player: Seat


class KnockEntry(TypedDict):
    """knock: instead of drawing, the player ends the round after one more lap (11.5)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    action: Literal["knock"]
    player: Seat


# --- full records: ``card`` is an optional claim --------------------------------------------


class RevealEntry(_Reveal):
    """reveal: in setup, the player turns up one of their face-down cards (rule 3.5)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    card: NotRequired[CardFace | None]


class DrawEntry(_Draw):
    """draw: from the deck, or from a discard pile (0, 1, ...) (rule 4.1)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    card: NotRequired[CardFace | None]


class PlaceEntry(_Place, _IntoSlot):
    """place: the held card goes into the slot; card is the displaced one (rule 4.2)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]


class BounceEntry(_Bounce, _IntoSlot):
    """bounce: the held card goes into the slot; card is the displaced one (rule 5)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]


class DiscardEntry(TypedDict):
    """discard: the held card goes on the pile; a hazard needs none (rule 4.4, 6.1)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    action: Literal["discard"]
    player: Seat
    pile: NotRequired[Pile | None]


class FlipEntry(_Flip):
    """flip: after a hazard, the player turns up a face-down card (rule 6.1)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    card: NotRequired[CardFace | None]


class PeekEntry(_Peek):
    """peek: the player looks at a face-down card, their own or the target seat's (rules
    11.2, 11.4); card is the face the peeking seat saw."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    card: NotRequired[CardFace | None]


class ReshuffleEntry(_Reshuffle):
    """reshuffle: the new draw pile, top first (rule 8.7)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    cards: list[CardFace]


MoveEntry = Annotated[
    RevealEntry
    | DrawEntry
    | PlaceEntry
    | BounceEntry
    | DiscardEntry
    | FlipEntry
    | ReshuffleEntry
    | PeekEntry
    | SwapEntry
    | PassEntry
    | KnockEntry,
    Field(discriminator="action"),
]
"""One entry of a round's ``moves``, as a plain dict checked by pydantic."""


# --- public records: ``card`` names what became visible --------------------------------------


class PublicRevealEntry(_Reveal):
    """reveal in a public record: ``card``, the face turned up, is required."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    card: CardFace


class PublicDrawEntry(_Draw):
    """draw in a public record: ``card``, the face drawn. Required, except that under
    ``play.placed: down`` (rule 11.3) a draw from the deck names none: only the drawer saw
    it. Which of the two depends on the ruleset, so the record's reader checks it
    (:func:`~gnoming_rules.referee.validate.read_structure`)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    card: NotRequired[CardFace | None]


class PublicDiscardEntry(TypedDict):
    """discard in a public record: as in a full record; under ``play.placed: down`` (rule
    11.3) it may name the card discarded (``card``, checked), and must for a card drawn
    from the deck and discarded unplayed, which the table sees only now. Elsewhere a
    ``card`` here is ``bad-record`` (the record's reader checks it, knowing the ruleset)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    action: Literal["discard"]
    player: Seat
    pile: NotRequired[Pile | None]
    card: NotRequired[CardFace | None]


class PublicFlipEntry(_Flip):
    """flip in a public record: ``card``, the face turned up, is required."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    card: CardFace


class PublicReshuffleEntry(_Reshuffle):
    """reshuffle in a public record: no cards, since nobody saw the new order (rule 8.7)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]


class PublicPeekEntry(_Peek):
    """peek in a public record: no card, since only the peeking seat saw it (11.1)."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]


PublicMoveEntry = Annotated[
    PublicRevealEntry
    | PublicDrawEntry
    | PlaceEntry
    | BounceEntry
    | PublicDiscardEntry
    | PublicFlipEntry
    | PublicReshuffleEntry
    | PublicPeekEntry
    | SwapEntry
    | PassEntry
    | KnockEntry,
    Field(discriminator="action"),
]
"""One entry of a public record's ``moves``: a card is named wherever one became visible
(a ``place`` or ``bounce`` that displaced a face-down card needs one too, which only the
replay can tell)."""

ENTRY_ADAPTER: TypeAdapter[MoveEntry] = TypeAdapter(MoveEntry)
"""Checks one entry of a full record's form (what :func:`checked_entry` reads)."""


def checked_entry(entry: object) -> MoveEntry:
    """``entry`` if it has the form of a full record's move entry; else
    :class:`~gnoming_rules.core.errors.RecordError` (``bad-record``) whose message starts
    with the field at fault, worded as a record's reader words it (without the path of the
    move in the record)."""
    try:
        return ENTRY_ADAPTER.validate_python(entry)
    except ValidationError as error:
        details = error.errors(include_url=False)
        problems = [_entry_problem(detail) for detail in details[:MAX_PROBLEMS]]
        raise RecordError.of(problems, len(details)) from None


def _entry_problem(detail: ErrorDetails) -> RecordProblem:
    loc = tuple(detail["loc"])
    if loc and loc[0] in ACTIONS:  # the discriminator's tag pydantic puts first
        loc = loc[1:]
    if detail["type"] in ("union_tag_invalid", "union_tag_not_found"):
        loc = (*loc, "action")
    message = field_problem(detail, MoveEntry)
    path = field_path(loc)
    return RecordProblem(None, None, f"{path}: {message}" if path else message)


# --- the one wording of a problem in an entry's fields ---------------------------------------

_OUT_OF_RANGE = f"must be an integer from {INT64_MIN} to {INT64_MAX} (64 bits), got "


def field_problem(problem: ErrorDetails, model: object) -> str:
    """A pydantic problem in a record's fields, in the record's words (after the field's
    path): the words of the card faces, piles and 64-bit integers the entries declare,
    else :func:`~gnoming_rules.core.fields.problem_words` (``model``, the type read, names
    the fields an unknown one may be a misspelling of)."""
    kind = problem["type"]
    given = problem.get("input")
    context = problem.get("ctx") or {}
    if kind == "card_face" and type(given) is int and not INT64_MIN <= given <= INT64_MAX:
        return _OUT_OF_RANGE + quoted(given)
    if kind == "card_face":
        return f"{problem['msg']}, got {quoted(given)}"
    if kind == "greater_than_equal" and problem["loc"][-1:] == ("pile",):
        return f"must be a discard pile (0, 1, ...), got {quoted(given)}"
    if kind == "less_than_equal" and context.get("le") == INT64_MAX:
        return _OUT_OF_RANGE + quoted(given)
    if kind == "greater_than_equal" and context.get("ge") == INT64_MIN:
        return _OUT_OF_RANGE + quoted(given)
    return problem_words(problem, model=model)
