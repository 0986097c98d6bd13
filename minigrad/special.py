"""``torch.special``: error functions, gamma functions, Bessel functions, logit/expit, xlogy, entropy, softmax...

>>> import minigrad as torch
>>> x = torch.tensor([0.5, 2.0], requires_grad=True)
>>> torch.special.gammaln(x)
tensor([0.5724, 0.0000], grad_fn=<LgammaBackward0>)
>>> torch.special.digamma(x)
tensor([-1.9635,  0.4228], grad_fn=<DigammaBackward0>)

The derivative rows live in minigrad/ops/special.py; ``erf``, ``expit`` (sigmoid), ``expm1``, ``log1p``, ``round``,
``logsumexp``, ``softmax`` and ``log_softmax`` are minigrad's existing ops, as in PyTorch.
"""

from __future__ import annotations

import math
from typing import Any

from ._tensor import Tensor
from .ops import elementwise as E
from .ops import special as S
from .ops._util import check_broadcast, operand, promoted
from .ops.activations import Xlogy

__all__ = ["erf", "erfc", "erfinv", "expit", "exp2", "expm1", "log1p", "logit", "gammaln", "digamma", "psi",
           "polygamma", "multigammaln", "i0", "i1", "xlogy", "xlog1py", "entr", "ndtr", "log_ndtr", "sinc", "round",
           "logsumexp", "softmax", "log_softmax"]


def _tensor(x: Any, name: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError("%s(): argument 'input' (position 1) must be Tensor, not %s" % (name, type(x).__name__))
    return x


def erf(input: Tensor, *, out: Any = None) -> Tensor:
    """erf(x) = 2/√π ∫₀ˣ e^(−t²) dt (``ErfBackward0``)."""
    return _tensor(input, "special_erf").erf()


def erfc(input: Tensor, *, out: Any = None) -> Tensor:
    """erfc(x) = 1 − erf(x), accurate in the tail (``ErfcBackward0``)."""
    return S.Erfc.apply(_tensor(input, "special_erfc"))


def erfinv(input: Tensor, *, out: Any = None) -> Tensor:
    """The inverse of erf on (−1, 1) (``ErfinvBackward0``)."""
    return S.Erfinv.apply(_tensor(input, "special_erfinv"))


def expit(input: Tensor, *, out: Any = None) -> Tensor:
    """The logistic sigmoid 1 / (1 + e^(−x)) (``SigmoidBackward0``)."""
    return _tensor(input, "special_expit").sigmoid()


def exp2(input: Tensor, *, out: Any = None) -> Tensor:
    """2^x (``Exp2Backward0``)."""
    return S.Exp2.apply(_tensor(input, "special_exp2"))


def expm1(input: Tensor, *, out: Any = None) -> Tensor:
    return _tensor(input, "special_expm1").expm1()


def log1p(input: Tensor, *, out: Any = None) -> Tensor:
    return _tensor(input, "special_log1p").log1p()


def round(input: Tensor, *, decimals: int = 0, out: Any = None) -> Tensor:
    return _tensor(input, "special_round").round(decimals=decimals)


def logit(input: Tensor, eps: float | None = None, *, out: Any = None) -> Tensor:
    """ln(p / (1 − p)); with ``eps``, p is first clamped to [eps, 1 − eps] (``LogitBackward0``)."""
    return S.Logit.apply(_tensor(input, "logit"), eps)


def gammaln(input: Tensor, *, out: Any = None) -> Tensor:
    """``ln |Γ(x)|`` (``LgammaBackward0``)."""
    return S.Lgamma.apply(_tensor(input, "special_gammaln"))


def digamma(input: Tensor, *, out: Any = None) -> Tensor:
    """ψ(x) = Γ′(x)/Γ(x) (``DigammaBackward0``)."""
    return S.Digamma.apply(_tensor(input, "special_digamma"))


psi = digamma


def polygamma(n: int, input: Tensor, *, out: Any = None) -> Tensor:
    """ψ⁽ⁿ⁾(x), the n-th derivative of digamma (``PolygammaBackward0``, n = 0 included, as PyTorch)."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return S.Polygamma.apply(_tensor(input, "special_polygamma"), int(n))


def multigammaln(input: Tensor, p: int, *, out: Any = None) -> Tensor:
    """The multivariate log-gamma ln Γ_p(x) = p(p−1)/4 · ln π + Σ_{j<p} ln Γ(x − j/2)."""
    x = _tensor(input, "special_multigammaln")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return S.Mvlgamma.apply(x, int(p))


def i0(input: Tensor, *, out: Any = None) -> Tensor:
    """The modified Bessel function of the first kind, order 0 (``I0Backward0``)."""
    return S.I0.apply(_tensor(input, "special_i0"))


def i1(input: Tensor, *, out: Any = None) -> Tensor:
    """The modified Bessel function of the first kind, order 1 (``SpecialI1Backward0``)."""
    return S.I1.apply(_tensor(input, "special_i1"))


def _pair(input: Any, other: Any) -> tuple[Tensor, Tensor]:
    """Two tensors of one float dtype (a Python number takes the tensor's dtype, as PyTorch's wrapped numbers)."""
    a, b = operand(input), operand(other)
    check_broadcast(a, b)
    x, y = promoted(a, b, floating=True)
    return (a if x is a._data else Tensor._make(x)), (b if y is b._data else Tensor._make(y))


def xlogy(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """x · log y, 0 where x = 0 (unless y is nan) (``XlogyBackward0``, the row kl_div uses: ops/activations.py)."""
    a, b = _pair(input, other)
    return Xlogy.apply(a, b)


def xlog1py(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """x · log(1 + y), 0 where x = 0 (unless y is nan) (``SpecialXlog1PyBackward0``)."""
    return S.Xlog1py.apply(operand(input), operand(other))


def entr(input: Tensor, *, out: Any = None) -> Tensor:
    """−x ln x for x > 0, 0 at 0, −inf below (``SpecialEntrBackward0``)."""
    return S.Entr.apply(_tensor(input, "special_entr"))


def ndtr(input: Tensor, *, out: Any = None) -> Tensor:
    """The standard normal CDF Φ(x) = (1 + erf(x/√2)) / 2 — composed as PyTorch composes it."""
    x = _tensor(input, "special_ndtr")
    return E.MulScalar.apply(E.AddScalar.apply(E.MulScalar.apply(x, math.sqrt(0.5)).erf(), 1), 0.5)


def log_ndtr(input: Tensor, *, out: Any = None) -> Tensor:
    """log Φ(x), without underflow far in the left tail (``SpecialLogNdtrBackward0``)."""
    return S.LogNdtr.apply(_tensor(input, "special_log_ndtr"))


def sinc(input: Tensor, *, out: Any = None) -> Tensor:
    """sin(πx) / (πx), 1 at 0 (``SincBackward0``)."""
    return S.Sinc.apply(_tensor(input, "special_sinc"))


def logsumexp(input: Tensor, dim: Any, keepdim: bool = False, *, out: Any = None) -> Tensor:
    return input.logsumexp(dim, keepdim)


def softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return input.softmax(dim, dtype=dtype) if dtype is not None else input.softmax(dim)


def log_softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return input.log_softmax(dim, dtype=dtype) if dtype is not None else input.log_softmax(dim)
