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

Game records (RECORD.md)::

    record, final = gr.play_game(rules, players=4, seed=7)  # bots play, claims written
    text = gr.dump_record(record)                           # JSON, one move per line
    verdict = gr.validate_record(gr.parse_record(text))     # RECORD.md's verdict
    print(verdict.to_json())
    verdict = gr.validate_file("examples/demo-game.json")   # the same, from a file
"""

from .core.cards import HAZARD, MULLIGAN, Face, face_from_text, face_text, is_face, is_positive
from .core.engine import (
    apply,
    explain,
    is_legal,
    legal_moves,
    new_game,
    round_first_player,
    sample_chance,
)
from .core.entries import (
    CLAIM_VERBS,
    Malformed,
    MoveTable,
    card_claim,
    move_from_entry,
    move_to_entry,
    read_entry,
)
from .core.errors import (
    ERROR_CODES,
    INPUT_ERROR_CODES,
    LIBRARY_CODES,
    ClaimCode,
    DuplicateKeyError,
    ErrorCode,
    GnomingError,
    IllegalMove,
    InputCode,
    LayoutError,
    LibraryCode,
    RecordError,
    RuleCode,
    RulesetError,
    StateError,
    UnreadableYamlError,
    UsageError,
    VerdictCode,
)
from .core.moves import (
    Bounce,
    ChanceEvent,
    Deal,
    Discard,
    Draw,
    Flip,
    Move,
    Place,
    PlayerMove,
    Reshuffle,
    Reveal,
)
from .core.ruleset import Ruleset, bundled_rulesets, load_ruleset
from .core.scoring import (
    CardScore,
    ScoreBreakdown,
    SetLine,
    score_breakdown,
    score_layout,
    score_visible,
)
from .core.state import Phase, State
from .formats.record import Record, dump_record, parse_record, read_record, write_record
from .formats.snapshot import STATE_FORMAT, state_from_dict, state_to_dict
from .play.bots import Bot, BotKind, GreedyBot, RandomBot, play_game
from .play.observation import Observation, observe
from .play.recorder import Recorder
from .referee.resolver import RulesetResolver
from .referee.validate import (
    Replay,
    Verdict,
    VerdictError,
    engine_moves,
    replay_bytes,
    replay_file,
    replay_record,
    validate_file,
    validate_record,
)

__version__ = "0.1.0"

__all__ = [
    "CLAIM_VERBS",
    "ERROR_CODES",
    "HAZARD",
    "INPUT_ERROR_CODES",
    "LIBRARY_CODES",
    "MULLIGAN",
    "STATE_FORMAT",
    "Bot",
    "BotKind",
    "Bounce",
    "CardScore",
    "ChanceEvent",
    "ClaimCode",
    "Deal",
    "Discard",
    "Draw",
    "DuplicateKeyError",
    "ErrorCode",
    "Face",
    "Flip",
    "GnomingError",
    "GreedyBot",
    "IllegalMove",
    "InputCode",
    "LayoutError",
    "LibraryCode",
    "Malformed",
    "Move",
    "MoveTable",
    "Observation",
    "Phase",
    "Place",
    "PlayerMove",
    "RandomBot",
    "Record",
    "RecordError",
    "Recorder",
    "Replay",
    "Reshuffle",
    "Reveal",
    "RuleCode",
    "Ruleset",
    "RulesetError",
    "RulesetResolver",
    "ScoreBreakdown",
    "SetLine",
    "State",
    "StateError",
    "UnreadableYamlError",
    "UsageError",
    "Verdict",
    "VerdictCode",
    "VerdictError",
    "apply",
    "bundled_rulesets",
    "card_claim",
    "dump_record",
    "engine_moves",
    "explain",
    "face_from_text",
    "face_text",
    "is_face",
    "is_legal",
    "is_positive",
    "legal_moves",
    "load_ruleset",
    "move_from_entry",
    "move_to_entry",
    "new_game",
    "observe",
    "parse_record",
    "play_game",
    "read_entry",
    "read_record",
    "replay_bytes",
    "replay_file",
    "replay_record",
    "round_first_player",
    "sample_chance",
    "score_breakdown",
    "score_layout",
    "score_visible",
    "state_from_dict",
    "state_to_dict",
    "validate_file",
    "validate_record",
    "write_record",
]
