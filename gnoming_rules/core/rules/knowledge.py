"""What a seat knows (rule 11.1), the setup peeks (11.2) and cards placed face down (11.3).

``State.known[p][s]`` is the bit mask of the seats that know seat ``p``'s face-down slot
``s``. The engine keeps it ``()`` unless ``rules.knowledge``; these steps run only then
(or, for :func:`fresh_round`, under ``round_end.knock`` too), so the rules of §1-10 pay
one test of a flag at most.
"""

from __future__ import annotations

from typing import Final

from ..cards import MULLIGAN
from ..compiled import CompiledRules
from ..state import NO_EXTRAS, Extras, Phase, State

_PEEK: Final = Phase.PEEK
_BOUNCE: Final = Phase.BOUNCE


def fresh_round(rules: CompiledRules, dealt: State) -> State:
    """``dealt`` (a state just dealt) with the fields of §11 as a round starts them: nobody
    knows a card (one 0 per slot under ``rules.knowledge``, else ``()``), no peek made, no
    power open, no turn completed."""
    players = len(dealt.face_up)
    known = ((0,) * rules.slots,) * players if rules.knowledge else ()
    return State(
        dealt.first_player, dealt.round, dealt.phase, dealt.turn, dealt.cards, dealt.face_up,
        dealt.draw_pile, dealt.discard_piles, dealt.removed, dealt.held,
        dealt.taken_from_discard, dealt.filled, dealt.chain, dealt.flips_owed, dealt.went_out,
        dealt.scores,
        Extras(known, 0, None, None, 0) if known else NO_EXTRAS,
    )  # fmt: skip


def every_seat(players: int) -> int:
    """The mask of every seat at a table of ``players``."""
    return (1 << players) - 1


def with_known(
    known: tuple[tuple[int, ...], ...], seat: int, slot: int, mask: int
) -> tuple[tuple[int, ...], ...]:
    """``known`` with seat ``seat``'s slot ``slot`` known to the seats of ``mask`` alone."""
    row = list(known[seat])
    row[slot] = mask
    rows = list(known)
    rows[seat] = tuple(row)
    return tuple(rows)


def learned(
    known: tuple[tuple[int, ...], ...], viewer: int, seat: int, slot: int
) -> tuple[tuple[int, ...], ...]:
    """``known`` once ``viewer`` has looked at ``seat``'s ``slot`` (a peek, 11.2, 11.4)."""
    return with_known(known, seat, slot, known[seat][slot] | 1 << viewer)


def has_face_down(state: State, seat: int) -> bool:
    """``seat`` has a face-down card (an empty slot of 10.6 has its face-up bit set)."""
    return state.face_up[seat] != (1 << len(state.cards[seat])) - 1


def next_peeker(state: State, seat: int, starter: int, opening: bool) -> int | None:
    """The first seat from ``seat`` on, in seat order and before coming back to
    ``starter``, that has a face-down card to peek at (rule 11.2: a seat with none makes
    no peeks); ``None`` when the setup peeks are over. ``opening``: the lap starts at
    ``seat`` (the starter itself)."""
    players = len(state.face_up)
    for step in range(players):
        candidate = (seat + step) % players
        if candidate == starter and not (opening and step == 0):
            return None
        if has_face_down(state, candidate):
            return candidate
    return None


def start_peeks(rules: CompiledRules, state: State, starter: int) -> State | None:
    """The setup peeks' first state (phase ``PEEK``, rule 11.2): after the setup reveals
    (or the deal, when there are none), the round's first player peeks first; ``None``
    when no seat has a face-down card to peek at (the first turn begins)."""
    seat = next_peeker(state, starter, starter, True)
    if seat is None:
        return None
    return State(
        state.first_player, state.round, _PEEK, seat, state.cards, state.face_up,
        state.draw_pile, state.discard_piles, state.removed, state.held,
        state.taken_from_discard, state.filled, state.chain, state.flips_owed, state.went_out,
        state.scores,
        Extras(state.known, 0, None, None, state.turns),
    )  # fmt: skip


def setup_peek(rules: CompiledRules, state: State, slot: int) -> tuple[State, bool]:
    """The state after the seat in turn peeks at its own face-down ``slot`` (checked), and
    whether the setup peeks are over (then the caller begins the first turn, at
    ``state.turn`` of the returned state: the round's first player)."""
    seat = state.turn
    known = learned(state.known, seat, seat, slot)
    peeks = state.peeks + 1
    turn = seat
    done = False
    if peeks >= rules.peek_at_start:
        players = len(state.face_up)
        starter = rules.first_player_of_round(state.first_player, state.round, players)
        following = next_peeker(state, (seat + 1) % players, starter, False)
        peeks = 0
        if following is None:
            turn, done = starter, True
        else:
            turn = following
    return State(
        state.first_player, state.round, _PEEK, turn, state.cards, state.face_up,
        state.draw_pile, state.discard_piles, state.removed, state.held,
        state.taken_from_discard, state.filled, state.chain, state.flips_owed, state.went_out,
        state.scores,
        Extras(known, peeks, None, None, state.turns),
    ), done  # fmt: skip


def place_down(rules: CompiledRules, state: State, seat: int, slot: int) -> State:
    """``play.placed: down`` (rule 11.3): the held card goes face down into ``seat``'s
    ``slot`` (checked), known to its placer, or to every seat when it was taken from a
    discard pile; the displaced card is turned up and held (4.2), its knowledge gone with
    it. No line can complete (the slot is face down) and 7.2 counts only face-up
    mulligans, which a face-down play never adds (docs/decisions.md)."""
    held = state.held
    assert held is not None
    players = len(state.face_up)
    layout = state.cards[seat]
    displaced = layout[slot]
    row = list(layout)
    row[slot] = held
    cards = list(state.cards)
    cards[seat] = tuple(row)
    ups = list(state.face_up)
    bit = 1 << slot
    was_up = ups[seat] & bit
    ups[seat] &= ~bit
    knowers = every_seat(players) if state.taken_from_discard else 1 << seat
    known = with_known(state.known, seat, slot, knowers)
    return State(
        state.first_player, state.round, _BOUNCE, seat, tuple(cards), tuple(ups),
        state.draw_pile, state.discard_piles, state.removed, displaced, False, bit,
        not was_up, state.flips_owed, state.went_out, state.scores,
        Extras(known, state.peeks, state.power, state.looked, state.turns),
    )  # fmt: skip


def played_up(state: State, seat: int, slot: int) -> State:
    """``state`` (just after a card was played or bounced face up into ``seat``'s ``slot``,
    or turned up there by a flip) with that slot's mask cleared: a face-up card is seen by
    all (11.1), and the card that left the slot took its knowers with it."""
    if not state.known[seat][slot]:
        return state
    return state.replace(known=with_known(state.known, seat, slot, 0))


def all_turned_up(known: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """``known`` once every card is turned up at the round's end (8.1): every mask cleared,
    a face-up card being seen by all (11.1)."""
    return tuple((0,) * len(row) for row in known)


def mulligan_free(rules: CompiledRules, held: object) -> bool:
    """A held mulligan's places are not limited by 7.2: it would lie face down (11.3)."""
    return held == MULLIGAN and rules.placed_down


__all__: list[str] = []  # rule steps and handlers, called by the engine (not exported)
