"""The backward engine: iterative, dependency-counted, in PyTorch's node order.

Phases of one backward pass:

1. *Count dependencies*: walk the graph from the roots once and count, for every
   node, how many edges point at it.  A node may run only when all of them have
   delivered their gradient (that is what makes fan-out add up correctly).
2. *Run*: a ready queue ordered like PyTorch's — the most recently created node
   first, ``AccumulateGrad`` as soon as it is ready.  For each node: tensor hooks,
   ``retain_grad``, node pre-hooks, the node's backward, node hooks; then its
   gradients are added into the input buffers of ``next_functions``.
3. *Free*: unless ``retain_graph``, each node's saved tensors are released right
   after it ran, so a second backward that needs them raises.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _dtype, _tensor  # circular: `_tensor.Tensor` at call time
from . import _fast, _frozen, anomaly_mode, grad_mode
from . import forward_ad as _forward_ad
from .anomaly_mode import _mode as _anomaly
from .graph import (
    BackwardEvent,
    _backward_observers,
    _for_this_thread,
    _saved_tensors_hooks_stack,
    _ThreadLocalStack,
    register_node_created_hook,
)

# -- what a node saved for backward ---------------------------------------------------

_FREED = ("Trying to backward through the graph a second time (or directly access saved tensors after they "
          "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
          "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
          "or if you need to access saved tensors after calling backward.")


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    An *output* of the node is not held directly (that would be a reference cycle,
    output → grad_fn → saved output); its data and version counter are kept and a
    tensor with ``grad_fn`` = the node is rebuilt on unpacking, as PyTorch does.
    """

    __slots__ = ("tensor", "data", "version_counter", "version", "output_nr", "requires_grad", "hooks",
                 "fw_grads", "view_writer")

    tensor: Any                 # the Tensor (None for a saved output), or what a pack hook returned
    data: Any                   # a saved output's array (None for a saved input)
    version_counter: list[int]
    version: int
    output_nr: int | None
    requires_grad: bool
    hooks: tuple[Callable[..., Any], Callable[..., Any]] | None

    def __init__(self, tensor: Any, output_nr: int | None = None) -> None:
        self.hooks = _saved_tensors_hooks_stack.items[-1] if _saved_tensors_hooks_stack.items else None
        if self.hooks is not None:       # saved_tensors_hooks: keep what pack returns, nothing else
            self.tensor, self.output_nr = self.hooks[0](tensor), None
            return
        if tensor._is_inference and not grad_mode._state.inference:
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                "mode in computation tracked by autograd. To work around this, you can make a clone to get a "
                "normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
                "`torch.inference_mode()`.")
        self.version_counter, self.version, self.output_nr = (counter := tensor._version_counter), counter[0], output_nr
        self.tensor, self.data = (tensor, None) if output_nr is None else (None, tensor._data)
        if output_nr is not None:        # an output: its array, not the tensor (no cycle through grad_fn)
            self.requires_grad = tensor._requires_grad or tensor.requires_grad    # (its dtype: data.dtype)
            # forward AD: the output's tangents (pushed after it is saved) come back with it
            self.fw_grads = tensor.__dict__.setdefault("_fw_grads", {}) if _forward_ad._levels else None

    @classmethod
    def of_pair(cls, x: Any, v: Any) -> Any:
        """The SavedTensor a rule node's pair of ``_packed`` entries stands for (``_pack`` in ops/_rules.py):
        ``(input, its version)``, ``(output's array, its version counter)`` or ``(SavedTensor, None)``."""
        if v is None:
            return x
        saved = object.__new__(cls)
        saved.hooks, saved.tensor, saved.data, saved.version_counter = None, None, None, v
        if type(v) is list:             # an output: its array and counter, at the version it was made with (0)
            saved.data, saved.version, saved.output_nr, saved.requires_grad, saved.fw_grads = x, 0, 0, True, None
        else:
            saved.tensor, saved.version_counter, saved.version, saved.output_nr = x, x._version_counter, v, None
        return saved

    def unpack_data(self, node: Any) -> Any:
        """The saved array itself (a plain backward: no tensor is rebuilt)."""
        if self.hooks is not None:
            return self.hooks[1](self.tensor)._data
        if self.version_counter[0] != self.version:
            raise RuntimeError(_version_message(self, node))
        return self.tensor._data if self.output_nr is None else self.data

    def unpack(self, node: Any) -> Any:
        if self.hooks is not None:
            return self.hooks[1](self.tensor)
        if self.version_counter[0] != self.version:
            raise RuntimeError(_version_message(self, node))
        if self.output_nr is None:
            return self.tensor
        out = _tensor.Tensor._make(self.data, self.requires_grad)
        if self.requires_grad:
            out._grad_fn, out._output_nr = node, self.output_nr
        out._version_counter = self.version_counter
        if self.fw_grads:
            out._fw_grads = dict(self.fw_grads)
        return out


def _version_message(saved, node):
    tensor = saved.tensor
    shape = tuple(tensor.shape) if tensor is not None else saved.data.shape
    legacy = (tensor.dtype if tensor is not None else _dtype._FROM_NUMPY[saved.data.dtype])._legacy
    where = ""
    writer = node if saved.output_nr is not None else tensor.grad_fn
    if writer is not None:
        # an in-place op's result saved on a view: PyTorch names the view's node (AsStrided) while it lives
        view_writer = getattr(saved, "view_writer", None)
        op = (view_writer() or writer).name() if view_writer is not None else writer.name()
        if not op.startswith("torch::"):     # (torch::autograd::CopyBackwards keeps its name)
            op = op[:-len("Backward0")] if op.endswith("Backward0") else op.replace("Backward", "")
        output_nr = saved.output_nr or (tensor._output_nr if tensor is not None else 0)
        where = ", which is output %d of %s," % (output_nr, op)
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            "[torch.%sTensor [%s]]%s is at version %d; expected version %d instead. Hint: enable anomaly detection "
            "to find the operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False)."
            % (legacy, ", ".join(map(str, shape)), where, saved.version_counter[0], saved.version))



# -- the backward pass -----------------------------------------------------------------

def run_backward(roots: Any, grad_roots: Any, retain_graph: bool = False, create_graph: bool = False,
                 inputs: Any = None, accumulate: bool = True) -> Any:
    """Backpropagate ``grad_roots`` from ``roots``.

    ``inputs`` restricts which tensors receive gradients.  With ``accumulate=True``
    (``backward()``) their ``.grad`` is updated; with ``accumulate=False``
    (``autograd.grad``) the gradients are returned instead, one per input
    (None for an input the roots do not depend on).
    """
    edges = [t._gradient_edge() for t in roots]
    root_nodes = dict.fromkeys(node for node, _ in edges)      # once each, even if several roots share a node
    dependencies = _count_dependencies(root_nodes)
    run = _Run(inputs, accumulate, create_graph)
    if inputs is not None:
        run.restrict(inputs, edges, dependencies)
    observe, tick, buffers, plain = run.observe, itertools.count(), {}, run.targets is None and not run.observe
    raw = run.raw = plain and not create_graph      # a plain backward: the gradients travel as raw arrays
    for (node, nr), grad in zip(edges, grad_roots):
        _add_to_buffer(buffers, node, nr, grad._data if raw and grad is not None else grad)
    # the ready nodes, a heap (a sorted list is one): the most recently created first; tick breaks ties
    ready = sorted((-node._seq, next(tick), node) for node in root_nodes if node not in dependencies)
    if observe:
        _emit("begin", detail=" ".join(str(id(n)) for n, _ in edges))
    enabled, grad_mode._state.grad_enabled = grad_mode._state.grad_enabled, create_graph  # (formulas are recorded
    # only under create_graph)
    tagger = _tag_derivative_nodes() if create_graph else None
    _current_runs.items.append((root_nodes, dependencies, run))   # popped in `finally` (register_multi_grad_hook)
    try:
        while ready:
            node = heapq.heappop(ready)[2]
            grads = buffers.pop(node, None) or [None] * node._n_outputs
            if run.needed is not None and node not in run.needed:
                continue
            if tagger is not None:
                tagger.current = weakref.ref(node)
            if node._is_accumulate:                   # a leaf: add into .grad (no next_functions)
                _accumulate_node(node, grads, run)
                continue
            if raw and node._takes_arrays and len(grads) == 1 and grads[0] is not None and not node._hooked:
                grad_inputs = node._apply_arrays(grads[0])       # a rule without hooks: arrays in, arrays out
            elif raw:                                            # anything else runs on Tensors, wrapped here
                grad_inputs = _unwrap(_execute(node, _wrap(grads), run))
            elif plain and len(grads) == 1 and grads[0] is not None and not node._hooked:
                grad_inputs = node._apply((grads[0],))           # ``_execute`` for a node without hooks
            else:
                grad_inputs = _execute(node, grads, run)
            if not retain_graph and node._release() and observe:  # frees what the node saved (and _forget)
                _emit("release", node)
            for next_node, nr, grad in zip(node._next, node._nrs, grad_inputs):   # (next_functions, compactly)
                if next_node is not None:
                    if grad is not None:
                        _add_to_buffer(buffers, next_node, nr, grad)
                    left = dependencies[next_node] = dependencies[next_node] - 1
                    if not left:                                  # all its gradients are in: it may run
                        heapq.heappush(ready, (-next_node._seq, next(tick), next_node))
            grad = grad_inputs = None                 # hold no gradient here (NOTE [stealing the gradient], _fast.py)
    except Exception as exc:
        if _anomaly.enabled:                              # anomaly mode: where in the forward this node came from
            anomaly_mode.warn_forward_stack(node)
        if observe:
            _emit("error", detail="%s: %s" % (type(exc).__name__, exc))
        raise
    finally:
        grad_mode._state.grad_enabled = enabled
        _current_runs.items.pop()
        if tagger is not None:
            tagger.handle.remove()
    # remember the roots (weakly); the last pass's, if still alive, are stored compactly first (_frozen.py)
    (_frozen.defer if _frozen.pending else _frozen.pending.update)(root_nodes)
    if observe:
        _emit("end")
    return None if accumulate else run.captured            # backward() returns None, grad() the gradients


_run_serials = itertools.count()

#: The backward passes running now in this thread (innermost last): ``(root nodes, dependency counts, _Run)``.
_current_runs = _ThreadLocalStack()


def will_execute(node: Any) -> bool:
    """Whether the innermost running backward pass will run ``node`` (PyTorch's ``_will_engine_execute_node``)."""
    roots, dependencies, run = _current_runs[-1]
    if node._is_accumulate and not run.accumulate:
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently running "
                           "autograd.grad(). This is currently not supported.")
    return (node in roots or node in dependencies) and (run.needed is None or node in run.needed)


class _Run:
    """What one backward pass was asked to do, as its nodes need to know it."""

    __slots__ = ("targets", "captured", "needed", "accumulate", "create_graph", "observe", "serial", "raw")

    def __init__(self, inputs: Any, accumulate: Any, create_graph: Any) -> None:
        # serial: tells passes apart (an id() is reused once a pass is freed); needed: see restrict()
        self.serial, self.accumulate, self.create_graph = next(_run_serials), accumulate, create_graph
        # inputs=: node -> [(index, nr)], grad()'s results; raw (set by run_backward): the gradients are arrays
        self.targets, self.captured, self.needed, self.raw = None, [], None, False
        # observe: observers, or anomaly mode, watch this pass: every node runs through ``_execute``
        self.observe = bool(_backward_observers and _for_this_thread(_backward_observers)) or _anomaly.enabled

    def restrict(self, inputs, edges, dependencies):
        """``inputs=``: only those get gradients, and only the nodes on a path to one of them run."""
        self.targets, self.captured = _capture_targets(inputs), [None] * len(inputs)
        if self.accumulate:
            for t in inputs:        # a non-leaf listed in inputs= gets .grad, as if retain_grad() was called
                if t.grad_fn is not None:
                    t.retain_grad()
        self.needed = _needed_nodes(edges, dependencies, self.targets)


# -- phase 1: the graph ---------------------------------------------------------------

def _count_dependencies(roots):
    """For every node reachable from the roots, the number of edges that point at it."""
    dependencies, stack = {}, list(roots)
    while stack:
        for next_node in stack.pop()._next:
            if next_node in dependencies:
                dependencies[next_node] += 1
            elif next_node is not None:
                dependencies[next_node] = 1
                if next_node not in roots:
                    stack.append(next_node)         # first visit: walk on from it (roots are walked already)
    return dependencies


def _capture_targets(inputs):
    """Map each input's node to ``[(index in inputs, output_nr), ...]``."""
    targets = {}
    for i, t in enumerate(inputs or ()):
        node, nr = t._gradient_edge()
        targets.setdefault(node, []).append((i, nr))
    return targets


def _needed_nodes(edges, dependencies, targets):
    """The nodes on some path from a root to an input: only those need to run."""
    remaining = dict(dependencies)
    topo, stack = [], list({node: None for node, _ in edges if remaining.get(node, 0) == 0})
    while stack:  # Kahn's algorithm: parents before children
        node = stack.pop()
        topo.append(node)
        for next_node in node._next:
            if next_node is not None:
                remaining[next_node] -= 1
                if remaining[next_node] == 0:
                    stack.append(next_node)
    needed = set()
    for node in reversed(topo):
        if node in targets or any(n in needed for n in node._next if n is not None):
            needed.add(node)
    return needed


def _add_to_buffer(buffers, node, nr, grad):
    """Add ``grad`` into slot ``nr`` of the node's input buffer (fan-in adds up here)."""
    if (slots := buffers.get(node)) is None:      # the first gradient for this node (one output: the common case)
        buffers[node] = [grad] if nr == 0 and node._n_outputs == 1 else _first_slots(node, nr, grad)
    else:
        slots[nr] = grad if slots[nr] is None else _sum(slots[nr], grad)


def _first_slots(node, nr, grad):
    slots = [None] * max(node._n_outputs, nr + 1)
    slots[nr] = grad
    return slots


def _sum(a, b):
    """Two gradients of one tensor added: Tensors (recorded under create_graph), or raw arrays."""
    if type(a) is not np.ndarray:
        return a + b
    token = _fast.quiet_set(_fast.QUIET)       # inf + -inf is nan, without numpy's warning (np.errstate, faster)
    try:
        return np.asarray(a + b)               # (numpy's sum of two 0-d arrays is a scalar)
    finally:
        _fast.quiet_reset(token)


def _wrap(grads):
    """A plain backward's arrays as Tensors, for a node that runs on Tensors (a class op, hooks)."""
    return [None if g is None else _tensor.Tensor._make(g) for g in grads]


def _unwrap(grads):
    return tuple([None if g is None else g._data for g in grads])


# -- phase 2: one node ----------------------------------------------------------------

def _execute(node, grads, run):
    """Run one function node with its hooks; return the gradients for its ``next_functions``."""
    observe = run.observe
    if run.targets is not None and node in run.targets:
        # autograd.grad(outputs, inputs) with a non-leaf input: PyTorch captures its gradient *before*
        # the tensor's hooks when the node must run anyway (it leads to another input), after them if not.
        if not any(n in run.needed for n in node._next if n):
            if node._tensor_pre_hooks or node._retain_grad:
                grads = _tensor_hooks(node, grads, observe)
            _capture(run, node, grads)
            return (None,) * len(node._next)
        _capture(run, node, grads)
    if node._tensor_pre_hooks or node._retain_grad:     # most nodes have no hooks
        grads = _tensor_hooks(node, grads, observe)
    if node._pre_hooks:
        grads = _node_pre_hooks(node, grads, observe)
    grad_outputs = tuple(grads)
    if node._released and getattr(node, "_input_meta", None) is None:     # forgotten (_forget): cannot run again
        raise RuntimeError(_FREED)
    if len(grads) == 1:
        grad_inputs = (None,) * len(node._next) if grads[0] is None else node._apply(grad_outputs)
    elif all(g is None for g in grads):
        grad_inputs = (None,) * len(node._next)
    else:
        grad_inputs = node._apply(tuple(_materialize(node, grads)) if node._materialize_grads else grad_outputs)
    if _anomaly.enabled and _anomaly.check_nan:
        anomaly_mode.check_nan(node, grad_inputs)
    if observe:
        _emit("node", node, grad_outputs, grad_inputs)
    if node._post_hooks:
        for fn in tuple(node._post_hooks.values()):
            result = fn(grad_inputs, grad_outputs)
            if result is not None:
                grad_inputs = tuple(result)
            if observe:
                _emit("node_hook", node, grad_outputs, grad_inputs, detail=getattr(fn, "__name__", "hook"))
    return grad_inputs


def _capture(run, node, grads):
    for index, nr in run.targets[node]:
        run.captured[index] = grads[nr]


def _tensor_hooks(node, grads, observe):
    """Hooks registered with ``Tensor.register_hook`` then ``retain_grad``, per output slot."""
    if node._is_accumulate:
        var = node.variable
        hooks = {0: var._backward_hooks} if var._backward_hooks else None
    else:
        hooks = node._tensor_pre_hooks
    if hooks:
        for nr, fns in hooks.items():
            for fn in tuple(fns.values()):         # (PyTorch calls them with None for an output that got no
                grads[nr] = _call_tensor_hook(fn, grads[nr])     # gradient: another output of a split...)
                if observe:
                    _emit("tensor_hook", node, grads, detail=getattr(fn, "__name__", "hook"))
    if node._retain_grad:
        for nr, ref in node._retain_grad.items():
            tensor = ref()
            if tensor is not None and grads[nr] is not None:
                _retain(tensor, grads[nr], grad_mode._state.grad_enabled)
                if observe:
                    _emit("retain_grad", node, grads, detail="output %d" % nr)
    return grads


def _call_tensor_hook(fn, grad):
    result = fn(grad)
    if result is None:
        return grad
    if grad is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(result, _tensor.Tensor):
        raise TypeError("expected Variable, but hook returned '%s'" % type(result).__name__)
    if result.shape != grad.shape:
        raise RuntimeError("hook '%s' has changed the size of value" % getattr(fn, "__name__", "hook"))
    return result


def _node_pre_hooks(node, grads, observe):
    """``register_prehook`` hooks, in order; each may replace the gradients."""
    for fn in tuple(node._pre_hooks.values()):
        result = fn(tuple(grads))
        if result is not None:
            grads = list(result)
        if observe:
            _emit("pre_hook", node, grads, detail=getattr(fn, "__name__", "hook"))
    return grads


def _accumulate_node(node, grads, run):
    """An ``AccumulateGrad`` node: the leaf's hooks, then ``.grad += grad``, then post-accumulate hooks."""
    var = node.variable
    if not (run.observe or run.targets or node._hooked or var._backward_hooks or var._post_accumulate_hooks):
        if (grad := grads[0]) is not None and var._requires_grad:    # (PyTorch: nothing for a leaf detach_()ed
            with _accumulate_lock:                                    # since it was used)
                _accumulate_into(var, grad, run.create_graph)
        return
    if run.raw:
        grads = _wrap(grads)
    observe = run.observe
    if var._backward_hooks or node._retain_grad:
        grads = _tensor_hooks(node, grads, observe)
    if run.targets is not None and node in run.targets:
        _capture(run, node, grads)
        if not run.accumulate:
            return
    if grads[0] is None:
        return
    if node._pre_hooks:
        grads = _node_pre_hooks(node, grads, observe)
    grad = grads[0]
    if not var._requires_grad:          # detach_()ed since it was used: PyTorch's AccumulateGrad does nothing
        hooks = ()
    else:
        with _accumulate_lock:          # threads backpropagating into one leaf add up one at a time
            before = var._grad
            before_copy = None if before is None or not observe else before._data.copy()
            _accumulate_into(var, grad, run.create_graph)
            after_copy = var._grad._data.copy() if observe else None
        if observe:
            _emit("node", node, (grad,), (), grad_before=before_copy, grad_after=after_copy)
        hooks = tuple(var._post_accumulate_hooks.values()) if var._post_accumulate_hooks else ()
    for fn in hooks:
        fn(var)
        if observe:
            _emit("post_accumulate_hook", node, (grad,), detail=getattr(fn, "__name__", "hook"))
    if node._post_hooks:
        for fn in tuple(node._post_hooks.values()):
            fn((), (grad,))
            if observe:
                _emit("node_hook", node, (grad,), (), detail=getattr(fn, "__name__", "hook"))


_accumulate_lock = threading.Lock()      # PyTorch: AccumulateGrad's mutex


def _accumulate_into(var, grad, create_graph):
    """``var.grad += grad``: in place normally, as a new graph node under create_graph.

    ``grad`` is a Tensor, or in a plain backward its raw array."""
    data = grad if type(grad) is np.ndarray else grad._data
    if var._grad is None:
        if create_graph and grad.requires_grad:
            from ..ops.elementwise import CopyGrad  # at call time: ops build on autograd (layer order)
            var._grad = CopyGrad.apply(grad)
        elif data.size >= _fast.STEAL_FROM and (stolen := _fast.stealable(grad, var)) is not None:
            # a speed trick for big gradients (a small one is copied faster than asked about): the plain way is the copy
            var._grad = stolen
        else:            # a copy the leaf owns, laid out like the leaf (not like a transposed view's grad), as PyTorch
            var._grad = _tensor.Tensor._make(np.array(data, var._data.dtype, copy=True, order=_layout(var)))
    elif create_graph:               # recorded (AddBackward0): a new tensor, as PyTorch
        var._grad = var._grad + (grad if data is not grad else _tensor.Tensor._make(data))
    else:            # in place, even into a .grad with a graph (its CopyBackwards stays, as PyTorch's `grad += new`)
        with np.errstate(all="ignore"):            # inf + -inf is nan, without numpy's warning
            np.add(var._grad._data, data, out=var._grad._data, casting="unsafe")
        var._grad._version_counter[0] += 1


def _layout(var):
    return "C" if var._data.flags.c_contiguous else "K"


def _retain(tensor, grad, create_graph):
    """What ``retain_grad()`` does at backward time: keep a non-leaf's gradient.

    As PyTorch's retain-grad hook: the first gradient is cloned, a later one makes a *new* tensor
    ``tensor.grad + grad`` (a ``.grad`` someone kept from the previous backward is not changed);
    under ``create_graph`` both are recorded (``CloneBackward0``, ``AddBackward0``).
    """
    if tensor._grad is None:
        if create_graph:
            tensor._grad = grad.clone()
        else:
            tensor._grad = _tensor.Tensor._make(np.array(grad._data, copy=True, order="C"), False)
    else:
        tensor._grad = tensor._grad + grad


def _materialize(node, grads):
    """Zeros for outputs that received no gradient (multi-output nodes need all of them)."""
    if all(g is not None for g in grads):
        return grads
    meta = node._output_meta
    return [_tensor.Tensor._make(np.zeros(m[0], dtype=m[1]), False) if g is None and m is not None else g
            for g, m in zip(grads, meta)]


# -- observation ----------------------------------------------------------------------

def _copy(g):
    return None if g is None else np.array(g._data, copy=True)


def _emit(kind, node=None, grad_outputs=(), grad_inputs=(), grad_before=None, grad_after=None, detail=""):
    observers = _for_this_thread(_backward_observers)
    if not observers:                     # anomaly mode alone: nobody to tell
        return
    event = BackwardEvent(kind, None if node is None else id(node), "" if node is None else type(node).__name__,
                          tuple(_copy(g) for g in grad_outputs), tuple(_copy(g) for g in grad_inputs),
                          grad_before, grad_after, detail)
    for fn in observers:
        fn(event)


class _tag_derivative_nodes:
    """Under create_graph, mark each new node with the forward node whose backward made it."""

    def __init__(self) -> None:
        self.current = None
        self.handle = register_node_created_hook(self)

    def __call__(self, node: Any) -> Any:
        if self.current is not None:
            node.metadata["differentiates"] = self.current
