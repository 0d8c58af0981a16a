# Two commands set everything up on a fresh machine with python3 >= 3.11:
#   make run    create .venv, install cardroom, run the bad-beat example job
#   make test   create .venv, install cardroom with its test tools, lint and run every test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
JOB ?= examples/bad_beat.toml

.PHONY: run test lint bench clean

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
	$(BIN)/cardroom run $(JOB)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-bench
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
