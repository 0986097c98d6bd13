"""A differential fuzzer for minigrad, with PyTorch as the oracle.

The pieces, in the order a program lives through them:

* :mod:`fuzzlib.program` -- what a program *is*: a list of steps (plain dicts, JSON-able), each a
  line of PyTorch-style Python with the names it defines and uses; ``render`` prints a program as
  a standalone reproducer, ``execute`` runs it against a library (``minigrad`` or ``torch``) and
  records what it observed.
* :mod:`fuzzlib.ops` -- the table of op variants the generator draws from.
* :mod:`fuzzlib.generate` -- seeded random programs: leaves, a DAG of ops, views and in-place
  ops, hooks, ``retain_grad``, and a backward plan.
* :mod:`fuzzlib.compare` -- compares two executions and classifies every difference by root cause;
  consults :mod:`fuzzlib.known` (the known-differences file).
* :mod:`fuzzlib.minimize` -- delta debugging of a mismatching program's steps.
* ``python -m fuzzlib`` (see :mod:`fuzzlib.__main__`) -- long runs, summaries, reproducers.
"""
