"""The ``gnoming stats --html`` report: the numbers of :func:`~.stats.summarize`, with plots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import plots
from .events import COUNTERS
from .html import Cell, Section, page
from .stats import GameEvents, win_shares

EVENT_LABELS = {
    "turns": "turns (4.1)",
    "moves": "player moves",
    "bounces": "bounces (5)",
    "chains": "bounce chains (5.1)",
    "hazards_at_setup": "hazards left out at setup (3.3)",
    "hazards": "hazards discarded (6.1)",
    "flips": "flips after a hazard (6.1)",
    "reshuffles": "reshuffles (8.7)",
    "ended_early": "rounds ended early (8.7)",
    "went_out": "rounds with a player out (8.1)",
    "bonus": "going out with the bonus (8.6)",
    "penalty": "going out with the penalty (8.6)",
    "mulligans_over": "layouts over the mulligan limit (7.3)",
}
"""What each counter means, with its rule."""


def stats_page(title: str, summary: dict[str, Any], games: Sequence[GameEvents]) -> str:
    """The report as one self-contained HTML page."""
    valid = [game for game in games if game.valid]
    intro = [
        f"{summary['games']:,} records: {summary['valid']:,} valid "
        f"({summary['complete']:,} complete games, {summary['unfinished']:,} unfinished), "
        f"{summary['games'] - summary['valid']:,} invalid or unreadable. "
        "Play statistics are over the valid records: per game over the complete games (an "
        "unfinished record is no shorter game), per round over every round that ended.",
    ]
    validity = Section("Verdicts")
    validity.tables.append(
        (
            ["verdict", "records"],
            [("valid", summary["valid"]), *summary["invalid_by_code"].items()],
        )
    )
    if summary["invalid_by_code"]:
        labels = ["valid", *summary["invalid_by_code"]]
        counts = [summary["valid"], *summary["invalid_by_code"].values()]
        validity.plots.append(
            (
                "Records by verdict",
                plots.bars(labels, {"records": counts}, title="Verdicts", ylabel="records"),
            )
        )
    seats = summary["win_rate_by_seat"]
    positions = summary["win_rate_by_position"]
    wins = Section(
        "Who wins",
        [
            "A shared win counts 1/k for each of the k winners. The fair share of a seat is "
            "what it would win if every player were equally likely to: the mean of 1/players "
            "over the games that have that seat. Position 0 is the first player (who starts "
            "round 0), 1 the next in play order, and so on.",
        ],
    )
    wins.tables.append(
        (
            ["seat", "games", "win rate", "fair share", "position", "win rate"],
            [
                (
                    row["seat"],
                    row["games"],
                    row["win_rate"],
                    row["fair_share"],
                    positions[index]["position"],
                    positions[index]["win_rate"],
                )
                for index, row in enumerate(seats)
            ],
        )
    )
    if seats:
        wins.plots.append(
            (
                "Win rate by seat and by position from the first player",
                plots.bars(
                    [str(row["seat"]) for row in seats],
                    {
                        "by seat": [row["win_rate"] or 0 for row in seats],
                        "by position from the first player": [
                            row["win_rate"] or 0 for row in positions
                        ],
                    },
                    title="Win rate",
                    ylabel="share of wins",
                    reference=[row["fair_share"] or 0 for row in seats],
                    reference_label="fair share (by seat)",
                ),
            )
        )
    scores = Section("Scores per round")
    by_round = summary["scores_by_round"]
    scores.tables.append(
        (
            ["round", "seat scores", "mean", "sd", "min", "q1", "median", "q3", "max"],
            [(index, *(spread.get(key) for key in _SPREAD)) for index, spread in by_round.items()],
        )
    )
    groups: dict[str, list[float]] = {}
    for game in valid:
        for events in game.rounds:
            groups.setdefault(f"round {events.round}", []).extend(events.scores)
    if groups:
        scores.plots.append(
            (
                "Each seat's score in each round (the going-out bonus included)",
                plots.boxes(dict(sorted(groups.items())), title="Round scores", ylabel="points"),
            )
        )
    length = Section("Game length")
    length.tables.append(
        (
            ["", "count", "mean", "sd", "min", "q1", "median", "q3", "max"],
            [
                ("turns per game", *(summary["turns_per_game"].get(k) for k in _SPREAD)),
                ("turns per round", *(summary["turns_per_round"].get(k) for k in _SPREAD)),
            ],
        )
    )
    turns = [float(sum(events.turns for events in game.rounds)) for game in valid if game.complete]
    if turns:
        length.plots.append(
            (
                "Turns per game (a turn starts with a draw)",
                plots.histogram({"games": turns}, title="Game length", xlabel="turns"),
            )
        )
    fired = Section(
        "How often each rule fired",
        [f"Over {summary['valid']:,} valid records and {summary['rounds']:,} rounds."],
    )
    rows: list[Sequence[Cell]] = [
        (EVENT_LABELS[name], summary["events"][name], summary["events_per_game"][name])
        for name in COUNTERS
    ]
    fired.tables.append((["event", "total", "per game"], rows))
    fired.tables.append((["bounce chain length", "chains"], list(summary["chain_lengths"].items())))
    shown = [name for name in COUNTERS if name not in ("turns", "moves")]
    fired.plots.append(
        (
            "Rule events per game",
            plots.bars(
                [EVENT_LABELS[name] for name in shown],
                {"per game": [summary["events_per_game"][name] for name in shown]},
                title="Rule events per game",
                ylabel="mean per game",
                horizontal=True,
            ),
        )
    )
    if summary["chain_lengths"]:
        fired.plots.append(
            (
                "Bounce chains by length",
                plots.bars(
                    list(summary["chain_lengths"]),
                    {"chains": list(summary["chain_lengths"].values())},
                    title="Bounce chain length",
                    ylabel="chains",
                ),
            )
        )
    sections = [validity, wins, scores, length, fired]
    if "by_ruleset" in summary:
        sections.insert(1, _by_ruleset(summary["by_ruleset"]))
    return page(title, intro, sections)


def _by_ruleset(parts: dict[str, dict[str, Any]]) -> Section:
    """The key figures of each ruleset's records, side by side: a folder that mixes rulesets
    sums up games of different rules, so the figures above mix them too."""
    section = Section(
        "By ruleset",
        ["The records mix rulesets: the figures below are each ruleset's records alone."],
    )
    rows: list[Sequence[Cell]] = []
    for name, part in parts.items():
        first = (
            part["win_rate_by_position"][0]["win_rate"] if part["win_rate_by_position"] else None
        )
        turns = part["turns_per_game"].get("mean")
        rows.append((name, part["games"], part["valid"], part["complete"], part["unfinished"],
                     turns, first))  # fmt: skip
    header = ["ruleset", "records", "valid", "complete", "unfinished", "turns per game (mean)",
              "first player's win rate"]  # fmt: skip
    section.tables.append((header, rows))
    return section


_SPREAD = ("count", "mean", "sd", "min", "q1", "median", "q3", "max")


def first_player_share(game: GameEvents) -> float:
    """The first player's share of the win (1, 1/k or 0)."""
    return win_shares(game)[game.first_player] if game.players else 0.0


__all__ = ["EVENT_LABELS", "first_player_share", "stats_page"]
