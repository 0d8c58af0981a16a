# Two commands set everything up on a fresh machine with python3 >= 3.11:
#   make run    create .venv, install cardroom, start the service, run the bad-beat example
#               job through it with a progress bar, print the result, stop the service
#   make test   create .venv, install cardroom with its test tools, lint and run every test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
JOB ?= examples/bad_beat.toml

.PHONY: run test lint bench tools clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "cardroom needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(BIN)/python -m service.local_run $(JOB)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-bench
	$(BIN)/python bench/run.py
	$(BIN)/python bench/bench_rankings_low.py
	$(BIN)/python bench/bench_rankings_high.py
	$(BIN)/python bench/bench_service.py
	$(BIN)/python bench/bench_store.py
	$(BIN)/python bench/bench_engine.py

# The end-to-end tests also use buf (npm) and Prometheus (Debian); .ci/run installs both.
tools:
	command -v prometheus >/dev/null || (apt-get update -q && apt-get install -y -q --no-install-recommends prometheus)
	test -x .tools/node_modules/.bin/buf || npm install --prefix .tools --silent --no-audit --no-fund @bufbuild/buf@1.75.0

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
