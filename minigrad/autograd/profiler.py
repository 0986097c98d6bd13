"""``torch.autograd.profiler``: time the ops run inside ``with profile() as prof:``; ``prof.key_averages().table()``.

minigrad records each op (each ``Function.apply``, named as PyTorch's ATen ops are: ``aten::mul``,
``aten::addmm``…), each custom ``autograd.Function`` (by its class name) and each
``record_function("label")`` block, with wall-clock times from ``time.perf_counter``. Self time is an
event's time minus the time of the events nested in it.

>>> import minigrad as torch
>>> with torch.autograd.profiler.profile() as prof:
...     y = (torch.ones(3) * 2).sum()
>>> sorted(e.key for e in prof.key_averages())
['aten::mul', 'aten::sum']
"""

from __future__ import annotations

import functools
import json
import re
import time
from typing import Any

from ..autograd.function import Function

__all__ = ["profile", "record_function", "EventList", "FunctionEventAvg"]

_active: list[Any] = []          # the profiles recording now (innermost last)
_stack: list[Any] = []           # open events, for nesting


def _aten_name(cls) -> str:
    node = getattr(cls, "node_name", None)
    if cls.__module__.startswith("minigrad.") and node:
        base = re.sub(r"Backward\d*$", "", node)
        return "aten::" + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", base).lower()
    return cls.__name__


class _Event:
    __slots__ = ("name", "start", "end", "children", "shapes")

    def __init__(self, name: Any, shapes: Any = None) -> None:
        self.name, self.start, self.end, self.children, self.shapes = name, time.perf_counter(), None, 0.0, shapes


def _open(name, shapes=None):
    event = _Event(name, shapes)
    _stack.append(event)
    return event


def _close(event):
    event.end = time.perf_counter()
    _stack.pop()
    total = event.end - event.start
    if _stack:
        _stack[-1].children += total
    for prof in _active:
        prof._events.append(event)


def _wrap(apply):
    def profiled(cls, *args):
        shapes = [list(a.shape) if hasattr(a, "shape") else [] for a in args] if any(
            p.record_shapes for p in _active) else None
        event = _open(_aten_name(cls), shapes)
        try:
            return apply(cls, *args)
        finally:
            _close(event)
    return profiled


def _patch():
    from ..ops._rules import Rule  # at call time: ops is a higher layer

    saved = []
    for klass in (Function, Rule):
        original = klass.__dict__["apply"]
        saved.append((klass, original))
        klass.apply = classmethod(_wrap(original.__func__))
    return saved


class FunctionEventAvg:
    """The statistics of one op name: ``count``, ``cpu_time_total`` and ``self_cpu_time_total`` (µs)."""

    key: Any
    count: int
    cpu_time_total: float
    self_cpu_time_total: float
    input_shapes: None

    def __init__(self, key: Any) -> None:
        self.key, self.count, self.cpu_time_total, self.self_cpu_time_total = key, 0, 0.0, 0.0
        self.input_shapes = None

    @property
    def cpu_time(self) -> Any:
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self) -> str:
        return "<FunctionEventAvg key=%s self_cpu_time=%.3fus cpu_time=%.3fus count=%d>" % (
            self.key, self.self_cpu_time_total, self.cpu_time, self.count)


def _us(t):
    return "%.3fus" % t if t < 1000 else "%.3fms" % (t / 1000) if t < 1e6 else "%.3fs" % (t / 1e6)


class EventList(list[Any]):
    """Averages per op; ``table()`` prints them as PyTorch's profiler does."""

    def table(self, sort_by: Any = None, row_limit: int = 100, max_src_column_width: int = 75,
              max_name_column_width: int = 55, header: Any = None, top_level_events_only: bool = False) -> Any:
        rows = list(self)
        if sort_by:
            key = sort_by.replace("cpu_time_total", "cpu_time_total")
            if key in ("cpu_time_total", "self_cpu_time_total", "count", "cpu_time"):
                rows.sort(key=lambda e: getattr(e, key), reverse=True)
        rows = rows[:row_limit] if row_limit and row_limit > 0 else rows
        total_self = sum(e.self_cpu_time_total for e in self) or 1.0
        name_width = max([len("Name")] + [len(e.key) for e in rows]) + 2
        name_width = min(name_width, max_name_column_width)
        cols = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        line = "-" * name_width + "  " + "  ".join("-" * 12 for _ in cols) + "  "
        out = [line, "Name".rjust(name_width) + "  " + "  ".join(c.rjust(12) for c in cols) + "  ", line]
        for e in rows:
            cells = ["%.2f%%" % (100 * e.self_cpu_time_total / total_self), _us(e.self_cpu_time_total),
                     "%.2f%%" % (100 * e.cpu_time_total / total_self), _us(e.cpu_time_total), _us(e.cpu_time),
                     str(e.count)]
            out.append(e.key[:name_width].rjust(name_width) + "  " + "  ".join(c.rjust(12) for c in cells) + "  ")
        out += [line, "Self CPU time total: %s" % _us(total_self), ""]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.table()


class profile:
    """Record the ops run inside the ``with`` block (CPU only; ``use_cuda`` is ignored)."""

    enabled: bool
    record_shapes: bool

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device: Any = None,
                 record_shapes: bool = False, with_flops: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_modules: bool = False, use_kineto: bool = False, use_cpu: bool = True,
                 experimental_config: Any = None, acc_events: bool = False, custom_trace_id_callback: Any = None,
                 activities: Any = None, schedule: Any = None, on_trace_ready: Any = None) -> None:
        self.enabled, self.record_shapes = enabled, record_shapes
        self._events: list[Any] = []
        self._saved = None
        self.on_trace_ready = on_trace_ready

    def __enter__(self) -> Any:
        if self.enabled:
            if not _active:
                self._saved = _patch()
            _active.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled and self in _active:
            _active.remove(self)
            if self._saved is not None:
                for klass, original in self._saved:
                    klass.apply = original
                self._saved = None
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
        return None

    start = __enter__

    def stop(self) -> Any:
        self.__exit__(None, None, None)

    def step(self) -> Any:
        """For ``torch.profiler`` schedules: every step is recorded here."""

    def events(self) -> Any:
        return list(self._events)

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0) -> Any:
        stats: dict[Any, Any] = {}
        order = []
        for e in self._events:
            key = (e.name, str(e.shapes)) if group_by_input_shape else e.name
            if key not in stats:
                stats[key] = FunctionEventAvg(e.name)
                stats[key].input_shapes = e.shapes
                order.append(key)
            s = stats[key]
            total = (e.end - e.start) * 1e6
            s.count += 1
            s.cpu_time_total += total
            s.self_cpu_time_total += total - e.children * 1e6
        return EventList(stats[k] for k in order)

    def table(self, *args: Any, **kwargs: Any) -> Any:
        return self.key_averages().table(*args, **kwargs)

    def export_chrome_trace(self, path: Any) -> Any:
        t0 = min((e.start for e in self._events), default=0.0)
        trace = [{"name": e.name, "ph": "X", "ts": (e.start - t0) * 1e6, "dur": (e.end - e.start) * 1e6,
                  "pid": 0, "tid": 0, "cat": "cpu_op"} for e in self._events]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace}, f)

    def __str__(self) -> str:
        return self.table()


class record_function:
    """Label a block of code in the profile: ``with record_function("forward"): ...``."""

    def __init__(self, name: Any, args: Any = None) -> None:
        self.name = name
        self._event = None

    def __enter__(self) -> Any:
        if _active:
            self._event = _open(self.name)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._event is not None:
            _close(self._event)
            self._event = None
        return None

    def __call__(self, fn: Any) -> Any:
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)
        return wrapper

