"""Bounded memory and input: validating any one input the command line accepts needs at
most 1 GiB, JSON and YAML alike; standard input stops at the size limit; ruleset files
and ``extends`` chains have limits with clear refusals.

The memory cases run the command line in a fresh process whose address space is capped
(so that a regression fails here instead of exhausting the machine) and read its peak
resident set when it ends.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest
from kit import EXAMPLES

from gnoming_rules.core.errors import RulesetError
from gnoming_rules.formats.reading import read_regular_file
from gnoming_rules.formats.record import MAX_RECORD_BYTES, MAX_YAML_BYTES
from gnoming_rules.formats.rulesets import MAX_EXTENDS, MAX_RULESET_BYTES, load_ruleset
from gnoming_rules.formats.safe_yaml import MAX_SLOW_BYTES
from gnoming_rules.referee import batch, processes

GIB = 1024**3

_PROBE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))
from gnoming_rules.cli import main
if sys.argv[1] == "-" and len(sys.argv) > 2:
    sys.stdin = open(sys.argv[2], encoding="utf-8", errors="replace")
status = main(["validate", "--json", sys.argv[1]])
# VmHWM is this process's own peak; ru_maxrss would also count the parent's pages at the fork
with open("/proc/self/status", encoding="ascii") as status_file:
    peak = next(int(line.split()[1]) for line in status_file if line.startswith("VmHWM:"))
print("PEAK", peak * 1024, status, file=sys.stderr)
"""


def validate_in_a_process(
    *argv: str, stdin: int | IO[bytes] = subprocess.DEVNULL
) -> tuple[int, int, str, str]:
    """(exit status, peak RSS in bytes, stdout, stderr) of ``gnoming validate --json``."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    words = done.stderr.split("PEAK")[-1].split()
    assert len(words) >= 2, done.stderr[-2000:]
    return int(words[1]), int(words[0]), done.stdout, done.stderr


def dense_record(size: int, *, yaml_path: bool = False) -> str:
    """A record of exactly ``size`` bytes that is almost all one deal of small numbers: the
    densest shape known (most values per byte). ``yaml_path`` puts a tab in a player's
    name, which sends a YAML reader down its pure Python path."""
    first = "a\tb" if yaml_path else "a"
    head = f'{{"format":"gnoming-record/1","ruleset":"standard","players":["{first}","b","c"],'
    head += '"first_player":0,"rounds":[{"deal":['
    tail = '1],"moves":[]}]}'
    count = (size - len(head) - len(tail)) // 2
    text = head + "1," * count + tail
    return text + " " * (size - len(text))


@pytest.mark.parametrize(
    ("name", "yaml_path"),
    [("record.json", False), ("record.yaml", False), ("record.yaml", True)],
)
def test_the_largest_accepted_record_needs_less_than_1_gib(
    tmp_path: Path, name: str, yaml_path: bool
) -> None:
    """The pure Python YAML path accepts at most ``MAX_SLOW_BYTES``: its largest input is
    that size (and ``benchmarks/memory.py`` shows the bytes per input byte are the same)."""
    path = tmp_path / name
    size = (
        MAX_SLOW_BYTES
        if yaml_path
        else MAX_YAML_BYTES
        if name.endswith("yaml")
        else MAX_RECORD_BYTES
    )
    path.write_text(dense_record(size, yaml_path=yaml_path), encoding="utf-8")
    status, peak, out, err = validate_in_a_process(str(path))
    assert "internal error" not in err and status == 2, err[-500:]
    assert json.loads(out)["error"]["code"] == "bad-deal"  # read to the end, then judged
    assert peak < GIB, f"{peak / GIB:.2f} GiB"


def test_a_yaml_record_for_the_slow_reader_past_its_limit_is_refused_unread(
    tmp_path: Path,
) -> None:
    path = tmp_path / "record.yaml"
    path.write_text(dense_record(MAX_SLOW_BYTES + 1, yaml_path=True), encoding="utf-8")
    status, _, out, _ = validate_in_a_process(str(path))
    error = json.loads(out)["error"]
    assert status == 2 and error["code"] == "bad-record", error
    assert "read without libyaml" in error["message"] and "at most 512 KiB" in error["message"]


def test_a_large_yaml_record_libyaml_refuses_gets_its_refusal_in_the_usual_words() -> None:
    """Past the slow reader's limit, libyaml's own refusal is reported (no second reading),
    worded as the pure reader words it."""
    from gnoming_rules.core.errors import UnreadableYamlError
    from gnoming_rules.formats import safe_yaml

    big = dense_record(MAX_SLOW_BYTES + 1).encode()
    broken = big[:-30] + b": : ]" + big[-25:]
    with pytest.raises(UnreadableYamlError) as refused:
        safe_yaml.load_yaml(broken)
    assert refused.value.message.startswith("not valid YAML: ")
    assert " at line 1, column " in refused.value.message


def test_one_byte_over_the_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(dense_record(MAX_RECORD_BYTES + 1), encoding="utf-8")
    status, _, out, _ = validate_in_a_process(str(path))
    error = json.loads(out)["error"]
    assert status == 2 and error["code"] == "bad-record"
    assert f"larger than {MAX_RECORD_BYTES // 2**20} MiB" in error["message"]


def test_standard_input_stops_at_the_limit() -> None:
    """An endless standard input (``/dev/zero``) is refused once it passes the limit,
    without being read to the end (which never comes)."""
    with open("/dev/zero", "rb") as endless:
        status, peak, out, err = validate_in_a_process("-", stdin=endless)
    assert status == 2 and "internal error" not in err, err[-500:]
    error = json.loads(out)["error"]
    assert error["code"] == "bad-record" and "larger than" in error["message"]
    assert peak < GIB


def test_a_large_record_on_standard_input_is_read_whole_below_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(dense_record(MAX_RECORD_BYTES), encoding="utf-8")
    with path.open("rb") as stream:
        status, peak, out, _ = validate_in_a_process("-", stdin=stream)
    assert status == 2 and json.loads(out)["error"]["code"] == "bad-deal"
    assert peak < GIB


# --- ruleset files and extends chains ----------------------------------------------------------


def test_a_ruleset_file_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    numbers = "".join(f"    {face}: 1\n" for face in range(1, MAX_RULESET_BYTES // 8))
    path.write_text(f"extends: standard\ndeck:\n  numbers:\n{numbers}", encoding="utf-8")
    assert path.stat().st_size > MAX_RULESET_BYTES
    with pytest.raises(RulesetError) as refused:
        load_ruleset(path)
    assert refused.value.code == "bad-ruleset"
    assert f"larger than {MAX_RULESET_BYTES // 1024} KiB" in refused.value.message


def test_a_deck_of_more_faces_than_a_deck_holds_is_refused_before_merging() -> None:
    numbers = {str(face): 1 for face in range(1, 200_001)}
    with pytest.raises(RulesetError) as refused:
        load_ruleset({"extends": "standard", "deck": {"numbers": numbers}})
    assert refused.value.message.startswith("inline ruleset: deck.numbers: 200000 faces")


def chain(folder: Path, links: int) -> Path:
    """``r0.yaml`` extends ``r1.yaml`` ... ``r{links-1}.yaml``, which extends standard."""
    for index in range(links):
        parent = f"r{index + 1}.yaml" if index + 1 < links else "standard"
        (folder / f"r{index}.yaml").write_text(f"extends: {parent}\n", encoding="utf-8")
    return folder / "r0.yaml"


def test_an_extends_chain_at_the_limit_loads(tmp_path: Path) -> None:
    assert load_ruleset(chain(tmp_path, MAX_EXTENDS)).rounds == 3


@pytest.mark.parametrize("links", [MAX_EXTENDS + 1, 500, 5000])
def test_a_longer_extends_chain_is_refused_in_one_line(tmp_path: Path, links: int) -> None:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(chain(tmp_path, links))
    message = refused.value.message
    assert refused.value.code == "bad-ruleset" and "recursion" not in message
    assert f"more than {MAX_EXTENDS} rulesets" in message and "\n" not in message


# --- processes --------------------------------------------------------------------------------


def test_jobs_are_capped_at_the_cpus_available(
    monkeypatch: pytest.MonkeyPatch, forked: list[int]
) -> None:
    """``--jobs 10000`` starts no more processes than there are CPUs to run them: on two,
    this one and one fork (``forked``: tests/conftest.py)."""
    monkeypatch.setattr(processes, "available_cpus", lambda: 2)
    files = [EXAMPLES / "tiny-game.json"] * 12
    reports = list(batch.check_files(files, jobs=10_000, as_json=True))
    assert [report.status for report in reports] == [0] * 12
    assert len(forked) == 1


@pytest.mark.parametrize("size", [0, 1, 99, 100, 101, 5000])
def test_a_file_is_read_up_to_one_byte_past_the_limit(tmp_path: Path, size: int) -> None:
    """``read_regular_file`` asks for the file's size, not the limit (Python would allocate
    the whole limit), and still returns the file's first ``limit + 1`` bytes."""
    file = tmp_path / "input.json"
    data = bytes(index % 251 for index in range(size))
    file.write_bytes(data)
    assert read_regular_file(file, 100) == data[:101]


def test_a_file_that_grows_while_read_is_read_up_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file longer than its size said when it was opened is read past that size."""
    file = tmp_path / "input.json"
    file.write_bytes(b"x" * 500)
    real_fstat = os.fstat

    class Shrunk:
        def __init__(self, status: os.stat_result) -> None:
            self.st_mode = status.st_mode
            self.st_size = 10

    monkeypatch.setattr(os, "fstat", lambda descriptor: Shrunk(real_fstat(descriptor)))
    assert read_regular_file(file, 100) == b"x" * 101
    assert read_regular_file(file, 1000) == b"x" * 500
