"""Record properties: records of games no one wrote by hand.

- ``record-round-trip``: a game played, written (JSON or YAML), read and validated gives
  the game's own scores, totals and winners;
- ``record-json-yaml``: the JSON and the YAML form of a record, valid or mutated, get the
  same verdict;
- ``record-mutation``: one field of a valid record changed (every kind of field, every
  kind of change) gets the verdict RECORD.md says, with a stable code, at the right place,
  never an exception (see ``record_mutations.py``);
- ``record-hostile-input``: arbitrary bytes, JSON, YAML and text given to the validator
  get a verdict (exit status 1 or 2, 0 only for a valid record), never an exception;
- ``record-cli``: the same through ``gnoming validate FILE [--json]`` (in process here,
  and as a real subprocess with fewer examples): one JSON verdict line, the right exit
  status, no traceback;
- ``record-determinism``: replaying a record twice, the global ``random`` stirred in
  between, gives the same state at every point, and the game's.

Each property is a plain function, so that the planted-bug tests run the very same check
against a broken library (``PROPERTY_STRATEGIES`` gives what each one is run with).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from builders import STANDARD, H, arranged_deal, play, played_game, setup_reveals
from hostile_inputs import hostile_files
from hypothesis import event, given, settings
from hypothesis import strategies as st
from record_mutations import (
    REORDER,
    Expect,
    Mutation,
    check_verdict,
    context_of,
    mutated,
    mutated_many,
    render,
    reordered_deal_codes,
)
from strategies import RecordedGame, record_game, recorded_games

import gnoming_rules as gr
from gnoming_rules.cli import main
from gnoming_rules.core.errors import INPUT_ERROR_CODES
from gnoming_rules.formats import Record
from gnoming_rules.formats.record import (
    RecordFormat,
    format_of,
    parse_record,
    read_record,
    write_record,
)
from gnoming_rules.referee import validate_record
from gnoming_rules.referee.validate import Verdict, replay_record, validate_file

ROUND_TRIP: Final = "record-round-trip"
JSON_YAML: Final = "record-json-yaml"
MUTATION: Final = "record-mutation"
HOSTILE_INPUT: Final = "record-hostile-input"
CLI: Final = "record-cli"
DETERMINISM: Final = "record-determinism"

VERDICT_KEYS = ["valid", "complete", "error", "scores", "totals", "winners"]
FORMATS: st.SearchStrategy[RecordFormat] = st.sampled_from(["json", "yaml"])

_FOLDER = tempfile.TemporaryDirectory(prefix="gnoming-record-properties-")
"""Where the properties write the files they validate (removed when the tests end)."""


def saved(content: bytes | str, suffix: str) -> Path:
    """``content`` written to a file named ``record`` + ``suffix`` in a scratch folder."""
    path = Path(_FOLDER.name) / f"record{suffix}"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def without_exceptions(
    action: Callable[[], Any], what: str, expected: tuple[type[BaseException], ...] = ()
) -> Any:
    """``action()``; an exception from it fails the property (it should have been a verdict
    or one of the ``expected`` errors)."""
    try:
        return action()
    except AssertionError:
        raise
    except expected:
        raise
    except BaseException as error:
        raise AssertionError(f"{what} raised {type(error).__name__}: {error}") from error


def verdict_of_file(content: bytes | str, suffix: str) -> Verdict:
    """The verdict :func:`validate_file` gives on a file holding ``content``."""
    path = saved(content, suffix)
    verdict: Verdict = without_exceptions(lambda: validate_file(path), f"validate_file({suffix})")
    return verdict


def check_verdict_shape(verdict: Verdict) -> None:
    """RECORD.md's verdict: a stable code, the exit status its code says, one JSON line."""
    line = verdict.to_json()
    assert len(line.splitlines()) == 1 and list(json.loads(line)) == VERDICT_KEYS
    error = verdict.error
    if error is None:
        assert verdict.valid and verdict.exit_status == 0
        return
    assert not verdict.valid and error.code in gr.ERROR_CODES, error
    assert error.message and "\n" not in error.message, error
    assert verdict.exit_status == (2 if error.code in INPUT_ERROR_CODES else 1), error
    if error.code == "bad-record" and error.round is None:
        # Found before the replay: no round has scored. The input is no record (totals
        # empty), or a record whose player count its ruleset refuses (a zero a seat).
        assert verdict.scores == () and not any(verdict.totals), verdict


# --- play -> write -> parse -> validate -------------------------------------------------------


def written_records_replay_to_the_games_totals(recorded: RecordedGame, fmt: RecordFormat) -> None:
    """A played game, written to a file and read back, validates to its own scores and
    winners (and the file holds what :func:`dump_record` gives)."""
    game, record = recorded.game, recorded.record
    path = Path(_FOLDER.name) / f"written.{fmt}"
    without_exceptions(lambda: write_record(record, path), "write_record")
    assert path.read_text(encoding="utf-8") == recorded.text(fmt)
    parsed = without_exceptions(lambda: read_record(path), "read_record")
    assert parsed == record
    verdict = validate_record_no_crash(parsed)
    assert verdict.valid, verdict.error
    assert verdict.complete == game.complete
    assert verdict.scores == game.final.scores
    assert verdict.totals == game.final.totals
    assert verdict.winners == (game.final.winners if game.complete else ())


def validate_record_no_crash(record: Record) -> Verdict:
    verdict: Verdict = without_exceptions(lambda: validate_record(record), "validate_record")
    return verdict


@given(recorded_games(), FORMATS)
def test_written_records_replay_to_the_games_totals(
    recorded: RecordedGame, fmt: RecordFormat
) -> None:
    written_records_replay_to_the_games_totals(recorded, fmt)


# --- JSON and YAML ------------------------------------------------------------------------------

_READER_MESSAGES = ("not valid JSON", "not valid YAML", "the input is nested too deeply")


def same_verdict(as_json: Verdict, as_yaml: Verdict) -> None:
    """Equal verdicts; only a reader's own message (a syntax error) may name its format."""
    first, second = as_json.to_dict(), as_yaml.to_dict()
    messages = [v["error"].pop("message") for v in (first, second) if v["error"] is not None]
    assert first == second, (as_json, as_yaml)
    if len(messages) == 2 and not all(m.startswith(_READER_MESSAGES) for m in messages):
        assert messages[0] == messages[1]


def json_and_yaml_forms_get_the_same_verdict(
    recorded: RecordedGame, mutations: list[Mutation]
) -> None:
    """The library's two writers for the valid record; then, for each mutation on its own,
    JSON (``json.dumps``) and YAML (PyYAML's writer) of the mutated data."""
    forms = [(recorded.text("json"), recorded.text("yaml"))]
    for mutation in mutations:
        data = mutation.apply(recorded.data())
        forms.append((render(data, "json"), render(data, "yaml")))
    for as_json, as_yaml in forms:
        same_verdict(verdict_of_file(as_json, ".json"), verdict_of_file(as_yaml, ".yaml"))


def _default_examples() -> int:
    """The active profile's ``max_examples``."""
    return settings().max_examples


YAML_EXAMPLES = max(4, _default_examples() // 8)
"""Reading YAML is many times slower than JSON (libyaml still builds a Python object per
value), and each example reads a few: an eighth of the profile's examples."""


@settings(max_examples=YAML_EXAMPLES)
@given(mutated_many(recorded_games(), least=1, most=4))
def test_json_and_yaml_forms_get_the_same_verdict(
    case: tuple[RecordedGame, list[Mutation]],
) -> None:
    json_and_yaml_forms_get_the_same_verdict(*case)


_REPEATED = "zzrepeatedzz"
"""Appended to a key to add it a second time; the suffix is cut from the written text."""


@st.composite
def repeated_keys(draw: st.DrawFn) -> tuple[RecordedGame, str, str]:
    """A recorded game's JSON and YAML text in which one mapping, anywhere, gives one of
    its keys a second time (with another value, or the same); and the key."""
    recorded = draw(recorded_games())
    data = recorded.data()
    mappings: list[dict[str, Any]] = []
    queue: list[Any] = [data]
    while queue:
        node = queue.pop()
        if isinstance(node, dict):
            mappings.append(node)
            queue.extend(node.values())
        elif isinstance(node, list):
            queue.extend(node)
    target = draw(st.sampled_from([mapping for mapping in mappings if mapping]))
    key = draw(st.sampled_from(sorted(target)))
    target[key + _REPEATED] = draw(st.just(target[key]) | st.integers(-3, 3) | st.text(max_size=2))
    texts = [render(data, fmt).replace(key + _REPEATED, key) for fmt in ("json", "yaml")]
    return recorded, texts[0], texts[1]


def a_key_given_twice_is_refused_alike_in_json_and_yaml(json_text: str, yaml_text: str) -> None:
    """Both forms: ``bad-record``, the same message (the mapping's path and the key)."""
    as_json, as_yaml = verdict_of_file(json_text, ".json"), verdict_of_file(yaml_text, ".yaml")
    same_verdict(as_json, as_yaml)
    assert as_json.error is not None and as_json.error.code == "bad-record", as_json
    assert as_json.error.message.endswith("given more than once"), as_json.error
    assert as_yaml.error is not None and as_yaml.error.message == as_json.error.message


@settings(max_examples=YAML_EXAMPLES)
@given(repeated_keys())
def test_a_key_given_twice_is_refused_alike_in_json_and_yaml(
    case: tuple[RecordedGame, str, str],
) -> None:
    a_key_given_twice_is_refused_alike_in_json_and_yaml(*case[1:])


# --- one field changed --------------------------------------------------------------------------


def a_mutated_record_gets_the_verdict_the_spec_says(
    recorded: RecordedGame, mutations: list[Mutation], fmt: RecordFormat
) -> None:
    """See ``record_mutations.py``: code, place, and valid only when the spec ignores it.

    Each mutation is tried on its own; the first in ``fmt``, the others in JSON (the
    YAML reader is slow; ``record-json-yaml`` holds the two forms to the same verdict)."""
    data = recorded.data()
    for index, mutation in enumerate(mutations):
        form: RecordFormat = fmt if index == 0 else "json"
        verdict = verdict_of_file(render(mutation.apply(data), form), f".{form}")
        event(f"{mutation.field}: {mutation.kind}")
        event(f"verdict: {'valid' if verdict.error is None else verdict.error.code}")
        check_verdict_shape(verdict)
        check_verdict(verdict, mutation)


@given(mutated_many(recorded_games()), FORMATS)
def test_a_mutated_record_gets_the_verdict_the_spec_says(
    case: tuple[RecordedGame, list[Mutation]], fmt: RecordFormat
) -> None:
    a_mutated_record_gets_the_verdict_the_spec_says(*case, fmt)


def test_a_reordered_deal_that_turns_a_hazard_into_a_number_is_a_bad_record() -> None:
    """A hazard's discard may name no pile; swap the hazard in the deal with a -2 and the
    same entry is a -2's discard without a pile: ``bad-record`` at that move (the record
    format's replay, step 5), which the mutation's expectation allows."""
    rules = STANDARD
    deal = arranged_deal(rules, 3, draw=[H])
    top = rules.slots * 3 + rules.compiled.piles  # the draw pile's first card
    assert deal.cards[top] == H
    moves: list[gr.Move] = [deal]
    moves += setup_reveals(rules, play(rules, gr.new_game(rules, 3, 0), deal))
    moves += [gr.Draw(0), gr.Discard(0)]
    recorded = record_game(played_game(rules, 3, moves), claims=False)
    discard = len(moves) - 2  # the deal is no entry
    assert recorded.data()["rounds"][0]["moves"][discard] == {"action": "discard", "player": 0}
    minus_two = deal.cards.index(-2)
    swapped = list(recorded.data()["rounds"][0]["deal"])
    swapped[top], swapped[minus_two] = swapped[minus_two], swapped[top]
    expect = Expect("either", reordered_deal_codes(context_of(recorded), 0), after=(0, 0))
    mutation = Mutation("deal", REORDER, ("rounds", 0, "deal"), swapped, expect=expect)
    verdict = verdict_of_file(render(mutation.apply(recorded.data()), "json"), ".json")
    assert verdict.error is not None and verdict.error.code == "bad-record", verdict
    assert (verdict.error.round, verdict.error.move) == (0, discard)
    assert "must name a pile" in verdict.error.message
    check_verdict(verdict, mutation)


# --- arbitrary input ----------------------------------------------------------------------------


def any_input_gets_a_verdict(content: bytes, suffix: str) -> None:
    """Bytes in a file, and the same bytes given to :func:`parse_record`: a verdict each,
    the same one, never an exception."""
    verdict = verdict_of_file(content, suffix)
    check_verdict_shape(verdict)
    fmt = format_of(Path(f"record{suffix}"))
    try:
        record = without_exceptions(
            lambda: parse_record(content, format=fmt), "parse_record", (gr.RecordError,)
        )
    except gr.RecordError as error:
        assert error.code == "bad-record" and "\n" not in error.message
        assert verdict.error is not None and verdict.error.message == error.message
        return
    assert validate_record_no_crash(record) == verdict  # the ruleset names no file here


def any_text_parses_or_is_a_bad_record(text: str) -> None:
    """A ``str`` given to :func:`parse_record` (even one UTF-8 cannot encode)."""
    formats: tuple[RecordFormat | None, ...] = ("json", "yaml", None)
    for fmt in formats:
        try:
            without_exceptions(
                lambda f=fmt: parse_record(text, format=f),  # type: ignore[misc]
                "parse_record",
                (gr.RecordError,),
            )
        except gr.RecordError as error:
            assert error.code == "bad-record" and error.message and "\n" not in error.message


def hostile_input_gets_a_verdict(content: bytes | str, suffix: str) -> None:
    if isinstance(content, str):
        any_text_parses_or_is_a_bad_record(content)
    else:
        any_input_gets_a_verdict(content, suffix)


_ANY_CHARACTER = st.characters(exclude_categories=()) | st.characters(categories=["Cs"])
"""Any code point, lone surrogates included (``st.text`` leaves them out)."""


def hostile_inputs() -> st.SearchStrategy[tuple[bytes | str, str]]:
    texts = st.lists(_ANY_CHARACTER, max_size=60).map("".join)
    return hostile_files() | st.tuples(texts, st.just(""))


@given(hostile_inputs())
def test_hostile_input_gets_a_verdict(case: tuple[bytes | str, str]) -> None:
    hostile_input_gets_a_verdict(*case)


# --- the command line ----------------------------------------------------------------------------


def check_cli_run(status: int, stdout: str, stderr: str, as_json: bool) -> None:
    """``gnoming validate FILE``: one verdict, the exit status its code says, no traceback."""
    assert "Traceback" not in stderr and not stderr, stderr
    if not as_json:
        assert stdout.strip() and status in (0, 1, 2), (status, stdout)
        return
    # One line: ended by "\n" (JSON Lines), and no U+2028 or U+0085 that JSON allows raw but
    # str.splitlines() would cut at.
    assert stdout.endswith("\n") and len(stdout.splitlines()) == 1, stdout
    printed = json.loads(stdout)
    assert list(printed) == VERDICT_KEYS
    error = printed["error"]
    if error is None:
        assert printed["valid"] and status == 0
    else:
        assert error["code"] in gr.ERROR_CODES
        assert status == (2 if error["code"] in INPUT_ERROR_CODES else 1), (status, error)


def run_main(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = without_exceptions(lambda: main(args), "gnoming_rules.cli.main")
    return status, out.getvalue(), err.getvalue()


def the_cli_reports_any_input(content: bytes, suffix: str) -> None:
    """``gnoming validate FILE --json`` and ``gnoming validate FILE``, in process."""
    path = saved(content, suffix)
    status, stdout, stderr = run_main(["validate", str(path), "--json"])
    check_cli_run(status, stdout, stderr, as_json=True)
    human = run_main(["validate", str(path)])
    check_cli_run(*human, as_json=False)
    assert human[0] == status, human


def cli_inputs() -> st.SearchStrategy[tuple[bytes, str]]:
    """Hostile files, and records: valid, or with one field changed."""
    games = recorded_games()
    valid = st.tuples(games, FORMATS).map(
        lambda pair: (pair[0].text(pair[1]).encode(), f".{pair[1]}")
    )
    broken = st.tuples(mutated(games), FORMATS).map(
        lambda pair: (
            render(pair[0][1].apply(pair[0][0].data()), pair[1]).encode(),
            f".{pair[1]}",
        )
    )
    return hostile_files() | valid | broken


@given(cli_inputs())
def test_the_cli_reports_any_input(case: tuple[bytes, str]) -> None:
    the_cli_reports_any_input(*case)


SUBPROCESS_EXAMPLES = max(4, _default_examples() // 20)
"""A subprocess costs about half a second: a twentieth of the profile's examples."""


@settings(max_examples=SUBPROCESS_EXAMPLES)
@given(cli_inputs())
def test_the_real_command_reports_any_input(case: tuple[bytes, str]) -> None:
    content, suffix = case
    path = saved(content, suffix)
    done = subprocess.run(
        [sys.executable, "-m", "gnoming_rules", "validate", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    check_cli_run(done.returncode, done.stdout, done.stderr, as_json=True)
    assert json.loads(done.stdout) == validate_file(path).to_dict()


# --- determinism through records ----------------------------------------------------------------


def pause_points(recorded: RecordedGame) -> list[tuple[tuple[int, int | None], int]]:
    """Every ``until=(round, move)`` of the record, with the index in ``game.states`` of
    the state the replay pauses at (before that move; ``None``: at the round's end)."""
    points: list[tuple[tuple[int, int | None], int]] = []
    deals = [i for i, move in enumerate(recorded.game.moves) if isinstance(move, gr.Deal)]
    for round_index, deal_index in enumerate(deals):
        moves = len(recorded.record.rounds[round_index].moves)
        points += [((round_index, move), deal_index + 1 + move) for move in range(moves)]
        points.append(((round_index, None), deal_index + 1 + moves))
    return points


def stir(noise: int) -> None:
    """Unrelated use of the global ``random`` module."""
    random.seed(noise)
    random.random()
    random.shuffle(list(range(10)))
    random.getrandbits(64)


def record_replays_are_identical(recorded: RecordedGame, picks: list[int], noise: int) -> None:
    """Replaying a record twice, the global ``random`` stirred in between, pauses at the
    same state at every point drawn (and at the end), and those are the game's states."""
    game, record = recorded.game, recorded.record
    points = pause_points(recorded)
    chosen = [points[pick % len(points)] for pick in picks] if points else []
    for until, index in [*chosen, (None, len(game.states) - 1)]:
        stir(noise)
        first = replay_record(record, until=until)
        stir(noise + 1)
        second = replay_record(record, until=until)
        assert first.verdict == second.verdict and first.verdict.valid, first.verdict
        assert first.state == second.state, f"the replays differ at {until}"
        assert first.state == game.states[index], f"the replay is not the game at {until}"


@given(recorded_games(), st.lists(st.integers(0, 2**16), max_size=8), st.integers())
def test_record_replays_are_deterministic(
    recorded: RecordedGame, picks: list[int], noise: int
) -> None:
    record_replays_are_identical(recorded, picks, noise)


# --- for the planted bugs -----------------------------------------------------------------------

RECORD_PROPERTIES: dict[str, tuple[Callable[..., None], tuple[st.SearchStrategy[Any], ...]]] = {
    ROUND_TRIP: (written_records_replay_to_the_games_totals, (recorded_games(), FORMATS)),
    JSON_YAML: (
        lambda case: json_and_yaml_forms_get_the_same_verdict(*case),
        (mutated_many(recorded_games(), least=1, most=4),),
    ),
    MUTATION: (
        lambda case, fmt: a_mutated_record_gets_the_verdict_the_spec_says(case[0], case[1], fmt),
        (mutated_many(recorded_games()), FORMATS),
    ),
    HOSTILE_INPUT: (lambda case: hostile_input_gets_a_verdict(*case), (hostile_inputs(),)),
    CLI: (lambda case: the_cli_reports_any_input(*case), (cli_inputs(),)),
    DETERMINISM: (
        record_replays_are_identical,
        (recorded_games(), st.lists(st.integers(0, 2**16), max_size=8), st.integers()),
    ),
}
"""Property name -> (check, strategies for its arguments)."""
