# Every target creates the virtualenv it needs.
VENV ?= .venv
PY := $(VENV)/bin/python
PUZZLE ?= puzzles/ai-escargot.txt

.PHONY: run bytecode test check lint solvers bench readme clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

# The byte-code of sudosat's own modules: an editable install has none, and where
# PYTHONDONTWRITEBYTECODE is set Python never writes it, so every start would
# compile every module (BENCHMARKS.md, "Start in half the time").
bytecode: $(VENV)/.installed
	$(PY) -m compileall -q sudosat

run: bytecode
	$(VENV)/bin/sudosat solve $(PUZZLE)

# Debian's minisat, picosat, cadical and cryptominisat, which the tests run for real.
solvers:
	scripts/install-solvers

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check sudosat tests benchmarks scripts recipes
	$(VENV)/bin/ruff format --check sudosat tests benchmarks scripts recipes
	$(VENV)/bin/mypy sudosat

# The whole suite, as CI runs it; -n: a test process per core (pytest-xdist).
test: lint solvers
	$(PY) -m pytest -n auto

# The fast tier for the edit-test loop (about a minute): every module, no slow tests.
check: lint solvers
	$(PY) -m pytest -n auto -m "not slow"

bench: $(VENV)/.installed
	$(PY) benchmarks/encodings.py
	$(PY) benchmarks/sizes.py
	$(PY) benchmarks/external.py
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/batch.py
	$(PY) benchmarks/api.py
	$(PY) benchmarks/generate.py
	$(PY) benchmarks/large.py
	$(PY) benchmarks/stopping.py
	$(PY) benchmarks/variants.py
	$(PY) benchmarks/hard_variants.py
	$(PY) benchmarks/startup.py --runs 20
	$(PY) benchmarks/killer16.py
	$(PY) benchmarks/pictures.py
	$(PY) benchmarks/workbench.py
	$(PY) benchmarks/steps.py
	$(PY) benchmarks/hardest.py
	$(PY) benchmarks/certify.py
	$(PY) benchmarks/serve.py --limit 30  # setting from blank: the first 30 edits (no --limit: every edit, hours at 25x25)
	$(PY) benchmarks/serve_attack.py
	$(PY) benchmarks/blank_phases.py killer.txt --cap 8

# The README's command reference, generated from --help (tests/test_readme.py checks it).
readme: $(VENV)/.installed
	$(PY) scripts/readme.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
