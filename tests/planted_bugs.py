"""Bugs planted in the engine, the scorer and the record tools, to prove each property
catches fish.

Every plant is a small monkeypatch on one of a few public seams of
``gnoming_rules.core.engine`` and its rules (``gnoming_rules.core.rules``),
``gnoming_rules.core.scoring``,
``gnoming_rules.formats.record``, ``gnoming_rules.referee.validate``,
``gnoming_rules.formats.snapshot``, ``gnoming_rules.play.observation`` and
``gnoming_rules.core.entries``, listed in ``SEAMS``: public functions and tables (no
leading underscore), most of them rule steps that their module documents as such but does
not export in ``__all__``. No plant patches a private name; when a seam is renamed, re-aim
the plants here. A plant wraps the real function where it can, so it breaks one rule and
leaves the rest as they are.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import pytest
import yaml

from gnoming_rules import (
    HAZARD,
    MULLIGAN,
    Bounce,
    Deal,
    Discard,
    Phase,
    Place,
    UnreadableYamlError,
)
from gnoming_rules.core import engine, entries, scoring
from gnoming_rules.core.compiled import CompiledRules
from gnoming_rules.core.rules import (
    bouncing,
    checks,
    hazards,
    lines,
    mulligans,
    round_end,
    setup,
    turn,
)
from gnoming_rules.core.state import State
from gnoming_rules.formats import record, snapshot
from gnoming_rules.play import observation
from gnoming_rules.referee import validate as validator

SEAMS = (
    "engine.HANDLERS (one handler per move type)",
    "rules.mulligans.mulligan_slots",
    "rules.checks.check_slot",
    "rules.bouncing.bounce_block",
    "rules.hazards.owed_flips",
    "rules.round_end.finish_turn",
    "rules.round_end.end_round",
    "scoring.set_value",
    "scoring.card_points",
    "scoring.best_choice",
    "scoring.score_with",
    "record.move_entry (a move entry as written)",
    "record.load_yaml (safe_yaml.load_yaml, as the record reader calls it)",
    "record.RECORD_ADAPTER (the pydantic reader)",
    "validate.read_structure (each round's moves and the cards their entries claim)",
    "validate.apply (the engine as the validator calls it)",
    "validate.Verdict.exit_status",
    "snapshot.PHASES and snapshot.read_mask (a saved state's phase name and slot lists)",
    "observation.held_is_hidden",
    "entries.read_entry (a move entry as a move and its claimed card)",
)
"""The public names the plants patch."""

Handler = Callable[[CompiledRules, State, Any], State]


def _wrap(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, make: Callable[..., Any]
) -> None:
    monkeypatch.setattr(owner, name, make(getattr(owner, name)))


ENGINE_MODULES = (engine, checks, setup, turn, bouncing, hazards, mulligans, lines, round_end)
"""The engine and its rules' modules: a rule step is called from those that import it."""


def _wrap_step(
    monkeypatch: pytest.MonkeyPatch, home: object, name: str, make: Callable[..., Any]
) -> None:
    """Wrap the rule step ``name`` of module ``home`` where every engine module calls it:
    each module that imports the step binds it by name, so each binding is replaced."""
    original = getattr(home, name)
    wrapped = make(original)
    for module in ENGINE_MODULES:
        if getattr(module, name, None) is original:
            monkeypatch.setattr(module, name, wrapped)


def _wrap_handler(
    monkeypatch: pytest.MonkeyPatch, move_type: type, make: Callable[[Handler], Handler]
) -> None:
    handlers = engine.HANDLERS
    monkeypatch.setitem(handlers, move_type, make(handlers[move_type]))


# --- engine plants -----------------------------------------------------------------------------


def hazard_discard_forgets_the_hazard(monkeypatch: pytest.MonkeyPatch) -> None:
    """A discarded hazard vanishes instead of joining the removed cards."""

    def make(original: Handler) -> Handler:
        def discard(rules: CompiledRules, state: State, move: Any) -> State:
            after = original(rules, state, move)
            return after.replace(removed=after.removed[:-1]) if state.held == HAZARD else after

        return discard

    _wrap_handler(monkeypatch, Discard, make)


def hazard_goes_on_a_discard_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    """A discarded hazard lands on discard pile 0 instead of leaving the game."""

    def make(original: Handler) -> Handler:
        def discard(rules: CompiledRules, state: State, move: Any) -> State:
            after = original(rules, state, move)
            if state.held != HAZARD:
                return after
            first, second = after.discard_piles
            return after.replace(
                removed=after.removed[:-1], discard_piles=((*first, HAZARD), second)
            )

        return discard

    _wrap_handler(monkeypatch, Discard, make)


def _looser_mulligan_limit(rules: CompiledRules) -> CompiledRules:
    return dataclasses.replace(rules, max_mulligans=rules.max_mulligans + 1)


def mulligan_limit_off_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plays and legal moves both allow one face-up mulligan more than the limit."""
    _wrap_handler(
        monkeypatch,
        Place,
        lambda original: (
            lambda rules, state, move: original(_looser_mulligan_limit(rules), state, move)
        ),
    )
    _wrap_step(
        monkeypatch,
        mulligans,
        "mulligan_slots",
        lambda original: (
            lambda rules, state, seat: original(_looser_mulligan_limit(rules), state, seat)
        ),
    )


def play_toggles_the_face_up_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A play XORs the slot's face-up bit: onto a face-up card, the slot turns face down."""

    def make(original: Handler) -> Handler:
        def place(rules: CompiledRules, state: State, move: Any) -> State:
            after = original(rules, state, move)
            seat, bit = move.player, 1 << move.slot
            masks = list(after.face_up)
            masks[seat] = state.face_up[seat] ^ bit
            return after.replace(face_up=tuple(masks))

        return place

    _wrap_handler(monkeypatch, Place, make)


def legal_moves_ignore_the_mulligan_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``legal_moves`` lists every slot for a held mulligan; ``apply`` still refuses some."""
    _wrap_step(
        monkeypatch, mulligans, "mulligan_slots", lambda original: lambda rules, state, seat: None
    )


def slots_go_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slot numbers are not checked against the layout (no ``bad-slot``)."""
    _wrap_step(monkeypatch, checks, "check_slot", lambda original: lambda rules, slot, rule: slot)


def layouts_change_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """Layouts are kept as lists and a play writes into them: ``apply`` changes its input."""

    def make(original: Handler) -> Handler:
        def deal(rules: CompiledRules, state: State, move: Any) -> State:
            after = original(rules, state, move)
            lists: Any = tuple(list(layout) for layout in after.cards)
            return after.replace(cards=lists)

        return deal

    def make_play(original: Handler) -> Handler:
        def play(rules: CompiledRules, state: State, move: Any) -> State:
            after = original(rules, state, move)
            layouts: Any = state.cards
            layouts[move.player][move.slot] = state.held  # the input's layout, written into
            return after.replace(cards=layouts)

        return play

    _wrap_handler(monkeypatch, Deal, make)
    _wrap_handler(monkeypatch, Place, make_play)
    _wrap_handler(monkeypatch, Bounce, make_play)


def discard_keeps_the_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the discard the same seat draws again: the turn never moves on."""

    def make(original: Callable[..., State]) -> Callable[..., State]:
        def finish_turn(rules: CompiledRules, state: State, *after_discard: Any) -> State:
            after = original(rules, state, *after_discard)
            return after.replace(turn=state.turn) if after.phase is Phase.DRAW else after

        return finish_turn

    _wrap_step(monkeypatch, round_end, "finish_turn", make)


def hazard_turns_a_last_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flips are owed by players with a single face-down card too (6.2 ignored)."""
    _wrap_step(
        monkeypatch,
        hazards,
        "owed_flips",
        lambda original: (
            lambda rules, state, seat: original(
                dataclasses.replace(rules, spare_last_card=False), state, seat
            )
        ),
    )


def hazard_makes_the_discarder_flip(monkeypatch: pytest.MonkeyPatch) -> None:
    """The player who discarded the hazard owes a flip as well."""

    def make(original: Callable[..., tuple[int, ...]]) -> Callable[..., tuple[int, ...]]:
        def flips_owed(rules: CompiledRules, state: State, seat: int) -> tuple[int, ...]:
            owed = original(rules, state, seat)
            return (*owed, seat) if state.face_down_count(seat) >= 2 else owed

        return flips_owed

    _wrap_step(monkeypatch, hazards, "owed_flips", make)


def mulligans_bounce(monkeypatch: pytest.MonkeyPatch) -> None:
    """A held mulligan may bounce (5.4 ignored)."""

    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def bounce_block(rules: CompiledRules, state: State) -> Any:
            if state.held == MULLIGAN and rules.bounce and state.chain:
                return None
            return original(rules, state)

        return bounce_block

    _wrap_step(monkeypatch, bouncing, "bounce_block", make)


def going_out_bonus_and_penalty_swapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The player who went out gets the penalty when lowest and the bonus otherwise."""
    _wrap_step(
        monkeypatch,
        round_end,
        "end_round",
        lambda original: (
            lambda rules, state, went_out: original(
                dataclasses.replace(
                    rules,
                    going_out_bonus=rules.going_out_penalty,
                    going_out_penalty=rules.going_out_bonus,
                ),
                state,
                went_out,
            )
        ),
    )


def deal_shuffles_with_the_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal reorders the draw pile with the global ``random`` module."""

    def make(original: Handler) -> Handler:
        def deal(rules: CompiledRules, state: State, move: Any) -> State:
            after = original(rules, state, move)
            pile = list(after.draw_pile)
            random.shuffle(pile)
            return after.replace(draw_pile=tuple(pile))

        return deal

    _wrap_handler(monkeypatch, Deal, make)


# --- scoring plants ----------------------------------------------------------------------------


def sets_score_plus_v(monkeypatch: pytest.MonkeyPatch) -> None:
    """A set scores +v instead of -v."""
    _wrap(
        monkeypatch,
        scoring,
        "set_value",
        lambda original: lambda line, cards, wild: -original(line, cards, wild),
    )


def columns_never_score(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only rows can be sets (the column lines are forgotten)."""

    def make(original: Callable[..., int]) -> Callable[..., int]:
        def set_value(line: Any, cards: Any, wild: int) -> int:
            is_row = line.slots[1] - line.slots[0] == 1
            return original(line, cards, wild) if is_row else 0

        return set_value

    _wrap(monkeypatch, scoring, "set_value", make)


def last_row_and_column_never_score(monkeypatch: pytest.MonkeyPatch) -> None:
    """An off-by-one: lines through the last slot are never sets."""
    _wrap(
        monkeypatch,
        scoring,
        "set_value",
        lambda original: (
            lambda line, cards, wild: (
                0 if len(cards) - 1 in line.slots else original(line, cards, wild)
            )
        ),
    )


def negative_cards_score_their_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A negative card scores its absolute value."""
    _wrap(
        monkeypatch,
        scoring,
        "card_points",
        lambda original: (
            lambda rules, card: abs(card) if type(card) is int else original(rules, card)
        ),
    )


def _best_of(
    rules: CompiledRules, cards: Any, choices: Any, pick: Callable[..., Any]
) -> tuple[int, int]:
    scored = [(scoring.score_with(rules, cards, wild), wild) for wild in choices]
    return pick(scored, key=lambda item: item[0])  # type: ignore[no-any-return]


def only_the_first_mulligan_can_be_wild(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee tries making only the first mulligan (in slot order) wild."""

    def best(rules: CompiledRules, cards: Any) -> tuple[int, int]:
        first = [slot for slot, card in enumerate(cards) if card == MULLIGAN][:1]
        choices = [0] + [1 << slot for slot in first if rules.max_mulligans]
        return _best_of(rules, cards, choices, min)

    monkeypatch.setattr(scoring, "best_choice", best)


def the_referee_takes_the_highest_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee picks the wild mulligans that score highest."""

    def best(rules: CompiledRules, cards: Any) -> tuple[int, int]:
        mulligans = [slot for slot, card in enumerate(cards) if card == MULLIGAN]
        choices = [
            sum(1 << slot for slot in chosen)
            for size in range(min(len(mulligans), rules.max_mulligans) + 1)
            for chosen in combinations(mulligans, size)
        ]
        return _best_of(rules, cards, choices, max)

    monkeypatch.setattr(scoring, "best_choice", best)


def one_wild_mulligan_too_many(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scoring lets one mulligan more than the limit be wild."""
    _wrap(
        monkeypatch,
        scoring,
        "best_choice",
        lambda original: lambda rules, cards: original(_looser_mulligan_limit(rules), cards),
    )


# --- record plants ----------------------------------------------------------------------------


def writer_leaves_out_zero_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer drops a move's fields that are falsy, not only the unset ones: seat 0,
    slot 0 and pile 0 go missing."""
    monkeypatch.setattr(
        record, "move_entry", lambda move: {key: value for key, value in move.items() if value}
    )


_FIELDS = {
    "": {"format", "ruleset", "ruleset_sha256", "players", "first_player", "rounds", "result"},
    "round": {"deal", "moves", "scores"},
    "move": {"action", "player", "slot", "source", "pile", "card", "cards"},
    "result": {"totals", "winners"},
}


def _known_fields_only(data: Any) -> Any:
    """A record's data with every field the format does not know left out (as a lenient,
    ``extra="ignore"`` reader would)."""

    def keep(value: Any, kind: str) -> Any:
        if not isinstance(value, Mapping):
            return value
        return {key: item for key, item in value.items() if key in _FIELDS[kind]}

    data = keep(data, "")
    if isinstance(data, dict):
        rounds = data.get("rounds")
        if isinstance(rounds, list):
            data["rounds"] = rounds = [keep(round_, "round") for round_ in rounds]
            for round_ in rounds:
                if isinstance(round_, dict) and isinstance(round_.get("moves"), list):
                    round_["moves"] = [keep(move, "move") for move in round_["moves"]]
        if "result" in data:
            data["result"] = keep(data["result"], "result")
    return data


def yaml_reader_ignores_unknown_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """The YAML reader drops fields it does not know instead of refusing them (JSON still
    refuses them)."""
    _wrap(
        monkeypatch,
        record,
        "load_yaml",
        lambda original: lambda raw: _known_fields_only(original(raw)),
    )


class _LenientJsonReader:
    """The record adapter, reading JSON without refusing unknown fields."""

    def __init__(self, strict: Any) -> None:
        self.strict = strict

    def validate_json(self, raw: bytes) -> Any:
        try:
            data = json.loads(raw)
        except ValueError:
            return self.strict.validate_json(raw)
        return self.strict.validate_python(_known_fields_only(data))

    def validate_python(self, data: Any) -> Any:
        return self.strict.validate_python(data)


def json_reader_accepts_unknown_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON reader drops fields it does not know instead of refusing them."""
    monkeypatch.setattr(record, "RECORD_ADAPTER", _LenientJsonReader(record.RECORD_ADAPTER))


def validator_skips_card_claims(monkeypatch: pytest.MonkeyPatch) -> None:
    """The validator reads a move's ``card`` and never checks it."""
    _wrap(
        monkeypatch,
        validator,
        "read_structure",
        lambda original: (
            lambda *args, **options: [
                (moves, [None] * len(cards)) for moves, cards in original(*args, **options)
            ]
        ),
    )


def yaml_errors_escape(monkeypatch: pytest.MonkeyPatch) -> None:
    """The YAML reader lets PyYAML's errors out instead of turning them into ``bad-record``."""

    def make(original: Callable[[bytes], object]) -> Callable[[bytes], object]:
        def load_yaml(raw: bytes) -> object:
            try:
                return original(raw)
            except UnreadableYamlError as problem:
                raise yaml.YAMLError(problem.message) from None

        return load_yaml

    _wrap(monkeypatch, record, "load_yaml", make)


def input_errors_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every failing record exits 1: input that is no playable record is not told apart."""
    monkeypatch.setattr(
        validator.Verdict, "exit_status", property(lambda verdict: 0 if verdict.valid else 1)
    )


def replay_reshuffles_the_deal_with_the_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    """The validator's replay reorders the draw pile after each deal with the global
    ``random`` module (the engine itself stays right)."""

    def make(original: Callable[..., State]) -> Callable[..., State]:
        def apply(ruleset: Any, state: State, move: Any) -> State:
            after = original(ruleset, state, move)
            if not isinstance(move, Deal):
                return after
            pile = list(after.draw_pile)
            random.shuffle(pile)
            return after.replace(draw_pile=tuple(pile))

        return apply

    _wrap(monkeypatch, validator, "apply", make)


# --- saved states, observations, entries and visible scores ------------------------------------


def phase_comes_back_as_its_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """Restoring a saved state maps the phase's name to its number, not to a ``Phase``
    (equal as an ``IntEnum`` compares, but no longer a ``Phase``)."""
    monkeypatch.setattr(
        snapshot, "PHASES", {name: int(phase) for name, phase in snapshot.PHASES.items()}
    )


def filled_slots_are_not_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Restoring a saved state drops ``filled`` (the slots filled this turn)."""
    _wrap(
        monkeypatch,
        snapshot,
        "read_mask",
        lambda original: (
            lambda read, value, path, size: (
                0 if path == "filled" else original(read, value, path, size)
            )
        ),
    )


def every_seat_sees_the_drawn_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card drawn from the draw pile shows to every seat, not only to the drawer."""
    monkeypatch.setattr(observation, "held_is_hidden", lambda state, seat: False)


def a_card_taken_from_a_discard_pile_is_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card taken from a discard pile is hidden from the other seats, as if drawn from the
    draw pile (though it lay face up)."""
    _wrap(
        monkeypatch,
        observation,
        "held_is_hidden",
        lambda original: (
            lambda state, seat: original(state.replace(taken_from_discard=False), seat)
        ),
    )


def bounce_entries_read_as_places(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``bounce`` entry reads back as a place into the same slot."""

    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def read(entry: Any, *args: Any, **options: Any) -> Any:
            if isinstance(entry, Mapping) and entry.get("action") == "bounce":
                entry = {**entry, "action": "place"}
            return original(entry, *args, **options)

        return read

    _wrap(monkeypatch, entries, "read_entry", make)


def pile_0_reads_as_no_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry's ``pile: 0`` reads as no pile (a falsy value taken for a missing one)."""

    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def read(entry: Any, *args: Any, **options: Any) -> Any:
            if entry.get("pile") == 0:
                entry = {key: value for key, value in entry.items() if key != "pile"}
            return original(entry, *args, **options)

        return read

    _wrap(monkeypatch, entries, "read_entry", make)


def face_down_cards_match_their_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hazard, which ``score_visible`` stands in for each face-down card, matches any line
    like a wild card: a line with a face-down card can be a set."""

    def make(original: Callable[..., int]) -> Callable[..., int]:
        def set_value(line: Any, cards: Any, wild: int) -> int:
            hazards = sum(1 << slot for slot in line.slots if cards[slot] == HAZARD)
            return original(line, cards, wild | hazards)

        return set_value

    _wrap(monkeypatch, scoring, "set_value", make)


def hazards_score_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hazard scores 0, so ``score_visible`` takes the hazard penalty off each face-down
    card once too often."""
    _wrap(
        monkeypatch,
        scoring,
        "card_points",
        lambda original: lambda rules, card: 0 if card == HAZARD else original(rules, card),
    )


# --- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlantedBug:
    """A bug, the property expected to catch it, and how to plant it."""

    prop: str
    plant: Callable[[pytest.MonkeyPatch], None]

    @property
    def name(self) -> str:
        return self.plant.__name__

    @property
    def description(self) -> str:
        return (self.plant.__doc__ or "").strip()


PLANTED_BUGS: tuple[PlantedBug, ...] = (
    PlantedBug("deck-conservation", hazard_discard_forgets_the_hazard),
    PlantedBug("mulligan-limit", mulligan_limit_off_by_one),
    PlantedBug("face-up-stays-up", play_toggles_the_face_up_bit),
    PlantedBug("legal-iff-apply", legal_moves_ignore_the_mulligan_limit),
    PlantedBug("legal-iff-apply", slots_go_unchecked),
    PlantedBug("purity", layouts_change_in_place),
    PlantedBug("one-discard-per-turn", discard_keeps_the_turn),
    PlantedBug("hazards-leave", hazard_goes_on_a_discard_pile),
    PlantedBug("flips-owed", hazard_turns_a_last_card),
    PlantedBug("flips-owed", hazard_makes_the_discarder_flip),
    PlantedBug("bounce-rules", mulligans_bounce),
    PlantedBug("round-end", going_out_bonus_and_penalty_swapped),
    PlantedBug("determinism", deal_shuffles_with_the_global_random),
    PlantedBug("score-transpose", columns_never_score),
    PlantedBug("score-permute", last_row_and_column_never_score),
    PlantedBug("score-lower-card", negative_cards_score_their_size),
    PlantedBug("score-wild-vs-unmatched", only_the_first_mulligan_can_be_wild),
    PlantedBug("score-breakdown", sets_score_plus_v),
    PlantedBug("score-wild-limit", one_wild_mulligan_too_many),
    PlantedBug("score-lowest-choice", the_referee_takes_the_highest_choice),
    PlantedBug("record-round-trip", writer_leaves_out_zero_fields),
    PlantedBug("record-json-yaml", yaml_reader_ignores_unknown_fields),
    PlantedBug("record-mutation", validator_skips_card_claims),
    PlantedBug("record-mutation", json_reader_accepts_unknown_fields),
    PlantedBug("record-hostile-input", yaml_errors_escape),
    PlantedBug("record-cli", input_errors_exit_1),
    PlantedBug("record-determinism", replay_reshuffles_the_deal_with_the_global_random),
    PlantedBug("state-round-trip", phase_comes_back_as_its_number),
    PlantedBug("state-round-trip", filled_slots_are_not_restored),
    PlantedBug("observation-hides", every_seat_sees_the_drawn_card),
    PlantedBug("observation-shows", a_card_taken_from_a_discard_pile_is_hidden),
    PlantedBug("entry-round-trip", bounce_entries_read_as_places),
    PlantedBug("entry-round-trip", pile_0_reads_as_no_pile),
    PlantedBug("visible-score-reading", face_down_cards_match_their_lines),
    PlantedBug("visible-score-in-play", hazards_score_nothing),
)
"""Property -> planted bug -> patch. Every property of the suite appears at least once."""
