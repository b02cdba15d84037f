"""A bot for the bot protocol (docs/bot-protocol.md) in plain Python: it plays a random legal move.

Run by the referee as ``python examples/bots/random_bot.py``: it reads one JSON message
a line on standard input and answers each ``decide`` with one line, one of its ``legal``
entries. It needs nothing but the standard library (not even gnoming-rules).
"""

from __future__ import annotations

import json
import random
import sys


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            rng.seed(message["seed"])  # the referee's seed: the same game replays the same
        elif message["type"] == "decide":
            print(json.dumps(rng.choice(message["legal"])), flush=True)
        elif message["type"] == "end":
            return


if __name__ == "__main__":
    main()
