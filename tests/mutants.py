"""Source-level planted bugs: the list ``make mutation`` measures the suite's strength with.

Each :class:`Mutant` is one small, realistic edit of one library file (the kind a tired
hand makes: a comparison loosened, a case dropped, a check skipped), the layer it breaks,
and the test files that should catch it. ``tests/mutation.py`` applies each edit to a
temporary copy of the package, runs those tests against the copy, and reports whether they
failed (the mutant is killed) and how long that took; the working tree is never touched.

Source edits, unlike the monkeypatches of ``planted_bugs.py``, also reach private helpers
and still work when the core is compiled (the copy leaves compiled modules out, so the
edited source is what runs). ``tests/test_mutants.py`` checks that every edit still
applies: each ``old`` text occurs exactly once in its file.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    """``old`` replaced by ``new`` in ``path`` (relative to ``gnoming_rules/``)."""

    name: str
    layer: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    """The test files or node ids run against the mutant (``pytest -x``)."""
    bug: str
    """The bug in words."""


MUTANTS: tuple[Mutant, ...] = (
    # --- claims ---
    Mutant(
        "scores_compared_as_sets",
        "claims",
        "referee/validate.py",
        "if claimed is not None and tuple(claimed) != scored:",
        "if claimed is not None and sorted(claimed) != sorted(scored):",
        ("tests/test_claims.py",),
        "A round's scores claim is compared without its seats: right numbers on the wrong "
        "seats pass",
    ),
    Mutant(
        "winners_subset_passes",
        "claims",
        "referee/validate.py",
        "set(result.winners) != set(state.winners)",
        "not set(result.winners) <= set(state.winners)",
        ("tests/test_claims.py",),
        "A winners claim that leaves out a real winner passes",
    ),
    Mutant(
        "no_winners_is_no_claim",
        "claims",
        "referee/validate.py",
        "if result.winners is not None and set(",
        "if result.winners and set(",
        ("tests/test_claims.py",),
        "`winners: []` is read as no claim",
    ),
    # --- scoring: going out (8.6) ---
    Mutant(
        "strictly_lowest_misses_the_bonus",
        "scoring bonus",
        "core/rules/round_end.py",
        "else mine < min(others)",
        "else mine == min(others)",
        ("tests/test_going_out_bonus.py",),
        "With ties not counting as lowest, only a tie gets the bonus: the strictly lowest "
        "seat out gets the penalty",
    ),
    Mutant(
        "tie_rules_swapped",
        "scoring bonus",
        "core/rules/round_end.py",
        "mine <= min(others) if rules.ties_count_as_lowest else mine < min(others)",
        "mine < min(others) if rules.ties_count_as_lowest else mine <= min(others)",
        ("tests/test_going_out_bonus.py",),
        "The two tie rules of going out are swapped",
    ),
    # --- redact ---
    Mutant(
        "final_on_an_unfinished_round",
        "redact",
        "referee/redact.py",
        "if len(state.scores) > index:",
        "if len(state.scores) >= index:",
        ("tests/test_redact_unfinished.py",),
        "A round that stops mid-way gets a `final`: every face-down card named",
    ),
    Mutant(
        "refused_move_names_the_card_there",
        "redact",
        "referee/redact.py",
        "        and state.is_face_up(player, slot)\n",
        "",
        ("tests/test_redact_unfinished.py",),
        "A move refused at a face-down card names that card in the public form",
    ),
    Mutant(
        "refused_move_keeps_its_true_claim",
        "redact",
        "referee/redact.py",
        'if not keep_card or public["action"] == "peek" or (down and deck_draw):\n'
        '        public.pop("card", None)',
        'if not keep_card or public["action"] == "peek" or (down and deck_draw):\n        pass',
        ("tests/test_redact_unfinished.py",),
        "A move refused for a rule keeps its card claim: a face-down card or the draw "
        "pile's top, named",
    ),
    # --- observation ---
    Mutant(
        "drawn_card_shown_while_a_reshuffle_is_due",
        "observation",
        "play/observation.py",
        "and (state.phase is Phase.PLACE or state.phase is Phase.RESHUFFLE)",
        "and state.phase is Phase.PLACE",
        ("tests/test_observation_reshuffle.py",),
        "While a reshuffle is due, every seat sees the card just drawn from the draw pile",
    ),
    # --- Gymnasium truncation ---
    Mutant(
        "truncated_one_move_late",
        "gymnasium truncation",
        "adapters/table.py",
        "return self.moves >= self.move_limit and not self.state.is_over",
        "return self.moves > self.move_limit and not self.state.is_over",
        ("tests/test_adapters_gymnasium_truncation.py",),
        "An episode is truncated one move after `move_limit`",
    ),
    Mutant(
        "bots_play_past_the_limit",
        "gymnasium truncation",
        "adapters/gymnasium_env.py",
        "while not table.state.is_over and not table.truncated:",
        "while not table.state.is_over:",
        ("tests/test_adapters_gymnasium_truncation.py",),
        "The bots go on playing after the move limit",
    ),
    # --- confinement ---
    Mutant(
        "sibling_folder_counts_as_inside",
        "confinement",
        "formats/rulesets.py",
        "path.startswith(folder.rstrip(os.sep) + os.sep)",
        "path.startswith(folder.rstrip(os.sep))",
        ("tests/test_confinement.py",),
        "`records-evil/` beside `records/` counts as inside it",
    ),
    Mutant(
        "symlinks_not_checked",
        "confinement",
        "formats/rulesets.py",
        "if folders is not None and not any(_inside(str(real), str(path)) for _, real in folders):",
        "if False:",
        ("tests/test_confinement.py",),
        "The path is checked as written only: a symlink inside the folder leads out",
    ),
    # --- setup rotation ---
    Mutant(
        "reveals_end_at_round_0s_starter",
        "setup rotation",
        "core/rules/setup.py",
        "starter = rules.first_player_of_round(first, rnd, players)",
        "starter = rules.first_player_of_round(first, 0, players)",
        ("tests/test_setup_rotation.py",),
        "The setup reveals of a later round end at round 0's first player",
    ),
    Mutant(
        "deal_ignores_the_rotation",
        "setup rotation",
        "core/rules/setup.py",
        "first_player_of_round(state.first_player, state.round, players)",
        "first_player_of_round(state.first_player, 0, players)",
        ("tests/test_setup_rotation.py",),
        "Every round's reveals start with round 0's first player",
    ),
    # --- engine ---
    Mutant(
        "last_card_not_spared",
        "engine",
        "core/rules/hazards.py",
        "least = 2 if rules.spare_last_card else 1",
        "least = 1",
        ("tests/test_rules_6_hazards.py",),
        "A player with one face-down card owes a flip after a hazard (6.2 ignored)",
    ),
    Mutant(
        "one_round_too_many",
        "engine",
        "core/rules/round_end.py",
        "if len(scores) >= rules.rounds:",
        "if len(scores) > rules.rounds:",
        ("tests/test_rules_2_players_rounds_layout.py",),
        "The game goes on for one round more than the ruleset says",
    ),
    Mutant(
        "later_seat_out_takes_the_bonus",
        "engine",
        "core/rules/round_end.py",
        "if went_out is None and face_up[seat] == rules.full_mask and not rules.placed_down:",
        "if face_up[seat] == rules.full_mask and not rules.placed_down:",
        ("tests/test_rules_8_end_and_scoring.py",),
        "A seat that turns its last card up after someone went out counts as the one out",
    ),
    # --- records ---
    Mutant(
        "pileless_number_discard_is_a_rule_error",
        "records",
        "referee/validate.py",
        "if type(refusal) is PileError:",
        "if False:",
        (
            "tests/test_record_properties.py::"
            "test_a_reordered_deal_that_turns_a_hazard_into_a_number_is_a_bad_record",
            "tests/test_validate.py",
        ),
        "A number card's discard with no pile is reported as the engine's `wrong-pile`",
    ),
    Mutant(
        "bounce_claims_nothing",
        "records",
        "core/entries.py",
        "_SHOWS_HELD: Final = frozenset({Draw, Place, Bounce})",
        "_SHOWS_HELD: Final = frozenset({Draw, Place})",
        (
            "tests/test_claims.py::test_a_bounces_card_claim_is_written_and_checked",
            "tests/test_entries.py",
        ),
        "A bounce's card claim (the card it displaced) is never written nor checked",
    ),
)
"""Every mutant ``make mutation`` runs (docs/testing.md, "Mutation")."""
