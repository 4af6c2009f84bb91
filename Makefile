# Every target creates the virtualenv it needs: `run` what running takes (the
# run-time dependencies alone), the others the development tools too.
VENV ?= .venv
PY := $(VENV)/bin/python
# The Python the virtualenv is made with (make run PYTHON=python3.10: another one).
PYTHON ?= python3
PUZZLE ?= puzzles/ai-escargot.txt

.PHONY: run bytecode install test soak pythons check lint docs man reference solvers bench clean

# (install-cairo: the cairo library PDF and PNG pictures need, from apt where it is missing)
$(VENV)/.run: pyproject.toml sudosat/logic/_engine.c sudosat/logic/_explainer.c
	scripts/install-cairo
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e .
	touch $@

$(VENV)/.installed: $(VENV)/.run
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $@

# The byte-code of sudosat's own modules: an editable install has none, and where
# PYTHONDONTWRITEBYTECODE is set Python never writes it, so every start would
# compile every module (BENCHMARKS.md, "Start in half the time"); the tests start
# sudosat thousands of times.
bytecode: $(VENV)/.run
	$(PY) -m compileall -q sudosat

run: bytecode
	$(VENV)/bin/sudosat solve $(PUZZLE)
	@echo
	@echo "sudosat is $(VENV)/bin/sudosat: run it by that name, or 'source $(VENV)/bin/activate'"
	@echo "and then 'sudosat'; 'make install' puts it on your PATH (pipx)."

# sudosat on the user's PATH as Debian installs Python programs: pipx (from apt
# where it is missing), as pip install --user is refused there (PEP 668).
install:
	scripts/install-pipx
	scripts/install-cairo
	pipx install --force .
	@echo "sudosat installed: $$(command -v sudosat || echo "$$(pipx environment --value PIPX_BIN_DIR)/sudosat (run 'pipx ensurepath' to put it on PATH)")"

# Debian's minisat, picosat, cadical and cryptominisat, which the tests run for real.
solvers:
	scripts/install-solvers

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check sudosat tests benchmarks scripts recipes
	$(VENV)/bin/ruff format --check sudosat tests benchmarks scripts recipes
	$(VENV)/bin/mypy sudosat

PYTHON_ENGINE_TESTS := tests/logic/test_path.py tests/logic/test_levels.py tests/logic/test_chains.py tests/making/test_make.py

# The fast tier on every other Python of this machine that requires-python admits,
# each in .venvs/X.Y, and mypy on the oldest (scripts/pythons.py; build/pythons.json
# says which ran, and tests/stories/test_pythons.py holds the suite to it).
pythons: $(VENV)/.installed
	$(PY) scripts/pythons.py

# The whole suite, as CI runs it, with every other Python's fast tier beside it
# (pythons, niced: the CPU the suite leaves idle), then the path's tests on the
# Python engine alone (SUDOSAT_ENGINE=python: the compiled engine's reference); -n:
# a test process per core (pytest-xdist). See scripts/test-all. The docs site is
# built strictly by the suite (tests/stories/test_docs.py).
test: lint solvers bytecode
	scripts/test-all $(PY) $(PYTHON_ENGINE_TESTS)

# The soak tier: the same checks on many more samples (the estimate's coverage
# over hundreds of seeds, paths on thousands of puzzles), left out of the suite
# to keep CI within 15 minutes: after changing what they sample, or before a release.
soak: $(VENV)/.installed
	$(PY) -m pytest -n auto -m soak

# The fast tier for the edit-test loop (about a minute): every module, no slow tests.
check: lint solvers bytecode
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
	$(PY) benchmarks/reasoning_engine.py 20 10  # the compiled engine: the technologies, and the path with it and without
	$(PY) benchmarks/fallback.py  # what running without a C compiler costs: steps as whole processes
	$(PY) benchmarks/se_rating.py --per 8 --te3 40
	$(PY) benchmarks/variant_steps.py --seeds 1 --limit 30
	$(PY) benchmarks/explanations.py --per 2 --mid 20  # what a path's reasons read like: filler, names, lengths
	$(PY) benchmarks/certify.py
	$(PY) benchmarks/serve.py --limit 30  # setting from blank: the first 30 edits (no --limit: every edit, hours at 25x25)
	$(PY) benchmarks/serve_attack.py
	$(PY) benchmarks/big_edits.py --rank 6 --edits 20
	$(PY) benchmarks/outright.py  # true candidates by the engine's search first, against SAT alone
	$(PY) benchmarks/page.py --edits 20 --cages 48  # the setter's page in chromium: replies, drawing, big grids typed
	$(PY) benchmarks/blank_phases.py killer.txt --cap 8

# The docs site, built strictly into build/site: a broken link or page fails it.
docs: $(VENV)/.installed
	$(VENV)/bin/mkdocs build --strict --quiet

# A man page for sudosat and each command, from --help (scripts/man.py), in build/man.
man: $(VENV)/.installed
	$(PY) scripts/man.py build/man

# The generated docs: the command reference (--help), the rules (the registry and
# each rule's example drawn), the techniques' examples, every module a line each from its
# docstring (tests/stories/test_docs.py checks them).
reference: $(VENV)/.installed
	$(PY) scripts/reference.py

clean:
	rm -rf $(VENV) .venvs .pytest_cache .mypy_cache .ruff_cache build *.egg-info
