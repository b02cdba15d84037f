# Two commands take a fresh machine to a working state: `make demo` and `make test`.
# Each creates .venv if missing and installs the project into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint typecheck pytest fuzz bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gnoming play --players 4 --seed 2026 --out examples/demo-game.json
	$(BIN)/gnoming validate examples/demo-game.json

test: lint typecheck pytest

LINTED := gnoming_rules tests $(wildcard benchmarks)

lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

typecheck: $(STAMP)
	$(BIN)/mypy

# Hypothesis profiles live in tests/conftest.py: ci is derandomized (same examples every run).
pytest: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest

# A long fuzzing run (hours): many more examples, random seeds, failures kept in .hypothesis/.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=thorough $(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build dist .mypy_cache .ruff_cache .pytest_cache
