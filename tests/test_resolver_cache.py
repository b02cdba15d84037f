"""The resolver's cache of rulesets is bounded (an LRU of ``CACHE_SIZE``): a validator fed
records that each carry another inline ruleset does not grow without end."""

from __future__ import annotations

from gnoming_rules.referee.resolver import CACHE_SIZE, RulesetResolver


def _inline(rounds: int) -> dict[str, object]:
    return {"extends": "standard", "name": f"short-{rounds}", "rounds": rounds}


def test_inline_rulesets_are_kept_up_to_the_cache_size_the_last_used_first() -> None:
    resolver = RulesetResolver(cache_size=3)
    first = resolver.resolve(_inline(1))
    assert resolver.resolve(_inline(1)) is first  # cached
    for rounds in range(2, 12):
        resolver.resolve(_inline(rounds))
        assert resolver.cached <= 3
        assert resolver.resolve(_inline(1)) is not None  # used again: stays the most recent
    assert resolver.cached == 3
    assert resolver.resolve(_inline(1)).rounds == 1
    again = resolver.resolve(_inline(2))  # forgotten long ago: read afresh, a new object
    assert again.rounds == 2 and resolver.cached == 3


def test_the_least_recently_used_ruleset_is_the_one_forgotten() -> None:
    resolver = RulesetResolver(cache_size=2)
    one, two = resolver.resolve(_inline(1)), resolver.resolve(_inline(2))
    assert resolver.resolve(_inline(1)) is one  # 2 is now the least recently used
    resolver.resolve(_inline(3))
    assert resolver.resolve(_inline(1)) is one
    assert resolver.resolve(_inline(2)) is not two


def test_the_default_cache_size_is_documented_and_bounds_the_default_resolver() -> None:
    resolver = RulesetResolver()
    assert resolver.cache_size == CACHE_SIZE == 256
    for rounds in range(1, 60):
        for players in (3, 4, 5, 6, 7):
            resolver.resolve({**_inline(rounds), "players": {"min": 3, "max": players}})
    assert resolver.cached == CACHE_SIZE
