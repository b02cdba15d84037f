"""``python -m gnoming_rules``: the ``gnoming`` command line."""

from .cli import main

raise SystemExit(main())
