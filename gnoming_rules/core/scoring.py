"""Scoring a layout (rules §8): sets, wild mulligans, negatives, hazards.

A row or column is a *set* when every card in it is a positive card or a wild mulligan,
it holds at least one positive card, and all its positive cards share one value ``v``;
it scores ``-v``, and its cards score nothing else. Cards in no set score their value
(a hazard its penalty, a mulligan its unmatched value). The referee picks which
mulligans are wild, at most the ruleset's limit, to make the layout's score lowest; a
wild mulligan may stand for one value in its row and another in its column.

:func:`score_layout` scores a whole layout, the way a round's end does;
:func:`score_breakdown` also says which lines were sets and what each card counted;
:func:`score_visible` scores only the cards a seat shows, for a bot that wants the score
so far. Each refuses anything that is not a layout with a
:class:`~gnoming_rules.core.errors.LayoutError` (code ``bad-layout``) naming the slot and the
value: a ``None`` (a face-down card in ``State.visible_layout``), ``"X"`` (unless the
ruleset names that face), ``"5"``, ``5.0`` or ``True`` is not a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import EMPTY, HAZARD, MULLIGAN, Face, face_text
from .compiled import CompiledRules, Line, PatternRule
from .errors import LayoutError
from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class SetLine:
    """A row or column that scored as a set."""

    name: str
    slots: tuple[int, ...]
    value: int
    """The shared value ``v`` of its cards (rule 8.2; of the first card, under
    ``sets.match: face`` with ``sets.cards: any``, 10.3)."""
    points: int
    """What the set scores: ``-v``, or 0 under ``sets.score: zero`` (rule 10.5)."""


@dataclass(frozen=True, slots=True)
class CardScore:
    """What one card of the layout counted."""

    slot: int
    card: Face
    points: int
    """Points for the card itself: 0 when it lies in a set (the set carries the points)."""
    in_set: bool
    note: str
    in_pattern: bool = False
    """The card is part of a scoring pattern (rule 11.6): the pattern carries its points."""


@dataclass(frozen=True, slots=True)
class ScoredPattern:
    """An instance of a scoring pattern found in the layout (rule 11.6)."""

    name: str
    """The pattern's name: ``4 of a kind``, ``square``, ``adjacent columns``."""
    slots: tuple[int, ...]
    points: int
    """What its cards score together."""


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """A layout's score and why: the sets, the wild mulligans and every card's points."""

    total: int
    sets: tuple[SetLine, ...]
    wild: tuple[int, ...]
    """Slots of the mulligans the referee made wild."""
    cards: tuple[CardScore, ...]
    patterns: tuple[ScoredPattern, ...] = ()
    """The instances of ``scoring.patterns`` found, in the patterns' order (rule 11.6)."""

    def __str__(self) -> str:
        lines = [
            f"{p.name} (slots {', '.join(map(str, p.slots))}): pattern  {p.points:+d}"
            for p in self.patterns
        ]
        lines += [
            f"{s.name} (slots {', '.join(map(str, s.slots))}): set of {s.value}s  {s.points:+d}"
            for s in self.sets
        ]
        lines += [
            f"slot {c.slot}: {face_text(c.card):>3}  {c.note}  {c.points:+d}"
            for c in self.cards
            if not c.in_set and not c.in_pattern
        ]
        lines.append(f"total {self.total}")
        return "\n".join(lines)


def score_layout(ruleset: Ruleset, cards: Sequence[Face]) -> int:
    """The lowest score of a full layout (row-major, every card counted) under ``ruleset``.

    Raises :class:`~gnoming_rules.core.errors.LayoutError` (``bad-layout``) for the wrong
    number of cards or a slot that holds no card; for a layout with face-down cards
    (``None``) use :func:`score_visible`.

    Example::

        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> gr.score_layout(rules, [5, 5, 5, 1, 2, 3, 4, 6, 7])  # a row of 5s scores -5
        18
    """
    rules = ruleset.compiled
    _check_layout(rules, cards)
    return best_choice(rules, cards)[0]


def score_breakdown(ruleset: Ruleset, cards: Sequence[Face]) -> ScoreBreakdown:
    """:func:`score_layout` with the reasons: which lines were sets, what each card counted.

    Example::

        >>> import gnoming_rules as gr
        >>> rules = gr.load_ruleset("standard")
        >>> breakdown = gr.score_breakdown(rules, [5, 5, 5, 1, 2, 3, 4, 6, 7])
        >>> breakdown.total, [line.name for line in breakdown.sets]
        (18, ['row 0'])
        >>> print(breakdown)
        row 0 (slots 0, 1, 2): set of 5s  -5
        slot 3:   1  in no set  +1
        slot 4:   2  in no set  +2
        slot 5:   3  in no set  +3
        slot 6:   4  in no set  +4
        slot 7:   6  in no set  +6
        slot 8:   7  in no set  +7
        total 18
    """
    rules = ruleset.compiled
    _check_layout(rules, cards)
    found: tuple[tuple[int, int, int], ...] = ()
    if rules.patterns:
        total, wild, found = pattern_choice(rules, cards)
    else:
        total, wild = best_choice(rules, cards)
    in_patterns = 0
    patterns = []
    for index, mask, points in found:
        in_patterns |= mask
        slots = tuple(slot for slot in range(len(cards)) if mask >> slot & 1)
        patterns.append(ScoredPattern(rules.patterns[index].name, slots, points))
    sets, covered = _sets(rules, cards, wild, rules.full_mask & ~in_patterns)
    scores = []
    for slot, card in enumerate(cards):
        if in_patterns >> slot & 1:
            name = next(p.name for p in patterns if slot in p.slots)
            note = f"in pattern: {name}"
            if wild >> slot & 1:
                note = "wild mulligan " + note
            scores.append(CardScore(slot, card, 0, False, note, True))
        elif covered >> slot & 1:
            names = [s.name for s in sets if slot in s.slots]
            note = f"in {'removed line' if rules.remove_lines else 'set'}: {' and '.join(names)}"
            if wild >> slot & 1:
                note = "wild mulligan " + note
            scores.append(CardScore(slot, card, 0, True, note))
        else:
            points = card_points(rules, card)
            scores.append(CardScore(slot, card, points, False, _card_note(card, points)))
    wild_slots = tuple(slot for slot in range(len(cards)) if wild >> slot & 1)
    return ScoreBreakdown(total, sets, wild_slots, tuple(scores), tuple(patterns))


def score_visible(ruleset: Ruleset, cards: Sequence[Face | None]) -> int:
    """The score of the cards a seat shows: ``cards`` as ``State.visible_layout(seat)`` gives
    them, ``None`` for a face-down card.

    The reading (docs/decisions.md): a face-down card scores nothing and is in no set, so
    a row or column that holds one is not a set, whatever it hides; the face-up cards score
    as 8.2-8.5 say, with the wild mulligans chosen among the face-up ones. With every card
    face up it is :func:`score_layout`. The going-out bonus (8.6) is not included.
    """
    rules = ruleset.compiled
    _check_size(rules, cards)
    shown = [HAZARD if card is None else card for card in cards]
    _check_cards(rules, shown, cards)
    hidden = len(cards) - sum(1 for card in cards if card is not None)
    # A hazard joins no set and no wild choice: scored in each face-down slot, then taken off.
    return best_choice(rules, shown)[0] - hidden * rules.hazard_penalty


def layout_score(rules: CompiledRules, cards: Sequence[Face]) -> int:
    """:func:`score_layout` on precomputed tables (the engine's entry point).

    The engine's layouts come from a checked deal, so only their size is checked here.
    """
    _check_size(rules, cards)
    return best_choice(rules, cards)[0]


def _check_layout(rules: CompiledRules, cards: Sequence[Face]) -> None:
    """Refuse a layout of the wrong size, or with anything but a card in a slot."""
    _check_size(rules, cards)
    _check_cards(rules, cards, cards)


def _check_size(rules: CompiledRules, cards: Sequence[object]) -> None:
    if len(cards) != rules.slots:
        raise LayoutError(
            "bad-layout",
            f"a {rules.rows}x{rules.cols} layout has {rules.slots} cards, got {len(cards)}",
        )


def _check_cards(rules: CompiledRules, cards: Sequence[object], given: Sequence[object]) -> None:
    """Refuse the first slot of ``cards`` that holds no card of this ruleset: an integer
    face (any), ``H``, ``M`` or one of its named faces (``given`` as the caller wrote it,
    for the message). One plain loop: it costs little beside the scoring."""
    for card in cards:
        if type(card) is int or (type(card) is str and (card in _SPECIAL or card in rules.values)):
            continue
        if card == EMPTY and rules.remove_lines:  # an empty slot (rule 10.6)
            continue
        slot = next(slot for slot, card in enumerate(cards) if not _is_card(rules, card))
        value = given[slot]
        hint = (
            " (a face-down card? score_visible scores the cards a seat shows)"
            if value is None
            else ""
        )
        names = sorted(face for face in rules.values if isinstance(face, str))
        named = f", {', '.join(names)}" if names else ""
        raise LayoutError(
            "bad-layout",
            f'slot {slot}: {value!r} is not a card: an int, "H", "M"{named}{hint}',
        )


_SPECIAL = (HAZARD, MULLIGAN)


def _is_card(rules: CompiledRules, card: object) -> bool:
    """An integer face, ``H``, ``M`` or a named face of this ruleset (rule 10.1), or an
    empty slot under ``sets.score: remove`` (10.6)."""
    return (
        type(card) is int
        or (type(card) is str and (card in _SPECIAL or card in rules.values))
        or (card == EMPTY and rules.remove_lines)
    )


def best_choice(rules: CompiledRules, cards: Sequence[Face]) -> tuple[int, int]:
    """(lowest score, wild mask) over every allowed choice of wild mulligans (rule 8.2).

    Only the lines that end up as sets decide a score, and a wild mulligan in no set
    scores like any other, so it is enough to try, for each group of *candidate* lines
    (a mulligan in them, every other card positive of one value), making exactly their
    mulligans wild. That is at most 2 ** (rows + cols) tries however many mulligans lie in
    the layout, and it finds the same lowest score as trying every subset of mulligans.
    One of the module's scoring steps (not in ``__all__``).
    """
    if rules.patterns:  # rule 11.6: one attribute read when there are none
        found = pattern_choice(rules, cards)
        return found[0], found[1]
    best = (score_with(rules, cards, 0), 0)
    if rules.max_mulligans == 0 or rules.remove_lines or MULLIGAN not in cards:
        # (under sets.score remove no mulligan is wild: a set is a line that leaves, 10.6)
        return best
    if rules.plain_sets:
        candidates = [mask for mask in (_wild_need(line, cards) for line in rules.lines) if mask]
    else:
        keys = rules.set_keys
        candidates = [m for m in (_keyed_wild_need(line, cards, keys) for line in rules.lines) if m]
    tried = {0}
    for group in range(1, 1 << len(candidates)):
        wild = 0
        for index, mask in enumerate(candidates):
            if group >> index & 1:
                wild |= mask
        if wild in tried or wild.bit_count() > rules.max_mulligans:
            continue
        tried.add(wild)
        score = score_with(rules, cards, wild)
        if score < best[0]:
            best = (score, wild)
    return best


def _wild_need(line: Line, cards: Sequence[Face]) -> int:
    """The mulligans (a slot mask) that would make ``line`` a set if wild, or 0 if none can."""
    need = 0
    value = 0
    for slot in line.slots:
        card = cards[slot]
        if card == MULLIGAN:
            need |= 1 << slot
        elif type(card) is int and card > 0 and (not value or card == value):
            value = card
        else:
            return 0
    return need if value else 0


def _keyed_wild_need(line: Line, cards: Sequence[Face], keys: dict[Face, object]) -> int:
    """:func:`_wild_need` under the options of rule 10: the cards that stand in a set by
    themselves and what they match by are ``keys`` (:attr:`CompiledRules.set_keys`)."""
    need = 0
    key: object = None
    for slot in line.slots:
        card = cards[slot]
        if card == MULLIGAN:
            need |= 1 << slot
            continue
        own = keys.get(card)
        if own is None or (key is not None and own != key):
            return 0
        key = own
    return need if key is not None else 0


def keyed_set(rules: CompiledRules, line: Line, cards: Sequence[Face], wild: int) -> Face | None:
    """Under the options of rule 10: a card of the set ``line`` is under this wild choice
    (its cards match by :attr:`CompiledRules.set_keys`, at least one not wild), or
    ``None`` when it is not a set.

    One of the module's scoring steps (not in ``__all__``).
    """
    keys = rules.set_keys
    key: object = None
    found: Face | None = None
    for slot in line.slots:
        if wild >> slot & 1:
            continue
        card = cards[slot]
        own = keys.get(card)
        if own is None or (key is not None and own != key):
            return None
        key, found = own, card
    return found


def set_value(line: Line, cards: Sequence[Face], wild: int) -> int:
    """The line's set value ``v``, or 0 when it is not a set under this wild choice.

    One of the module's scoring steps (not in ``__all__``).
    """
    value = 0
    for slot in line.slots:
        if wild >> slot & 1:
            continue
        card = cards[slot]
        if type(card) is not int or card <= 0 or (value and card != value):
            return 0
        value = card
    return value


def score_with(rules: CompiledRules, cards: Sequence[Face], wild: int) -> int:
    """The layout's score with the mulligans of the ``wild`` slot mask wild (rule 8.2-8.4).

    One of the module's scoring steps (not in ``__all__``).
    """
    total = 0
    covered = 0
    if rules.plain_sets:
        for line in rules.lines:
            value = set_value(line, cards, wild)
            if value:
                total -= value
                covered |= line.mask
    else:
        zero = rules.zero_sets
        for line in rules.lines:
            card = keyed_set(rules, line, cards, wild)
            if card is not None:
                if not zero:
                    total -= card_points(rules, card)
                covered |= line.mask
    for slot, card in enumerate(cards):
        if not covered >> slot & 1:
            total += card_points(rules, card)
    return total


def _sets(
    rules: CompiledRules, cards: Sequence[Face], wild: int, free: int
) -> tuple[tuple[SetLine, ...], int]:
    """The sets among the lines whose slots are all in ``free`` (no pattern card, 11.6)."""
    sets = []
    covered = 0
    for line in rules.lines:
        if line.mask & ~free:
            continue
        if rules.plain_sets:
            value = set_value(line, cards, wild)
            points = -value
        else:
            card = keyed_set(rules, line, cards, wild)
            value = 0 if card is None else card_points(rules, card)
            points = 0 if rules.zero_sets else -value
            if card is None:
                continue
        if value or not rules.plain_sets:
            sets.append(SetLine(line.name, line.slots, value, points))
            covered |= line.mask
    return tuple(sets), covered


# --- scoring patterns (rule 11.6, 11.8 "Patterns") ----------------------------------------

_WILD: object = object()
"""The key of a wild mulligan's slot: it matches any card that may form a pattern."""

Found = tuple[tuple[int, int, int], ...]
"""Pattern instances: (pattern index, slot mask, points), in the patterns' order."""


def pattern_choice(rules: CompiledRules, cards: Sequence[Face]) -> tuple[int, int, Found]:
    """(lowest score, wild mask, the pattern instances) under ``scoring.patterns``.

    Rule 11.8: the referee makes one choice of wild mulligans (at most the limit of 7.3)
    for patterns and sets; under it each pattern, in order, takes as many disjoint
    instances as the cards left by earlier ones hold (which of them: the referee's
    choice), then the lines with no pattern card are sets as §8/10 say. The lowest score
    over those choices wins; of equal ones, the first tried (fewer wild mulligans, lower
    slots): scoring stays deterministic. The choices of wild mulligans are bounded at
    load (``MAX_WILD_CHOICES``); the instances' search remembers each (pattern, cards
    left) it has scored, and treats cards that no later shape or line can use as
    interchangeable. One of the module's scoring steps (not in ``__all__``).
    """
    mulligans = [slot for slot, card in enumerate(cards) if card == MULLIGAN]
    limit = min(rules.max_mulligans, len(mulligans))
    best: tuple[int, int, Found] | None = None
    for size in range(limit + 1):
        for chosen in combinations(mulligans, size):
            wild = 0
            for slot in chosen:
                wild |= 1 << slot
            score, found = _PatternSearch(rules, cards, wild).best(0, rules.full_mask)
            if best is None or score < best[0]:
                best = (score, wild, found)
    assert best is not None
    return best


class _PatternSearch:
    """The lowest score of one layout under one choice of wild mulligans (rule 11.8)."""

    def __init__(self, rules: CompiledRules, cards: Sequence[Face], wild: int) -> None:
        self.rules = rules
        self.cards = cards
        self.wild = wild
        keys = rules.set_keys
        self.keys: list[object] = [
            _WILD if wild >> slot & 1 else keys.get(card) for slot, card in enumerate(cards)
        ]
        self.memo: dict[tuple[int, int], tuple[int, Found]] = {}

    def best(self, index: int, free: int) -> tuple[int, Found]:
        """The lowest score of the cards in ``free`` from pattern ``index`` on."""
        patterns = self.rules.patterns
        if index == len(patterns):
            return self.rest(free), ()
        remembered = self.memo.get((index, free))
        if remembered is not None:
            return remembered
        pattern = patterns[index]
        if pattern.instances is None:
            options = self.of_a_kind(pattern, index, free)
        else:
            options = self.regions(pattern, free)
        best: tuple[int, Found] | None = None
        for used, points, found in options:
            later, more = self.best(index + 1, free & ~used)
            total = points + later
            if best is None or total < best[0]:
                best = (total, tuple((index, mask, p) for mask, p in found) + more)
        if best is None:
            best = self.best(index + 1, free)
        self.memo[(index, free)] = best
        return best

    def rest(self, free: int) -> int:
        """The cards in ``free``: the lines all in it that are sets (§8/10), the others
        card by card."""
        rules, cards = self.rules, self.cards
        sets, covered = _sets(rules, cards, self.wild, free)
        total = sum(found.points for found in sets)
        for slot, card in enumerate(cards):
            if free >> slot & 1 and not covered >> slot & 1:
                total += card_points(rules, card)
        return total

    def instance_points(self, pattern: PatternRule, card: Face) -> int:
        """What one instance scores, ``card`` one of its cards that is not wild."""
        if pattern.score == "points":
            return pattern.points
        if pattern.score == "zero":
            return 0
        return -card_points(self.rules, card)

    def key_card(self, mask: int) -> Face | None:
        """A card (not wild) of the instance ``mask`` when its cards all match (10.2) and
        may form patterns (10.3), one of them not wild; else ``None``."""
        key: object = None
        card: Face | None = None
        for slot in range(len(self.cards)):
            if not mask >> slot & 1:
                continue
            own = self.keys[slot]
            if own is _WILD:
                continue
            if own is None or (key is not None and own != key):
                return None
            key, card = own, self.cards[slot]
        return card

    def regions(
        self, pattern: PatternRule, free: int
    ) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
        """Every largest set of disjoint instances of a shape with fixed places (square,
        adjacent lines) among the cards in ``free``: (slots used, points, instances)."""
        assert pattern.instances is not None
        live: list[tuple[int, int]] = []
        for mask in pattern.instances:
            if mask & ~free:
                continue
            card = self.key_card(mask)
            if card is not None:
                live.append((mask, self.instance_points(pattern, card)))
        if not live:
            return []
        packings: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {}
        most = [0]

        def pack(start: int, used: int, chosen: tuple[tuple[int, int], ...]) -> None:
            if len(chosen) + len(live) - start < most[0]:
                return
            if len(chosen) > most[0]:
                most[0] = len(chosen)
                packings.clear()
            if len(chosen) == most[0]:
                points = sum(p for _, p in chosen)
                if used not in packings or points < packings[used][0]:
                    packings[used] = (points, chosen)
            for at in range(start, len(live)):
                mask = live[at][0]
                if not mask & used:
                    pack(at + 1, used | mask, (*chosen, live[at]))

        pack(0, 0, ())
        return [(used, points, chosen) for used, (points, chosen) in packings.items()]

    def structured(self, index: int, free: int) -> int:
        """The slots of ``free`` that a later shape with fixed places or a line could still
        use: the others are interchangeable for what follows (a card left there scores by
        its key alone)."""
        found = 0
        masks = [line.mask for line in self.rules.lines]
        for later in self.rules.patterns[index + 1 :]:
            if later.instances is not None:
                masks += later.instances
        for mask in masks:
            if not mask & ~free and self.key_card(mask) is not None:
                found |= mask
        return found

    def of_a_kind(
        self, pattern: PatternRule, index: int, free: int
    ) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
        """Every way to take the most disjoint instances of ``of_a_kind: N`` from the
        cards in ``free``: (slots used, points, instances)."""
        size = pattern.size
        if size > free.bit_count():
            return []  # (an N above the slots loads and is never found, 11.8)
        groups: dict[object, list[int]] = {}
        wilds: list[int] = []
        for slot in range(len(self.cards)):
            if not free >> slot & 1:
                continue
            own = self.keys[slot]
            if own is _WILD:
                wilds.append(slot)
            elif own is not None:
                groups.setdefault(own, []).append(slot)
        if not groups:
            return []
        keys = list(groups)
        counts = [len(groups[key]) for key in keys]
        spare = len(wilds)
        # The most instances: instance i of a key of n cards costs max(0, i*N - n) wild
        # mulligans in all, a convex cost, so the cheapest marginal costs first are best.
        costs = sorted(
            max(0, i * size - n) - max(0, (i - 1) * size - n)
            for n in counts
            for i in range(1, n + 1)
        )
        most = 0
        spent = 0
        for cost in costs:
            if spent + cost > spare:
                break
            spent += cost
            most += 1
        if not most:
            return []
        structured = self.structured(index, free)
        options: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {}
        for split in _splits(counts, most, size, spare):
            for wild_counts in _wild_counts(counts, split, size, spare):
                points = 0
                for key, instances in zip(keys, split, strict=True):
                    if instances:
                        card = self.cards[groups[key][0]]
                        points += instances * self.instance_points(pattern, card)
                takes = [
                    _takes(groups[key], i * size - w, structured)
                    for key, i, w in zip(keys, split, wild_counts, strict=True)
                ]
                wild_takes = _takes(wilds, sum(wild_counts), structured)
                for chosen in _product([*takes, wild_takes]):
                    used = 0
                    for part in chosen:
                        for slot in part:
                            used |= 1 << slot
                    if used in options and options[used][0] <= points:
                        continue
                    options[used] = (points, self.instances(pattern, chosen, split, wild_counts))
        return [(used, points, found) for used, (points, found) in options.items()]

    def instances(
        self,
        pattern: PatternRule,
        chosen: tuple[tuple[int, ...], ...],
        split: list[int],
        wild_counts: list[int],
    ) -> tuple[tuple[int, int], ...]:
        """The instances (slot mask, points) of the cards taken for ``of_a_kind`` (per key,
        then the wild mulligans last), for a breakdown: a key's cards in slot order, as
        many to an instance as leave one for each instance after it, then wild mulligans."""
        found = []
        spare = list(chosen[-1])
        size = pattern.size
        for taken, instances, wild in zip(chosen[:-1], split, wild_counts, strict=True):
            if not instances:
                continue
            points = self.instance_points(pattern, self.cards[taken[0]])
            cards, wilds = list(taken), spare[:wild]
            del spare[:wild]
            for i in range(instances):
                own = min(size, len(cards) - (instances - i - 1))
                members = cards[:own] + wilds[: size - own]
                del cards[:own], wilds[: size - own]
                mask = 0
                for slot in members:
                    mask |= 1 << slot
                found.append((mask, points))
        return tuple(found)


def _splits(counts: list[int], most: int, size: int, spare: int) -> list[list[int]]:
    """Every number of instances per key, ``most`` in all, that the wild mulligans can
    complete (instance i of a key of n cards needs max(0, i*N - n) of them in all)."""
    found: list[list[int]] = []

    def split(at: int, left: int, spent: int, chosen: list[int]) -> None:
        if at == len(counts):
            if not left:
                found.append(list(chosen))
            return
        n = counts[at]
        for i in range(min(n, left) + 1):
            cost = max(0, i * size - n)
            if spent + cost <= spare:
                split(at + 1, left - i, spent + cost, [*chosen, i])

    split(0, most, 0, [])
    return found


def _wild_counts(counts: list[int], split: list[int], size: int, spare: int) -> list[list[int]]:
    """Every number of wild mulligans per key for these instances: at least what the
    key's cards cannot fill, at most N-1 per instance (each needs a card not wild)."""
    found: list[list[int]] = []

    def count(at: int, left: int, chosen: list[int]) -> None:
        if at == len(counts):
            found.append(list(chosen))
            return
        i, n = split[at], counts[at]
        low, high = max(0, i * size - n), min(i * (size - 1), left)
        for w in range(low, high + 1):
            count(at + 1, left - w, [*chosen, w])

    count(0, spare, [])
    return found


def _takes(slots: list[int], take: int, structured: int) -> list[tuple[int, ...]]:
    """The ways to take ``take`` of ``slots`` that differ for what follows: any of those
    a later shape or line could use, and the rest from the others in slot order (those
    are interchangeable)."""
    inner = [slot for slot in slots if structured >> slot & 1]
    outer = [slot for slot in slots if not structured >> slot & 1]
    ways: list[tuple[int, ...]] = []
    for from_inner in range(max(0, take - len(outer)), min(take, len(inner)) + 1):
        rest = tuple(outer[: take - from_inner])
        ways += [tuple(sorted(part + rest)) for part in combinations(inner, from_inner)]
    return ways


def _product(parts: list[list[tuple[int, ...]]]) -> list[tuple[tuple[int, ...], ...]]:
    """Every choice of one way from each part."""
    chosen: list[tuple[tuple[int, ...], ...]] = [()]
    for ways in parts:
        chosen = [(*done, way) for done in chosen for way in ways]
    return chosen


def card_points(rules: CompiledRules, card: Face) -> int:
    """What ``card`` scores in no set (rule 8.3-8.5): its value, a hazard's penalty, a
    mulligan's unmatched value."""
    if type(card) is int:
        # (a public record's replay scores layouts that hold HIDDEN stand-ins before it
        # scores the final layouts it was given: they count 0, as under plain_sets)
        return card if rules.plain_sets else rules.values.get(card, 0)
    if card == HAZARD:
        return rules.hazard_penalty
    if card == MULLIGAN:
        return rules.unmatched_mulligan
    return rules.values.get(card, 0)  # a named face (10.1), or a HIDDEN stand-in (as above)


def _card_note(card: Face, points: int) -> str:
    if card == EMPTY:
        return "empty slot (its line left, 10.6)"
    if card == HAZARD:
        return "hazard"
    if card == MULLIGAN:
        return "mulligan in no set"
    return "negative card" if points < 0 else "in no set"


__all__ = [
    "CardScore",
    "ScoreBreakdown",
    "ScoredPattern",
    "SetLine",
    "score_breakdown",
    "score_layout",
    "score_visible",
]
