"""Optional frameworks, imported when a command needs them, with a typed error when absent."""

from __future__ import annotations

import importlib
from types import ModuleType

from ..core.errors import UsageError


def need(module: str, extra: str) -> ModuleType:
    """``import module``, or ``GnomingError`` (``missing-extra``) naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise UsageError(
            "missing-extra",
            f"{module} is not installed ({error.name or module} missing): "
            f"pip install 'gnoming-rules[{extra}]'",
        ) from None


__all__ = ["need"]
