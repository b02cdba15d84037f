"""``make mutation``: run the targeted tests against each planted bug of ``mutants.py``.

For each mutant: copy the package to a temporary folder (compiled modules left out, so the
edited source is what Python imports), make the one textual edit, and run
``pytest -x`` on the mutant's tests with that copy first on ``PYTHONPATH``. The tests
failing kills the mutant; passing lets it survive. Prints one line a mutant (killed or
not, seconds) and the kill rate; exits 1 if any survived, or took longer than
``--budget`` seconds to be killed.

    python tests/mutation.py                 # every mutant
    python tests/mutation.py --only NAME     # one (repeat --only for more)
    python tests/mutation.py --list          # the list, nothing run
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutants import MUTANTS, Mutant

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gnoming_rules"
COMPILED = ("*.so", "*.pyd", "__pycache__")


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    status: str  # killed, survived, timeout, error
    seconds: float
    detail: str


def mutated_copy(mutant: Mutant, into: Path) -> Path:
    """The package with ``mutant``'s edit, in ``into``; the other top-level files of the
    checkout linked beside it (the bundled rulesets are read from there)."""
    shutil.copytree(PACKAGE, into / "gnoming_rules", ignore=shutil.ignore_patterns(*COMPILED))
    for entry in ROOT.iterdir():
        if entry.name not in ("gnoming_rules", ".git", ".venv") and not entry.name.startswith("."):
            (into / entry.name).symlink_to(entry)
    target = into / "gnoming_rules" / mutant.path
    text = target.read_text(encoding="utf-8")
    count = text.count(mutant.old)
    if count != 1:
        raise ValueError(f"{mutant.name}: the text to change occurs {count} times in {mutant.path}")
    target.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")
    return into


def run(mutant: Mutant, timeout: float) -> Outcome:
    with tempfile.TemporaryDirectory(prefix=f"gnoming-mutant-{mutant.name}-") as folder:
        copy = mutated_copy(mutant, Path(folder))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(copy), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        env.setdefault("HYPOTHESIS_PROFILE", "ci")
        pytest = Path(sys.executable).parent / "pytest"
        command = [str(pytest), "-x", "-q", "-p", "no:cacheprovider", *mutant.tests]
        where = subprocess.run(
            [sys.executable, "-c", "import gnoming_rules; print(gnoming_rules.__file__)"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=folder,
        ).stdout.strip()
        if not where.startswith(str(copy)):
            return Outcome(mutant, "error", 0.0, f"the copy is not what imports: {where}")
        start = time.perf_counter()
        try:
            done = subprocess.run(
                command,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=ROOT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Outcome(mutant, "timeout", time.perf_counter() - start, "")
        seconds = time.perf_counter() - start
    tail = (done.stdout.strip().splitlines() or [""])[-1]
    status = {0: "survived", 1: "killed"}.get(done.returncode, "error")
    return Outcome(mutant, status, seconds, tail if status != "error" else done.stdout[-2000:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="NAME")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds a kill may take")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before giving up")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    if args.list:
        for mutant in chosen:
            print(f"{mutant.layer:22} {mutant.name:42} {mutant.bug}")
        return 0
    outcomes: list[Outcome] = []
    for mutant in chosen:
        outcome = run(mutant, args.timeout)
        outcomes.append(outcome)
        print(
            f"{outcome.status:8} {outcome.seconds:6.1f}s  {mutant.layer:22} {mutant.name}",
            flush=True,
        )
        if outcome.status == "error":
            print(outcome.detail, file=sys.stderr)
    killed = [o for o in outcomes if o.status == "killed"]
    slow = [o for o in killed if o.seconds > args.budget]
    print(
        f"killed {len(killed)} of {len(outcomes)} ({len(killed) / max(1, len(outcomes)):.0%}); "
        f"{len(slow)} took longer than {args.budget:.0f} s; "
        f"slowest kill {max((o.seconds for o in killed), default=0.0):.1f} s"
    )
    return 0 if len(killed) == len(outcomes) and not slow else 1


if __name__ == "__main__":
    sys.exit(main())
