# The three commands a newcomer types (see README):
#   make book   -- set everything up, build the book, say where to open it
#   make test   -- set everything up, run the whole test suite
#   make lab    -- set everything up, open the chapter notebooks in JupyterLab
# and one for instructors:
#   make course -- release, autograde, feedback and grades of the course (course/, nbgrader)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
LAB_STAMP := $(VENV)/.lab-installed

.PHONY: book offline test course bench clean lab

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e ".[test,book,course,jax,lab]"
	touch $(STAMP)

# the widget manager, require.js, the pythreejs bundle and MathJax, served by the site
# itself (from the npm registry, pinned; see tools/fetch_static.py)
offline: $(STAMP)
	$(PY) tools/fetch_static.py

# Executed notebooks are cached in _build/.jupyter_cache, keyed on the notebooks' code;
# a change to the package or the models empties the cache, so every notebook runs again.
CACHE_STAMP := _build/.cache-stamp
$(CACHE_STAMP): $(shell find rbdl_edu models -type f \( -name '*.py' -o -name '*.xml' -o -name '*.urdf' -o -name '*.stl' -o -name '*.obj' \) 2>/dev/null) pyproject.toml
	rm -rf _build/.jupyter_cache _build/.doctrees _build/html
	mkdir -p _build && touch $@

# executes every notebook, builds the site; warnings are errors
book: offline $(CACHE_STAMP)
	$(VENV)/bin/jupyter-book build . -W -n --keep-going
	@echo
	@echo "The book is built. Open: file://$(CURDIR)/_build/html/index.html"
	@echo "(or serve it: $(PY) -m http.server --directory _build/html 8000)"

# the browser test (tests/test_browser.py) checks the site that `book` just built;
# RBDL_EDU_FAST=1 shortens the notebooks' long simulations and cost studies under nbval
test: book $(LAB_STAMP)
	RBDL_EDU_FAST=1 $(PY) -m pytest

# nbgrader on the committed submissions, in a scratch copy (_build/course): student versions,
# autograding, feedback HTML, grades.csv and a table of scores (course/run_course.py)
course: $(STAMP)
	$(PY) course/run_course.py

# JupyterLab (pinned) with the widget and pythreejs extensions that the book extra brings;
# tools/lab.py checks them and copies the chapter notebooks to _lab/, so that running them
# (autosave writes outputs and widget state) never touches the committed notebooks/.
# JupyterLab asks no other site (no news, update check or extension manager); as root (a
# container) it needs --allow-root. Extra options: make lab LAB_ARGS="--port=8899".
LAB_DIR  ?= _lab
LAB_ARGS ?=
$(LAB_STAMP): $(STAMP)
	$(PY) -m pip install "jupyterlab==4.6.6"
	touch $@

lab: $(LAB_STAMP)
	$(PY) tools/lab.py prepare $(LAB_DIR)
	$(VENV)/bin/jupyter lab --notebook-dir=$(LAB_DIR) $(if $(filter 0,$(shell id -u)),--allow-root) \
	    --LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
	    --LabApp.extension_manager=readonly $(LAB_ARGS)

# reports, not tests: every figure is measured (CPU or wall time, said in each table)
bench: $(STAMP)
	$(PY) benchmarks/bench_dynamics.py
	$(PY) benchmarks/bench_jax.py
	$(PY) benchmarks/bench_jax_step.py
	$(PY) benchmarks/bench_step.py
	$(PY) benchmarks/bench_speed.py
	$(PY) benchmarks/bench_mouse.py
	$(PY) benchmarks/bench_contacts.py
	$(PY) benchmarks/bench_lab.py

clean:
	rm -rf _build _offline $(VENV)        # (your notebook copies in _lab/ are kept)
