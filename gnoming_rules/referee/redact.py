"""From a full record to its public form: :func:`redact` (``gnoming redact``).

A full record holds every card dealt; its public form (``information: public``,
docs/record-format.md) holds only what the whole table saw. :func:`redact` replays the full record
and writes what each move showed: each ``deal`` becomes the round's ``start`` (the cards
that started the discard piles and the hazards removed meanwhile), each reshuffle loses
its ``cards``, every ``card`` the public form requires is filled in from the replay, and
each finished round gets its ``final`` layouts. Seats, names, the ruleset reference and
every claim are kept as they were.

So a valid full record gives a valid public one with the same scores and winners, and
one refused for a rule gives one refused with the same code at the same move (the test
suite checks both over random games). A refused record's public form stops at the move
refused (docs/decisions.md): what follows was never replayed, so nobody saw its cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.cards import EMPTY, Face, sorted_faces
from ..core.engine import apply, new_game
from ..core.entries import card_claim, played_move
from ..core.errors import INPUT_ERROR_CODES, RecordError
from ..core.moves import Bounce, Deal, Draw, Move, Place, Reshuffle
from ..core.ruleset import Ruleset
from ..core.state import Phase, State
from ..formats.record import FORMAT, PublicRecord, Record
from ..formats.rulesets import RulesetSource
from .resolver import RulesetResolver
from .validate import read_structure, replay_record

_REQUIRED = frozenset({"reveal", "flip", "draw"})
"""Actions whose ``card`` a public record always names."""


def redact(
    record: Record,
    *,
    ruleset: RulesetSource | Ruleset | None = None,
    base_dir: Path | None = None,
    resolver: RulesetResolver | None = None,
) -> PublicRecord:
    """The public-information form of the full record ``record`` (docs/record-format.md).

    ``ruleset``, ``base_dir`` and ``resolver`` as for
    :func:`~gnoming_rules.referee.validate.validate_record`. Raises
    :class:`~gnoming_rules.core.errors.RecordError` with the verdict's code when ``record`` is
    no playable record (``bad-record``, ``bad-deal``, ``unknown-ruleset``,
    ``ruleset-mismatch``): there is no game to tell.

    Example::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.play import play_game
        >>> from gnoming_rules.referee import validate_record
        >>> from gnoming_rules.referee.redact import redact
        >>> record, final = play_game(gr.load_ruleset("standard"), players=3, seed=7)
        >>> public = redact(record)
        >>> public.information, public.rounds[0].start.piles  # no deal: the piles it started
        ('public', [12, 3])
        >>> validate_record(public).totals == validate_record(record).totals
        True
    """
    replay = replay_record(record, ruleset=ruleset, base_dir=base_dir, resolver=resolver)
    error = replay.verdict.error
    if error is not None and error.code in INPUT_ERROR_CODES:
        raise RecordError(error.code, error.message, error.round, error.move)
    rules = replay.ruleset
    assert rules is not None  # resolved, or the verdict would be an input error
    down = rules.compiled.placed_down
    stop_round = error.round if error is not None else None
    stop_move = error.move if error is not None else None
    players = len(record.players)
    state = new_game(rules, players, record.first_player)
    rounds: list[dict[str, Any]] = []
    steps = read_structure(record, players, rules.compiled)  # the ruleset's piles
    every = [moves for moves, _ in steps]
    for index, (round_, moves) in enumerate(zip(record.rounds, every, strict=True)):
        deal = Deal(tuple(round_.deal))
        if (stop_round is not None and index > stop_round) or state.phase is not Phase.DEAL:
            # the round after one that stopped unfinished, or one beyond the game's count:
            # the replay refused it as a whole, never a move of it
            rounds.append({"start": _start(rules, players, deal), "moves": []})
            break
        state = apply(rules, state, deal)
        entries: list[dict[str, Any]] = []
        public: dict[str, Any] = {"start": _start_of(state), "moves": entries}
        rounds.append(public)
        last = stop_move if index == stop_round and stop_move is not None else None
        blind = False  # under `down`: the card held was drawn from the deck, seen by its drawer
        for number, (entry, move) in enumerate(zip(round_.moves, moves, strict=True)):
            if number == last:
                claim_refused = error is not None and error.code == "card-mismatch"
                entries.append(_unreplayed(rules, entry, state, keep_card=claim_refused))
                break
            after = _apply(rules, state, move)
            entries.append(_public_entry(entry, move, state, after, down=down, blind=blind))
            if not isinstance(move, Reshuffle):  # a reshuffle mid-turn: the card stays held
                blind = down and isinstance(move, Draw) and move.pile is None
            state = after
        if round_.scores is not None:
            public["scores"] = list(round_.scores)
        if len(state.scores) > index:
            public["final"] = [  # null: a slot emptied during play (10.6)
                [None if card == EMPTY else card for card in layout] for layout in state.cards
            ]
        if index == stop_round and (stop_move is None or stop_move < len(round_.moves)):
            break  # else the round stopped unfinished: the next one is what was refused
    data: dict[str, Any] = {
        "format": FORMAT,
        "information": "public",
        "ruleset": record.ruleset,
        "players": record.players,
        "first_player": record.first_player,
        "rounds": rounds,
    }
    if record.ruleset_sha256 is not None:
        data["ruleset_sha256"] = record.ruleset_sha256
    if record.result is not None:
        data["result"] = record.result.model_dump(exclude_none=True)
    return PublicRecord.model_validate(data)


def _apply(rules: Ruleset, state: State, move: Move) -> State:
    """The next state, as the validator replays the move (a hazard's discard naming a pile
    too)."""
    if isinstance(move, Deal):
        return apply(rules, state, move)
    return apply(rules, state, played_move(rules.compiled, state, move))


def _start(rules: Ruleset, players: int, deal: Deal) -> dict[str, Any]:
    """The ``start`` of a round dealt ``deal`` (only its cards matter, not whose round)."""
    return _start_of(apply(rules, new_game(rules, players), deal))


def _start_of(dealt: State) -> dict[str, Any]:
    """The ``start`` of the round just dealt: each discard pile's first card, the hazards
    removed while starting them (left out when there are none)."""
    start: dict[str, Any] = {"piles": [pile[-1] for pile in dealt.discard_piles]}
    if dealt.removed:
        start["removed"] = list(dealt.removed)
    return start


def _public_entry(
    entry: Mapping[str, Any],
    move: Move,
    before: State,
    after: State,
    *,
    down: bool = False,
    blind: bool = False,
) -> dict[str, Any]:
    """``entry`` as a public record writes it: a reshuffle without its cards, and the card
    the move showed wherever the public form requires one. Under ``play.placed: down``
    (``down``, rule 11.3) a draw from the deck names nothing (only its drawer saw it), and
    the discard of that card unplayed (``blind``: the card held is that draw) names it."""
    public = {key: value for key, value in entry.items() if key != "cards" and value is not None}
    action = public["action"]
    if action == "peek" or (
        down and action == "draw" and isinstance(move, Draw) and move.pile is None
    ):
        public.pop("card", None)  # only the peeking seat, or the drawer, saw it (rule 11.1)
    elif action == "discard" and blind:
        public["card"] = before.held
    elif action in _REQUIRED or (
        isinstance(move, Place | Bounce) and not before.face_up[move.player] >> move.slot & 1
    ):
        public["card"] = card_claim(move, after, before)
    return public


def _unreplayed(
    rules: Ruleset, entry: Mapping[str, Any], before: State, *, keep_card: bool
) -> dict[str, Any]:
    """The refused move's entry. A false claim keeps its ``card`` (the claim is what was
    refused); a move refused for a rule names, where the public form requires a card, one
    the whole table sees (any face will do: the refusal comes before the card is read, and
    a face-down card or the draw pile's top was seen by nobody)."""
    public = {key: value for key, value in entry.items() if key != "cards" and value is not None}
    deck_draw = public["action"] == "draw" and public.get("source") == "deck"
    down = rules.compiled.placed_down
    if not keep_card or public["action"] == "peek" or (down and deck_draw):
        public.pop("card", None)  # (under `down` only the drawer saw a deck draw, 11.3)
    if "card" not in public and public["action"] in _REQUIRED and not (down and deck_draw):
        public["card"] = _card_in_sight(rules, public, before)
    return public


def _card_in_sight(rules: Ruleset, entry: Mapping[str, Any], state: State) -> Face:
    """A card the whole table sees: the one where ``entry`` looks if it is face up, else
    a discard pile's top, else any face-up card, else the deck's lowest face (the ruleset
    tells it)."""
    player, slot = entry.get("player"), entry.get("slot")
    seats = range(state.players)
    if (
        entry["action"] != "draw"
        and type(player) is int
        and type(slot) is int
        and player in seats
        and 0 <= slot < rules.slots
        and state.is_face_up(player, slot)
        and state.cards[player][slot] != EMPTY
    ):
        return state.cards[player][slot]
    tops = [pile[-1] for pile in state.discard_piles if pile]
    if tops:
        return tops[0]
    for seat in seats:
        for there in range(rules.slots):
            if state.is_face_up(seat, there) and state.cards[seat][there] != EMPTY:
                return state.cards[seat][there]
    return sorted_faces(rules.compiled.deck)[0]


__all__ = ["redact"]
