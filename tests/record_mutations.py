"""One field of a valid record changed, and what RECORD.md says the verdict must then be.

:func:`mutations` draws a :class:`Mutation` of a recorded game: which field (every kind:
``format``, ``ruleset``, ``ruleset_sha256``, ``players``, ``first_player``, the rounds,
deal items, every move field, card claims, ``scores``, ``result``), how (another value
of the same type, a wrong type, a deletion, an extra field or list item, an
out-of-range or huge integer, deep nesting) and the :class:`Expect`\\ ed verdict. The
expectations are read from RECORD.md, not from the validator:

- input errors (``bad-record``, ``bad-deal``, ``unknown-ruleset``, ``ruleset-mismatch``)
  are found before any move is replayed, so the one the mutation makes is the verdict,
  at its own place: inside a move at (round, move), else (null, null), a deal at
  (round, null);
- a change that keeps the record well formed but breaks the game (a seat, a slot, a
  card claim, a score) fails at the changed move or later, never before: the moves
  before it are those of a legal game;
- a change the spec ignores (a player's name, an optional claim left out, a claim on an
  unfinished round, a pile named for a hazard) leaves the record valid.

:func:`render` writes mutated data as JSON or YAML text; two markers stand for values
that Python's writers cannot produce: :class:`Deep` (a list nested thousands deep),
:class:`Digits` (an integer literal longer than Python converts) and :class:`Escaped`
(a string written with ``\\u`` escapes, lone surrogates included).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

import yaml
from hypothesis import strategies as st

import gnoming_rules as gr
from gnoming_rules.core.errors import INPUT_ERROR_CODES, INT64_MAX, INT64_MIN
from gnoming_rules.formats.record import FORMAT, RecordFormat
from gnoming_rules.referee.validate import Verdict
from gnoming_rules.testing import RecordedGame

# --- kinds and expectations ------------------------------------------------------------------

SAME_TYPE: Final = "another value of the same type"
WRONG_TYPE: Final = "a value of the wrong type"
DELETION: Final = "deletion"
EXTRA: Final = "an extra field or item"
OUT_OF_RANGE: Final = "an out-of-range integer"
HUGE_INT: Final = "a huge integer"
DEEP: Final = "deep nesting"
REORDER: Final = "the same items in another order"

KINDS: Final = (SAME_TYPE, WRONG_TYPE, DELETION, EXTRA, OUT_OF_RANGE, HUGE_INT, DEEP, REORDER)

RULE_CODES: Final = frozenset(gr.ERROR_CODES) - INPUT_ERROR_CODES
"""Rule violations and false claims: what a well-formed record can fail with."""

Place = tuple[int | None, int | None]
FieldPath = tuple[str | int, ...]
NOWHERE: Final[Place] = (None, None)


@dataclass(frozen=True)
class Expect:
    """What the verdict on the mutated record must be.

    ``outcome``: ``valid``, ``invalid`` or ``either``. When the verdict is invalid, its
    code is one of ``codes`` (any stable code if empty) and its (round, move) one of
    ``at`` (anywhere if empty). A rule violation or false claim never lies before
    ``after`` (round, move); a round's claim lies at its end and ``result`` after the
    last round.
    """

    outcome: Literal["valid", "invalid", "either"]
    codes: frozenset[str] = frozenset()
    at: frozenset[Place] = frozenset()
    after: tuple[int, int] | None = None


VALID: Final = Expect("valid")


def fails(code: str | frozenset[str], *at: Place, after: tuple[int, int] | None = None) -> Expect:
    """The record must be invalid with ``code`` (one of them) at one of ``at``."""
    codes = frozenset({code}) if isinstance(code, str) else code
    return Expect("invalid", codes, frozenset(at), after)


def bad_record(at: Place = NOWHERE) -> Expect:
    """``bad-record`` at ``at`` (a move's place when the field is inside a move)."""
    return fails("bad-record", at)


def unless_huge(value: Any, expect: Expect, at: Place = NOWHERE) -> Expect:
    """``expect``, unless ``value`` is an integer beyond the signed 64-bit range: every
    integer of a record must lie in it, so such a value is ``bad-record`` at ``at``."""
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        return bad_record(at)
    return expect


@dataclass(frozen=True)
class Deep:
    """A value nested ``depth`` lists deep, written as text by :func:`render`."""

    depth: int


@dataclass(frozen=True)
class Digits:
    """An integer literal of ``count`` nines: more digits than Python converts at 4,300."""

    count: int


@dataclass(frozen=True)
class Escaped:
    """A string written in ASCII with ``\\uXXXX`` escapes: a character beyond U+FFFF as a
    surrogate pair, and a lone surrogate (no Unicode text), which UTF-8 cannot hold."""

    text: str


Marker = Deep | Digits | Escaped


@dataclass(frozen=True)
class Mutation:
    """``path`` in the record's JSON data changed by ``kind``: set to ``value``, deleted
    (``delete``), or ``value`` inserted before the list index that ends ``path``."""

    field: str
    kind: str
    path: FieldPath
    value: Any = None
    delete: bool = False
    insert: bool = False
    expect: Expect = VALID

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        """A changed copy of ``data``."""
        changed: dict[str, Any] = json.loads(json.dumps(data))
        parent: Any = changed
        for key in self.path[:-1]:
            parent = parent[key]
        last = self.path[-1]
        if self.delete:
            del parent[last]
        elif self.insert:
            parent.insert(last, self.value)
        else:
            parent[last] = self.value
        return changed

    def __repr__(self) -> str:
        what = "delete" if self.delete else f"insert {self.value!r}" if self.insert else "set"
        value = "" if self.delete or self.insert else f" {_short(self.value)}"
        return f"Mutation({self.field}, {self.kind}: {what} {_path(self.path)}{value})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _path(path: FieldPath) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)[1:]


# --- checking a verdict against the expectation -----------------------------------------------


def _order(place: Place) -> tuple[float, float]:
    """A verdict's place in replay order: a round's end after its moves, ``result`` last."""
    round_, move = place
    return (math.inf if round_ is None else round_, math.inf if move is None else move)


def check_verdict(verdict: Verdict, mutation: Mutation) -> None:
    """The verdict is well formed and is what ``mutation.expect`` says."""
    expect = mutation.expect
    assert "\n" not in verdict.to_json()
    error = verdict.error
    if error is None:
        assert verdict.valid and verdict.exit_status == 0
        assert expect.outcome != "invalid", f"{mutation}: the record stayed valid"
        return
    assert not verdict.valid and error.code in gr.ERROR_CODES, error
    assert error.message and "\n" not in error.message, error
    assert verdict.exit_status == (2 if error.code in INPUT_ERROR_CODES else 1)
    assert expect.outcome != "valid", f"{mutation}: the verdict is {error}"
    if expect.codes:
        assert error.code in expect.codes, f"{mutation}: {error}; expected {set(expect.codes)}"
    place = (error.round, error.move)
    if expect.at:
        assert place in expect.at, f"{mutation}: {error}; expected at {set(expect.at)}"
    if expect.after is not None and (error.code in RULE_CODES or error.code in expect.codes):
        assert _order(place) >= expect.after, f"{mutation}: {error} lies before {expect.after}"


# --- writing mutated data ----------------------------------------------------------------------


def _token(marker: Marker) -> str:
    return f"__gnoming_marker_{id(marker)}__"


def _markers(value: Any) -> Iterator[Marker]:
    if isinstance(value, Marker):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _markers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _markers(item)


def _replace_markers(value: Any) -> Any:
    if isinstance(value, Marker):
        return _token(value)
    if isinstance(value, dict):
        return {key: _replace_markers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_replace_markers(item) for item in value]
    return value


def _marker_text(marker: Marker) -> str:
    """The same text in JSON and in YAML (whose flow style and double quotes are JSON's)."""
    if isinstance(marker, Deep):
        return "[" * marker.depth + "]" * marker.depth
    if isinstance(marker, Digits):
        return "9" * marker.count
    return json.dumps(marker.text)


def render(data: Any, format: RecordFormat) -> str:
    """``data`` as JSON text (``json.dumps``) or YAML text (PyYAML's safe, block-style
    writer), markers written out in place."""
    plain = _replace_markers(data)
    if format == "json":
        text = json.dumps(plain, ensure_ascii=False)
        for marker in _markers(data):
            text = text.replace(json.dumps(_token(marker)), _marker_text(marker), 1)
        return text
    text = yaml.dump(plain, Dumper=_SAFE_DUMPER, sort_keys=False, allow_unicode=True)
    for marker in _markers(data):
        text = text.replace(_token(marker), _marker_text(marker), 1)
    return text


_SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's, when installed


# --- values ------------------------------------------------------------------------------------

Values = st.SearchStrategy[Any]
WRONG_FOR_INT: Values = st.sampled_from([True, False, 1.0, 2.5, "1", "", None, [], {}, [1]])
WRONG_FOR_TEXT: Values = st.sampled_from([0, 1, True, 1.5, None, [], {}, ["x"]])
WRONG_FOR_CARD: Values = st.sampled_from(
    ["x", "h", "m", "", "?", "ABCD", 1.5, 2.0, True, False, [], {}, [3]]
)
"""Not faces: 0 and a name such as "X" are well formed (RULES 10.1, RECORD "Faces")."""
WRONG_FOR_LIST: Values = st.sampled_from([0, "x", True, 1.5, None, {}, {"a": 1}])
HUGE: Values = st.one_of(
    st.sampled_from([2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, -(2**64)]),
    st.integers(10**18, 10**40),
    st.integers(20, 4_000).map(lambda digits: 10**digits + 7),
    st.integers(-4_000, -20).map(lambda digits: -(10 ** (-digits)) - 3),
)
DEEP_VALUES: Values = st.one_of(
    st.integers(185, 215),  # across the JSON reader's limit: 200 levels, the record's included
    st.sampled_from([2, 40, 300, 600, 5_000, 100_000]),
).map(Deep)
TOO_MANY_DIGITS = st.integers(4_301, 6_000).map(Digits)


def choose(options: Sequence[Any]) -> st.SearchStrategy[Any]:
    """One of ``options``, spread evenly: ``sampled_from`` favours the first ones (and
    Hypothesis tries the simplest choices first), which would leave later fields and
    kinds of change rarely tried."""
    return st.integers(0, 2**32 - 1).map(
        lambda seed: options[(seed + 1) * 0x9E3779B1 % 2**32 % len(options)]
    )


def faces(ruleset: gr.Ruleset) -> st.SearchStrategy[gr.Face]:
    """A card face: mostly the ruleset's own, sometimes any number."""
    own = sorted(set(ruleset.compiled.deck), key=str)
    return st.sampled_from(own) | st.integers(-40, 40).filter(bool) | st.sampled_from(["H", "M"])


# --- the record as a set of mutation sites ------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """A recorded game, its JSON data and where each move's state lies."""

    recorded: RecordedGame
    data: dict[str, Any]
    after: dict[tuple[int, int], int]
    """(round, move) -> index in ``game.states`` of the state after that move."""

    @property
    def ruleset(self) -> gr.Ruleset:
        return self.recorded.game.ruleset

    @property
    def players(self) -> int:
        return len(self.data["players"])

    @property
    def rounds(self) -> list[dict[str, Any]]:
        rounds: list[dict[str, Any]] = self.data["rounds"]
        return rounds

    def moves(self) -> list[tuple[int, int]]:
        return [(r, m) for r, round_ in enumerate(self.rounds) for m in range(len(round_["moves"]))]

    def state_after(self, round_: int, move: int) -> gr.State:
        return self.recorded.game.states[self.after[(round_, move)]]


def context_of(recorded: RecordedGame) -> Context:
    after: dict[tuple[int, int], int] = {}
    round_, move = -1, 0
    for index, played in enumerate(recorded.game.moves):
        if isinstance(played, gr.Deal):
            round_, move = round_ + 1, 0
            continue
        after[(round_, move)] = index + 1
        move += 1
    return Context(recorded, recorded.data(), after)


Site = Callable[[st.DrawFn, Context], Mutation]


def _another(draw: st.DrawFn, count: int, current: int) -> int:
    """One of ``0 .. count - 1`` other than ``current`` (a seat, a slot)."""
    return (current + draw(st.integers(1, count - 1))) % count


def _other(draw: st.DrawFn, values: st.SearchStrategy[Any], current: Any) -> Any:
    """A value from ``values`` that differs from ``current`` (type included)."""
    return draw(values.filter(lambda value: value != current or type(value) is not type(current)))


def _format(draw: st.DrawFn, ctx: Context) -> Mutation:
    path: FieldPath = ("format",)
    kind = draw(choose([SAME_TYPE, WRONG_TYPE, DELETION, DEEP]))
    if kind == DELETION:
        return Mutation("format", kind, path, delete=True, expect=bad_record())
    values = {
        SAME_TYPE: st.sampled_from(["gnoming-record/2", "GNOMING-RECORD/1", "", " "]) | st.text(),
        WRONG_TYPE: WRONG_FOR_TEXT,
        DEEP: DEEP_VALUES,
    }[kind]
    value = _other(draw, values, FORMAT)
    return Mutation("format", kind, path, value, expect=bad_record())


def _ruleset_verdict(value: Any, sha256: str) -> Expect:
    """The verdict a record gets when its ``ruleset`` says ``value`` (hash unchanged)."""
    try:
        rules = gr.load_ruleset(value, base_dir=Path("/nonexistent-folder"))
    except gr.RulesetError:
        return fails("unknown-ruleset", NOWHERE)
    return VALID if rules.sha256 == sha256 else fails("ruleset-mismatch", NOWHERE)


def _ruleset(draw: st.DrawFn, ctx: Context) -> Mutation:
    value: Any
    path: FieldPath = ("ruleset",)
    sha256 = ctx.ruleset.sha256
    kind = draw(choose([SAME_TYPE, SAME_TYPE, WRONG_TYPE, DELETION, EXTRA, DEEP]))
    if kind == DELETION:
        return Mutation("ruleset", kind, path, delete=True, expect=bad_record())
    if kind == WRONG_TYPE:
        value = draw(st.sampled_from([0, 1.5, True, None, [], ["standard"], ""]))
        return Mutation("ruleset", kind, path, value, expect=bad_record())
    if kind == DEEP:
        deep = draw(DEEP_VALUES)
        if draw(st.booleans()):
            return Mutation("ruleset", kind, path, deep, expect=bad_record())
        # Nested inside an inline ruleset: the ruleset cannot be used, or the reader gives up.
        value = {"extends": "standard", "rounds": deep}
        expect = fails(frozenset({"unknown-ruleset", "bad-record"}), NOWHERE)
        return Mutation("ruleset", kind, path, value, expect=expect)
    if kind == EXTRA:  # an unknown rule in an inline ruleset
        base = ctx.data["ruleset"]
        inline = dict(base) if isinstance(base, dict) else {"extends": base}
        inline["house_rule"] = draw(st.integers() | st.text(max_size=3))
        return Mutation("ruleset", kind, path, inline, expect=fails("unknown-ruleset", NOWHERE))
    names = st.sampled_from([*gr.bundled_rulesets(), "no-such-ruleset", "missing/rules.yaml"])
    patches = st.fixed_dictionaries(
        {"extends": st.sampled_from(gr.bundled_rulesets())},
        optional={
            "rounds": st.integers(0, 4),
            "bounce": st.booleans(),
            "hazard": st.fixed_dictionaries({"penalty": st.integers(-2, 12)}),
        },
    )
    value = _other(draw, names | patches, ctx.data["ruleset"])
    return Mutation("ruleset", kind, path, value, expect=_ruleset_verdict(value, sha256))


HEX = "0123456789abcdef"


def _ruleset_sha256(draw: st.DrawFn, ctx: Context) -> Mutation:
    path: FieldPath = ("ruleset_sha256",)
    current = ctx.data["ruleset_sha256"]
    kind = draw(choose([SAME_TYPE, SAME_TYPE, WRONG_TYPE, DELETION, DEEP]))
    if kind == DELETION:  # optional: the record is checked as usual
        return Mutation("ruleset_sha256", kind, path, delete=True, expect=VALID)
    if kind == SAME_TYPE:
        if draw(st.booleans()):
            value = _other(draw, st.text(alphabet=HEX, min_size=64, max_size=64), current)
            return Mutation(
                "ruleset_sha256", kind, path, value, expect=fails("ruleset-mismatch", NOWHERE)
            )
        malformed = st.sampled_from([current.upper(), current[:-1], current + "0", "", "z" * 64])
        value = _other(draw, malformed, current)
        return Mutation("ruleset_sha256", kind, path, value, expect=bad_record())
    value = draw(WRONG_FOR_TEXT if kind == WRONG_TYPE else DEEP_VALUES)
    expect = VALID if value is None else bad_record()  # null: no hash given
    return Mutation("ruleset_sha256", kind, path, value, expect=expect)


def _players(draw: st.DrawFn, ctx: Context) -> Mutation:
    players = ctx.data["players"]
    kind = draw(choose([SAME_TYPE, SAME_TYPE, WRONG_TYPE, DELETION, EXTRA, DEEP]))
    if kind == SAME_TYPE:  # names are labels: any other name changes nothing
        seat = draw(st.integers(0, len(players) - 1))
        if draw(st.integers(0, 3)) == 0:  # written with escapes: surrogate pairs are read
            lone = draw(st.characters(categories=["Cs"]))  # as one character, a lone one
            wide = draw(st.characters(min_codepoint=0x10000))  # is no Unicode text at all
            value = Escaped(draw(st.sampled_from([lone, f"{players[seat]}{lone}", wide])))
            expect = VALID if value.text == wide else bad_record()
            return Mutation("players", kind, ("players", seat), value, expect=expect)
        value = _other(draw, st.text(max_size=12), players[seat])
        return Mutation("players", kind, ("players", seat), value, expect=VALID)
    if kind == DELETION:
        if draw(st.booleans()):
            return Mutation("players", kind, ("players",), delete=True, expect=bad_record())
        seat = draw(st.integers(0, len(players) - 1))  # one seat fewer: anything may follow
        return Mutation("players", kind, ("players", seat), delete=True, expect=Expect("either"))
    if kind == EXTRA:
        seat = draw(st.integers(0, len(players)))
        name = draw(st.text(max_size=5))
        return Mutation(
            "players", kind, ("players", seat), name, insert=True, expect=Expect("either")
        )
    if kind == WRONG_TYPE and draw(st.booleans()):
        seat = draw(st.integers(0, len(players) - 1))
        value = draw(WRONG_FOR_TEXT)
        return Mutation("players", kind, ("players", seat), value, expect=bad_record())
    value = draw(st.sampled_from(["Ana", 3, None, {}, []]) if kind == WRONG_TYPE else DEEP_VALUES)
    return Mutation("players", kind, ("players",), value, expect=bad_record())


def _first_player(draw: st.DrawFn, ctx: Context) -> Mutation:
    path: FieldPath = ("first_player",)
    players, current = ctx.players, ctx.data["first_player"]
    kind = draw(choose([SAME_TYPE, SAME_TYPE, OUT_OF_RANGE, WRONG_TYPE, HUGE_INT, DELETION, DEEP]))
    if kind == DELETION:
        return Mutation("first_player", kind, path, delete=True, expect=bad_record())
    if kind == SAME_TYPE:
        value = _another(draw, players, current)
        # Round 0 starts with its first player (RULES 2.2, 3.5): its first move is now
        # someone else's. Without a move, nothing shows who started.
        started = bool(ctx.rounds) and bool(ctx.rounds[0]["moves"])
        expect = fails("not-your-turn", (0, 0)) if started else VALID
        return Mutation("first_player", kind, path, value, expect=expect)
    values = {
        OUT_OF_RANGE: st.integers(players, players + 5) | st.integers(-5, -1),
        WRONG_TYPE: WRONG_FOR_INT,
        HUGE_INT: HUGE,
        DEEP: DEEP_VALUES,
    }[kind]
    return Mutation("first_player", kind, path, draw(values), expect=bad_record())


def _rounds(draw: st.DrawFn, ctx: Context) -> Mutation:
    value: Any
    rounds = ctx.rounds
    kind = draw(choose([WRONG_TYPE, DELETION, DELETION, EXTRA, EXTRA, DEEP]))
    if kind == WRONG_TYPE:
        value = draw(WRONG_FOR_LIST | st.just([1, 2]))
        return Mutation("rounds", kind, ("rounds",), value, expect=bad_record())
    if kind == DEEP:
        return Mutation("rounds", kind, ("rounds",), draw(DEEP_VALUES), expect=bad_record())
    if kind == DELETION:
        if not rounds or draw(st.booleans()):
            return Mutation("rounds", kind, ("rounds",), delete=True, expect=bad_record())
        index = draw(st.integers(0, len(rounds) - 1))
        # Without its last round the record simply stops; without another, later rounds
        # are replayed in its place, so nothing before it can fail.
        last = index == len(rounds) - 1
        expect = VALID if last else Expect("either", after=(index, 0))
        return Mutation("rounds", kind, ("rounds", index), delete=True, expect=expect)
    index = draw(st.integers(0, len(rounds)))
    if len(rounds) > 0 and draw(st.booleans()):  # a round played twice
        copied = rounds[index - 1] if index else rounds[0]
        index = max(index, 1)
        expect = Expect("either", after=(index - 1, len(rounds[index - 1]["moves"])))
        return Mutation("rounds", kind, ("rounds", index), copied, insert=True, expect=expect)
    # A round with no cards: the deal is bad (an input error).
    empty: dict[str, list[Any]] = {"deal": [], "moves": []}
    return Mutation(
        "rounds",
        kind,
        ("rounds", index),
        empty,
        insert=True,
        expect=fails("bad-deal", (index, None)),
    )


def _round_fields(draw: st.DrawFn, ctx: Context) -> Mutation:
    rounds = ctx.rounds
    index = draw(st.integers(0, len(rounds) - 1))
    name = draw(choose(["deal", "moves", "extra"]))
    if name == "extra":
        value = draw(st.integers() | st.text(max_size=3) | st.none())
        return Mutation(
            "round",
            EXTRA,
            ("rounds", index, draw(st.sampled_from(["note", "Scores", "move"]))),
            value,
            expect=bad_record(),
        )
    kind = draw(choose([WRONG_TYPE, DELETION, DEEP]))
    path: FieldPath = ("rounds", index, name)
    if kind == DELETION:
        return Mutation(name, kind, path, delete=True, expect=bad_record())
    if kind == WRONG_TYPE:
        return Mutation(name, kind, path, draw(WRONG_FOR_LIST), expect=bad_record())
    # Nested lists in place of the moves: the first "move" is then at fault.
    inside = fails("bad-record", NOWHERE, (index, 0)) if name == "moves" else bad_record()
    return Mutation(name, kind, path, draw(DEEP_VALUES), expect=inside)


def _deal(draw: st.DrawFn, ctx: Context) -> Mutation:
    index = draw(st.integers(0, len(ctx.rounds) - 1))
    deal = ctx.rounds[index]["deal"]
    bad_deal = fails("bad-deal", (index, None))
    kind = draw(choose([SAME_TYPE, WRONG_TYPE, DELETION, EXTRA, HUGE_INT, DEEP, REORDER]))
    slot = draw(st.integers(0, len(deal) - 1))
    path: FieldPath = ("rounds", index, "deal", slot)
    if kind == SAME_TYPE:
        value = _other(draw, faces(ctx.ruleset), deal[slot])
        return Mutation("deal", kind, path, value, expect=bad_deal)
    if kind == DELETION:
        return Mutation("deal", kind, path, delete=True, expect=bad_deal)
    if kind == EXTRA:
        value = draw(faces(ctx.ruleset))
        return Mutation("deal", kind, path, value, insert=True, expect=bad_deal)
    if kind == HUGE_INT:
        value = draw(HUGE)
        return Mutation("deal", kind, path, value, expect=unless_huge(value, bad_deal))
    if kind == REORDER:  # still the whole deck: the game may differ from here on
        other = draw(st.integers(0, len(deal) - 1))
        swapped = list(deal)
        swapped[slot], swapped[other] = swapped[other], swapped[slot]
        return Mutation(
            "deal",
            kind,
            ("rounds", index, "deal"),
            swapped,
            expect=Expect("either", reordered_deal_codes(ctx, index), after=(index, 0)),
        )
    value = draw(WRONG_FOR_CARD if kind == WRONG_TYPE else DEEP_VALUES)
    return Mutation("deal", kind, path, value, expect=bad_record())


def reordered_deal_codes(ctx: Context, index: int) -> frozenset[str]:
    """What a record whose round ``index`` has its deal reordered may fail with: a rule, or
    ``bad-record`` when the round has a discard written without a pile (a hazard's, which
    may now be a number card's: a non-hazard discard must name a pile, docs/record-format.md)."""
    moves = ctx.rounds[index]["moves"]
    pileless = any(move["action"] == "discard" and "pile" not in move for move in moves)
    return RULE_CODES | {"bad-record"} if pileless else RULE_CODES


def _scores(draw: st.DrawFn, ctx: Context) -> Mutation:
    index = draw(st.integers(0, len(ctx.rounds) - 1))
    finished = ctx.recorded.game.final.scores
    claimed = ctx.rounds[index].get("scores")
    path: FieldPath = ("rounds", index, "scores")
    if index >= len(finished):
        # A claim on an unfinished round is not checked; only its length is structure.
        size = draw(st.sampled_from([ctx.players, ctx.players, ctx.players + 1, 0]))
        value = draw(st.lists(st.integers(), min_size=size, max_size=size))
        huge = any(unless_huge(score, VALID) != VALID for score in value)
        expect = VALID if size == ctx.players and not huge else bad_record()
        return Mutation("scores", EXTRA, path, value, expect=expect)
    mismatch = fails("score-mismatch", (index, None))
    if claimed is None:  # a finished round without a claim: the true scores pass
        true = list(finished[index])
        if draw(st.booleans()):
            return Mutation("scores", EXTRA, path, true, expect=VALID)
        seat = draw(st.integers(0, ctx.players - 1))
        wrong = [*true]
        wrong[seat] = _other(draw, st.integers(-60, 60) | HUGE, true[seat])
        return Mutation("scores", EXTRA, path, wrong, expect=unless_huge(wrong[seat], mismatch))
    kind = draw(choose([SAME_TYPE, WRONG_TYPE, DELETION, EXTRA, HUGE_INT, DEEP]))
    seat = draw(st.integers(0, len(claimed) - 1))
    item: FieldPath = (*path, seat)
    if kind == SAME_TYPE:
        value = _other(draw, st.integers(-60, 60), claimed[seat])
        return Mutation("scores", kind, item, value, expect=mismatch)
    if kind == HUGE_INT:
        value = draw(HUGE)
        return Mutation("scores", kind, item, value, expect=unless_huge(value, mismatch))
    if kind == DELETION:
        if draw(st.booleans()):  # the claim is optional
            return Mutation("scores", kind, path, delete=True, expect=VALID)
        return Mutation("scores", kind, item, delete=True, expect=bad_record())
    if kind == EXTRA:
        return Mutation("scores", kind, item, draw(st.integers()), insert=True, expect=bad_record())
    if kind == WRONG_TYPE and draw(st.booleans()):
        value = draw(WRONG_FOR_LIST)
        return Mutation(
            "scores", kind, path, value, expect=VALID if value is None else bad_record()
        )
    value = draw(WRONG_FOR_INT if kind == WRONG_TYPE else DEEP_VALUES)
    return Mutation("scores", kind, item, value, expect=bad_record())


def _result(draw: st.DrawFn, ctx: Context) -> Mutation:
    value: Any
    final = ctx.recorded.game.final
    result = ctx.data.get("result")
    players = ctx.players
    if result is None:
        if not final.is_over:
            # Claims on an incomplete game are not checked; their shape still is.
            totals = draw(st.lists(st.integers(), min_size=players, max_size=players))
            winners = draw(st.lists(st.integers(0, players - 1), max_size=players))
            seat_out = draw(st.booleans())
            value = {"totals": totals, "winners": [*winners, players] if seat_out else winners}
            huge = any(unless_huge(total, VALID) != VALID for total in totals)
            expect = bad_record() if seat_out or huge else VALID
            return Mutation("result", EXTRA, ("result",), value, expect=expect)
        result = {"totals": list(final.totals), "winners": list(final.winners)}
        if draw(st.booleans()):  # the true result of a complete game passes
            return Mutation("result", EXTRA, ("result",), result, expect=VALID)
        seat = draw(st.integers(0, players - 1))
        result["totals"][seat] = _other(draw, st.integers(-99, 99), final.totals[seat])
        return Mutation(
            "result", EXTRA, ("result",), result, expect=fails("result-mismatch", NOWHERE)
        )
    name = draw(choose(["totals", "winners", "result"]))
    kind = draw(choose([SAME_TYPE, WRONG_TYPE, DELETION, EXTRA, HUGE_INT, OUT_OF_RANGE]))
    if name == "result":
        if kind == DELETION:  # no claim at all
            return Mutation("result", kind, ("result",), delete=True, expect=VALID)
        if kind == EXTRA:
            key = draw(st.sampled_from(["total", "winner", "scores"]))
            return Mutation("result", kind, ("result", key), [0], expect=bad_record())
        value = draw(WRONG_FOR_LIST | st.just([]))
        # null is no claim, and {} a claim of nothing (totals and winners are each optional)
        expect = VALID if value is None or value == {} else bad_record()
        return Mutation("result", WRONG_TYPE, ("result",), value, expect=expect)
    values = result[name]
    if kind == DELETION:
        return Mutation(name, kind, ("result", name), delete=True, expect=VALID)
    if kind == WRONG_TYPE:
        if values and draw(st.booleans()):
            value = draw(WRONG_FOR_INT)
            return Mutation(name, kind, ("result", name, 0), value, expect=bad_record())
        value = draw(WRONG_FOR_LIST)
        expect = VALID if value is None else bad_record()  # null: no claim
        return Mutation(name, kind, ("result", name), value, expect=expect)
    if name == "totals":
        seat = draw(st.integers(0, players - 1))
        path: FieldPath = ("result", "totals", seat)
        if kind == EXTRA:
            return Mutation(name, kind, path, 0, insert=True, expect=bad_record())
        other = st.integers(-99, 99).filter(lambda total: total != values[seat])
        value = draw(HUGE if kind == HUGE_INT else other)
        expect = unless_huge(value, fails("result-mismatch", NOWHERE))
        return Mutation(name, kind, path, value, expect=expect)
    # winners, compared as a set (RECORD.md)
    if kind == EXTRA:  # a repeated winner: the same set
        seat = draw(st.sampled_from(values))
        return Mutation(name, kind, ("result", "winners", 0), seat, insert=True, expect=VALID)
    if kind in (OUT_OF_RANGE, HUGE_INT):
        out = st.integers(players, players + 3) | st.just(-1)
        value = draw(HUGE if kind == HUGE_INT else out)
        return Mutation(name, kind, ("result", "winners"), [*values, value], expect=bad_record())
    value = draw(st.lists(st.integers(0, players - 1), max_size=players, unique=True))
    expect = VALID if set(value) == set(values) else fails("result-mismatch", NOWHERE)
    return Mutation(name, kind, ("result", "winners"), value, expect=expect)


TOP_FIELDS = frozenset(
    {"format", "ruleset", "ruleset_sha256", "players", "first_player", "rounds", "result"}
)


def _top_level_extra(draw: st.DrawFn, ctx: Context) -> Mutation:
    value: Any
    key = draw(st.sampled_from(["comment", "Format", "round", "version", ""]) | st.text(max_size=6))
    if key in TOP_FIELDS:
        key += "_"
    value = draw(st.integers() | st.text(max_size=3) | st.none() | st.just({}))
    return Mutation("top level", EXTRA, (key,), value, expect=bad_record())


# --- moves --------------------------------------------------------------------------------------

MOVE_FIELDS = {
    "reveal": ("player", "slot", "card"),
    "draw": ("player", "source", "pile", "card"),
    "place": ("player", "slot", "card"),
    "bounce": ("player", "slot", "card"),
    "discard": ("player", "pile"),
    "flip": ("player", "slot", "card"),
    "reshuffle": ("cards",),
}
CLAIMABLE = ("reveal", "draw", "place", "bounce", "flip")


def _move(draw: st.DrawFn, ctx: Context) -> Mutation:
    """One field of one move; the action is chosen first, so rare moves come up too."""
    by_action: dict[str, list[tuple[int, int]]] = {}
    for r, m in ctx.moves():
        by_action.setdefault(ctx.rounds[r]["moves"][m]["action"], []).append((r, m))
    action = draw(choose(sorted(by_action)))
    r, m = draw(st.sampled_from(by_action[action]))
    entry = ctx.rounds[r]["moves"][m]
    name = draw(choose([*MOVE_FIELDS[action], "action", "extra", "move"]))
    here: Place = (r, m)
    path: FieldPath = ("rounds", r, "moves", m, name)
    if name == "move":
        return _whole_move(draw, ctx, r, m)
    if name == "extra":
        return _extra_move_field(draw, ctx, r, m)
    if name not in entry:  # an optional field the recorder left out: add it
        return _absent_field(draw, ctx, r, m, name)
    kind = draw(choose(_KINDS_OF[name]))
    if kind == DEEP:
        return Mutation(
            name, kind, path, draw(DEEP_VALUES), expect=fails("bad-record", here, NOWHERE)
        )
    if kind == DELETION:
        optional = name == "card"  # the claim is optional; every other field is required here
        return Mutation(
            name, kind, path, delete=True, expect=VALID if optional else bad_record(here)
        )
    if kind == WRONG_TYPE:
        values = {
            "card": WRONG_FOR_CARD,
            "source": WRONG_FOR_TEXT,
            "action": WRONG_FOR_TEXT,
            "cards": WRONG_FOR_LIST,
        }.get(name, WRONG_FOR_INT)
        value = draw(values)
        if name == "card" and value is None:
            return Mutation(name, kind, path, None, expect=VALID)
        return Mutation(name, kind, path, value, expect=bad_record(here))
    return _same_type_move_field(draw, ctx, (r, m), name, kind)


_KINDS_OF = {
    "player": (SAME_TYPE, SAME_TYPE, OUT_OF_RANGE, WRONG_TYPE, HUGE_INT, DELETION, DEEP),
    "slot": (SAME_TYPE, SAME_TYPE, OUT_OF_RANGE, WRONG_TYPE, HUGE_INT, DELETION, DEEP),
    "pile": (SAME_TYPE, SAME_TYPE, OUT_OF_RANGE, WRONG_TYPE, HUGE_INT, DELETION, DEEP),
    "card": (SAME_TYPE, SAME_TYPE, WRONG_TYPE, HUGE_INT, DELETION, DEEP),
    "source": (SAME_TYPE, SAME_TYPE, WRONG_TYPE, DELETION, DEEP),
    "action": (SAME_TYPE, SAME_TYPE, WRONG_TYPE, DELETION, DEEP),
    "cards": (SAME_TYPE, REORDER, DELETION, EXTRA, WRONG_TYPE, HUGE_INT, DEEP),
}


def _same_type_move_field(
    draw: st.DrawFn, ctx: Context, here: tuple[int, int], name: str, kind: str
) -> Mutation:
    value: Any
    r, m = here
    path: FieldPath = ("rounds", r, "moves", m, name)
    entry = ctx.rounds[r]["moves"][m]
    current = entry[name]
    players, slots = ctx.players, ctx.ruleset.slots
    if name == "player":
        if kind == SAME_TYPE:  # someone else's move: the actor is fixed by the state
            value = _another(draw, players, current)
            return Mutation(
                name,
                kind,
                path,
                value,
                expect=fails(frozenset({"not-your-turn", "no-flip-owed"}), here),
            )
        value = draw(
            HUGE if kind == HUGE_INT else st.integers(players, players + 3) | st.integers(-3, -1)
        )
        return Mutation(name, kind, path, value, expect=bad_record(here))
    if name == "slot":
        if kind == SAME_TYPE:  # may be legal too; then the game goes on differently
            value = _another(draw, slots, current)
            return Mutation(
                name, kind, path, value, expect=Expect("either", RULE_CODES, after=here)
            )
        value = draw(
            HUGE if kind == HUGE_INT else st.integers(slots, slots + 3) | st.integers(-3, -1)
        )
        return Mutation(
            name, kind, path, value, expect=unless_huge(value, fails("bad-slot", here), here)
        )
    if name == "pile":
        if kind == SAME_TYPE:
            return Mutation(
                name, kind, path, 1 - current, expect=Expect("either", RULE_CODES, after=here)
            )
        value = draw(HUGE if kind == HUGE_INT else st.integers(2, 5) | st.integers(-3, -1))
        return Mutation(name, kind, path, value, expect=bad_record(here))
    if name == "card":
        value = draw(HUGE) if kind == HUGE_INT else _other(draw, faces(ctx.ruleset), current)
        expect = unless_huge(value, fails("card-mismatch", here), here)
        return Mutation(name, kind, path, value, expect=expect)
    if name == "source":  # deck <-> discard: the pile is then missing, or one too many
        value = draw(
            st.sampled_from(["deck", "discard", "Deck", "pile", ""]).filter(lambda v: v != current)
        )
        return Mutation(name, kind, path, value, expect=bad_record(here))
    if name == "action":  # the fields no longer fit, or the move is illegal as that action
        value = draw(
            st.sampled_from([*MOVE_FIELDS, "pass", "Draw", ""]).filter(lambda v: v != current)
        )
        return Mutation(name, kind, path, value, expect=fails(frozenset(), here))
    # a reshuffle's cards
    cards = entry["cards"]
    if kind == REORDER:  # any order of the right cards is a reshuffle
        value = draw(st.permutations(cards))
        return Mutation(name, kind, path, value, expect=Expect("either", RULE_CODES, after=here))
    item = draw(st.integers(0, len(cards) - 1))
    wrong = fails("bad-reshuffle", here)
    if kind == DELETION:
        return Mutation(name, kind, (*path, item), delete=True, expect=wrong)
    if kind == EXTRA:
        return Mutation(
            name, kind, (*path, item), draw(faces(ctx.ruleset)), insert=True, expect=wrong
        )
    value = draw(HUGE) if kind == HUGE_INT else _other(draw, faces(ctx.ruleset), cards[item])
    return Mutation(name, kind, (*path, item), value, expect=unless_huge(value, wrong, here))


def _absent_field(draw: st.DrawFn, ctx: Context, r: int, m: int, name: str) -> Mutation:
    """A field the entry does not have: a card claim, or a pile for a deck draw or hazard."""
    here: Place = (r, m)
    path: FieldPath = ("rounds", r, "moves", m, name)
    entry = ctx.rounds[r]["moves"][m]
    if name == "card":  # a claim added: the true face passes, any other is caught
        after = ctx.state_after(r, m)
        seen = (
            after.cards[entry["player"]][entry["slot"]]
            if entry["action"] in ("reveal", "flip")
            else after.held
        )
        if draw(st.booleans()):
            return Mutation(name, EXTRA, path, seen, expect=VALID)
        value = _other(draw, faces(ctx.ruleset), seen)
        return Mutation(name, EXTRA, path, value, expect=fails("card-mismatch", here))
    pile = draw(st.integers(0, 1))
    if entry["action"] == "discard":  # a hazard: a pile named for it is ignored (reading 2)
        return Mutation(name, EXTRA, path, pile, expect=VALID)
    return Mutation(name, EXTRA, path, pile, expect=bad_record(here))  # a draw from the deck


def _extra_move_field(draw: st.DrawFn, ctx: Context, r: int, m: int) -> Mutation:
    entry = ctx.rounds[r]["moves"][m]
    known = {"action", *MOVE_FIELDS[entry["action"]]}
    others = [
        name for name in ("player", "slot", "source", "pile", "card", "cards") if name not in known
    ]
    key = draw(st.sampled_from([*others, "seat", "note", "Card"]))
    value = draw(st.integers(0, 2) | st.text(max_size=2))
    return Mutation("move", EXTRA, ("rounds", r, "moves", m, key), value, expect=bad_record((r, m)))


def _whole_move(draw: st.DrawFn, ctx: Context, r: int, m: int) -> Mutation:
    here: tuple[int, int] = (r, m)
    moves = ctx.rounds[r]["moves"]
    path: FieldPath = ("rounds", r, "moves", m)
    kind = draw(choose([DELETION, EXTRA, WRONG_TYPE, DEEP]))
    if kind == DELETION:  # the record stops earlier, or a later move no longer fits
        last = r == len(ctx.rounds) - 1 and m == len(moves) - 1
        return Mutation(
            "move", kind, path, delete=True, expect=VALID if last else Expect("either", after=here)
        )
    if kind == EXTRA:  # the same move twice: the second never fits
        return Mutation(
            "move",
            kind,
            ("rounds", r, "moves", m + 1),
            moves[m],
            insert=True,
            expect=fails(RULE_CODES, after=(r, m + 1)),
        )
    value = draw(WRONG_FOR_LIST | st.just([]) if kind == WRONG_TYPE else DEEP_VALUES)
    return Mutation("move", kind, path, value, expect=fails("bad-record", here, NOWHERE))


# --- the strategy -------------------------------------------------------------------------------


def _sites(ctx: Context) -> list[Site]:
    sites: list[Site] = [_format, _ruleset, _ruleset_sha256, _players, _first_player, _rounds]
    sites.append(_top_level_extra)
    if ctx.rounds:
        sites += [_round_fields, _deal, _scores]
    if ctx.moves():
        sites += [_move] * 6  # most of a record is moves
    sites.append(_result)
    return sites


@st.composite
def mutations(draw: st.DrawFn, recorded: RecordedGame) -> Mutation:
    """One mutation of ``recorded``'s record (see the module docstring)."""
    ctx = context_of(recorded)
    site: Site = draw(choose(_sites(ctx)), label="site")
    return site(draw, ctx)


def rules_1_to_10(recorded: RecordedGame) -> bool:
    """The game's rules have none of rule 11 (no card known to some seats, no power, no
    knock): the expectations above are read from the record format's rules 1-10 part.
    Records of rule 11 are tampered with by hand in ``test_public_records*.py`` and
    ``test_rules_11_*.py``; their properties are those of ``test_rule_11_properties.py``."""
    rules = recorded.game.ruleset.compiled
    return not (rules.knowledge or rules.knock or rules.powers)


def mutated(
    recorded: st.SearchStrategy[RecordedGame],
) -> st.SearchStrategy[tuple[RecordedGame, Mutation]]:
    """A recorded game (of :func:`rules_1_to_10`) and one mutation of its record."""
    return recorded.filter(rules_1_to_10).flatmap(
        lambda game: st.tuples(st.just(game), mutations(game))
    )


def mutated_many(
    recorded: st.SearchStrategy[RecordedGame], least: int = 1, most: int = 5
) -> st.SearchStrategy[tuple[RecordedGame, list[Mutation]]]:
    """A recorded game (of :func:`rules_1_to_10`) and ``least`` to ``most`` mutations of its
    record, each to try on its own (a game costs more to play than a record to check)."""
    return recorded.filter(rules_1_to_10).flatmap(
        lambda game: st.tuples(
            st.just(game), st.lists(mutations(game), min_size=least, max_size=most)
        )
    )
