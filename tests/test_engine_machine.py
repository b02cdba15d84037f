"""Games played move by move by the stateful machine, every property checked each step."""

from hypothesis import settings
from machine import GameMachine

TestGameMachine = GameMachine.TestCase
# The machine is the widest net of the suite: it gets three times the profile's examples.
TestGameMachine.settings = settings(max_examples=3 * settings().max_examples)
