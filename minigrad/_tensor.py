"""Tensor: a numpy array plus what autograd needs (``requires_grad``, ``grad``, ``grad_fn``, versions, hooks).

Every arithmetic method calls its op explicitly (``ops.Mul.apply(self, other)``), so
"go to definition" on ``a * b`` lands on the op that holds both derivatives.
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np

from . import _checks, _dtype, autograd
from ._size import Size
from ._tensor_ops import TensorOps
from ._tensor_str import tensor_repr
from .autograd import grad_mode
from .autograd.engine import run_backward
from .autograd.graph import AccumulateGrad
from .autograd.views import views_require_grad
from .ops import elementwise as E
from .utils.hooks import RemovableHandle, hook_dict

if TYPE_CHECKING:
    from ._creation import device
    from ._typing import TensorOrNumber
    from .autograd.graph import Node

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, "
    "use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
    "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


class Tensor(TensorOps):
    """An n-dimensional array that can record the operations applied to it.

    >>> import minigrad as torch
    >>> x = torch.tensor([[2., 1.]], requires_grad=True)
    >>> y = torch.tensor([[1., 2.], [3., 4.]])
    >>> x @ y
    tensor([[5., 8.]], grad_fn=<MmBackward0>)
    """

    # Set on every tensor (slots: the fastest attributes Python has).
    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_version_counter", "__weakref__", "__dict__")
    # Rarely set: class-level defaults, shadowed in the instance's __dict__ only by the tensors that need them.
    _grad = None                    # .grad (leaves, retain_grad)
    _output_nr = 0                  # which output of its grad_fn (multi-output ops)
    _base = None                    # a view: the tensor whose memory it shares (autograd/views.py)
    _view_fn = None                 # a view: how it was taken from its base (autograd/views.py)
    _view_version = 0               # a view: the version at which its grad_fn was set
    _backward_hooks = None          # register_hook on a leaf
    _post_accumulate_hooks = None   # register_post_accumulate_grad_hook
    _accumulate_ref = None          # weakref to the leaf's AccumulateGrad node
    _borrowed_grad = False          # a view that requires grad only through its base, with no grad_fn (made under
                                    # no_grad, or before the base required grad): ops record it, but as PyTorch's
                                    # grad_accumulator (which reads the view's own flag) it has no edge: (None, 0)
    _wrapped_number = False         # a Python number taking part in an op (see ops/_util.operand)
    _is_inference = False           # made under inference_mode
    _creation_meta = None           # a view made by a multi-output op / under no_grad (autograd/views.py)
    _fw_grads = None                # forward AD: {level: tangent} (autograd/forward_ad.py)

    _is_param = False
    __array_priority__ = 1000     # `np.float64(2) * t` is a Tensor (numpy defers to Tensor.__rmul__), as in PyTorch

    # -- the operators of micrograd's example (the others, and numbers as operands: TensorOps) -------------
    def __add__(self, other: TensorOrNumber) -> Tensor:
        return E.Add.apply(self, other) if isinstance(other, Tensor) else TensorOps.__add__(self, other)

    def __mul__(self, other: TensorOrNumber) -> Tensor:
        return E.Mul.apply(self, other) if isinstance(other, Tensor) else TensorOps.__mul__(self, other)

    __radd__ = __add__
    __rmul__ = __mul__

    # -- construction -----------------------------------------------------------------
    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return object.__new__(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The legacy constructor: ``Tensor(data)`` is data of the default dtype (float32 unless
        ``set_default_dtype`` changed it), ``Tensor(2, 3)`` an uninitialised shape."""
        self._init(_legacy_data(args, kwargs, _dtype.get_default_dtype().numpy), False)

    def _init(self, data: np.ndarray, requires_grad: bool) -> None:
        # the version counter is shared by views and detach(), and bumped by in-place writes
        self._data, self._requires_grad, self._grad_fn, self._version_counter = data, requires_grad, None, [0]
        if grad_mode._state.inference:
            self._is_inference = True

    @classmethod
    def _make(cls, data: np.ndarray, requires_grad: bool = False) -> Tensor:
        """Wrap an ndarray without copying (the fast path every op uses)."""
        t = object.__new__(cls)             # ``_init``, inlined (every op's result comes through here)
        t._data, t._requires_grad, t._grad_fn, t._version_counter = np.asarray(data), requires_grad, None, [0]
        if grad_mode._state.inference:
            t._is_inference = True
        return t

    # -- autograd attributes ------------------------------------------------------------
    @property
    def grad_fn(self) -> Node | None:
        """The node that made this tensor (None for a leaf).

        A view whose base (or another view of it) was modified in place since its ``grad_fn`` was set
        gets a new one, ``AsStridedBackward0``, that takes the view of the base's new value (PyTorch's
        lazy view regeneration).
        """
        if self._base is not None and self._view_version != self._version_counter[0]:
            from .ops.inplace import regenerate_view  # circular: ops build on Tensor
            return regenerate_view(self)
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node: Node | None) -> None:              # internal: minigrad's own code sets ``_grad_fn``
        self._grad_fn = node

    @property
    def requires_grad(self) -> bool:
        if self._requires_grad or self._base is None:
            return self._requires_grad
        return self._base._requires_grad        # a view requires grad when its base does (it may since the view)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self.grad_fn is not None:
            if value:
                raise RuntimeError("you can only change requires_grad flags of leaf variables.")
            raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to use a "
                               "computed variable in a subgraph that doesn't require differentiation use "
                               "var_no_grad = var.detach().")
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if value and self._is_inference and not grad_mode._state.inference:
            raise RuntimeError(_INFERENCE_REQUIRES_GRAD)
        self._requires_grad = bool(value)
        self.__dict__.pop("_borrowed_grad", None)
        if value and "_plain_views" in self.__dict__:
            views_require_grad(self)          # its views, taken before, require grad now

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place and return ``self``."""
        if self.grad_fn is not None:
            if requires_grad:
                return self
            raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to use a "
                               "computed variable in a subgraph that doesn't require differentiation use "
                               "var_no_grad = var.detach().")
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._is_inference and not grad_mode._state.inference:
            raise RuntimeError(_INFERENCE_REQUIRES_GRAD)
        self._requires_grad = bool(requires_grad)
        self.__dict__.pop("_borrowed_grad", None)     # its own flag now: an AccumulateGrad of its own
        if requires_grad and "_plain_views" in self.__dict__:
            views_require_grad(self)          # PyTorch: a view requires grad when its base does
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors not made by a recorded operation (every tensor with requires_grad=False)."""
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        if self.grad_fn is not None and not self.retains_grad and self._grad is None:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError("assigned grad expected to be a Tensor or None but got grad of type %s"
                                % type(value).__name__)
            if value.dtype is not self.dtype:
                raise RuntimeError("attempting to assign a gradient with dtype '%s' to a tensor with grad_dtype "
                                   "'%s'. The gradient must match the tensor's grad_dtype (defaults to the tensor's "
                                   "dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or "
                                   "None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a "
                                   "tensor and its gradient may break downstream systems that assume they match."
                                   % (_c_name(value.dtype), self.dtype._legacy))
            if value.shape != self.shape:
                raise RuntimeError("attempting to assign a gradient of size '%s' to a tensor of size '%s'. Please "
                                   "ensure that the gradient and the tensor are the same size"
                                   % (list(value.shape), list(self.shape)))
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        node = self.grad_fn
        return node is not None and bool(node._retain_grad) and self._output_nr in node._retain_grad \
            and node._retain_grad[self._output_nr]() is self

    def retain_grad(self) -> None:
        """Keep this non-leaf's gradient in ``.grad`` during backward (a no-op on leaves)."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None:
            return
        node = self.grad_fn
        if node._retain_grad is None:
            node._retain_grad, node._hooked = {}, True      # (the engine's plain path skips unhooked nodes' checks)
        node._retain_grad[self._output_nr] = weakref.ref(self)

    @property
    def _version(self) -> int:
        if self._is_inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._version_counter[0]

    def _gradient_edge(self) -> tuple[Node | None, int]:
        """``(node, input_nr)`` through which a gradient reaches this tensor."""
        if (grad_fn := self._grad_fn if self._base is None else self.grad_fn) is not None or self._borrowed_grad:
            return grad_fn, self._output_nr          # (a borrowed view: None, 0 -- see _borrowed_grad)
        if (node := self._accumulate_ref and self._accumulate_ref()) is None:      # (a weak reference)
            node = _new(AccumulateGrad)                  # ``AccumulateGrad(self)``
            node.variable, self._accumulate_ref = self, weakref.ref(node)
        return node, 0

    @property
    def data(self) -> Tensor:
        """The same storage, detached and *not* version-tracked (prefer ``detach()``)."""
        out = Tensor._make(self._data, False)
        return out

    @data.setter
    def data(self, value: Tensor) -> None:
        self._data = value._data

    @property
    def volatile(self) -> bool:
        warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=2)
        return False

    @volatile.setter
    def volatile(self, value: bool) -> None:
        warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                      UserWarning, stacklevel=2)

    def is_inference(self) -> bool:
        return self._is_inference

    # -- hooks --------------------------------------------------------------------------
    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """``hook(grad)`` runs when this tensor's gradient is computed; a returned tensor replaces it.

        >>> import minigrad as torch
        >>> x = torch.tensor([1., 2.], requires_grad=True)
        >>> h = x.register_hook(lambda g: g * 10)
        >>> (x * 2).sum().backward(); x.grad
        tensor([20., 20.])
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self.grad_fn._register_tensor_hook(self._output_nr, hook)
        if self._backward_hooks is None:
            self._backward_hooks = hook_dict()
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> RemovableHandle:
        """``hook(tensor)`` runs right after a leaf's ``.grad`` was updated."""
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = hook_dict()
        handle = RemovableHandle(self._post_accumulate_hooks)
        self._post_accumulate_hooks[handle.id] = hook
        return handle

    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None, create_graph: bool = False,
                 inputs: Tensor | Sequence[Tensor] | None = None) -> None:
        """Compute the gradient of this tensor with respect to the graph's leaves (a vector-Jacobian product).

        ``gradient`` is the vector ``v`` in ``vᵀ·J`` and may be omitted for a one-element tensor.
        """
        # ``loss.backward()`` (gradient and inputs both None): the seed is 1, and nothing else to check
        if gradient is inputs is None and not (retain_graph or create_graph) and self._grad_fn and self._data.size == 1:
            return run_backward((self,), (Tensor._make(np.ones_like(self._data)),))
        if inputs is not None:
            inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
            if len(inputs) == 0:
                raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # -- metadata -------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype._FROM_NUMPY[self._data.dtype]

    @property
    def device(self) -> device:
        from ._creation import device  # at call time: _creation builds on Tensor
        return device("cpu")

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_contiguous(self, memory_format: Any = None) -> bool:
        if memory_format is _dtype.channels_last:     # NHWC: the channels are the fastest dim
            a = self._data
            if a.ndim != 4:
                return False
            return a.transpose(0, 2, 3, 1).flags.c_contiguous
        return bool(self._data.flags.c_contiguous)

    def stride(self, dim: int | None = None) -> Any:
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        return strides if dim is None else strides[_wrap_dim(dim, self.ndim)]

    def data_ptr(self) -> int:
        return self._data.__array_interface__["data"][0]

    # -- conversion -------------------------------------------------------------------------
    def item(self) -> Any:
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError("a Tensor with %d elements cannot be converted to Scalar" % self._data.size)
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        return self._data.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The data as an ndarray sharing memory (refused while the tensor requires grad)."""
        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data if dtype is None else self._data.astype(dtype)

    def _scalar(self, kind: type[Any]) -> Any:
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if self.requires_grad and grad_mode.is_grad_enabled() and not _warned_scalar[0]:  # torch: not in no_grad
            _warned_scalar[0] = True
            warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                          "Consider using tensor.detach() first.", UserWarning, stacklevel=3)
        return kind(self._data.reshape(()).item())

    def __float__(self) -> float:
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(()).item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            if self._data.size == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()).item())

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __repr__(self) -> str:
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self._data.item().__format__(spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    __hash__ = object.__hash__

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        return (_rebuild, (self._data, self._requires_grad))

    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor:
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                               "because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        out = type(self)._make(self._data.copy(), self.requires_grad) if type(self) is Tensor else \
            type(self)(Tensor._make(self._data.copy()), self.requires_grad)
        if self._grad is not None:
            out._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = out
        return out

    # -- detaching and copying -------------------------------------------------------------
    def detach(self) -> Tensor:
        """A new leaf sharing data *and* version counter, outside the graph."""
        out = Tensor._make(self._data, False)
        out._version_counter = self._version_counter
        return out

    def detach_(self) -> Tensor:
        """Detach in place: drop ``grad_fn`` and ``requires_grad``; returns ``self``."""
        if self._base is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are using "
                               "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as "
                               "True, gradients are views of DDP buckets, and hence detach_() cannot be called on "
                               "these gradients. To fix this error, please refer to the Optimizer.zero_grad() "
                               "function in torch/optim/optimizer.py as the solution.")
        self._grad_fn, self._requires_grad = None, False
        return self


_INFERENCE_REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."


def _to_nested(data):
    if isinstance(data, Tensor):
        if data._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data._data.reshape(())
    if isinstance(data, (list, tuple)):
        return [_to_nested(d) for d in data]
    return data


def _rebuild(data, requires_grad):
    return Tensor._make(data, requires_grad)


_wrap_dim = _checks.wrap_dim


def _c_name(d) -> str:
    return {"float32": "float", "float64": "double", "float16": "half", "int64": "long"}.get(d.name, d.name)


_warned_scalar = [False]
_new = object.__new__


def _legacy_data(args, kwargs, np_dtype):
    """The array for ``torch.Tensor(...)`` / ``torch.LongTensor(...)``: data, or zeros of a given shape."""
    if kwargs:
        raise TypeError("new() received an invalid combination of arguments - got (%s), but expected one of:\n"
                        " * (*, torch.device device = None)\n * (torch.Storage storage)\n"
                        " * (Tensor other)\n * (tuple of ints size, *, torch.device device = None)\n"
                        " * (object data, *, torch.device device = None)"
                        % ", ".join([type(a).__name__ for a in args] + ["%s=%s" % (k, type(v).__name__)
                                                                       for k, v in kwargs.items()]))
    if len(args) == 1 and isinstance(args[0], Tensor):
        data = args[0]._data
    elif args and all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        data = np.zeros(tuple(int(a) for a in args), dtype=np_dtype)
    elif len(args) == 1 and isinstance(args[0], (tuple, Size)) and all(isinstance(a, int) for a in args[0]) \
            and isinstance(args[0], Size):
        data = np.zeros(tuple(args[0]), dtype=np_dtype)
    elif len(args) == 1:
        data = np.array(_to_nested(args[0]), dtype=np_dtype)
    else:
        data = np.zeros((0,), dtype=np_dtype)
    return np.asarray(data, dtype=np_dtype)


class _LegacyTensorType(type):
    """``torch.FloatTensor`` & co.: a dtype spelled as a class.

    ``isinstance(x, torch.FloatTensor)`` checks the dtype, ``torch.LongTensor([1, 2])`` makes an int64
    tensor, and ``x.type(torch.DoubleTensor)`` converts.
    """

    dtype: _dtype.dtype

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return Tensor._make(_legacy_data(args, kwargs, cls.dtype.numpy))


def _legacy_type(d: _dtype.dtype) -> _LegacyTensorType:
    name = d._legacy + "Tensor"
    return _LegacyTensorType(name, (), {"dtype": d, "__module__": "torch", "__qualname__": name})
