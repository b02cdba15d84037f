"""The game core: cards, rulesets and their compiled view, the state, moves, the pure
engine (``apply``/``legal_moves``/``sample_chance``/``explain``), scoring and the errors.
Nothing here reads a record or knows a file format beyond the ruleset's own YAML."""

__all__: list[str] = []
