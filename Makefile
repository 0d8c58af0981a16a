# Two commands set everything up on a fresh machine with python3 >= 3.11:
#   make run    create .venv, install cardroom, start the service, run the bad-beat example
#               job through it with a progress bar, print the result, stop the service
#   make test   create .venv, install cardroom with its test tools, lint and run every test
# make test compiles the engine's hot modules and the PHH replay's first (make compile; make
# pure runs plain Python); make run does not, as the bad-beat job never plays a hand through
# the engine (its kernels are numba's), unless a build is already there to keep fresh.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
JOB ?= examples/bad_beat.toml

.PHONY: run test lint docs bench bench-quick mutate tools compile pure clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "cardroom needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-compile: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[compile]'
	touch $(VENV)/.installed $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,compile]'
	touch $(VENV)/.installed $(VENV)/.installed-compile $@

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[bench,compile]'
	touch $(VENV)/.installed $(VENV)/.installed-compile $@

# mypyc (simulations/engine/compiled.py): extension modules beside the sources, rebuilt
# whenever a source of the engine or of the PHH replay changes; both refuse to import a
# stale build.
COMPILED_SOURCES := $(wildcard simulations/engine/*.py simulations/phh/*.py) setup.py
COMPILED_STAMP := simulations/engine/.compiled

$(COMPILED_STAMP): $(COMPILED_SOURCES) | $(VENV)/.installed-compile
	CARDROOM_COMPILE=1 $(BIN)/python setup.py --quiet build_ext --inplace --force
	touch $@

compile: $(COMPILED_STAMP)

pure:
	rm -f $(COMPILED_STAMP) simulations/engine/*.so simulations/engine/*.pyd
	rm -f simulations/phh/*.so simulations/phh/*.pyd
	rm -f simulations/verify/*.so simulations/verify/*.pyd

# A build already in the tree is rebuilt first when stale (an old build is refused at import).
run: $(VENV)/.installed $(if $(wildcard simulations/engine/*.so simulations/engine/*.pyd),$(COMPILED_STAMP))
	$(BIN)/python -m service.local_run $(JOB)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The suite on every core (pytest-xdist: a worker that runs out of tests takes some queued
# for another); PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= auto

test: lint $(COMPILED_STAMP)
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal --durations=25

# Every benchmark the documentation shows, one after another (bench/report.py, bench/README.md):
# writes bench/results/report.json and report.md and rewrites the benchmark tables of
# docs/benchmarks.md and docs/operations.md from them.  QUICK=1 runs each in its smoke mode, to check the harness in minutes; its report
# says so.  Run it on a quiet machine: the report gives the load around each section.
QUICK ?=
bench: $(VENV)/.installed-bench $(COMPILED_STAMP)
	$(BIN)/python bench/report.py run $(if $(QUICK),--quick)
	$(BIN)/python bench/report.py docs

# The documentation site (mkdocs.yml, docs/) into build/site, strictly: a broken link or
# anchor stops it.  The game catalogue (docs/games.md) is generated first from the registry.
docs: $(VENV)/.installed-test
	$(BIN)/python -m service.games_page
	$(BIN)/mkdocs build --strict --site-dir build/site

bench-quick:
	$(MAKE) bench QUICK=1

# Mutation testing (docs/mutation.md): mutmut mutates the engine's betting, pots, settlement,
# dealing and showdown modules ([tool.mutmut] in pyproject.toml) and runs the scenario corpus
# against every mutant.  A mutant of a compiled module would never run, so the run works on
# a copy of the tree without the compiled build (build/mutation); the build in the working
# tree is neither used nor changed.  Prints the score per module; 30 to 95 minutes on 2 cores
# (docs/mutation.md gives each run's time and the machine's load).
mutate: $(VENV)/.installed-test
	test -x $(BIN)/mutmut || $(BIN)/python -m pip install --quiet -e '.[test,mutate]'
	$(BIN)/python bench/mutation.py run

# The end-to-end tests also use buf (npm), Prometheus and promtool (Debian's prometheus) and
# PostgreSQL (Debian's, a server the store tests start themselves; no cluster is created at
# install), and the manifest tests kubectl (1.27 or newer, for its kustomize; the machine
# image has it); .ci/run installs them and requires them.
tools:
	command -v prometheus >/dev/null || (apt-get update -q && apt-get install -y -q --no-install-recommends prometheus)
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (mkdir -p /etc/postgresql-common \
		&& echo "create_main_cluster = false" >> /etc/postgresql-common/createcluster.conf \
		&& apt-get update -q && apt-get install -y -q --no-install-recommends postgresql)
	command -v kubectl >/dev/null || echo "kubectl not found: tests/test_k8s.py needs kubectl 1.27 or newer"
	test -x .tools/node_modules/.bin/buf || npm install --prefix .tools --silent --no-audit --no-fund @bufbuild/buf@1.75.0

clean: pure
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find . -name __pycache__ -prune -exec rm -rf {} +
