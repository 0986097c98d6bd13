"""Every float32 op minigrad has whose numpy code could depend on the CPU, forward and backward.

numpy picks its float32 (and some float64) kernels by what the CPU offers -- baseline SSE, AVX2+FMA3,
AVX-512 -- and the BLAS picks its own.  ``test_cpu_independence.py`` runs this file in fresh
interpreters with different kernels forced (``NPY_DISABLE_CPU_FEATURES``, ``OPENBLAS_CORETYPE``) and
requires every array it writes to be bit-identical.

    python tests/minigrad/kernel_sweep.py OUT.npz [CASE ...]

writes ``{case}/out``, ``{case}/grad0``, ... for each case (all cases when none are named), plus
``_cpu`` (the numpy kernels this interpreter runs).
"""

from __future__ import annotations

import sys
import warnings
import zlib
from pathlib import Path

import numpy as np

import minigrad as torch
import minigrad.nn.functional as F

# -- inputs: deterministic, odd sizes (every SIMD width leaves a tail), ordinary values and special ones ---

N = 2053                              # prime: no vector width divides it
_rng = np.random.default_rng(20261201)

#: IEEE specials and the edges where polynomial kernels switch branches (exp's overflow/underflow,
#: log's subnormal inputs, trig's range reduction).
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 100.0, 1000.0, 1e-3, 1e-7,
                    1e-30, 1e-38, 1e-45, -1e-45, 3.4e38, -3.4e38, 88.72, 88.73, -87.33, -103.9, -104.0, 89.0,
                    709.0, 1e4, -1e4, 1e6, 3.14159265, 1.5707964, 6.2831855, 1e20, 0.6931472, 10.0, 1e-10,
                    15.0, -15.0, 9.0, -9.0, 20.0, -20.0, 0.99999994, 1.0000001, -0.99999994], dtype=np.float32)


def domain(kind: str, n: int = N, dtype=np.float32) -> np.ndarray:
    """n values for an op's domain: mostly ordinary, some wide-ranged, the specials at the end."""
    wide = np.ldexp(_rng.uniform(0.5, 1, n // 4), _rng.integers(-43, 43, n // 4)) * _rng.choice([-1, 1], n // 4)
    if kind == "any":
        body = np.concatenate([_rng.uniform(-10, 10, n // 2), _rng.normal(0, 1, n // 4), wide])
    elif kind == "pos":
        body = np.concatenate([_rng.uniform(1e-3, 100, n // 2), _rng.uniform(0, 2, n // 4), np.abs(wide)])
    elif kind == "unit":                # [-1, 1] (asin, acos)
        body = np.concatenate([_rng.uniform(-1, 1, n - n // 4), _rng.uniform(-1, 1, n // 4) ** 9])
    elif kind == "prob":                # (0, 1) (binary cross entropy)
        body = _rng.uniform(1e-4, 1 - 1e-4, n)
    elif kind == "small":               # ordinary values only: where the op overflows at once (cosh, pow)
        body = _rng.uniform(-5, 5, n)
    else:
        raise ValueError(kind)
    body = body[: n - len(SPECIAL)] if kind in ("any", "pos") else body[:n]
    if kind == "any":
        body = np.concatenate([body, SPECIAL])
    elif kind == "pos":
        body = np.concatenate([body, np.abs(SPECIAL)])
    out = np.resize(body, n).astype(dtype)
    return out


def _t(a: np.ndarray, grad: bool = True) -> torch.Tensor:
    return torch.tensor(a, requires_grad=grad)


# -- the cases: name -> (inputs builder, fn) ----------------------------------------------------------------

def _unary(kind):
    return lambda dt: [domain(kind, dtype=dt)]


def _binary(k1, k2):
    return lambda dt: [domain(k1, dtype=dt), domain(k2, dtype=dt)[::-1].copy()]


def _matrix(*shapes, kind="any"):
    def make(dt):
        return [(_rng.normal(0, 1, s) if kind == "normal" else domain("small", int(np.prod(s)))).astype(dt).reshape(s)
                for s in shapes]
    return make


UNARY = {
    "exp": ("any", lambda a: a.exp()), "exp2": ("any", lambda a: 2 ** a), "expm1": ("any", lambda a: a.expm1()),
    "log": ("pos", lambda a: a.log()), "log2": ("pos", lambda a: a.log2()), "log10": ("pos", lambda a: a.log10()),
    "log1p": ("pos", lambda a: a.log1p()),
    "sin": ("any", lambda a: a.sin()), "cos": ("any", lambda a: a.cos()), "tan": ("any", lambda a: a.tan()),
    "asin": ("unit", lambda a: a.asin()), "acos": ("unit", lambda a: a.acos()), "atan": ("any", lambda a: a.atan()),
    "sinh": ("small", lambda a: a.sinh()), "cosh": ("small", lambda a: a.cosh()), "tanh": ("any", lambda a: a.tanh()),
    "sinh_wide": ("any", lambda a: a.sinh()), "cosh_wide": ("any", lambda a: a.cosh()),
    "sqrt": ("pos", lambda a: a.sqrt()), "rsqrt": ("pos", lambda a: a.rsqrt()),
    "reciprocal": ("any", lambda a: a.reciprocal()), "square": ("any", lambda a: a.square()),
    "pow_half": ("pos", lambda a: a ** 0.5), "pow_1_5": ("pos", lambda a: a ** 1.5),
    "pow_neg": ("pos", lambda a: a ** -1.5), "pow_3": ("small", lambda a: a ** 3),
    "pow_2_2": ("small", lambda a: a.abs() ** 2.2), "rpow": ("small", lambda a: 1.7 ** a),
    "sigmoid": ("any", lambda a: a.sigmoid()), "erf": ("any", lambda a: a.erf()),
    "relu": ("any", lambda a: a.relu()), "abs": ("any", lambda a: a.abs()),
    "gelu": ("any", lambda a: F.gelu(a)), "gelu_tanh": ("any", lambda a: F.gelu(a, approximate="tanh")),
    "silu": ("any", lambda a: F.silu(a)), "softplus": ("any", lambda a: F.softplus(a)),
    "softplus_beta": ("any", lambda a: F.softplus(a, 2.0, 1.0)), "elu": ("any", lambda a: F.elu(a, 1.3)),
    "logsigmoid": ("any", lambda a: F.logsigmoid(a)), "leaky_relu": ("any", lambda a: F.leaky_relu(a, 0.1)),
    "hardtanh": ("any", lambda a: F.hardtanh(a)), "frac": ("any", lambda a: a.frac()),
    "round": ("any", lambda a: a.round()), "div_scalar": ("any", lambda a: a / 3),
    "rdiv_scalar": ("any", lambda a: 3 / a),
}

BINARY = {
    "pow_tensor": (("pos", "small"), lambda a, b: a ** b), "atan2": (("any", "any"), lambda a, b: torch.atan2(a, b)),
    "div": (("any", "any"), lambda a, b: a / b), "mul": (("any", "any"), lambda a, b: a * b),
    "remainder": (("any", "any"), lambda a, b: a % b), "maximum": (("any", "any"), lambda a, b: torch.maximum(a, b)),
    "mse_loss": (("small", "small"), lambda a, b: F.mse_loss(a, b)),
    "smooth_l1": (("small", "small"), lambda a, b: F.smooth_l1_loss(a, b)),
    "bce_logits": (("small", "prob"), lambda a, b: F.binary_cross_entropy_with_logits(a, b)),
    "bce": (("prob", "prob"), lambda a, b: F.binary_cross_entropy(a, b)),
    "cosine_similarity": (("small", "small"), lambda a, b: F.cosine_similarity(a.reshape(1, -1), b.reshape(1, -1))),
}

# reductions and matrix ops, on shapes whose rows are not a multiple of any vector width
R = (37, 111)
MATRIX = {
    "sum": (_matrix(R), lambda a: a.sum()), "sum_0": (_matrix(R), lambda a: a.sum(0)),
    "sum_1": (_matrix(R), lambda a: a.sum(1)), "sum_big": (_matrix((100003,)), lambda a: a.sum()),
    "mean": (_matrix(R), lambda a: a.mean()), "mean_1": (_matrix(R), lambda a: a.mean(1)),
    "mean_0": (_matrix(R), lambda a: a.mean(0)),
    "var": (_matrix(R), lambda a: a.var()), "var_1": (_matrix(R), lambda a: a.var(1)),
    "var_0": (_matrix(R), lambda a: a.var(0)),
    "std": (_matrix(R), lambda a: a.std()), "std_1": (_matrix(R), lambda a: a.std(1)),
    "norm": (_matrix(R), lambda a: a.norm()), "norm_1": (_matrix(R), lambda a: a.norm(dim=1)),
    "norm_p1": (_matrix(R), lambda a: a.norm(p=1)), "norm_p3": (_matrix(R), lambda a: a.norm(p=3)),
    "norm_inf": (_matrix(R), lambda a: a.norm(p=float("inf"))),
    "cumsum": (_matrix(R), lambda a: a.cumsum(1)), "cumsum_0": (_matrix(R), lambda a: a.cumsum(0)),
    "cumprod": (_matrix((7, 41)), lambda a: (a * 0.2 + 1).cumprod(1)),
    "prod": (_matrix((7, 41)), lambda a: (a * 0.2 + 1).prod()),
    "prod_1": (_matrix((7, 41)), lambda a: (a * 0.2 + 1).prod(1)),
    "max": (_matrix(R), lambda a: a.max()), "amax_1": (_matrix(R), lambda a: a.amax(1)),
    "logsumexp": (_matrix(R), lambda a: a.logsumexp(1)), "logsumexp_0": (_matrix(R), lambda a: a.logsumexp(0)),
    "softmax": (_matrix(R), lambda a: a.softmax(1)), "softmax_0": (_matrix(R), lambda a: a.softmax(0)),
    "log_softmax": (_matrix(R), lambda a: a.log_softmax(1)), "log_softmax_0": (_matrix(R), lambda a: a.log_softmax(0)),
    "cross_entropy": (_matrix(R), lambda a: F.cross_entropy(a, torch.arange(37) % 111)),
    "cross_entropy_smooth": (_matrix(R), lambda a: F.cross_entropy(a, torch.arange(37) % 111, label_smoothing=0.1)),
    "nll_loss": (_matrix(R), lambda a: F.nll_loss(a.log_softmax(1), torch.arange(37) % 111)),
    "normalize": (_matrix(R), lambda a: F.normalize(a, dim=1)),
    "layer_norm": (_matrix(R), lambda a: F.layer_norm(a, (111,))),
    "batch_norm": (_matrix(R), lambda a: F.batch_norm(a, None, None, training=True)),
    "mm": (_matrix((37, 53), (53, 29), kind="normal"), lambda a, b: a @ b),
    "mm_big": (_matrix((130, 257), (257, 67), kind="normal"), lambda a, b: a @ b),
    "mv": (_matrix((37, 53), (53,), kind="normal"), lambda a, b: a @ b),
    "dot": (_matrix((1001,), (1001,), kind="normal"), lambda a, b: a @ b),
    "bmm": (_matrix((3, 17, 19), (3, 19, 13), kind="normal"), lambda a, b: a.bmm(b)),
    "einsum": (_matrix((17, 19), (19, 13), kind="normal"), lambda a, b: torch.einsum("ij,jk->ik", a, b)),
    "outer": (_matrix((37,), (53,), kind="normal"), lambda a, b: torch.outer(a, b)),
    "linear": (_matrix((37, 53), (29, 53), (29,), kind="normal"), lambda a, w, b: F.linear(a, w, b)),
    "conv2d": (_matrix((2, 3, 13, 11), (5, 3, 3, 3), kind="normal"), lambda a, w: F.conv2d(a, w, padding=1)),
    "conv_transpose2d": (_matrix((2, 3, 7, 5), (3, 4, 3, 3), kind="normal"),
                         lambda a, w: F.conv_transpose2d(a, w, stride=2)),
    "avg_pool2d": (_matrix((2, 3, 13, 11), kind="normal"), lambda a: F.avg_pool2d(a, 3)),
    "det": (_matrix((3, 6, 6), kind="normal"), lambda a: torch.det(a)),
    "inverse": (_matrix((3, 6, 6), kind="normal"), lambda a: torch.inverse(a)),
}


def _sweep_cases():
    cases = {}
    for name, (kind, fn) in UNARY.items():
        cases[name] = (_unary(kind), fn)
    for name, ((k1, k2), fn) in BINARY.items():
        cases[name] = (_binary(k1, k2), fn)
    cases.update(MATRIX)
    return cases


CASES = _sweep_cases()


def run_case(name: str, dtype=np.float32) -> dict[str, np.ndarray]:
    """The case's output and its inputs' gradients (backward of ``out`` with a fixed cotangent)."""
    global _rng
    _rng = np.random.default_rng(zlib.crc32(name.encode()))
    make, fn = CASES[name]
    arrays = make(dtype)
    inputs = [_t(a) for a in arrays]
    out = fn(*inputs)
    result = {"out": out.detach().numpy().copy()}
    cot = np.resize(_rng.uniform(-2, 2, 997), out.shape).astype(out.detach().numpy().dtype)
    out.backward(torch.tensor(cot))
    for i, x in enumerate(inputs):
        result["grad%d" % i] = x.grad.numpy().copy() if x.grad is not None else np.array([])
    return result


def random_cases(dtype) -> dict[str, np.ndarray]:
    """The random generator's float draws (the normal paths use log/cos/sin) and an optimizer's steps."""
    torch.manual_seed(7)
    d = torch.float32 if dtype == np.float32 else torch.float64
    out = {"randn_16": torch.randn(4099, dtype=d), "randn_small": torch.randn(7, dtype=d),
           "rand": torch.rand(1000, dtype=d), "normal_": torch.empty(999, dtype=d).normal_(2.0, 3.0),
           "log_normal_": torch.empty(999, dtype=d).log_normal_(),
           "exponential_": torch.empty(999, dtype=d).exponential_(),
           "cauchy_": torch.empty(999, dtype=d).cauchy_(), "geometric_": torch.empty(999, dtype=d).geometric_(0.3)}
    for name, make in (("adam", lambda p: torch.optim.Adam(p, lr=0.1)), ("sgd", lambda p: torch.optim.SGD(p, lr=0.1)),
                       ("rmsprop", lambda p: torch.optim.RMSprop(p, lr=0.01))):
        w = torch.tensor(domain("small", 999, dtype), requires_grad=True)
        opt = make([w])
        for _ in range(3):
            opt.zero_grad()
            (w.tanh() * w).sum().backward()
            opt.step()
        out["optim_" + name] = w
    return {k: v.detach().numpy() for k, v in out.items()}


#: Second derivatives (create_graph): the backward formulas run as tensor ops.
SECOND = {"tanh": lambda a: a.tanh(), "sigmoid": lambda a: a.sigmoid(), "exp": lambda a: a.exp(),
          "log": lambda a: (a.abs() + 0.1).log(), "sin": lambda a: a.sin(), "gelu": lambda a: F.gelu(a),
          "gelu_tanh": lambda a: F.gelu(a, approximate="tanh"), "silu": lambda a: F.silu(a),
          "softplus": lambda a: F.softplus(a), "elu": lambda a: F.elu(a), "logsigmoid": lambda a: F.logsigmoid(a),
          "softmax": lambda a: a.reshape(-1, 13).softmax(1), "log_softmax": lambda a: a.reshape(-1, 13).log_softmax(1),
          "logsumexp": lambda a: a.reshape(-1, 13).logsumexp(1), "pow": lambda a: a.abs() ** 2.5,
          "atan": lambda a: a.atan(), "erf": lambda a: a.erf(), "norm3": lambda a: a.reshape(-1, 13).norm(p=3, dim=1)}


def second_order(dtype) -> dict[str, np.ndarray]:
    out = {}
    for name, fn in SECOND.items():
        global _rng
        _rng = np.random.default_rng(zlib.crc32(name.encode()))
        x = torch.tensor(domain("small", 13 * 79, dtype), requires_grad=True)
        (g,) = torch.autograd.grad(fn(x).sum(), x, create_graph=True)
        (gg,) = torch.autograd.grad((g * g).sum(), x)
        out[name + "/grad"], out[name + "/gradgrad"] = g.detach().numpy(), gg.numpy()
    return out


def op_table(dtype) -> dict[str, np.ndarray]:
    """Every row of the op table (op_cases.py: every differentiable op once), on fixed inputs of its shapes."""
    sys.path.insert(0, str(Path(__file__).parent))
    from op_cases import CASES as OPS
    out = {}
    for case in OPS:
        global _rng
        _rng = np.random.default_rng(zlib.crc32(case.name.encode()))
        shapes = case.shapes if isinstance(case.shapes, tuple) else ((5, 7),)
        shapes = shapes if len(shapes) >= case.arity else (shapes[0],) * case.arity
        try:
            inputs = [torch.tensor(_rng.uniform(0.2, 2, s).astype(dtype) * _rng.choice([-1, 1], s).astype(dtype),
                                   requires_grad=True) for s in shapes]
            result = case.fn(*inputs)
            outs = [o for o in (result if isinstance(result, (tuple, list)) else [result])
                    if isinstance(o, torch.Tensor) and o.is_floating_point()]
            for i, o in enumerate(outs):
                out["%s/out%d" % (case.name, i)] = o.detach().numpy().copy()
            loss = sum((o * torch.tensor(_rng.uniform(-2, 2, o.shape).astype(dtype))).sum()
                       for o in outs if o.requires_grad)
            if isinstance(loss, torch.Tensor):
                grads = torch.autograd.grad(loss, inputs, allow_unused=True)
                for i, g in enumerate(grads):
                    out["%s/grad%d" % (case.name, i)] = g.numpy() if g is not None else np.array([])
        except Exception as e:  # a case that raises is recorded, and compared, as its message
            out[case.name + "/error"] = np.array(type(e).__name__ + ": " + str(e))
    return out


def sweep(names=None, dtypes=(np.float32, np.float64)) -> dict[str, np.ndarray]:
    arrays = {}
    for dt in dtypes:
        tag = np.dtype(dt).name
        for name in names or CASES:
            try:
                for key, value in run_case(name, dt).items():
                    arrays["%s/%s/%s" % (tag, name, key)] = value
            except Exception as e:  # a case that raises is recorded, and compared, as its message
                arrays["%s/%s/error" % (tag, name)] = np.array(type(e).__name__ + ": " + str(e))
        if not names:
            for key, value in random_cases(dt).items():
                arrays["%s/random/%s" % (tag, key)] = value
            for key, value in second_order(dt).items():
                arrays["%s/second/%s" % (tag, key)] = value
            for key, value in op_table(dt).items():
                arrays["%s/table/%s" % (tag, key)] = value
    return arrays


def cpu_kernels() -> str:
    """numpy's dispatched targets this interpreter uses ("X86_V3" here; "" with all of them disabled)."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    return " ".join(f for f in __cpu_dispatch__ if __cpu_features__.get(f))


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    out_path, *names = sys.argv[1:]
    with np.errstate(all="ignore"):
        result = sweep(names or None)
    result["_cpu"] = np.array(cpu_kernels())
    np.savez(out_path, **result)
