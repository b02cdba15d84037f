"""What a change of rules does (``gnoming impact A B``): paired games, or a corpus replayed.

**Paired games.** Game ``i`` is played twice by the same bots, once under A and once
under B, from the same seed. Its randomness comes from separate streams named by the
seed: the first player, each round's deal, each round's reshuffles, the bots' choices. So
when the two rulesets have the same deck, round ``r`` is dealt the same cards under both
(however differently the earlier rounds went), and each bot draws the same random
numbers; with different decks only the seeds are shared. Each statistic is compared game
by game, B minus A, and :func:`paired_bootstrap` gives the mean difference with a 95%
interval: the games are resampled with replacement (the pair stays together), 2,000
times, and the interval is the 2.5th to 97.5th percentile of the resampled means.

**Bots.** The seats' bots are read as ``gnoming tournament`` reads them
(:func:`~gnoming_rules.play.bot_spec.parse_bot`): built-in names, or external programs
over the bot protocol, each started for its seat at the start of each game and killed at
its end. An external bot that fails stops the run with its typed error: a pair with a
forfeit in it has no statistics to compare, and leaving it out would bias the comparison
towards the games the bot survives (docs/decisions.md).

**A corpus replayed.** Each record's moves are replayed under A and under B without the
record's score, result and ``ruleset_sha256`` claims (those are what the rules compute),
its card claims kept; a record whose verdict or result differs is reported with the
reason: the rule B refuses, or the first round whose scores differ and why.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..core.cards import Face, face_text
from ..core.engine import new_game
from ..core.errors import BotFailure, GnomingError, UsageError
from ..core.moves import Move
from ..core.ruleset import Ruleset
from ..core.scoring import score_breakdown
from ..core.state import State
from ..extras import need
from ..formats.record import AnyRecord, PublicRound, Round, read_record
from ..formats.rulesets import load_ruleset
from ..play.bot_spec import BotSpec, check_runnable, parse_bot
from ..play.bots import default_names, make_bot
from ..play.external import ExternalBot, TimeControl, end_message, launch_bot
from ..play.loop import MOVE_LIMIT, Bot, play_out, seat_bots
from ..referee.processes import in_processes
from ..referee.resolver import RulesetResolver
from ..referee.validate import replay_record
from .events import EventLog, game_counts
from .stats import GameEvents, Progress, from_replay, win_shares
from .streams import RoundChance, named_stream

RESAMPLES: Final = 2_000
"""Bootstrap resamples per statistic."""

METRICS: Final = (
    "turns",
    "bounces",
    "chains",
    "hazards",
    "flips",
    "reshuffles",
    "ended_early",
    "went_out",
    "bonus",
    "penalty",
    "mulligans_over",
    "winning_total",
    "spread",
    "mean_round_score",
    "first_player_wins",
)
"""The per-game statistics compared (counts per game, then scores and the first player)."""


def metrics(game: GameEvents) -> dict[str, float]:
    """One game's statistics: the event counts, the winning total, the spread of the totals
    (highest minus lowest), the mean round score and the first player's share of the win."""
    values: dict[str, float] = {
        name: float(count) for name, count in game_counts(game.rounds).items()
    }
    scores = [score for events in game.rounds for score in events.scores]
    values["winning_total"] = float(min(game.totals)) if game.totals else 0.0
    values["spread"] = float(max(game.totals) - min(game.totals)) if game.totals else 0.0
    values["mean_round_score"] = sum(scores) / len(scores) if scores else 0.0
    values["first_player_wins"] = win_shares(game)[game.first_player] if game.winners else 0.0
    return values


# --- paired games ------------------------------------------------------------------------------


def _stream(seed: int, *name: object) -> random.Random:
    return named_stream("gnoming-impact", seed, *name)


def play_paired(
    ruleset: Ruleset,
    players: int,
    seed: int,
    bots: Sequence[BotSpec | str],
    *,
    time_control: TimeControl | None = None,
) -> GameEvents:
    """One game of the pair under ``ruleset``: seat ``s`` is played by ``bots[s % len]``
    (a :class:`~gnoming_rules.play.bot_spec.BotSpec`, or the text
    :func:`~gnoming_rules.play.bot_spec.parse_bot` reads).

    Seats of one built-in kind share one bot, as in
    :func:`~gnoming_rules.play.bots.play_game` (a greedy bot grows impatient with the
    turns of the whole table, not its own only). An external bot's program is started for
    each of its seats (the protocol plays one seat a program) with ``time_control``
    (default :class:`~gnoming_rules.play.external.TimeControl`'s), and killed when the
    game ends; one that fails (crashes, runs out of time, answers no move or an illegal
    one) stops the comparison: its :class:`~gnoming_rules.core.errors.BotFailure`
    (``bot-crashed``, ...) is raised, naming the ruleset, the seed and the bot.
    """
    specs = [parse_bot(bot) if isinstance(bot, str) else bot for bot in bots]
    timing = time_control or TimeControl()
    first = _stream(seed, "first").randrange(players)
    shared = {
        spec.label: make_bot(spec.builtin, _stream(seed, "bot", spec.label))
        for spec in specs
        if spec.builtin is not None
    }
    names = default_names(players)
    externals: dict[int, ExternalBot] = {}
    seats: dict[int, Bot] = {}
    log = EventLog()
    state = new_game(ruleset, players, first)
    try:
        for seat in range(players):
            spec = specs[seat % len(specs)]
            if spec.builtin is not None:
                seats[seat] = shared[spec.label]
                continue
            assert spec.command is not None
            seats[seat] = externals[seat] = launch_bot(
                spec.command,
                ruleset,
                seat=seat,
                names=names,
                seed=_stream(seed, "bot", spec.label, seat).getrandbits(63),
                time_control=timing,
            )
        state = play_out(
            ruleset,
            state,
            RoundChance("gnoming-impact", seed),
            seat_bots(ruleset, seats),
            hook=lambda before, move, after: log(ruleset, before, move, after),
            too_long=lambda _state: UsageError(
                "bot-stuck", f"seed {seed}: the game did not end in {MOVE_LIMIT} moves"
            ),
        )
    except BotFailure as failure:
        for external in externals.values():
            external.end(end_message(None, (), failure.seat))
        label = specs[failure.seat % len(specs)].label
        raise BotFailure(
            failure.code,
            f"{ruleset.name}, seed {seed}, {players} players: bot {label!r} at "
            f"{failure.message}; paired games need every game played to its end",
            failure.seat,
        ) from None
    except BaseException:
        for external in externals.values():
            external.close()
        raise
    for external in externals.values():
        external.end(end_message(state.totals, state.winners, None))
    return GameEvents(
        path=f"seed {seed}",
        status=0,
        code="",
        ruleset=ruleset.name,
        players=players,
        first_player=first,
        complete=True,
        rounds=log.rounds,
        totals=state.totals,
        winners=state.winners,
    )


_RULES: dict[str, Ruleset] = {}


def _rules(source: str) -> Ruleset:
    if source not in _RULES:
        _RULES[source] = load_ruleset(source)
    return _RULES[source]


def _pair_task(
    task: tuple[str, str, int, int, tuple[BotSpec, ...], TimeControl],
) -> tuple[GameEvents, GameEvents]:
    a, b, players, seed, bots, timing = task
    return (
        play_paired(_rules(a), players, seed, bots, time_control=timing),
        play_paired(_rules(b), players, seed, bots, time_control=timing),
    )


def play_pairs(
    a: str,
    b: str,
    *,
    games: int,
    players: Sequence[int],
    bots: Sequence[BotSpec | str] = ("greedy",),
    seed: int = 0,
    jobs: int | None = None,
    progress: Progress | None = None,
    time_control: TimeControl | None = None,
) -> list[tuple[GameEvents, GameEvents]]:
    """``games`` pairs of games under rulesets ``a`` and ``b`` (names or paths); game ``i``
    has ``players[i % len(players)]`` seats and seed ``seed + i``. ``bots`` as
    :func:`play_paired` takes them; an external bot's program that cannot be found is
    ``bad-bot`` before any game."""
    specs = tuple(parse_bot(bot) if isinstance(bot, str) else bot for bot in bots)
    if not specs:
        raise UsageError("bad-bot", "paired games need one bot at least")
    for spec in specs:
        check_runnable(spec)
    timing = time_control or TimeControl()
    for source in (a, b):
        rules = _rules(source).compiled
        bounds = range(rules.min_players, rules.max_players + 1)
        refused = [count for count in players if count not in bounds]
        if refused:
            raise UsageError(
                "bad-setup",
                f"{source}: {refused[0]} players is outside its "
                f"{bounds.start} to {bounds.stop - 1}",
            )
    tasks = [
        (a, b, players[index % len(players)], seed + index, specs, timing) for index in range(games)
    ]
    pairs: list[tuple[GameEvents, GameEvents]] = []
    for pair in in_processes(_pair_task, tasks, jobs=jobs):
        pairs.append(pair)
        if progress is not None:
            progress(len(pairs))
    return pairs


# --- the paired comparison --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    """One statistic under A and B, and the paired difference with its 95% interval."""

    name: str
    a: float
    b: float
    difference: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """The interval leaves out 0."""
        return self.low > 0 or self.high < 0


def paired_bootstrap(
    a: Sequence[float], b: Sequence[float], *, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float, float]:
    """(mean of b - a, 2.5th percentile, 97.5th percentile) of the mean paired difference,
    the pairs resampled with replacement ``resamples`` times (extra ``stats``: numpy)."""
    numpy = need("numpy", "stats")
    differences = numpy.asarray(b, dtype=float) - numpy.asarray(a, dtype=float)
    if differences.size == 0:
        return 0.0, 0.0, 0.0
    generator = numpy.random.default_rng(seed)
    picks = generator.integers(0, differences.size, size=(resamples, differences.size))
    means = differences[picks].mean(axis=1)
    low, high = numpy.percentile(means, [2.5, 97.5])
    return float(differences.mean()), float(low), float(high)


def compare(pairs: Sequence[tuple[GameEvents, GameEvents]]) -> list[Difference]:
    """Every statistic of :data:`METRICS`, compared game by game (B minus A)."""
    values = [(metrics(first), metrics(second)) for first, second in pairs]
    found = []
    for index, name in enumerate(METRICS):
        a = [first[name] for first, _ in values]
        b = [second[name] for _, second in values]
        mean, low, high = paired_bootstrap(a, b, seed=index)
        count = len(values) or 1
        found.append(Difference(name, sum(a) / count, sum(b) / count, mean, low, high))
    return found


# --- a corpus replayed under B -----------------------------------------------------------------


@dataclass(slots=True)
class Change:
    """A record whose verdict or result is not the same under B as under A."""

    path: str
    kind: str
    """``verdict`` (valid under one, not the other, or another error) or ``result``."""
    why: str
    reason: str = ""
    """The kind of reason, for counting: ``B: cannot-bounce (rule 5.3)``, ``scores``."""


@dataclass(slots=True)
class Replayed:
    """A corpus under A and B: each valid record's events under both, and what changed."""

    pairs: list[tuple[GameEvents, GameEvents]] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    not_under_a: int = 0
    """Records whose ruleset_sha256 says they were not played under A (left out)."""
    unreadable: int = 0
    """Files that are no playable record under A (left out)."""
    records: int = 0


def _claims_removed(record: AnyRecord) -> AnyRecord:
    every_round: Sequence[Round | PublicRound] = record.rounds
    rounds = [round_.model_copy(update={"scores": None}) for round_ in every_round]
    return record.model_copy(update={"ruleset_sha256": None, "result": None, "rounds": rounds})


class _Finals:
    """An :class:`EventLog` that also keeps each round's final layouts (for the why)."""

    def __init__(self) -> None:
        self.log = EventLog()
        self.layouts: list[tuple[tuple[Any, ...], ...]] = []

    def __call__(self, ruleset: Ruleset, before: State, move: Move, after: State) -> None:
        self.log(ruleset, before, move, after)
        if len(after.scores) > len(before.scores):
            self.layouts.append(after.cards)


_resolver: RulesetResolver | None = None


def _replay_task(
    task: tuple[str, str, str],
) -> tuple[str, GameEvents | None, GameEvents | None, Change | None]:
    """(outcome, events under A, events under B, change) for one file; the outcome is
    ``ok``, ``not-under-a`` or ``unreadable``."""
    global _resolver  # noqa: PLW0603 - one cache per worker process
    if _resolver is None:
        _resolver = RulesetResolver(cache_files=True)
    path, a, b = task
    rules_a, rules_b = _rules(a), _rules(b)
    try:
        record = read_record(path)
    except GnomingError:
        return "unreadable", None, None, None
    if record.ruleset_sha256 is not None and record.ruleset_sha256 != rules_a.sha256:
        return "not-under-a", None, None, None
    bare = _claims_removed(record)
    seen_a, seen_b = _Finals(), _Finals()
    replay_a = replay_record(bare, ruleset=rules_a, resolver=_resolver, observe=seen_a)
    if replay_a.verdict.exit_status == 2:
        return "unreadable", None, None, None
    replay_b = replay_record(bare, ruleset=rules_b, resolver=_resolver, observe=seen_b)
    game_a = from_replay(path, replay_a, seen_a.log)
    game_b = from_replay(path, replay_b, seen_b.log)
    return (
        "ok",
        game_a,
        game_b,
        _change(
            path,
            replay_a=replay_a,
            replay_b=replay_b,
            seen_a=seen_a,
            seen_b=seen_b,
            rules_a=rules_a,
            rules_b=rules_b,
        ),
    )


def _change(
    path: str,
    *,
    replay_a: Any,
    replay_b: Any,
    seen_a: _Finals,
    seen_b: _Finals,
    rules_a: Ruleset,
    rules_b: Ruleset,
) -> Change | None:
    """What differs between the two verdicts, in words, or ``None``."""
    verdict_a, verdict_b = replay_a.verdict, replay_b.verdict
    error_a, error_b = verdict_a.error, verdict_b.error
    if (error_a is None) != (error_b is None) or (
        error_a is not None and error_b is not None and error_a.code != error_b.code
    ):

        def said(error: Any) -> str:
            if error is None:
                return "valid"
            where = "" if error.round is None else f" at round {error.round}"
            where += "" if error.move is None else f", move {error.move}"
            rule = "" if error.rule is None else f" (rule {error.rule})"
            return f"{error.code}{rule}{where}: {error.message}"

        short = "valid" if error_b is None else error_b.code
        if error_b is not None and error_b.rule is not None:
            short += f" (rule {error_b.rule})"
        return Change(path, "verdict", f"A: {said(error_a)}; B: {said(error_b)}", f"B: {short}")
    if verdict_a.scores == verdict_b.scores and verdict_a.winners == verdict_b.winners:
        return None
    for index, (scores_a, scores_b) in enumerate(
        zip(verdict_a.scores, verdict_b.scores, strict=False)
    ):
        if scores_a == scores_b:
            continue
        seat = next(s for s, (x, y) in enumerate(zip(scores_a, scores_b, strict=True)) if x != y)
        why = (
            f"round {index}: seat {seat} scores {scores_a[seat]} under A, {scores_b[seat]} under B"
        )
        events_a, events_b = seen_a.log.rounds[index], seen_b.log.rounds[index]
        if events_a.going_out != events_b.going_out or events_a.went_out != events_b.went_out:
            why += (
                f"; going out: seat {events_a.went_out} {events_a.going_out or 'nothing'} under A, "
                f"seat {events_b.went_out} {events_b.going_out or 'nothing'} under B"
            )
        if index < len(seen_a.layouts) and index < len(seen_b.layouts):
            layout_a = seen_a.layouts[index][seat]
            layout_b = seen_b.layouts[index][seat]
            if layout_a == layout_b:
                why += (
                    f"; its layout {_layout_text(rules_a, layout_a)} scores "
                    f"{_scored(rules_a, layout_a)} under A, {_scored(rules_b, layout_b)} under B"
                )
            else:
                why += (
                    f"; its layout is {_layout_text(rules_a, layout_a)} under A, "
                    f"{_layout_text(rules_b, layout_b)} under B"
                )
        if verdict_a.winners != verdict_b.winners:
            why += f"; winners {list(verdict_a.winners)} under A, {list(verdict_b.winners)} under B"
        return Change(path, "result", why, "scores")
    return Change(
        path,
        "result",
        f"winners {list(verdict_a.winners)} under A, {list(verdict_b.winners)} under B",
    )


def _layout_text(ruleset: Ruleset, layout: Sequence[Face]) -> str:
    """``5 5 M / 3 -2 9 / 5 H 1``: a layout row by row."""
    cols = ruleset.compiled.cols
    rows = [layout[start : start + cols] for start in range(0, len(layout), cols)]
    return " / ".join(" ".join(face_text(card) for card in row) for row in rows)


def _scored(ruleset: Ruleset, layout: Sequence[Face]) -> str:
    """``-3 (row 0 of 5s; wild: slot 2)``: a layout's score (8.2 to 8.5) and its sets."""
    breakdown = score_breakdown(ruleset, layout)
    sets = ", ".join(f"{line.name} of {line.value}s" for line in breakdown.sets) or "no set"
    wild = "" if not breakdown.wild else "; wild: slot " + ", ".join(map(str, breakdown.wild))
    return f"{breakdown.total} ({sets}{wild})"


def replay_corpus(
    files: Sequence[str],
    a: str,
    b: str,
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> Replayed:
    """Replay every file under rulesets ``a`` and ``b`` (names or paths)."""
    _rules(a), _rules(b)  # a bad ruleset is one error, before any file
    result = Replayed(records=len(files))
    tasks = [(str(path), a, b) for path in files]
    for done, (outcome, game_a, game_b, change) in enumerate(
        in_processes(_replay_task, tasks, jobs=jobs), 1
    ):
        if outcome == "not-under-a":
            result.not_under_a += 1
        elif outcome == "unreadable":
            result.unreadable += 1
        else:
            assert game_a is not None and game_b is not None
            if game_a.valid and game_b.valid:
                result.pairs.append((game_a, game_b))
            if change is not None:
                result.changes.append(change)
        if progress is not None:
            progress(done)
    return result


__all__ = [
    "METRICS",
    "RESAMPLES",
    "Change",
    "Difference",
    "Replayed",
    "compare",
    "metrics",
    "paired_bootstrap",
    "play_paired",
    "play_pairs",
    "replay_corpus",
]
