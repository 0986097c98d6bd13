"""Run the differential snippets (tests/parity/differential.py) under torch and minigrad.

Every snippet must print the same, raise the same and warn the same under both, except those listed
in ``KNOWN_DIFFERENCES`` (each with its reason).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.torch

PARITY = Path(__file__).resolve().parent.parent / "parity"


def test_snippets_match_pytorch():
    sys.path.insert(0, str(PARITY))
    try:
        from differential_snippets import KNOWN_DIFFERENCES
    finally:
        sys.path.remove(str(PARITY))
    proc = subprocess.run([sys.executable, str(PARITY / "differential.py")], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    differing = set(re.findall(r"^DIFF (\S+)", proc.stdout, re.M))
    unexpected = differing - set(KNOWN_DIFFERENCES)
    assert not unexpected, "\n".join(block for block in proc.stdout.split("\nDIFF ")
                                      if block.split("\n")[0].removeprefix("DIFF ") in unexpected)
