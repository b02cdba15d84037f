"""The ``gnoming impact --html`` report: the paired differences, with plots, and for a
corpus the records that change."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from . import plots
from .html import Cell, Section, page
from .impact import RESAMPLES, Difference, Replayed
from .stats import GameEvents, win_shares
from .stats_page import EVENT_LABELS

METRIC_LABELS = {
    **EVENT_LABELS,
    "winning_total": "winning total",
    "spread": "spread of the totals (highest - lowest)",
    "mean_round_score": "mean round score of a seat",
    "first_player_wins": "first player's share of the win",
}

CHANGES_SHOWN = 200
"""Changed records listed in the report (all of them are in --json)."""

METHOD = (
    f"Each statistic is compared game by game (B minus A). The interval is a paired "
    f"bootstrap: the pairs are resampled with replacement {RESAMPLES:,} times and the "
    "interval runs from the 2.5th to the 97.5th percentile of the resampled mean "
    "differences (95%). A difference whose interval leaves out 0 is marked *."
)


def impact_page(
    title: str,
    intro: Sequence[str],
    differences: Sequence[Difference],
    pairs: Sequence[tuple[GameEvents, GameEvents]],
    replayed: Replayed | None = None,
) -> str:
    """The report as one self-contained HTML page."""
    sections = []
    table = Section("What changes", [METHOD])
    rows: list[Sequence[Cell]] = [
        (
            METRIC_LABELS.get(d.name, d.name),
            d.a,
            d.b,
            f"{d.difference:+.3f}{' *' if d.significant else ''}",
            d.low,
            d.high,
        )
        for d in differences
    ]
    table.tables.append((["per game", "A", "B", "B - A", "95% low", "95% high"], rows))
    shown = [d for d in differences if d.a]
    if shown:
        table.plots.append(
            (
                "Change of each statistic, relative to its mean under A, with its 95% interval "
                "(red: the interval leaves out 0)",
                plots.intervals(
                    [METRIC_LABELS.get(d.name, d.name) for d in shown],
                    [_relative(d) for d in shown],
                    title="B against A, in % of A's mean",
                    xlabel="change in % of the mean under A (95% interval)",
                ),
            )
        )
    length = Section("Game length and who wins")
    if pairs:
        turns_a = [float(sum(r.turns for r in first.rounds)) for first, _ in pairs]
        turns_b = [float(sum(r.turns for r in second.rounds)) for _, second in pairs]
        length.plots.append(
            (
                "Turns per game under A and B",
                plots.histogram({"A": turns_a, "B": turns_b}, title="Game length", xlabel="turns"),
            )
        )
        positions_a, positions_b = (
            _by_position([p[0] for p in pairs]),
            _by_position([p[1] for p in pairs]),
        )
        labels = [str(index) for index in range(max(len(positions_a), len(positions_b)))]
        length.plots.append(
            (
                "Win rate by position from the first player (0 starts round 0)",
                plots.bars(
                    labels,
                    {"A": _padded(positions_a, labels), "B": _padded(positions_b, labels)},
                    title="Win rate by position",
                    ylabel="share of wins",
                ),
            )
        )
    sections.append(table)
    if replayed is not None:
        sections.append(_changes(replayed))
    if pairs:
        sections.append(length)
    return page(title, intro, sections)


def _relative(difference: Difference) -> tuple[float, float, float]:
    """(low, estimate, high) in percent of the mean under A."""
    scale = 100 / abs(difference.a)
    return difference.low * scale, difference.difference * scale, difference.high * scale


def _by_position(games: Sequence[GameEvents]) -> list[float]:
    wins: dict[int, float] = {}
    seen: Counter[int] = Counter()
    for game in games:
        if not game.winners:
            continue
        for seat, share in enumerate(win_shares(game)):
            position = (seat - game.first_player) % game.players
            wins[position] = wins.get(position, 0.0) + share
            seen[position] += 1
    return [wins.get(index, 0.0) / seen[index] for index in range(max(seen, default=-1) + 1)]


def _padded(values: list[float], labels: Sequence[str]) -> list[float]:
    return values + [0.0] * (len(labels) - len(values))


def _changes(replayed: Replayed) -> Section:
    kinds = Counter(change.kind for change in replayed.changes)
    section = Section(
        "Records that change",
        [
            f"{replayed.records:,} files: {kinds['verdict']:,} change verdict, "
            f"{kinds['result']:,} change result, {replayed.not_under_a:,} were not played "
            f"under A and {replayed.unreadable:,} are no playable record (both left out).",
        ],
    )
    reasons = Counter(change.reason for change in replayed.changes)
    if reasons:
        section.tables.append((["why", "records"], reasons.most_common(20)))
    listed: list[Sequence[Cell]] = [
        (change.path, change.kind, change.why) for change in replayed.changes[:CHANGES_SHOWN]
    ]
    if listed:
        section.tables.append((["record", "change", "why"], listed))
    return section


__all__ = ["METRIC_LABELS", "impact_page"]
