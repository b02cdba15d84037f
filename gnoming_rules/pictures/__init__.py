"""Pictures of a game: SVG tables of a position and a self-contained HTML replay of a record.

:mod:`.cards` draws the cards once, as SVG definitions that every picture reuses;
:mod:`.table` draws a position (the referee's view of a state, or what one seat sees);
:mod:`.replay` steps through a record and writes one HTML file that needs no network.
Nothing here needs more than the standard library.
"""

__all__: list[str] = []
