"""The teaching path (issue 12): what runs for micrograd's example stays small enough to read.

``L = (a*b + c)*f; L.backward()`` after a warm-up, traced with ``sys.settrace``: the distinct lines
that run inside minigrad/ must stay within 150, in at most 4 files (today: ``_tensor.py``,
``ops/elementwise.py``, ``ops/_rules.py``, ``autograd/engine.py``: the reading order of
docs/architecture.md).  Speed tricks live elsewhere (``autograd/_fast.py``) and stay off this path.
"""

from __future__ import annotations

import os
import sys

import minigrad as torch

MAX_LINES, MAX_FILES = 150, 4
ROOT = os.path.dirname(os.path.abspath(torch.__file__))


def _leaves():
    return [torch.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, -2.0)]


def _example(a, b, c, f):
    L = (a * b + c) * f
    L.backward()
    return L


def traced_lines():
    """``{(file relative to minigrad/, line)}`` run by the example (the leaves are made before the trace)."""
    _example(*_leaves())                                    # warm-up: imports and caches
    a, b, c, f = _leaves()
    lines = set()

    def tracer(frame, event, arg):
        if event == "line" and frame.f_code.co_filename.startswith(ROOT):
            lines.add((os.path.relpath(frame.f_code.co_filename, ROOT), frame.f_lineno))
        return tracer

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        L = _example(a, b, c, f)
    finally:
        sys.settrace(old)
    assert L.item() == -8.0 and (a.grad.item(), b.grad.item(), c.grad.item(), f.grad.item()) == (6.0, -4.0, -2.0, 4.0)
    return lines


def test_the_example_runs_at_most_150_lines_in_at_most_4_files():
    lines = traced_lines()
    files = sorted({f for f, _ in lines})
    per_file = {f: sum(1 for g, _ in lines if g == f) for f in files}
    assert len(files) <= MAX_FILES, "the example runs code in %d files: %s" % (len(files), per_file)
    assert len(lines) <= MAX_LINES, "the example runs %d distinct lines (budget %d): %s" % (
        len(lines), MAX_LINES, per_file)


def test_the_speed_tricks_are_off_the_teaching_path():
    assert not any(f.endswith("_fast.py") for f, _ in traced_lines())


def test_the_budget_can_fail():
    """The tracer sees minigrad's lines: a hook on the example adds lines outside the plain path."""
    a, b, c, f = _leaves()
    seen = set()

    def tracer(frame, event, arg):
        if event == "line" and frame.f_code.co_filename.startswith(ROOT):
            seen.add((frame.f_code.co_filename, frame.f_lineno))
        return tracer

    a.register_hook(lambda g: g)
    sys.settrace(tracer)
    try:
        _example(a, b, c, f)
    finally:
        sys.settrace(None)
    assert len(seen) > len(traced_lines())
