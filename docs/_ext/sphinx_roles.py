"""Griffe extension for the API pages: the docstrings' reST markup, rendered as Markdown.

The package's docstrings are written for ``help()`` and use a little reST: roles such as
:class:`~gnoming_rules.core.state.State` and ``Example::`` literal blocks. mkdocstrings reads
docstrings as Markdown, so this extension rewrites a role as a code span (``~`` keeps the
last name only, as in Sphinx) and a ``::`` literal block as a fenced Python block (a
``pycon`` one when it is a ``>>>`` session, as the functions' ``Example::`` blocks are).
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Module, Object

ROLE = re.compile(r":(?:class|func|meth|attr|data|exc|mod|obj):`(~?)([^`]+)`")
LITERAL_BLOCK = re.compile(r"::\n\n((?:(?:    .*)?\n)+)")


def _role(match: re.Match[str]) -> str:
    short, target = match.group(1), match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


def _literal_block(match: re.Match[str]) -> str:
    lines = [line[4:] for line in match.group(1).rstrip("\n").split("\n")]
    language = "pycon" if lines[0].startswith(">>> ") else "python"  # a doctest session
    return f":\n\n```{language}\n" + "\n".join(lines) + "\n```\n\n"


def markdown_from_rest(text: str) -> str:
    """``text`` with its reST roles and literal blocks rewritten as Markdown."""
    return LITERAL_BLOCK.sub(_literal_block, ROLE.sub(_role, text + "\n")).rstrip("\n")


class SphinxRoles(Extension):
    """Rewrites every docstring once the package is loaded."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_from_rest(obj.docstring.value)

    def on_package(self, *, pkg: Module, **kwargs: Any) -> None:
        """The package itself (``on_object`` covers its members); the rewrite is idempotent."""
        self.on_object(obj=pkg)
