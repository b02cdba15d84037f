"""``python -m gnoming_rules``: the ``gnoming`` command line."""

from .cli import main

__all__: list[str] = []

if __name__ == "__main__":  # not when a worker process (multiprocessing spawn) imports it
    raise SystemExit(main())
