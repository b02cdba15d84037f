"""The report's plots, drawn with matplotlib's Agg renderer into PNG bytes (extra ``stats``).

Figures are made with :class:`matplotlib.figure.Figure` directly, not ``pyplot``: no
window, no global state, nothing left open after a plot.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from ..extras import need

A_COLOUR = "#4c72b0"
B_COLOUR = "#dd8452"
SIZE = (6.4, 3.4)


def _figure() -> Any:
    figure_module = need("matplotlib.figure", "stats")
    figure = figure_module.Figure(figsize=SIZE, dpi=90, layout="constrained")
    return figure


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def bars(
    labels: Sequence[str],
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    ylabel: str,
    reference: Sequence[float] | None = None,
    reference_label: str = "",
    horizontal: bool = False,
) -> bytes:
    """Grouped bars, one group per label, one bar per series; an optional reference line
    per group (a fair share, say). ``horizontal`` for long labels."""
    figure = _figure()
    axes = figure.add_subplot()
    if horizontal:
        ys = list(range(len(labels)))[::-1]
        for name, values in series.items():
            axes.barh(ys, values, 0.7, label=name, color=A_COLOUR)
        axes.set_yticks(ys, labels)
        axes.set_title(title)
        axes.set_xlabel(ylabel)
        return _png(figure)
    count = max(1, len(series))
    width = 0.8 / count
    colours = (A_COLOUR, B_COLOUR, "#55a868", "#c44e52")
    for index, (name, values) in enumerate(series.items()):
        offsets = [x + (index - (count - 1) / 2) * width for x in range(len(labels))]
        axes.bar(offsets, values, width, label=name, color=colours[index % len(colours)])
    if reference is not None:
        for x, value in enumerate(reference):
            axes.hlines(value, x - 0.45, x + 0.45, colors="black", linestyles="dashed")
        axes.plot([], [], "k--", label=reference_label)
    axes.set_xticks(range(len(labels)), labels)
    axes.set_title(title)
    axes.set_ylabel(ylabel)
    if len(series) > 1 or reference is not None:
        axes.legend(fontsize="small")
    return _png(figure)


def histogram(
    series: Mapping[str, Sequence[float]], *, title: str, xlabel: str, bins: int = 30
) -> bytes:
    """Overlaid histograms (one per series, shared bins)."""
    figure = _figure()
    axes = figure.add_subplot()
    values = [value for data in series.values() for value in data]
    if values:
        low, high = min(values), max(values)
        edges = [low + (high - low + 1) * step / bins for step in range(bins + 1)]
        for index, (name, data) in enumerate(series.items()):
            colour = (A_COLOUR, B_COLOUR)[index % 2]
            axes.hist(data, bins=edges, alpha=0.6, label=name, color=colour)
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("games")
    if len(series) > 1:
        axes.legend(fontsize="small")
    return _png(figure)


def boxes(groups: Mapping[str, Sequence[float]], *, title: str, ylabel: str) -> bytes:
    """One box plot per group (quartiles, whiskers at 1.5 IQR, the mean as a dot)."""
    figure = _figure()
    axes = figure.add_subplot()
    names = list(groups)
    data = [list(groups[name]) or [0.0] for name in names]
    axes.boxplot(data, tick_labels=names, showmeans=True, flierprops={"markersize": 2})
    axes.set_title(title)
    axes.set_ylabel(ylabel)
    return _png(figure)


def intervals(
    labels: Sequence[str],
    estimates: Sequence[tuple[float, float, float]],
    *,
    title: str,
    xlabel: str = "difference B - A per game (95% interval)",
) -> bytes:
    """A forest plot: each label's estimate with its interval (low, estimate, high)."""
    figure = need("matplotlib.figure", "stats").Figure(
        figsize=(SIZE[0], 0.9 + 0.32 * len(labels)), dpi=90, layout="constrained"
    )
    axes = figure.add_subplot()
    ys = list(range(len(labels)))[::-1]
    for y, (low, mid, high) in zip(ys, estimates, strict=True):
        colour = "#c44e52" if low > 0 or high < 0 else A_COLOUR
        axes.plot([low, high], [y, y], color=colour, linewidth=2)
        axes.plot([mid], [y], "o", color=colour)
    axes.axvline(0, color="black", linewidth=0.8)
    axes.set_yticks(ys, labels)
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    return _png(figure)


__all__ = ["bars", "boxes", "histogram", "intervals"]
