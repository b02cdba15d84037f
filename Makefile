# Two commands take a fresh machine to a working state: `make demo` and `make test`
# (`make test` includes the strict docs build; `make docs` alone builds site/).
# Each creates .venv if missing and installs the project into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint typecheck docs pytest fuzz bench bench-records bench-adapters golden schemas examples pictures clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,dask,stats,rl]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gnoming play --players 4 --seed 2026 --out examples/demo-game.json
	$(BIN)/gnoming validate examples/demo-game.json

test: lint typecheck docs pytest

LINTED := gnoming_rules tests benchmarks examples docs/_ext

lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

typecheck: $(STAMP)
	$(BIN)/mypy

# The docs site (MkDocs + Material + mkdocstrings) into site/; --strict turns warnings into errors.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# Hypothesis profiles live in tests/conftest.py: ci is derandomized (same examples every run).
pytest: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest

# A long fuzzing run (hours): many more examples, random seeds, failures kept in .hypothesis/.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=thorough $(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

# Moves validated per second, end to end (read, parse, replay, claims), one core and --jobs 2.
bench-records: $(STAMP)
	$(BIN)/python benchmarks/records.py

# Steps/s of the PettingZoo, OpenSpiel and Gymnasium adapters, beside PettingZoo's
# classic card games (leduc and Texas hold'em, which need rlcard: the rl-bench extra).
bench-adapters: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,rl-bench]'
	$(BIN)/python benchmarks/adapters.py

# Regenerated files: each is checked by a test that fails when it is out of date.
golden: $(STAMP)
	$(BIN)/python tests/golden_cases.py

schemas: $(STAMP)
	$(BIN)/python -m gnoming_rules.formats.schemas schemas
	$(BIN)/python -m gnoming_rules.formats.field_table docs/house-rules.md

examples: $(STAMP)
	$(BIN)/python examples/make_examples.py

# The SVG pictures of the docs (worked examples, refused records), drawn by gnoming_rules.pictures.
pictures: $(STAMP)
	$(BIN)/python docs/_ext/pictures.py docs/pictures

clean:
	rm -rf $(VENV) build dist site .mypy_cache .ruff_cache .pytest_cache
