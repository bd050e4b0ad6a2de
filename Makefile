# Two commands for a fresh machine: `make run` (the main job) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
OUT ?= runs/quickstart

.PHONY: setup run test lint bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,parquet]"
	touch $@

run: setup
	$(BIN)/rumdiff solve data/examples/thesis-4.1.in --show
	mkdir -p $(OUT)
	$(BIN)/rumdiff solve data/examples/mixed-20.in --stats $(OUT)/solve-stats.csv
	@echo "per-puzzle time and work: $(OUT)/solve-stats.csv"

lint: setup
	$(BIN)/ruff check rumdiff tests experiments
	$(BIN)/ruff format --check rumdiff tests experiments

test: setup lint
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python experiments/bench_solver.py

clean:
	rm -rf $(VENV) runs .pytest_cache
