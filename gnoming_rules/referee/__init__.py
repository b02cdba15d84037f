"""The referee: replays a record through the engine and gives the verdict of
docs/record-format.md (``validate``), resolves the rulesets records name, checks many
files at once and explains a refusal in words (``report``, ``rulebook``).

This package exports the validation (``validate_file``, ``validate_record``,
``Verdict``, ``VerdictError``, ``replay_file``, ``replay_bytes``, ``replay_record``,
``Replay``, ``engine_moves``) and ``RulesetResolver``; the batch helpers are imported from
``gnoming_rules.referee.batch``."""

from .resolver import RulesetResolver
from .validate import (
    Replay,
    Verdict,
    VerdictError,
    engine_moves,
    replay_bytes,
    replay_file,
    replay_record,
    validate_file,
    validate_record,
)

__all__ = [
    "Replay",
    "RulesetResolver",
    "Verdict",
    "VerdictError",
    "engine_moves",
    "replay_bytes",
    "replay_file",
    "replay_record",
    "validate_file",
    "validate_record",
]
