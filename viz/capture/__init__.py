"""The adapter: read a live autograd graph into :mod:`viz.model` data, and record a real backward.

This is the only viz package that touches minigrad, and it does so by duck
typing on the autograd protocol of ``docs/architecture.md`` (``grad_fn``,
``next_functions``, ``variable``, ``_saved_*``, ``metadata``, node hooks), so
real PyTorch tensors work too.  minigrad's own extras are used when present:
``Node.output_tensors()`` (intermediate tensors in the dataflow view),
``Node.saved_tensors_released``, ``autograd.graph.register_backward_observer``
(the engine's event log) and ``register_node_created_hook`` (the live graph).

One job per module:

============  ===============================================================
``tensors``   tensors -> numbers and text (``to_numpy``, ``format_values``,
              ``tensor_info``, role flags)
``saved``     a node's ``_saved_*`` values, read without side effects
``naming``    ``params=`` / ``names=`` -> names and module paths of tensors
``modules``   ``trace_modules``: which module's forward made which node
``walk``      roots -> :class:`~viz.model.GraphSnapshot` (``capture_graph``)
``backward``  ``record_backward``: run the real backward, record every step
``describe``  rows describing a live node or tensor (the inspector)
``watch``     ``LiveGraph``: the graph as it is recorded (``viz.live``)
============  ===============================================================
"""

from __future__ import annotations

from .backward import BackwardPass, BackwardRecorder, derivative_formula, fold_pass, record_backward
from .describe import describe_object
from .modules import ModuleTrace, trace_modules
from .naming import resolve_names
from .tensors import MAX_VALUES, _is_node, _is_tensor, format_values, tensor_info, to_numpy
from .walk import VIEWS, capture_graph
from .watch import LiveGraph

__all__ = [
    "capture_graph",
    "record_backward",
    "derivative_formula",
    "BackwardPass",
    "BackwardRecorder",
    "fold_pass",
    "LiveGraph",
    "ModuleTrace",
    "trace_modules",
    "describe_object",
    "format_values",
    "resolve_names",
    "tensor_info",
    "to_numpy",
    "MAX_VALUES",
    "VIEWS",
    "_is_node",
    "_is_tensor",
]
