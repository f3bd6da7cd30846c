# The course's commands. `make lab` to learn, `make test` to check everything.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PYTEST := $(PY) -m pytest -n 2 --dist loadscope
NBVAL  := --nbval-current-env --nbval-cell-timeout=300

.PHONY: lab test unit notebooks lessons bench lint clean

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "Python 3.10 or newer is needed, found " + sys.version.split()[0])'
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); echo "Could not create $(VENV). On Debian or Ubuntu: sudo apt install python3-venv, then run make again."; exit 1; }
	$(PY) -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changes.
$(VENV)/.installed-lab: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $@ $(VENV)/.installed-lab

# Root (containers, some workshop machines) needs --allow-root; nobody else gets it.
lab: $(VENV)/.installed-lab
	$(VENV)/bin/jupyter lab lessons/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

test: $(VENV)/.installed-test
	$(PYTEST) tests solutions --nbval $(NBVAL)
	$(PYTEST) lessons --nbval-lax $(NBVAL)

unit: $(VENV)/.installed-test
	$(PYTEST) tests

notebooks: $(VENV)/.installed-test
	$(PY) scripts/build_lessons.py
	$(PY) scripts/execute_notebooks.py -j 2
	$(PY) scripts/build_lessons.py
	$(PY) scripts/sync_readme.py

lessons: $(VENV)/.installed-test
	$(PY) scripts/build_lessons.py
	$(PY) scripts/sync_readme.py

# Quick consistency checks: generated notebooks and README blocks up to date.
lint: $(VENV)/.installed-test
	$(PY) scripts/build_lessons.py --check
	$(PY) scripts/sync_readme.py --check

bench: $(VENV)/.installed-test
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/bench_mock.py

clean:
	rm -rf $(VENV) build *.egg-info
