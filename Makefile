# The two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | md5sum | cut -c1-12)

.PHONY: run serve test lint typecheck audit pytest fuzz system-deps bench loadtest clean messages compile-messages

# What `make test` runs; CI's services pass narrows it (.ci/run).
# CHECKS=0: no lint or type check. BROWSER=0: no browser tests. SERVICES_PASS=1: only
# the tests the services can change (pytest --services-pass, tests/conftest.py).
CHECKS ?= 1
BROWSER ?= 1
SERVICES_PASS ?= 0
# pytest-xdist processes: one per core ("auto"); 0 runs every test in this process.
PYTEST_WORKERS ?= auto
# Seconds one test may take before it is failed with every thread's stack
# (pytest-timeout): a hung browser wait names itself rather than stalling CI.
PYTEST_TIMEOUT ?= 300
# The tests marked `clock` run at each of these wall-clock moments (tests/wall_clock.py).
CLOCKS ?= now,00:30,23:30,dst-spring,dst-autumn,new-years-eve,new-year,next-year
# xdist's plain "load": each worker keeps pytest-django's order, so the
# transactional tests (which empty the tables the migrations filled) come last.
PYTEST_PARALLEL = -n $(PYTEST_WORKERS) --dist load

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## make run: install, migrate, load the demo practice and serve it.
# The links it makes (an invitation, a reset) must open where it serves.
run: export SITE_URL ?= http://127.0.0.1:$(PORT)
run: install compile-messages
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	@if [ -n "$$REDIS_URL" ]; then \
		echo "REDIS_URL is set: starting a Celery worker and beat beside the server."; \
		$(BIN)/celery -A practice worker --beat --loglevel=INFO --concurrency=2 & \
		trap "kill $$! 2>/dev/null" EXIT; \
		$(BIN)/python manage.py runserver 127.0.0.1:$(PORT); \
	else \
		$(BIN)/python manage.py runserver 127.0.0.1:$(PORT); \
	fi

## make serve: the production stack, as a practice runs it (README, "Serving"):
# migrate, collect the static files, then gunicorn (practice/gunicorn.conf.py),
# one Celery worker and the one beat, against DATABASE_URL (PostgreSQL) and
# REDIS_URL. Production settings: SECRET_KEY, FIELD_ENCRYPTION_KEYS,
# ALLOWED_HOSTS and an https SITE_URL come from the environment, never made up
# here (practice/settings.py names whichever is missing). One stopping stops all.
CELERY_CONCURRENCY ?= 2
serve: export DJANGO_ENV = production
serve: install compile-messages
	@case "$$DATABASE_URL" in postgres://*|postgresql://*) ;; \
		*) echo "make serve needs DATABASE_URL=postgres://… (the production stack runs on PostgreSQL)." >&2; exit 1;; esac
	@if [ -z "$$REDIS_URL" ]; then \
		echo "make serve needs REDIS_URL=redis://…: the worker and beat take their tasks from it." >&2; exit 1; \
	fi
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input -v0
	@trap 'kill $$(jobs -p) 2>/dev/null; wait' EXIT; trap 'exit 130' INT TERM; \
	$(BIN)/celery -A practice worker --loglevel=INFO --concurrency=$(CELERY_CONCURRENCY) & \
	$(BIN)/celery -A practice beat --loglevel=INFO & \
	$(BIN)/gunicorn -c practice/gunicorn.conf.py & \
	wait -n; status=$$?; echo "A process of the stack stopped (status $$status); stopping the others." >&2; exit $$status

## System packages the PDF and browser tests need (Debian). Installs only what is missing.
system-deps:
	@missing=""; \
	for pkg in gettext chromium libharfbuzz-subset0 poppler-utils fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji; do \
		dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

## make messages: every gettext string of the code and templates into locale/*/LC_MESSAGES/django.po
# (no source lines, so a moved string changes no file), then compiled. Commit both files.
MESSAGE_LOCALES ?= es
messages: install system-deps
	$(BIN)/python manage.py makemessages --no-location --no-obsolete $(addprefix --locale ,$(MESSAGE_LOCALES)) \
		--ignore ".venv/*" --ignore "tests/*" --ignore "bench/*" --ignore "staticfiles/*" \
		--ignore "var/*" --ignore "test-artifacts/*" --ignore "node_modules/*" --ignore "build/*"
	$(BIN)/python manage.py compilemessages --ignore ".venv/*"

## The compiled catalogs, from their sources: `make run` and `make serve` do this first.
compile-messages: install
	@if command -v msgfmt >/dev/null; then $(BIN)/python manage.py compilemessages --ignore ".venv/*" -v0; \
	else echo "msgfmt not found (Debian: gettext): the committed catalogs are used as they are."; fi

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/bandit -c pyproject.toml -r practice clients homework --quiet

typecheck: install
	$(BIN)/mypy

## make audit: the installed pinned set against PyPI's published advisories.
# Not in `make test`: the advisory service is out of this workplace's reach
# (README, Tests), and an audit that cannot ask must fail, not pass (--strict).
audit: install
	$(BIN)/pip-audit --skip-editable --strict --progress-spinner off

# The catalogs are compiled by the tests, into a temporary file, never over the committed one
# (tests/practice/test_catalogs.py): a .mo that differs from its .po fails rather than being mended.
# pytest keeps its assertion-rewritten modules as .pyc files (git-ignored): where the environment
# forbids them (PYTHONDONTWRITEBYTECODE), every test process rewrote every module, ~10 s of CPU each.
pytest: export PYTHONDONTWRITEBYTECODE =
pytest: install system-deps
	$(BIN)/python manage.py collectstatic --no-input -v0
	$(BIN)/pytest $(PYTEST_PARALLEL) --clock=$(CLOCKS) --timeout=$(PYTEST_TIMEOUT) --timeout-method=thread \
		$(if $(filter 0,$(BROWSER)),-m "not browser") $(if $(filter 1,$(SERVICES_PASS)),--services-pass) \
		$(PYTEST_ARGS)

## make test: lint, type check, and the whole suite (services when their URLs are set).
test: $(if $(filter 0,$(CHECKS)),,lint typecheck) pytest

## make fuzz: the property tests (Hypothesis; pytest marks them `hypothesis`), with many more
## examples, and the API fuzzed against its schema with API_FUZZ_EXAMPLES requests per
## operation and role (tests/api/test_fuzz.py; `make test` tries 3).
API_FUZZ_EXAMPLES ?= 200
fuzz: install
	API_FUZZ_EXAMPLES=$(API_FUZZ_EXAMPLES) $(BIN)/pytest $(PYTEST_PARALLEL) -m hypothesis --hypothesis-profile=fuzz $(PYTEST_ARGS)

## make bench: every benchmark in bench/, one table, bench/results.json (BENCHMARKS.md).
# On the local PostgreSQL and Redis when they answer (as .ci/run uses them);
# otherwise SQLite, and the figures that need a real worker are skipped.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/practice
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/3
bench: install system-deps
	@if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null && redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; then \
		export DATABASE_URL="$${DATABASE_URL:-$(BENCH_DATABASE_URL)}" REDIS_URL="$${REDIS_URL:-$(BENCH_REDIS_URL)}"; \
	fi; \
	$(BIN)/python -m bench

## make loadtest: 50 clients at once in the portal, on gunicorn, a Celery worker,
# PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), and proof from the database
# that nothing they saved was lost (bench/load.py). Says it skipped without them.
loadtest: install
	$(BIN)/python -m bench.load

clean:
	rm -rf $(VENV) var staticfiles test-artifacts .mypy_cache .ruff_cache .pytest_cache
