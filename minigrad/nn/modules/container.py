"""Containers: ``Sequential`` (a pipeline), ``ModuleList`` and ``ModuleDict`` (registered collections)."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from typing import TYPE_CHECKING, Any

from .module import Module, _indent

if TYPE_CHECKING:
    from ..._tensor import Tensor

__all__ = ["Sequential", "ModuleList", "ModuleDict"]


def _index(idx, size: int) -> int:
    """A possibly negative index as a non-negative one, with PyTorch's error."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError("index %d is out of range" % idx)
    return idx % size if size else idx


class Sequential(Module):
    """Modules applied one after the other; children are named ``"0"``, ``"1"``, … (or by an OrderedDict).

    Examples
    --------
    >>> import minigrad as torch
    >>> from minigrad import nn
    >>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    >>> len(model), type(model[1]).__name__, len(model[1:])
    (3, 'ReLU', 2)
    >>> model(torch.ones(4, 2)).shape
    torch.Size([4, 1])
    """

    def __init__(self, *args: Any) -> None:  # modules, or one OrderedDict of them
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input: Tensor) -> Any:
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return next(islice(self._modules.values(), _index(idx, len(self)), None))

    def __setitem__(self, idx: Any, module: Module) -> None:
        key = list(self._modules)[_index(idx, len(self))]
        setattr(self, key, module)

    def __delitem__(self, idx: Any) -> None:
        keys = list(self._modules)
        for key in keys[idx] if isinstance(idx, slice) else [keys[_index(idx, len(self))]]:
            delattr(self, key)
        # renumber, so the names stay "0", "1", ...
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end; return self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential: Iterable[Module]) -> Sequential:
        for module in sequential:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        if not isinstance(module, Module):
            raise AssertionError("module should be of type: %s" % Module)
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError("Index out of range: %d" % index)
        if index < 0:
            index += n
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(modules))
        return self

    def pop(self, key: Any) -> Module:
        module = self[key]
        del self[key]
        return module


class ModuleList(Module):
    """A list of modules whose parameters the owner registers (``"0"``, ``"1"``, …); it has no forward.

    >>> from minigrad import nn
    >>> layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    >>> len(layers), len(list(layers.parameters()))
    (3, 6)
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self)))]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, str(_index(idx, len(self))), module)

    def __delitem__(self, idx: Any) -> None:
        keys = list(self._modules)
        for key in keys[idx] if isinstance(idx, slice) else [str(_index(idx, len(self)))]:
            delattr(self, key)
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleList.extend should be called with an iterable, but got " + type(modules).__name__
            )
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(modules))

    def pop(self, key: Any) -> Module:
        module = self[key]
        del self[key]
        return module

    def __repr__(self) -> str:
        """Like Module's, but runs of equal children print once: ``(2-3): 2 x Linear(...)``."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        runs: list[list[Any]] = []  # [first index, last index, repr]
        for i, r in enumerate(reprs):
            if runs and runs[-1][2] == r:
                runs[-1][1] = i
            else:
                runs.append([i, i, r])
        lines = [
            _indent(
                "(%d): %s" % (first, r)
                if first == last
                else "(%d-%d): %d x %s" % (first, last, last - first + 1, r),
                2,
            )
            for first, last, r in runs
        ]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules whose parameters the owner registers, in insertion order; it has no forward.

    >>> from minigrad import nn
    >>> heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Identity()})
    >>> list(heads), "a" in heads
    (['a', 'b'], True)
    """

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        module = self[key]
        del self[key]
        return module

    def keys(self) -> Any:
        return self._modules.keys()

    def items(self) -> Any:
        return self._modules.items()

    def values(self) -> Any:
        return self._modules.values()

    def update(self, modules: Any) -> None:
        items = modules.items() if isinstance(modules, Mapping) else modules
        for key, module in items:
            self[key] = module
