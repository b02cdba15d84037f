"""Peak memory of ``gnoming validate`` per input byte, JSON and YAML, and at the size limit.

Builds records of a few sizes from a played standard game (its rounds repeated, so the
whole document is parsed before the replay stops at the first extra round), in JSON and
YAML, and validates each in a fresh process through the command line's ``main``. A
process's peak resident set (``ru_maxrss``) is read when it ends; the figure printed is
the peak minus the resident set after importing the package (the interpreter and the
library), divided by the input's size. The last rows are the largest input each format accepts,
read from a file and from standard input; their peak must stay under 1 GiB.

Shapes: ``plain`` is what ``gnoming play`` writes; ``colons`` adds a ``:`` inside a
player's name, which makes the JSON reader look for repeated keys (a second parse).

Hostile shapes (``--hostile``, issue 23): at each format's size limit, inputs built to
cost the most (a million tiny rounds, a deal of millions of cards, an unknown field of
millions of numbers or empty lists, hundreds of thousands of moves, millions of malformed
values or unknown fields, each one problem to report, an anchor and its alias), each
validated in a fresh process; the goal is an answer within 5 s and 300 MB (wall time
includes starting the interpreter).

    python benchmarks/memory.py [--sizes 1,4,16] [--no-limit] [--hostile]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gnoming_rules.formats.record import RECORD_ADAPTER, dump_record
from gnoming_rules.formats.rulesets import load_ruleset
from gnoming_rules.play.bots import play_game

MIB = 1024 * 1024
GIB = 1024 * MIB

_PROBE = """
import gc, os, resource, sys
from gnoming_rules.cli import main
gc.collect()
try:  # the resident set now (Linux), else the peak so far
    with open("/proc/self/statm") as statm:
        base = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
except OSError:
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
path = sys.argv[1]
if path == "-":
    sys.stdin = open(sys.argv[2], encoding="utf-8")
status = main(["validate", "--json", path])
try:  # this process's own peak (Linux): ru_maxrss after a fork counts the parent's pages
    with open("/proc/self/status") as lines:
        peak = next(int(line.split()[1]) for line in lines if line.startswith("VmHWM:"))
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
usage = resource.getrusage(resource.RUSAGE_SELF)
print(usage.ru_utime + usage.ru_stime, base * 1024, peak * 1024, status, file=sys.stderr)
"""
"""Run in a fresh process: the RSS (bytes) after the imports, and the peak at the end
(``VmHWM``: ``ru_maxrss`` would count the pages of the benchmark's own process, which
holds every input text, as the child's)."""


def record_text(size: int, *, yaml: bool, colons: bool) -> str:
    """A record of about ``size`` bytes: one played game's rounds, repeated."""
    rules = load_ruleset("standard")
    record, _ = play_game(rules, 5, seed=7)
    if colons:
        record = record.model_copy(update={"players": ["a:b", *record.players[1:]]})
    data = json.loads(dump_record(record))
    one = len(json.dumps(data["rounds"][0]))
    data["rounds"] = [data["rounds"][i % 3] for i in range(max(1, size // one))]
    data.pop("result", None)
    if not yaml:
        return _fit(json.dumps(data, separators=(",", ":")), size)
    return _fit(dump_record(RECORD_ADAPTER.validate_python(data), format="yaml"), size)


def _fit(text: str, size: int) -> str:
    """Cut whole rounds until the text is at most ``size`` bytes."""
    while len(text.encode("utf-8")) > size:
        data: Any
        data = json.loads(text) if text.startswith("{") else None
        if data is None:  # YAML: drop the last round (its lines start with "  - deal:")
            cut = text.rstrip("\n").rfind("\n  - deal:")
            text = text[:cut] + "\n"
            continue
        extra = len(text.encode("utf-8")) - size
        per_round = len(json.dumps(data["rounds"][0], separators=(",", ":"))) + 1
        data["rounds"] = data["rounds"][: -max(1, extra // per_round + 1)]
        text = json.dumps(data, separators=(",", ":"))
    return text


def measure(path: Path, *, stdin: bool = False) -> tuple[int, int, int]:
    """(RSS after the imports, peak at the end, exit status) of validating ``path``."""
    _, base, peak, status = measure_cpu(path, stdin=stdin)
    return base, peak, status


def measure_cpu(path: Path, *, stdin: bool = False) -> tuple[float, int, int, int]:
    """:func:`measure`, after the CPU seconds (user and system) the process took."""
    argv = ["-", str(path)] if stdin else [str(path)]
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    cpu, base, peak, status = done.stderr.split()[-4:]
    return float(cpu), int(base), int(peak), int(status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,4,16", help="record sizes in MiB")
    parser.add_argument("--no-limit", action="store_true", help="skip the size-limit rows")
    parser.add_argument(
        "--hostile", action="store_true", help="only the hostile shapes at the limits"
    )
    args = parser.parse_args()
    from gnoming_rules.formats import record as formats

    if args.hostile:
        hostile(formats.MAX_RECORD_BYTES, formats.MAX_YAML_BYTES)
        return

    limits = {
        "json": getattr(formats, "MAX_JSON_BYTES", formats.MAX_RECORD_BYTES),
        "yaml": getattr(formats, "MAX_YAML_BYTES", formats.MAX_RECORD_BYTES),
    }
    sizes = [int(float(size) * MIB) for size in args.sizes.split(",")]
    print(f"{'input':<34} {'bytes':>11} {'peak MiB':>9} {'over import':>11} {'per byte':>9}")
    with tempfile.TemporaryDirectory() as folder:
        rows: list[tuple[str, int, bool, bool, bool]] = []
        for kind in ("json", "yaml"):
            for size in sizes:
                if size <= limits[kind]:
                    rows.append((kind, size, False, False, False))
            if kind == "json":
                rows.append((kind, min(sizes[-1], limits[kind]), True, False, False))
            if not args.no_limit:
                rows.append((kind, limits[kind], kind == "json", True, False))
                rows.append((kind, limits[kind], kind == "json", True, True))
        for kind, size, colons, at_limit, stdin in rows:
            text = record_text(size, yaml=kind == "yaml", colons=colons)
            path = Path(folder) / f"record.{kind}"
            path.write_text(text, encoding="utf-8")
            length = len(text.encode("utf-8"))
            base, peak, status = measure(path, stdin=stdin)
            label = f"{kind} {'colons' if colons else 'plain'}"
            label += " at the limit" if at_limit else ""
            label += " (stdin)" if stdin else ""
            label += f" [exit {status}]"
            per_byte = (peak - base) / length
            print(f"{label:<34} {length:>11} {peak / MIB:>9.0f} {(peak - base) / MIB:>11.0f} "
                  f"{per_byte:>9.1f}")  # fmt: skip
            if at_limit and peak > GIB:
                print(f"  over 1 GiB: {peak / GIB:.2f} GiB")
        for kind in ("json", "yaml"):  # the densest shape known: one deal of small numbers
            text = dense_record(limits[kind])
            path = Path(folder) / f"dense.{kind}"
            path.write_text(text, encoding="utf-8")
            base, peak, status = measure(path)
            label = f"{kind} dense deal at the limit [exit {status}]"
            print(f"{label:<34} {len(text):>11} {peak / MIB:>9.0f} {(peak - base) / MIB:>11.0f} "
                  f"{(peak - base) / len(text):>9.1f}")  # fmt: skip


def dense_record(size: int) -> str:
    """A record of ``size`` bytes that is almost all one deal of ones: most values per byte."""
    head = '{"format":"gnoming-record/1","ruleset":"standard","players":["a","b","c"],'
    head += '"first_player":0,"rounds":[{"deal":['
    tail = '1],"moves":[]}]}'
    text = head + "1," * ((size - len(head) - len(tail)) // 2) + tail
    return text + " " * (size - len(text))


HEAD_JSON = '{"format":"gnoming-record/1","ruleset":"standard","players":["a","b","c"],'
HEAD_JSON += '"first_player":0,'
HEAD_YAML = "format: gnoming-record/1\nruleset: standard\nplayers: [a, b, c]\nfirst_player: 0\n"


def _filled(head: str, unit: str, tail: str, size: int) -> str:
    """``head``, as many ``unit`` as fit in ``size`` bytes with ``tail``, then ``tail``."""
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def _keys(head: str, tail: str, size: int) -> str:
    """``head``, as many distinct keys ``,"k1":0`` as fit in ``size`` bytes, ``tail``."""
    parts, length, index = [head], len(head) + len(tail), 0
    while True:
        key = f',"{index:x}":0'
        if length + len(key) > size:
            break
        parts.append(key)
        length += len(key)
        index += 1
    return "".join(parts) + tail


def hostile_texts(json_limit: int, yaml_limit: int) -> dict[str, str]:
    """The costliest inputs known, each at its format's size limit."""
    round_ = '{"deal":[1],"moves":[]}'
    move = '{"action":"reshuffle","cards":[1]}'
    moves = HEAD_JSON + '"rounds":[{"deal":[1],"moves":['
    public = HEAD_JSON + '"information":"public","rounds":[{"start":{"piles":[1,2]},"moves":['
    return {
        "json: a million tiny rounds": _filled(
            HEAD_JSON + '"rounds":[', round_ + ",", round_ + "]}", json_limit
        ),
        "json: one deal of ones": _filled(
            HEAD_JSON + '"rounds":[{"deal":[', "1,", '1],"moves":[]}]}', json_limit
        ),
        "json: an unknown field of ones": _filled(HEAD_JSON + '"x":[', "1,", "1]}", json_limit),
        "json: reshuffles of one card": _filled(moves, move + ",", move + "]}]}", json_limit),
        "json: public reshuffles": _filled(
            public, '{"action":"reshuffle"},', '{"action":"reshuffle"}]}]}', json_limit
        ),
        "json: an unknown field of []": _filled(HEAD_JSON + '"x":[', "[],", "[]]}", json_limit),
        "json: moves of {}, each a problem": _filled(moves, "{},", "{}]}]}", json_limit),
        "json: 1 MiB of {} moves": _filled(moves, "{},", "{}]}]}", json_limit // 16),
        "json: scores, each a problem": _filled(
            HEAD_JSON + '"rounds":[{"deal":[1],"moves":[],"scores":[', '"",', '""]}]}', json_limit
        ),
        "json: unknown fields of one move": _keys(
            moves + '{"action":"reveal","player":0,"slot":0', "}]}]}", json_limit
        ),
        "json: reshuffles of bad cards": _filled(
            moves, '{"action":"reshuffle","cards":["",""]},', "{}]}]}", json_limit
        ),
        "yaml: tiny rounds, flow style": _filled(
            HEAD_YAML + "rounds: [",
            "{deal: [1], moves: []}, ",
            "{deal: [1], moves: []}]\n",
            yaml_limit,
        ),
        "yaml: moves of {}, each a problem": _filled(
            HEAD_YAML + "rounds: [{deal: [1], moves: [", "{},", "{}]}]\n", yaml_limit
        ),
        "yaml: one deal of ones": _filled(
            HEAD_YAML + "rounds: [{deal: [", "1,", "1], moves: []}]\n", yaml_limit
        ),
        "yaml: an anchor and its alias": _filled(
            "format: gnoming-record/1\nruleset: standard\nplayers: &p [",
            "a,",
            "a]\nfirst_player: 0\nrounds: *p\n",
            yaml_limit,
        ),
        "yaml: past its limit": _filled(HEAD_YAML + "rounds: [", "1,", "1]\n", yaml_limit + 2),
    }


def hostile(json_limit: int, yaml_limit: int) -> None:
    """Validate each hostile input in a fresh process: wall time and peak memory."""
    print(f"{'hostile input':<42} {'bytes':>11} {'seconds':>8} {'CPU s':>6} {'peak MiB':>9}  "
          "goal 5 s, 300 MB")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        for label, text in hostile_texts(json_limit, yaml_limit).items():
            path = Path(folder) / ("record.json" if label.startswith("json") else "record.yaml")
            path.write_text(text, encoding="utf-8")
            started = time.perf_counter()
            cpu, _, peak, status = measure_cpu(path)
            seconds = time.perf_counter() - started
            met = "ok" if seconds <= 5 and peak <= 300 * MIB else "OVER"
            print(f"{label + f' [exit {status}]':<42} {len(text):>11} {seconds:>8.2f} "
                  f"{cpu:>6.2f} {peak / MIB:>9.0f}  {met}")  # fmt: skip


if __name__ == "__main__":
    main()
