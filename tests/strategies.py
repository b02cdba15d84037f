"""The suite's strategies: those of :mod:`gnoming_rules.testing`, re-exported in one place."""

from gnoming_rules.testing import (
    GameSetup,
    PlayedGame,
    candidate_moves,
    deals,
    game_setups,
    invalid_rulesets,
    layouts,
    move_cap,
    moves_to_try,
    play_randomly,
    played_games,
    ruleset_overrides,
    rulesets,
    standard_ruleset,
    variant,
)

__all__ = [
    "GameSetup",
    "PlayedGame",
    "candidate_moves",
    "deals",
    "game_setups",
    "invalid_rulesets",
    "layouts",
    "move_cap",
    "moves_to_try",
    "play_randomly",
    "played_games",
    "ruleset_overrides",
    "rulesets",
    "standard_ruleset",
    "variant",
]
