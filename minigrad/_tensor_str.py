"""``repr(tensor)`` exactly as PyTorch prints it (precision 4, 80 columns, summaries past 1000 elements)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _dtype

if TYPE_CHECKING:
    from ._tensor import Tensor

PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = 4, 1000, 3, 80
SCI_MODE = None                  # None: chosen per tensor; True / False: forced by set_printoptions
_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}


def set_printoptions(precision: int | None = None, threshold: float | None = None, edgeitems: int | None = None,
                     linewidth: int | None = None, profile: str | None = None, sci_mode: bool | None = None) -> None:
    """``torch.set_printoptions``: digits, summarising threshold, edge items, line width, scientific notation."""
    global PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH, SCI_MODE
    if profile is not None:
        PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = _PROFILES[profile]
    PRECISION = PRECISION if precision is None else precision
    THRESHOLD = THRESHOLD if threshold is None else threshold
    EDGEITEMS = EDGEITEMS if edgeitems is None else edgeitems
    LINEWIDTH = LINEWIDTH if linewidth is None else linewidth
    SCI_MODE = sci_mode


class _Formatter:
    """Chooses one format for all elements: integral (``1.``), fixed (``1.5000``) or scientific."""

    def __init__(self, values: np.ndarray) -> None:
        self.floating = values.dtype.kind == "f"
        self.int_mode, self.sci_mode, self.max_width = True, False, 1
        flat = values.reshape(-1)
        if not self.floating:
            for v in flat:
                self.max_width = max(self.max_width, len(_plain(v)))
            return
        finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if finite.size == 0:
            return                    # all zeros or non-finite: PyTorch keeps width 1
        magnitudes = np.abs(finite)
        lo, hi = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        spread = hi > 1000.0 * lo                     # (not hi / lo: that overflows for 1e-300 next to 1)
        if self.int_mode:
            self.sci_mode = spread or hi > 1.0e8
        else:
            self.sci_mode = spread or hi > 1.0e8 or lo < 1.0e-4
        if SCI_MODE is not None:
            self.sci_mode = SCI_MODE
        if self.sci_mode:
            texts = ("{:.{}e}".format(v, PRECISION) for v in finite)
        elif self.int_mode:
            texts = (f"{v:.0f}." for v in finite)
        else:
            texts = ("{:.{}f}".format(v, PRECISION) for v in finite)
        self.max_width = max(len(t) for t in texts)

    def _fixed_text(self, value: float) -> str:
        return f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")

    def format(self, value: Any) -> str:
        if not self.floating:
            text = _plain(value)
        elif self.sci_mode:
            text = "{:{}.{}e}".format(float(value), self.max_width, PRECISION)
        elif self.int_mode:
            text = self._fixed_text(float(value))
        else:
            text = "{:.{}f}".format(float(value), PRECISION)
        return " " * (self.max_width - len(text)) + text


def _plain(v) -> str:
    return str(bool(v)) if isinstance(v, (bool, np.bool_)) else str(v)


def _summarized(a: np.ndarray) -> np.ndarray:
    """The corner values that a summarised repr shows (3 leading and trailing per dimension)."""
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * EDGEITEMS:
        parts = [a[:EDGEITEMS], a[-EDGEITEMS:]]
    else:
        parts = [a]
    return np.concatenate([np.stack([_summarized(row) for row in p]) if a.ndim > 1 else p for p in parts])


def _vector(a, indent, summarize, fmt) -> str:
    per_line = max(1, math.floor((LINEWIDTH - indent) / (fmt.max_width + 2)))
    if summarize and a.shape[0] > 2 * EDGEITEMS:
        items = [fmt.format(v) for v in a[:EDGEITEMS]] + [" ..."] + [fmt.format(v) for v in a[-EDGEITEMS:]]
    else:
        items = [fmt.format(v) for v in a]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _body(a, indent, summarize, fmt) -> str:
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector(a, indent, summarize, fmt)
    if summarize and a.shape[0] > 2 * EDGEITEMS:
        rows = ([_body(a[i], indent + 1, summarize, fmt) for i in range(EDGEITEMS)] + ["..."]
                + [_body(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0] - EDGEITEMS, a.shape[0])])
    else:
        rows = [_body(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def _add_suffixes(text, suffixes, indent) -> str:
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t: Tensor, prefix: str = 'tensor(') -> str:
    """The text PyTorch prints for a tensor."""
    a = t._data
    indent = len(prefix)
    suffixes = []
    if a.size == 0:
        body = "[]"
        if a.ndim != 1:
            suffixes.append("size=" + str(tuple(a.shape)))
    else:
        summarize = a.size > THRESHOLD
        fmt = _Formatter(_summarized(a) if summarize else a)
        body = _body(a, indent, summarize, fmt)
    if t.dtype is not _dtype.get_default_dtype() and (a.size == 0 or t.dtype not in (_dtype.int64, _dtype.bool)):
        suffixes.append("dtype=" + repr(t.dtype))
    try:
        grad_fn = t.grad_fn
    except RuntimeError:        # a view that may not be rebased after an in-place write (PyTorch prints this too)
        suffixes.append("grad_fn=<Invalid>")
    else:
        if grad_fn is not None:
            suffixes.append("grad_fn=<%s>" % type(grad_fn).__name__)
        elif t.requires_grad:
            suffixes.append("requires_grad=True")
    if t._fw_grads:                              # a dual tensor (forward AD) shows its tangent
        from .autograd import forward_ad  # circular: autograd builds on the tensor
        tangent = forward_ad.unpack_dual(t).tangent
        if tangent is not None:
            suffixes.append("tangent=" + repr(tangent))
    return _add_suffixes(prefix + body, suffixes, indent)
