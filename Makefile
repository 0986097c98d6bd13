# The two commands in the README, and a few helpers. The work is done by ./dev (bash), so
# that a machine without make can run the same thing: `bash dev notebooks`, `bash dev test`.
#
#   make notebooks   (alias: make run)   set up .venv from the lock, make the learner edition, open it in JupyterLab
#   make learner                         (re)make the learner edition of the course in learner/
#   make site                            build the course as static HTML into site/ (no Python needed to read it)
#   make gallery                         set up .venv, render the example gallery into gallery/, exit
#   make test                            set up .venv with the test group, run every test
#   make lint                            ruff check
#   make typecheck                       mypy on minigrad and viz; pyright --verifytypes >= 90 % for both
#   make docs                            the API reference (Sphinx + numpydoc) into docs/_build/html
#   make lock                            regenerate the locks in requirements/ (uv) after editing pyproject.toml
#   make fuzz N=10000 SEED=1             differential fuzzer against PyTorch: summary by root cause,
#                                        minimised reproducers in fuzz-out/ (tests/fuzz/README.md)
#
# Variables: VENV (default .venv), PYTHON, LOCK (1: install the locked versions; 0: the newest allowed),
# WITH_TORCH, PYTEST_WORKERS, SHARED_PARITY (see ./dev help),
# ARGS (extra arguments: pytest's for `make test`, e.g. make test ARGS="-k engine -x").

VENV ?= .venv
export VENV
# Passed on to ./dev when given (make notebooks LOCK=0).
$(foreach v,PYTHON LOCK WITH_TORCH PYTEST_WORKERS SHARED_PARITY,$(if $(filter undefined,$(origin $(v))),,$(eval export $(v))))

.PHONY: notebooks run learner site gallery test lint typecheck docs lock setup clean help fuzz

notebooks run:
	@bash ./dev notebooks $(ARGS)

learner:
	@bash ./dev learner $(ARGS)

site:
	@bash ./dev site $(ARGS)

gallery:
	@bash ./dev gallery -o gallery $(ARGS)

test:
	@bash ./dev test $(ARGS)

lint:
	@bash ./dev lint $(ARGS)

typecheck:
	@bash ./dev typecheck $(ARGS)

docs:
	@bash ./dev docs $(ARGS)

lock:
	@bash ./dev lock $(ARGS)

setup:
	@bash ./dev setup

# The differential fuzzer (added by the fuzz helper): N programs from SEED against PyTorch.
N ?= 1000
SEED ?= 1
fuzz:
	PYTHONPATH=.:tests/fuzz $(VENV)/bin/python -m fuzzlib run -n $(N) --seed $(SEED) --out fuzz-out $(ARGS)

# Removes what runs leave behind; never the virtual environment (rm -rf $(VENV) for that).
clean:
	rm -rf gallery site build dist docs/_build docs/api/generated .pytest_cache .ruff_cache .hypothesis *.egg-info
	find . -name __pycache__ -type d -not -path './$(VENV)/*' -prune -exec rm -rf {} +

help:
	@bash ./dev help
