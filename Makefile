# The two commands in the README, and a few helpers. The work is done by ./dev (bash), so
# that a machine without make can run the same thing: `bash dev notebooks`, `bash dev test`.
#
#   make notebooks   (alias: make run)   set up .venv, make the learner edition, open it in JupyterLab
#   make learner                         (re)make the learner edition of the course in learner/
#   make site                            build the course as static HTML into site/ (no Python needed to read it)
#   make gallery                         set up .venv, render the example gallery into gallery/, exit
#   make test                            set up .venv with the test extras, run every test
#   make lint                            ruff check
#
# Variables: VENV (default .venv), PYTHON, WITH_TORCH, PYTEST_WORKERS, SHARED_PARITY (see ./dev),
# ARGS (extra arguments: pytest's for `make test`, e.g. make test ARGS="-k engine -x").

VENV ?= .venv
export VENV

.PHONY: notebooks run learner site gallery test lint setup clean help

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

setup:
	@bash ./dev setup

# Removes what runs leave behind; never the virtual environment (rm -rf $(VENV) for that).
clean:
	rm -rf gallery site build dist .pytest_cache .ruff_cache .hypothesis *.egg-info
	find . -name __pycache__ -type d -not -path './$(VENV)/*' -prune -exec rm -rf {} +

help:
	@bash ./dev help
