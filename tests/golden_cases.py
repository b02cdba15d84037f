"""Golden playthroughs: seeded records with, before every move, the state and the legal moves.

``tests/golden/<name>.json`` holds a record played by bots and its *steps*: for each
move, where it is (round, move), a one-line state summary and the sorted legal moves,
then the final state. The test replays the stored record through the engine and diffs
the steps, so any change in what the engine allows or does shows up as the first
differing step. Only ``make golden`` (``python tests/golden_cases.py``) rewrites them.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import gnoming_rules as gr
from gnoming_rules.formats.record import Record, parse_record
from gnoming_rules.play.bots import play_game
from gnoming_rules.play.render import state_summary
from gnoming_rules.referee.resolver import RulesetResolver
from gnoming_rules.referee.validate import engine_moves

GOLDEN = Path(__file__).resolve().parent / "golden"
TINY = str(Path(__file__).resolve().parent.parent / "examples" / "tiny.yaml")
RESOLVER = RulesetResolver(trusted=[Path(TINY).parent])
"""The golden records name ``../../examples/tiny.yaml``, outside their own folder: the
project's own files, so that folder is trusted."""

PLAYTHROUGH = GOLDEN / "openspiel-tiny-2.txt"
"""OpenSpiel's ``generate_playthrough`` of a tiny two-seat game (its game string names the
ruleset from the repository's root, where it is made and replayed)."""

CASES: dict[str, dict[str, Any]] = {
    "tiny-3-greedy": {"ruleset": "../../examples/tiny.yaml", "players": 3, "seed": 21},
    "tiny-2-random": {
        "ruleset": "../../examples/tiny.yaml",
        "players": 2,
        "seed": 22,
        "bot": "random",
    },
    "standard-3-greedy-round": {"ruleset": "standard", "players": 3, "seed": 23, "rounds": 1},
    "house-4-random": {
        "ruleset": {
            "extends": "standard",
            "empty_draw_pile": "end_round",
            "bounce": False,
            "hazard": {"flips": "next", "spare_last_card": False},
            "layout": {"rows": 2, "cols": 3, "face_up_at_start": 1},
            "rounds": 1,
        },
        "players": 4,
        "seed": 24,
        "bot": "random",
    },
    "golf-6-3-greedy": {"ruleset": "golf-6", "players": 3, "seed": 25, "rounds": 2},
    "golf-6-house-3-greedy": {"ruleset": "golf-6-house", "players": 3, "seed": 28, "rounds": 2},
    "four-card-golf-3-greedy": {
        "ruleset": "four-card-golf",
        "players": 3,
        "seed": 29,
        "rounds": 2,
    },
    "cabo-like-3-random": {"ruleset": "cabo-like", "players": 3, "seed": 40, "bot": "random"},
    "golf-9-2-random": {
        "ruleset": "golf-9",
        "players": 2,
        "seed": 26,
        "bot": "random",
        "rounds": 2,
    },
    "skyjo-like-3-greedy": {"ruleset": "skyjo-like", "players": 3, "seed": 28, "rounds": 2},
}
"""Golden file -> how its game is played (the ruleset as the record names it, from golden/)."""


def move_text(move: gr.Move) -> str:
    """A move in a short, sortable form: ``draw 0 discard 1``, ``place 2 7``."""
    if isinstance(move, gr.Draw):
        return f"draw {move.player} " + ("deck" if move.pile is None else f"discard {move.pile}")
    if isinstance(move, gr.Discard):
        return f"discard {move.player} " + ("hazard" if move.pile is None else f"pile {move.pile}")
    if isinstance(move, gr.Reveal | gr.Place | gr.Bounce | gr.Flip):
        return f"{move.action} {move.player} {move.slot}"
    if isinstance(move, gr.Peek):
        whose = "" if move.target is None else f" of {move.target}"
        return f"peek {move.player} {move.slot}{whose}"
    if isinstance(move, gr.Swap):
        return f"swap {move.player} {move.slot} with {move.target} {move.target_slot}"
    if isinstance(move, gr.Pass | gr.Knock):
        return f"{move.action} {move.player}"
    return f"{move.action} {len(move.cards)} cards"


SECTION_11 = {"known": (), "peeks": 0, "power": None, "looked": None, "turns": 0}
"""The state's fields of RULES §11 and their defaults (the state of a §1-10 game)."""


def digest(state: gr.State) -> str:
    """A short hash of everything in the state (every card included). The fields of RULES
    §11 count by name where they are not at their defaults, so the digests of games under
    §1-10 rules are those they had before §11 existed."""
    fields: tuple[object, ...] = tuple(
        getattr(state, name) for name in gr.State._fields if name not in SECTION_11
    )  # (once a NamedTuple's)
    fields += tuple(
        (name, getattr(state, name))
        for name, default in SECTION_11.items()
        if getattr(state, name) != default
    )
    return hashlib.sha256(repr(fields).encode()).hexdigest()[:12]


def steps_of(record: Record) -> list[list[Any]]:
    """Replay ``record`` (which must be legal) and list every step:
    [where and the move, state summary, state digest, sorted legal moves]."""
    rules = RESOLVER.resolve(record.ruleset, GOLDEN)
    state = gr.new_game(rules, len(record.players), record.first_player)
    steps: list[list[Any]] = []
    for round_index, (round_, moves) in enumerate(
        zip(record.rounds, engine_moves(record), strict=True)
    ):
        state = gr.apply(rules, state, gr.Deal(tuple(round_.deal)))
        for move_index, move in enumerate(moves):
            legal = sorted(move_text(option) for option in gr.legal_moves(rules, state))
            where = f"r{round_index} m{move_index} {move_text(move)}"
            steps.append([where, state_summary(state), digest(state), legal])
            state = gr.apply(rules, state, move)
    steps.append(["end", state_summary(state), digest(state), []])
    return steps


def play(case: dict[str, Any]) -> Record:
    """The case's game, played by its bots."""
    source = case["ruleset"]
    rules = RESOLVER.resolve(source, GOLDEN)
    options = {key: case[key] for key in ("bot", "rounds") if key in case}
    record, _ = play_game(rules, case["players"], seed=case["seed"], ruleset_ref=source, **options)
    return record


def golden_text(record: Record, steps: list[list[Any]]) -> str:
    """A golden file: the record, then one step per line (so that diffs are readable)."""
    lines = ['{"record": ' + json.dumps(record.model_dump(exclude_none=True)) + ",", ' "steps": [']
    lines += [
        "  " + json.dumps(step) + ("," if index < len(steps) - 1 else "")
        for index, step in enumerate(steps)
    ]
    lines.append("]}")
    return "\n".join(lines) + "\n"


def load(name: str) -> tuple[Record, list[list[Any]]]:
    """A stored golden file's record and steps."""
    data = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    record = parse_record(json.dumps(data["record"]))
    assert isinstance(record, Record)  # a golden game holds its deals
    return record, data["steps"]


def main() -> int:
    """Rewrite every golden file from its case (``make golden``)."""
    GOLDEN.mkdir(exist_ok=True)
    for name, case in CASES.items():
        record = play(case)
        path = GOLDEN / f"{name}.json"
        path.write_text(golden_text(record, steps_of(record)), encoding="utf-8")
        print(f"wrote {path}")
    PLAYTHROUGH.write_text(playthrough_text(), encoding="utf-8")
    print(f"wrote {PLAYTHROUGH}")
    return 0


def playthrough_text() -> str:
    """The playthrough of :data:`PLAYTHROUGH`, generated from the repository's root."""
    import os

    from open_spiel.python.algorithms import generate_playthrough

    from gnoming_rules.adapters.openspiel_game import GAME_NAME

    here = Path.cwd()
    os.chdir(GOLDEN.parent.parent)
    try:
        game = f"{GAME_NAME}(players=2,ruleset=examples/tiny.yaml)"
        return str(generate_playthrough.playthrough(game, None, seed=7))
    finally:
        os.chdir(here)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    raise SystemExit(main())
