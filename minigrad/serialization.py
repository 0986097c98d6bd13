"""``torch.save`` / ``torch.load`` in a format that cannot run code when it is read.

A file is a zip archive: ``minigrad/data.json`` describes the saved object as a tree of plain values
(numbers, strings, ``None``, lists, tuples, dicts, ``OrderedDict``, ``torch.Size``, dtypes, devices)
whose leaves may be tensors, and ``minigrad/tensors/<n>.npy`` holds each tensor's numbers (read
back with ``numpy.load(allow_pickle=False)``). A tensor stored twice is loaded once, so shared
tensors stay shared. That covers what training code saves: ``model.state_dict()``,
``optimizer.state_dict()``, checkpoints dicts with epoch numbers and losses, lists of tensors.

Anything else (``torch.save(model)``: a whole module) is pickled into ``minigrad/object.pkl``. As in
PyTorch ≥ 2.6, ``torch.load`` refuses such a file unless ``weights_only=False`` is passed — only do
that with files you trust, since unpickling can run arbitrary code.

>>> import io, minigrad as torch
>>> buffer = io.BytesIO()
>>> torch.save({"epoch": 3, "w": torch.ones(2)}, buffer)
>>> _ = buffer.seek(0)
>>> torch.load(buffer)
{'epoch': 3, 'w': tensor([1., 1.])}
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import pickle
import zipfile
from collections import OrderedDict
from typing import Any

import numpy as np

from . import _dtype
from ._creation import device
from ._size import Size
from ._tensor import Tensor
from .nn.parameter import Parameter

__all__ = ["save", "load"]

_FORMAT = "minigrad-save/1"
_DTYPES = {d.name: d for d in _dtype._ALL}
_WEIGHTS_ONLY_MESSAGE = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only "
    "if you trust the source of the checkpoint. \n\t(1) In PyTorch 2.6, we changed the default value of the "
    "`weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` "
    "set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please check the "
    "recommended steps in the following error message.\n\tWeightsUnpickler error: the file holds a pickled "
    "Python object (%s), which a weights-only load does not run.")


class _NotPlain(Exception):
    """The object holds something the JSON tree cannot describe (then it is pickled)."""


class _Encoder:
    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []
        self.ids: dict[int, int] = {}

    def encode(self, obj: Any) -> Any:
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, int):
            return obj if abs(obj) < 2**53 else {"t": "int", "v": str(obj)}
        if isinstance(obj, float):
            return obj if math.isfinite(obj) else {"t": "float", "v": repr(obj)}
        if isinstance(obj, Tensor):
            key = id(obj)
            if key not in self.ids:
                self.ids[key] = len(self.arrays)
                self.arrays.append(np.ascontiguousarray(obj._data))
            return {"t": "tensor", "id": self.ids[key], "dtype": obj.dtype.name,
                    "requires_grad": bool(obj.requires_grad), "parameter": isinstance(obj, Parameter)}
        if isinstance(obj, Size):
            return {"t": "size", "v": list(obj)}
        if isinstance(obj, _dtype.dtype):
            return {"t": "dtype", "v": obj.name}

        if isinstance(obj, device):
            return {"t": "device", "v": str(obj)}
        if isinstance(obj, np.ndarray) and obj.dtype.kind in "biuf":
            self.arrays.append(np.ascontiguousarray(obj))
            return {"t": "ndarray", "id": len(self.arrays) - 1}
        if isinstance(obj, complex):
            return {"t": "complex", "v": [obj.real, obj.imag]}
        if isinstance(obj, bytes):
            return {"t": "bytes", "v": obj.hex()}
        if type(obj) in (list, tuple, set, frozenset):
            return {"t": type(obj).__name__, "v": [self.encode(v) for v in obj]}
        if type(obj) in (dict, OrderedDict):
            node = {"t": "dict" if type(obj) is dict else "odict",
                    "v": [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
            meta = getattr(obj, "_metadata", None)
            if meta is not None:
                node["meta"] = self.encode(meta)
            return node
        raise _NotPlain(type(obj).__name__)


def _decode(node, arrays, tensors):
    if not isinstance(node, dict):
        return node
    kind, value = node["t"], node.get("v")
    if kind == "tensor":
        i = node["id"]
        if i not in tensors:
            data = arrays(i).astype(_DTYPES[node["dtype"]].numpy, copy=False)
            t = Tensor._make(data, False)
            if node["parameter"]:
                t = Parameter(t, requires_grad=node["requires_grad"])
            elif node["requires_grad"]:
                t.requires_grad_(True)
            tensors[i] = t
        return tensors[i]
    if kind == "ndarray":
        return arrays(node["id"])
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    if kind == "complex":
        return complex(*value)
    if kind == "bytes":
        return bytes.fromhex(value)
    if kind == "size":
        return Size(value)
    if kind == "dtype":
        return _DTYPES[value]
    if kind == "device":
        return device(value)
    if kind in ("list", "tuple", "set", "frozenset"):
        items = [_decode(v, arrays, tensors) for v in value]
        return {"list": list[Any], "tuple": tuple[Any, ...], "set": set[Any], "frozenset": frozenset}[kind](items)
    if kind in ("dict", "odict"):
        out = (dict if kind == "dict" else OrderedDict)(
            (_decode(k, arrays, tensors), _decode(v, arrays, tensors)) for k, v in value)
        if "meta" in node:
            out._metadata = _decode(node["meta"], arrays, tensors)
        return out
    raise pickle.UnpicklingError("unknown entry %r in a minigrad file" % (kind,))


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True) -> None:
    """Write ``obj`` (a state_dict, a checkpoint dict, tensors…) to a path or a binary file object."""
    encoder = _Encoder()
    try:
        tree, pickled = encoder.encode(obj), None
    except _NotPlain as e:
        tree, pickled = {"t": "pickle", "type": str(e)}, pickle.dumps(obj, protocol=max(pickle_protocol, 2))
    with _opened(f, "wb") as stream, zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_STORED) as z:
        z.writestr("minigrad/format", _FORMAT)
        z.writestr("minigrad/data.json", json.dumps(tree))
        for i, array in enumerate(encoder.arrays):
            buf = io.BytesIO()
            np.save(buf, array, allow_pickle=False)
            z.writestr("minigrad/tensors/%d.npy" % i, buf.getvalue())
        if pickled is not None:
            z.writestr("minigrad/object.pkl", pickled)


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *, weights_only: bool | None = None,
         mmap: Any = None, **kwargs: Any) -> Any:
    """Read what ``save`` wrote. ``map_location`` may only name the CPU (``'cpu'``, a device, a dict or a function).

    ``weights_only`` (the default, as in PyTorch ≥ 2.6) reads only the plain tree: no code runs.
    """
    if weights_only is None:
        weights_only = True
    with _opened(f, "rb") as stream:
        try:
            z = zipfile.ZipFile(stream)
        except zipfile.BadZipFile:
            raise pickle.UnpicklingError("not a file written by minigrad.save (no zip archive found)") from None
        with z:
            names = set(z.namelist())
            if "minigrad/format" not in names:
                raise RuntimeError("this file was not written by minigrad.save (PyTorch's own files, and "
                                   "anything else, are not read: they would need a pickle loader)")
            tree = json.loads(z.read("minigrad/data.json"))
            if isinstance(tree, dict) and tree.get("t") == "pickle":
                if weights_only:
                    raise pickle.UnpicklingError(_WEIGHTS_ONLY_MESSAGE % tree["type"])
                return pickle.loads(z.read("minigrad/object.pkl"))

            def array(i):
                try:
                    return np.load(io.BytesIO(z.read("minigrad/tensors/%d.npy" % i)), allow_pickle=False)
                except ValueError as e:  # a pickle where an array should be: refused, never run
                    raise pickle.UnpicklingError("tensor %d of this file is not a plain array: %s" % (i, e)) from None

            return _decode(tree, array, {})


def _opened(f, mode):
    """A path is opened (and closed after); a file object is used as it is."""
    if mode == "wb" and isinstance(f, (str, os.PathLike)):
        parent = os.path.dirname(os.fspath(f))
        if parent and not os.path.isdir(parent):
            raise RuntimeError("Parent directory %s does not exist." % parent)
    return open(f, mode) if isinstance(f, (str, os.PathLike)) else contextlib.nullcontext(f)
