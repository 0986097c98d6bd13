"""The differential fuzzer in the test suite (see README.md here).

* ``test_ci_run``: the fixed-seed run of 500 programs (seed 0). Programs that mismatch today are
  listed, with their root causes, in ``expected_failures.json``; a program that fails with a cause
  not listed for it fails the test (a regression, or a new finding). Programs that now pass are
  reported; run ``python -m fuzzlib expect`` to shrink the list (``FUZZ_STRICT=1`` makes a listed
  program that passes fail the test).
* ``test_regression``: each minimised reproducer in ``regressions/`` against PyTorch; ``"open"``
  ones still show their root cause (reported when they stop), ``"fixed"`` ones must never show it
  again (``python -m fuzzlib regressions`` updates the statuses).
* Generator properties: same seed, same program; every op family is drawn.
"""

from __future__ import annotations

import collections
import json
import os
from pathlib import Path

import pytest
from fuzzlib import ops
from fuzzlib.__main__ import CI_N, CI_SEED, EXPECTED, program_id
from fuzzlib.program import render

HERE = Path(__file__).resolve().parent
REGRESSIONS = sorted((HERE / "regressions").glob("*.json"))

pytestmark = pytest.mark.torch


def _check(program):
    from fuzzlib.compare import check
    return check(program)


def _generate(seed):
    from fuzzlib.generate import generate
    return generate(seed)


def test_ci_run(capsys):
    expected = json.loads(EXPECTED.read_text())
    assert expected["seed"] == CI_SEED
    assert expected["n"] == CI_N
    listed = expected["failing"]
    new, fixed, counts = [], [], collections.Counter()
    for k in range(CI_N):
        program = _generate(program_id(CI_SEED, k))
        diffs = _check(program)
        keys = {"%s:%s" % d.key for d in diffs}
        for d in diffs[:1]:
            counts[d.category] += 1
        unexpected = keys - set(listed.get(str(k), ()))
        if unexpected:
            first = next(d for d in diffs if "%s:%s" % d.key in unexpected)
            new.append("program %d (python -m fuzzlib show --seed %d --k %d --minimize): %s\n%s" % (
                k, CI_SEED, k, first.describe(), render(program)))
        elif str(k) in listed and not keys:
            fixed.append(k)
    with capsys.disabled():
        print("\nfuzz CI run: %d of %d programs mismatch (listed: %d, now passing: %d); by first difference: %s"
              % (sum(counts.values()), CI_N, len(listed), len(fixed), dict(counts.most_common())))
        if fixed:
            print("  now passing (shrink the list: python -m fuzzlib expect): %s" % fixed[:40])
    assert not new, "%d program(s) fail with a root cause not listed in expected_failures.json:\n\n%s" % (
        len(new), "\n\n".join(new[:5]))
    if os.environ.get("FUZZ_STRICT"):
        assert not fixed, "listed programs now pass: %s (run python -m fuzzlib expect)" % fixed


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.stem for p in REGRESSIONS])
def test_regression(path, capsys):
    case = json.loads(path.read_text())
    keys = {"%s:%s" % d.key for d in _check(case)}
    key = "%s:%s" % tuple(case["key"])
    if case.get("status", "open") == "open":
        if key not in keys:
            with capsys.disabled():
                print("\nregression %s no longer fails: mark it \"status\": \"fixed\"" % path.name)
            if os.environ.get("FUZZ_STRICT"):
                pytest.fail("%s is fixed: mark it \"status\": \"fixed\"" % path.name)
    else:
        assert key not in keys, "%s (fixed) fails again: %s\n%s" % (path.name, key, render(case))


def test_same_seed_same_program():
    a, b = _generate(12345), _generate(12345)
    assert a == b
    assert render(a) == render(b)
    assert _generate(12346) != a


def test_every_family_is_drawn():
    """Over the CI run's seed, every op family and most variants appear."""
    seen = collections.Counter()
    for k in range(120):
        for step in _generate(program_id(CI_SEED, k))["steps"]:
            seen[step["op"]] += 1
    families = collections.defaultdict(set)
    for v in ops.VARIANTS:
        families[v.family].add(v.name)
    ops_seen = set(seen)
    assert "leaf" in ops_seen
    assert any(s.startswith("inplace_") for s in ops_seen)
    for plan in ("backward", "grad", "create_graph", "retain_twice", "backward_v"):
        assert plan in ops_seen, plan
    assert len(ops_seen) >= 100, sorted(ops_seen)
