"""Ratings from a tournament's games: pairwise results, Elo-like ratings, and an SPRT.

**Pairwise results.** A game of several seats counts as a result between every two seats
that different bots play: the lower total wins (Gnoming A Round is golf: low is good), an
equal total is a draw. A forfeit (the bot protocol) is a loss of the failing seat against
every seat of another bot, and the game counts for nothing else (it did not finish).

**Ratings.** The Bradley-Terry model, on the Elo scale: bot ``i`` beats bot ``j`` with
probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``, a draw counted as half a win and half a
loss. The ratings are its maximum-likelihood fit (Hunter's MM iteration), after one
virtual drawn result between every two bots that met, so that a bot that won or lost
everything still gets a finite rating; they are shifted to average 0. Each 95% interval
is the rating plus or minus 1.96 standard errors, from the inverse of the fit's
information matrix (under that average-0 constraint). The results of one game are
counted as if independent, which they are not quite, so the intervals are somewhat
narrow.

**SPRT.** Between two bots A and B, the sequential probability ratio test of H0 (A's Elo
over B is ``elo0``) against H1 (it is ``elo1``): each deal's sample is A's mean pairwise
score against B over the deal's games (every rotation of the seats, so the deal's luck
cancels), and the log-likelihood ratio is the normal approximation
``n (s1 - s0) (2 m - s0 - s1) / (2 v)``, with ``s0``, ``s1`` the expected scores of the two
hypotheses, ``m`` the mean sample and ``v`` their variance (counting two virtual samples,
0 and 1, so that a first run of equal samples does not decide alone). It stops when the
ratio leaves ``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]``: below, H0 is
accepted; above, H1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "ELO",
    "Pairwise",
    "Rating",
    "Sprt",
    "expected_score",
    "fit_ratings",
    "pairwise",
    "sprt",
]

ELO: Final = 400 / math.log(10)
"""Elo points per unit of the Bradley-Terry log-strength."""

_Z95: Final = 1.959964


@dataclass(frozen=True)
class Pairwise:
    """One result between two bots (their numbers): ``score`` is ``a``'s (1, 0.5 or 0)."""

    a: int
    b: int
    score: float


def pairwise(
    bots: Sequence[int], totals: Sequence[int] | None, forfeit: int | None = None
) -> list[Pairwise]:
    """The pairwise results of one game: seat ``s`` played by bot ``bots[s]``, its
    ``totals`` (``None`` for a forfeit), ``forfeit`` the seat that lost by forfeit."""
    found = []
    for i in range(len(bots)):
        for j in range(i + 1, len(bots)):
            if bots[i] == bots[j]:
                continue
            if forfeit is not None:
                if forfeit in (i, j):
                    found.append(Pairwise(bots[i], bots[j], 0.0 if forfeit == i else 1.0))
                continue
            assert totals is not None
            score = 1.0 if totals[i] < totals[j] else 0.5 if totals[i] == totals[j] else 0.0
            found.append(Pairwise(bots[i], bots[j], score))
    return found


@dataclass(frozen=True)
class Rating:
    """A bot's rating (Elo scale, average 0) and its 95% interval."""

    rating: float
    low: float
    high: float


def fit_ratings(count: int, results: Iterable[Pairwise], *, steps: int = 10_000) -> list[Rating]:
    """The Bradley-Terry ratings of bots ``0`` to ``count - 1`` from ``results`` (see the
    module's text); a bot that met no other gets 0 and an unbounded interval."""
    wins = [0.0] * count
    games = [[0.0] * count for _ in range(count)]
    for result in results:
        wins[result.a] += result.score
        wins[result.b] += 1 - result.score
        games[result.a][result.b] += 1
        games[result.b][result.a] += 1
    for i in range(count):
        for j in range(count):
            if i != j and games[i][j]:
                games[i][j] += 1  # the virtual draw: half a win each
                wins[i] += 0.5
    strength = [1.0] * count
    for _ in range(steps):
        new = []
        for i in range(count):
            denominator = sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(count) if games[i][j]
            )
            new.append(wins[i] / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(value) for value in new) / count)
        new = [value / scale for value in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-10:
            break
    theta = [math.log(value) for value in strength]
    information = [[0.0] * count for _ in range(count)]
    for i in range(count):
        for j in range(count):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                information[i][j] -= games[i][j] * p * (1 - p)
                information[i][i] += games[i][j] * p * (1 - p)
    covariance = _constrained_inverse(information)
    ratings = []
    for i in range(count):
        met = any(games[i])
        sigma = math.sqrt(max(covariance[i][i], 0.0)) * ELO if met else math.inf
        rating = theta[i] * ELO
        ratings.append(Rating(rating, rating - _Z95 * sigma, rating + _Z95 * sigma))
    return ratings


def _constrained_inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of an information matrix whose rows sum to 0, under the constraint that
    the parameters sum to 0: ``(M + J/n)^-1 - J/n`` (``J`` all ones)."""
    n = len(matrix)
    shifted = [[matrix[i][j] + 1 / n for j in range(n)] for i in range(n)]
    inverse = _inverse(shifted)
    return [[inverse[i][j] - 1 / n for j in range(n)] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan with partial pivoting; a singular matrix gives infinities."""
    n = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda row: abs(rows[row][column]))
        if abs(rows[pivot][column]) < 1e-12:
            return [[math.inf] * n for _ in range(n)]
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for row in range(n):
            if row != column and rows[row][column]:
                factor = rows[row][column]
                rows[row] = [a - factor * b for a, b in zip(rows[row], rows[column], strict=True)]
    return [row[n:] for row in rows]


def expected_score(elo: float) -> float:
    """The expected score of a bot ``elo`` points above its opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Sprt:
    """Where an SPRT stands: its log-likelihood ratio, the bounds, and the decision."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    samples: int
    llr: float
    lower: float
    upper: float
    decision: Literal["H0", "H1"] | None
    """``H0`` (A is not ``elo1`` better: ``elo0`` holds), ``H1``, or ``None`` (go on)."""


def sprt(
    samples: Sequence[float], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> Sprt:
    """The SPRT of H0 (A's Elo over B is ``elo0``) against H1 (``elo1``) after ``samples``
    (A's score in each deal, 0 to 1; see the module's text)."""
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    n = len(samples)
    llr = 0.0
    if n:
        mean = sum(samples) / n
        padded = [*samples, 0.0, 1.0]
        centre = sum(padded) / len(padded)
        variance = sum((x - centre) ** 2 for x in padded) / len(padded)
        s0, s1 = expected_score(elo0), expected_score(elo1)
        llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    decision: Literal["H0", "H1"] | None = "H1" if llr >= upper else "H0" if llr <= lower else None
    return Sprt(elo0, elo1, alpha, beta, n, llr, lower, upper, decision)
