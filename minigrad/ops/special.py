"""Special functions (``torch.special`` and their ``torch.*`` names): one derivative-table row each.

The forwards are PyTorch's own algorithms where it has them (ATen's Math.h: ``calc_digamma``,
``calc_trigamma``, the Cephes Hurwitz ``zeta`` behind ``polygamma``, ``calc_erfinv`` with its two Newton steps,
``calc_log_ndtr``), in float64; a float32 input is computed in float64 and rounded once. ``lgamma`` and ``erfc``
are the C library's (``math.lgamma``, ``math.erfc``), as PyTorch's ``std::lgamma``/``std::erfc``; ``i0``/``i1``
sum their power series (all terms positive: no cancellation).
"""

from __future__ import annotations

import math

import numpy as np

from .._dtype import get_default_dtype
from ._rules import fused, rule
from ._util import check_broadcast, fmath, promoted

__all__ = ["Erfc", "Erfinv", "Lgamma", "Digamma", "Polygamma", "I0", "I1", "Sinc", "Logit", "Entr", "LogNdtr",
           "Xlog1py", "Exp2", "Mvlgamma"]


def _f(a: np.ndarray) -> np.ndarray:
    return a if a.dtype.kind == "f" else a.astype(get_default_dtype().numpy)


def _map(fn, a: np.ndarray) -> np.ndarray:
    """A scalar float64 function over the array, rounded once to its float dtype (its arithmetic on numpy
    scalars, so a division by zero gives inf or nan as in C, not a Python exception)."""
    x = _f(a)
    with np.errstate(all="ignore"):                  # C semantics: 1/0 is inf, 0/0 nan (numpy scalars)
        flat = [fn(np.float64(v)) for v in x.reshape(-1)]
        return np.asarray(flat, dtype=np.float64).reshape(x.shape).astype(x.dtype)


# -- the scalar algorithms (ATen's Math.h, Cephes) ------------------------------------------------------------


def _lgamma(x: float) -> float:
    if math.isnan(x):
        return x
    if math.isinf(x) or (x <= 0 and x == np.floor(x)):
        return math.inf
    return math.lgamma(x)


def _erfc(x: float) -> float:
    return math.erfc(x)


_PSI_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
          -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
          8.33333333333333333333E-2)


def _digamma(x: float) -> float:
    """ATen's calc_digamma: reflection below 0, recurrence up to 10, then the asymptotic series."""
    if x == 0:
        return np.copysign(math.inf, -x)
    if math.isnan(x):
        return x
    if x < 0:
        if x == np.trunc(x):
            return math.nan
        r = np.fmod(x, 1.0)
        return _digamma(1 - x) - math.pi / np.tan(math.pi * r)
    if math.isinf(x):
        return x
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + 2.25175258906672110764
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        poly = 0.0
        for c in _PSI_A:
            poly = poly * z + c
        y = z * poly
    return result + np.log(x) - (0.5 / x) - y


def _trigamma(x: float) -> float:
    """ATen's calc_trigamma."""
    sign, result = 1.0, 0.0
    if x < 0.5:
        sign = -1.0
        s = np.sin(math.pi * x)
        result -= (math.pi * math.pi) / (s * s) if s != 0 else math.inf
        x = 1 - x
    for _ in range(6):
        result += 1 / (x * x)
        x += 1
    ixx = 1 / (x * x)
    result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x
    return sign * result


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def _zeta(x: float, q: float) -> float:
    """The Hurwitz zeta function Σ_k (k + q)^−x (Cephes, as ATen's zeta)."""
    if x == 1:
        return math.inf
    if x < 1:
        return math.nan
    if q <= 0:
        if q == np.floor(q):
            return math.inf
        if x != np.floor(x):
            return math.nan
    s = q ** -x
    a, i, b = q, 0, 0.0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1
        b = a ** -x
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1)
    s -= 0.5 * b
    a, k = 1.0, 0.0
    for c in _ZETA_A:
        a *= x + k
        b /= w
        t = a * b / c
        s = s + t
        if abs(t / s) < _MACHEP:
            return s
        k += 1
        a *= x + k
        b /= w
        k += 1
    return s


def _polygamma(n: int, x: float) -> float:
    if n == 0:
        return _digamma(x)
    if n == 1:
        return _trigamma(x)
    return (1.0 if n % 2 else -1.0) * np.exp(math.lgamma(n + 1.0)) * _zeta(n + 1.0, x)


_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


def _erfinv(y: float) -> float:
    """ATen's calc_erfinv: a rational first guess, then two Newton steps on erf(x) = y."""
    if math.isnan(y):
        return y
    ya = abs(y)
    if ya > 1.0:
        return math.nan
    if ya == 1.0:
        return np.copysign(math.inf, y)
    a, b, c, d = _ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D
    if ya <= 0.7:
        z = y * y
        num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0]
        dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0
        x = y * num / dem
    else:
        z = np.sqrt(-np.log((1.0 - ya) / 2.0))
        num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0]
        dem = (d[1] * z + d[0]) * z + 1.0
        x = np.copysign(num, y) / dem
    for _ in range(2):
        x = x - (math.erf(x) - y) / ((2.0 / np.sqrt(math.pi)) * np.exp(-x * x))
    return x


def _bessel_series(x: float, order: int) -> float:
    """I_order(x) (order 0 or 1) from its power series Σ (x/2)^(2k+order) / (k! (k+order)!)."""
    if math.isnan(x):
        return x
    if math.isinf(x):
        return math.nan                          # PyTorch: i0(±inf), i1(±inf) are nan
    q = x * x / 4
    term = 1.0 if order == 0 else x / 2
    total, k = term, 0
    while True:
        k += 1
        term *= q / (k * (k + order))
        total += term
        if abs(term) <= abs(total) * 1e-17 or math.isinf(total):
            return total


def _log_ndtr(x: float) -> float:
    """ATen's calc_log_ndtr: log(erfcx(−t)/2) − t² below −1 (no underflow), else log1p(−erfc(t)/2)."""
    t = x * np.sqrt(0.5)
    if x < -1.0:
        return np.log(_erfcx(-t) / 2) - t * t
    return np.log1p(-math.erfc(t) / 2)


def _erfcx(y: float) -> float:
    """exp(y²) · erfc(y) for y > 0.7 (log_ndtr's tail), by the continued fraction beyond 26."""
    if y < 26:
        return np.exp(y * y) * math.erfc(y)
    frac = 0.0
    for k in range(60, 0, -1):
        frac = (k / 2) / (y + frac)
    return 1 / (np.sqrt(math.pi) * (y + frac))


# -- the rows ---------------------------------------------------------------------------------------------------

Erfc = rule("ErfcBackward0", lambda self: _map(_erfc, self),
            self=("−g · 2/√π · exp(−self²)",
                  lambda xp, g, self: xp.mul_scalar(xp.exp(-xp.pow(self, 2)), -2.0 / math.sqrt(math.pi)) * g),
            jvp="auto_element_wise",
            words="The slope of erfc = 1 − erf is −2/√π · e^(−x²).")

Erfinv = fused("erfinv", rule(
    "ErfinvBackward0", lambda self: _map(_erfinv, self),
    self=("g · √π/2 · exp(erfinv(self)²)",
          lambda xp, g, self: xp.mul_scalar(xp.exp(xp.pow(xp.erfinv(self), 2)), 0.5 * math.sqrt(math.pi)) * g),
    jvp="auto_element_wise",
    words="The inverse function's slope: 1 / erf'(erfinv(x)) = √π/2 · e^(erfinv(x)²)."))

Polygamma = fused("polygamma", rule(
    "PolygammaBackward0", lambda self, n: _map(lambda v: _polygamma(n, v), self),
    self=("g · polygamma(n + 1, self)", lambda xp, g, self, n: g * xp.polygamma(self, n + 1)),
    jvp="auto_element_wise",
    words="The n-th derivative of digamma has the (n + 1)-th as its slope."))

Digamma = fused("digamma", rule(
    "DigammaBackward0", lambda self: _map(_digamma, self),
    self=("g · polygamma(1, self)", lambda xp, g, self: g * xp.polygamma(self, 1)),
    jvp="auto_element_wise",
    words="digamma = (ln Γ)′; its slope is the trigamma function, polygamma(1, x)."))

Lgamma = rule("LgammaBackward0", lambda self: _map(_lgamma, self),
              self=("g · digamma(self)", lambda xp, g, self: g * xp.digamma(self)),
              jvp="auto_element_wise",
              words="ln |Γ(x)| has the digamma function as its slope.")


def _i1_grad(xp, g, self):
    """PyTorch's i1_backward: I1′(x) = I0(x) − I1(x)/x, ½ at 0."""
    at0 = xp.value(self) == 0
    return g * xp.masked_fill(xp.i0(self) - xp.i1(self) / xp.masked_fill(self, at0, 1), at0, 0.5)


I1 = fused("i1", rule("SpecialI1Backward0", lambda self: _map(lambda v: _bessel_series(v, 1), self),
                      self=("g · (i0(self) − i1(self) / self)", _i1_grad),
                      jvp="auto_element_wise",
                      words="The modified Bessel function I1 has slope I0(x) − I1(x)/x (½ at 0)."))

I0 = fused("i0", rule("I0Backward0", lambda self: _map(lambda v: _bessel_series(v, 0), self),
                      self=("g · i1(self)", lambda xp, g, self: g * xp.i1(self)),
                      jvp="auto_element_wise",
                      words="The modified Bessel function I0 has I1 as its slope."))


def _sinc(self):
    x = _f(self)
    with np.errstate(all="ignore"):
        product = x * x.dtype.type(math.pi)
        return np.where(x == 0, x.dtype.type(1), fmath.sin(product) / product).astype(x.dtype)


def _sinc_grad(xp, g, self):
    """PyTorch's ((π x cos(π x) − sin(π x)) / (π x²)), 0 at x = 0."""
    px = xp.mul_scalar(self, math.pi)
    inner = (px * xp.cos(px) - xp.sin(px)) / (xp.mul_scalar(self, math.pi) * self)
    return g * xp.masked_fill(inner, xp.value(self) == 0, 0)


Sinc = rule("SincBackward0", _sinc, self=("g · (πx·cos(πx) − sin(πx)) / (πx²)", _sinc_grad),
            jvp="auto_element_wise",
            words="sinc(x) = sin(πx)/(πx): the quotient rule, with slope 0 at x = 0.")


def _logit(self, eps):
    x = _f(self)
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    with np.errstate(all="ignore"):
        return fmath.log(x / (1 - x)).astype(x.dtype)


def _logit_grad(xp, g, self, eps):
    """PyTorch's logit_backward: g / (x (1 − x)); with eps, 0 outside [eps, 1 − eps]; without, nan outside [0, 1]."""
    x = xp.value(self)
    slope = g / (self * xp.scalar_sub(1, self))
    if eps is None:
        return xp.where(xp.mask((x < 0) | (x > 1)), xp.const(np.full((), np.nan, x.dtype)), slope)
    return xp.masked_fill(slope, (x < eps) | (x > 1 - eps), 0)


Logit = rule("LogitBackward0", _logit, self=("g / (self · (1 − self))", _logit_grad),
             jvp="auto_element_wise",
             words="logit(p) = ln(p / (1 − p)) has slope 1 / (p (1 − p)).")


def _entr(self):
    x = _f(self)
    with np.errstate(all="ignore"):
        out = np.where(x > 0, -x * fmath.log(np.where(x > 0, x, 1)), np.where(x == 0, 0, -np.inf))
        return np.where(np.isnan(x), x, out).astype(x.dtype)


Entr = rule("SpecialEntrBackward0", _entr,
            self=("−g · (1 + log(self))", lambda xp, g, self: g * -xp.add_scalar(xp.log(self), 1)),
            jvp="auto_element_wise",
            words="The entropy term −x ln x has slope −(1 + ln x).")

LogNdtr = rule("SpecialLogNdtrBackward0", lambda self: _map(_log_ndtr, self),
               self=("g · exp(−self²/2 − result) / √(2π)",
                     lambda xp, g, self, result: g * xp.mul_scalar(
                         xp.exp(xp.mul_scalar(xp.pow(self, 2), -0.5) - result), 1 / math.sqrt(2 * math.pi))),
               jvp="auto_element_wise",
               words="log Φ(x) has slope φ(x) / Φ(x), computed as exp(log φ − log Φ).")


def _xlog1py(self, other):
    check_broadcast(self, other)
    a, b = promoted(self, other, floating=True)
    with np.errstate(all="ignore"):
        out = np.where(a == 0, a.dtype.type(0), a * fmath.log1p(b))
        return np.where(np.isnan(b), b, out).astype(a.dtype)


def _self_grad(xp, g, self, other, log1p=False):
    """PyTorch's xlog1py(g, other).masked_fill((self == 0) & (other <= −1), 0) (xlogy's row, with log(1 + y),
    is ops/activations.py's XlogyBackward0)."""
    x, y, gv = xp.value(self), xp.value(other), xp.value(g)
    lg = xp.log(xp.add_scalar(other, 1)) if log1p else xp.log(other)
    shape = np.broadcast_shapes(x.shape, y.shape, gv.shape)
    zero_g = np.broadcast_to((gv == 0) & ~np.isnan(y), shape)           # xlogy(0, y) = 0 unless y is nan
    edge = np.broadcast_to((x == 0) & (y <= (-1 if log1p else 0)), shape)
    return xp.masked_fill(g * lg, zero_g | edge, 0)


Xlog1py = rule("SpecialXlog1PyBackward0", _xlog1py, arrays=False,
               self=("xlog1py(g, other), 0 where self = 0 and other ≤ −1",
                     lambda xp, g, self, other: _self_grad(xp, g, self, other, log1p=True)),
               other=("g · self / (other + 1)", lambda xp, g, self, other: g * self / xp.add_scalar(other, 1)),
               jvp="auto_element_wise",
               words="x · log(1 + y): log(1 + y) for x (0 where x = 0 and y ≤ −1), x / (1 + y) for y.")

def _exp2(a):
    """2 ** a, float32 through float64 and rounded once (the CPU-independent result, as ``_util.fmath``)."""
    return np.exp2(a, dtype=np.float64).astype(a.dtype) if a.dtype == np.float32 else np.exp2(a)


Exp2 = rule("Exp2Backward0", lambda self: _exp2(_f(self)),
            self=("g · result · ln 2", lambda xp, g, result: g * xp.mul_scalar(result, math.log(2.0))),
            jvp="auto_element_wise",
            words="2^x has slope 2^x · ln 2: the node reuses its output.")


def _mvlgamma(self, p):
    x = _f(self)
    total = np.zeros(x.shape, np.float64) + p * (p - 1) / 4 * math.log(math.pi)
    for j in range(p):
        total = total + _map(_lgamma, (x - x.dtype.type(j / 2))).astype(np.float64)
    return total.astype(x.dtype)


def _mvlgamma_grad(xp, g, self, p):
    """PyTorch's mvlgamma_backward: g · Σ_{j<p} digamma(self − j/2)."""
    total = xp.digamma(self)
    for j in range(1, p):
        total = total + xp.digamma(xp.add_scalar(self, -j / 2))
    return g * total


Mvlgamma = rule("MvlgammaBackward0", _mvlgamma, self=("g · Σ_{j<p} digamma(self − j/2)", _mvlgamma_grad),
                jvp="auto_element_wise",
                words="The multivariate log-gamma is a sum of log-gammas: its slope a sum of digammas.")
