# The two commands a user needs first: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test test-unit bench fault-test lint images compose-v2 stack stack-down stack-test

$(STAMP): pyproject.toml
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { apt-get update -q && \
		apt-get install -y -q python3-venv && $(PYTHON) -m venv $(VENV); }
	@echo "Installing the project and its dependencies into $(VENV) (first run only; a minute or two)"
	@$(PY) -m pip install -qq --upgrade pip
	@$(PY) -m pip install -qq -e ".[dev,bench,train]"
	@touch $(STAMP)
	@echo "Installed."

install: $(STAMP)

demo: install
	$(PY) -m tests.demosite.demo

test: install
	$(PY) -m pytest -q -p no:cacheprovider

# The tests that need no PostgreSQL, Redis or crawl: seconds, for the edit-test loop.
test-unit: install
	$(PY) -m pytest -q -p no:cacheprovider tests/unit

bench: install
	$(PY) -m bench.articles
	$(PY) -m bench.labelling
	$(PY) -m bench.template_diff
	$(PY) -m bench.pagetype
	$(PY) -m bench.records
	$(PY) -m bench.sites
	$(PY) -m bench.store
	$(PY) -m bench.search --reuse
	$(PY) -m bench.stories
	$(PY) -m bench.stories --real-pairs
	$(PY) -m bench.stories --store 1000000
	$(PY) -m bench.export
	$(PY) -m bench.alerts
	$(PY) -m bench.health
	$(PY) -m bench.crawl --scale 4 --repeat 3
	$(PY) -m bench.crawl --latency 150 --jitter 50 --scale 0.5 --stored 10000
	$(PY) -m bench.crawl --latency 150 --jitter 50 --scale 0.5 --workers 1 --stored 1000000
	$(PY) -m bench.soak --scale 72 --distributed
	$(PY) -m bench.freshness

# Service faults at length (Redis restarts, a killed worker, a database partition) on a
# larger demo site; prints the table of docs/RELIABILITY.md. Minutes; not part of `make test`.
fault-test: install
	$(PY) -m bench.faults

lint: install
	$(VENV)/bin/ruff check .

# The whole stack in containers (compose.yaml, README "Run the whole stack"). `images` installs
# and starts Docker when missing and builds on a base made from Debian's packages (no image
# registry needed; `make images BASE=debian:bookworm-slim` builds on the public image).
BASE ?= opinion-crawler/debian:bookworm
WORKERS ?= 2
COMPOSE ?= $(shell docker compose version >/dev/null 2>&1 && echo "docker compose" || echo docker-compose)

images:
	BASE=$(BASE) deploy/images.sh

# Compose v2 from Debian's packages, into var/compose-v2 (`export DOCKER_CONFIG=$PWD/var/compose-v2`
# makes `docker compose` this one), where the system has Debian bookworm's docker-compose 1.29.
compose-v2:
	deploy/compose-v2.sh

stack: images
	@test -n "$$API_TOKEN" || test -f .env || { \
		echo "API_TOKEN=$$($(PYTHON) -c 'import secrets; print(secrets.token_hex(16))')" > .env; \
		echo "wrote a random API_TOKEN to .env"; }
	$(COMPOSE) up -d --scale worker=$(WORKERS)

stack-down:
	$(COMPOSE) down

# The stack test alone (part of `make test` too); its first run builds the images, later ones
# reuse their layers (times: docs/BENCHMARKS.md, "The stack in containers").
stack-test: install
	$(PY) -m pytest -q -p no:cacheprovider tests/integration/deploy
