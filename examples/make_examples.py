"""Build the example records of this folder, deterministically (``make examples``).

Legal records come from seeded bot games; each illegal record (``illegal/<code>.json``)
is the smallest record that gets that error code, made from a deal arranged by hand
(:func:`arranged_deal`) or from a seeded game changed in one place. The tests import
this module to check that the committed files are what it builds, and assert each
illegal record's code, round and move themselves.

    python examples/make_examples.py [FOLDER]     # default: this file's folder
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import gnoming_rules as gr
from gnoming_rules.formats.record import (
    FORMAT,
    AnyRecord,
    PublicRecord,
    Record,
    dump_record,
    read_record,
)
from gnoming_rules.play.bots import play_game
from gnoming_rules.play.recorder import default_reference
from gnoming_rules.referee.redact import redact

HERE = Path(__file__).resolve().parent
NAMES = ["Ana", "Bo", "Cy"]
STANDARD = gr.load_ruleset("standard")
TINY = gr.load_ruleset(HERE / "tiny.yaml")


# --- building blocks --------------------------------------------------------------------------


def arranged_deal(
    rules: gr.Ruleset,
    players: int,
    layouts: Mapping[int, Mapping[int, gr.Face]] | None = None,
    starts: Sequence[gr.Face] = (),
    draw: Sequence[gr.Face] = (),
) -> list[gr.Face]:
    """A legal deal with chosen cards in chosen places, the rest in the deck's sorted order.

    ``layouts[seat][slot]`` fixes a card of a layout, ``starts`` the cards that start the
    two discard piles, ``draw`` the top of the draw pile.
    """
    slots = rules.layout.rows * rules.layout.cols
    size = players * slots
    wanted: dict[int, gr.Face] = {}
    for seat, cards in (layouts or {}).items():
        for slot, card in cards.items():
            wanted[seat * slots + slot] = card
    for offset, card in enumerate(starts):
        wanted[size + offset] = card
    for offset, card in enumerate(draw):
        wanted[size + 2 + offset] = card
    deck = Counter(rules.compiled.deck)
    if Counter(wanted.values()) - deck:
        raise ValueError("the arranged cards are not all in the deck")
    spare = deck - Counter(wanted.values())
    rest = [card for card in rules.compiled.deck if _take(spare, card)]
    # keep hazards out of the discard starts unless asked for (RULES 3.3 would skip them)
    rest.sort(key=lambda card: card == gr.HAZARD)
    deal: list[gr.Face] = []
    for position in range(len(rules.compiled.deck)):
        deal.append(wanted[position] if position in wanted else rest.pop(0))
    return deal


def _take(spare: Counter[gr.Face], card: gr.Face) -> bool:
    if spare[card] > 0:
        spare[card] -= 1
        return True
    return False


def record_data(
    rounds: Sequence[Mapping[str, Any]],
    *,
    ruleset: str | Mapping[str, Any] = "standard",
    rules: gr.Ruleset = STANDARD,
    players: Sequence[str] = NAMES,
    first_player: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    """A record as plain data (the shape of the JSON file), hashed for ``rules``."""
    return {
        "format": FORMAT,
        "ruleset": ruleset,
        "ruleset_sha256": rules.sha256,
        "players": list(players),
        "first_player": first_player,
        "rounds": [dict(round_) for round_ in rounds],
        **extra,
    }


def reveal(player: int, slot: int) -> dict[str, Any]:
    return {"action": "reveal", "player": player, "slot": slot}


def draw(player: int, pile: int | None = None) -> dict[str, Any]:
    if pile is None:
        return {"action": "draw", "player": player, "source": "deck"}
    return {"action": "draw", "player": player, "source": "discard", "pile": pile}


def place(player: int, slot: int) -> dict[str, Any]:
    return {"action": "place", "player": player, "slot": slot}


def bounce(player: int, slot: int) -> dict[str, Any]:
    return {"action": "bounce", "player": player, "slot": slot}


def discard(player: int, pile: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"action": "discard", "player": player}
    if pile is not None:
        entry["pile"] = pile
    return entry


def flip(player: int, slot: int) -> dict[str, Any]:
    return {"action": "flip", "player": player, "slot": slot}


SETUP = [reveal(seat, slot) for seat in range(3) for slot in (0, 1)]
"""Standard setup for three players: each reveals slots 0 and 1 (moves 0 to 5)."""


def standard_round(moves: Sequence[Mapping[str, Any]], **arranged: Any) -> dict[str, Any]:
    return {"deal": arranged_deal(STANDARD, 3, **arranged), "moves": list(moves)}


def tiny_game(seed: int, players: int = 3, **options: Any) -> dict[str, Any]:
    """A seeded tiny game as record data, with the tiny ruleset inline: a record may name a
    ruleset file only inside its own folder, and ``illegal/`` holds none."""
    record, _ = play_game(TINY, players, seed=seed, **options)
    return record.model_dump(exclude_none=True)


def first_reshuffle(data: dict[str, Any]) -> tuple[int, int]:
    """(round, move) of the first reshuffle in record data."""
    for round_index, round_ in enumerate(data["rounds"]):
        for move_index, move in enumerate(round_["moves"]):
            if move["action"] == "reshuffle":
                return round_index, move_index
    raise ValueError("no reshuffle in this game")


# --- the illegal records, one per error code ---------------------------------------------------


def _bad_record() -> dict[str, Any]:
    moves = [reveal(0, 0), {"action": "reveal", "player": 0, "slot": "1"}]
    return record_data([standard_round(moves)])


def _bad_deal() -> dict[str, Any]:
    round_ = standard_round(SETUP)
    round_["deal"] = round_["deal"][:-1]  # one card short
    return record_data([round_])


def _unknown_ruleset() -> dict[str, Any]:
    data = record_data([standard_round(SETUP)], ruleset="no-such-ruleset")
    del data["ruleset_sha256"]
    return data


def _ruleset_mismatch() -> dict[str, Any]:
    data = record_data([standard_round(SETUP)])
    data["ruleset_sha256"] = gr.load_ruleset({"extends": "standard", "bounce": False}).sha256
    return data


def _not_your_turn() -> dict[str, Any]:
    return record_data([standard_round([reveal(1, 0)])])


def _wrong_phase() -> dict[str, Any]:
    return record_data([standard_round([*SETUP, place(0, 2)])])


def _bad_slot() -> dict[str, Any]:
    return record_data([standard_round([reveal(0, 9)])])


def _slot_face_up() -> dict[str, Any]:
    return record_data([standard_round([reveal(0, 0), reveal(0, 0)])])


def _empty_pile() -> dict[str, Any]:
    # Ana takes pile 0's only card and plays it onto her face-down hazard, which she then
    # discards out of the game: pile 0 stays empty, and Bo draws from it after the flips.
    moves = [*SETUP, draw(0, 0), place(0, 2), discard(0), flip(1, 2), flip(2, 2), draw(1, 0)]
    return record_data([standard_round(moves, layouts={0: {2: gr.HAZARD}})])


def _must_use_empty_pile() -> dict[str, Any]:
    moves = [*SETUP, draw(0, 0), place(0, 2), discard(0, 1)]
    return record_data([standard_round(moves)])


def _must_play_taken_card() -> dict[str, Any]:
    moves = [*SETUP, draw(0, 0), discard(0, 0)]
    return record_data([standard_round(moves)])


def _cannot_bounce() -> dict[str, Any]:
    # the play goes onto a face-up card, so no bounce chain can start (RULES 5.1)
    moves = [*SETUP, draw(0), place(0, 0), bounce(0, 2)]
    return record_data([standard_round(moves)])


def _slot_already_filled() -> dict[str, Any]:
    # Ana shows a 7; her face-down slot 2 holds another 7, which her play displaces: it may
    # bounce (RULES 5.2), but not back into slot 2, filled this turn (5.3)
    moves = [*SETUP, draw(0), place(0, 2), bounce(0, 2)]
    layouts = {0: {0: 7, 1: 3, 2: 7}}
    return record_data([standard_round(moves, layouts=layouts, draw=[5])])


def _mulligan_limit() -> dict[str, Any]:
    moves = [*SETUP, draw(0), place(0, 2)]
    layouts = {0: {0: gr.MULLIGAN}}
    return record_data([standard_round(moves, layouts=layouts, draw=[gr.MULLIGAN])])


def _no_flip_owed() -> dict[str, Any]:
    return record_data([standard_round([*SETUP, flip(1, 2)])])


def _bad_reshuffle() -> dict[str, Any]:
    data = tiny_game(seed=3)
    round_index, move_index = first_reshuffle(data)
    data["rounds"] = data["rounds"][: round_index + 1]
    round_ = data["rounds"][round_index]
    round_["moves"] = round_["moves"][: move_index + 1]
    round_.pop("scores", None)
    data.pop("result", None)
    cards = round_["moves"][move_index]["cards"]
    cards[0] = next(card for card in (5, 4, 3, 2, 1) if card != cards[0])  # a card not there
    return data


def _card_mismatch() -> dict[str, Any]:
    round_ = standard_round([{**reveal(0, 0), "card": 12}], layouts={0: {0: 5}})
    return record_data([round_])


def _score_mismatch() -> dict[str, Any]:
    data = tiny_game(seed=1, rounds=1)
    data["rounds"][0]["scores"][0] += 1
    return data


def _result_mismatch() -> dict[str, Any]:
    data = tiny_game(seed=2)
    data["result"]["totals"][1] -= 1
    return data


def _moves_after_end() -> dict[str, Any]:
    data = tiny_game(seed=1, rounds=1)
    round_ = data["rounds"][0]
    round_["moves"].append(draw(1))
    return data


def public_game(seed: int, players: int = 2, **options: Any) -> dict[str, Any]:
    """A seeded tiny game's public form as record data (the tiny ruleset inline: a record
    may name a ruleset file only inside its own folder)."""
    record, _ = play_game(TINY, players, seed=seed, ruleset_ref=None, **options)
    return redact(record, base_dir=HERE / "illegal").model_dump(exclude_none=True)


def _impossible_card() -> dict[str, Any]:
    # seat 1 turns up a -2, and later says it flipped another: the tiny deck has only one
    data = public_game(seed=0, rounds=1)
    moves = data["rounds"][0]["moves"]
    flip_index = next(i for i, move in enumerate(moves) if move["action"] == "flip")
    moves[flip_index]["card"] = -2
    return data


ILLEGAL: dict[str, Callable[[], dict[str, Any]]] = {
    "bad-record": _bad_record,
    "bad-deal": _bad_deal,
    "unknown-ruleset": _unknown_ruleset,
    "ruleset-mismatch": _ruleset_mismatch,
    "not-your-turn": _not_your_turn,
    "wrong-phase": _wrong_phase,
    "bad-slot": _bad_slot,
    "slot-face-up": _slot_face_up,
    "empty-pile": _empty_pile,
    "must-use-empty-pile": _must_use_empty_pile,
    "must-play-taken-card": _must_play_taken_card,
    "cannot-bounce": _cannot_bounce,
    "slot-already-filled": _slot_already_filled,
    "mulligan-limit": _mulligan_limit,
    "no-flip-owed": _no_flip_owed,
    "bad-reshuffle": _bad_reshuffle,
    "card-mismatch": _card_mismatch,
    "score-mismatch": _score_mismatch,
    "result-mismatch": _result_mismatch,
    "moves-after-end": _moves_after_end,
    "impossible-card": _impossible_card,
}
"""Error code -> the function that builds its illegal record (as JSON data); the one of
``impossible-card``, a code only public records get, is a public record."""


def _no_final() -> dict[str, Any]:
    data = public_game(seed=0, rounds=1)
    del data["rounds"][0]["final"]  # the round finished: its layouts must be given
    return data


def _final_differs() -> dict[str, Any]:
    data = public_game(seed=0, rounds=1)
    final = data["rounds"][0]["final"]
    final[0][0] = 4  # seat 0 showed a 3 there
    return data


def _hazard_starts_a_pile() -> dict[str, Any]:
    data = public_game(seed=0, rounds=1)
    data["rounds"][0]["start"] = {"piles": [1, "H"]}  # a hazard is removed, never a pile's first
    return data


PUBLIC_ILLEGAL: dict[str, Callable[[], dict[str, Any]]] = {
    "bad-record": _no_final,
    "card-mismatch": _final_differs,
    "bad-deal": _hazard_starts_a_pile,
    "impossible-card": _impossible_card,
}
"""Error code -> a public record that gets it in a way only a public record can (written
to ``public/illegal/<code>.json``)."""


# --- the legal records ----------------------------------------------------------------------


def _tiny_game_json() -> Record:
    record, _ = play_game(TINY, 3, seed=11, ruleset_ref="tiny.yaml")
    return record


def _tiny_game_yaml() -> Record:
    record, _ = play_game(TINY, 2, seed=12, bot="random", ruleset_ref="tiny.yaml")
    return record


def _opening_yaml() -> Record:
    """The first moves of a standard game: a record that stops is valid and incomplete."""
    record, _ = play_game(STANDARD, 3, seed=13)
    first = record.rounds[0]
    return record.model_copy(
        update={"rounds": [first.model_copy(update={"moves": first.moves[:12]})], "result": None}
    )


def _inline_ruleset_json() -> Record:
    """One round under an inline house rule (no bouncing, one flip per hazard)."""
    inline = {"extends": "standard", "name": "house", "bounce": False, "hazard": {"flips": "next"}}
    rules = gr.load_ruleset(inline)
    record, _ = play_game(rules, 3, seed=14, ruleset_ref=inline, rounds=1)
    return record


def _public(name: str) -> Callable[[], PublicRecord]:
    """The public form of the legal example ``name`` (its ruleset file's rules inline: a
    record may name a ruleset file only inside its own folder)."""

    def make() -> PublicRecord:
        full = read_record(HERE / name)
        assert isinstance(full, Record)
        public = redact(full, base_dir=HERE)
        if isinstance(public.ruleset, str) and public.ruleset.endswith(".yaml"):
            public = public.model_copy(update={"ruleset": default_reference(TINY)})
        return public

    return make


LEGAL: dict[str, Callable[[], AnyRecord]] = {
    "tiny-game.json": _tiny_game_json,
    "tiny-game.yaml": _tiny_game_yaml,
    "opening.yaml": _opening_yaml,
    "inline-ruleset.json": _inline_ruleset_json,
    "public/tiny-game.json": _public("tiny-game.json"),
    "public/tiny-game.yaml": _public("tiny-game.yaml"),
    "public/opening.yaml": _public("opening.yaml"),
}
"""File name -> the function that builds that legal record."""


def build(folder: Path) -> dict[Path, str]:
    """Every example file's path under ``folder`` and its text."""
    files: dict[Path, str] = {}
    for name, make in LEGAL.items():
        record = make()
        files[folder / name] = dump_record(record, "yaml" if name.endswith(".yaml") else "json")
    for code, make_data in ILLEGAL.items():
        # Record.model_validate would refuse bad-record's data: write it as JSON text directly
        text = _json_text(make_data())
        files[folder / "illegal" / f"{code}.json"] = text
    for code, make_data in PUBLIC_ILLEGAL.items():
        files[folder / "public" / "illegal" / f"{code}.json"] = _json_text(make_data())
    return files


def _json_text(data: dict[str, Any]) -> str:
    """Record data as a record file, laid out like the library's own records when it can be."""
    model = PublicRecord if data.get("information") == "public" else Record
    try:
        return dump_record(model.model_validate(data))
    except ValueError:
        return json.dumps(data, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else HERE
    for path, text in build(folder).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
