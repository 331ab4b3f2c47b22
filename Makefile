# Two commands set everything up on a fresh machine:
#   make demo   — install into .venv and play a seed game through the mail path (SQLite, local Maildirs)
#   make test   — install into .venv (with test tools) and run the whole test suite; as root on
#                 Debian/Ubuntu it first installs Dovecot and ssh-keygen if missing (.ci/system-packages)
# Both install the pinned versions of constraints.txt, the ones a server runs.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
HOME_DIR ?= pbem-home

.PHONY: demo test lint install bench clean golden

$(VENV)/.installed-%: pyproject.toml setup.py constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[$*]"
	touch $@

install: $(VENV)/.installed-test

demo: $(VENV)/.installed-test
	$(VENV)/bin/pbem --home $(HOME_DIR) demo

test: $(VENV)/.installed-test
	.ci/system-packages
	$(PY) -m pytest

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: $(VENV)/.installed-test
	$(PY) benchmarks/run.py --quick

# make golden [ONLY="ruleset[/scenario] ..."] — rewrite the golden playthroughs on purpose, then review the diff
golden: $(VENV)/.installed-test
	$(PY) -m pbem.testing.golden --update $(ONLY)

clean:
	rm -rf $(VENV) $(HOME_DIR) build *.egg-info
