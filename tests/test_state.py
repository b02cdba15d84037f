"""``State``'s own interface: a class of 21 fields (a native class when compiled), which
compares, hashes, prints, pickles, copies and is replaced by its fields, the same in both
builds (docs/decisions.md, "A native State")."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

import gnoming_rules as gr
from gnoming_rules.core.state import NO_EXTRAS, Extras

STANDARD = gr.load_ruleset("standard")


def dealt(seed: int = 7) -> gr.State:
    start = gr.new_game(STANDARD, 3, first_player=1)
    return gr.apply(STANDARD, start, gr.sample_chance(STANDARD, start, random.Random(seed)))


def values(state: gr.State) -> tuple[Any, ...]:
    return tuple(getattr(state, name) for name in gr.State._fields)


def test_the_fields_are_the_constructors_arguments_in_order() -> None:
    state = dealt()
    assert gr.State._fields[:4] == ("first_player", "round", "phase", "turn")
    assert gr.State._fields[-5:] == ("known", "peeks", "power", "looked", "turns")
    assert len(gr.State._fields) == 21
    fields = values(state)
    assert gr.State(*[*fields[:16], None, *fields[16:]]) == state  # (17th: extras, none given)
    assert gr.State(*[*fields[:16], state.extras]) == state
    assert gr.State(**dict(zip(gr.State._fields, values(state), strict=True))) == state


def test_states_compare_and_hash_by_their_fields() -> None:
    state, again, other = dealt(7), dealt(7), dealt(8)
    assert state is not again and state == again and hash(state) == hash(again)
    assert state != other and not state == other  # noqa: SIM201 (the __eq__ itself)
    assert state != state.replace(turn=2)
    assert len({state, again, other}) == 2
    assert state != values(state)  # not a tuple any more: equal to no tuple
    assert not isinstance(state, tuple)
    with pytest.raises(TypeError):
        iter(state)  # type: ignore[call-overload]


def test_the_fields_of_rule_11_are_held_in_one_slot() -> None:
    """``known``, ``peeks``, ``power``, ``looked`` and ``turns`` read through ``extras``
    (docs/decisions.md, "The fields of rule 11 in one slot"): one shared default under
    rules 1-10, and a state compares and hashes by the five values, not by the slot."""
    state = dealt()
    assert state.extras is NO_EXTRAS and gr.new_game(STANDARD, 3).extras is NO_EXTRAS
    assert values(state)[16:] == ((), 0, None, None, 0)
    changed = state.replace(known=((0,) * 9,) * 3, peeks=1, power="swap", looked=(1, 2), turns=4)
    assert values(changed)[16:] == (((0,) * 9,) * 3, 1, "swap", (1, 2), 4)
    assert changed.extras == Extras(((0,) * 9,) * 3, 1, "swap", (1, 2), 4)
    assert values(changed)[:16] == values(state)[:16] and changed != state
    assert changed.replace(known=(), peeks=0, power=None, looked=None, turns=0).extras is NO_EXTRAS
    apart = gr.State(*[*values(state)[:16], Extras((), 0, None, None, 0)])  # not the shared one
    assert apart == state and hash(apart) == hash(state)
    for twin in (pickle.loads(pickle.dumps(changed)), copy.deepcopy(changed)):
        assert twin == changed and hash(twin) == hash(changed)
    with pytest.raises(AttributeError):
        state.turns = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="State has no field 'extras'"):
        state.replace(extras=NO_EXTRAS)


def test_the_repr_names_every_field_in_order() -> None:
    state = gr.new_game(STANDARD, 3)
    assert repr(state) == (
        "State(first_player=0, round=0, phase=<Phase.DEAL: 0>, turn=-1, cards=((), (), ()), "
        "face_up=(0, 0, 0), draw_pile=(), discard_piles=((), ()), removed=(), held=None, "
        "taken_from_discard=False, filled=0, chain=False, flips_owed=(), went_out=None, "
        "scores=(), known=(), peeks=0, power=None, looked=None, turns=0)"
    )


def test_states_pickle_and_copy_as_equal_states() -> None:
    state = dealt()
    for twin in (
        pickle.loads(pickle.dumps(state)),
        copy.copy(state),
        copy.deepcopy(state),
    ):
        assert type(twin) is gr.State and twin == state
        assert type(twin.phase) is gr.Phase


def test_replace_makes_a_changed_copy_and_refuses_unknown_names() -> None:
    state = dealt()
    moved = state.replace(turn=2, held=5)
    assert (moved.turn, moved.held, state.turn, state.held) == (2, 5, 1, None)
    assert values(moved)[4:9] == values(state)[4:9]
    assert state.replace() == state
    assert state._replace(turn=2) == state.__replace__(turn=2) == state.replace(turn=2)
    with pytest.raises(TypeError, match="State has no field 'seat'"):
        state.replace(seat=2)


def test_a_state_takes_no_new_attributes() -> None:
    state = dealt()
    with pytest.raises(AttributeError):
        state.note = "x"  # type: ignore[attr-defined]
    assert not hasattr(state, "__dict__")


@pytest.mark.skipif(not gr.COMPILED, reason="compiled only: pure Python does not refuse it")
def test_compiled_a_field_cannot_be_assigned() -> None:
    """Compiled, the fields are read-only (``Final``); in pure Python the slots would take
    the assignment, which mypy refuses and nothing in the library does (docs/decisions.md)."""
    state = dealt()
    with pytest.raises(AttributeError, match="not writable"):
        state.turn = 2  # type: ignore[misc]
    assert state.turn == 1
