# Two commands on a fresh machine: `make run` and `make test`.
VENV  := .venv
PY    := $(VENV)/bin/python
PORT  ?= 8000
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test lint format check migrations-check browsers clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Development server with the content loaded, on 127.0.0.1:$(PORT).
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_content
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:$(PORT)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

check: install
	$(PY) manage.py check
	$(PY) manage.py makemigrations --check --dry-run

# The whole suite: lint, Django's checks, unit, HTTP and browser tests.
test: lint check
	$(VENV)/bin/pytest

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
