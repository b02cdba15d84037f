"""A scorer of RULES 11.6 written from the rule's text, by brute force: every choice of
wild mulligans, every largest family of disjoint instances of each pattern in order, the
sets of §8/10 among the lines left (``test_scoring_properties``' reference). Slow
(exponential in the slots): for layouts of up to nine slots."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from test_scoring_properties import _points, card_points, sets_under

from gnoming_rules import HAZARD, MULLIGAN, Face, Ruleset
from gnoming_rules.core.ruleset import AdjacentLines, OfAKind, Pattern, Points


def reference_score(ruleset: Ruleset, layout: Sequence[Face]) -> int:
    """The lowest score of ``layout`` over every allowed choice (RULES 8.2, 11.6, 11.8)."""
    mulligans = [slot for slot, card in enumerate(layout) if card == MULLIGAN]
    limit = min(ruleset.mulligan.max_face_up, len(mulligans))
    return min(
        _from(ruleset, layout, set(wild), 0, frozenset(range(len(layout))))
        for size in range(limit + 1)
        for wild in combinations(mulligans, size)
    )


def _key(ruleset: Ruleset, card: Face) -> object:
    """What a card that is not wild matches by, or ``None`` when it forms no pattern
    (10.2, 10.3: positive cards only, or any card but a hazard)."""
    anything = ruleset.sets.cards == "any"
    if card == HAZARD:
        return None
    if card == MULLIGAN:
        return "mulligan" if anything else None
    value = ruleset.deck.value(card)
    if not anything and value <= 0:
        return None
    return value if ruleset.sets.match == "value" else card


def places(ruleset: Ruleset, pattern: Pattern, free: frozenset[int]) -> list[frozenset[int]]:
    """Every group of slots in ``free`` that the pattern's shape covers."""
    rows, cols = ruleset.layout.rows, ruleset.layout.cols
    shape = pattern.shape
    if isinstance(shape, OfAKind):
        return [frozenset(c) for c in combinations(sorted(free), shape.of_a_kind)]
    if isinstance(shape, AdjacentLines) and shape.adjacent_lines == "rows":
        groups = [{r * cols + c for c in range(cols)} | {(r + 1) * cols + c for c in range(cols)}
                  for r in range(rows - 1)]  # fmt: skip
    elif isinstance(shape, AdjacentLines):
        groups = [{r * cols + c for r in range(rows)} | {r * cols + c + 1 for r in range(rows)}
                  for c in range(cols - 1)]  # fmt: skip
    elif shape == "square":
        groups = [{r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1}
                  for r in range(rows - 1) for c in range(cols - 1)]  # fmt: skip
    else:  # a shape the reference does not know yet: add it here, never score it as another
        raise NotImplementedError(f"the reference has no places for the shape {shape!r}")
    return [frozenset(group) for group in groups if group <= free]


def instance_points(
    ruleset: Ruleset,
    pattern: Pattern,
    layout: Sequence[Face],
    group: frozenset[int],
    wild: set[int],
) -> int | None:
    """What the group scores as an instance, or ``None`` when it is none."""
    keys = [_key(ruleset, layout[slot]) for slot in sorted(group) if slot not in wild]
    if not keys or None in keys or len(set(keys)) != 1:
        return None  # (an instance needs one card that is not a wild mulligan)
    if isinstance(pattern.score, Points):
        return pattern.score.points
    if pattern.score == "zero":
        return 0
    card = next(layout[slot] for slot in sorted(group) if slot not in wild)
    return -card_points(ruleset, card)


def _from(
    ruleset: Ruleset, layout: Sequence[Face], wild: set[int], index: int, free: frozenset[int]
) -> int:
    patterns = ruleset.scoring.patterns
    if index == len(patterns):
        sets = [(line, v) for line, v in sets_under(ruleset, layout, wild) if set(line) <= free]
        covered = {slot for line, _ in sets for slot in line}
        loose = sum(card_points(ruleset, layout[s]) for s in free if s not in covered)
        return loose + sum(_points(ruleset, value) for _, value in sets)
    pattern = patterns[index]
    scored = []
    for group in places(ruleset, pattern, free):
        points = instance_points(ruleset, pattern, layout, group, wild)
        if points is not None:
            scored.append((group, points))
    families: list[tuple[frozenset[int], int, int]] = []  # (slots, instances, points)

    def grow(start: int, used: frozenset[int], count: int, points: int) -> None:
        families.append((used, count, points))
        for at in range(start, len(scored)):
            group, more = scored[at]
            if not group & used:
                grow(at + 1, used | group, count + 1, points + more)

    grow(0, frozenset(), 0, 0)
    most = max(count for _, count, _ in families)
    return min(
        points + _from(ruleset, layout, wild, index + 1, free - used)
        for used, count, points in families
        if count == most
    )
