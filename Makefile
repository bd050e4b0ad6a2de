# Two commands for a fresh machine: `make run` (the main job) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
OUT ?= runs/quickstart
COUNT ?= 20000
SEED ?= 0
# Test processes: one a core (pytest-xdist), a test file to each, so that a file's
# fixtures are built once.
WORKERS ?= auto
PYTEST = -m pytest -q -n $(WORKERS) --dist loadfile

.PHONY: setup run default-model thesis-model joker-model test test-all test-floors lint bench clean

setup: $(VENV)/.installed $(VENV)/.kernels $(VENV)/.bytecode

# pip compiles what it installs to bytecode one file at a time, most of an install's time
# (54 s of CPU in a 61 s install here); compileall does it on every core, skipping what is
# compiled. Whatever it leaves uncompiled is compiled on import, as pip leaves a file that
# fails (so its failures do not stop the install, and its warnings are not shown).
pip = $(1) -m pip install --quiet --no-compile
bytecode = packages=$$($(1) -c 'import sysconfig; print(*sorted({sysconfig.get_path(p) for p in ("purelib", "platlib")}))') && $(1) -W ignore -m compileall -qq -j 0 $$packages || true

# What `make run` needs (rumdiff and the Parquet extra), then the rest of `make setup`:
# the test and Dask extras (with rumdiff as the editable install again, never by name,
# which a package index could answer with another project's).
$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(call pip,$(BIN)/python) --upgrade pip
	$(call pip,$(BIN)/python) -e ".[parquet]"
	$(call bytecode,$(BIN)/python)
	touch $@

# Python writes no bytecode where PYTHONDONTWRITEBYTECODE is set (CI machines, this one's
# shell): each process would compile rumdiff's own modules anew, which are no venv's
# package (an editable install). Compiled here, they load as bytecode (a command's own
# imports 0.46 s before, 0.21 s after, on a slow day: limits.md); a module edited since
# compiles on import, as usual.
SOURCES := $(shell find rumdiff -name '*.py')
own_bytecode = $(1) -W ignore -m compileall -qq -j 0 rumdiff || true

$(VENV)/.bytecode: $(VENV)/.runtime $(SOURCES)
	$(call own_bytecode,$(BIN)/python)
	touch $@

$(VENV)/.installed: $(VENV)/.runtime
	$(call pip,$(BIN)/python) -e ".[test,parquet,dask]"
	$(call bytecode,$(BIN)/python)
	touch $@

# numba checks a cached kernel against its own file only, but a kernel compiles in the
# kernels it calls from other files: after a change to those alone (an edit, a git pull)
# it would load its old machine code. So when any kernel module is newer than the last
# compile, this Python's kernel caches beside the sources are dropped and compiled anew
# (config.py too: kernels read its constants when they compile).
KERNELS := $(shell find rumdiff -name '_[!_]*.py') rumdiff/config.py
drop_kernels = find rumdiff -path '*/__pycache__/*' -name "*.$$($(1) -c 'import sys; print("py%d%d" % sys.version_info[:2])').*nb[ic]" -delete

$(VENV)/.kernels: $(VENV)/.runtime $(KERNELS)
	$(call drop_kernels,$(BIN)/python)
	$(BIN)/python -m rumdiff.cli.warmup
	touch $@

run: $(VENV)/.runtime $(VENV)/.kernels $(VENV)/.bytecode
	$(BIN)/rumdiff generate $(OUT)/dataset.parquet --count $(COUNT) --seed $(SEED) --resume
	$(BIN)/rumdiff train $(OUT)/dataset.parquet -o $(OUT)/report --seed $(SEED)
	$(BIN)/rumdiff predict data/examples/mixed-20.in --model $(OUT)/report/model.skops
	@$(BIN)/python -c "import json, sys; cv = json.load(open(sys.argv[1]))['cv']; print('10-fold CV: accuracy %.4f, macro-F1 %.4f' % (cv['accuracy'], cv['macro_f1']))" $(OUT)/report/model.skops.json
	@echo "report: $(OUT)/report/report.md (figures beside it)  model: $(OUT)/report/model.skops  dataset: $(OUT)/dataset.parquet"

# $(call ship,DIR,NAME): put the model rumdiff train wrote in DIR into models/NAME.skops,
# with its sidecar. Each file is copied beside its target, then renamed over it; should
# the two renames be split, loading refuses the pair (the sidecar holds the model's SHA-256).
define ship
	cp $(1)/model.skops models/.$(2).skops.new
	cp $(1)/model.skops.json models/.$(2).skops.json.new
	mv models/.$(2).skops.new models/$(2).skops
	mv models/.$(2).skops.json.new models/$(2).skops.json
endef

# The default model shipped in models/ (rumdiff predict uses it when given no --model):
# one model across families, trained on the mix of models/default-mix.txt (24 datasets,
# 52,200 puzzles with search labels and the scaled features; about 10 + 8 minutes on 2
# cores). docs/decisions/cross-family.md; `python experiments/cross_family.py` scores it
# per family, and with each group of families held out.
MIX := $(shell sed -n 's/^\([a-z0-9-][a-z0-9-]*\) .*/\1/p' models/default-mix.txt)
default-model: setup
	@grep -v '^#' models/default-mix.txt | while read name count options; do \
		$(BIN)/rumdiff generate data/generated/mix/$$name.parquet --count $$count $$options \
			--features scaled --resume -q || exit 1; done
	$(BIN)/rumdiff train $(MIX:%=data/generated/mix/%.parquet) --features scaled \
		--grid mix -o runs/default-model --seed 0
	$(call ship,runs/default-model,default)

# The thesis's model (rumdiff predict --model thesis): G(4, 2, 100) without jokers,
# 400,000 puzzles with search labels at that family's terciles, as the thesis's (about
# 15 + 6 minutes on 2 cores).
thesis-model: setup
	$(BIN)/rumdiff generate data/generated/thesis.parquet --count 400000 --seed 400 --resume --thresholds 2500000,5700000
	$(BIN)/rumdiff train data/generated/thesis.parquet -o runs/thesis-model --seed 0 --compare
	$(call ship,runs/thesis-model,thesis)

# A model of G(4, 2, 100) puzzles with two rack jokers (issue #22; not shipped): 8,000
# simplex puzzles labelled at their family's effort terciles (docs/decisions/joker-model.md).
joker-model: setup
	$(BIN)/rumdiff generate data/generated/jokers.parquet --mode simplex --jokers 2 --count 8000 --seed 22 --chunk-size 250 --thresholds 908000,4470000 --resume
	$(BIN)/rumdiff train data/generated/jokers.parquet -o runs/joker-model --seed 0

lint: setup
	$(BIN)/ruff check rumdiff tests experiments
	$(BIN)/ruff format --check rumdiff tests experiments

# The fast run (what CI runs): the solver against stored reference answers.
test: setup lint
	$(BIN)/python $(PYTEST)

# Everything, with the live reference solvers (ILP) and the largest cases.
test-all: setup lint
	$(BIN)/python $(PYTEST) -m "slow or not slow"

# The oldest versions pyproject.toml allows, on the oldest Python it allows (when this
# machine has it: on PATH, or installed by pyenv; else the default Python). pyparsing is capped at what was current for the oldest matplotlib,
# whose text rendering calls names that pyparsing 3.3 deprecates.
FLOORS_PYTHON ?= $(shell for p in python3.10 $$HOME/.pyenv/versions/3.10*/bin/python3.10 $(PYTHON); do \
	$$p -c 'import sys' >/dev/null 2>&1 && { echo $$p; break; }; done)
FLOORS_VENV ?= .venv-floors
# CI runs the floors' kernels through the warm-up (every kernel compiles on the oldest
# numba and numpy) and then the test files that reach each pinned library (numba and numpy:
# the solver, the engine, the features, the jokers, how numba starts; scipy: the ILP;
# pandas and pyarrow: datasets; scikit-learn and skops: models and predictions;
# matplotlib: figures), to keep within its 15 minutes on a slow day. `make test-floors
# FLOORS_TESTS=tests` runs every fast test on the floors; do that when a change touches
# how rumdiff calls a library.
FLOORS_TESTS ?= tests/test_solver.py tests/test_engine.py tests/test_features.py \
	tests/test_jokers.py tests/test_startup.py tests/test_dataset.py \
	tests/test_model_files.py tests/test_predict.py tests/test_figures.py \
	tests/test_processes.py

test-floors: $(FLOORS_VENV)/.installed $(FLOORS_VENV)/.kernels $(FLOORS_VENV)/.bytecode
	$(FLOORS_VENV)/bin/python $(PYTEST) $(FLOORS_TESTS)

# Compiled once before the tests: each test process would compile every kernel itself.
$(FLOORS_VENV)/.kernels: $(FLOORS_VENV)/.installed $(KERNELS)
	$(call drop_kernels,$(FLOORS_VENV)/bin/python)
	$(FLOORS_VENV)/bin/python -m rumdiff.cli.warmup
	touch $@

$(FLOORS_VENV)/.bytecode: $(FLOORS_VENV)/.installed $(SOURCES)
	$(call own_bytecode,$(FLOORS_VENV)/bin/python)
	touch $@

$(FLOORS_VENV)/.installed: pyproject.toml .ci/floor_pins.py
	$(FLOORS_PYTHON) -m venv $(FLOORS_VENV)
	$(call pip,$(FLOORS_VENV)/bin/python) $$($(PYTHON) .ci/floor_pins.py) "pyparsing<3.3"
	$(call pip,$(FLOORS_VENV)/bin/python) --no-deps -e .
	$(call bytecode,$(FLOORS_VENV)/bin/python)
	touch $@

bench: setup
	$(BIN)/python experiments/bench_solver.py

clean:
	rm -rf $(VENV) $(FLOORS_VENV) runs .pytest_cache
