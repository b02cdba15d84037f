"""Formats: the bytes the library reads and writes -- game records
(docs/record-format.md) and their entries, state snapshots, the safe YAML reader, input
files read within limits, field readers and the JSON Schemas.

This package exports the records (``Record``, ``read_record``, ``parse_record``,
``write_record``, ``dump_record``) and the saved states (``state_to_dict``,
``state_from_dict``, ``STATE_FORMAT``); the readers and the schemas are imported from
their own modules."""

from .record import Record, dump_record, parse_record, read_record, write_record
from .snapshot import STATE_FORMAT, state_from_dict, state_to_dict

__all__ = [
    "STATE_FORMAT",
    "Record",
    "dump_record",
    "parse_record",
    "read_record",
    "state_from_dict",
    "state_to_dict",
    "write_record",
]
