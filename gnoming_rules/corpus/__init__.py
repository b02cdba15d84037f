"""Corpora at scale: validation on a Dask cluster, statistics over a folder of records, and
what a change of rules does to the game.

Each submodule stands alone and imports its optional framework (``dask``, ``matplotlib``,
``pyarrow``, ``numpy``) only when it is used, so ``import gnoming_rules`` never does:

- :mod:`~gnoming_rules.corpus.distributed`: ``gnoming validate --dask`` (extra ``dask``);
- :mod:`~gnoming_rules.corpus.events`: what happened in one game, from one replay;
- :mod:`~gnoming_rules.corpus.stats`: ``gnoming stats`` (extra ``stats`` for plots and
  Parquet);
- :mod:`~gnoming_rules.corpus.impact`: ``gnoming impact`` (extra ``stats``).
"""

from __future__ import annotations

__all__: list[str] = []
