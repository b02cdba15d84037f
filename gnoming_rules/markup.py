"""Text from a record made safe for the SVG and HTML the library writes: one function.

A record comes from a stranger, and its text (players' names, a ruleset's name, a file
name in a title) ends up in pictures and pages. :func:`markup` escapes the markup
characters (``& < > " '``), as :func:`html.escape` does, and writes every character that
XML 1.0 does not allow, or that HTML takes for a parse error, as a visible escape
(``\\u001b``): the C0 controls but tab, line feed and carriage return, DEL and the C1
controls, the lone surrogates (which no UTF-8 file can even hold) and the noncharacters
U+FFFE and U+FFFF. So every SVG is well-formed XML and every page parses as HTML,
whatever the record holds.
"""

from __future__ import annotations

import html
import re
from typing import Final

__all__ = ["markup"]

_NOT_MARKUP: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""The characters XML 1.0 does not allow in a document, with the controls HTML refuses."""


def markup(text: object) -> str:
    """``text`` (any value, as ``str()`` writes it) as element content or an attribute's
    value in XML or HTML: markup escaped, forbidden characters written ``\\u001b``."""
    shown = _NOT_MARKUP.sub(lambda found: f"\\u{ord(found.group()):04x}", str(text))
    return html.escape(shown, quote=True)
