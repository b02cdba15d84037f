"""An OpenSpiel game, registered as ``python_gnoming``: explicit chance, information states.

Importing this module registers the game with OpenSpiel; then
``pyspiel.load_game("python_gnoming", {"ruleset": "quick", "players": 3})`` loads it.
Its parameters: ``ruleset`` (a bundled name or a ruleset file), ``players``,
``first_player`` (the seat that starts round 0) and ``move_limit`` (player moves after
which the game stops, so that its length is bounded as OpenSpiel requires).

- **Chance** deals one card at a time: each round's deal is as many chance nodes as the
  deck has cards, and a reshuffle (rule 8.7) as many as the cards reshuffled. Each
  chance node's outcomes are the faces still to come, with probability proportional to
  their copies left, so ``chance_outcomes()`` lists at most one entry per face (19 under
  the standard rules), not every order of the deck. Once the last card is out, the
  whole order goes to the referee as one :class:`~gnoming_rules.moves.Deal` (or
  :class:`~gnoming_rules.moves.Reshuffle`): the chance actions *are* the shuffled order,
  so a game replays exactly (:func:`replay`, :func:`to_record`).
- **Player actions** are the ruleset's :class:`~gnoming_rules.adapters.actions.ActionSpace`.
- **Observations** are :func:`~gnoming_rules.observation.observe`'s view: the string is
  the table as that seat sees it, the tensor the
  :class:`~gnoming_rules.adapters.encoding.Encoder` vector.
- **Information states**: the string is everything the seat saw, in order (perfect
  recall: each move with the card it showed, except a card another seat drew from the
  draw pile; the public news of deals, reshuffles and round ends); the tensor is the
  observation tensor followed by what the seat knows of the draw pile (after a
  reshuffle, how many of each face it holds: they were all seen on the discard piles).
- **Observers** honour OpenSpiel's ``IIGObservationType``: ``public_info`` alone is the
  table's view (a spectator's), ``private_info=SINGLE_PLAYER`` alone the card the seat
  alone sees, both the seat's observation; ``perfect_recall`` the information state.
- **Worlds**: ``resample_from_infostate(seat, sampler)`` draws a state uniformly among
  those with the seat's information state (its hidden cards spread again, by
  :mod:`gnoming_rules.play.worlds`), so OpenSpiel's ``ISMCTSBot`` plays it as it is.
- **Refusals**: a chance outcome not offered (out of range, or a face with no copy left)
  raises ``bad-action``, an action on a finished game ``no-player-to-move``, an illegal
  move the referee's :class:`~gnoming_rules.errors.IllegalMove`; the state is unchanged.
- **Returns** are minus each seat's total (lower is better in this game), given at the
  end; a game stopped by ``move_limit`` returns minus the totals of its finished rounds.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace as dc_replace
from typing import Any

from ..extras import missing_extra

try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # a clear missing-extra error, not a bare ModuleNotFoundError
    raise missing_extra(missing, "rl") from None

from ..core.cards import Face, face_text
from ..core.engine import apply, new_game, shuffle
from ..core.entries import card_claim
from ..core.errors import UsageError
from ..core.moves import Deal, Move, PlayerMove, Reshuffle
from ..core.ruleset import Ruleset
from ..core.state import Phase, State, below_tops
from ..formats.record import Record
from ..play.observation import Observation, held_is_hidden, observe
from ..play.recorder import Recorder
from ..play.render import describe_turn, draw_table
from ..play.worlds import Spot, hidden_places
from .actions import ActionSpace, action_space
from .encoding import Encoder, total_bound
from .table import DEFAULT_MOVE_LIMIT, resolve_ruleset

__all__ = ["GAME_NAME", "GnomingGame", "GnomingState", "Observer", "replay", "to_record"]

GAME_NAME = "python_gnoming"
"""The name the game is registered under."""

_PARAMETERS: dict[str, Any] = {
    "ruleset": "standard",
    "players": 4,
    "first_player": 0,
    "move_limit": DEFAULT_MOVE_LIMIT,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Gnoming A Round (gnoming-rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=100,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class _Tables:
    """What every state of one game shares: the rules and the tables derived from them.

    A clone shares them, and a pickled state names them by key, so a serialized state
    carries none of it (the game, loaded first, registers them again).
    """

    def __init__(self, key: str, ruleset: Ruleset, players: int, first: int, limit: int) -> None:
        self.key = key
        self.ruleset = ruleset
        self.players = players
        self.first_player = first
        self.move_limit = limit
        self.space: ActionSpace = action_space(ruleset)
        self.encoder = Encoder(ruleset, players)
        self.faces: tuple[Face, ...] = self.encoder.faces
        counts = ruleset.compiled.deck_counts
        self.deck_counts = tuple(counts[face] for face in self.faces)
        self.seat_moves = tuple(self.space.seat_moves(seat) for seat in range(players))
        """Each seat's move of each action, by number (the space's tables, read per step)."""
        self.draw = self.space.draw
        """The action that draws from the draw pile."""
        self.shows = tuple(_shows(move) for move in self.space.seat_moves(0))
        """Which card each action shows (:func:`_shows`), by number."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Tables:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_tables, (self.key,))


_REGISTRY: dict[str, _Tables] = {}


def _tables(key: str) -> _Tables:
    """The tables of a loaded game, by key (unpickling a serialized state)."""
    return _REGISTRY[key]


class _Progress:
    """A state's own data: the referee's state, the chance sequence under way, the log.

    Its fields are immutable values, or lists copied on clone: a clone costs a few list
    copies, not a deep copy of the game.
    """

    legal: tuple[int, ...] | None = None
    """(A state serialized by a version without the field reads it from the class.)"""

    def __init__(self, tables: _Tables) -> None:
        self.tables = tables
        self.state: State = new_game(tables.ruleset, tables.players, tables.first_player)
        self.dealt: list[Face] = []
        """The cards of the deal or reshuffle under way, in order."""
        self.left: list[int] = list(tables.deck_counts)
        """Copies of each face still to come in it."""
        self.to_deal = sum(self.left)
        """Cards still to come in it."""
        self.player = _CHANCE
        """OpenSpiel's current player, kept up to date by every action."""
        self.moves = 0
        """Player moves so far."""
        self.reshuffled = False
        """A reshuffle happened this round (the draw pile's faces are then known)."""
        self.log: list[tuple[int, int, Face | None] | str] = []
        """``(seat, action, card shown)`` per player move, and the public news of deals,
        reshuffles and round ends as text."""
        self.steps = 0
        """Actions applied so far (the length of OpenSpiel's history)."""
        self.sequences: list[tuple[int, int]] = []
        """The chance sequences of the round (its deal, then each reshuffle): where each
        starts in the history, and how many cards it deals."""
        self.held_at: tuple[int, int] | None = None
        """The last card drawn from the draw pile: its sequence (an index of
        :attr:`sequences`) and its place in that sequence's order."""
        self.legal: tuple[int, ...] | None = None
        """The legal actions of :attr:`state` once asked (``None`` until then): every
        action that changes the state forgets them."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Progress:
        twin = copy.copy(self)
        twin.dealt = self.dealt[:]
        twin.left = self.left[:]
        twin.log = self.log[:]
        twin.sequences = self.sequences[:]
        return twin


class GnomingGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one ruleset, player count, first seat and move limit."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_PARAMETERS, **(params or {})}
        ruleset = resolve_ruleset(str(values["ruleset"]))
        players, first = int(values["players"]), int(values["first_player"])
        limit = int(values["move_limit"])
        new_game(ruleset, players, first)  # refuses a player count or seat that does not fit
        key = f"{ruleset.sha256}/{players}/{first}/{limit}"
        tables = _REGISTRY.get(key) or _Tables(key, ruleset, players, first, limit)
        _REGISTRY[key] = tables
        self.tables = tables
        bound = float(total_bound(ruleset))
        info = pyspiel.GameInfo(
            num_distinct_actions=tables.space.size,
            max_chance_outcomes=len(tables.faces),
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=limit,
        )
        super().__init__(_GAME_TYPE, info, values)

    def new_initial_state(self) -> GnomingState:
        """Round 0, waiting for its first card to be dealt."""
        return GnomingState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Every round's deal, and at most a deck's worth of reshuffle per player move."""
        rules = self.tables.ruleset.compiled
        return (rules.rounds + self.tables.move_limit) * len(rules.deck)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        """The observer of ``iig_obs_type`` (:class:`Observer`): by default the seat's
        observation; ``perfect_recall`` gives the information state, ``public_info`` and
        ``private_info`` choose the table's part, the seat's own part or both."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            return Observer(self.tables, information_state=False)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "private_info=ALL_PLAYERS is not offered: no seat sees every seat's cards"
            )
        return Observer(
            self.tables,
            information_state=bool(iig_obs_type.perfect_recall),
            public=bool(iig_obs_type.public_info),
            private=private == pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )


class GnomingState(pyspiel.State):  # type: ignore[misc]
    """One game in progress (see the module for chance, observations and returns)."""

    def __init__(self, game: GnomingGame) -> None:
        super().__init__(game)
        self._progress = _Progress(game.tables)

    @property
    def referee_state(self) -> State:
        """The referee's :class:`~gnoming_rules.state.State` (chance sequences apply whole)."""
        return self._progress.state

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while cards are dealt, ``TERMINAL`` at the end."""
        return self._progress.player

    def is_chance_node(self) -> bool:
        """As OpenSpiel's, answered here: ``current_player() == CHANCE``."""
        return self._progress.player == _CHANCE

    def is_player_node(self) -> bool:
        """As OpenSpiel's, answered here: a seat moves."""
        return self._progress.player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As OpenSpiel's ``legal_actions``; a seat's own actions at its turn are answered
        here, without OpenSpiel's round of calls back into this state (its
        ``LegalActions`` asks ``current_player`` three times and ``is_terminal`` once)."""
        progress = self._progress
        if progress.player >= 0 and (player is None or player == progress.player):
            legal = progress.legal
            if legal is None:
                legal = progress.legal = progress.tables.space.legal_actions(progress.state)
            return list(legal)
        if player is None:
            return super().legal_actions()  # type: ignore[no-any-return]
        return super().legal_actions(player)  # type: ignore[no-any-return]

    def _legal_actions(self, player: int) -> list[int]:
        progress = self._progress
        if player != progress.player:
            return []
        legal = progress.legal
        if legal is None:
            legal = progress.legal = progress.tables.space.legal_actions(progress.state)
        return list(legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The faces that may come next, with probability proportional to the copies left."""
        progress = self._progress
        total = progress.to_deal
        return [(index, count / total) for index, count in enumerate(progress.left) if count]

    def _apply_action(self, action: int) -> None:
        progress = self._progress
        tables = progress.tables
        if progress.player == _CHANCE:
            left = progress.left
            if not (0 <= action < len(left) and left[action] > 0):
                raise UsageError("bad-action", _refused_outcome(tables, left, action))
            dealt = progress.dealt
            if not dealt:  # a deal or a reshuffle begins
                if progress.state.phase is Phase.DEAL:
                    progress.sequences = []
                progress.sequences.append((progress.steps, progress.to_deal))
            progress.steps += 1
            left[action] -= 1
            dealt.append(tables.faces[action])
            to_deal = progress.to_deal = progress.to_deal - 1
            if to_deal:
                return
            state = progress.state
            after = _chance_event(tables, state, tuple(progress.dealt))
            progress.dealt = []
            progress.reshuffled = state.phase is Phase.RESHUFFLE
            progress.log.append(_public_news(state, after))
        else:
            state = progress.state
            seat = progress.player
            if seat == _TERMINAL:
                raise UsageError(
                    "no-player-to-move", f"the game is over: action {action} cannot be applied"
                )
            moves = tables.seat_moves[seat]
            if type(action) is int and 0 <= action < len(moves):  # (as from OpenSpiel)
                move = moves[action]
            else:
                move = tables.space.move(seat, action)
            after = apply(tables.ruleset, state, move)
            progress.steps += 1
            if action == tables.draw:
                length = progress.sequences[-1][1]
                progress.held_at = (len(progress.sequences) - 1, length - len(state.draw_pile))
            shows = tables.shows[action]  # the card the move showed, for the log
            card = after.held if shows == _HELD else state.held if shows == _DISCARDED else None
            if shows == _TURNED_UP:
                card = card_claim(move, after, state)  # (a card that left with its line: 10.6)
            progress.log.append((seat, action, card))
            progress.moves += 1
            if len(after.scores) > len(state.scores):
                progress.log.append(_public_news(state, after))
        progress.state = after
        progress.legal = None
        actor = after.actor
        if actor is not None:
            progress.player = _TERMINAL if progress.moves >= tables.move_limit else actor
        elif after.phase is Phase.OVER:
            progress.player = _TERMINAL
        else:
            progress.player = _CHANCE
            progress.left = _to_come(tables, after)
            progress.to_deal = sum(progress.left)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> GnomingState:
        """A state drawn uniformly among those ``player_id`` cannot tell from this one: the
        same information state, its hidden cards spread as the deck allows.

        The cards a seat cannot see (:func:`~gnoming_rules.play.worlds.hidden_places`)
        are shuffled among themselves, those of each chance sequence of the round apart
        (a reshuffle's cards, which every seat saw on the discard piles, stay in the
        draw pile); the history's chance actions are rewritten to match and replayed,
        so the new state has a history of its own. ``probability_sampler`` returns
        uniform numbers in ``[0, 1)``, as OpenSpiel's ``UniformProbabilitySampler``.
        """
        progress = self._progress
        tables = progress.tables
        if not 0 <= player_id < tables.players:
            raise UsageError(
                "bad-seat",
                f"seat {player_id} is not at the table (seats 0 to {tables.players - 1})",
            )
        if progress.dealt:
            raise UsageError(
                "hidden-card", "a deal or reshuffle is under way: resample before or after it"
            )
        state = progress.state
        places = hidden_places(observe(state, player_id))
        history = self.history()
        groups: dict[int, list[int]] = {}
        for place in places:
            sequence, offset = self._source(place)
            start, _ = progress.sequences[sequence]
            groups.setdefault(sequence, []).append(start + offset)
        rng = _SamplerRandom(probability_sampler)
        for steps in groups.values():
            actions = [history[step] for step in steps]
            shuffle(actions, rng)
            for step, action in zip(steps, actions, strict=True):
                history[step] = action
        twin: GnomingState = self.get_game().new_initial_state()
        for action in history:
            twin.apply_action(action)
        return twin

    def _source(self, place: Spot) -> tuple[int, int]:
        """The chance sequence of the round that put the card at ``place``, and where."""
        progress = self._progress
        if place.kind == "slot":
            return 0, place.seat * progress.tables.space.slots + place.at
        if place.kind == "held":
            assert progress.held_at is not None
            return progress.held_at
        last = len(progress.sequences) - 1
        _, length = progress.sequences[last]
        return last, length - len(progress.state.draw_pile) + place.at

    def _action_to_string(self, player: int, action: int) -> str:
        tables = self._progress.tables
        if player == _CHANCE:
            return f"card {face_text(tables.faces[action])}"
        return tables.space.names[action]

    def is_terminal(self) -> bool:
        """The game is over, or stopped at its move limit."""
        return self._progress.player == _TERMINAL

    def returns(self) -> list[float]:
        """Minus each seat's total once the game ends (zeros before)."""
        if not self.is_terminal():
            return [0.0] * self._progress.tables.players
        return [float(-total) for total in self._progress.state.totals]

    def __str__(self) -> str:
        progress = self._progress
        state = progress.state
        lines = [*draw_table(progress.tables.ruleset, state), describe_turn(state)]
        if state.is_chance:
            lines.append("dealt so far: " + " ".join(face_text(card) for card in progress.dealt))
        lines.append(f"player moves: {progress.moves}")
        return "\n".join(lines)


class _SamplerRandom(random.Random):
    """A generator whose numbers come from OpenSpiel's probability sampler (``random()``
    alone is overridden, so ``shuffle`` draws from it)."""

    def __init__(self, sampler: Callable[[], float]) -> None:
        super().__init__()
        self._sampler = sampler

    def random(self) -> float:
        """The sampler's next number, kept in ``[0, 1)``."""
        return min(max(float(self._sampler()), 0.0), math.nextafter(1.0, 0.0))


def _refused_outcome(tables: _Tables, left: list[int], action: int) -> str:
    """Why chance outcome ``action`` is not offered: out of range, or no copy left."""
    offered = [index for index, count in enumerate(left) if count]
    if not 0 <= action < len(left):
        return (
            f"chance outcome {action} is not a face of this deck (0 to {len(left) - 1}); "
            f"offered now: {offered}"
        )
    face = face_text(tables.faces[action])
    return f"chance outcome {action} ({face}) is not offered: no copy of {face} is left to deal"


def _to_come(tables: _Tables, state: State) -> list[int]:
    """The copies of each face that the chance sequence now due will deal."""
    if state.phase is Phase.DEAL:
        return list(tables.deck_counts)
    below = Counter(below_tops(state.discard_piles))
    return [below[face] for face in tables.faces]


def _chance_event(tables: _Tables, state: State, cards: tuple[Face, ...]) -> State:
    """The referee's state after the deal or reshuffle of ``cards``, in that order."""
    event: Move = Deal(cards) if state.phase is Phase.DEAL else Reshuffle(cards)
    return apply(tables.ruleset, state, event)


_HELD, _DISCARDED, _TURNED_UP = 0, 1, 2
"""The card a move shows: the one held after it, the one held before it, or the one it
turned up (:func:`_shows`)."""


def _shows(move: PlayerMove) -> int:
    """Which card ``move`` shows: turned up (a reveal, a flip), discarded (the card held
    before), or drawn or displaced (the card held after: a draw, a place, a bounce)."""
    action = move.action
    if action in ("reveal", "flip"):
        return _TURNED_UP
    if action == "discard":
        return _DISCARDED
    return _HELD


def _public_news(before: State, after: State) -> str:
    """What everyone sees when a round ends, a deal is out or a reshuffle is done."""
    if len(after.scores) > len(before.scores):
        layouts = " / ".join(" ".join(face_text(c) for c in layout) for layout in after.cards)
        return f"round {before.round} over: {layouts}; scores {list(after.scores[-1])}"
    if before.phase is Phase.DEAL:
        tops = " ".join(face_text(pile[-1]) for pile in after.discard_piles)
        out = " ".join(face_text(card) for card in after.removed) or "none"
        return f"round {after.round} dealt: piles {tops}, out {out}"
    return "reshuffle"


class Observer:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``)
    for one kind of observation (OpenSpiel's ``IIGObservationType``).

    - ``public`` (``public_info``): what the whole table sees, a spectator's view
      (:func:`~gnoming_rules.play.observation.observe` with no seat); its tensor is the
      encoder's vector in seat 0's frame.
    - ``private`` (``private_info=SINGLE_PLAYER``): what the seat alone sees, the card
      it drew from the draw pile while it holds it; its tensor is that card's one-hot face.
      Both together are the seat's own observation (the default).
    - ``perfect_recall``: everything seen so far, in order (the information state): the
      history's lines before the view, and in the tensor what is known of the draw pile.
    """

    def __init__(
        self,
        tables: _Tables,
        *,
        information_state: bool,
        public: bool = True,
        private: bool = True,
    ) -> None:
        self.tables = tables
        self.information_state = information_state
        self.public = public
        self.private = private
        faces = len(tables.faces)
        size = 0
        if public:
            size += tables.encoder.size + (faces + 1 if information_state else 0)
        elif private:
            size += faces
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def _seat(self, player: int) -> int | None:
        """The seat whose view this observer shows (``None``: the spectator's)."""
        return max(player, 0) if self.private else None

    def set_from(self, state: GnomingState, player: int) -> None:
        """Write ``player``'s view of ``state`` into :attr:`tensor`."""
        progress = state._progress
        referee = progress.state
        tensor = self.tensor
        tensor[:] = 0.0
        seat = max(player, 0)
        if not self.public:
            if self.private:
                secret = _private_card(referee, seat)
                if secret is not None:
                    tensor[self.tables.faces.index(secret)] = 1.0
            return
        encoder = self.tables.encoder
        if self.private:
            tensor[: encoder.size] = encoder.encode_state(referee, seat)
        else:
            tensor[: encoder.size] = encoder.encode(dc_replace(observe(referee), seat=0))
        if not self.information_state:
            return
        if progress.reshuffled:
            known = Counter(referee.draw_pile)
            held_at = progress.held_at
            drawn_since = held_at is not None and held_at[0] == len(progress.sequences) - 1
            if held_is_hidden(referee, self._seat(player)) and drawn_since:
                assert referee.held is not None
                known[referee.held] += 1
            for index, face in enumerate(self.tables.faces):
                tensor[encoder.size + index] = known[face]
            tensor[-1] = 1.0

    def string_from(self, state: GnomingState, player: int) -> str:
        """``player``'s observation, or everything it saw so far, as text."""
        progress = state._progress
        seat = max(player, 0)
        if not self.public:
            if not self.private:
                return ""
            lines = [f"seat {seat} holds {_card_text(_private_card(progress.state, seat))}"]
            if self.information_state:
                lines = [*_private_history(progress, seat), *lines]
            return "\n".join(lines)
        view = _view_text(observe(progress.state, self._seat(player)))
        if not self.information_state:
            return view
        return "\n".join([*_history_lines(progress, self._seat(player)), view])


def _private_card(state: State, seat: int) -> Face | None:
    """The card ``seat`` sees and the table does not: the one it drew from the draw pile."""
    if state.held is not None and held_is_hidden(state, None) and state.turn == seat:
        return state.held
    return None


def _card_text(card: Face | None) -> str:
    return "nothing unseen by the table" if card is None else face_text(card)


def _private_history(progress: _Progress, seat: int) -> list[str]:
    """The cards ``seat`` alone saw so far: each card it drew from the draw pile."""
    draw = progress.tables.space.draw
    return [
        f"drew {face_text(entry[2])}"
        for entry in progress.log
        if not isinstance(entry, str)
        and entry[0] == seat
        and entry[1] == draw
        and entry[2] is not None
    ]


def _view_text(view: Observation) -> str:
    """One seat's view of the table, an item a line; ``?`` for a face-down card."""

    def cards(items: tuple[Face | None, ...]) -> str:
        return " ".join("?" if card is None else face_text(card) for card in items)

    phase = view.phase.name.lower()
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    lines = [f"{who}, round {view.round}, {phase}, turn {view.turn}"]
    lines += [f"layout {seat}: {cards(layout)}" for seat, layout in enumerate(view.layouts)]
    lines += [f"pile {index}: {cards(pile)}" for index, pile in enumerate(view.discard_piles)]
    held = "hidden" if view.held_hidden else face_text(view.held)
    lines.append(f"draw pile {view.draw_pile_size}, held {held}, out {cards(view.removed)}")
    lines.append(f"filled {view.filled:x}, chain {int(view.chain)}, owed {list(view.flips_owed)}")
    lines.append(f"went out {view.went_out}, scores {[list(s) for s in view.scores]}")
    return "\n".join(lines)


def _history_lines(progress: _Progress, seat: int | None) -> list[str]:
    """Everything ``seat`` (``None``: the table) saw, in order: the table, then each event
    as that seat saw it."""
    tables = progress.tables
    names, deck_draw = tables.space.names, tables.space.draw
    who = "spectator" if seat is None else f"seat {seat}"
    lines = [f"{who} of {tables.players}, first player {tables.first_player}"]
    for entry in progress.log:
        if isinstance(entry, str):
            lines.append(entry)
            continue
        mover, action, card = entry
        hidden = card is None or (action == deck_draw and mover != seat)
        lines.append(f"seat {mover} {names[action]}" + ("" if hidden else f": {face_text(card)}"))
    return lines


def replay(state: GnomingState) -> list[tuple[Move, State]]:
    """The referee's moves behind ``state`` (each deal and reshuffle whole), each with the
    state after it, replayed by the referee from OpenSpiel's action history alone."""
    tables = state._progress.tables
    referee = new_game(tables.ruleset, tables.players, tables.first_player)
    steps: list[tuple[Move, State]] = []
    dealt: list[Face] = []
    left = list(tables.deck_counts)
    for step in state.full_history():
        player, action = step.player, step.action
        move: Move
        if player == _CHANCE:
            dealt.append(tables.faces[action])
            left[action] -= 1
            if any(left):
                continue
            cards = tuple(dealt)
            move = Deal(cards) if referee.phase is Phase.DEAL else Reshuffle(cards)
            dealt = []
        else:
            move = tables.space.move(player, action)
        referee = apply(tables.ruleset, referee, move)
        steps.append((move, referee))
        if referee.is_chance:
            left = _to_come(tables, referee)
    return steps


def to_record(state: GnomingState, names: list[str] | None = None) -> Record:
    """The game record (docs/record-format.md) of ``state``'s history, card claims included."""
    tables = state._progress.tables
    seats = names or [f"player_{seat}" for seat in range(tables.players)]
    recorder = Recorder(tables.ruleset, seats, tables.first_player)
    for move, after in replay(state):
        recorder.add(move, after)
    return recorder.record()


pyspiel.register_game(_GAME_TYPE, GnomingGame)
