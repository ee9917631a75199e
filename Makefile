# Rackscore — every command a developer or CI needs. See README.md.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# Test processes: one more than the cores, since many tests wait (on threads
# racing, on PostgreSQL) while another computes; an idle worker takes over
# another's queue (worksteal). The browser tests run after them, one process
# per core: a browser beside three busy workers misses its timings.
CORES := $(shell python3 -c 'import os; print(os.cpu_count() or 1)')
TEST_WORKERS ?= $(shell echo $$(( $(CORES) + 1 )))
BROWSER_WORKERS ?= $(CORES)
export TEST_WORKERS

.PHONY: install run serve test test-postgres lint format bench cluster clean

# Debug is off unless asked for (config/settings.py): development commands ask.
run test: export DJANGO_DEBUG = 1
# `make run` does background work in its own process; `make serve` queues it
# in the database for the worker it starts.
run: export RACKSCORE_TASKS = immediate
serve: export RACKSCORE_TASKS = database
# Production: never debug, whatever the shell says (README, "Production").
serve: export DJANGO_DEBUG = 0
# Benchmarks measure what production runs (debug off), over plain HTTP.
bench: export DJANGO_DEBUG = 0
bench: export DJANGO_SECRET_KEY ?= bench-only-key-not-for-any-server-0123456789abcdefghijklmnop
bench: export DJANGO_SSL_REDIRECT ?= 0
bench: export DJANGO_SECURE_COOKIES ?= 0

$(STAMP): pyproject.toml scripts/install-system.sh
	bash scripts/install-system.sh
	test -x $(PY) || python3.11 -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py runserver $(HOST):$(PORT)

# Migrate, collect the static files (whitenoise serves them), then gunicorn
# (config/gunicorn.py: HOST, PORT, WEB_CONCURRENCY, GUNICORN_THREADS,
# GUNICORN_TIMEOUT) and beside it the task worker (background work: large
# restores and score sheets); when either stops, the other is stopped too.
# Needs DJANGO_SECRET_KEY and DJANGO_ALLOWED_HOSTS.
serve: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	bash -c '$(PY) manage.py db_worker --no-reload & worker=$$!; \
	  HOST=$(HOST) PORT=$(PORT) $(VENV)/bin/gunicorn -c config/gunicorn.py & web=$$!; \
	  trap "kill $$worker $$web 2>/dev/null" INT TERM; \
	  wait -n; status=$$?; kill $$worker $$web 2>/dev/null; wait; exit $$status'

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

test: install lint
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal -m "not browser"
	$(VENV)/bin/pytest -n $(BROWSER_WORKERS) -m browser

# The same suite against PostgreSQL (installed and started locally when missing;
# fails when PostgreSQL cannot be installed, started or reached).
test-postgres: install
	bash scripts/test-postgres.sh

# The pages measured name their static files by hash (production's manifest):
# collected first, as make serve does.
bench: install
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) bench/run.py

# Two gunicorn nodes behind nginx on PostgreSQL and Redis, under a
# 1,000-player round's load (bench/cluster: README, "Two nodes"). Root only.
cluster: install
	PYTHONPATH=bench $(PY) -m cluster

clean:
	rm -rf $(VENV) build *.egg-info
