"""Anomaly detection: find the forward line whose backward went wrong.

``with torch.autograd.detect_anomaly():`` (or ``torch.autograd.set_detect_anomaly(True)``) does two things,
as in PyTorch:

1. every node recorded while it is on keeps the Python stack of the forward call that made it, in
   ``node.metadata["traceback_"]``; when that node's backward raises, a ``UserWarning`` shows that stack
   (``Error detected in MulBackward0. Traceback of forward call that caused the error: ...``);
2. with ``check_nan=True`` (the default), a backward formula that returns NaN raises at once:
   ``RuntimeError: Function 'DivBackward0' returned nan values in its 1th output.`` instead of letting the
   NaN spread silently into ``.grad``.

Like PyTorch's, the mode is one switch for the whole process (not per thread). It slows backward down:
it is for debugging.
"""

from __future__ import annotations

import os
import traceback
import warnings
from typing import Any

import numpy as np

from . import graph

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "set_anomaly_enabled"]

_MINIGRAD_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class _Mode:
    enabled = False
    check_nan = True
    recorder: Any = None        # the node-created hook that keeps forward stacks, while enabled


_mode = _Mode()


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on (``torch.is_anomaly_enabled``)."""
    return _mode.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection raises on NaN gradients (``torch.is_anomaly_check_nan_enabled``)."""
    return _mode.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off for the process (``torch.set_anomaly_enabled``)."""
    _mode.enabled, _mode.check_nan = bool(enabled), bool(check_nan)
    if _mode.enabled and _mode.recorder is None:
        _mode.recorder = graph._add_for_all_threads(graph._node_created_hooks, _record_forward_stack)
    elif not _mode.enabled and _mode.recorder is not None:
        _mode.recorder.remove()
        _mode.recorder = None


def _record_forward_stack(node: Any) -> None:
    """Keep the user's part of the stack: the frames outside minigrad's own files (PyTorch's are C++)."""
    frames = [f for f in traceback.extract_stack()[:-1] if not f.filename.startswith(_MINIGRAD_DIR)]
    node.metadata["traceback_"] = traceback.format_list(frames)


class detect_anomaly:
    """Context manager: anomaly detection on inside the block (PyTorch's ``torch.autograd.detect_anomaly``).

    >>> import minigrad as torch, warnings
    >>> x = torch.tensor([0., 1.], requires_grad=True)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     with torch.autograd.detect_anomaly():
    ...         y = (x * 0) / (x * 0)
    ...         y.sum().backward()
    Traceback (most recent call last):
    RuntimeError: Function 'DivBackward0' returned nan values in its 1th output.
    """

    prev: bool
    prev_check_nan: bool
    check_nan: bool

    def __init__(self, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan, self.check_nan = _mode.enabled, _mode.check_nan, check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Turn anomaly detection on or off, as a call or as a context manager that restores the previous mode."""

    prev: bool
    prev_check_nan: bool

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = _mode.enabled, _mode.check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


def check_nan(node: Any, grad_inputs: Any) -> None:
    """The engine's check after each node under anomaly mode: no formula may return NaN."""
    for i, g in enumerate(grad_inputs):
        data = getattr(g, "_data", g)
        if data is not None and np.isnan(data).any():
            raise RuntimeError("Function '%s' returned nan values in its %dth output." % (node.name(), i))


def warn_forward_stack(node: Any) -> None:
    """The engine's warning when ``node``'s backward raised: where in the forward the node came from."""
    stack = node._metadata.get("traceback_") if node is not None and node._metadata else None
    if stack is None:
        warnings.warn("Error detected in %s. No forward pass information available. Enable detect anomaly during "
                      "forward pass for more information." % node.name(), UserWarning, stacklevel=3)
        return
    warnings.warn("Error detected in %s. Traceback of forward call that caused the error:\n%s"
                  % (node.name(), "".join(stack).rstrip("\n")), UserWarning, stacklevel=3)
