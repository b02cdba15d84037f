"""Hypothesis strategies for gnoming-rules: rulesets, deals, layouts, games and moves to try.

Install with the ``testing`` extra (``pip install '.[testing]'`` in a clone). The project's
own property suite uses these; they are public so that bots, house-rule variants and
record tools can be fuzzed the same way::

    from hypothesis import given
    from gnoming_rules.testing import played_games

    @given(played_games())
    def test_my_bot_only_plays_legal_moves(game): ...

Every strategy builds *valid* values directly (no heavy filtering): rulesets load, deals
are permutations of the ruleset's deck, games are reached by legal play, and records are
those games written down by the :class:`~gnoming_rules.play.recorder.Recorder`. Randomness
inside a game (the policy's choices, the shuffles) comes from a seed that Hypothesis
draws, so a failing game is reproduced exactly from its printed example.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import UnionType
from typing import Annotated, Any, Literal, Union, cast, get_args, get_origin

from pydantic import BaseModel

from .extras import missing_extra

try:
    from hypothesis import reject
    from hypothesis import strategies as st
except ImportError as missing:  # a clear missing-extra error, not a bare ModuleNotFoundError
    raise missing_extra(missing, "testing") from None

from .core.cards import HAZARD, MULLIGAN, Face, sorted_faces
from .core.compiled import CompiledRules
from .core.engine import legal_moves, new_game
from .core.errors import RulesetError
from .core.moves import (
    Bounce,
    Deal,
    Discard,
    Draw,
    Flip,
    Knock,
    Move,
    Pass,
    Peek,
    Place,
    PlayerMove,
    Reshuffle,
    Reveal,
    Swap,
)
from .core.ruleset import PowerName, Ruleset, merge_patch
from .core.state import State, below_tops
from .formats.record import Record, RecordFormat, dump_record
from .formats.rulesets import bundled_rulesets, load_ruleset
from .play.bots import default_names
from .play.loop import play_out
from .play.recorder import Recorder

__all__ = [
    "GameSetup",
    "PlayedGame",
    "RecordedGame",
    "bundled_variants",
    "candidate_moves",
    "deals",
    "game_setups",
    "invalid_rulesets",
    "knowing_rulesets",
    "knowledge_overrides",
    "layouts",
    "move_cap",
    "moves_to_try",
    "play_randomly",
    "play_steered",
    "played_games",
    "player_names",
    "record_game",
    "record_texts",
    "recorded_games",
    "records",
    "removing_rulesets",
    "ruleset_overrides",
    "rulesets",
    "standard_ruleset",
    "steered_games",
    "variant",
]

_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# --- rulesets ------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def standard_ruleset() -> Ruleset:
    """The bundled ``standard`` ruleset (loaded once)."""
    return load_ruleset("standard")


@lru_cache(maxsize=16)
def _load_bundled(name: str) -> Ruleset:
    return load_ruleset(name)


def bundled_variants() -> st.SearchStrategy[Ruleset]:
    """Each bundled ruleset, ``standard`` and every variant shipped with the library
    (``bundled_rulesets()``), loaded once; shrinks towards the first name."""
    return st.sampled_from(bundled_rulesets()).map(_load_bundled)


@lru_cache(maxsize=512)
def _load_canonical(canonical: str) -> Ruleset:
    return load_ruleset(json.loads(canonical))


def variant(ruleset: Ruleset, patch: Mapping[str, Any]) -> Ruleset:
    """``ruleset`` with ``patch`` merged over its rules (JSON Merge Patch), validated again.

    Handy in properties that compare one ruleset with a close relative (a transposed
    grid, a different hazard penalty). Raises :class:`RulesetError` if the result
    cannot be played.
    """
    merged = merge_patch(ruleset.rules_dict(), patch)
    return _load_canonical(json.dumps(merged, sort_keys=True))


def _deck_patch(numbers: Mapping[int, int]) -> dict[int, int | None]:
    """A merge patch that turns the standard deck's numbers into exactly ``numbers``."""
    patch: dict[int, int | None] = dict.fromkeys(standard_ruleset().deck.numbers)
    patch.update(numbers)
    return patch


@st.composite
def ruleset_overrides(draw: st.DrawFn) -> dict[str, Any]:
    """An inline ruleset ``{"extends": "standard", ...}`` whose overrides always load.

    Each rule group is overridden or left standard at random: toggles, grid sizes (2 to 5
    rows and columns), player bounds (2 to 8), rounds, discard piles (1 to 4), mulligan
    limits and values, and decks of other compositions. The deck is sized to deal to
    ``players.max`` seats and start the piles, with a random surplus that decides how soon
    the draw pile runs out.
    """
    standard = standard_ruleset()
    patch: dict[str, Any] = {"extends": "standard"}
    rows, cols = standard.layout.rows, standard.layout.cols
    if draw(st.booleans()):
        rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
        start = draw(st.integers(0, min(4, rows * cols)) | st.integers(0, rows * cols))
        patch["layout"] = {"rows": rows, "cols": cols, "face_up_at_start": start}
    low, high = standard.players.min, standard.players.max
    if draw(st.booleans()):
        low = draw(st.integers(2, 5))
        high = draw(st.integers(low, 8))
        patch["players"] = {"min": low, "max": high}
    for field, values in (
        ("rounds", st.integers(1, 4)),
        ("first_player", _declared_values(Ruleset.model_fields["first_player"].annotation)),
        ("bounce", st.booleans()),
        ("empty_draw_pile", st.sampled_from(["reshuffle", "end_round"])),
    ):
        if draw(st.booleans()):
            patch[field] = draw(values)
    if draw(st.booleans()):
        patch["hazard"] = {
            "flips": draw(st.sampled_from(["others", "next", "none"])),
            "spare_last_card": draw(st.booleans()),
            "penalty": draw(st.integers(-5, 15)),
        }
    if draw(st.booleans()):
        patch["going_out"] = {
            "bonus": draw(st.integers(-10, 0)),
            "penalty": draw(st.integers(0, 10)),
            "ties_count_as_lowest": draw(st.booleans()),
        }
    piles = draw(st.sampled_from([2, 2, 1, 3, 4]))
    hazards, mulligans = standard.deck.hazards, standard.deck.mulligans
    needed_without_hazards = high * rows * cols + piles
    own_deck = draw(st.booleans()) or (standard.deck.size < needed_without_hazards + hazards)
    if own_deck:
        hazards = draw(st.integers(0, 6))
        mulligans = draw(st.integers(0, 8))
        positives = draw(st.lists(st.integers(1, 15), min_size=1, max_size=12, unique=True))
        negatives = draw(st.lists(st.integers(-6, 0), max_size=6, unique=True))  # 0: 10.1
        numbers = {face: draw(st.integers(1, 9)) for face in positives + negatives}
        named_faces: tuple[dict[str, int], dict[Any, int]] | None = None
        if draw(st.booleans()):  # named faces and face values (rule 10.1)
            names = draw(st.lists(st.sampled_from(["A", "J", "Q", "K", "JK"]), unique=True))
            patch_named = {name: draw(st.integers(1, 6)) for name in names}
            mapped = draw(st.lists(st.sampled_from(positives + negatives), unique=True))
            face_values: dict[Any, int] = {
                face: draw(st.integers(-3, 12)) for face in (*names, *mapped)
            }
            named_faces = (patch_named, face_values)
        size = sum(numbers.values()) + hazards + mulligans
        surplus = draw(st.integers(0, 60))
        shortfall = needed_without_hazards + hazards + surplus - size
        if shortfall > 0:
            numbers[draw(st.sampled_from(positives))] += shortfall
        patch["deck"] = {
            "numbers": _deck_patch(numbers),
            "hazards": hazards,
            "mulligans": mulligans,
        }
        if named_faces is not None:
            patch["deck"]["named"], patch["deck"]["values"] = named_faces
    if draw(st.booleans()):
        limit = draw(st.integers(0, 3))
        patch["mulligan"] = {"max_face_up": limit, "unmatched_value": draw(st.integers(-3, 5))}
        if limit == 0 and mulligans > 0:
            patch["discard"] = {"taken_must_be_played": False}
    if "discard" not in patch and draw(st.booleans()):
        patch["discard"] = {"taken_must_be_played": draw(st.booleans())}
    if piles != 2:
        patch["discard"] = {**patch.get("discard", {}), "piles": piles}
    for path, values in _family_options():
        if draw(st.booleans()):
            group, key = path
            patch[group] = {**patch.get(group, {}), key: draw(values)}
    patch = _playable_family(patch)
    if draw(st.integers(0, 2)) == 2:  # a third of them; shrinking goes to rules 1-10
        patch = draw(knowledge_overrides(patch))
    return patch


@st.composite
def knowledge_overrides(draw: st.DrawFn, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``base`` (an inline ruleset that loads; default: a drawn one) with the options of
    what a seat knows and what a card does (rule 11) drawn on top, always at least one:
    peeks at the start (up to two, where face-down cards are left to peek at), a knock,
    powers on up to three of the deck's faces, and cards placed face down (rule 11.3: with a
    knock, no bounce and the deck's hazards taken out, where the deck still deals)."""
    if base is None:
        base = draw(ruleset_overrides())
    patch = {
        key: dict(value) if isinstance(value, Mapping) else value for key, value in base.items()
    }
    ruleset = load_ruleset(patch)
    drawn = draw(st.sets(st.sampled_from(["peek", "knock", "powers", "down"]), min_size=1))
    layout = ruleset.layout
    room = ruleset.slots - layout.face_up_at_start
    if "peek" in drawn and room > 0:
        peeks = draw(st.integers(1, min(2, room)))
        patch["layout"] = {**patch.get("layout", {}), "peek_at_start": peeks}
    if "down" in drawn:
        down = {
            **patch,
            "play": {**patch.get("play", {}), "placed": "down"},
            "round_end": {**patch.get("round_end", {}), "knock": True},
            "bounce": False,
            "deck": {**patch.get("deck", {}), "hazards": 0},
        }
        if _loads(down):  # a deck without its hazards may be too small to deal
            patch, drawn = down, drawn | {"knock"}
    if "knock" in drawn:
        patch["round_end"] = {**patch.get("round_end", {}), "knock": True}
    if "powers" in drawn:
        faces = sorted_faces(
            face for face in set(ruleset.compiled.deck) if face not in (HAZARD, MULLIGAN)
        )
        chosen = draw(st.lists(st.sampled_from(faces), min_size=1, max_size=3, unique=True))
        power = _declared_values(PowerName)
        patch["powers"] = {face: draw(power) for face in chosen}
        patch["powers_optional"] = draw(st.booleans())
    return _playable_family(patch)


def _family_options() -> list[tuple[tuple[str, str], st.SearchStrategy[Any]]]:
    """The Golf-family options (rule 10: every declared option with a default, in a
    group of its own or beside others), each with the values its declaration allows."""
    found = []
    for group, field in Ruleset.model_fields.items():
        model = field.annotation
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            continue
        for key, option in model.model_fields.items():
            if option.is_required() or (group, key) in _NOT_DRAWN:
                continue
            found.append(((group, key), _declared_values(option.annotation)))
    return found


_KNOWLEDGE_OPTIONS = {
    ("layout", "peek_at_start"),
    ("play", "placed"),
    ("round_end", "knock"),
}
"""The options of rule 11 in rule groups, drawn together by :func:`knowledge_overrides`
(each depends on the others and on the deck)."""

_NOT_DRAWN = {
    ("discard", "piles"),
    ("deck", "named"),
    ("deck", "values"),
    *_KNOWLEDGE_OPTIONS,
}
"""Options with defaults that :func:`ruleset_overrides` draws its own way (the deck, the
piles, rule 11's)."""


def _declared_values(annotation: Any) -> st.SearchStrategy[Any]:
    """The values a declared option's type allows, kept small where it is a number."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Literal:
        return st.sampled_from(args)
    if annotation is bool:
        return st.booleans()
    if origin is tuple and isinstance(args[0], type) and issubclass(args[0], BaseModel):
        return st.lists(_declared_values(args[0]), min_size=1, max_size=3).map(tuple)
    if origin is tuple:
        return st.lists(_declared_values(args[0]), min_size=1, unique=True).map(tuple)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        # a model inside an option (a scoring pattern, rule 11.6): each field as declared,
        # a count from its lower bound up (of_a_kind: 2 to 8)
        return st.fixed_dictionaries(
            {key: _field_values(field) for key, field in annotation.model_fields.items()}
        )
    if origin in (Union, UnionType):
        return st.one_of(*(_declared_values(arg) for arg in args))
    if annotation is type(None):
        return st.none()
    if origin is Annotated:
        return _declared_values(args[0])
    if annotation is int:
        return st.integers(-20, 120)
    raise TypeError(f"no values drawn for an option of type {annotation!r}")


def _field_values(field: Any) -> st.SearchStrategy[Any]:
    """The values of a model's field: a count (a lower bound of 0 or more) from its bound
    up a little, else as its type allows."""
    low = next((m.ge for m in field.metadata if getattr(m, "ge", None) is not None), None)
    if low is not None and low >= 0:
        return st.integers(low, low + 6)
    return _declared_values(field.annotation)


def _playable_family(patch: dict[str, Any]) -> dict[str, Any]:
    """``patch`` without the Golf-family options whose combination the loader refuses
    (rule 10.11): each refusal names its field, which is then left at its default."""
    for _ in range(len(patch) + 8):
        try:
            load_ruleset(patch)
        except RulesetError as error:
            field = error.problems[0].path if error.problems else ""
            group, _, key = field.partition(".")
            key = key.partition(".")[0]  # scoring.patterns.0.score: the option patterns
            if group not in patch or not key or key not in patch[group]:
                return patch
            droppable = {path for path, _ in _family_options()} | _KNOWLEDGE_OPTIONS
            if (group, key) not in droppable:
                return patch
            patch[group] = {k: v for k, v in patch[group].items() if k != key}
            continue
        return patch
    return patch


def rulesets(
    overrides: st.SearchStrategy[dict[str, Any]] | None = None,
) -> st.SearchStrategy[Ruleset]:
    """Loaded rulesets: the standard one and variants of it (see :func:`ruleset_overrides`)."""
    source = overrides if overrides is not None else ruleset_overrides()
    return st.just(standard_ruleset()) | source.map(load_ruleset)


def _loads(patch: Mapping[str, Any]) -> bool:
    try:
        load_ruleset(patch)
    except RulesetError:
        return False
    return True


def knowing_rulesets() -> st.SearchStrategy[Ruleset]:
    """Rulesets under which a seat can know a face-down card, a card can have a power or a
    knock can end the round (rule 11): the bundled ones, and random variants with
    :func:`knowledge_overrides`."""
    bundled = [name for name in bundled_rulesets() if _has_rule_11(_load_bundled(name))]
    return st.sampled_from(bundled).map(_load_bundled) | knowledge_overrides().map(load_ruleset)


def _has_rule_11(ruleset: Ruleset) -> bool:
    rules = ruleset.compiled
    return rules.knowledge or rules.knock or bool(rules.powers)


_DENSE_DECKS = (
    {5: 60, 6: 50},
    {1: 7, 2: 7, 3: 7, 4: 7, 5: 30, 6: 30, -1: 8, -2: 6},
)
"""Decks of few faces, under which random play completes lines often (rule 10.6)."""


def removing_rulesets() -> st.SearchStrategy[Ruleset]:
    """Rulesets under ``sets.score: remove`` (rule 10.6): the random ones of
    :func:`ruleset_overrides` switched to it, ``skyjo-like``, and variants of the standard
    game on decks of few faces (lines complete, so lines leave, in most games)."""
    random_ones = ruleset_overrides().map(
        lambda patch: {**patch, "sets": {**patch.get("sets", {}), "score": "remove"}}
    )
    dense = st.builds(
        lambda numbers, cards, lines: {
            "extends": "standard",
            "deck": {"numbers": {**dict.fromkeys(range(-5, 13)), **numbers}},
            "sets": {"score": "remove", "cards": cards, "lines": lines},
        },
        st.sampled_from(_DENSE_DECKS),
        st.sampled_from(["positive", "any"]),
        st.sampled_from([["rows", "columns"], ["columns"], ["rows", "columns", "diagonals"]]),
    )
    named = st.just("skyjo-like").map(_load_bundled)
    return named | (dense | random_ones.map(_playable_family)).map(load_ruleset)


_TABLE = ("deck", "players", "layout")

_INVALID: tuple[tuple[str, dict[str, Any], tuple[str, ...]], ...] = (
    ("layout.rows", {"layout": {"rows": 1}}, ()),
    ("layout.rows", {"layout": {"rows": 6}}, ()),
    ("layout.cols", {"layout": {"cols": 0}}, ()),
    ("layout.face_up_at_start", {"layout": {"face_up_at_start": 10}}, ("layout",)),
    ("layout.face_up_at_start", {"layout": {"face_up_at_start": -1}}, ()),
    ("players", {"players": {"min": 6, "max": 4}}, ()),
    ("players.min", {"players": {"min": 0}}, ()),
    ("deck", {"players": {"max": 12}}, _TABLE),
    ("deck", {"layout": {"rows": 5, "cols": 5}}, _TABLE),
    ("deck.values", {"deck": {"named": {"K": 3}}}, ()),
    ("deck.named", {"deck": {"named": {"k": 3}, "values": {"k": 0}}}, ()),
    ("deck.numbers", {"deck": {"numbers": {5: 0}}}, ()),
    ("deck.hazards", {"deck": {"hazards": -1}}, ()),
    ("deck.mulligans", {"deck": {"mulligans": "3"}}, ()),
    ("rounds", {"rounds": 0}, ()),
    ("rounds", {"rounds": 2.5}, ()),
    ("first_player", {"first_player": "youngest"}, ()),
    ("bounce", {"bounce": "yes"}, ()),
    ("hazard.flips", {"hazard": {"flips": "all"}}, ()),
    ("hazard.penalty", {"hazard": {"penalty": True}}, ()),
    ("mulligan.max_face_up", {"mulligan": {"max_face_up": 0}}, (*_TABLE, "discard")),
    ("mulligan.max_face_up", {"mulligan": {"max_face_up": -1}}, ()),
    ("going_out.bonus", {"going_out": {"bonus": None, "penalty": 5}}, ()),
    ("empty_draw_pile", {"empty_draw_pile": "stop"}, ()),
    ("discard.taken_must_be_played", {"discard": {"taken_must_be_played": 1}}, ()),
    ("house_rule", {"house_rule": True}, ()),
    ("layout.diagonals", {"layout": {"diagonals": True}}, ()),
)
"""(field named in the error, fault, groups of the base variant put back to standard first:
some faults are faults only against the standard deck, table or grid)."""


@st.composite
def invalid_rulesets(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """``(mapping, field)``: an inline ruleset that must not load, and the field its error names.

    Each is a loadable variant (from :func:`ruleset_overrides`) with one fault planted:
    out-of-range sizes, a deck too small for the table, a zero face, wrong types,
    unknown values or fields, and the mulligan limit 0 that strands a taken mulligan.
    ``load_ruleset(mapping)`` raises ``RulesetError`` (``bad-ruleset``) whose message
    contains ``field``.
    """
    field, fault, standard_groups = draw(st.sampled_from(_INVALID))
    base = draw(ruleset_overrides())
    for group in standard_groups:
        base.pop(group, None)
    if not _loads(base):  # rule 11's options leaned on a group now standard (the deck)
        base = _without_rule_11(base)
    return _overlay(base, fault), field


def _without_rule_11(patch: Mapping[str, Any]) -> dict[str, Any]:
    """``patch`` without the options that :func:`knowledge_overrides` draws."""
    kept = {key: value for key, value in patch.items() if key not in ("powers", "powers_optional")}
    for group, key in _KNOWLEDGE_OPTIONS:
        if isinstance(kept.get(group), Mapping):
            kept[group] = {k: v for k, v in kept[group].items() if k != key}
    return kept


def _overlay(base: Mapping[str, Any], fault: Mapping[str, Any]) -> dict[str, Any]:
    """``fault`` written over ``base`` key by key, keeping its ``None`` values as values."""
    merged = dict(base)
    for key, value in fault.items():
        below = merged.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            merged[key] = _overlay(below, value)
        else:
            merged[key] = value
    return merged


# --- games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSetup:
    """Who sits down to play under which rules."""

    ruleset: Ruleset
    players: int
    first_player: int

    def new_game(self) -> State:
        """The game before its first deal."""
        return new_game(self.ruleset, self.players, self.first_player)


@dataclass(frozen=True)
class PlayedGame:
    """A game as the engine saw it: every move (chance events included) and every state.

    ``states[0]`` is the new game and ``states[i + 1]`` the state after ``moves[i]``; this
    is a game record at the engine's level (the record format, docs/record-format.md, writes the
    same moves). ``complete`` is true when the last state is the end of the game.
    """

    setup: GameSetup
    moves: tuple[Move, ...]
    states: tuple[State, ...]

    @property
    def ruleset(self) -> Ruleset:
        """The rules the game was played under."""
        return self.setup.ruleset

    @property
    def final(self) -> State:
        """The state after the last move."""
        return self.states[-1]

    @property
    def complete(self) -> bool:
        """True when the game reached its end."""
        return self.final.is_over

    def __repr__(self) -> str:
        final = self.final
        return (
            f"PlayedGame(rules={self.ruleset.canonical_json()}, players={self.setup.players}, "
            f"first_player={self.setup.first_player}, moves={len(self.moves)}, "
            f"final=round {final.round} {final.phase.name})"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Hypothesis prints examples with this: a summary, not a thousand states."""
        printer.text(repr(self))

    def prefix(self, moves: int) -> PlayedGame:
        """The same game stopped after its first ``moves`` moves."""
        return PlayedGame(self.setup, self.moves[:moves], self.states[: moves + 1])


def play_randomly(setup: GameSetup, rng: random.Random, max_moves: int | None = None) -> PlayedGame:
    """Play a game from ``setup``: chance events and legal moves drawn uniformly from ``rng``."""
    rules = setup.ruleset
    return _play(setup, rng, lambda state: rng.choice(legal_moves(rules, state)), max_moves)


def play_steered(setup: GameSetup, rng: random.Random, max_moves: int | None = None) -> PlayedGame:
    """Play a game from ``setup`` at random, steered into the moves of rule 11: a card with a
    power (11.4) drawn from the draw pile is mostly discarded to use it, a power offered is
    mostly used rather than passed, the draw pile is preferred to the discard piles (powers
    come from it), and a knock (11.5), when open, is taken now and then, so that rounds
    end by knocks without ending before anything else happened."""
    rules = setup.ruleset
    powers = rules.compiled.powers

    def choose(state: State) -> PlayerMove:
        moves = legal_moves(rules, state)
        steered = [move for move in moves if _steered_to(state, move, powers)]
        knocks = [move for move in moves if isinstance(move, Knock)]
        if knocks and rng.random() < 0.15:
            return knocks[0]
        if steered and rng.random() < 0.8:
            return rng.choice(steered)
        return rng.choice(moves)

    return _play(setup, rng, choose, max_moves)


def _steered_to(state: State, move: PlayerMove, powers: Mapping[Face, str]) -> bool:
    """``move`` is one that :func:`play_steered` prefers in ``state``."""
    if isinstance(move, Peek | Swap):
        return True
    if isinstance(move, Draw):
        return move.pile is None
    return isinstance(move, Discard) and state.held in powers and not state.taken_from_discard


def _play(
    setup: GameSetup,
    rng: random.Random,
    choose: Callable[[State], PlayerMove],
    max_moves: int | None,
) -> PlayedGame:
    """Play a game from ``setup``: chance events drawn from ``rng``, each move ``choose``'s."""
    start = setup.new_game()
    moves: list[Move] = []
    states = [start]

    def hook(_before: State, move: Move, after: State) -> None:
        moves.append(move)
        states.append(after)

    play_out(setup.ruleset, start, rng, choose, hook=hook, limit=max_moves)
    return PlayedGame(setup, tuple(moves), tuple(states))


def move_cap(setup: GameSetup) -> int:
    """A move count that random play reaches only in a round that cycles for ever.

    The rules have no turn limit. Once the draw pile is empty and nothing lies below the
    discard tops (rule 8.7), play goes on with the two tops alone; in some variants every
    legal move keeps it going (two seats, four mulligans, limit 1, a taken card must be
    played: each seat takes a mulligan and swaps it with its own face-up one). Over 2,000
    random games of random variants, finished games took at most about 11 moves per card
    dealt per round; the cap allows 40.
    """
    rules = setup.ruleset
    return 40 * setup.players * rules.slots * rules.rounds + 100


@st.composite
def game_setups(draw: st.DrawFn, rules: st.SearchStrategy[Ruleset] | None = None) -> GameSetup:
    """A ruleset, a player count within its bounds, and the seat that starts round 0."""
    ruleset = draw(rules if rules is not None else rulesets())
    players = draw(st.integers(ruleset.compiled.min_players, ruleset.compiled.max_players))
    return GameSetup(ruleset, players, draw(st.integers(0, players - 1)))


@st.composite
def played_games(
    draw: st.DrawFn,
    setups: st.SearchStrategy[GameSetup] | None = None,
    complete: bool | None = None,
) -> PlayedGame:
    """Games reached by random legal play: complete (``True``), partial (``False``) or either
    (``None``: a quarter of them complete).

    A partial game stops after any number of moves, so its :attr:`PlayedGame.final` state
    may be in any phase: setup, mid-turn, a reshuffle or flips due, between rounds.
    """
    return _drawn_game(
        draw, setups if setups is not None else game_setups(), complete, play_randomly
    )


@st.composite
def steered_games(
    draw: st.DrawFn,
    setups: st.SearchStrategy[GameSetup] | None = None,
    complete: bool | None = None,
) -> PlayedGame:
    """Games under the rules of rule 11 (default: :func:`knowing_rulesets`) played by
    :func:`play_steered`, into peeks, powers, swaps and knocks on purpose; complete,
    partial or either, as :func:`played_games`."""
    if setups is None:
        setups = game_setups(knowing_rulesets())
    return _drawn_game(draw, setups, complete, play_steered)


def _drawn_game(
    draw: st.DrawFn,
    setups: st.SearchStrategy[GameSetup],
    complete: bool | None,
    play: Callable[[GameSetup, random.Random, int | None], PlayedGame],
) -> PlayedGame:
    setup = draw(setups)
    seed = draw(_SEEDS)
    game = play(setup, random.Random(seed), move_cap(setup))
    if complete is None:
        complete = draw(st.integers(0, 3)) == 0
    if complete:
        if not game.complete:
            reject()  # a round that can cycle for ever (see move_cap): rare, skip it
        return game
    last = len(game.moves) - 1
    # Hypothesis favours small integers; half the cuts come uniform from the seed instead.
    uniform = random.Random(seed ^ 0x5EED).randint(0, last)
    return game.prefix(draw(st.integers(0, last) | st.just(uniform)))


def deals(ruleset: Ruleset) -> st.SearchStrategy[Deal]:
    """Shuffled deals of ``ruleset``'s whole deck (rule 3.1), shrinking towards sorted."""
    return st.permutations(ruleset.compiled.deck).map(lambda cards: Deal(tuple(cards)))


@st.composite
def layouts(draw: st.DrawFn, ruleset: Ruleset) -> tuple[Face, ...]:
    """One full layout (row-major) of cards from ``ruleset``'s deck, copies respected.

    Cards already in the layout are drawn again half the time, so sets, matching
    values and several mulligans are common rather than rare.
    """
    remaining = Counter(ruleset.compiled.deck_counts)
    chosen: list[Face] = []
    for _ in range(ruleset.slots):
        again = sorted_faces({card for card in chosen if remaining[card] > 0})
        repeat = draw(st.booleans())
        if again and repeat:
            card = draw(st.sampled_from(again))
        else:
            card = draw(st.sampled_from(sorted_faces(c for c, n in remaining.items() if n > 0)))
        remaining[card] -= 1
        chosen.append(card)
    return tuple(chosen)


# --- records -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedGame:
    """A played game and the ``gnoming-record/1`` record the Recorder wrote of it.

    ``claims`` says whether the record carries what the table saw (each move's ``card``,
    each finished round's ``scores`` and the ``result``). The record is valid: replayed,
    it reaches ``game.final`` with the game's scores, totals and winners.
    """

    game: PlayedGame
    record: Record
    claims: bool

    def text(self, format: RecordFormat = "json") -> str:
        """The record as the library writes it, in JSON or YAML."""
        return dump_record(self.record, format)

    def data(self) -> dict[str, Any]:
        """The record as JSON data (a fresh copy to edit: break a field, add one...)."""
        data: dict[str, Any] = json.loads(self.text("json"))
        return data

    def __repr__(self) -> str:
        return f"RecordedGame({self.game!r}, claims={self.claims}, players={self.record.players!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def record_game(
    game: PlayedGame,
    names: Sequence[str] | None = None,
    *,
    claims: bool = True,
    ruleset_ref: str | Mapping[str, Any] | None = None,
) -> RecordedGame:
    """Write ``game`` down with a :class:`~gnoming_rules.play.recorder.Recorder`, move by move.

    ``names`` label the seats (default ``Ana``, ``Bo``...); ``ruleset_ref`` is what the
    record's ``ruleset`` field says (default: the bundled name, else the rules inline).
    """
    setup = game.setup
    seats = list(names) if names is not None else default_names(setup.players)
    recorder = Recorder(
        setup.ruleset, seats, setup.first_player, ruleset_ref=ruleset_ref, claims=claims
    )
    for move, after in zip(game.moves, game.states[1:], strict=True):
        recorder.add(move, after)
    return RecordedGame(game, recorder.record(), claims)


def player_names(players: int) -> st.SearchStrategy[list[str]]:
    """Seat labels: the usual names, or any text (empty, unicode, control characters).

    Names are labels only, so a record must survive being written and read back with
    whatever they hold.
    """
    return st.just(default_names(players)) | st.lists(
        st.text(max_size=12), min_size=players, max_size=players
    )


@st.composite
def recorded_games(
    draw: st.DrawFn,
    games: st.SearchStrategy[PlayedGame] | None = None,
    *,
    complete: bool | None = None,
    claims: bool | None = None,
) -> RecordedGame:
    """Records of games reached by random play (see :func:`played_games`), with their games.

    ``complete`` as in :func:`played_games` (when ``games`` is not given): a partial
    record stops after any move, mid-turn or between rounds. ``claims``: with (``True``)
    or without (``False``) the card, score and result claims, or either (``None``).
    """
    game = draw(games if games is not None else played_games(complete=complete))
    with_claims = draw(st.booleans()) if claims is None else claims
    names = draw(player_names(game.setup.players))
    return record_game(game, names, claims=with_claims)


def records(
    games: st.SearchStrategy[PlayedGame] | None = None,
    *,
    complete: bool | None = None,
    claims: bool | None = None,
) -> st.SearchStrategy[Record]:
    """Valid records, complete or partial, with or without claims (see :func:`recorded_games`)."""
    return recorded_games(games, complete=complete, claims=claims).map(lambda done: done.record)


def record_texts(
    source: st.SearchStrategy[Record] | None = None,
    formats: Sequence[RecordFormat] = ("json", "yaml"),
) -> st.SearchStrategy[tuple[str, RecordFormat]]:
    """``(text, format)``: a record written by :func:`~gnoming_rules.formats.record.dump_record` in
    one of ``formats``, ready for :func:`~gnoming_rules.formats.record.parse_record` or a file."""
    return st.tuples(source if source is not None else records(), st.sampled_from(formats)).map(
        lambda pair: (dump_record(pair[0], pair[1]), pair[1])
    )


# --- moves to try --------------------------------------------------------------------------

_ODD_VALUES: tuple[Any, ...] = (True, False, 1.0, "0", None)
"""Field values of the wrong type: the engine must refuse them with an IllegalMove."""


def candidate_moves(ruleset: Ruleset, state: State) -> list[Move]:
    """Moves worth trying in ``state``: every action by every seat into every slot and pile.

    Seats run one beyond the table on both sides, slots one beyond the layout, piles over
    ``None`` and every pile, and the non-piles ``-1`` and one past the last; a few fields
    have the wrong type (``True``, ``1.0``, ``"0"``, ``None``). Chance events are added
    too: a correct deal and two wrong ones; when a discard pile holds cards, the reshuffle
    of the cards below the tops (the due one, if a reshuffle is due) and two wrong ones.
    The legal moves of ``state`` are all among them.
    """
    rules = ruleset.compiled
    players = state.players
    seats = range(-1, players + 1)
    slots = range(-1, rules.slots + 1)
    piles: tuple[int | None, ...] = (None, *range(rules.piles), -1, rules.piles)
    moves: list[Move] = []
    for seat in seats:
        for slot in slots:
            moves += [Reveal(seat, slot), Place(seat, slot), Bounce(seat, slot), Flip(seat, slot)]
        for pile in piles:
            moves += [Draw(seat, pile), Discard(seat, pile)]
    actor = state.actor if state.actor is not None else 0
    for odd in _ODD_VALUES:
        value = cast(int, odd)
        for kind in (Reveal, Place, Bounce, Flip):
            moves += [kind(value, 0), kind(actor, value)]
        moves += [Draw(value), Discard(value, 0), Draw(actor, value), Discard(actor, value)]
    moves += _rule_11_candidates(rules, seats, slots, actor)
    deck = rules.deck
    moves += [Deal(deck), Deal(deck[1:]), Deal((*deck[1:], HAZARD))]
    if any(state.discard_piles):
        below = sorted_faces(below_tops(state.discard_piles))
        moves += [Reshuffle(tuple(below)), Reshuffle((*below, MULLIGAN)), Reshuffle(())]
    return moves


def _rule_11_candidates(rules: CompiledRules, seats: range, slots: range, actor: int) -> list[Move]:
    """The moves of rule 11 worth trying, where the rules have them: a knock and a pass by
    every seat, every seat's peek at its own slots, the actor's peek at every seat's slot
    and swap of each of its slots with every seat's (the seats and slots one beyond the
    table too), and a few of wrong types."""
    if not (rules.knowledge or rules.knock or rules.powers):
        return []
    moves: list[Move] = []
    for seat in seats:
        moves += [Knock(seat), Pass(seat)]
        moves += [Peek(seat, slot) for slot in slots]
        for slot in slots:
            moves += [Peek(actor, slot, seat)]
            moves += [Swap(actor, slot, seat, target_slot) for target_slot in slots]
    for odd in _ODD_VALUES:
        value = cast(int, odd)
        moves += [Knock(value), Pass(value), Peek(value, 0), Peek(actor, value)]
        moves += [Peek(actor, 0, value), Swap(actor, value, 0, 0), Swap(actor, 0, value, 0)]
        moves += [Swap(actor, 0, 0, value), Swap(value, 0, 0, 0)]
    return moves


def moves_to_try(ruleset: Ruleset, state: State) -> st.SearchStrategy[Move]:
    """One move to try in ``state``: legal or not, biased towards near misses.

    Half the time the move is the acting seat's (any action, slot or pile: the refusals
    that need thought, such as a bad slot, an ineligible bounce, a second mulligan or a
    taken card discarded); otherwise any of :func:`candidate_moves`.
    """
    every = candidate_moves(ruleset, state)
    actor = state.actor
    own = [m for m in every if not isinstance(m, Deal | Reshuffle) and m.player == actor]
    legal: Sequence[Move] = legal_moves(ruleset, state)
    options = [st.sampled_from(every)]
    if own:
        options.append(st.sampled_from(own))
    if legal:
        options.append(st.sampled_from(legal))
    return st.one_of(options)
