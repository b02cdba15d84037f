"""The record validator: replay a record through the engine and return RECORD.md's verdict.

The checks run in the order RECORD.md fixes ("Order of checks"):

1. input errors, anywhere in the record, before any move is replayed: the structure
   (``bad-record``: also seats, piles and claim lengths), the ruleset
   (``unknown-ruleset``, ``ruleset-mismatch``), the player count (``bad-record``) and
   every round's deal (``bad-deal``);
2. the replay, move by move, with the engine's own refusals (it checks in RECORD order)
   and then the move's ``card`` claim;
3. each finished round's ``scores`` claim, and ``result`` once the game is complete.

The first failure stops the replay. The verdict still says which rounds had finished
(``scores``), their sums (``totals``) and, when every round finished, the ``winners``.

Speed: each distinct move entry is turned into an engine move once and the pair is
shared (engine moves are immutable), so the per-move work is a dict lookup, one
:func:`~gnoming_rules.core.engine.apply` and, when the record claims a card, one comparison.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple, TypeAlias

from ..core.cards import HAZARD, HIDDEN, Face, a_card
from ..core.engine import apply, new_game
from ..core.errors import GnomingError, IllegalMove, RecordError, RulesetError, one_line
from ..core.moves import Bounce, Deal, Discard, Draw, Flip, Move, Place, Reshuffle, Reveal
from ..core.ruleset import Ruleset, RulesetSource
from ..core.state import Phase, State
from ..formats.record import (
    AnyRecord,
    PublicRecord,
    PublicRound,
    RecordFormat,
    Result,
    Round,
    field_path,
    parse_record,
    read_record,
)
from .public import Seen, final_problem, start_problem
from .resolver import RulesetResolver

INPUT_ERROR_CODES: Final = frozenset(
    {"bad-record", "bad-deal", "unknown-ruleset", "ruleset-mismatch"}
)
"""Codes for input that is not a playable record: exit status 2 (RECORD.md)."""


_LINE_BREAKS = {code: f"\\u{code:04x}" for code in (0x85, 0x2028, 0x2029)}
"""Characters JSON allows raw in a string that ``str.splitlines()`` breaks lines at (the
others, controls below U+0020, JSON escapes itself)."""


@dataclass(frozen=True, slots=True)
class VerdictError:
    """Where and why a record fails: ``round`` and ``move`` are 0-based or ``None``."""

    round: int | None
    move: int | None
    code: str
    rule: str | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        """RECORD.md's ``error`` object."""
        return {
            "round": self.round,
            "move": self.move,
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """RECORD.md's verdict on one record."""

    valid: bool
    complete: bool
    error: VerdictError | None
    scores: tuple[tuple[int, ...], ...]
    """Every round that finished, its scores per seat (8.6 included)."""
    totals: tuple[int, ...]
    """Sums of ``scores``: zeros when no round finished; empty only when the input is no
    record (its structure is bad), since then it has no seats to count."""
    winners: tuple[int, ...]
    """The winning seats, ascending, when the game is complete; else empty."""
    information: Literal["full", "public"] = "full"
    """The kind of record judged: a public one's verdict says so (``"information":
    "public"``)."""

    @property
    def exit_status(self) -> int:
        """0 valid, 1 a rule violation or a false claim, 2 input that is not a playable record."""
        if self.error is None:
            return 0
        return 2 if self.error.code in INPUT_ERROR_CODES else 1

    def to_dict(self) -> dict[str, Any]:
        """RECORD.md's verdict object, keys in its order."""
        return {
            "valid": self.valid,
            "complete": self.complete,
            "error": None if self.error is None else self.error.to_dict(),
            "scores": [list(scores) for scores in self.scores],
            "totals": list(self.totals),
            "winners": list(self.winners),
            **({"information": "public"} if self.information == "public" else {}),
        }

    def to_json(self) -> str:
        """The verdict object as one line of JSON (what ``gnoming validate --json`` prints).

        Non-ASCII text stays as it is, except the three characters that JSON allows raw but
        that ``str.splitlines()`` (and many readers of JSON Lines) take for line breaks:
        U+0085, U+2028 and U+2029 are escaped, so that one verdict is always one line."""
        return json.dumps(self.to_dict(), ensure_ascii=False).translate(_LINE_BREAKS)


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the verdict and what a report needs to show where it stopped."""

    verdict: Verdict
    record: AnyRecord | None
    """The parsed record (``None`` when the input was not one)."""
    ruleset: Ruleset | None
    """The ruleset it was replayed under (``None`` when it could not be resolved)."""
    state: State | None
    """The state before the failing move, or where the record ends; ``None`` before any deal."""
    entry: Mapping[str, Any] | None
    """The record's move entry at fault, if a move is at fault."""


# --- entry points ---------------------------------------------------------------------------

_DEFAULT_RESOLVER = RulesetResolver()


def validate_record(
    record: AnyRecord,
    *,
    ruleset: RulesetSource | Ruleset | None = None,
    base_dir: Path | None = None,
    resolver: RulesetResolver | None = None,
) -> Verdict:
    """The verdict on ``record`` (RECORD.md).

    ``ruleset`` overrides the ruleset the record names (its ``ruleset_sha256`` is still
    checked against it); a relative path in the record is read from ``base_dir``
    (default: the current folder). ``resolver`` caches loaded rulesets.
    """
    return replay_record(record, ruleset=ruleset, base_dir=base_dir, resolver=resolver).verdict


def validate_file(
    path: str | Path,
    *,
    ruleset: RulesetSource | Ruleset | None = None,
    resolver: RulesetResolver | None = None,
) -> Verdict:
    """Read and validate a record file; unreadable input becomes a ``bad-record`` verdict."""
    return replay_file(path, ruleset=ruleset, resolver=resolver).verdict


def replay_file(
    path: str | Path,
    *,
    ruleset: RulesetSource | Ruleset | None = None,
    resolver: RulesetResolver | None = None,
    until: tuple[int, int | None] | None = None,
) -> Replay:
    """:func:`replay_record` on a file; relative ruleset paths are read from its folder."""
    file = Path(path)
    try:
        record = read_record(file)
    except RecordError as error:
        return _not_a_record(error)
    return replay_record(
        record, ruleset=ruleset, base_dir=file.parent, resolver=resolver, until=until
    )


def replay_bytes(
    data: bytes,
    *,
    format: RecordFormat | None = None,
    base_dir: Path | None = None,
    ruleset: RulesetSource | Ruleset | None = None,
    resolver: RulesetResolver | None = None,
) -> Replay:
    """:func:`replay_record` on a record's text that is in no file (a pipe, an upload):
    ``format=None`` sniffs JSON or YAML; relative ruleset paths are read from ``base_dir``
    (default: the current folder). Never raises for bad input: that is the verdict."""
    try:
        record = parse_record(data, format=format)
    except RecordError as error:
        return _not_a_record(error)
    return replay_record(record, ruleset=ruleset, base_dir=base_dir, resolver=resolver)


def replay_record(
    record: AnyRecord,
    *,
    ruleset: RulesetSource | Ruleset | None = None,
    base_dir: Path | None = None,
    resolver: RulesetResolver | None = None,
    until: tuple[int, int | None] | None = None,
) -> Replay:
    """Check and replay ``record``; see the module docstring for the order of checks.

    ``until=(round, move)`` pauses the replay just before that move (``move=None``: at the
    end of that round); the verdict then covers what was replayed.
    """
    players = len(record.players)
    try:
        rounds = _compile_rounds(record, players)
    except RecordError as error:
        return _not_a_record(error, record)
    zeros = (0,) * players
    information = _information(record)

    def refused(
        code: str,
        message: str,
        round_: int | None = None,
        rules: Ruleset | None = None,
        rule: str = "3.1",
    ) -> Replay:
        error = VerdictError(round_, None, code, None if code != "bad-deal" else rule, message)
        verdict = Verdict(False, False, error, (), zeros, (), information)  # one total a seat
        return Replay(verdict, record, rules, None, None)

    try:
        rules = _resolve(record, ruleset, base_dir, resolver or _DEFAULT_RESOLVER)
    except GnomingError as error:
        return refused("unknown-ruleset", error.message)
    claimed = record.ruleset_sha256
    if claimed is not None and claimed != rules.sha256:
        return refused(
            "ruleset-mismatch",
            f"the record was written under rules {claimed[:12]}..., but "
            f"{_ruleset_label(record, ruleset, rules)} has {rules.sha256[:12]}...: the rules "
            "differ, so the replay would not be the game that was played",
            rules=rules,
        )
    try:
        start = new_game(rules, players, record.first_player)
    except GnomingError as error:
        return refused("bad-record", error.message, rules=rules)
    deals: list[Deal] = []
    deck = rules.compiled.deck_counts
    if isinstance(record, PublicRecord):
        for index, public in enumerate(record.rounds):
            problem = None if public.final is None else final_problem(rules, players, public.final)
            if problem is not None:
                return refused("bad-record", f"rounds[{index}].{problem}", rules=rules)
        for index, public in enumerate(record.rounds):
            problem = start_problem(rules, public.start)
            if problem is not None:
                return refused("bad-deal", f"rounds[{index}].{problem}", index, rules, "3.3")
        return _replay(record, rules, start, deals, rounds, until=until)
    for index, round_ in enumerate(record.rounds):
        deal = Deal(tuple(round_.deal))
        if Counter(deal.cards) != deck:  # the engine says what is wrong with it
            try:
                apply(rules, start, deal)
            except IllegalMove as refusal:
                message = f"rounds[{index}].deal: {refusal.message}"
                return refused("bad-deal", message, index, rules)
        deals.append(deal)
    return _replay(record, rules, start, deals, rounds, until=until)


def engine_moves(record: AnyRecord) -> list[list[Move]]:
    """Each round's moves as engine moves (deals not included); raises ``bad-record``."""
    return [[move for move, _ in steps] for steps in _compile_rounds(record, len(record.players))]


# --- step 1: input ---------------------------------------------------------------------------


def _information(record: AnyRecord | None, public: bool = False) -> Literal["full", "public"]:
    return "public" if public or isinstance(record, PublicRecord) else "full"


def _not_a_record(error: RecordError, record: AnyRecord | None = None) -> Replay:
    verdict = Verdict(
        False,
        False,
        VerdictError(error.round, error.move, error.code, None, error.message),
        (),
        (),
        (),
        _information(record, error.public),
    )
    return Replay(verdict, record, None, None, None)


def _resolve(
    record: AnyRecord,
    override: RulesetSource | Ruleset | None,
    base_dir: Path | None,
    resolver: RulesetResolver,
) -> Ruleset:
    if isinstance(override, Ruleset):
        return override
    source = record.ruleset if override is None else override
    what = "the ruleset given" if override is not None else "the record's ruleset"
    try:
        return resolver.resolve(source, None if override is not None else base_dir)
    except RulesetError as error:
        raise GnomingError(error.code, f"{what} cannot be used: {error.message}") from None
    except OSError as error:  # the file system refused the question (a name too long, ...)
        reason = error.strerror or type(error).__name__
        raise GnomingError("unknown-ruleset", f"{what} cannot be looked up: {reason}") from None
    except (RecursionError, ValueError) as error:  # a ruleset file nested or sized absurdly
        reason = one_line(str(error) or type(error).__name__)
        raise GnomingError("bad-ruleset", f"{what} cannot be read: {reason}") from None


def _ruleset_label(
    record: AnyRecord, override: RulesetSource | Ruleset | None, rules: Ruleset
) -> str:
    if override is not None:
        return f"the ruleset given ({one_line(rules.name) or 'inline'})"
    if isinstance(record.ruleset, str):
        return f"ruleset {one_line(record.ruleset)!r}"
    return "the inline ruleset"


Claim: TypeAlias = tuple[Face, int, int, str]
"""A card claim: (face, seat, slot, verb); seat -1 means the held card after the move."""
Step: TypeAlias = tuple[Move, Claim | None]


class _Malformed(NamedTuple):
    """A move entry that is not a move: the field at fault and why."""

    field: str
    message: str


_STEPS: dict[int, dict[tuple[Any, ...], Step | _Malformed]] = {}
"""Per player count: a move entry's values -> its engine move and claim, or (field, error)."""
_STEPS_LIMIT = 100_000


def _compile_rounds(record: AnyRecord, players: int) -> list[list[Step]]:
    """Every move entry as an engine move plus its claim; raises ``bad-record`` (step 1)."""
    if record.first_player >= players:
        raise RecordError(
            "bad-record",
            f"first_player: seat {record.first_player} does not exist ({_seats(players)})",
        )
    cache = _STEPS.setdefault(players, {})
    if len(cache) > _STEPS_LIMIT:
        cache.clear()
    compiled: list[list[Step]] = []
    every_round: Sequence[Round | PublicRound] = record.rounds
    for round_index, round_ in enumerate(every_round):
        steps: list[Step] = []
        append = steps.append
        for move_index, entry in enumerate(round_.moves):
            # The values alone identify an entry (pydantic gives keys in schema order), except
            # that a draw's two optional fields could be mistaken for each other: prefix the pile.
            key = (entry.get("pile", 2), *entry.values())
            try:
                step = cache.get(key)
            except TypeError:  # a reshuffle: its cards are a list
                step = _step(entry, players)
            else:
                if step is None:
                    step = cache[key] = _step(entry, players)
            if type(step) is _Malformed:
                path = field_path(("rounds", round_index, "moves", move_index, step.field))
                raise RecordError("bad-record", f"{path}: {step.message}", round_index, move_index)
            append(step)  # type: ignore[arg-type]
        if round_.scores is not None and len(round_.scores) != players:
            raise RecordError(
                "bad-record",
                f"rounds[{round_index}].scores: {len(round_.scores)} scores for {players} players",
            )
        compiled.append(steps)
    result = record.result
    if result is not None:
        if result.totals is not None and len(result.totals) != players:
            raise RecordError(
                "bad-record", f"result.totals: {len(result.totals)} totals for {players} players"
            )
        for seat in result.winners or ():
            if seat >= players:
                raise RecordError(
                    "bad-record",
                    f"result.winners: seat {seat} does not exist ({_seats(players)})",
                )
    return compiled


def _step(entry: Mapping[str, Any], players: int) -> Step | _Malformed:
    """One move entry as (engine move, claim), or (field, message) when it is malformed."""
    action = entry["action"]
    if action == "reshuffle":  # a public record's has no cards: the replay knows them
        return Reshuffle(tuple(entry.get("cards", ()))), None
    player = entry["player"]
    if player >= players:
        return _Malformed("player", f"seat {player} does not exist ({_seats(players)})")
    card = entry.get("card")
    move: Move
    if action == "draw":
        pile = entry.get("pile")
        if entry["source"] == "deck":
            if pile is not None:
                return _Malformed("pile", "a draw from the deck names no pile")
        elif pile is None:
            return _Malformed("pile", "a draw from the discard must name its pile, 0 or 1")
        move = Draw(player, pile)
        return move, None if card is None else (card, -1, 0, "drew")
    if action == "discard":
        return Discard(player, entry.get("pile")), None
    slot = entry["slot"]
    if action == "reveal":
        return Reveal(player, slot), None if card is None else (card, player, slot, "revealed")
    if action == "flip":
        return Flip(player, slot), None if card is None else (card, player, slot, "flipped")
    move = Place(player, slot) if action == "place" else Bounce(player, slot)
    return move, None if card is None else (card, -1, 0, "displaced")


# --- step 2 and 3: the replay and the claims -------------------------------------------------


def _replay(
    record: AnyRecord,
    rules: Ruleset,
    state: State,
    deals: Sequence[Deal],
    rounds: Sequence[Sequence[Step]],
    *,
    until: tuple[int, int | None] | None = None,
) -> Replay:
    """Replay every round; the first refusal or false claim ends it (or ``until``).

    A public record (no ``deals``) is replayed on stand-ins for the cards nobody has seen
    yet (:mod:`~gnoming_rules.public`): each card it names where one becomes visible
    takes its stand-in's place, and a finished round's ``final`` layouts score it.
    """
    information = _information(record)
    seen = Seen(rules) if isinstance(record, PublicRecord) else None

    def stop(at: State, error: VerdictError, reached: State | None = None) -> Replay:
        """The replay ends at ``at``; ``reached`` is the state the verdict is read from."""
        entry = None
        if error.round is not None and error.move is not None:
            moves = _round(record, error.round).moves
            entry = moves[error.move] if error.move < len(moves) else None
        return Replay(_verdict(reached or at, error, information), record, rules, at, entry)

    for round_index, steps in enumerate(rounds):
        if round_index and state.phase is Phase.OVER:
            count = rules.rounds
            return stop(
                state,
                VerdictError(
                    round_index,
                    None,
                    "moves-after-end",
                    "2.2",
                    f"the game has {count} round{'s' if count > 1 else ''}: "
                    f"round {round_index} is one too many",
                ),
            )
        if round_index and state.phase is not Phase.DEAL:
            stopped = len(rounds[round_index - 1])
            return stop(
                state,
                VerdictError(
                    round_index - 1,
                    stopped,
                    "wrong-phase",
                    "8.1",
                    f"round {round_index - 1} stops after {stopped} moves before it is over "
                    f"({_waiting(state)}), yet round {round_index} follows",
                ),
            )
        public = record.rounds[round_index] if isinstance(record, PublicRecord) else None
        if seen is not None and isinstance(public, PublicRound):
            try:
                state = seen.begin(rules, state, public.start)
            except IllegalMove as refusal:
                error = VerdictError(round_index, None, refusal.code, refusal.rule, refusal.message)
                return stop(state, error)
        else:
            state = apply(rules, state, deals[round_index])
        pause = until is not None and until[0] == round_index
        limit = until[1] if until is not None and pause else None
        if limit is not None and limit < len(steps):
            steps = steps[:limit]  # noqa: PLW2901 - replay only up to the pause
        else:
            limit = None
        for move_index, (move, claim) in enumerate(steps):
            try:
                if seen is not None and type(move) is Reshuffle:
                    after = seen.reshuffle(rules, state)
                else:
                    after = apply(rules, state, move)
            except IllegalMove as refusal:
                try:
                    after = retry_hazard_discard(rules, state, move, refusal)
                except IllegalMove as final:
                    rule = None if final.code == "bad-record" else final.rule
                    error = VerdictError(round_index, move_index, final.code, rule, final.message)
                    return stop(state, error)
            if claim is not None:
                face, seat, slot, verb = claim
                shown = after.held if seat < 0 else after.cards[seat][slot]
                if shown != face:
                    player = after.turn if seat < 0 else seat
                    if seen is None or shown != HIDDEN:
                        message = (
                            f"seat {player} {verb} {a_card(shown)}, but the record says "
                            f"{a_card(face)}"
                        )
                        error = VerdictError(
                            round_index, move_index, "card-mismatch", None, message
                        )
                        return stop(state, error, after)
                    try:
                        after = _learn(seen, after, move, claim)
                    except IllegalMove as refusal:
                        error = VerdictError(
                            round_index, move_index, refusal.code, refusal.rule, refusal.message
                        )
                        return stop(state, error, after)
            elif seen is not None and type(move) in (Place, Bounce) and after.held == HIDDEN:
                path = field_path(("rounds", round_index, "moves", move_index, "card"))
                message = (
                    f"{path}: missing: the {move.action} turned up a face-down card, which a "
                    "public record names"
                )
                error = VerdictError(round_index, move_index, "bad-record", None, message)
                return stop(state, error, after)
            if seen is not None and len(after.scores) > round_index:
                assert isinstance(public, PublicRound)
                if public.final is None:
                    message = (
                        f"rounds[{round_index}].final: missing: the round is over, and a "
                        "public record gives every layout as the round ended (8.1)"
                    )
                    error = VerdictError(round_index, None, "bad-record", None, message)
                    return stop(state, error)  # a round nobody can score
                try:
                    after = seen.finish(rules, after, public.final)
                except IllegalMove as refusal:
                    error = VerdictError(
                        round_index, None, refusal.code, refusal.rule, refusal.message
                    )
                    return stop(state, error)
            state = after
        if len(state.scores) > round_index:
            claimed = _round(record, round_index).scores
            scored = state.scores[round_index]
            if claimed is not None and tuple(claimed) != scored:
                message = (
                    f"round {round_index} scores {_listed(scored)}, but the record claims "
                    f"{_listed(claimed)} ({_differing(scored, claimed)})"
                )
                return stop(state, VerdictError(round_index, None, "score-mismatch", "8", message))
        if pause:
            entry = None if limit is None else _round(record, round_index).moves[limit]
            return Replay(_verdict(state, None, information), record, rules, state, entry)
    result = record.result
    if state.is_over and result is not None:
        mismatch = _result_mismatch(state, result)
        if mismatch is not None:
            return stop(state, VerdictError(None, None, "result-mismatch", "9.1", mismatch))
    return Replay(_verdict(state, None, information), record, rules, state, None)


def _round(record: AnyRecord, index: int) -> Round | PublicRound:
    return record.rounds[index]


def _learn(seen: Seen, after: State, move: Move, claim: Claim) -> State:
    """``after`` with the card a public record names where a stand-in was: the card drawn
    from the draw pile, displaced or turned up (checked by :class:`Seen`)."""
    face, seat, slot, verb = claim
    if seat >= 0:
        seen.learn(face, f"seat {seat} {verb}")
        layout = after.cards[seat]
        cards = (*layout[:slot], face, *layout[slot + 1 :])
        return after._replace(cards=(*after.cards[:seat], cards, *after.cards[seat + 1 :]))
    if type(move) is Draw:
        seen.drawn(face, after.turn)
    else:
        seen.learn(face, f"seat {after.turn} {verb}")
    return after._replace(held=face)


def _result_mismatch(state: State, result: Result) -> str | None:
    """Why the ``result`` claim is false (RULES 9.1), or ``None`` if it holds."""
    if result.totals is not None and tuple(result.totals) != state.totals:
        return (
            f"the totals are {_listed(state.totals)}, but the record claims "
            f"{_listed(result.totals)} ({_differing(state.totals, result.totals)})"
        )
    if result.winners is not None and set(result.winners) != set(state.winners):
        return (
            f"the winners are seats {_listed(state.winners)}, but the record claims "
            f"{_listed(sorted(set(result.winners)))}"
        )
    return None


def retry_hazard_discard(rules: Ruleset, state: State, move: Move, refusal: IllegalMove) -> State:
    """A hazard's discard naming a pile is read as one naming none.

    RECORD.md makes the pile "required unless the card is a hazard" (docs/decisions.md,
    record reading 2); the engine itself refuses a pile for a hazard.
    """
    if type(move) is Discard and move.pile is not None and state.held == HAZARD:
        return apply(rules, state, Discard(move.player))
    raise refusal


def _verdict(
    state: State, error: VerdictError | None, information: Literal["full", "public"] = "full"
) -> Verdict:
    over = state.is_over
    return Verdict(
        error is None,
        over,
        error,
        state.scores,
        state.totals,
        state.winners if over else (),
        information,
    )


def _waiting(state: State) -> str:
    """What the game waits for, in words."""
    phase = state.phase
    if phase is Phase.RESHUFFLE:
        return "a reshuffle is due"
    seat = state.actor
    what = {
        Phase.REVEAL: "reveal a card",
        Phase.DRAW: "draw",
        Phase.PLACE: "play or discard the held card",
        Phase.BOUNCE: "bounce or discard the held card",
        Phase.FLIP: "flip a card",
    }.get(phase, phase.name.lower())
    return f"seat {seat} must {what}"


def _seats(players: int) -> str:
    """``3 players: seats 0 to 2``; ``1 player: seat 0``."""
    return f"{players} players: seats 0 to {players - 1}" if players > 1 else "1 player: seat 0"


def _listed(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(value) for value in values) + "]"


def _differing(actual: Sequence[int], claimed: Sequence[int]) -> str:
    seats = [str(seat) for seat, (a, c) in enumerate(zip(actual, claimed, strict=True)) if a != c]
    return f"seat{'s' if len(seats) > 1 else ''} {', '.join(seats)}"


__all__ = [
    "INPUT_ERROR_CODES",
    "Replay",
    "Verdict",
    "VerdictError",
    "engine_moves",
    "replay_bytes",
    "replay_file",
    "replay_record",
    "validate_file",
    "validate_record",
]
