# Two commands take a fresh machine to a working state: `make demo` and `make test`
# (`make test` includes the strict docs build; `make docs` alone builds site/).
# Each creates .venv if missing and installs the project into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint typecheck docs pytest bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gnoming play --players 4 --seed 2026 --out examples/demo-game.json
	$(BIN)/gnoming validate examples/demo-game.json

test: lint typecheck docs pytest

lint: $(STAMP)
	$(BIN)/ruff check gnoming_rules tests docs/_ext $(wildcard benchmarks)
	$(BIN)/ruff format --check gnoming_rules tests docs/_ext $(wildcard benchmarks)

typecheck: $(STAMP)
	$(BIN)/mypy

# The docs site (MkDocs + Material + mkdocstrings) into site/; --strict turns warnings into errors.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build dist site .mypy_cache .ruff_cache .pytest_cache
