"""The misuse catalogue: bad input on which PyTorch raises, run under PyTorch and minigrad.

Each case is a few lines of PyTorch-style code run after :data:`PRELUDE` in a fresh namespace
(``torch``, ``nn``, ``F``, ``optim`` bound to the library). PyTorch raises on every case (the
catalogue is checked against PyTorch: ``python tests/misuse/catalogue.py record`` rewrites
``torch_expected.json`` with PyTorch's exception type and message per case, so the test also runs
without PyTorch). minigrad's outcome is classified:

``message``   same exception type and message (the goal)
``type``      same type, other message
``other``     another exception type
``silent``    no exception at all (a silent success)
``crash``     an internal crash: an exception from numpy or from a Python operation inside minigrad
              (``AxisError``, ``ZeroDivisionError``, ``AttributeError``, ``IndexError`` from numpy ...)

Usage (from the project root)::

    PYTHONPATH=. python tests/misuse/catalogue.py            # table + every case not at 'message'
    PYTHONPATH=. python tests/misuse/catalogue.py record     # rewrite torch_expected.json (needs torch)
    PYTHONPATH=. python tests/misuse/catalogue.py expect     # rewrite expected_failures.json
"""

from __future__ import annotations

import collections
import json
import re
import sys
import traceback
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
TORCH_EXPECTED = HERE / "torch_expected.json"
EXPECTED_FAILURES = HERE / "expected_failures.json"

PRELUDE = """\
a = torch.ones(2, 3)
b = torch.ones(3, 4)
v = torch.ones(3)
s = torch.tensor(2.0)
w = torch.ones(2, 3, requires_grad=True)
i = torch.tensor([0, 1])
y = w * 2
"""

CASES: dict[str, str] = {}


def case(name: str, code: str) -> None:
    assert name not in CASES, name
    CASES[name] = code


# ------------------------------------------------------------------ dims out of range

DIM_OPS = {
    "sum": "{t}.sum({d})", "sum_kw": "{t}.sum(dim={d}, keepdim=True)", "mean": "{t}.mean({d})",
    "var": "{t}.var({d})", "std": "{t}.std({d})", "prod": "{t}.prod({d})", "max": "{t}.max({d})",
    "min": "{t}.min({d})", "amax": "{t}.amax({d})", "amin": "{t}.amin({d})", "argmax": "{t}.argmax({d})",
    "argmin": "{t}.argmin({d})", "logsumexp": "{t}.logsumexp({d})", "softmax": "{t}.softmax({d})",
    "log_softmax": "{t}.log_softmax({d})", "cumsum": "{t}.cumsum({d})", "cumprod": "{t}.cumprod({d})",
    "median": "{t}.median({d})", "norm": "{t}.norm(dim={d})", "squeeze": "{t}.squeeze({d})",
    "flip": "{t}.flip({d})", "roll": "{t}.roll(1, {d})", "transpose": "{t}.transpose(0, {d})",
    "select": "{t}.select({d}, 0)", "narrow": "{t}.narrow({d}, 0, 1)", "split": "{t}.split(1, {d})",
    "chunk": "{t}.chunk(2, {d})", "unbind": "{t}.unbind({d})", "index_select": "{t}.index_select({d}, i[:1])",
    "gather": "{t}.gather({d}, torch.zeros_like({t}, dtype=torch.long))", "cat": "torch.cat([{t}, {t}], {d})",
    "F_softmax": "F.softmax({t}, dim={d})", "F_normalize": "F.normalize({t}, dim={d})",
    "sort": "{t}.sort({d})", "topk": "{t}.topk(1, {d})", "all": "({t} > 0).all({d})", "any": "({t} > 0).any({d})",
    "count_nonzero": "{t}.count_nonzero({d})", "movedim_unsqueeze": "{t}.unsqueeze({d2})",
    "stack": "torch.stack([{t}, {t}], {d2})", "flatten": "{t}.flatten({d})", "diagonal": "{t}.diagonal(0, 0, {d})",
    "cosine_similarity": "F.cosine_similarity({t}, {t}, dim={d})", "mode": "{t}.mode({d})",
    "argsort": "{t}.argsort({d})",
}
for _op, _form in DIM_OPS.items():
    for _t, _dims in (("a", (2, -3, 5)), ("s", (1, -2))):
        if _t == "s" and _op in ("gather", "cat", "diagonal", "transpose", "narrow", "split", "chunk", "unbind",
                                 "index_select", "select", "flatten", "cosine_similarity"):
            _dims = _dims[:1]
        for _d in _dims:
            _d2 = _d + (1 if _d > 0 else -1)  # unsqueeze and stack accept one more
            case("dim_%s_%s_%d" % (_op, _t, _d), _form.format(t=_t, d=_d, d2=_d2))

# ------------------------------------------------------------------ shapes that do not broadcast

BINARY = {"add": "{x} + {y}", "sub": "{x} - {y}", "mul": "{x} * {y}", "div": "{x} / {y}", "pow": "{x} ** {y}",
          "maximum": "torch.maximum({x}, {y})", "minimum": "torch.minimum({x}, {y})",
          "atan2": "torch.atan2({x}, {y})", "eq": "{x} == {y}", "lt": "{x} < {y}",
          "remainder": "torch.remainder({x}, {y})", "where": "torch.where({x} > 0, {x}, {y})",
          "mse_loss": "F.mse_loss({x}, {y})", "l1_loss": "F.l1_loss({x}, {y})",
          "add_alpha": "{x}.add({y}, alpha=2)", "add_": "{x}.clone().add_({y})", "mul_": "{x}.clone().mul_({y})",
          "copy_": "{x}.clone().copy_({y})", "lerp_": "{x}.clone().lerp_({y}, 0.5)",
          "masked_fill": "{x}.masked_fill({y} > 0, 0.0)", "logical_and": "torch.logical_and({x} > 0, {y} > 0)",
          "isclose": "torch.isclose({x}, {y})", "huber_loss": "F.huber_loss({x}, {y})",
          "smooth_l1_loss": "F.smooth_l1_loss({x}, {y})", "bce": "F.binary_cross_entropy({x} * 0.5, {y} * 0.5)"}
for _op, _form in BINARY.items():
    for _j, _other in enumerate(("torch.ones(2, 4)", "torch.ones(4)")):
        case("shape_%s_%d" % (_op, _j), _form.format(x="a", y=_other))
case("shape_inplace_broadcast_grows", "v.clone().add_(a)")
case("shape_inplace_broadcast_grows_mul", "torch.ones(1, 3).mul_(a)")

# ------------------------------------------------------------------ linear algebra

for _name, _code in {
    "mm_inner": "torch.mm(a, a)", "mm_1d": "torch.mm(a, v)", "mm_1d_first": "torch.mm(v, a)",
    "mm_3d": "torch.mm(torch.ones(2, 2, 2), a)", "bmm_2d": "torch.bmm(a, b)",
    "bmm_inner": "torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 2, 3))",
    "bmm_batch": "torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2))", "matmul_inner": "a @ a",
    "matmul_vec": "torch.matmul(v, torch.ones(4))", "matmul_0d": "torch.matmul(s, a)",
    "matmul_batch": "torch.ones(2, 2, 3) @ torch.ones(3, 3, 2)", "dot_len": "torch.dot(v, torch.ones(4))",
    "dot_2d": "torch.dot(a, a)", "dot_dtype": "torch.dot(v, v.double())", "mv_len": "a.mv(torch.ones(4))",
    "mv_2d": "a.mv(a)", "outer_2d": "torch.outer(a, v)", "addmm_shape": "torch.addmm(torch.ones(5), a, b)",
    "addmm_inner": "torch.addmm(torch.ones(2, 4), a, a)", "linear_in": "F.linear(a, torch.ones(4, 4))",
    "linear_bias": "F.linear(a, torch.ones(4, 3), torch.ones(5))",
    "einsum_operands": "torch.einsum('ij,jk->ik', a)", "einsum_dims": "torch.einsum('ijk->i', a)",
    "einsum_size": "torch.einsum('ij,ij->i', a, b)", "einsum_output": "torch.einsum('ij->k', a)",
    "trace_1d": "v.trace()", "diag_3d": "torch.ones(2, 2, 2).diag()", "tril_1d": "v.tril()", "triu_0d": "s.triu()",
    "mm_dtype": "torch.mm(a, b.double())", "mm_int": "torch.mm(a.long(), b)", "matmul_dtype": "a @ b.long()",
    "bmm_dtype": "torch.bmm(torch.ones(1, 2, 3), torch.ones(1, 3, 2).double())",
    "mv_dtype": "a.mv(v.double())",
}.items():
    case("linalg_" + _name, _code)

# ------------------------------------------------------------------ views and shapes

for _name, _code in {
    "view_numel": "a.view(4)", "view_two_minus_one": "a.view(-1, -1)", "reshape_numel": "a.reshape(5)",
    "view_noncontiguous": "a.t().view(-1)", "view_neg": "a.view(-2, 3)", "reshape_zero": "a.reshape(0, -1)",
    "expand_size": "a.expand(3, 3)", "expand_fewer": "a.expand(3)", "expand_neg_new": "a.expand(-1, 2, 3)",
    "permute_len": "a.permute(0)", "permute_dup": "a.permute(0, 0)", "permute_long": "a.permute(0, 1, 2)",
    "t_3d": "torch.ones(2, 2, 2).t()", "flatten_order": "torch.ones(2, 2, 2).flatten(2, 0)",
    "unflatten_size": "a.unflatten(1, (2, 2))", "repeat_fewer": "a.repeat(2)", "squeeze_bad_type": "a.squeeze('x')",
    "view_as": "a.view_as(v)", "reshape_as": "a.reshape_as(v)", "expand_as": "a.expand_as(v)",
    "broadcast_to": "a.broadcast_to((3, 3))", "split_sizes": "a.split([1, 1], dim=1)",
    "split_zero": "a.split(0)", "chunk_zero": "a.chunk(0)", "narrow_len": "a.narrow(1, 2, 5)",
    "narrow_start": "a.narrow(1, 5, 1)", "select_index": "a.select(1, 3)", "select_neg_index": "a.select(0, -3)",
    "unsqueeze_float": "a.unsqueeze(0.5)", "diagonal_same": "a.diagonal(0, 0, 0)",
    "cat_empty_list": "torch.cat([])", "cat_ndim": "torch.cat([a, v])", "cat_size": "torch.cat([a, b])",
    "cat_0d": "torch.cat([s, s])", "cat_tensor": "torch.cat(a)", "stack_size": "torch.stack([a, b])",
    "stack_empty": "torch.stack([])", "cat_dtype_ok_but_dim": "torch.cat([a, a.double()], dim=2)",
    "roll_dims_len": "a.roll((1, 1), 0)", "flip_dup": "a.flip(0, 0)", "repeat_neg": "a.repeat(-1, 1)",
    "view_dtype_size": "a.view(2, 2)", "reshape_two_neg": "a.reshape(-1, -1)",
}.items():
    case("shape_op_" + _name, _code)

# ------------------------------------------------------------------ indexing

for _name, _code in {
    "int_oob": "a[5]", "int_neg_oob": "a[-3]", "too_many": "a[0, 0, 0]", "second_oob": "a[:, 5]",
    "float_index": "a[i.float()]", "tensor_oob": "a[torch.tensor([5])]", "tensor_neg_oob": "a[torch.tensor([-3])]",
    "mask_shape": "a[torch.tensor([True, False, True])]", "zero_dim_index": "s[0]",
    "index_select_float": "a.index_select(0, i.float())", "index_select_2d": "a.index_select(0, torch.tensor([[0]]))",
    "index_select_oob": "a.index_select(1, torch.tensor([3]))", "gather_ndim": "a.gather(1, i)",
    "gather_float": "a.gather(1, torch.zeros(2, 1))", "gather_oob": "a.gather(1, torch.tensor([[3], [0]]))",
    "gather_size": "a.gather(1, torch.zeros(3, 1, dtype=torch.long))",
    "scatter_float_index": "a.scatter(1, torch.zeros(2, 1), torch.ones(2, 1))",
    "scatter_oob": "a.scatter(1, torch.tensor([[5], [0]]), torch.ones(2, 1))",
    "scatter_ndim": "a.scatter(1, i, v)", "scatter_add_dtype": "a.scatter_add(1, torch.zeros(2, 1, dtype=torch.long), "
                                                             "torch.ones(2, 1).double())",
    "masked_fill_value": "a.masked_fill(a > 0, torch.ones(2))", "masked_fill_mask_dtype": "a.masked_fill(a, 0.0)",
    "masked_select_shape": "a.masked_select(torch.tensor([True, False]))",
    "masked_select_dtype": "a.masked_select(a)", "setitem_shape": "a.clone()[0] = torch.ones(4)",
    "setitem_oob": "c = a.clone()\nc[3] = 1.0", "setitem_mask_len": "c = a.clone()\nc[torch.tensor([True])] = 0.0",
    "topk_k": "v.topk(5)", "kthvalue_like_sort_bad": "v.sort(dim=3)", "take_bool": "a[torch.tensor(True), 5]",
    "index_str": "a['x']", "index_list_oob": "a[[0, 4]]", "index_float_scalar": "a[1.5]",
    "bincount_float": "torch.bincount(v)", "bincount_neg": "torch.bincount(torch.tensor([-1, 0]))",
    "bincount_2d": "torch.bincount(torch.zeros(2, 2, dtype=torch.long))",
}.items():
    case("index_" + _name, _code)

# ------------------------------------------------------------------ autograd misuse

INPLACE_ON_LEAF = ["add_(1)", "sub_(1)", "mul_(2)", "div_(2)", "zero_()", "fill_(1.0)", "clamp_(0)", "exp_()",
                   "sigmoid_()", "tanh_()", "sqrt_()", "pow_(2)", "neg_()", "relu_()", "copy_(a)",
                   "masked_fill_(a > 0, 0.0)", "uniform_()", "normal_()", "scatter_(1, torch.zeros(2, 1, "
                   "dtype=torch.long), 1.0)", "clip_(0, 1)", "addcmul_(a, a)", "addcdiv_(a, a)", "lerp_(a, 0.5)"]
for _k, _op in enumerate(INPLACE_ON_LEAF):
    case("autograd_inplace_leaf_%s" % _op.split("(")[0], "w.%s" % _op)
for _name, _code in {
    "setitem_leaf": "w[0] = 1.0", "setitem_leaf_slice": "w[:, 1] = torch.ones(2)",
    "view_of_leaf_inplace": "w[0].add_(1)", "view_of_leaf_inplace_t": "w.t().mul_(2)",
    "backward_twice": "z = (w * w).sum()\nz.backward()\nz.backward()",
    "backward_twice_exp": "z = w.exp().sum()\nz.backward()\nz.backward()",
    "grad_twice": "z = (w * w).sum()\ntorch.autograd.grad(z, [w])\ntorch.autograd.grad(z, [w])",
    "non_scalar_backward": "y.backward()", "non_scalar_grad": "torch.autograd.grad(y, [w])",
    "no_grad_backward": "a.sum().backward()", "no_grad_grad": "torch.autograd.grad(a.sum(), [a])",
    "unused_input": "z = w.sum()\nq = torch.ones(2, requires_grad=True)\ntorch.autograd.grad(z, [w, q])",
    "input_no_grad": "z = w.sum()\ntorch.autograd.grad(z, [a])",
    "grad_shape": "y.backward(torch.ones(3))", "grad_shape_autograd": "torch.autograd.grad(y, [w], torch.ones(3))",
    "grad_outputs_len": "torch.autograd.grad([y], [w], [torch.ones(2, 3), torch.ones(2, 3)])",
    "int_requires_grad": "torch.tensor([1, 2], requires_grad=True)",
    "long_requires_grad_": "torch.ones(2, dtype=torch.long).requires_grad_()",
    "int_ones_requires_grad": "torch.ones(2, dtype=torch.int32, requires_grad=True)",
    "hook_no_grad": "a.register_hook(lambda g: g)", "retain_grad_no_grad": "a.retain_grad()",
    "requires_grad_nonleaf": "y.requires_grad_(False)", "requires_grad_attr_nonleaf": "y.requires_grad = False",
    "grad_wrong_shape": "w.grad = torch.ones(3)", "grad_wrong_type": "w.grad = 1.0",
    "grad_wrong_dtype": "w.grad = torch.ones(2, 3, dtype=torch.float64)",
    "saved_modified": "q = w * 1\nz = q * q\nq.add_(1)\nz.sum().backward()",
    "saved_modified_exp": "q = w * 1\nz = q.exp()\nz.mul_(2)\nz.sum().backward()",
    "saved_modified_sigmoid": "q = w * 1\nz = q.sigmoid()\nz.add_(1)\nz.sum().backward()",
    "saved_modified_pow": "q = w * 1\nz = q ** 2\nq.mul_(2)\nz.sum().backward()",
    "saved_modified_mm": "q = w * 1\nz = q @ b\nq.zero_()\nz.sum().backward()",
    "saved_modified_tanh_inplace": "q = w * 1\nq.tanh_()\nq.mul_(2)\nq.sum().backward()",
    "saved_modified_exp_inplace": "q = w + 0\nq.exp_()\nq.mul_(2)\nq.sum().backward()",
    "saved_modified_avg_pool2d": "q = w.view(1, 1, 2, 3) * 1\nz = F.avg_pool2d(q, 2)\nq.mul_(2)\nz.sum().backward()",
    "saved_modified_max_pool2d": "q = w.view(1, 1, 2, 3) * 1\nz = F.max_pool2d(q, 2)\nq.mul_(2)\nz.sum().backward()",
    "saved_modified_adaptive_avg_pool2d": "q = w.view(1, 2, 3) * 1\nz = F.adaptive_avg_pool2d(q, (2, 2))\n"
                                          "q.mul_(2)\nz.sum().backward()",
    "saved_modified_two_div_floor": "q = w * 1\nr = (w * 2)[:1]\nz = torch.div(q, r, rounding_mode='floor')\n"
                                    "q.add_(1)\nr.add_(1)\nz.sum().backward()",
    "saved_modified_two_atan2": "q = w * 1\nr = (w * 2)[:1]\nz = torch.atan2(q, r)\nq.add_(1)\nr.add_(1)\n"
                                "z.sum().backward()",
    "backward_twice_where": "z = torch.where(w > 0, w, 0.0).sum()\nz.backward()\nz.backward()",
    "backward_twice_slogdet_sign": "z = torch.slogdet(w[:, :2] * 1)[0]\nz.backward()\nz.backward()",
    "detach_inplace_used": "q = w.sigmoid()\nd = q.detach()\nd.zero_()\nq.sum().backward()",
    "split_output_inplace": "q = w * 1\nq.split(1)[0].mul_(2)",
    "chunk_output_inplace": "q = w * 1\nq.chunk(2)[0].add_(1)",
    "unbind_output_inplace": "q = w * 1\nq.unbind()[0].zero_()",
    "split_output_read_after_base": "q = w * 1\np = q.split(1)[0]\nq.add_(1)\np.grad_fn",
    "no_grad_view_inplace": "q = w * 1\nwith torch.no_grad():\n    p = q[0]\np.mul_(2)",
    "backward_inputs_empty": "z = w.sum()\nz.backward(inputs=[])",
    "backward_inputs_no_grad": "z = w.sum()\nz.backward(inputs=[a])",
    "grad_of_int": "torch.autograd.grad(w.sum(), [i])", "item_multi": "w.item()", "item_empty": "torch.ones(0).item()",
    "numpy_requires_grad": "w.numpy()", "float_multi": "float(w)", "bool_ambiguous": "bool(a)",
    "int_multi": "int(a)", "len_0d": "len(s)", "iter_0d": "iter(s)",
    "inference_tensor_backward": "with torch.inference_mode():\n    q = torch.ones(2)\nq.requires_grad_()",
    "leaf_view_in_no_grad_then_use": "with torch.no_grad():\n    p = w[0]\np.mul_(2)\n(p * w[0]).sum().backward()",
}.items():
    case("autograd_" + _name, _code)

# ------------------------------------------------------------------ bad arguments and keywords

for _name, _code in {
    "sum_kw": "a.sum(dimm=0)", "mean_kw": "a.mean(foo=1)", "ones_kw": "torch.ones(2, dtyp=torch.float32)",
    "softmax_nodim": "torch.softmax(a)", "F_softmax_kw": "F.softmax(a, dim=1, foo=2)",
    "view_float": "a.view(2.5)", "reshape_str": "a.reshape('a')",
    "tensor_dtype_str": "torch.tensor([1.0], dtype='float')",
    "clamp_none": "a.clamp()", "transpose_one": "a.transpose(0)", "permute_none": "a.permute()",
    "expand_none": "a.expand()", "relu_kw": "F.relu(a, foo=2)", "max_kw": "a.max(dim=0, keepdim=True, x=2)",
    "pow_missing": "a.pow()", "add_missing": "a.add()", "add_str": "a + 'x'", "mul_none": "a * None",
    "zeros_neg": "torch.zeros(-1)", "ones_neg": "torch.ones((2, -3))", "arange_step0": "torch.arange(0, 10, 0)",
    "arange_sign": "torch.arange(10, 0, 1)", "linspace_neg": "torch.linspace(0, 1, -1)", "randn_neg": "torch.randn(-2)",
    "eye_neg": "torch.eye(-1)", "full_no_value": "torch.full((2,))", "tensor_ragged": "torch.tensor([[1, 2], [3]])",
    "tensor_str": "torch.tensor('abc')", "tensor_none": "torch.tensor([None])",
    "randint_bounds": "torch.randint(5, 2, (3,))", "randperm_neg": "torch.randperm(-1)",
    "rand_float_size": "torch.rand(2.5)", "empty_neg": "torch.empty(-2)",
    "sum_dim_str": "a.sum('x')", "mean_dtype_int": "a.mean(dtype=torch.long)",
    "to_bad": "a.to('nonsense')", "type_bad": "a.type('nonsense')", "norm_p_str": "a.norm(p='x')",
    "var_unbiased_and_correction": "a.var(0, unbiased=True, correction=1)",
    "split_float": "a.split(1.5)", "chunk_neg": "a.chunk(-1)", "topk_neg": "v.topk(-1)",
    "repeat_float": "a.repeat(1.5, 1)", "where_one_arg_float": "torch.where(a)",
    "cat_kw": "torch.cat([a, a], axis=0, foo=1)", "manual_seed_str": "torch.manual_seed('x')",
    "set_default_dtype_int": "torch.set_default_dtype(torch.int64)", "clamp_min_gt_max_tensor": "a.clamp(min='x')",
    "leaky_relu_slope_str": "F.leaky_relu(a, 'x')", "dropout_p": "F.dropout(a, p=1.5)",
    "dropout_neg": "F.dropout(a, p=-0.1)",
    "unique_kw": "v.unique(foo=1)", "flatten_kw": "a.flatten(start=0)", "squeeze_kw": "a.squeeze(dims=0)",
    "requires_grad_kw": "a.requires_grad_(flag=True)", "backward_kw": "w.sum().backward(foo=1)",
    "grad_kw": "torch.autograd.grad(w.sum(), [w], foo=1)",
}.items():
    case("args_" + _name, _code)

# ------------------------------------------------------------------ dtypes

for _name, _code in {
    "bitwise_float": "a & a", "invert_float": "~a", "mean_long": "torch.ones(2, dtype=torch.long).mean()",
    "std_long": "torch.ones(2, dtype=torch.long).std()", "var_long": "torch.ones(2, dtype=torch.long).var()",
    "softmax_long": "torch.ones(2, dtype=torch.long).softmax(0)", "exp_inplace_long": "i.clone().exp_()",
    "add_inplace_float_to_long": "i.clone().add_(1.5)", "mul_inplace_float_to_long": "i.clone().mul_(0.5)",
    "div_inplace_long": "i.clone().div_(2)", "neg_bool": "-torch.tensor([True])",
    "sub_bool": "torch.tensor([True]) - torch.tensor([False])", "where_cond_float": "torch.where(a, a, a)",
    "masked_fill_float_mask": "a.masked_fill(a * 1.0, 0.0)", "one_hot_float": "F.one_hot(v)",
    "embedding_float_idx": "F.embedding(v, torch.ones(3, 2))", "cross_entropy_float_target_shape":
        "F.cross_entropy(a, torch.ones(2))", "nll_loss_float_target": "F.nll_loss(a, torch.ones(2))",
    "index_float_tensor": "a[torch.tensor([0.0])]", "sqrt_inplace_long": "i.clone().sqrt_()",
    "sigmoid_inplace_long": "i.clone().sigmoid_()", "pow_inplace_long_neg": "i.clone().pow_(-1)",
    "int_pow_neg": "i ** -1", "long_true_divide_inplace": "i.clone().true_divide_(2)"
        if False else "i.clone().div_(torch.tensor(2.0))",
    "clamp_inplace_long_float": "i.clone().clamp_(0.5)", "copy_complex_like": "a.copy_('x')",
    "lerp_dtype": "a.clone().lerp_(a.double(), 0.5)", "addmm_int": "torch.addmm(a.long(), a.long(), b)",
    "remainder_bool": "torch.tensor([True]) % torch.tensor([True])", "logsumexp_long":
        "torch.ones(2, dtype=torch.long).logsumexp(0)",
    "cumsum_inplace_dtype": "i.clone().copy_(torch.ones(2)).exp_()", "argmax_bool_ok_then_bad": "a.argmax(dim=0.5)",
    "norm_long": "torch.ones(2, dtype=torch.long).norm()", "erf_inplace_long": "i.clone().abs().sqrt_()",
    "float_to_bool_inplace": "torch.tensor([True]).add_(1.5)",
}.items():
    case("dtype_" + _name, _code)

# ------------------------------------------------------------------ losses and nn.functional

for _name, _code in {
    "mse_reduction": "F.mse_loss(a, a, reduction='bad')", "l1_reduction": "F.l1_loss(a, a, reduction='x')",
    "ce_oob": "F.cross_entropy(a, torch.tensor([5, 0]))", "ce_neg": "F.cross_entropy(a, torch.tensor([-2, 0]))",
    "ce_batch": "F.cross_entropy(a, torch.tensor([0]))", "ce_reduction": "F.cross_entropy(a, i, reduction='x')",
    "ce_smoothing": "F.cross_entropy(a, i, label_smoothing=1.5)", "ce_0d_input": "F.cross_entropy(s, i)",
    "nll_oob": "F.nll_loss(a, torch.tensor([3, 0]))", "nll_batch": "F.nll_loss(a, torch.tensor([0, 1, 2]))",
    "nll_3d_target": "F.nll_loss(a, torch.zeros(2, 2, dtype=torch.long))",
    "bce_range": "F.binary_cross_entropy(a * 2, a * 0.5)", "bce_shape": "F.binary_cross_entropy(a * 0.5, v * 0.5)",
    "bce_logits_shape": "F.binary_cross_entropy_with_logits(a, v)",
    "bce_logits_reduction": "F.binary_cross_entropy_with_logits(a, a, reduction='x')",
    "smooth_l1_beta": "F.smooth_l1_loss(a, a, beta=-1.0)", "huber_delta": "F.huber_loss(a, a, delta=0.0)",
    "layer_norm_shape": "F.layer_norm(a, (4,))", "layer_norm_weight": "F.layer_norm(a, (3,), weight=torch.ones(4))",
    "layer_norm_bias": "F.layer_norm(a, (3,), bias=torch.ones(2))", "pad_odd": "F.pad(a, (1,))",
    "pad_long": "F.pad(a, (1, 1, 1, 1, 1, 1))", "pad_mode": "F.pad(a, (1, 1), mode='bad')",
    "normalize_dim": "F.normalize(a, p=2, dim=5)", "cosine_shape": "F.cosine_similarity(a, torch.ones(2, 4))",
    "embedding_oob": "F.embedding(torch.tensor([5]), torch.ones(3, 2))",
    "embedding_neg": "F.embedding(torch.tensor([-1]), torch.ones(3, 2))",
    "one_hot_classes": "F.one_hot(torch.tensor([3]), 2)", "one_hot_neg": "F.one_hot(torch.tensor([-1]))",
    "conv2d_channels": "F.conv2d(torch.ones(1, 2, 5, 5), torch.ones(4, 3, 3, 3))",
    "conv2d_3d_input": "F.conv2d(torch.ones(2, 5, 5, 5, 5), torch.ones(4, 2, 3, 3))",
    "conv2d_kernel_big": "F.conv2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 3, 3))",
    "conv2d_bias": "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(2, 1, 3, 3), torch.ones(3))",
    "conv2d_stride0": "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), stride=0)",
    "max_pool_big": "F.max_pool2d(torch.ones(1, 1, 2, 2), 3)",
    "avg_pool_big": "F.avg_pool2d(torch.ones(1, 1, 2, 2), 3)",
    "max_pool_pad": "F.max_pool2d(torch.ones(1, 1, 4, 4), 2, padding=2)",
    "batch_norm_shape": "F.batch_norm(torch.ones(2, 3), torch.zeros(4), torch.ones(4))",
    "batch_norm_one": "F.batch_norm(torch.ones(1, 3), None, None, training=True)",
    "softplus_kw": "F.softplus(a, bet=1)", "hardtanh_kw": "F.hardtanh(a, foo=1)",
    "gelu_approx": "F.gelu(a, approximate='bad')", "elu_kw": "F.elu(a, alph=1.0)",
    "linear_1d_weight_bad": "F.linear(a, torch.ones(4))", "dropout_str": "F.dropout(a, p='x')",
    "bilinear_shape": "F.bilinear(a, a, torch.ones(2, 4, 3))",
    "log_softmax_nodim_kw": "F.log_softmax(a, dim=1, dtype='x')",
}.items():
    case("nn_" + _name, _code)

# ------------------------------------------------------------------ modules and optimizers

for _name, _code in {
    "linear_in": "nn.Linear(3, 4)(torch.ones(2, 5))", "linear_neg": "nn.Linear(-1, 2)",
    "sgd_empty": "optim.SGD([], lr=0.1)", "sgd_lr": "optim.SGD([w], lr=-1)",
    "sgd_momentum": "optim.SGD([w], lr=0.1, momentum=-1)",
    "sgd_nesterov": "optim.SGD([w], lr=0.1, nesterov=True)", "sgd_tensor": "optim.SGD(w, lr=0.1)",
    "sgd_wd": "optim.SGD([w], lr=0.1, weight_decay=-1)", "adam_beta": "optim.Adam([w], lr=0.1, betas=(1.5, 0.9))",
    "adam_beta2": "optim.Adam([w], lr=0.1, betas=(0.9, -0.1))", "adam_eps": "optim.Adam([w], eps=-1)",
    "adam_lr": "optim.Adam([w], lr=-0.1)", "adamw_wd": "optim.AdamW([w], weight_decay=-1)",
    "rmsprop_alpha": "optim.RMSprop([w], alpha=-1)", "adagrad_lr": "optim.Adagrad([w], lr=-1)",
    "sgd_dup": "optim.SGD([w, w], lr=0.1)", "register_param_type": "nn.Module().register_parameter('p', a)",
    "register_param_dot": "nn.Module().register_parameter('a.b', nn.Parameter(a))",
    "module_attr": "nn.Linear(2, 2).nonexistent", "embedding_oob": "nn.Embedding(3, 2)(torch.tensor([3]))",
    "batchnorm_features": "nn.BatchNorm1d(3)(torch.ones(2, 4))",
    "conv_channels": "nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5))",
    "sequential_call_bad": "nn.Sequential(nn.Linear(2, 2))(torch.ones(2, 3))",
    "load_state_missing": "nn.Linear(2, 2).load_state_dict({})",
    "load_state_shape": "nn.Linear(2, 2).load_state_dict({'weight': torch.ones(3, 3), 'bias': torch.ones(2)})",
    "parameter_int": "nn.Parameter(torch.ones(2, dtype=torch.long))",
    "step_lr_bad": "optim.lr_scheduler.StepLR(a, 1)", "mse_module_reduction": "nn.MSELoss(reduction='bad')(a, a)",
    "ce_module_oob": "nn.CrossEntropyLoss()(a, torch.tensor([7, 0]))", "layernorm_shape": "nn.LayerNorm(4)(a)",
    "dropout_p": "nn.Dropout(p=2.0)", "zero_grad_kw": "optim.SGD([w], lr=0.1).zero_grad(foo=1)",
    "add_param_group_dup": "o = optim.SGD([w], lr=0.1)\no.add_param_group({'params': [w]})",
}.items():
    case("module_" + _name, _code)


# ------------------------------------------------------------------ what learners write (session 2)
# Realistic slips, one per line: a layer fed the wrong width, a float where a size goes, a typo in a
# keyword, a loss given targets of the wrong kind, an optimizer or DataLoader set up wrongly.

for _name, _code in {
    # shapes in matmul and layers
    "linear_width": "x = torch.randn(4, 10)\nlayer = nn.Linear(20, 5)\nlayer(x)",
    "vec_at_matrix": "torch.ones(5) @ torch.ones(4, 5)", "batched_inner": "torch.ones(2, 3, 4) @ torch.ones(3, 4)",
    "mm_vector": "torch.mm(torch.ones(2, 3), torch.ones(3))",
    "bmm_batch_size": "torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 5))",
    "matmul_vec_len": "torch.matmul(torch.ones(2, 3), torch.ones(2))",
    "dot_matrix": "torch.ones(3).dot(torch.ones(3, 1))",
    "mv_len": "torch.mv(torch.ones(2, 3), torch.ones(2))", "linear_3d_bias": "F.linear(torch.ones(5, 2, 3), "
                                                                              "torch.ones(4, 3), torch.ones(5))",
    "linear_3d_weight": "F.linear(a, torch.ones(4, 3, 1))",
    "linear_long_input": "nn.Linear(3, 2)(torch.ones(2, 3, dtype=torch.long))",
    "linear_double_input": "nn.Linear(3, 2)(torch.ones(2, 3).double())",
    # cat, stack
    "cat_dim1_rows": "torch.cat([torch.ones(2, 3), torch.ones(3, 3)], dim=1)",
    "cat_dim0_cols": "torch.cat([torch.ones(2, 3), torch.ones(2, 4)])", "cat_number": "torch.cat((a, 5))",
    "cat_str": "torch.cat([a, 'x'])", "stack_shapes": "torch.stack([a, v])", "stack_tensor": "torch.stack(a)",
    "stack_dim_oob": "torch.stack([a, a], 3)", "cat_float_dim": "torch.cat([a, a], 0.5)",
    "stack_float_dim": "torch.stack([a, a], 0.5)", "cat_0d_second": "torch.cat([a, s])",
    # sizes given as floats or strings
    "view_wrong_numel": "a.view(3, 3)", "view_minus_one_bad": "a.view(-1, 4)",
    "reshape_minus_one_bad": "a.reshape(4, -1)",
    "reshape_float_second": "a.reshape(2, 1.5)", "reshape_float_tuple": "a.reshape((1.5, 2))",
    "reshape_float_first": "a.reshape(1.5, 2)", "reshape_none": "a.reshape(None)", "reshape_nothing": "a.reshape()",
    "reshape_list_str": "a.reshape([3, 'x'])", "view_str_second": "a.view(2, 'a')", "view_floats": "a.view(1.5, 2)",
    "view_nothing": "a.view()", "permute_float": "a.permute(0, 1.5)", "permute_float_tuple": "a.permute((0.5, 1))",
    "permute_float_first": "a.permute(0.5, 1)", "expand_float": "a.expand(2, 3.5)",
    "expand_float_first": "a.expand(2.5, 3)", "repeat_float_second": "a.repeat((1, 1.5))",
    "repeat_float_only": "a.repeat(1.5)", "zeros_float": "torch.zeros(2.5)",
    "zeros_float_second": "torch.zeros(2, 2.5)",
    "zeros_none": "torch.zeros(None)", "zeros_none_second": "torch.zeros(2, None)", "ones_str": "torch.ones('a')",
    "randn_str": "torch.randn(2, 'x')", "empty_float": "torch.empty(2.5)", "ones_size_kw_float": "torch.ones(size=2.5)",
    "zeros_neg_first": "torch.zeros(-1, 2)", "full_int_size": "torch.full(2, 1.0)",
    "full_neg": "torch.full((2, -1), 1.0)", "full_str_value": "torch.full((2,), 'x')",
    # dims given as floats, strings, bools or tensors
    "transpose_float": "a.transpose(0.5, 1)", "transpose_str": "a.transpose(0, '1')",
    "unsqueeze_bool": "a.unsqueeze(True)", "unsqueeze_str": "a.unsqueeze('x')", "unsqueeze_tensor": "a.unsqueeze(i)",
    "flatten_float_start": "a.flatten(0.5)", "flatten_float_end": "a.flatten(0, 1.5)",
    "flip_float": "a.flip(0.5)", "flip_float_tuple": "a.flip((0, 0.5))", "sum_float_in_tuple": "a.sum((0, 0.5))",
    "sum_dim_kw_float_tuple": "a.sum(dim=(0, 0.5))", "amax_float": "a.amax(0.5)",
    "amax_float_tuple": "a.amax((0, 0.5))",
    "squeeze_str_tuple": "a.squeeze((0, 'x'))", "split_float_list": "a.split([1, 1.5], 1)", "split_str": "a.split('x')",
    "select_float": "a.select(0, 0.5)", "unbind_float": "a.unbind(0.5)", "argmax_float_pos": "a.argmax(0.5)",
    "argmax_str_kw": "a.argmax(dim='x')", "softmax_float": "a.softmax(0.5)", "cumsum_float": "a.cumsum(0.5)",
    "topk_float": "a.topk(1.5)", "chunk_float": "a.chunk(1.5)", "index_select_float_dim": "a.index_select(0.5, i)",
    "gather_float_dim": "a.gather(0.5, i)", "logsumexp_float": "a.logsumexp(0.5)", "roll_float_dim": "a.roll(1, 0.5)",
    "roll_float_shift": "a.roll(1.5, 0)", "sum_dim_kw_str": "a.sum(dim='x')", "mean_str": "a.mean('x')",
    "sum_float": "a.sum(0.5)", "mean_float": "a.mean(0.5)",
    # numbers and types of other arguments
    "norm_p_str_vector": "v.norm(p='x')", "norm_p_str_dim": "a.norm(p='x', dim=1)", "clamp_max_str": "a.clamp(max='x')",
    "clamp_str_pos": "a.clamp('x')", "clamp_tensor_shape": "a.clamp(min=torch.ones(2, 4))",
    "outer_matrix_second": "torch.outer(v, a)", "outer_scalar": "torch.outer(v, s)",
    "type_unknown_name": "a.type('torch.Foo')",
    "type_number": "a.type(5)", "std_unbiased_and_correction": "a.std(0, unbiased=True, correction=1)",
    "add_unknown_kw": "a.add(1, beta=2)", "size_kw": "a.size(foo=1)", "clone_kw": "a.clone(foo=1)",
    "transpose_three": "a.transpose(0, 1, 2)",
    # factories
    "ones_unknown_kw": "torch.ones(2, foo=1)", "zeros_dtype_str": "torch.zeros(2, dtype='float')",
    "empty_unknown_kw": "torch.empty(2, foo=1)", "full_unknown_kw": "torch.full((2,), 1, foo=2)",
    "zeros_like_kw": "torch.zeros_like(a, foo=1)",
    "tensor_unknown_kw": "torch.tensor([1, 2], dtype=torch.float32, foo=1)",
    "ones_requires_grad_str": "torch.ones(2, 3, requires_grad='x')", "zeros_out_int": "torch.zeros(2, out=1)",
    "arange_str": "torch.arange('a')", "arange_inf": "torch.arange(0, float('inf'))",
    "arange_nan": "torch.arange(0, float('nan'))", "arange_down": "torch.arange(5, 1)",
    "arange_neg_end": "torch.arange(-1)",
    "arange_float_step0": "torch.arange(0, 10, 0.0)", "arange_neg_step_up": "torch.arange(0, 10, -1)",
    "eye_neg_m": "torch.eye(3, -1)", "eye_float": "torch.eye(2.5)", "logspace_neg": "torch.logspace(0, 1, -1)",
    "randperm_float": "torch.randperm(2.5)", "randint_float_size": "torch.randint(5, (2, 2.5))",
    "randint_int_size": "torch.randint(5, 2)", "randint_float_high": "torch.randint(5.5, (2,))",
    "multinomial_zero": "torch.multinomial(torch.tensor([0., 0.]), 1)",
    "multinomial_too_many": "torch.multinomial(torch.tensor([1., 1.]), 3)",
    "multinomial_negative": "torch.multinomial(torch.tensor([-1., 1.]), 1)",
    "normal_neg_std": "torch.normal(0, -1, (2,))",
    "normal_tensor_neg_std": "torch.normal(torch.zeros(2), -1.0)",
    "bernoulli_p": "torch.bernoulli(torch.tensor([1.5]))",
    "tensor_ragged_inner": "torch.tensor([[1.0], [2.0, 3.0]])",
    # dtypes
    "bitwise_or_float": "a | a", "bitwise_xor_float": "a ^ a", "bitwise_and_method": "a.bitwise_and(a)",
    "bitwise_double_long": "torch.ones(2, dtype=torch.double) & i", "bitwise_shapes": "i & a",
    "invert_double": "~torch.ones(2, dtype=torch.double)", "long_pow_neg2": "i ** -2", "long_pow_method": "i.pow(-1)",
    "long_0d_pow_neg": "torch.tensor(2) ** -1", "where_long_cond": "torch.where(i, v[:2], v[:2])",
    "where_str_other": "torch.where(a > 0, a, 'x')", "embedding_float_index": "F.embedding(torch.tensor([0.5]), "
                                                                              "torch.ones(3, 2))",
    "requires_grad_long": "torch.arange(3).requires_grad_()",
    # autograd
    "backward_vector": "x = torch.ones(3, requires_grad=True)\ny = x * 2\ny.backward()",
    "backward_no_grad_result": "with torch.no_grad():\n    z = w * 2\nz.sum().backward()",
    "backward_detached": "x = torch.ones(3, requires_grad=True)\nx.detach().sum().backward()",
    "backward_grad_of_grad": "x = torch.ones(3, requires_grad=True)\n(x * 2).sum().backward()\nx.grad.sum().backward()",
    "iadd_leaf": "x = torch.ones(3, requires_grad=True)\nx += 1",
    "setitem_leaf_int": "x = torch.ones(3, requires_grad=True)\nx[0] = 5",
    "detached_requires_grad_inplace": "x = w.detach()\nx.requires_grad_()\nx.add_(1)",
    "backward_scalar_grad_shape": "w.sum().backward(torch.ones(2))",
    "backward_twice_no_retain": "z = w.sum() * w.sum()\nz.backward()\ntorch.autograd.grad(z, [w])",
    "grad_outputs_shape": "torch.autograd.grad([w.sum()], [w], grad_outputs=[torch.ones(2)])",
    "grad_result_backward": "g, = torch.autograd.grad((w * w).sum(), [w], create_graph=True)\ng.backward()",
    "backward_inputs_int": "w.sum().backward(inputs=[1])",
    "backward_grads_count": "torch.autograd.backward([w.sum(), w.sum()], [torch.tensor(1.)])",
    "inference_requires_grad_attr": "with torch.inference_mode():\n    q = torch.ones(2)\nq.requires_grad = True",
    "inference_inplace_outside": "with torch.inference_mode():\n    q = torch.ones(2)\nq.add_(1)",
    "modify_input_of_sigmoid": "q = w.sigmoid()\nq.mul_(2)\nq.sum().backward()",
    # optimizers
    "adam_tensor": "optim.Adam(w)", "adam_non_leaf": "optim.Adam([y])",
    "sgd_module": "optim.SGD(nn.Linear(2, 2), lr=0.1)",
    "sgd_dup_groups": "optim.SGD([{'params': [w]}, {'params': [w]}], lr=0.1)",
    "sgd_nesterov_dampening": "optim.SGD([w], lr=0.1, momentum=0.9, dampening=0.5, nesterov=True)",
    "adam_wd": "optim.Adam([w], weight_decay=-1)", "rmsprop_momentum": "optim.RMSprop([w], momentum=-1)",
    "adagrad_lr_decay": "optim.Adagrad([w], lr_decay=-1)", "adamw_beta2_one": "optim.AdamW([w], betas=(0.9, 1.0))",
    "rmsprop_eps": "optim.RMSprop([w], eps=-1)", "adagrad_eps": "optim.Adagrad([w], eps=-1)",
    "steplr_missing": "optim.lr_scheduler.StepLR(optim.SGD([w], lr=0.1))",
    "exponentiallr_missing": "optim.lr_scheduler.ExponentialLR(optim.SGD([w], lr=0.1))",
    "step_closure_int": "o = optim.SGD([w], lr=0.1)\no.step(5)",
    "load_state_empty": "o = optim.SGD([w], lr=0.1)\no.load_state_dict({})",
    "add_param_group_list": "o = optim.SGD([w], lr=0.1)\no.add_param_group([w])",
    # nn modules
    "linear_feature_mismatch": "nn.Linear(3, 4)(torch.ones(3, 4))",
    "conv2d_2d_input": "nn.Conv2d(3, 8, 3)(torch.ones(8, 8))",
    "conv2d_kernel_too_big": "nn.Conv2d(3, 8, 3)(torch.ones(1, 3, 2, 2))",
    "conv2d_groups_in": "nn.Conv2d(3, 8, 3, groups=2)",
    "conv2d_channels_last": "nn.Conv2d(3, 8, 3)(torch.ones(1, 5, 5, 3))",
    "maxpool_1d_input": "nn.MaxPool2d(2)(torch.ones(4))", "batchnorm2d_2d": "nn.BatchNorm2d(3)(torch.ones(2, 3))",
    "batchnorm1d_one": "nn.BatchNorm1d(3)(torch.ones(1, 3))", "layernorm_2d_shape": "nn.LayerNorm((2, 4))(a)",
    "embedding_float": "nn.Embedding(10, 3)(torch.tensor([1.0]))",
    "embedding_last": "nn.Embedding(10, 3)(torch.tensor([10]))",
    "embedding_neg_size": "nn.Embedding(-1, 3)",
    "ce_float_target_1d": "nn.CrossEntropyLoss()(a, torch.tensor([0.0, 1.0]))",
    "ce_column_target": "nn.CrossEntropyLoss()(a, torch.tensor([[0], [1]]))",
    "ce_1d_input_batch": "nn.CrossEntropyLoss()(torch.ones(3), torch.tensor([0, 1]))",
    "nll_class_oob": "nn.NLLLoss()(a, torch.tensor([3, 0]))", "bce_out_of_range": "nn.BCELoss()(a * 2, a)",
    "bce_shape": "nn.BCELoss()(torch.sigmoid(a), torch.ones(2))",
    "bce_logits_shape": "nn.BCEWithLogitsLoss()(a, torch.ones(3, 2))",
    "mse_shapes": "nn.MSELoss()(a, torch.ones(3, 2))",
    "l1_reduction": "nn.L1Loss(reduction='avg')(a, a)",
    "sequential_widths": "nn.Sequential(nn.Linear(3, 4), nn.Linear(3, 2))(a)", "sequential_int": "nn.Sequential(5)",
    "modulelist_int": "nn.ModuleList([5])", "register_buffer_int": "m = nn.Module()\nm.register_buffer('b', 5)",
    "add_module_dot": "m = nn.Module()\nm.add_module('a.b', nn.Linear(1, 1))",
    "add_module_int": "m = nn.Module()\nm.add_module('x', 5)",
    "load_state_unexpected": "nn.Linear(2, 2).load_state_dict({'weight': torch.ones(2, 2), 'bias': torch.ones(2), "
                             "'extra': torch.ones(1)})",
    "assign_tensor_to_param": "m = nn.Linear(2, 2)\nm.weight = torch.ones(2, 2)", "dropout_neg": "nn.Dropout(p=-0.1)",
    "softmax_dim": "nn.Softmax(dim=5)(a)", "flatten_dims": "nn.Flatten(0, 5)(a)",
    "unflatten_sizes": "nn.Unflatten(1, (2, 2))(a)",
    "relu_int": "nn.ReLU()(5)", "F_relu_str": "F.relu('x')",
    # nn.functional arguments
    "conv2d_neg_padding": "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), padding=-1)",
    "conv2d_dilation0": "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), dilation=0)",
    "conv2d_groups0": "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), groups=0)",
    "conv2d_groups_weight": "F.conv2d(torch.ones(1, 2, 5, 5), torch.ones(2, 1, 3, 3), groups=3)",
    "conv2d_stride_pair0": "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), stride=(1, 0))",
    "conv2d_padding_str": "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), padding='bad')",
    "conv2d_bias_2d": "F.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3), torch.ones(1, 1))",
    "bilinear_input2": "F.bilinear(a, torch.ones(2, 4), torch.ones(2, 3, 3))",
    "bilinear_batch": "F.bilinear(a, torch.ones(3, 3), torch.ones(2, 3, 3))",
    "bilinear_bias": "F.bilinear(a, a, torch.ones(2, 3, 3), torch.ones(3))",
    "leaky_relu_none": "F.leaky_relu(a, None)", "elu_alpha_str": "F.elu(a, 'x')",
    "softplus_beta_str": "F.softplus(a, 'x')",
    "threshold_str": "F.threshold(a, 'x', 0)", "hardtanh_order": "F.hardtanh(a, 1.0, -1.0)",
    "max_pool_kernel0": "F.max_pool2d(torch.ones(1, 1, 4, 4), 0)",
    "avg_pool_stride0": "F.avg_pool2d(torch.ones(1, 1, 4, 4), 2, stride=0)",
    "pad_value_str": "F.pad(a, (1, 1), value='x')",
    "one_hot_neg_classes": "F.one_hot(torch.tensor([1, 2]), num_classes=-2)",
    # data loading
    "loader_batch0": "torch.utils.data.DataLoader([1, 2, 3], batch_size=0)",
    "loader_batch_neg": "torch.utils.data.DataLoader([1, 2, 3], batch_size=-1)",
    "loader_batch_float": "torch.utils.data.DataLoader([1, 2, 3], batch_size=1.5)",
    "loader_shuffle_sampler": "torch.utils.data.DataLoader([1, 2, 3], shuffle=True, sampler=[0, 1])",
    "loader_batch_sampler_and_size": "torch.utils.data.DataLoader([1, 2, 3], batch_sampler=[[0]], batch_size=2)",
    "loader_workers_neg": "torch.utils.data.DataLoader([1, 2, 3], num_workers=-1)",
    "loader_batch_sampler_drop_last": "torch.utils.data.DataLoader([1, 2, 3], drop_last=True, batch_sampler=[[0]])",
    "loader_ragged_batch": "next(iter(torch.utils.data.DataLoader([torch.ones(2), torch.ones(3)], batch_size=2)))",
    "tensor_dataset_sizes": "torch.utils.data.TensorDataset(torch.ones(3), torch.ones(4))",
    "random_split_sum": "torch.utils.data.random_split(range(10), [3, 3])",
    "subset_oob": "torch.utils.data.Subset(range(3), [5])[0]",
    # indexing
    "row_oob": "a[2, 0]", "col_oob": "a[0, 3]", "list_col_oob": "a[:, [0, 3]]",
    "mask_2d_wrong": "a[torch.tensor([[True]])]",
    "none_then_oob": "a[None, 5]", "three_tensors": "a[i, i, i]",
    "chained_oob": "a[0][5]",
    "setitem_vector_oob": "c = v.clone()\nc[3] = 1.0", "setitem_list_shape": "c = v.clone()\nc[[0, 1]] = torch.ones(3)",
    "scatter_inplace_oob": "a.clone().scatter_(1, torch.tensor([[3]]), 1.0)",
    "gather_float_index": "torch.gather(a, 1, torch.tensor([[0.5]]))", "masked_fill_str": "a.masked_fill(a > 0, 'x')",
    "float_tensor_index": "a[torch.ones(2, 3)]", "slice_step0": "v[1:2:0]", "slice_negative_step": "v[::-1]",
    # modules, losses and utilities given the wrong kind of thing
    "linear_none": "nn.Linear(3, 2)(None)", "mse_number_target": "nn.MSELoss()(a, 5)",
    "mse_str_target": "F.mse_loss(a, 'x')", "l1_number_target": "F.l1_loss(a, 5)",
    "huber_number_target": "F.huber_loss(a, 5)", "mse_str_input": "F.mse_loss('x', a)",
    "bce_number_target": "F.binary_cross_entropy(a * 0.5, 0.5)", "ce_list_target": "F.cross_entropy(a, [0, 1])",
    "ce_str_input": "F.cross_entropy('x', i)", "nll_list_target": "F.nll_loss(a, [0, 1])",
    "nll_ignore_index_str": "F.nll_loss(a, i, ignore_index='x')",
    "ce_ignore_index_str": "nn.CrossEntropyLoss(ignore_index='x')(a, i)", "dropout_number": "nn.Dropout(0.5)(5)",
    "bce_weight_shape": "nn.BCELoss(weight=torch.ones(3, 3))(a * 0.5, a * 0.5)",
    "parameter_list": "nn.Parameter([1, 2])", "parameter_number": "nn.Parameter(5)",
    "init_constant_str": "nn.init.constant_(torch.ones(2), 'x')", "fill_str": "a.clone().fill_('x')",
    "fill_none": "a.clone().fill_(None)", "fill_vector": "a.clone().fill_(torch.ones(2))",
    "clip_norm_str": "nn.utils.clip_grad_norm_([w], 'x')",
    "clip_norm_type_str": "nn.utils.clip_grad_norm_([w], 1.0, norm_type='bad')",
    "save_missing_dir": "torch.save(a, '/nonexistent/dir/x.pt')",
    "exp_list": "torch.exp([1, 2])", "tanh_number": "torch.tanh(5)", "sigmoid_str": "torch.sigmoid('x')",
    "softmax_number": "torch.softmax(2, 0)", "reshape_number": "torch.reshape(2, (1,))",
    "gelu_str": "F.gelu('x')", "relu_none": "F.relu(None)", "threshold_value_str": "F.threshold(a, 0.5, 'x')",
    "ones_requires_grad_int": "torch.ones(2, requires_grad=1)", "zeros_like_out": "torch.zeros_like(a, out=a)",
    "tensor_dict": "torch.tensor({'a': 1})", "tensor_object": "torch.tensor([object()])",
    "tensor_none_nested": "torch.tensor([[1], [None]])", "index_str_first": "a['x', 0]",
    "index_str_second": "a[0, 'x']", "index_select_neg_dim1": "a.index_select(1, torch.tensor([-4]))",
    "permute_short": "a.permute(0)", "permute_dim_oob": "a.permute(5, 0)",
}.items():
    case("learner_" + _name, _code)


# ------------------------------------------------------------------ running


def _namespace(lib) -> dict:
    ns = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "optim": lib.optim}
    exec(PRELUDE, ns)
    return ns


def _internal(exc: BaseException, package: str) -> bool:
    """An internal crash: see ``fuzzlib.program.internal_crash`` (the same rule, for any package)."""
    if isinstance(exc, TypeError) and re.search(
            r"unexpected keyword argument|required positional argument|positional arguments? but", str(exc)):
        return False
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if "/%s/" % package in f.filename.replace("\\", "/")]
    if not inside:
        return False
    last = frames[-1]
    fname = last.filename.replace("\\", "/")
    if "/numpy/" in fname:
        return True
    if type(exc).__name__ in ("AxisError", "ZeroDivisionError", "StopIteration", "UnboundLocalError", "NameError",
                              "RecursionError", "KeyError", "AssertionError"):
        return True
    if "/%s/" % package not in fname:
        return False
    import linecache
    line = (last.line or linecache.getline(last.filename, last.lineno)).strip()
    return not line.startswith("raise")


def run_case(code: str, lib) -> tuple[str, str, bool] | None:
    """(exception type, message, internal crash?) -- or None when the code runs without an exception."""
    ns = _namespace(lib)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(code, ns)
        except Exception as exc:
            return (type(exc).__name__, str(exc).strip(), _internal(exc, lib.__name__.split(".")[0]))
    return None


def _norm(msg: str) -> str:
    return " ".join(msg.split())


def classify(expected: list, got) -> str:
    if got is None:
        return "silent"
    if got[0] == expected[0] and _norm(got[1]) == _norm(expected[1]):
        return "message"
    if got[2]:
        return "crash"
    return "other" if got[0] != expected[0] else "type"


def torch_expected() -> dict:
    return json.loads(TORCH_EXPECTED.read_text())["cases"]


def results(minigrad_module=None) -> dict[str, tuple[str, list, object]]:
    """{case: (classification, PyTorch's [type, message], minigrad's outcome)} for every recorded case."""
    if minigrad_module is None:
        import minigrad as minigrad_module
    out = {}
    for name, exp in torch_expected().items():
        got = run_case(CASES[name], minigrad_module) if name in CASES else ("missing", "case not in catalogue", False)
        out[name] = (classify(exp, got), exp, got)
    return out


def record() -> None:
    import torch
    cases, accepted = {}, []
    for name, code in CASES.items():
        got = run_case(code, torch)
        if got is None:
            accepted.append(name)
        else:
            cases[name] = [got[0], got[1]]
    TORCH_EXPECTED.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=1, sort_keys=True) + "\n")
    print("recorded %d cases (PyTorch %s); %d cases PyTorch accepts were left out: %s"
          % (len(cases), torch.__version__, len(accepted), ", ".join(accepted)))


def main(argv: list[str]) -> int:
    if argv[:1] == ["record"]:
        record()
        return 0
    res = results()
    counts = collections.Counter(c for c, _, _ in res.values())
    if argv[:1] == ["expect"]:
        failing = {name: c for name, (c, _, _) in sorted(res.items()) if c != "message"}
        EXPECTED_FAILURES.write_text(json.dumps({
            "about": "Misuse cases where minigrad does not yet give PyTorch's type and message, with their current "
                     "class. Rewrite with `python tests/misuse/catalogue.py expect` after a fix; the list must shrink.",
            "cases": failing}, indent=1, sort_keys=True) + "\n")
        print("wrote %s: %d cases" % (EXPECTED_FAILURES, len(failing)))
    n = len(res)
    print("misuse catalogue: %d cases; " % n + ", ".join("%s %d (%.1f %%)" % (k, counts[k], 100.0 * counts[k] / n)
                                                          for k in ("message", "type", "other", "silent", "crash")))
    if argv[:1] != ["expect"]:
        for name, (c, exp, got) in sorted(res.items()):
            if c != "message":
                print("  %-8s %s: %s\n           torch:    %s: %s\n           minigrad: %s" % (
                    c, name, CASES.get(name, "").replace("\n", "; "), exp[0], exp[1][:150],
                    "no error" if got is None else "%s: %s" % (got[0], got[1][:150])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
