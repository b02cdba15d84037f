"""One self-contained HTML page: headings, tables and PNG plots embedded as ``data:`` URLs.

The report opens from a mail attachment or a CI artefact with no file beside it and no
network. All text that comes from input (file names, ruleset names, messages) is escaped.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..markup import markup

Cell = str | int | float | None


@dataclass(slots=True)
class Section:
    """A heading, a paragraph or two, then tables and plots, in that order."""

    title: str
    text: Sequence[str] = ()
    tables: list[tuple[Sequence[str], Sequence[Sequence[Cell]]]] = field(default_factory=list)
    plots: list[tuple[str, bytes]] = field(default_factory=list)
    """(caption, PNG bytes)."""


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.92em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
th { background: #f3f6f3; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }
img { max-width: 100%; height: auto; }
"""


def _cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:,.0f}"
    return markup(str(value))


def page(title: str, intro: Sequence[str], sections: Sequence[Section]) -> str:
    """The whole HTML document."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{markup(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{markup(title)}</h1>",
    ]
    out += [f"<p>{markup(line)}</p>" for line in intro]
    for section in sections:
        out.append(f"<h2>{markup(section.title)}</h2>")
        out += [f"<p>{markup(line)}</p>" for line in section.text]
        for header, rows in section.tables:
            out.append("<table><thead><tr>")
            out += [f"<th>{markup(name)}</th>" for name in header]
            out.append("</tr></thead><tbody>")
            for row in rows:
                cells = "".join(
                    f'<td class="n">{_cell(value)}</td>'
                    if isinstance(value, int | float)
                    else f"<td>{_cell(value)}</td>"
                    for value in row
                )
                out.append(f"<tr>{cells}</tr>")
            out.append("</tbody></table>")
        for caption, png in section.plots:
            data = base64.b64encode(png).decode("ascii")
            out.append(
                f'<figure><img alt="{markup(caption)}" src="data:image/png;base64,{data}">'
                f"<figcaption>{markup(caption)}</figcaption></figure>"
            )
    out.append("</body></html>")
    return "\n".join(out) + "\n"


__all__ = ["Cell", "Section", "page"]
