"""The record validator: replay a record through the engine and return the verdict of
docs/record-format.md.

The checks run in the order the record format fixes ("Order of checks"):

1. input errors, anywhere in the record, before any move is replayed: the structure
   (``bad-record``: also seats, piles and claim lengths), the ruleset
   (``unknown-ruleset``, ``ruleset-mismatch``), the player count (``bad-record``) and
   every round's deal (``bad-deal``);
2. the replay, move by move, with the engine's own refusals (it checks in RECORD order)
   and then the move's ``card`` claim;
3. each finished round's ``scores`` claim, and ``result`` once the game is complete.

The first failure stops the replay. The verdict still says which rounds had finished
(``scores``), their sums (``totals``) and, when every round finished, the ``winners``.

The replay is one loop: entry -> move (:func:`~gnoming_rules.core.entries.read_entry`,
the move layer's reading, done for the whole record first since input errors win) ->
:func:`~gnoming_rules.core.engine.apply` -> the claim check
(:func:`~gnoming_rules.core.entries.card_claim`). Moves are the ruleset's shared values,
so reading an entry builds nothing; per move the work is one ``apply`` and, when the
record claims a card, one comparison.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

from ..core.cards import HIDDEN, Face, a_card
from ..core.compiled import CompiledRules
from ..core.engine import HANDLERS, apply, new_game
from ..core.entries import (
    CLAIM_VERBS,
    Malformed,
    MoveTable,
    card_claim,
    move_to_entry,
    played_move,
    read_move,
    seats_text,
)
from ..core.errors import (
    INPUT_ERROR_CODES,
    MAX_PROBLEMS,
    DealError,
    ErrorCode,
    GnomingError,
    IllegalMove,
    PileError,
    RecordError,
    RecordProblem,
    RulesetError,
    json_line,
    one_line,
)
from ..core.fields import field_path
from ..core.moves import (
    Bounce,
    Deal,
    Discard,
    Draw,
    Flip,
    Move,
    Place,
    PlayerMove,
    Reshuffle,
    Reveal,
)
from ..core.rules.lines import remove_lines
from ..core.ruleset import MAX_PILES, Ruleset
from ..core.state import Phase, State
from ..formats.record import (
    AnyRecord,
    PublicRecord,
    PublicRound,
    RecordFormat,
    Result,
    Round,
    parse_record,
    read_record,
)
from ..formats.rulesets import RulesetSource
from .public import Seen, final_problem, start_problem
from .resolver import RulesetResolver


@dataclass(frozen=True, slots=True)
class VerdictError:
    """Where and why a record fails: ``round`` and ``move`` are 0-based or ``None``."""

    round: int | None
    move: int | None
    code: ErrorCode
    rule: str | None
    message: str
    problems: tuple[RecordProblem, ...] = ()
    """Every fault of a ``bad-record`` record's structure (the first is this error's own),
    when it has several (see :attr:`RecordError.problems`)."""

    def to_dict(self) -> dict[str, Any]:
        """The record format's ``error`` object; ``problems`` lists every fault of a
        record's structure when there are several (docs/record-format.md)."""
        found: dict[str, Any] = {
            "round": self.round,
            "move": self.move,
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
        }
        if len(self.problems) > 1:
            found["problems"] = [problem._asdict() for problem in self.problems]
        return found


@dataclass(frozen=True, slots=True)
class Verdict:
    """The record format's verdict on one record."""

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
        """The record format's verdict object, keys in its order."""
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
        return json_line(self.to_dict())


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
    move: PlayerMove | Reshuffle | None = None
    """The record's move at fault (or the one a paused replay stops before), if any."""
    card: Face | None = None
    """The card that move's entry claims, if it claims one."""

    @property
    def entry(self) -> dict[str, Any] | None:
        """:attr:`move` as its record entry (with its ``card`` claim), if there is one."""
        return None if self.move is None else move_to_entry(self.move, self.card)


Observer: TypeAlias = Callable[[Ruleset, State, Move, State], None]
"""Called with ``(ruleset, before, move, after)`` for every step the replay accepts, deals
included: what :mod:`gnoming_rules.corpus.events` counts rule events from, so that one
replay gives both the verdict and the statistics."""

# --- entry points ---------------------------------------------------------------------------

_DEFAULT_RESOLVER = RulesetResolver()


def validate_record(
    record: AnyRecord,
    *,
    ruleset: RulesetSource | Ruleset | None = None,
    base_dir: Path | None = None,
    resolver: RulesetResolver | None = None,
) -> Verdict:
    """The verdict on ``record`` (docs/record-format.md).

    ``ruleset`` overrides the ruleset the record names (its ``ruleset_sha256`` is still
    checked against it; the caller's choice, read from anywhere). A ruleset file the
    record names is read from ``base_dir``, the record's folder, and must lie inside it;
    with ``base_dir=None`` (a record in no file) only bundled and inline rulesets are
    used. ``resolver`` caches loaded rulesets and may widen that (its ``trusted`` folders).

    Example::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.play import play_game
        >>> from gnoming_rules.referee import validate_record
        >>> record, final = play_game(gr.load_ruleset("standard"), players=3, seed=7)
        >>> verdict = validate_record(record)
        >>> verdict.valid, verdict.complete, verdict.winners == final.winners
        (True, True, True)
    """
    return replay_record(record, ruleset=ruleset, base_dir=base_dir, resolver=resolver).verdict


def validate_file(
    path: str | Path,
    *,
    ruleset: RulesetSource | Ruleset | None = None,
    resolver: RulesetResolver | None = None,
) -> Verdict:
    """Read and validate a record file; unreadable input becomes a ``bad-record`` verdict.

    Example (from the repository's top folder)::

        >>> import gnoming_rules as gr
        >>> from gnoming_rules.referee import validate_file
        >>> verdict = validate_file("examples/tiny-game.json")
        >>> verdict.valid, verdict.totals, verdict.winners
        (True, (-10, -18, 7), (1,))
        >>> refused = validate_file("examples/illegal/wrong-phase.json")
        >>> refused.valid, refused.error.code, refused.error.rule, refused.error.move
        (False, 'wrong-phase', '4.1', 6)
    """
    return replay_file(path, ruleset=ruleset, resolver=resolver).verdict


def replay_file(
    path: str | Path,
    *,
    ruleset: RulesetSource | Ruleset | None = None,
    resolver: RulesetResolver | None = None,
    until: tuple[int, int | None] | None = None,
    observe: Observer | None = None,
) -> Replay:
    """:func:`replay_record` on a file; the ruleset files it may name lie in its folder."""
    file = Path(path)
    try:
        record = read_record(file)
    except RecordError as error:
        return _not_a_record(error)
    return replay_record(
        record,
        ruleset=ruleset,
        base_dir=file.parent,
        resolver=resolver,
        until=until,
        observe=observe,
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
    ``format=None`` sniffs JSON or YAML. With no ``base_dir`` the record may name bundled
    and inline rulesets only; with one, also files inside it (the folder the record
    stands for). Never raises for bad input: that is the verdict."""
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
    observe: Observer | None = None,
) -> Replay:
    """Check and replay ``record``; see the module docstring for the order of checks.

    ``until=(round, move)`` pauses the replay just before that move (``move=None``: at the
    end of that round); the verdict then covers what was replayed. ``observe`` is called
    with every step the replay accepts (a deal, a move whose claim holds).

    Example (from the repository's top folder)::

        >>> from pathlib import Path
        >>> import gnoming_rules as gr
        >>> from gnoming_rules.formats import read_record
        >>> from gnoming_rules.referee import replay_record
        >>> record = read_record("examples/tiny-game.json")  # names its ruleset file
        >>> replay = replay_record(record, base_dir=Path("examples"))
        >>> replay.verdict.valid, replay.ruleset.name, replay.state.is_over
        (True, 'tiny', True)
        >>> paused = replay_record(record, base_dir=Path("examples"), until=(0, 3))
        >>> paused.state.phase.name, paused.state.turn
        ('DRAW', 2)
    """
    players = len(record.players)
    try:
        rules: Ruleset | None = _resolve(record, ruleset, base_dir, resolver or _DEFAULT_RESOLVER)
    except GnomingError as unresolved:  # reported after the structure, which comes first
        rules, problem = None, unresolved.message
    claimed = record.ruleset_sha256
    trusted = rules is not None and (claimed is None or claimed == rules.sha256)
    try:
        # The number of discard piles bounds ``pile`` only under the record's own rules:
        # unknown or mismatched rules leave every pile a ruleset may have.
        rounds = read_structure(
            record,
            players,
            rules.compiled if trusted and rules is not None else None,
            piles=None if trusted else MAX_PILES,
            # read as `up` where the ruleset cannot be resolved (the record format, rule 11)
            placed="down" if rules is not None and rules.compiled.placed_down else "up",
        )
    except RecordError as error:
        return _not_a_record(error, record)
    zeros = (0,) * players
    information = _information(record)

    refused = _Refusals(record, zeros, information)

    if rules is None:
        return refused("unknown-ruleset", problem)
    table = rules.compiled
    if claimed is not None and not trusted:
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
    deck = table.deck_counts
    if isinstance(record, PublicRecord):  # its rounds start as the table saw them start
        for index, public in enumerate(record.rounds):
            fault = None if public.final is None else final_problem(rules, players, public.final)
            if fault is not None:
                return refused("bad-record", f"rounds[{index}].{fault}", rules=rules)
        for index, public in enumerate(record.rounds):
            fault = start_problem(rules, public.start)
            if fault is not None:
                return refused("bad-deal", f"rounds[{index}].{fault}", index, rules, "3.3")
        return _replay(record, rules, start, deals, rounds, until=until, observe=observe)
    for index, round_ in enumerate(record.rounds):
        deal = Deal(tuple(round_.deal))
        # (dict's == in C, not Counter's in Python: the same, as neither holds a zero)
        if not dict.__eq__(Counter(deal.cards), deck):  # the engine says what is wrong
            try:
                apply(rules, start, deal)
            except DealError as refusal:  # a record's bad-deal
                message = f"rounds[{index}].deal: {refusal.message}"
                return refused("bad-deal", message, index, rules)
        deals.append(deal)
    return _replay(record, rules, start, deals, rounds, until=until, observe=observe)


def engine_moves(record: AnyRecord) -> list[list[Move]]:
    """Each round's moves as engine moves (deals not included); raises ``bad-record``."""
    return [list(moves) for moves, _ in read_structure(record, len(record.players))]


# --- step 1: input ---------------------------------------------------------------------------


def _information(record: AnyRecord | None, public: bool = False) -> Literal["full", "public"]:
    return "public" if public or isinstance(record, PublicRecord) else "full"


def _not_a_record(error: RecordError, record: AnyRecord | None = None) -> Replay:
    verdict = Verdict(
        False,
        False,
        VerdictError(error.round, error.move, error.code, None, error.message, error.problems),
        (),
        (),
        (),
        _information(record, error.public),
    )
    return Replay(verdict, record, None, None)


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
        if override is not None:  # the caller's choice: trusted, read from anywhere
            return resolver.resolve(override, None, trust=True)
        return resolver.resolve(source, base_dir)
    except RulesetError as error:
        raise RulesetError(error.code, f"{what} cannot be used: {error.message}") from None
    except OSError as error:  # the file system refused the question (a name too long, ...)
        reason = error.strerror or type(error).__name__
        raise RulesetError("unknown-ruleset", f"{what} cannot be looked up: {reason}") from None
    except (RecursionError, ValueError) as error:  # a ruleset file nested or sized absurdly
        reason = one_line(str(error) or type(error).__name__)
        raise RulesetError("bad-ruleset", f"{what} cannot be read: {reason}") from None


def _ruleset_label(
    record: AnyRecord, override: RulesetSource | Ruleset | None, rules: Ruleset
) -> str:
    if override is not None:
        return f"the ruleset given ({one_line(rules.name) or 'inline'})"
    if isinstance(record.ruleset, str):
        return f"ruleset {one_line(record.ruleset)!r}"
    return "the inline ruleset"


Steps: TypeAlias = tuple[list[PlayerMove | Reshuffle], list[Face | None]]
"""A round's moves, and the card each move's entry claims (two lists, not a pair a move:
building a tuple for each costs more than reading the entry)."""


def read_structure(
    record: AnyRecord,
    players: int,
    table: MoveTable | None = None,
    *,
    piles: int | None = None,
    placed: Literal["up", "down"] | None = None,
) -> list[Steps]:
    """Step 1's structure: the seats the record names exist, its claims hold one number a
    seat, and every move entry reads as a move (the move layer's
    :func:`~gnoming_rules.core.entries.read_entry`). Returns each round's moves with their
    claimed cards; raises ``bad-record`` at the first fault, in document order, listing
    every fault (:attr:`RecordError.problems`). ``table``: the ruleset's shared moves (its
    compiled view), if it is known; ``piles``: the number of discard piles that bounds
    ``pile`` when no table says it. ``placed``: how the ruleset plays a card (rule 11.3),
    which decides where a public record's ``draw`` and ``discard`` name their card
    (:func:`_public_card_problem`); ``None`` leaves those fields unchecked."""
    fault = _Faults()
    seats = seats_text(players)
    if record.first_player >= players:
        seat = record.first_player
        fault(RecordProblem(None, None, f"first_player: seat {seat} does not exist ({seats})"))
    rounds: list[Steps] = []
    public = isinstance(record, PublicRecord)
    every_round: Sequence[Round | PublicRound] = record.rounds
    for round_index, round_ in enumerate(every_round):
        moves: list[PlayerMove | Reshuffle] = []
        cards: list[Face | None] = []
        entries: list[dict[str, Any]] = round_.moves  # type: ignore[assignment]
        for move_index, entry in enumerate(entries):
            move = read_move(entry, players, table, piles=piles)
            if type(move) is Malformed:
                path = field_path(("rounds", round_index, "moves", move_index, move.field))
                fault(RecordProblem(round_index, move_index, f"{path}: {move.message}"))
            elif public and placed is not None:
                problem = _public_card_problem(entry, placed)
                if problem is not None:
                    path = field_path(("rounds", round_index, "moves", move_index, "card"))
                    fault(RecordProblem(round_index, move_index, f"{path}: {problem}"))
            moves.append(move)  # type: ignore[arg-type]
            cards.append(entry.get("card"))
        if round_.scores is not None and len(round_.scores) != players:
            count = f"{len(round_.scores)} scores for {players} players"
            fault(RecordProblem(None, None, f"rounds[{round_index}].scores: {count}"))
        rounds.append((moves, cards))
    result = record.result
    if result is not None:
        if result.totals is not None and len(result.totals) != players:
            count = f"{len(result.totals)} totals for {players} players"
            fault(RecordProblem(None, None, f"result.totals: {count}"))
        for seat in result.winners or ():
            if seat >= players:
                fault(
                    RecordProblem(
                        None, None, f"result.winners: seat {seat} does not exist ({seats})"
                    )
                )
    if fault.found:
        raise RecordError.of(fault.faults, fault.found)
    return rounds


def _public_card_problem(entry: Mapping[str, Any], placed: Literal["up", "down"]) -> str | None:
    """Why a public record's ``draw`` or ``discard`` entry names its card where it must not,
    or not where it must, under ``play.placed`` (the record format's readings of rule 11): a draw
    names the card drawn, except a draw from the deck under ``down``, which only the drawer
    saw; a discard names none, except under ``down`` (where naming the card of an unplayed
    deck draw is required: the replay says which, :func:`_replay`)."""
    action = entry["action"]
    named = entry.get("card") is not None
    if action == "draw":
        if placed == "down" and entry["source"] == "deck":
            if named:
                return (
                    "a draw from the deck names no card in a public record under play.placed: "
                    "down (rule 11.3): only the drawer saw it"
                )
            return None
        return None if named else "missing field"
    if action == "discard" and named and placed == "up":
        return (
            "unknown field: a discard names its card only in a public record under "
            "play.placed: down (rule 11.3)"
        )
    return None


# --- step 2 and 3: the replay and the claims -------------------------------------------------


class _Faults:
    """The first :data:`MAX_PROBLEMS` faults (a hostile record may hold a million), and how
    many there are: ``fault(problem)``. A class, not a closure (see :class:`_Refusals`)."""

    __slots__ = ("faults", "found")

    def __init__(self) -> None:
        self.faults: list[RecordProblem] = []
        self.found = 0

    def __call__(self, problem: RecordProblem) -> None:
        self.found += 1
        if len(self.faults) < MAX_PROBLEMS:
            self.faults.append(problem)


class _Refusals:
    """A refusal before the replay (no state reached): ``refused(code, message, ...)``.

    A small class rather than a closure: compiled by mypyc, a closure and its environment
    hold each other, a cycle per record replayed that only the collector frees."""

    __slots__ = ("information", "record", "zeros")

    def __init__(
        self, record: AnyRecord, zeros: tuple[int, ...], information: Literal["full", "public"]
    ) -> None:
        self.record, self.zeros, self.information = record, zeros, information

    def __call__(
        self,
        code: ErrorCode,
        message: str,
        round_: int | None = None,
        rules: Ruleset | None = None,
        rule: str = "3.1",
    ) -> Replay:
        error = VerdictError(round_, None, code, None if code != "bad-deal" else rule, message)
        # one total a seat
        verdict = Verdict(False, False, error, (), self.zeros, (), self.information)
        return Replay(verdict, self.record, rules, None)


class _Stops:
    """The end of a replay at a state: ``stop(at, error, reached)`` (a class, not a
    closure, for the reason :class:`_Refusals` gives)."""

    __slots__ = ("information", "record", "rounds", "rules")

    def __init__(
        self,
        record: AnyRecord,
        rules: Ruleset,
        rounds: Sequence[Steps],
        information: Literal["full", "public"],
    ) -> None:
        self.record, self.rules, self.rounds, self.information = record, rules, rounds, information

    def __call__(self, at: State, error: VerdictError, reached: State | None = None) -> Replay:
        """The replay ends at ``at``; ``reached`` is the state the verdict is read from."""
        move = card = None
        if error.round is not None and error.move is not None:
            played, claimed = self.rounds[error.round]
            if error.move < len(played):
                move, card = played[error.move], claimed[error.move]
        verdict = _verdict(reached or at, error, self.information)
        return Replay(verdict, self.record, self.rules, at, move, card)


def _replay(
    record: AnyRecord,
    rules: Ruleset,
    state: State,
    deals: Sequence[Deal],
    rounds: Sequence[Steps],
    *,
    until: tuple[int, int | None] | None = None,
    observe: Observer | None = None,
) -> Replay:
    """Replay every round; the first refusal or false claim ends it (or ``until``).

    A public record (no ``deals``) is replayed on stand-ins for the cards nobody has seen
    yet (:mod:`~gnoming_rules.referee.public`): each card it names where one becomes
    visible takes its stand-in's place, and a finished round's ``final`` layouts score it.
    """
    table = rules.compiled
    handlers = HANDLERS
    information = _information(record)
    seen = Seen(rules) if isinstance(record, PublicRecord) else None

    stop = _Stops(record, rules, rounds, information)

    for round_index, (moves, cards) in enumerate(rounds):
        if round_index and state.phase is Phase.OVER:
            count = rules.compiled.rounds
            why = (
                f"the game has {count} round{'s' if count > 1 else ''}"
                if state.round >= count
                else f"the game ended after round {state.round - 1}, when a total reached "
                f"the end score {rules.compiled.end_score}"
            )
            return stop(
                state,
                VerdictError(
                    round_index,
                    None,
                    "moves-after-end",
                    "2.2" if state.round >= count else "10.8",
                    f"{why}: round {round_index} is one too many",
                ),
            )
        if round_index and state.phase is not Phase.DEAL:
            stopped = len(rounds[round_index - 1][0])
            return stop(
                state,
                VerdictError(
                    round_index - 1,
                    stopped,
                    "wrong-phase",
                    "8.1",
                    f"round {round_index - 1} stops after {stopped} moves before it is over "
                    f"({state.waiting}), yet round {round_index} follows",
                ),
            )
        public = _round(record, round_index) if seen is not None else None
        if seen is not None and isinstance(public, PublicRound):
            try:
                begun = seen.begin(rules, state, public.start)
            except IllegalMove as refusal:
                error = VerdictError(round_index, None, refusal.code, refusal.rule, refusal.message)
                return stop(state, error)
            if observe is not None:  # the deal as the table saw it: every card unknown
                observe(rules, state, Deal((HIDDEN,) * len(table.deck)), begun)
            state = begun
        else:
            dealt = apply(rules, state, deals[round_index])
            if observe is not None:
                observe(rules, state, deals[round_index], dealt)
            state = dealt
        pause = until is not None and until[0] == round_index
        limit = until[1] if until is not None and pause else None
        end = len(moves)
        if limit is not None and limit < end:
            end = limit  # replay only up to the pause
        else:
            limit = None
        for move_index in range(end):
            move = moves[move_index]
            card = cards[move_index]
            kind = type(move)
            if kind is Discard:
                move = played_move(table, state, move)
            try:
                if seen is not None and kind is Reshuffle:  # the order nobody saw
                    after = seen.reshuffle(rules, state)
                else:
                    after = handlers[kind](table, state, move)
            except IllegalMove as refusal:
                return stop(state, refused_move(refusal, round_index, move_index))
            if seen is not None and kind is Discard and table.placed_down:
                try:  # rule 11.3: a discard may name its card, an unseen deck draw's must
                    after = _discarded(table, seen, state, after, move, card=card)
                except IllegalMove as refusal:
                    path = field_path(("rounds", round_index, "moves", move_index, "card"))
                    message = (
                        refusal.message if refusal.code != "bad-record" else path + refusal.message
                    )
                    error = VerdictError(
                        round_index, move_index, refusal.code, refusal.rule, message
                    )
                    return stop(state, error, after)
            elif card is not None:
                shown = card_claim(move, after, state)
                if shown != card:
                    player = after.turn if kind is not Reveal and kind is not Flip else move.player  # type: ignore[union-attr]
                    if seen is None or shown != HIDDEN:
                        message = (
                            f"seat {player} {CLAIM_VERBS[kind]} {a_card(shown)}, "
                            f"but the record says {a_card(card)}"
                        )
                        error = VerdictError(
                            round_index, move_index, "card-mismatch", None, message
                        )
                        return stop(state, error, after)
                    try:  # a public record names a card nobody had seen
                        after = _learn(table, seen, after, move, card)
                    except IllegalMove as refusal:
                        error = VerdictError(
                            round_index, move_index, refusal.code, refusal.rule, refusal.message
                        )
                        return stop(state, error, after)
            elif (
                seen is not None
                and (kind is Place or kind is Bounce)
                and (
                    after.held == HIDDEN
                    # under `down` a face-down card the table knows is named too (11.3)
                    or (table.placed_down and not state.is_face_up(move.player, move.slot))  # type: ignore[union-attr]
                )
            ):
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
            if seen is not None and table.placed_down:
                seen.track(move)
            if observe is not None:
                observe(rules, state, move, after)
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
            if limit is None:
                return Replay(_verdict(state, None, information), record, rules, state)
            verdict = _verdict(state, None, information)
            return Replay(verdict, record, rules, state, moves[limit], cards[limit])
    result = record.result
    if state.is_over and result is not None:
        mismatch = _result_mismatch(state, result)
        if mismatch is not None:
            return stop(state, VerdictError(None, None, "result-mismatch", "9.1", mismatch))
    return Replay(_verdict(state, None, information), record, rules, state)


def _round(record: AnyRecord, index: int) -> Round | PublicRound:
    return record.rounds[index]


def _learn(
    rules: CompiledRules, seen: Seen, after: State, move: PlayerMove | Reshuffle, card: Face
) -> State:
    """``after`` with the card a public record names where a stand-in was (the card drawn
    from the draw pile, displaced or turned up), counted by :class:`Seen`."""
    if type(move) is Reveal or type(move) is Flip:
        seat, slot = move.player, move.slot
        seen.learn(card, f"seat {seat} {CLAIM_VERBS[type(move)]}", after)
        layout = after.cards[seat]
        cards = (*layout[:slot], card, *layout[slot + 1 :])
        seats = (*after.cards[:seat], cards, *after.cards[seat + 1 :])
        piles = after.discard_piles
        if rules.remove_lines:  # the card completes a line only now that it is known (10.6)
            seats, piles = remove_lines(rules, seats, after.face_up, piles, seat)
        return after.replace(cards=seats, discard_piles=piles)
    if type(move) is Draw:
        seen.drawn(card, after.turn, after)
    else:
        play: Place = move  # type: ignore[assignment]
        blind = (play.player, play.slot) in seen.blind
        seen.named(card, f"seat {after.turn} {CLAIM_VERBS[type(move)]}", after, blind)
    return after.replace(held=card)


def _discarded(
    rules: CompiledRules,
    seen: Seen,
    before: State,
    after: State,
    move: PlayerMove | Reshuffle,
    *,
    card: Face | None,
) -> State:
    """``after`` a public record's ``discard`` under ``play.placed: down`` (rule 11.3),
    the engine's rules already checked: a card it names is compared with the card held
    (``card-mismatch``); a card drawn from the deck and discarded unplayed, which the table
    sees only now, must be named (``bad-record``), is counted (``impossible-card``), and
    the discard is replayed with it (its power, rule 11.4, follows its face)."""
    discard: Discard = move  # type: ignore[assignment]
    held = before.held
    if held != HIDDEN:
        if card is not None and card != held:
            raise IllegalMove(
                "card-mismatch",
                None,
                f"seat {discard.player} discarded {a_card(held)}, but the record says "
                f"{a_card(card)}",
            )
        return after
    if card is None:
        raise IllegalMove(
            "bad-record",
            None,
            ": missing: the discard turns up the card drawn from the deck, which a public "
            "record names (rule 11.3)",
        )
    seen.named(card, f"seat {discard.player} discarded", before, seen.held_blind)
    return HANDLERS[Discard](rules, before.replace(held=card), move)


def refused_move(refusal: IllegalMove, round_index: int, move_index: int) -> VerdictError:
    """The verdict's error for the engine's refusal of a record's move: the one place where
    the record's code is decided. A :class:`~gnoming_rules.core.errors.PileError` is a
    malformed entry (the record format: "a non-hazard with no pile: ``bad-record`` at that
    move"), with no rule number; any other refusal keeps its code and rule."""
    if type(refusal) is PileError:
        return VerdictError(round_index, move_index, "bad-record", None, refusal.message)
    return VerdictError(round_index, move_index, refusal.code, refusal.rule, refusal.message)


def _result_mismatch(state: State, result: Result) -> str | None:
    """Why the ``result`` claim is false (rule 9.1), or ``None`` if it holds."""
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


def _listed(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(value) for value in values) + "]"


def _differing(actual: Sequence[int], claimed: Sequence[int]) -> str:
    seats = [str(seat) for seat, (a, c) in enumerate(zip(actual, claimed, strict=True)) if a != c]
    return f"seat{'s' if len(seats) > 1 else ''} {', '.join(seats)}"


__all__ = [
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
