# unokit: `make play` to play, `make test` to check everything.  Each target builds
# .venv first if it is missing, so a fresh checkout needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_VENV := .bench-venv

.PHONY: screenshots machine test-fast flake-hunt audit-modern train play serve demo test explore lint typecheck unit js chromium e2e bench bench-bots clean fuzz loadtest chaos chaos-cluster soak cluster cluster-stop loadtest-cluster bus-compare

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The training smoke test needs torch, the train extra, as the CPU build: a plain
# `torch==2.13.0` from PyPI is the CUDA build (GBs).  Where pip finds the CPU wheel
# (this machine's wheel folder) it takes that, else PyTorch's CPU index; make play and
# make serve never need it.
TORCH := $(VENV)/.torch
$(TORCH): $(STAMP)
	@$(BIN)/python -c 'import torch' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet 'torch==2.13.0+cpu' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet 'torch==2.13.0' --index-url https://download.pytorch.org/whl/cpu || \
	  { echo "make test: the training test needs torch 2.13.0 (CPU); run: $(BIN)/pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" >&2; exit 1; }
	@touch $@

play: $(STAMP)
	$(BIN)/unokit play $(ARGS)

# The web table for friends and bots on http://127.0.0.1:8000 (docs/server.md, docs/web.md).
serve: $(STAMP)
	$(BIN)/unokit serve $(ARGS)

demo: $(STAMP)
	$(BIN)/unokit demo --players 3 --seed 1

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

typecheck: $(STAMP)
	$(BIN)/mypy

# The unit tests on every core and then some: half of their time is waiting (servers,
# subprocesses, sockets), so more workers than cores pays.  --dist loadgroup keeps each
# xdist_group on one worker: the numba tests compile the kernels once, one throwaway
# PostgreSQL serves its tests; the groups go first, in tests/conftest.py's order
# (--no-loadscope-reorder).  PYTEST_WORKERS=0 runs them in this one process.
PYTEST_WORKERS ?= 4
XDIST = -n $(PYTEST_WORKERS) $(if $(filter 0,$(PYTEST_WORKERS)),,--dist loadgroup --no-loadscope-reorder)

unit: $(STAMP) $(TORCH) machine
	$(BIN)/pytest $(XDIST) $(ARGS) $(UNIT_ARGS)

# The fast lane for a developer (under two minutes): the unit tests without the three
# marked lanes, slow (whole games, tournaments, searches), services (real PostgreSQL,
# Redis, nginx, docker-compose, server processes) and numba (compiling the kernels);
# no lint, types, page or browser tests.  make test runs everything.
test-fast: $(STAMP)
	$(BIN)/pytest $(XDIST) -m "not slow and not services and not numba" $(ARGS)

# The web page's render functions, store and patcher (tests/js) with Node's own test
# runner: no npm package, no build step.
js: machine
	@command -v node >/dev/null 2>&1 || { echo "make js: the web page's tests need Node.js (node), missing here; run: sudo apt-get install nodejs" >&2; exit 1; }
	node --test tests/js/

# The browser tests (tests/e2e) in their own pytest process: Playwright's sync API and
# pytest-asyncio's loop do not mix.  They drive Debian's chromium (never a browser
# Playwright downloads): when it is missing and we may (root, or sudo without a
# password), it is installed first, as .ci/run does; otherwise one line says what to run.
CHROMIUM ?= $(or $(UNOKIT_CHROMIUM),/usr/bin/chromium)
# Every Debian package the tests drive (chromium, postgresql, redis-server, nginx,
# docker-compose, nodejs): installed when missing and allowed (root, or sudo without a
# password), else one line saying what to run.  make test checks it first, so a machine
# without them stops before any test runs; .ci/run installs nothing itself.
machine:
	@UNOKIT_CHROMIUM=$(CHROMIUM) PYTHON=$(PYTHON) scripts/machine.sh

chromium: machine

# Two workers, a file each at a time (module fixtures hold a server and its pages).
E2E_WORKERS ?= 2
e2e: $(STAMP) machine
	UNOKIT_CHROMIUM=$(CHROMIUM) $(BIN)/pytest -n $(E2E_WORKERS) --dist loadfile -o cache_dir=.pytest_cache/e2e tests/e2e $(ARGS) $(E2E_ARGS)

# The browser tests again, writing their screenshots over the docs' (docs/img).
screenshots: $(STAMP) machine
	UNOKIT_SHOTS=docs/img UNOKIT_CHROMIUM=$(CHROMIUM) $(BIN)/pytest -n $(E2E_WORKERS) --dist loadfile tests/e2e $(ARGS)

# The machine first (scripts/machine.sh installs python3-venv where python3 lacks it,
# so it must run before .venv is made), then everything at once: the unit tests keep
# both cores busy, and the browser tests (mostly waiting on pages and servers) fill
# their gaps.  Lines interleave whole (--output-sync=line: a hung run still shows how
# far each part got), and -k lets every part finish and report even when one fails.
test: machine $(STAMP) $(TORCH)
	@echo "make test: lint, types, the page's tests, the unit tests and the browser tests at once (their lines interleave; each ends with its summary)"
	@$(MAKE) --no-print-directory -k -j5 --output-sync=line lint typecheck js unit e2e

# Tests that fail by chance (issue 51): the unit tests again and again, serial and
# parallel in turn, beside two CPU burners; which failed and why in flake-hunt/report.md.
# ARGS="--runs 4 --e2e" adds the browser tests; ARGS="--modes make" runs the whole of
# make test each time, as CI does; a failure is fixed at its cause.
flake-hunt: $(STAMP)
	$(BIN)/python scripts/flake_hunt.py $(ARGS)

# The modern games' audit at full size (issue 46): 500 No Mercy and 3,000 Flip games, each
# played live, stored and advanced, records replayed, ill-typed actions thrown at a fifth
# of the decisions (No Mercy first, then Flip's seeds in two halves on the two cores;
# about 40 minutes on an idle 2-core machine; make test plays 10 of each).
audit-modern: $(STAMP)
	@t="$(BIN)/pytest -p no:cacheprovider -s tests/test_modern_audit.py"; \
	flip=$(or $(AUDIT_FLIP),3000); half=$$(( flip / 2 )); \
	UNOKIT_AUDIT_NM=$(or $(AUDIT_NM),500) $$t -k "long_run and no-mercy" $(ARGS) && \
	{ UNOKIT_AUDIT_FLIP=$$half $$t -k "long_run and flip" $(ARGS) & a=$$!; \
	  UNOKIT_AUDIT_FROM=$$half UNOKIT_AUDIT_FLIP=$$(( flip - half )) \
	    $$t -k "long_run and flip" $(ARGS); b=$$?; wait $$a; exit $$(( $$? | b )); }

# The property tests with fresh random examples (make test runs them derandomized).
explore: $(STAMP)
	HYPOTHESIS_PROFILE=explore $(BIN)/pytest tests/test_properties.py tests/test_bots.py $(ARGS)

# The reference (RLCard 1.2.0) lives in its own venv, only for the benchmark.
$(BENCH_VENV)/.installed:
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet rlcard==1.2.0 numpy==2.4.6 termcolor==3.3.0
	touch $@

bench: $(STAMP) $(BENCH_VENV)/.installed
	$(BIN)/python benchmarks/bench_engine.py --reference-python $(BENCH_VENV)/bin/python $(ARGS)
	$(BIN)/python benchmarks/bench_rl.py --reference-python $(BENCH_VENV)/bin/python $(ARGS)
	$(BIN)/python benchmarks/bench_compiled.py --reference-python $(BENCH_VENV)/bin/python --cold-start $(ARGS)
	$(BIN)/python benchmarks/bench_compiled_modern.py $(ARGS)
	$(BIN)/python benchmarks/bench_vector.py --reference-python $(BENCH_VENV)/bin/python --games flip no-mercy $(ARGS)

# The learned bot (docs/rl.md): PPO on the vector env, CPU, about an hour of one core
# with the shipped settings; the train extra brings torch==2.13.0 (a CPU wheel).  ARGS go
# to unokit train; the weights stay in runs/learned until plot_learned.py --ship.
train: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[train]'
	$(BIN)/unokit train --out runs/learned $(ARGS)
	$(BIN)/python benchmarks/plot_learned.py runs/learned --png runs/learned/curve.png

# Bot strength (docs/bots.md): 10,000+ games a pair; takes a while on two cores.
bench-bots: $(STAMP)
	$(BIN)/python benchmarks/bench_bots.py --games 10000 --seed 1 \
		--pairs heuristic:random,greedy:random,heuristic:greedy $(ARGS)
	$(BIN)/unokit tournament --bots ismcts:iterations=800 heuristic --players 2 \
		--games 2000 --seed 1
	$(BIN)/unokit tournament --bots ismcts:iterations=800 heuristic heuristic heuristic \
		--players 4 --games 2000 --seed 1

clean:
	rm -rf $(VENV) $(BENCH_VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Reliability (docs/reliability.md).  Hostile input: 100,000+ messages, 0 errors.
fuzz: $(STAMP)
	PYTHONPATH=src $(BIN)/python benchmarks/fuzz.py $(ARGS)

# Load: many rooms of scripted websocket clients against one server (a few minutes).
loadtest: $(STAMP)
	PYTHONPATH=src $(BIN)/python benchmarks/loadtest.py $(ARGS)

# The cluster comparison (docs/reliability.md, "A cluster on PostgreSQL and Redis"):
# full speed on SQLite (normal, full), PostgreSQL and PostgreSQL+Redis with 1 and 2
# servers, twice, then 1,000 rooms at human pace across 2 servers (~12 minutes).
loadtest-cluster: $(STAMP)
	PYTHONPATH=src $(BIN)/python benchmarks/loadtest.py --plan cluster $(ARGS)

# Redis pub/sub against PostgreSQL LISTEN/NOTIFY as the bus (docs/deploy.md, "Which bus").
bus-compare: $(STAMP)
	PYTHONPATH=src $(BIN)/python benchmarks/bus_compare.py $(ARGS)

# Faults: kill -9 under load, restarts, client faults, a locked database.
chaos: $(STAMP)
	PYTHONPATH=src $(BIN)/python benchmarks/chaos.py $(ARGS)

# Faults in a cluster (PostgreSQL, Redis, 3 x unokit serve, nginx on 127.0.0.1) under load:
# 10 x kill -9, then a rolling restart; acknowledged actions lost, views and rooms checked.
chaos-cluster: $(STAMP)
	PYTHONPATH=src $(BIN)/python benchmarks/chaos_cluster.py $(ARGS)

# Soak: 30 minutes of play, memory, descriptors and tasks sampled each minute.
soak: $(STAMP)
	PYTHONPATH=src $(BIN)/python benchmarks/soak.py $(ARGS)

# docker-compose.yml's cluster from Debian's packages, on 127.0.0.1 only (docs/deploy.md):
# a throwaway PostgreSQL, redis-server, 3 x unokit serve (ARGS="--n 2"), nginx in front.
# It prints its address and runs until make cluster-stop, which removes its files.
cluster: $(STAMP)
	$(BIN)/python scripts/cluster.py start $(ARGS)

cluster-stop: $(STAMP)
	$(BIN)/python scripts/cluster.py stop
