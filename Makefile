# The course's commands. `make lab` to learn, `make test` to check everything.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# One pytest process (and its two workers) runs everything; the options are in pyproject.toml.
# Some containers set PYTHONDONTWRITEBYTECODE; the tests clear it, so that pytest's rewritten test
# modules and the kernels' compiled modules are cached in __pycache__ (git-ignored) and reused.
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n 2 --dist loadscope

.PHONY: setup lab workspace reset test unit notebooks lessons bench lint check-lessons clean test-frameworks test-ui test-long catch-up progress wheelhouse test-offline-install

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed, found " + sys.version.split()[0])'
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); echo "Could not create $(VENV). On Debian or Ubuntu: sudo apt install python3-venv, then run make again."; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changes. (Every editable install makes setuptools print an
# information box about editable installs in general; it is not a warning, so it is kept quiet.)
PIP_EDITABLE := PYTHONWARNINGS="ignore:Editable installation" $(PY) -m pip install --quiet -e

# matplotlib builds its font cache on first import and says so on stderr; building it here keeps
# that message out of the first lesson that plots (strict output comparison would see it).
FONT_CACHE := $(PY) -c "import matplotlib.font_manager"

$(VENV)/.installed-lab: pyproject.toml | $(PY)
	$(PIP_EDITABLE) .
	$(FONT_CACHE)
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP_EDITABLE) '.[test]'
	$(FONT_CACHE)
	@touch $@ $(VENV)/.installed-lab

# Everything `make lab` and `make test` need, installed once (the only step of both that needs the
# network); the extra targets (test-ui, test-frameworks, bench) install their own tools.
setup: $(VENV)/.installed-test

# Your own copies of the lessons: workspace/ gets each lesson it lacks; nothing there is overwritten.
workspace:
	@$(PYTHON) scripts/workspace.py sync

# A fresh copy of one lesson in workspace/; your version is kept in workspace/backups/.
reset:
	@$(PYTHON) scripts/workspace.py reset "$(LESSON)"

# Arrived late? The lessons before LESSON solved with the reference in workspace/ (your copies of
# them kept in workspace/backups/), and LESSON copied if missing: `make catch-up LESSON=07`
# (FROM=04: solve only lessons 04 to 06).
catch-up:
	@$(PYTHON) scripts/catch_up.py "$(LESSON)" $(if $(FROM),--from "$(FROM)")

# A table of your exercises (solved, not yet, using the reference), read by running the checks of
# your workspace/ notebooks in the background; no notebook is changed. JSON=build/progress.json
# also writes it as a file to hand in.
progress: $(VENV)/.installed-lab
	@$(PY) scripts/progress.py $(if $(JSON),--json "$(JSON)")

# Every wheel `make setup` installs, for Linux, macOS and Windows with Python 3.11 to 3.13, in
# wheelhouse/ (MANIFEST.txt lists them), to set up a room's laptops with no network
# (docs/offline-install.md). TARGETS=this: this machine only. A second run downloads nothing.
wheelhouse:
	@$(PYTHON) scripts/wheelhouse.py $(if $(TARGETS),--targets $(TARGETS))

# JupyterLab rooted at the repository, opening in workspace/, where alone it may write
# (solutions/course/lab.py). Root (containers, some workshop machines) needs --allow-root; nobody
# else gets it.
lab: setup workspace
	$(PY) -m solutions.course.lab $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# Unit tests, solved notebooks (outputs compared exactly) and lessons (run only); never workspace/.
test: $(VENV)/.installed-test
	$(PYTEST)

unit: $(VENV)/.installed-test
	$(PYTEST) tests

# The long gates: the parser properties with 200,000 examples (hypothesis profile "long", shared
# over both workers), the growth tests up to 1 MB, and the termination matrix with max_steps 1 to
# 8, whose figures are printed.
test-long: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=long GROWTH_PROFILE=long PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n 2 --dist load tests/test_fuzz_parsers.py tests/test_linear_time.py
	$(PY) scripts/termination_matrix.py --max-steps 1 2 3 4 5 6 7 8

notebooks: $(VENV)/.installed-test
	$(PY) scripts/build_lessons.py
	$(PY) scripts/execute_notebooks.py -j 2
	$(PY) scripts/build_lessons.py
	$(PY) scripts/sync_readme.py

lessons: $(VENV)/.installed-test
	$(PY) scripts/build_lessons.py
	$(PY) scripts/sync_readme.py

# A lesson author's check: one row per lesson, one column per part of the template (objectives,
# exercises with checks, what can go wrong, summary, links, minutes, facts, lessons/ up to date);
# it fails naming the lesson and the part that is missing.
check-lessons: $(VENV)/.installed-test
	$(PY) scripts/check_lessons.py

# Quick consistency checks: generated notebooks and README blocks up to date.
lint: $(VENV)/.installed-test
	$(PY) scripts/build_lessons.py --check
	$(PY) scripts/sync_readme.py --check

# langchain-core (the speed baseline) goes into the same environment; its pytest plugin is
# switched off in pyproject.toml, so the test suite does not pay for it.
# Timed as a learner's machine runs: compiled modules cached (some containers switch that off).
BENCH := PYTHONDONTWRITEBYTECODE= $(PY)

bench: $(VENV)/.installed-test
	$(PIP_EDITABLE) '.[bench]'
	$(BENCH) benchmarks/bench_mock.py
	$(BENCH) benchmarks/bench_test_time.py $(if $(BASELINE),--against $(BASELINE))
	$(BENCH) benchmarks/bench_server.py
	$(BENCH) benchmarks/bench_evaluation.py
	$(BENCH) benchmarks/bench_notebooks.py

# Agent frameworks (LangGraph, pydantic-ai, ...) against the mock, offline: they live in their own
# environment, so the course's stays lean; sockets may reach loopback only (pytest-socket).
FW_VENV := .venv-frameworks
FW_PY   := $(FW_VENV)/bin/python

$(FW_PY):
	@$(PYTHON) -m venv $(FW_VENV) || { rm -rf $(FW_VENV); echo "Could not create $(FW_VENV). On Debian or Ubuntu: sudo apt install python3-venv, then run make again."; exit 1; }
	$(FW_PY) -m pip install --quiet --upgrade pip

$(FW_VENV)/.installed: pyproject.toml | $(FW_PY)
	PYTHONWARNINGS="ignore:Editable installation" $(FW_PY) -m pip install --quiet -e '.[test,frameworks]'
	@touch $@

# crewAI and instructor require openai<3: a second environment, whose tests reach the mock through
# its server (tests/frameworks/openai2).
FW2_VENV := .venv-frameworks-openai2
FW2_PY   := $(FW2_VENV)/bin/python

$(FW2_PY):
	@$(PYTHON) -m venv $(FW2_VENV) || { rm -rf $(FW2_VENV); echo "Could not create $(FW2_VENV). On Debian or Ubuntu: sudo apt install python3-venv, then run make again."; exit 1; }
	$(FW2_PY) -m pip install --quiet --upgrade pip

$(FW2_VENV)/.installed: pyproject.toml | $(FW2_PY)
	PYTHONWARNINGS="ignore:Editable installation" $(FW2_PY) -m pip install --quiet -e '.[frameworks-openai2]'
	@touch $@

test-frameworks: $(FW_VENV)/.installed $(FW2_VENV)/.installed
	$(FW_PY) -m pytest -p no:xdist --allow-hosts=127.0.0.1,::1 --disable-warnings tests/frameworks appendix/frameworks.ipynb
	$(FW2_PY) -m pytest -c tests/frameworks/openai2/pytest.ini --allow-hosts=127.0.0.1,::1 --disable-warnings tests/frameworks/openai2

# The widgets in a real browser: a JupyterLab of its own on 127.0.0.1, driven by headless Chromium
# through Playwright. It uses the system Chromium (`apt-get install -y chromium`), never a download;
# screenshots go to build/ui-screenshots/.
$(VENV)/.installed-ui: pyproject.toml | $(PY)
	$(PIP_EDITABLE) '.[test,ui]'
	$(FONT_CACHE)
	@touch $@ $(VENV)/.installed-test $(VENV)/.installed-lab

test-ui: $(VENV)/.installed-ui
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -p no:xdist --allow-hosts=127.0.0.1 tests/ui/test_lab.py

# The offline install: this machine's wheelhouse (build/offline-install/, from PyPI the first time
# only), a copy of the course installed from it into a fresh venv with the network refused, and
# lesson 00 run there (tests/offline, which `make test` does not collect).
test-offline-install: $(VENV)/.installed-test
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -p no:xdist tests/offline

clean:
	rm -rf $(VENV) $(FW_VENV) $(FW2_VENV) build *.egg-info
