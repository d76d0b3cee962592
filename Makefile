# The two commands a newcomer types (see README):
#   make book   -- set everything up, build the book, say where to open it
#   make test   -- set everything up, run the whole test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: book test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e ".[test,book]"
	touch $(STAMP)

book: $(STAMP)
	$(VENV)/bin/jupyter-book build . -W -n --keep-going
	@echo
	@echo "The book is built. Open: file://$(CURDIR)/_build/html/index.html"

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/bench_dynamics.py

clean:
	rm -rf _build $(VENV)
