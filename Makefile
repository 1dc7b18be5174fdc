# Two commands on a fresh machine: `make run` and `make test`.
VENV  := .venv
PY    := $(VENV)/bin/python
PORT  ?= 8000
STAMP := $(VENV)/.installed-stamp

.PHONY: install run serve bench test lint format check migrations-check browsers clean

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

# The production configuration on 127.0.0.1:$(PORT): gunicorn (gunicorn.conf.py),
# DEBUG off, hashed and compressed static files served by whitenoise. Production
# defaults are https-only; plain http on loopback needs these switches, set here:
serve: export DEBUG := 0
serve: export STATICFILES_BACKEND := whitenoise.storage.CompressedManifestStaticFilesStorage
serve: export WHITENOISE_USE_FINDERS := 0
serve: export SECURE_SSL_REDIRECT := 0
serve: export SESSION_COOKIE_SECURE := 0
serve: export CSRF_COOKIE_SECURE := 0
serve: export SECURE_HSTS_SECONDS := 0
serve: export PORT := $(PORT)
serve: install
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_content
	$(VENV)/bin/gunicorn --config gunicorn.conf.py

# Figures for the README against a running `make serve` on 127.0.0.1:$(PORT).
bench: install
	$(PY) manage.py bench --port $(PORT)

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
