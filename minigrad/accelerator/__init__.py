"""``torch.accelerator``: device-agnostic code asks whether a GPU-like accelerator exists. Here: none.

>>> import minigrad as torch
>>> torch.accelerator.is_available()
False
"""

from __future__ import annotations

from typing import Any

__all__ = ["is_available", "current_accelerator", "device_count", "synchronize"]


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False) -> Any:
    return None


def device_count() -> int:
    return 0


def synchronize(device: Any = None) -> None:
    """Nothing to wait for on the CPU."""
