"""The misuse catalogue (``catalogue.py``): bad input on which PyTorch raises.

Targets (issue 11): no silent successes, no internal crashes, PyTorch's exception type everywhere
and its message in >= 95 % of the cases. Cases not there yet are listed with their current class
in ``expected_failures.json``; a case doing *worse* than listed (or an unlisted case not giving
PyTorch's message) fails the test, a listed case doing better is reported (``FUZZ_STRICT=1``:
fails) so that the list shrinks (``python tests/misuse/catalogue.py expect``).

PyTorch's type and message per case are recorded in ``torch_expected.json``; ``test_recorded``
(marker ``torch``) checks that record against the installed PyTorch.
"""

from __future__ import annotations

import collections
import json
import os

import catalogue
import pytest

RANK = {"message": 0, "type": 1, "other": 2, "silent": 3, "crash": 4}


def test_catalogue_size():
    recorded = catalogue.torch_expected()
    assert len(recorded) >= 300
    assert set(recorded) <= set(catalogue.CASES), "recorded cases missing from the catalogue"


def test_minigrad_against_the_record(capsys):
    listed = json.loads(catalogue.EXPECTED_FAILURES.read_text())["cases"]
    res = catalogue.results()
    counts = collections.Counter(c for c, _, _ in res.values())
    worse, better = [], []
    for name, (cls, exp, got) in sorted(res.items()):
        allowed = listed.get(name, "message")
        if RANK[cls] > RANK[allowed]:
            worse.append("%s (%s, listed %s): %s\n    torch:    %s: %s\n    minigrad: %s" % (
                name, cls, allowed, catalogue.CASES[name], exp[0], exp[1][:200],
                "no error" if got is None else "%s: %s" % (got[0], got[1][:200])))
        elif RANK[cls] < RANK[allowed]:
            better.append("%s (%s -> %s)" % (name, allowed, cls))
    n = len(res)
    with capsys.disabled():
        print("\nmisuse catalogue: %d cases: %s; listed as not yet right: %d; now better than listed: %d"
              % (n, ", ".join("%s %d" % (k, counts[k]) for k in RANK), len(listed), len(better)))
        if better:
            print("  better than listed (shrink the list: python tests/misuse/catalogue.py expect): %s"
                  % ", ".join(better[:30]))
    assert not worse, "%d misuse case(s) worse than listed:\n" % len(worse) + "\n".join(worse[:20])
    if os.environ.get("FUZZ_STRICT"):
        assert not better, better


def test_targets_reported():
    """The issue's targets, as figures; failing cases are tracked above, so this only checks the list."""
    listed = json.loads(catalogue.EXPECTED_FAILURES.read_text())["cases"]
    assert set(listed) <= set(catalogue.torch_expected())
    assert set(listed.values()) <= set(RANK) - {"message"}


@pytest.mark.torch
def test_recorded():
    """torch_expected.json is what the installed PyTorch raises (rewrite: catalogue.py record)."""
    import torch
    stale = []
    for name, exp in catalogue.torch_expected().items():
        got = catalogue.run_case(catalogue.CASES[name], torch)
        if got is None or [got[0], got[1]] != exp:
            stale.append(name)
    assert not stale, "PyTorch no longer raises as recorded: %s" % stale[:20]
