"""gnoming-rules: a referee for the card game Gnoming A Round.

Quick start::

    import random
    import gnoming_rules as gr

    rules = gr.load_ruleset("standard")
    rng = random.Random(7)
    state = gr.new_game(rules, players=4, first_player=0)
    move: gr.Move  # a chance event or a player's move
    while not state.is_over:
        if state.is_chance:
            move = gr.sample_chance(rules, state, rng)   # a deal or a reshuffle
        else:
            move = rng.choice(gr.legal_moves(rules, state))
        state = gr.apply(rules, state, move)
    print(state.totals, state.winners)

Everything here is pure: ``apply`` returns a new :class:`State` and never changes its
inputs; refusals raise :class:`IllegalMove` with a stable ``code`` and the ``rule`` number.

This namespace is the core: rulesets, the state, the moves, the engine
(``apply``, ``legal_moves``, ``sample_chance``, ``is_legal``, ``explain``), scoring, card
faces and the families of errors. The rest lives in subpackages, each with its own
``__all__``:

- ``gnoming_rules.core``: the whole core, including what is not repeated here (the
  move entries of a record, ``round_first_player``, the typed error codes, the score
  breakdown's parts and the narrower errors ``LayoutError`` and ``DuplicateKeyError``);
- ``gnoming_rules.formats``: game records (``Record``, ``read_record``,
  ``parse_record``, ``write_record``, ``dump_record``) and saved states
  (``state_to_dict``, ``state_from_dict``);
- ``gnoming_rules.referee``: validation (``validate_file``, ``validate_record``,
  ``Verdict``, ``replay_file``, ``RulesetResolver``, ...); the batch helpers are in
  ``gnoming_rules.referee.batch``;
- ``gnoming_rules.play``: bots (``RandomBot``, ``GreedyBot``, ``play_game``), the
  ``Recorder`` and a seat's view (``observe``, ``Observation``);
- ``gnoming_rules.adapters``, ``gnoming_rules.corpus``, ``gnoming_rules.pictures`` and
  ``gnoming_rules.testing``: the optional extras, imported only from their own modules.

Game records (docs/record-format.md)::

    from gnoming_rules.formats import dump_record, parse_record
    from gnoming_rules.play import play_game
    from gnoming_rules.referee import validate_file, validate_record

    record, final = play_game(rules, players=4, seed=7)  # bots play, claims written
    text = dump_record(record)                           # JSON, one move per line
    verdict = validate_record(parse_record(text))        # the verdict
    print(verdict.to_json())
    verdict = validate_file("examples/demo-game.json")   # the same, from a file
"""

from .core import engine as _engine
from .core.cards import HAZARD, MULLIGAN, Face
from .core.engine import apply, explain, is_legal, legal_moves, new_game, sample_chance
from .core.errors import (
    ERROR_CODES,
    GnomingError,
    IllegalMove,
    RecordError,
    RulesetError,
    StateError,
    UnreadableYamlError,
    UsageError,
)
from .core.moves import (
    Bounce,
    Deal,
    Discard,
    Draw,
    Flip,
    Knock,
    Move,
    Pass,
    Peek,
    Place,
    PlayerMove,
    Reshuffle,
    Reveal,
    Swap,
)
from .core.ruleset import Ruleset
from .core.scoring import score_breakdown, score_layout, score_visible
from .core.state import Phase, State
from .formats.rulesets import bundled_rulesets, load_ruleset

__version__ = "0.1.0"

COMPILED: bool = not (_engine.__file__ or ".py").endswith(".py")
"""True when the engine runs compiled by mypyc, False for the pure-Python source (the
wheel's build hook decides: ``GNOMING_PURE_PYTHON=1``, an editable install or a machine
without a C compiler give the pure one; docs/install.md). ``gnoming --version`` says it too."""

__all__ = [
    "ERROR_CODES",
    "HAZARD",
    "MULLIGAN",
    "Bounce",
    "Deal",
    "Discard",
    "Draw",
    "Face",
    "Flip",
    "GnomingError",
    "IllegalMove",
    "Knock",
    "Move",
    "Pass",
    "Peek",
    "Phase",
    "Place",
    "PlayerMove",
    "RecordError",
    "Reshuffle",
    "Reveal",
    "Ruleset",
    "RulesetError",
    "State",
    "StateError",
    "Swap",
    "UnreadableYamlError",
    "UsageError",
    "apply",
    "bundled_rulesets",
    "explain",
    "is_legal",
    "legal_moves",
    "load_ruleset",
    "new_game",
    "sample_chance",
    "score_breakdown",
    "score_layout",
    "score_visible",
]
