"""The optional extras: one wording for a framework that is not installed.

The library's optional parts import their frameworks when they are used, and a missing one
is a :class:`~gnoming_rules.core.errors.UsageError` with the code ``missing-extra`` whose
message names the module and the extra to install, the way the README installs them (the
project is installed from its clone: ``pip install '.[stats]'``)::

    stats extra not installed (matplotlib missing): pip install '.[stats]' in your
    clone of gnoming-rules

:func:`need` imports a module on demand; a module whose own imports need an extra wraps
them with :func:`missing_extra` (``except ImportError as error: raise missing_extra(error,
"rl") from None``), so that no bare ``ModuleNotFoundError`` reaches the user.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Final

from .core.errors import UsageError

__all__ = ["EXTRAS", "missing_extra", "need"]

EXTRAS: Final = ("testing", "dask", "stats", "rl")
"""The extras a user may install (``pyproject.toml``; ``dev`` and ``rl-bench`` are the
project's own)."""


def missing_extra(error: ImportError, extra: str) -> UsageError:
    """The ``missing-extra`` error for ``error``, an import that failed, naming ``extra``."""
    missing = error.name or "a module"
    return UsageError(
        "missing-extra",
        f"{extra} extra not installed ({missing.split('.')[0]} missing): "
        f"pip install '.[{extra}]' in your clone of gnoming-rules",
    )


def need(module: str, extra: str) -> ModuleType:
    """``import module``, or the ``missing-extra`` error naming ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise missing_extra(error, extra) from None
