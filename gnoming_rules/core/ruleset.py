"""Rulesets: every rule toggle and the deck, as data (docs/rules.md, every **[toggle]**).

A ruleset is a YAML file checked into a frozen pydantic :class:`Ruleset`. A variant
names another with ``extends:`` and overrides a few fields; the two are combined as a
JSON Merge Patch (RFC 7386): mappings merge key by key, ``null`` deletes a key, anything
else replaces. The resolved ruleset has no ``extends`` and is what the engine plays.
Files are found, read and resolved by :mod:`gnoming_rules.formats.rulesets`
(``load_ruleset``), which hands the resolved data to :func:`ruleset_from_data`: the core
reads no file.

Rules identity: :attr:`Ruleset.sha256` hashes :meth:`Ruleset.canonical_json`, the
resolved ruleset without its ``name`` and ``description`` (labels, not rules), as JSON with
sorted keys and no spaces. Records carry it so that a replay under edited rules is caught.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    Discriminator,
    Field,
    PlainSerializer,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)

from .cards import HAZARD, MULLIGAN, Face, sorted_faces
from .compiled import (
    CompiledRules,
    PatternRule,
    discard_variants,
    grid_lines,
    move_tables,
    pattern_instances,
)
from .errors import (
    INT64_MAX,
    RulesetError,
    RulesetProblem,
    one_line,
    quoted,
)
from .fields import StrictModel, did_you_mean, field_path, problem_words

__all__ = [
    "DEFAULT_PILES",
    "MAX_DECK",
    "MAX_PILES",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_SCORE_VALUE",
    "Deck",
    "DiscardRules",
    "GoingOut",
    "HazardRules",
    "Layout",
    "MulliganRules",
    "NumberFace",
    "Pattern",
    "Players",
    "Ruleset",
    "ScoreValue",
    "ScoringRules",
    "merge_patch",
    "option_defaults",
    "ruleset_from_data",
    "unknown_fields",
    "validation_problems",
    "with_int_faces",
]

_FACE_TEXT = re.compile("-?[0-9]+")
"""A face written as text (a JSON key): ASCII digits, not any Unicode digit (``"٣"``)."""


def _number_face(value: object) -> object:
    """Deck keys: YAML gives ints, JSON gives strings such as ``"-3"``; accept both."""
    if isinstance(value, str) and _FACE_TEXT.fullmatch(value):
        return int(value)
    return value


MAX_SCORE_VALUE: Final = 10**15
"""Largest size of a card's face and of every score a ruleset sets (hazard penalty,
mulligan value, going-out bonus and penalty). A game's total is a sum of at most 100
rounds of at most 25 cards, 10 sets and one bonus, so with every value within 10^15 no
score or total can leave the signed 64-bit range that records hold (about 9.2 * 10^18)."""
ScoreValue = Annotated[int, Field(ge=-MAX_SCORE_VALUE, le=MAX_SCORE_VALUE)]
"""A score a ruleset sets: within :data:`MAX_SCORE_VALUE` either way."""
NumberFace = Annotated[
    int,
    BeforeValidator(_number_face),
    Field(strict=True, ge=-MAX_SCORE_VALUE, le=MAX_SCORE_VALUE),
]


MAX_DECK = 10_000
"""Most cards a deck may hold: generous for any table, small enough to replay quickly."""
MAX_PLAYERS = 100
"""Most seats a ruleset may allow."""
MAX_ROUNDS = 100
"""Most rounds a game may have."""


def option(
    meaning: str, rule: str, default: Any = ..., *, empty: bool = False, **bounds: Any
) -> Any:
    """Declare a rule option: its one-line ``meaning``, the ``rule`` it sets (docs/rules.md)
    and, for an option added after rulesets were first hashed, its ``default``.

    The field's name and type are the model's annotation; ``bounds`` are pydantic's (``ge``,
    ``le``). This declaration is the option's one home: the JSON Schema, the field table of
    docs/house-rules.md (:func:`option_rows`), ``gnoming ruleset diff``, the rules hash
    (an option at its default stays out of it) and the random rulesets of
    ``gnoming_rules.testing`` are all derived from it. ``empty``: a mapping whose default
    is empty."""
    extra: dict[str, Any] = {"rule": rule}
    if empty:
        return Field(
            default_factory=dict,
            validate_default=True,
            description=meaning,
            json_schema_extra=extra,
            **bounds,
        )
    return Field(default, description=meaning, json_schema_extra=extra, **bounds)


_FACE_NAME = re.compile("[A-Z][A-Z0-9]{0,2}")
"""A named face (rule 10.1): 1 to 3 uppercase letters and digits, starting with a letter."""


def _face_name(value: object) -> object:
    """A named face of ``deck.named``: spelt as rule 10.1 says, and not ``H`` or ``M``."""
    if not isinstance(value, str) or not _FACE_NAME.fullmatch(value):
        raise ValueError(
            f"{quoted(value, python=True)} is not a face name: 1 to 3 uppercase letters and "
            "digits, starting with a letter (A, J, Q, K, JK)"
        )
    if value in (HAZARD, MULLIGAN):
        raise ValueError(f"{value} is the {'hazard' if value == HAZARD else 'mulligan'}'s face")
    return value


def _face_key(value: object) -> object:
    """A key of ``deck.values``: an integer face (JSON writes ``"-2"``) or a face name."""
    value = _number_face(value)
    if type(value) is int:
        if not -MAX_SCORE_VALUE <= value <= MAX_SCORE_VALUE:
            raise ValueError(f"face {value} is beyond {MAX_SCORE_VALUE} either way")
        return value
    return _face_name(value)


FaceName = Annotated[str, BeforeValidator(_face_name)]
"""A named face (rule 10.1)."""
FaceKey = Annotated[int | str, BeforeValidator(_face_key)]
"""A face that ``deck.values`` maps: an integer or a name (rule 10.1)."""
Copies = Annotated[int, Field(ge=1, le=MAX_DECK)]


class Deck(StrictModel):
    """The cards of the game (rule 1.1-1.2, 10.1). Each face is given with its number of copies."""

    numbers: Annotated[
        Mapping[NumberFace, Copies],
        PlainSerializer(dict, return_type=dict[int, int]),
    ] = option("Number cards: integer face (0 included) -> copies (at least 1).", "1.2")
    named: Annotated[
        Mapping[FaceName, Copies],
        PlainSerializer(dict, return_type=dict[str, int]),
    ] = option(
        "Named cards (A, J, Q, K, JK: 1-3 uppercase letters and digits, not H or M) -> "
        "copies; each needs a value in deck.values.",
        "10.1",
        empty=True,
    )
    values: Annotated[
        Mapping[FaceKey, ScoreValue],
        PlainSerializer(dict, return_type=dict[int | str, int]),
    ] = option(
        "Points a face scores: face (integer or name) -> value; an integer face not listed "
        "scores itself.",
        "10.1",
        empty=True,
    )
    hazards: int = option("Hazard cards (face H).", "6.1", ge=0, le=MAX_DECK)
    mulligans: int = option("Mulligan cards (face M).", "7.1", ge=0, le=MAX_DECK)

    @field_validator("numbers", "named", "values")
    @classmethod
    def _read_only(cls, faces: Mapping[Any, int]) -> Mapping[Any, int]:
        """Keep the mappings read-only so a loaded ruleset cannot drift from its cached
        ``sha256`` and ``compiled`` tables."""
        return MappingProxyType(dict(faces))

    @model_validator(mode="after")
    def _not_too_big(self) -> Deck:
        if self.size > MAX_DECK:
            raise ValueError(f"{self.size} cards is more than the {MAX_DECK} a deck may hold")
        return self

    @property
    def size(self) -> int:
        """How many cards the deck holds."""
        return sum(self.numbers.values()) + sum(self.named.values()) + self.hazards + self.mulligans

    def value(self, face: int | str) -> int:
        """The points a number or named face scores (rule 10.1)."""
        if face in self.values:
            return self.values[face]
        assert type(face) is int, face  # a name without a value is refused at loading
        return face


class Players(StrictModel):
    """How many may sit at the table (rule 2.1)."""

    min: int = option("Fewest players.", "2.1", ge=1, le=MAX_PLAYERS)
    max: int = option("Most players; the deck must deal to this many.", "2.1", ge=1, le=MAX_PLAYERS)


class Layout(StrictModel):
    """Each player's grid (rule 2.3) and how many cards each reveals at setup (3.5)."""

    rows: int = option("Rows of the grid (2 to 5).", "2.3", ge=2, le=5)
    cols: int = option("Columns of the grid (2 to 5).", "2.3", ge=2, le=5)
    face_up_at_start: int = option(
        "Cards each player reveals during setup.", "3.5", ge=0, le=INT64_MAX
    )
    peek_at_start: int = option(
        "Face-down cards each player looks at after the setup reveals, without turning "
        "them up (Four-card Golf, Cabo: two).",
        "11.2",
        default=0,
        ge=0,
        le=INT64_MAX,
    )


MAX_PILES = 4
"""Most discard piles a ruleset may have (rule 3.3)."""
DEFAULT_PILES = 2
"""Discard piles when a ruleset does not say (rule 3.3)."""


class DiscardRules(StrictModel):
    """The discard piles and discarding (rule 3.3, 4.4-4.5)."""

    piles: int = option(
        "Discard piles, 1 to 4; classic Golf plays with one.",
        "3.3",
        default=DEFAULT_PILES,
        ge=1,
        le=MAX_PILES,
    )
    taken_must_be_played: bool = option(
        "A card taken from a discard pile must be played, not discarded back.", "4.5"
    )


class TurnRules(StrictModel):
    """What a turn owes besides its draw and discard (rule 10.7)."""

    flip_after_deck_discard: Literal["none", "must"] = option(
        "After discarding the card drawn from the draw pile unplayed, the player turns one "
        "of their face-down cards up (must) or not (none).",
        "10.7",
        default="none",
    )


class PlayRules(StrictModel):
    """How a played card lies in the layout (rule 11.3)."""

    placed: Literal["up", "down"] = option(
        "A card played into a layout lies face up (up), or face down, known to the player "
        "who placed it (down, Cabo-like; needs round_end.knock).",
        "11.3",
        default="up",
    )


def _either(names: tuple[str, ...]) -> str:
    """``a, b or c``: the names of a declared choice, as an option's meaning lists them."""
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]


PowerName = Literal["peek_own", "peek_other", "swap_blind", "look_and_swap"]
"""What a card's power does when it is drawn from the draw pile and discarded (rule 11.4)."""
POWER_STATES: Final = (*get_args(PowerName), "swap")
"""What ``State.power`` may hold: a power offered, or ``swap``, the second move of
``look_and_swap`` (rule 11.4); in this order in saved states' checks and observation
vectors."""


class RoundEnd(StrictModel):
    """How a round can end besides going out (rule 11.5)."""

    knock: bool = option(
        "A player may knock at the start of their turn instead of drawing, once everyone "
        "has had a turn: every other player takes one more turn, then the round ends.",
        "11.5",
        default=False,
    )


class HazardRules(StrictModel):
    """Hazards (rules §6, 8.5)."""

    flips: Literal["others", "next", "none"] = option(
        "Who flips a card when a hazard is discarded: every other player, only the next "
        "player, or nobody.",
        "6.1",
    )
    spare_last_card: bool = option(
        "A player with fewer than two face-down cards does not flip.", "6.2"
    )
    penalty: ScoreValue = option("Score of a hazard left in a layout.", "8.5")


class MulliganRules(StrictModel):
    """Mulligans (rules §7, 8.4)."""

    max_face_up: int = option(
        "Limit on face-up mulligans a play may reach; also how many mulligans can be wild "
        "in scoring (8.2).",
        "7.2",
        ge=0,
        le=INT64_MAX,
    )
    unmatched_value: ScoreValue = option("Score of a mulligan in no set.", "8.4")


SetLineKind = Literal["rows", "columns", "diagonals"]
"""A kind of line that can be a set (rule 10.4)."""


class SetRules(StrictModel):
    """Which lines of matching cards are sets and what they score (rules 8.2, 10.2-10.6)."""

    match: Literal["face", "value"] = option(
        "Cards match when they have the same face, or the same value (a J and a Q worth "
        "10); bouncing and sets both use it.",
        "10.2",
        default="face",
    )
    cards: Literal["positive", "any"] = option(
        "Which cards form sets: positive cards and wild mulligans, or any matching "
        "non-hazard cards.",
        "10.3",
        default="positive",
    )
    lines: tuple[SetLineKind, ...] = option(
        "The lines that can be sets: any of rows, columns, diagonals (the two main "
        "diagonals of a square layout).",
        "10.4",
        default=("rows", "columns"),
        strict=False,  # a list, as JSON and YAML write it
        min_length=1,
        max_length=3,
    )
    score: Literal["minus_value", "zero", "remove"] = option(
        "A set scores minus its value; or each of its cards scores 0; or its line leaves "
        "the layout as soon as it is complete.",
        "10.5",
        default="minus_value",
    )

    @field_validator("lines")
    @classmethod
    def _each_once(cls, lines: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(lines)) != len(lines):
            raise ValueError("each kind of line may be named once")
        return lines


class GoingOut(StrictModel):
    """The bonus or penalty of the player who went out (rules 8.6, 10.9)."""

    bonus: ScoreValue = option("Added when the player who went out has the lowest score.", "8.6")
    penalty: ScoreValue = option("Added when the player who went out does not.", "8.6")
    ties_count_as_lowest: bool = option("A score tied for lowest counts as lowest.", "8.6")
    double_if_not_lowest: bool = option(
        "The round score of the player who went out is doubled when above 0 and not the "
        "lowest, before the bonus or penalty.",
        "10.9",
        default=False,
    )


class GameRules(StrictModel):
    """When the game ends (rules 2.2, 10.8)."""

    end_score: Annotated[int, Field(ge=-MAX_SCORE_VALUE, le=MAX_SCORE_VALUE)] | None = option(
        "The game ends after the first round at whose end some total is this or more "
        "(or after rounds rounds); null: exactly rounds rounds.",
        "10.8",
        default=None,
    )


class OfAKind(StrictModel):
    """``of_a_kind: N``: any N matching cards anywhere in one layout (rule 11.6)."""

    of_a_kind: int = Field(ge=2, le=INT64_MAX, description="Cards in one instance (2 or more).")


class AdjacentLines(StrictModel):
    """``adjacent_lines: columns``: two adjacent full columns (or rows) all matching (11.6)."""

    adjacent_lines: Literal["rows", "columns"] = Field(description="The kind of line.")


class Points(StrictModel):
    """``points: P``: the instance's cards together score P (rule 11.6)."""

    points: ScoreValue = Field(description="What the instance's cards score together.")


def _shape_tag(value: Any) -> str | None:
    """Which form of shape ``value`` is (given as data, or as a model when dumped)."""
    if isinstance(value, OfAKind | AdjacentLines):
        return "of_a_kind" if isinstance(value, OfAKind) else "adjacent_lines"
    if value == "square":
        return "square"
    if isinstance(value, Mapping) and len(value) == 1:
        key = next(iter(value))
        if key in ("of_a_kind", "adjacent_lines"):
            return str(key)
    return None


def _score_tag(value: Any) -> str | None:
    """Which form of score ``value`` is (given as data, or as a model when dumped)."""
    if isinstance(value, Points):
        return "points"
    if value in ("zero", "minus_value"):
        return "word"
    if isinstance(value, Mapping) and list(value) == ["points"]:
        return "points"
    return None


PatternShape = Annotated[
    Annotated[OfAKind, Tag("of_a_kind")]
    | Annotated[AdjacentLines, Tag("adjacent_lines")]
    | Annotated[Literal["square"], Tag("square")],
    Discriminator(
        _shape_tag,
        custom_error_type="pattern_shape",
        custom_error_message="a shape is square, {of_a_kind: N} or {adjacent_lines: rows|columns}",
    ),
]
"""A pattern's shape (rule 11.6)."""
PatternScore = Annotated[
    Annotated[Points, Tag("points")] | Annotated[Literal["zero", "minus_value"], Tag("word")],
    Discriminator(
        _score_tag,
        custom_error_type="pattern_score",
        custom_error_message="a score is {points: P}, zero or minus_value",
    ),
]
"""What a pattern's instance scores (rule 11.6)."""


class Pattern(StrictModel):
    """A scored pattern (rule 11.6): its ``shape`` and its ``score``, as a house rule writes
    it: ``{shape: {adjacent_lines: columns}, score: {points: -20}}``."""

    shape: PatternShape
    score: PatternScore


class ScoringRules(StrictModel):
    """What a layout scores besides the sets of §8/10 (rule 11.6)."""

    patterns: tuple[Pattern, ...] = option(
        "Scored patterns, checked in this order on the final layout before the sets: each "
        "a shape (square, {of_a_kind: N}, {adjacent_lines: rows|columns}) and a score "
        "({points: P}, zero, minus_value).",
        "11.6",
        default=(),
        strict=False,  # a list, as JSON and YAML write it
    )


class Ruleset(StrictModel):
    """A resolved ruleset: the deck and every rule toggle, as the engine plays them.

    Build one with :func:`load_ruleset`. Models are frozen; the engine reads the derived
    tables in :attr:`compiled`, built once per ruleset. Every field is declared once with
    :func:`option`.
    """

    name: str = Field(default="", description="A label; not part of the rules identity.")
    description: str = Field(default="", description="A label; not part of the rules identity.")
    deck: Deck
    players: Players
    rounds: int = option("Rounds in a game.", "2.2", ge=1, le=MAX_ROUNDS)
    first_player: Literal["rotate", "fixed", "went_out"] = option(
        "Who starts each later round: one seat further on, the same seat (2.2), or the "
        "player who went out in the round before (10.10).",
        "2.2",
    )
    layout: Layout
    discard: DiscardRules
    turn: TurnRules = Field(default_factory=TurnRules)
    play: PlayRules = Field(default_factory=PlayRules)
    bounce: bool = option("Bouncing is allowed.", "5.3")
    hazard: HazardRules
    mulligan: MulliganRules
    sets: SetRules = Field(default_factory=SetRules)
    going_out: GoingOut
    empty_draw_pile: Literal["reshuffle", "end_round"] = option(
        "When the draw pile runs out: reshuffle the discards below their tops, or end the "
        "round when a turn would begin with an empty draw pile.",
        "8.7",
    )
    game: GameRules = Field(default_factory=GameRules)
    powers: Annotated[
        Mapping[FaceKey, PowerName],
        PlainSerializer(dict, return_type=dict[int | str, str]),
    ] = option(
        f"Card powers: face -> {_either(get_args(PowerName))}; used by the player who "
        "draws such a card from the draw pile and discards it unplayed.",
        "11.4",
        empty=True,
    )
    powers_optional: bool = option(
        "A player offered a power may decline it (pass); false: it must be used when it can.",
        "11.4",
        default=True,
    )
    round_end: RoundEnd = Field(default_factory=RoundEnd)
    scoring: ScoringRules = Field(default_factory=ScoringRules)

    @field_validator("powers")
    @classmethod
    def _powers_read_only(cls, powers: Mapping[Any, str]) -> Mapping[Any, str]:
        """Read-only, as the deck's mappings (a loaded ruleset cannot drift)."""
        return MappingProxyType(dict(powers))

    @model_validator(mode="after")
    def _playable(self) -> Ruleset:
        if self.players.min > self.players.max:
            raise ValueError(
                f"players.min: {self.players.min} is greater than players.max ({self.players.max})"
            )
        slots = self.layout.rows * self.layout.cols
        if self.layout.face_up_at_start > slots:
            raise ValueError(
                f"layout.face_up_at_start: {self.layout.face_up_at_start} is more than the "
                f"{slots} cards of a {self.layout.rows}x{self.layout.cols} layout"
            )
        _check_family(self)
        _check_knowledge(self)
        _check_patterns(self)
        piles = self.discard.piles
        spare = piles + self.deck.hazards
        needed = self.players.max * slots + spare
        if self.deck.size < needed:
            most = max(0, (self.deck.size - spare) // slots)
            raise ValueError(
                f"deck: {self.deck.size} cards cannot deal a {self.layout.rows}x"
                f"{self.layout.cols} layout ({slots} cards) to each of players.max = "
                f"{self.players.max} players and start {_piles_words(piles)}: that needs {needed} "
                f"(counting {self.deck.hazards} hazards that may be set aside at the start); "
                f"this deck deals to at most {most} players"
            )
        if (
            self.mulligan.max_face_up == 0
            and self.deck.mulligans > 0
            and self.discard.taken_must_be_played
        ):
            raise ValueError(
                "mulligan.max_face_up: 0 leaves a mulligan taken from a discard pile neither "
                "playable nor discardable; allow at least 1 or set "
                "discard.taken_must_be_played to false"
            )
        return self

    def __hash__(self) -> int:
        return hash(self.sha256)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Ruleset:
        """A copy; ``update`` merges into it as an ``extends:`` patch would, and is checked.

        Pydantic's own ``model_copy`` neither validates an update nor forgets cached
        values; here the cached :attr:`sha256` and :attr:`compiled` tables are never carried
        over, so a changed copy cannot play under its original's rules. A bad update raises
        :class:`RulesetError` (``bad-ruleset``).
        """
        if update:
            patch = {key: _dumped(value) for key, value in update.items()}
            merged = merge_patch(self.model_dump(), patch)
            return ruleset_from_data(merged, f"{self.name} with changes")
        copied = super().model_copy(deep=deep)
        for cached in ("sha256", "compiled"):
            copied.__dict__.pop(cached, None)
        return copied

    @property
    def slots(self) -> int:
        """Cards in one layout (rows x cols)."""
        return self.layout.rows * self.layout.cols

    def rules_dict(self) -> dict[str, Any]:
        """The rules as plain JSON data, without the ``name`` and ``description`` labels.

        An option declared with a default (``discard.piles``, the Golf-family options of
        rule 10) is left out at its default: those options came after rulesets were
        hashed, and their defaults are the rules those hashes name."""
        data = self.model_dump(mode="json", exclude={"name", "description"})
        return _at_default(self, data)

    def data(self) -> dict[str, Any]:
        """The ruleset as plain JSON data, labels included, without the options that sit at
        their default (as :meth:`rules_dict`; ``discard.piles`` stays, as records carried it
        before the options of rule 10): what a record carries inline."""
        data = _at_default(self, self.model_dump(mode="json"), keep=("name", "description"))
        data["discard"] = self.discard.model_dump(mode="json")
        return data

    def canonical_json(self) -> str:
        """The canonical JSON form hashed by :attr:`sha256` (sorted keys, no spaces, UTF-8)."""
        return json.dumps(
            self.rules_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )

    @cached_property
    def sha256(self) -> str:
        """SHA-256 (hex) of :meth:`canonical_json`: the identity of these rules."""
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()

    @cached_property
    def compiled(self) -> CompiledRules:
        """The view of these rules that the game reads (engine, scoring, bots, drawings):
        flat toggles and derived tables, built once."""
        return _compile(self)


def _check_family(ruleset: Ruleset) -> None:
    """Refuse the Golf-family options that cannot be played together (rule 10.11), each
    naming its field."""
    deck, sets, layout = ruleset.deck, ruleset.sets, ruleset.layout
    for name in deck.named:
        if name not in deck.values:
            raise ValueError(f"deck.values: the named face {name} has no value (rule 10.1)")
    held = {*deck.numbers, *deck.named}
    for face in deck.values:
        if face not in held:
            raise ValueError(
                f"deck.values: face {face} is not in the deck (deck.numbers, deck.named)"
            )
    if "diagonals" in sets.lines and layout.rows != layout.cols:
        raise ValueError(
            f"sets.lines: diagonals need a square layout, and this one is "
            f"{layout.rows}x{layout.cols}"
        )
    if sets.cards == "any" and sets.score == "minus_value":
        raise ValueError(
            "sets.cards: any is refused with sets.score minus_value (a set of -2s would "
            "score +2); choose sets.score zero or remove"
        )


def _check_knowledge(ruleset: Ruleset) -> None:
    """Refuse the options of §11 that cannot be played together (rules 11.2-11.4, 11.8
    "Loading"), each naming the field that makes the requirement."""
    layout, deck = ruleset.layout, ruleset.deck
    slots = layout.rows * layout.cols
    if layout.peek_at_start and layout.face_up_at_start + layout.peek_at_start > slots:
        raise ValueError(
            f"layout.peek_at_start: {layout.peek_at_start} peeks after "
            f"{layout.face_up_at_start} reveals is more than the {slots} cards of a "
            f"{layout.rows}x{layout.cols} layout (rule 11.2)"
        )
    if ruleset.play.placed == "down":
        if not ruleset.round_end.knock:
            raise ValueError(
                "play.placed: down needs round_end.knock: true: with cards placed face down "
                "nobody goes out by turning every card up, so only a knock ends a round "
                "(rule 11.3)"
            )
        if ruleset.bounce:
            raise ValueError("play.placed: down refuses bounce: true (rule 11.3)")
        if deck.hazards:
            raise ValueError(
                f"play.placed: down refuses hazards in the deck (deck.hazards is "
                f"{deck.hazards}; rule 11.3)"
            )
    held = {*deck.numbers, *deck.named}
    for face in ruleset.powers:
        if face in (HAZARD, MULLIGAN):
            raise ValueError(f"powers: {face} cannot carry a power (hazards and mulligans, 11.4)")
        if face not in held:
            raise ValueError(f"powers: face {face} is not in the deck (deck.numbers, deck.named)")


MAX_WILD_CHOICES: Final = 4096
"""Most choices of wild mulligans the referee weighs for a layout under scoring patterns
(rule 11.8: one choice for sets and patterns), as many as the sets alone weigh at most
(2 ** 12 groups of lines): a ruleset whose layouts could need more is refused at load."""


def wild_choices(mulligans: int, limit: int) -> int:
    """How many sets of at most ``limit`` of ``mulligans`` mulligans could be wild."""
    return sum(math.comb(mulligans, k) for k in range(min(limit, mulligans) + 1))


def _check_patterns(ruleset: Ruleset) -> None:
    """Refuse the scoring patterns that cannot be played (rules 11.6, 11.8 "Loading"),
    each naming the field."""
    patterns = ruleset.scoring.patterns
    if not patterns:
        return
    if ruleset.sets.score == "remove":
        raise ValueError(
            "scoring.patterns: refused with sets.score remove (lines leave the layout as "
            "they complete, so no final layout holds them; rule 11.6)"
        )
    for index, pattern in enumerate(patterns):
        if pattern.score == "minus_value" and ruleset.sets.cards == "any":
            raise ValueError(
                f"scoring.patterns.{index}.score: minus_value is refused with sets.cards any "
                "(a pattern of -2s would score +2, as rule 10.3 refuses for sets); choose "
                "zero or points"
            )
    slots = ruleset.layout.rows * ruleset.layout.cols
    mulligans = min(slots, ruleset.deck.mulligans)
    choices = wild_choices(mulligans, ruleset.mulligan.max_face_up)
    if choices > MAX_WILD_CHOICES:
        raise ValueError(
            f"scoring.patterns: with up to {mulligans} mulligans in a layout and "
            f"mulligan.max_face_up {ruleset.mulligan.max_face_up}, the referee would weigh "
            f"{choices:,} choices of wild mulligans for one layout, more than the "
            f"{MAX_WILD_CHOICES:,} it allows; lower mulligan.max_face_up or deck.mulligans"
        )


def _at_default(
    model: BaseModel, data: dict[str, Any], keep: tuple[str, ...] = ()
) -> dict[str, Any]:
    """``data`` (``model`` dumped as JSON) without the options that sit at their declared
    default (but those in ``keep``): options added after rulesets were first hashed keep
    those hashes."""
    for key, field in type(model).model_fields.items():
        value = getattr(model, key)
        if key not in data or key in keep:
            continue
        if isinstance(value, BaseModel):
            data[key] = _at_default(value, data[key])
            if not data[key] and not field.is_required():
                del data[key]
        elif not field.is_required() and _same(value, field.get_default(call_default_factory=True)):
            del data[key]
    return data


def option_defaults(model: type[BaseModel] | None = None) -> dict[str, Any]:
    """Every option declared with a default, at its default, as nested JSON data: what a
    ruleset that leaves them out has (``gnoming ruleset diff`` fills an unplayable side
    with them, so both sides name the same fields)."""
    found: dict[str, Any] = {}
    for key, field in (model or Ruleset).model_fields.items():
        nested = field.annotation
        if isinstance(nested, type) and issubclass(nested, BaseModel):
            inner = option_defaults(nested)
            if inner:
                found[key] = inner
        elif not field.is_required() and key not in ("name", "description"):
            default = field.get_default(call_default_factory=True)
            found[key] = list(default) if isinstance(default, tuple) else default
    plain: dict[str, Any] = json.loads(json.dumps(found, default=dict))
    return plain


def _same(value: object, default: object) -> bool:
    if isinstance(value, Mapping) and isinstance(default, Mapping):
        return dict(value) == dict(default)
    return value == default


def _compile(ruleset: Ruleset) -> CompiledRules:
    """Derive every table of :class:`CompiledRules` from ``ruleset``."""
    rows, cols = ruleset.layout.rows, ruleset.layout.cols
    slots = rows * cols
    deck: list[Face] = []
    for face, copies in ruleset.deck.numbers.items():
        deck += [face] * copies
    for name, copies in ruleset.deck.named.items():
        deck += [name] * copies
    deck += [HAZARD] * ruleset.deck.hazards
    deck += [MULLIGAN] * ruleset.deck.mulligans
    sets = ruleset.sets
    faces: list[Face] = [*ruleset.deck.numbers, *ruleset.deck.named]
    values: dict[Face, int] = {face: ruleset.deck.value(face) for face in faces}
    keys: dict[Face, object] = {
        face: value if sets.match == "value" else face for face, value in values.items()
    }
    if sets.cards == "any":
        set_keys = {**keys, MULLIGAN: MULLIGAN}
    else:
        set_keys = {face: key for face, key in keys.items() if values[face] > 0}
    piles = ruleset.discard.piles
    tables = move_tables(ruleset.players.max, slots, piles)
    seats = range(ruleset.players.min, ruleset.players.max + 1)
    return CompiledRules(
        rows=rows,
        cols=cols,
        slots=slots,
        full_mask=(1 << slots) - 1,
        lines=grid_lines(rows, cols, ruleset.sets.lines),
        deck=tuple(sorted_faces(deck)),
        deck_counts=Counter(deck),
        min_players=ruleset.players.min,
        max_players=ruleset.players.max,
        state_shapes=frozenset((players, size, piles) for players in seats for size in (0, slots)),
        rounds=ruleset.rounds,
        rotate_first_player=ruleset.first_player == "rotate",
        went_out_starts=ruleset.first_player == "went_out",
        face_up_at_start=ruleset.layout.face_up_at_start,
        piles=piles,
        taken_must_be_played=ruleset.discard.taken_must_be_played,
        bounce=ruleset.bounce,
        hazard_flips=ruleset.hazard.flips,
        spare_last_card=ruleset.hazard.spare_last_card,
        hazard_penalty=ruleset.hazard.penalty,
        max_mulligans=ruleset.mulligan.max_face_up,
        unmatched_mulligan=ruleset.mulligan.unmatched_value,
        going_out_bonus=ruleset.going_out.bonus,
        going_out_penalty=ruleset.going_out.penalty,
        ties_count_as_lowest=ruleset.going_out.ties_count_as_lowest,
        reshuffle=ruleset.empty_draw_pile == "reshuffle",
        plain_sets=(
            not ruleset.deck.values
            and not ruleset.deck.named
            and sets.match == "face"
            and sets.cards == "positive"
            and sets.score == "minus_value"
        ),
        values=values,
        set_keys=set_keys,
        bounce_keys={face: key for face, key in keys.items() if values[face] > 0},
        zero_sets=sets.score in ("zero", "remove"),
        remove_lines=sets.score == "remove",
        removal_order=tuple(
            sorted(
                grid_lines(rows, cols, ruleset.sets.lines),
                key=lambda line: (line.slots[0], line.kind),
            )
        ),
        end_score=ruleset.game.end_score,
        flip_after_deck_discard=ruleset.turn.flip_after_deck_discard == "must",
        peek_at_start=ruleset.layout.peek_at_start,
        placed_down=ruleset.play.placed == "down",
        powers=dict(ruleset.powers),
        powers_optional=ruleset.powers_optional,
        knock=ruleset.round_end.knock,
        knowledge=bool(
            ruleset.layout.peek_at_start or ruleset.play.placed == "down" or ruleset.powers
        ),
        double_if_not_lowest=ruleset.going_out.double_if_not_lowest,
        slot_moves=tables[0],
        draw_moves=tables[1],
        discard_moves=tables[2],
        draw_options=tables[3],
        discard_options=tables[4],
        place_options=tables[5],
        discard_variants=discard_variants(piles),
        patterns=tuple(_pattern_rule(pattern, rows, cols) for pattern in ruleset.scoring.patterns),
    )


def _pattern_rule(pattern: Pattern, rows: int, cols: int) -> PatternRule:
    """The compiled form of one scoring pattern (rule 11.6)."""
    shape, score = pattern.shape, pattern.score
    points = score.points if isinstance(score, Points) else 0
    kind = "points" if isinstance(score, Points) else score
    if isinstance(shape, OfAKind):
        return PatternRule(f"{shape.of_a_kind} of a kind", shape.of_a_kind, None, kind, points)
    if isinstance(shape, AdjacentLines):
        size = 2 * (cols if shape.adjacent_lines == "rows" else rows)
        masks = pattern_instances(rows, cols, shape.adjacent_lines)
        return PatternRule(f"adjacent {shape.adjacent_lines}", size, masks, kind, points)
    if shape == "square":
        return PatternRule("square", 4, pattern_instances(rows, cols, "square"), kind, points)
    raise TypeError(f"no compiled form for a pattern of shape {shape!r}")  # (add it here)


def _piles_words(piles: int) -> str:
    """``two discard piles``, ``one discard pile``."""
    words = {1: "one", 2: "two", 3: "three", 4: "four"}
    return f"{words[piles]} discard pile{'s' if piles > 1 else ''}"


def _dumped(value: object) -> object:
    """A model given in ``model_copy(update=...)`` as plain data, so it merges and validates."""
    return value.model_dump() if isinstance(value, BaseModel) else value


# --- checking plain data ----------------------------------------------------------------------
# (files are found and read by gnoming_rules.formats.rulesets, which hands the data here)


def merge_patch(base: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """RFC 7386 JSON Merge Patch: ``patch`` over ``base``; neither input is changed."""
    merged = dict(base)
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, Mapping):
            target = merged.get(key)
            merged[key] = merge_patch(target if isinstance(target, Mapping) else {}, value)
        else:
            merged[key] = value
    return merged


def unknown_fields(
    data: Mapping[str, Any], model: type[BaseModel], label: str, prefix: str
) -> list[RulesetProblem]:
    """Every misspelt field, found in the file that wrote it, before merging with a parent
    (after the merge, the error would name the child that extends the file)."""
    fields = model.model_fields
    found: list[RulesetProblem] = []
    for key, value in data.items():
        field = fields.get(key) if isinstance(key, str) else None
        if field is None:
            unknown = "unknown field" + did_you_mean(str(key), fields)
            found.append(RulesetProblem(label, f"{prefix}{one_line(str(key))}", unknown))
            continue
        nested = field.annotation
        if (
            isinstance(value, Mapping)
            and isinstance(nested, type)
            and issubclass(nested, StrictModel)
        ):
            found += unknown_fields(value, nested, label, f"{prefix}{key}.")
    return found


def with_int_faces(data: dict[str, Any], label: str) -> dict[str, Any]:
    """``deck.numbers`` keyed by int faces, so that a JSON ``"12": null`` patches the 12s.

    Refused here, in the file that wrote it: a key that is a boolean (YAML reads ``true``
    as one, which would be face 1), two keys naming one face (``1`` and ``"1"``: a
    mapping would keep the last silently), and more faces than a deck may hold (before
    any copy is made of them)."""
    deck = data.get("deck")
    if not isinstance(deck, Mapping) or not isinstance(deck.get("numbers"), Mapping):
        return data
    given: Mapping[Any, Any] = deck["numbers"]
    where = f"{label}: deck.numbers"
    if len(given) > MAX_DECK:
        raise RulesetError(
            "bad-ruleset",
            f"{where}: {len(given)} faces is more than the {MAX_DECK} cards a deck may hold",
        )
    numbers: dict[Any, Any] = {}
    written: dict[Any, Any] = {}
    for key, copies in given.items():
        if isinstance(key, bool):
            raise RulesetError(
                "bad-ruleset", f"{where}: {key!r} is not a card face (write a number such as 5)"
            )
        face = _number_face(key)
        if face in numbers:
            raise RulesetError(
                "bad-ruleset",
                f"{where}: face {quoted(face)} is given twice "
                f"(as {quoted(written[face], python=True)} and {quoted(key, python=True)})",
            )
        numbers[face], written[face] = copies, key
    data["deck"] = {**deck, "numbers": numbers}
    return data


def ruleset_from_data(data: dict[str, Any], label: str) -> Ruleset:
    """The checked :class:`Ruleset` of resolved plain data (no ``extends``); ``label`` names
    it in the errors: :class:`RulesetError` (``bad-ruleset``) listing every field at fault."""
    try:
        return Ruleset.model_validate(data)
    except ValidationError as error:
        raise RulesetError.of(validation_problems(error, label)) from None


def validation_problems(error: ValidationError, label: str) -> list[RulesetProblem]:
    """Every problem of a pydantic error, each with its field path (``layout.rows``)."""
    found = []
    for problem in error.errors(include_url=False):
        # (a tagged union, a pattern's shape or score, repeats its tag: shape.of_a_kind...)
        given = problem["loc"]
        loc = [part for i, part in enumerate(given) if not i or part != given[i - 1]]
        location = field_path(loc, brackets=False)
        if problem["type"] == "value_error":
            message = str(problem["ctx"]["error"]) if "ctx" in problem else problem["msg"]
            path, _, rest = message.partition(": ")
            if not location and rest and " " not in path:  # "layout.rows: must be ..."
                location, message = path, rest
        else:
            message = problem_words(problem, python=True, model=Ruleset)
        found.append(RulesetProblem(label, location, message))
    return found
