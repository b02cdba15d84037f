"""The suite's strategies: those of :mod:`gnoming_rules.testing`, re-exported in one place,
and a few that steer games into states random play seldom reaches (a due reshuffle, a
round cut mid-way, shared winners, every tie rule), for the suite's own properties."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import reject
from hypothesis import strategies as st

import gnoming_rules as gr
from gnoming_rules import testing
from gnoming_rules.testing import *  # noqa: F403 - the whole public list, kept in one place
from gnoming_rules.testing import (
    GameSetup,
    PlayedGame,
    game_setups,
    layouts,
    move_cap,
    played_games,
    rulesets,
    variant,
)

__all__ = testing.__all__ + [  # noqa: RUF005 - the library's list, then the suite's
    "RoundEnding",
    "cut_mid_round",
    "multi_round_setups",
    "reshuffle_due_games",
    "round_endings",
    "tie_prone_setups",
]


def _with(
    rules: st.SearchStrategy[gr.Ruleset], patch: dict[str, object]
) -> st.SearchStrategy[gr.Ruleset]:
    return rules.map(lambda ruleset: variant(ruleset, patch))


# --- a due reshuffle ---------------------------------------------------------------------------


def _steered_move(rules: gr.Ruleset, state: gr.State, rng: random.Random) -> gr.Move:
    """A move that runs the draw pile down: mostly draw from it and discard onto a pile."""
    if state.is_chance:
        return gr.sample_chance(rules, state, rng)
    moves = gr.legal_moves(rules, state)
    if rng.random() < 0.8:
        wanted = [
            move
            for move in moves
            if (isinstance(move, gr.Draw) and move.pile is None) or isinstance(move, gr.Discard)
        ]
        if wanted:
            return rng.choice(wanted)
    return rng.choice(moves)


def _play_until_reshuffle(setup: GameSetup, seed: int) -> PlayedGame | None:
    rules = setup.ruleset
    rng = random.Random(seed)
    state = setup.new_game()
    moves: list[gr.Move] = []
    states = [state]
    while not state.is_over and len(moves) < move_cap(setup):
        move = _steered_move(rules, state, rng)
        state = gr.apply(rules, state, move)
        moves.append(move)
        states.append(state)
        if state.phase is gr.Phase.RESHUFFLE:
            return PlayedGame(setup, tuple(moves), tuple(states))
    return None


@st.composite
def reshuffle_due_games(draw: st.DrawFn) -> PlayedGame:
    """Games stopped right after a draw that emptied the draw pile while the discard piles
    hold cards below their tops (rule 8.7): a reshuffle is due and the drawer holds the
    card. Play mostly draws from the draw pile and discards, so the pile runs out soon."""
    setup = draw(game_setups(_with(rulesets(), {"empty_draw_pile": "reshuffle"})))
    for _ in range(8):  # rarely, a game ends before its draw pile runs out: another seed
        game = _play_until_reshuffle(setup, draw(st.integers(0, 2**32 - 1)))
        if game is not None:
            return game
    return draw(st.nothing())


# --- a round cut mid-way -------------------------------------------------------------------------


@st.composite
def cut_mid_round(
    draw: st.DrawFn, setups: st.SearchStrategy[GameSetup] | None = None
) -> PlayedGame:
    """Games stopped inside a round (dealt, not yet scored): in setup, mid-turn, with flips
    owed or a reshuffle due; in any round, the later ones included."""
    game = draw(played_games(setups, complete=True))
    inside = [
        index
        for index, state in enumerate(game.states)
        if state.phase not in (gr.Phase.DEAL, gr.Phase.OVER)
    ]
    if not inside:
        reject()  # no state inside a round to cut at: nothing to test here
    later = [index for index in inside if game.states[index].round > 0]
    prefer_later: bool = draw(st.booleans())
    pool = later if later and prefer_later else inside
    return game.prefix(draw(st.sampled_from(pool)))


# --- ties and later rounds -------------------------------------------------------------------


def _one_face_deck(ruleset: gr.Ruleset, face: int) -> dict[str, object]:
    """A deck patch: every card ``face`` (as many as the deck had), no hazards or mulligans;
    the values (10.1) and powers (11.4) of the numbers taken out of the deck go with them."""
    gone = [number for number in ruleset.deck.numbers if number != face]
    numbers: dict[str, int | None] = {str(number): None for number in gone}
    numbers[str(face)] = ruleset.deck.size  # keys as the rules' JSON form writes them
    deck: dict[str, object] = {"numbers": numbers, "hazards": 0, "mulligans": 0}
    deck["values"] = {str(number): None for number in gone if number in ruleset.deck.values}
    powers = {str(number): None for number in gone if number in ruleset.powers}
    return {"deck": deck, "powers": powers}


@st.composite
def tie_prone_setups(draw: st.DrawFn) -> GameSetup:
    """Setups whose games often end in shared winners: three in four a deck of one number
    face (every layout scores alike), under both tie rules of going out (8.6)."""
    ruleset = draw(rulesets())
    patch: dict[str, object] = {
        "going_out": {
            "ties_count_as_lowest": draw(st.booleans()),
            "bonus": draw(st.integers(-5, 0)),
            "penalty": draw(st.integers(0, 5)),
        },
    }
    if draw(st.integers(0, 3)) > 0:
        patch.update(_one_face_deck(ruleset, draw(st.integers(1, 12))))
    return draw(game_setups(st.just(variant(ruleset, patch))))


def multi_round_setups() -> st.SearchStrategy[GameSetup]:
    """Setups of games of two rounds or more, the first player rotating or fixed (2.2)."""
    rules = st.tuples(rulesets(), st.integers(2, 3), st.sampled_from(["rotate", "fixed"])).map(
        lambda drawn: variant(drawn[0], {"rounds": drawn[1], "first_player": drawn[2]})
    )
    return game_setups(rules)


@dataclass(frozen=True)
class RoundEnding:
    """Every seat's full layout at a round's end, and the seat that went out."""

    ruleset: gr.Ruleset
    layouts: tuple[tuple[gr.Face, ...], ...]
    went_out: int


@st.composite
def round_endings(draw: st.DrawFn) -> RoundEnding:
    """Round endings steered to the cases of rule 8.6: the seat out strictly lowest, tied
    for lowest (another seat given the same layout), or not lowest, under both tie rules."""
    ruleset = draw(rulesets())
    ruleset = variant(ruleset, {"going_out": {"ties_count_as_lowest": draw(st.booleans())}})
    players = draw(st.integers(2, 5))
    chosen = [draw(layouts(ruleset)) for _ in range(players)]
    went_out = draw(st.integers(0, players - 1))
    case = draw(st.sampled_from(["lowest", "tie", "any"]))
    if case == "lowest":  # the seat out is the lowest (strictly, unless scores repeat)
        scored = [gr.score_layout(ruleset, layout) for layout in chosen]
        went_out = scored.index(min(scored))
    elif case == "tie":  # another seat holds the same layout
        other = (went_out + draw(st.integers(1, players - 1))) % players
        chosen[other] = chosen[went_out]
    return RoundEnding(ruleset, tuple(chosen), went_out)
