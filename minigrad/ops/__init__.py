"""The operations: one row of the derivative table per op, forward and backward side by side.

A simple op is one ``rule(...)`` (``ops/_rules.py``): its node name, its numpy forward, and for
each input the gradient as a formula and as one expression run on arrays (plain backward) or on
tensors (``create_graph``).  Reductions, matrix products and the plain losses are rules too.  Ops
with real logic (views, indexing, in-place, conv, layer/batch norm, ops returning indices) stay
``Function`` classes and register their formula in the same table (``ops/formulas.py``).
``minigrad.autograd.derivative_formula(node)`` reads it; ``docs/derivatives.md`` lists every row.

=================  =====================================================
module             ops
=================  =====================================================
``elementwise``    add sub mul div neg pow exp log log1p expm1 sin cos tan asin acos atan atan2 sinh cosh tanh
                   sigmoid relu sqrt abs frac clamp maximum minimum where masked_fill clone to normal
``reduce``         sum mean max min amax amin median mode logsumexp softmax log_softmax var std prod norm
                   cumsum cumprod sort topk unique
``linalg``         mm mv dot bmm addmm matmul einsum
``shape``          view reshape transpose t permute (un)squeeze expand repeat cat stack split unbind flip roll
                   diagonal diag trace tril triu
``index``          x[i] x[a:b] x[idx] gather scatter scatter_add index_select masked_select, x[i] = v
``inplace``        zero_ fill_ copy_, and CopySlices / AsStrided for writes through views
``nn_ops``         the losses and activations of ``minigrad.nn.functional``
``conv``           conv2d, max_pool2d, avg_pool2d (on im2col / col2im)
=================  =====================================================

The Tensor methods (``minigrad/_tensor_ops.py``) are one-line delegations; where a method checks its
arguments or picks among ops first, that front end is in ``_arith`` (operators, ``div``, ``clamp``),
``_logic`` (comparisons, tests, ``nonzero``, ``argmax``, bitwise), ``_reductions``, ``_shapes``,
``_indexing`` (``x[key]``, ``x[key] = v``), ``_writes`` (in-place methods), ``_convert`` (``to``, ``type``);
``_args`` reads the arguments (numpy's ``axis=``/``keepdims=``, PyTorch's errors) and ``_out`` writes
``out=``.
"""

from . import (  # noqa: F401
    elementwise,
    formulas,
    index,
    inplace,
    linalg,
    reduce,
    shape,
)
