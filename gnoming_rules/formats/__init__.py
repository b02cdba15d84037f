"""Formats: the bytes the library reads and writes -- game records
(docs/record-format.md) and their entries, state snapshots, the safe YAML reader, input
files read within limits, field readers and the JSON Schemas."""

__all__: list[str] = []
