"""The referee: replays a record through the engine and gives the verdict of
docs/record-format.md (``validate``), resolves the rulesets records name, checks many
files at once and explains a refusal in words (``report``, ``rulebook``)."""

__all__: list[str] = []
