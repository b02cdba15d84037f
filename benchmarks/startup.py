"""How long ``gnoming --help`` and ``gnoming validate`` of one small record take, end to end.

Each command runs as a fresh process (``python -m gnoming_rules``), as a user starts it.
With ``--baseline DIR`` (a copy of another version's source tree, e.g. from
``git archive main | tar -x -C DIR``) the runs alternate, this tree then the baseline,
so that the load of the machine falls on both alike; the medians and their ratio are
printed. Timings are wall-clock and noisy on a shared machine: compare only runs of one
sitting.

    python benchmarks/startup.py [--runs 15] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "gnoming --help": ["--help"],
    "gnoming validate tiny-game.json": ["validate", str(ROOT / "examples" / "tiny-game.json")],
}


def once(source: Path, args: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run of ``python -m gnoming_rules
    ARGS`` with ``source`` first on the path. The CPU time is the steadier figure on a
    loaded machine: it leaves out the time spent waiting for a core."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gnoming_rules", *args],
        env=env,
        cwd=source,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default: 15)")
    parser.add_argument("--baseline", type=Path, help="another source tree to alternate with")
    args = parser.parse_args(argv)
    trees = {"this tree": ROOT}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    for label, command in COMMANDS.items():
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        for _ in range(args.runs):
            for name, source in trees.items():
                times[name].append(once(source, command))
        for kind, index in (("wall", 0), ("cpu", 1)):
            medians = {
                name: statistics.median(run[index] for run in runs) for name, runs in times.items()
            }
            shown = ", ".join(f"{name} {value * 1000:.0f} ms" for name, value in medians.items())
            ratio = ""
            if "baseline" in medians:
                ratio = f" (ratio {medians['this tree'] / medians['baseline']:.2f})"
            print(f"{label}: {kind} median of {args.runs}: {shown}{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
