# Two commands take a fresh machine to a working state: `make demo` and `make test`
# (`make test` includes the strict docs build; `make docs` alone builds site/).
# Each creates .venv if missing and installs the project into it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test check lint typecheck docs pytest compiled order mutation fuzz bench bench-records bench-adapters bench-bots bench-anchors bench-server golden schemas examples pictures clean

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,dask,stats,rl,rl-train,bench,server]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gnoming play --players 4 --seed 2026 --out examples/demo-game.json
	$(BIN)/gnoming validate examples/demo-game.json

test: lint typecheck docs pytest order

# The edit-test loop (about a minute): lint, types and the fast tests, the files below with
# Hypothesis's dev profile; `make test` stays the full suite. A test file joins the list
# when it runs in seconds (the rules, records, verdicts, rulesets, views, escaping).
CHECK_TESTS := $(addprefix tests/test_,rules_1_cards rules_2_players_rounds_layout \
	rules_3_setup rules_4_turn rules_5_bouncing rules_6_hazards rules_7_mulligans \
	rules_8_end_and_scoring rules_9_winning entries record record_problems validate \
	examples ruleset_loading ruleset_refusals snapshot observation render rulebook \
	refusal_evidence explain scoring_input views markup_escaping safe_yaml yaml_dialect \
	public_records engine_misuse)
check: lint typecheck
	HYPOTHESIS_PROFILE=dev $(BIN)/pytest $(addsuffix .py,$(CHECK_TESTS))

LINTED := gnoming_rules tests benchmarks examples docs/_ext hatch_build.py

lint: $(STAMP)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

typecheck: $(STAMP)
	$(BIN)/mypy

# The docs site (MkDocs + Material + mkdocstrings) into site/; --strict turns warnings into errors.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The compiled core (docs/install.md): the wheel that hatch_build.py builds with mypyc,
# unpacked into build/compiled. .venv keeps the editable install, which is pure Python.
COMPILED := build/compiled

$(COMPILED)/.built: $(STAMP) pyproject.toml hatch_build.py $(shell find gnoming_rules -name '*.py')
	rm -rf $(COMPILED) build/wheels
	nice $(BIN)/python -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir build/wheels .
	$(BIN)/python -m pip install --quiet --no-deps --target $(COMPILED) build/wheels/gnoming_rules-*.whl
	touch $@

compiled: $(COMPILED)/.built

# Hypothesis profiles live in tests/conftest.py: ci is derandomized (same examples every run).
# The whole suite runs on the compiled core (PYTHONPATH first; PYTHONSAFEPATH keeps the
# source tree off sys.path of `python -m gnoming_rules` too), then the rule and property
# tests, and the planted bugs, which patch the engine's seams, on the pure-Python source.
# Both passes run on PYTEST_WORKERS processes (pytest-xdist; the suite is order-independent,
# which `make order` checks): `make test PYTEST_WORKERS=0` runs them in this process.
PYTEST_WORKERS ?= 2
PURE_TESTS := tests/test_build.py tests/test_state.py tests/test_rules_*.py tests/test_*_properties.py \
	tests/test_engine_machine.py tests/test_planted_bugs.py tests/test_docstring_examples.py

pytest: $(STAMP) $(COMPILED)/.built
	GNOMING_EXPECT_BUILD=compiled PYTHONSAFEPATH=1 PYTHONPATH=$(abspath $(COMPILED)) \
		HYPOTHESIS_PROFILE=ci $(BIN)/pytest -n $(PYTEST_WORKERS)
	GNOMING_EXPECT_BUILD=pure HYPOTHESIS_PROFILE=ci $(BIN)/pytest -n $(PYTEST_WORKERS) $(PURE_TESTS)

# A tenth of the suite in a shuffled order (fixed seed): a test that passes only after, or
# before, another fails here (tests/conftest.py's --shuffle and --sample; docs/testing.md).
ORDER_SEED ?= 24
order: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest -p no:cacheprovider --shuffle $(ORDER_SEED) --sample 0.1

# The suite's strength: each planted source bug of tests/mutants.py applied to a temporary
# copy of the package, its targeted tests run against it; prints the kill rate and the time
# each kill took (docs/testing.md, "Mutation"). Long: run it niced, not in make test.
mutation: $(STAMP)
	nice $(BIN)/python tests/mutation.py

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

# The playout, validation and adapters beside OpenSpiel's C++ card games and python-chess
# (issue 20's targets), on the compiled core, then on the pure one.
bench-anchors: $(STAMP) $(COMPILED)/.built
	PYTHONSAFEPATH=1 PYTHONPATH=$(abspath $(COMPILED)) $(BIN)/python benchmarks/anchors.py
	$(BIN)/python benchmarks/anchors.py

# Load on one gnoming serve process: 200 tables of bot clients over WebSockets on loopback, 20 s,
# paced at 2,000 moves/s, then unpaced (the most it does), then at 500 moves/s while tables
# of eight bots are created one after another; SQLite, and PostgreSQL too when
# GNOMING_POSTGRES_URL is set (export it from .ci/postgres.sh). docs/server.md, Load.
bench-server: $(STAMP)
	$(BIN)/python benchmarks/server.py --tables 200 --seconds 20 --rate 2000
	$(BIN)/python benchmarks/server.py --tables 200 --seconds 20 --rate 0
	$(BIN)/python benchmarks/server.py --tables 200 --seconds 20 --rate 500 --bot-tables 2
	if [ -n "$$GNOMING_POSTGRES_URL" ]; then \
		$(BIN)/python benchmarks/server.py --tables 200 --seconds 20 --db "$$GNOMING_POSTGRES_URL"; fi

# The search bot's win rates against the greedy and random bots (200 games a pairing at
# 50 ms a decision, in two processes, on the compiled core: about 25 minutes on a loaded
# 2-core machine).
bench-bots: $(STAMP) $(COMPILED)/.built
	PYTHONSAFEPATH=1 PYTHONPATH=$(abspath $(COMPILED)) nice $(BIN)/python benchmarks/bots.py --jobs 2

# Regenerated files: each is checked by a test that fails when it is out of date.
golden: $(STAMP)
	$(BIN)/python tests/golden_cases.py

schemas: $(STAMP)
	$(BIN)/python -m gnoming_rules.cli.schemas schemas
	$(BIN)/python -m gnoming_rules.formats.field_table docs/house-rules.md

examples: $(STAMP)
	$(BIN)/python examples/make_examples.py

# The SVG pictures of the docs (worked examples, refused records), drawn by gnoming_rules.pictures.
pictures: $(STAMP)
	$(BIN)/python docs/_ext/pictures.py docs/pictures

clean:
	rm -rf $(VENV) build dist site .mypy_cache .ruff_cache .pytest_cache
