# Parts of this file follow PyTorch's torch/nn/modules/module.py (BSD-3-Clause, Copyright (c) 2016- Facebook, Inc
# and the PyTorch contributors); see THIRD_PARTY_NOTICES at the top of the distribution.
"""``Module``: the base class of layers and models — registration, traversal, state, hooks, repr."""

from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ... import _creation, _dtype
from ..._tensor import Tensor
from ...autograd import grad_mode
from ...utils.hooks import BackwardHook, RemovableHandle, hook_dict
from ..parameter import Parameter

__all__ = ["Module", "register_module_forward_pre_hook", "register_module_forward_hook"]

# Hooks that run for every module's forward (``register_module_forward_*``).
_global_forward_pre_hooks = hook_dict()
_global_forward_hooks = hook_dict()


def register_module_forward_pre_hook(hook: Any) -> RemovableHandle:
    """``hook(module, args)`` runs before the forward of *every* module; it may return new args."""
    return _add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook: Any) -> RemovableHandle:
    """``hook(module, args, output)`` runs after the forward of *every* module; it may return a new output."""
    return _add_hook(_global_forward_hooks, hook)


if TYPE_CHECKING:
    class _IncompatibleKeysBase(NamedTuple):
        missing_keys: list[str]
        unexpected_keys: list[str]
else:
    _IncompatibleKeysBase = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


class _IncompatibleKeys(_IncompatibleKeysBase):
    """What ``load_state_dict`` returns: the keys it could not match."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Module:
    """Base class for all layers and models.

    Assigning a ``Parameter``, a ``Module`` or (with ``register_buffer``) a tensor as an
    attribute registers it; ``parameters()``, ``state_dict()``, ``train()``/``eval()``,
    ``zero_grad()`` and ``to()`` then reach it, recursively, in registration order.
    Subclasses implement ``forward``; call the module itself (``model(x)``) so hooks run.

    Examples
    --------
    >>> import minigrad as torch
    >>> from minigrad import nn
    >>> class Net(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = nn.Linear(3, 2)
    ...         self.scale = nn.Parameter(torch.ones(1))
    ...     def forward(self, x):
    ...         return self.fc(x) * self.scale
    >>> [name for name, _ in Net().named_parameters()]
    ['scale', 'fc.weight', 'fc.bias']
    """

    training: bool
    # Set in __init__ through object.__setattr__ (declared here for type checkers).
    _parameters: dict[str, Any]
    _buffers: dict[str, Any]
    _modules: dict[str, Any]
    _version = 1

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            given = ", ".join([repr(a) for a in args] + ["%s=%r" % kv for kv in kwargs.items()])
            raise TypeError("%s.__init__() got unexpected arguments: %s" % (type(self).__name__, given))
        # object.__setattr__: our own __setattr__ looks these dicts up
        for name, value in (
            ("training", True),
            ("_parameters", {}),
            ("_buffers", {}),
            ("_non_persistent_buffers_set", set()),
            ("_backward_pre_hooks", hook_dict()),
            ("_backward_hooks", hook_dict()),
            ("_forward_pre_hooks", hook_dict()),
            ("_forward_pre_hooks_with_kwargs", set()),
            ("_forward_hooks", hook_dict()),
            ("_forward_hooks_with_kwargs", set()),
            ("_modules", {}),
        ):
            object.__setattr__(self, name, value)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            'Module [%s] is missing the required "forward" function' % type(self).__name__
        )

    # -- calling -------------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not (
            self._forward_pre_hooks
            or self._forward_hooks
            or self._backward_hooks
            or self._backward_pre_hooks
            or _global_forward_pre_hooks
            or _global_forward_hooks
        ):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        """Forward pre-hooks, ``forward``, forward hooks — each hook may replace what it sees.

        With full backward hooks (or backward pre-hooks), the tensor inputs (after the forward
        pre-hooks) and the outputs (after the forward hooks) go through ``BackwardHookFunction``
        nodes, where those hooks run during backward (see ``utils.hooks.BackwardHook``).
        """
        for hook_id, hook in (*_global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                            "but got %s." % (result,)
                        )
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        backward_hook = None
        if self._backward_hooks or self._backward_pre_hooks:
            backward_hook = BackwardHook(
                self, list(self._backward_hooks.values()), list(self._backward_pre_hooks.values())
            )
            args = backward_hook.setup_input_hook(args)
        output = self.forward(*args, **kwargs)
        for hook_id, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
            if hook_id in self._forward_hooks_with_kwargs:
                result = hook(self, args, kwargs, output)
            else:
                result = hook(self, args, output)
            if result is not None:
                output = result
        if backward_hook is not None:
            if not isinstance(output, (Tensor, tuple)):
                warnings.warn(
                    "For backward hooks to be called, module output should be a Tensor or a tuple of Tensors "
                    "but received %s" % type(output),
                    stacklevel=2,
                )
            output = backward_hook.setup_output_hook(output)
        return output

    def register_forward_pre_hook(self, hook: Any, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """``hook(module, args)`` runs before ``forward`` (only via ``module(...)``); it may return new args.

        With ``with_kwargs=True`` it is ``hook(module, args, kwargs)`` and may return ``(args, kwargs)``.
        """
        handle = _add_hook(self._forward_pre_hooks, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs.add(handle.id)
        return handle

    def register_forward_hook(self, hook: Any, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """``hook(module, args, output)`` runs after ``forward`` (only via ``module(...)``).

        It may return a replacement output. ``with_kwargs=True``: ``hook(module, args, kwargs, output)``.

        >>> from minigrad import nn
        >>> import minigrad as torch
        >>> relu = nn.ReLU()
        >>> handle = relu.register_forward_hook(lambda m, args, out: out * 10)
        >>> relu(torch.tensor([-1., 2.]))
        tensor([ 0., 20.])
        >>> handle.remove(); relu(torch.tensor([-1., 2.]))
        tensor([0., 2.])
        """
        handle = _add_hook(self._forward_hooks, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs.add(handle.id)
        return handle

    def register_full_backward_pre_hook(self, hook: Any, prepend: bool = False) -> RemovableHandle:
        """``hook(module, grad_output)`` runs when the gradients w.r.t. the module's outputs are known.

        It may return a replacement ``grad_output`` (a tuple of the same length).  Like all
        module hooks it is set up only when the module is called as ``module(...)``.
        """
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook: Any, prepend: bool = False) -> RemovableHandle:
        """``hook(module, grad_input, grad_output)`` runs when the gradients w.r.t. the module's inputs are known.

        ``grad_input`` has one entry per positional input: None for non-tensors and for inputs
        that do not require grad.  The hook may return a replacement ``grad_input``.  If no input
        requires grad, it runs (with a warning, as in PyTorch) as soon as ``grad_output`` is known.

        >>> import minigrad as torch
        >>> from minigrad import nn
        >>> lin = nn.Linear(2, 1)
        >>> handle = lin.register_full_backward_hook(lambda m, gin, gout: print(gin[0].shape, gout))
        >>> lin(torch.ones(3, 2, requires_grad=True)).sum().backward()
        torch.Size([3, 2]) (tensor([[1.],
                [1.],
                [1.]]),)
        >>> handle.remove()
        """
        return _add_hook(self._backward_hooks, hook, prepend)

    # -- registration ----------------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=self._parameters)  # a re-assigned parameter keeps its place (nn3)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    "cannot assign '%s' as parameter '%s' (torch.nn.Parameter or None expected)"
                    % (_typename(value), name)
                )
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if self.__dict__.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            self._modules[name] = value
        elif self.__dict__.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(
                    "cannot assign '%s' as child module '%s' (torch.nn.Module or None expected)"
                    % (_typename(value), name)
                )
            self._modules[name] = value
        elif self.__dict__.get("_buffers") is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    "cannot assign '%s' as buffer '%s' (torch.nn.Buffer, torch.Tensor or None expected)"
                    % (_typename(value), name)
                )
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: dict | None = None) -> None:
        """Drop ``name`` from every registry (but ``keep``), before it is registered again as something else."""
        for registry in (self.__dict__, self._parameters, self._buffers, self._modules):
            if registry is not keep:
                registry.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails: parameters, buffers and submodules live in dicts.
        for registry in ("_parameters", "_buffers", "_modules"):
            entries = self.__dict__.get(registry)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __delattr__(self, name: str) -> None:
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        return sorted(
            set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules)
        )

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add ``param`` (or None, a placeholder) under ``name``; same as assigning the attribute."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                "cannot assign '%s' object to parameter '%s' (torch.nn.Parameter or None required)"
                % (_typename(param), name)
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                "Cannot assign non-leaf Tensor to parameter '%s'. Model parameters must be created "
                "explicitly. To express '%s' as a function of another Tensor, compute the value in "
                "the forward() method." % (name, name)
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is part of the module's state but not a parameter (e.g. running statistics).

        Buffers are in ``state_dict()`` (unless ``persistent=False``) and follow ``to()``/``double()``.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                "cannot assign '%s' object to buffer '%s' (torch Tensor or None required)"
                % (_typename(tensor), name)
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under ``name``; same as assigning the attribute."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError("%s is not a Module subclass" % _typename(module))
        if not isinstance(name, str):
            raise TypeError("module name should be a string. Got %s" % _typename(name))
        if hasattr(self, name) and name not in self._modules:
            raise KeyError("attribute '%s' already exists" % name)
        if "." in name:
            raise KeyError('module name can\'t contain ".", got: %s' % name)
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name: str, kind: str) -> None:
        if not isinstance(name, str):
            raise TypeError("%s name should be a string. Got %s" % (kind, _typename(name)))
        if "." in name:
            raise KeyError('%s name can\'t contain "."' % kind)
        if name == "":
            raise KeyError('%s name can\'t be empty string ""' % kind)
        registry = self._parameters if kind == "parameter" else self._buffers
        if hasattr(self, name) and name not in registry:
            raise KeyError("attribute '%s' already exists" % name)

    def get_submodule(self, target: str) -> Module:
        """The submodule at a dotted path such as ``'head.0'`` (``''`` is the module itself)."""
        module = self
        for item in target.split(".") if target else ():
            if not hasattr(module, item):
                raise AttributeError(module._get_name() + " has no attribute `" + item + "`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at a dotted path such as ``'head.0.weight'``."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    # -- traversal -------------------------------------------------------------------------------
    def named_modules(
        self, memo: set[Any] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """``(dotted name, module)`` for this module and every submodule, depth first, parents first."""
        seen = memo if memo is not None else set()
        stack = [(prefix, self)]
        while stack:
            name, module = stack.pop()
            if remove_duplicate:
                if module in seen:
                    continue
                seen.add(module)
            yield name, module
            children = [
                (name + ("." if name else "") + key, child)
                for key, child in module._modules.items()
                if child is not None
            ]
            stack.extend(reversed(children))  # reversed: the first child is popped first

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """``(name, module)`` for the direct submodules, each once."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry: str, prefix: str, recurse: bool, remove_duplicate: bool):
        seen = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for name, value in getattr(module, registry).items():
                if value is None or id(value) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """``(dotted name, parameter)``: a module's own parameters first, then its children's, in order.

        >>> from minigrad import nn
        >>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
        >>> [name for name, p in model.named_parameters()]
        ['0.weight', '0.bias', '2.weight', '2.bias']
        """
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters of ``named_parameters()``, as a generator (each shared parameter once)."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def apply(self, fn: Any) -> Module:
        """Call ``fn(module)`` on every submodule (children first) and then on this module; return self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- modes and gradients ---------------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training mode (``Dropout`` active) on this module and its submodules; return self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)  # through the method, so a submodule may override train()
        return self

    def eval(self) -> Module:
        """Evaluation mode: the same as ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` of every parameter (``False`` freezes the module); return self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters: to None (the default), or to zeros."""
        for p in self.parameters():
            _reset_grad(p, set_to_none)

    # -- dtype conversion ------------------------------------------------------------------------
    def _apply(self, fn) -> Module:
        """Convert every parameter, gradient and buffer with ``fn`` — parameters keep their identity."""
        for module in self.children():
            module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with grad_mode.no_grad():
                param.data = fn(param)
                if param._grad is not None:
                    param._grad.data = fn(param._grad)
        for name, buf in self._buffers.items():
            if buf is not None:
                self._buffers[name] = fn(buf)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Move to a dtype (floating point parameters and buffers only; the device is always the CPU)."""
        dtype = kwargs.get("dtype")
        for a in (*args, kwargs.get("device")):
            if isinstance(a, _dtype.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            elif a is not None:
                _creation.device(a)  # only the CPU exists: anything else is an error
        if dtype is None:
            return self
        if not dtype.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=%s" % dtype
            )
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def float(self) -> Module:
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Module:
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Module:
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def cpu(self) -> Module:
        return self

    def cuda(self, device: Any = None) -> Module:
        raise AssertionError("Torch not compiled with CUDA enabled")

    # -- state -----------------------------------------------------------------------------------
    def state_dict(
        self, *, destination: dict[Any, Any] | None = None, prefix: str = "", keep_vars: bool = False
    ) -> dict[Any, Any]:
        """Parameters and persistent buffers by dotted name, detached (sharing memory) unless ``keep_vars``.

        >>> from minigrad import nn
        >>> list(nn.Linear(2, 1).state_dict())
        ['weight', 'bias']
        """
        out = OrderedDict() if destination is None else destination
        stack = [(prefix, self)]
        while stack:  # every module (shared ones again), parents first
            module_prefix, module = stack.pop()
            for name, value in module._state_items():
                out[module_prefix + name] = value if keep_vars else value.detach()
            children = [
                (module_prefix + key + ".", child)
                for key, child in module._modules.items()
                if child is not None
            ]
            stack.extend(reversed(children))
        return out

    def _state_items(self):
        """This module's own entries of the state dict: parameters, then persistent buffers."""
        for name, param in self._parameters.items():
            if param is not None:
                yield name, param
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                yield name, buf

    def load_state_dict(
        self, state_dict: Mapping[Any, Any], strict: bool = True, assign: bool = False
    ) -> _IncompatibleKeys:
        """Copy values from ``state_dict`` into the parameters and buffers (in place, under no_grad).

        With ``strict=True`` (the default) missing or unexpected keys are an error, as are
        shape mismatches always.  Returns ``(missing_keys, unexpected_keys)``.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError("Expected state_dict to be dict-like, got %s." % type(state_dict))
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []
        stack = [("", self)]
        while stack:
            prefix, module = stack.pop()
            module._load_own_state(state_dict, prefix, missing, unexpected, errors, assign)
            children = [
                (prefix + key + ".", child) for key, child in module._modules.items() if child is not None
            ]
            stack.extend(reversed(children))
        if strict:
            if unexpected:
                errors.insert(
                    0, "Unexpected key(s) in state_dict: %s. " % ", ".join('"%s"' % k for k in unexpected)
                )
            if missing:
                errors.insert(
                    0, "Missing key(s) in state_dict: %s. " % ", ".join('"%s"' % k for k in missing)
                )
        if errors:
            raise RuntimeError(
                "Error(s) in loading state_dict for %s:\n\t%s" % (type(self).__name__, "\n\t".join(errors))
            )
        return _IncompatibleKeys(missing, unexpected)

    def _load_own_state(self, state_dict, prefix, missing, unexpected, errors, assign) -> None:
        own = dict(self._state_items())
        for name, param in own.items():
            key = prefix + name
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(
                    'While copying the parameter named "%s", expected torch.Tensor or Tensor-like object '
                    "from checkpoint but received %s" % (key, type(value))
                )
                continue
            if param.ndim == 0 and value.ndim == 1:
                value = value[0]
            if value.shape != param.shape:
                errors.append(
                    "size mismatch for %s: copying a param with shape %s from checkpoint, the shape in "
                    "current model is %s." % (key, value.shape, param.shape)
                )
                continue
            with grad_mode.no_grad():
                if assign:
                    if isinstance(param, Parameter) and not isinstance(value, Parameter):
                        value = Parameter(value, requires_grad=param.requires_grad)
                    setattr(self, name, value)
                else:
                    param.copy_(value)
        for key in state_dict:
            if not key.startswith(prefix):
                continue
            first, dot, _ = key[len(prefix) :].partition(".")
            if (dot and first not in self._modules) or (not dot and first not in own):
                unexpected.append(key)

    # -- repr ------------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text inside ``Name(...)`` besides the children; layers override it (``in_features=3, ...``)."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = ["(%s): %s" % (key, _indent(repr(module), 2)) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if len(extra_lines) == 1 and not child_lines:
            text += extra_lines[0]
        elif lines:
            text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _add_hook(hooks: dict[Any, Any], hook, prepend: bool = False) -> RemovableHandle:
    handle = RemovableHandle(hooks)
    if prepend:
        rest = list(hooks.items())
        hooks.clear()
        hooks[handle.id] = hook
        hooks.update(rest)
    else:
        hooks[handle.id] = hook
    return handle


def _reset_grad(p: Tensor, set_to_none: bool) -> None:
    """What ``zero_grad`` does to one tensor (shared by ``Module`` and ``Optimizer``)."""
    if p.grad is None:
        return
    if set_to_none:
        p.grad = None
        return
    if p.grad.grad_fn is not None:
        p.grad.detach_()
    else:
        p.grad.requires_grad_(False)
    with grad_mode.no_grad():
        p.grad.zero_()


def _indent(text: str, spaces: int) -> str:
    """Indent every line but the first (for a child's repr inside its parent's)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _typename(obj) -> str:
    """``torch.typename``: ``'torch.FloatTensor'`` for tensors, the qualified class name otherwise."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("", "builtins") else module + "." + name
