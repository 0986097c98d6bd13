"""minigrad's float32 numbers must not depend on which CPU kernels numpy, glibc and the BLAS select.

numpy dispatches its float32 ``exp``/``log``/``sin``/``cos``/``tanh`` (and, on AVX-512, through SVML, every
other transcendental and ``power``) to SIMD kernels chosen when it is imported; each is a few ULP off in its
own way (``np.log10(np.float32(100))`` is ``2.0000002`` on AVX-512). glibc picks FMA or SSE2 versions of
its double functions the same way, and OpenBLAS picks a GEMM kernel per CPU. We cannot run on every CPU,
but we can force the lower kernels on this one, in fresh interpreters:

* ``NPY_DISABLE_CPU_FEATURES`` turns numpy's dispatched targets off (on numpy 2.4: the groups ``X86_V3``
  = AVX2+FMA3 and ``X86_V4`` = AVX-512; older numpy: ``AVX2 FMA3 AVX512F ...``);
* ``GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA`` makes glibc use its SSE2 code;
* ``OPENBLAS_CORETYPE`` picks another GEMM kernel.

``kernel_sweep.py`` runs every float32 op minigrad has that could be affected, forward and backward,
over ordinary and special values; here it runs under each setting, and the float32 results must be
bit-identical (NaN payloads aside). float64 results may differ in the last bits (numpy's float64
``tanh`` is dispatched too, and every float64 function is on AVX-512), and matrix products with the
BLAS kernel, as PyTorch's do with its CPU kernels: those get a tolerance, and tests must not print
them to the last digit.  Kernels this CPU lacks (AVX-512's) are stood in for in-process: the sweep again
with every dispatched numpy function giving float32 results an ULP off must not change a bit; and a static
check keeps such calls out of minigrad.  The doctests run with the lowest kernels here; the CI job
``kernels`` (.ci/jobs/25-kernels.sh) runs the minigrad, nn and viz suites and the parity cases with them.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import minigrad as torch

ROOT = Path(__file__).resolve().parents[2]
SWEEP = Path(__file__).with_name("kernel_sweep.py")

try:
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
except ImportError:  # numpy 1.x
    from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__  # type: ignore[no-redef]

#: numpy's dispatched targets active on this machine, lowest first (X86_V3 X86_V4 on an AVX-512 numpy 2.4).
ACTIVE = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]
#: The targets where a new family of float32 kernels starts: turning off one and everything after it
#: leaves the kernels below (numpy 2.4 names its groups X86_V3/X86_V4; numpy 1.x/2.0-2.3 the features).
LEVELS = ("X86_V3", "X86_V4", "AVX2", "AVX512F", "AVX512_SKX")
#: glibc >= 2.33 spells its hwcaps AVX2/FMA; 2.26-2.32 AVX2_Usable/FMA_Usable (unknown names are ignored).
GLIBC_SSE2 = "glibc.cpu.hwcaps=-AVX2,-FMA,-AVX2_Usable,-FMA_Usable"


def _numpy_settings() -> list[tuple[str, str]]:
    """(label, NPY_DISABLE_CPU_FEATURES) for each lower kernel family numpy can be forced to here."""
    return [("numpy without " + feature, " ".join(ACTIVE[i:]))
            for i, feature in enumerate(ACTIVE) if feature in LEVELS or i == 0]


#: The lowest kernels of all: numpy's baseline, glibc's SSE2 code, OpenBLAS's Prescott (SSE3) GEMM.
LOWEST = {"NPY_DISABLE_CPU_FEATURES": " ".join(ACTIVE), "GLIBC_TUNABLES": GLIBC_SSE2,
          "OPENBLAS_CORETYPE": "Prescott"}


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES",
                                                           "GLIBC_TUNABLES", "OPENBLAS_CORETYPE")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


def _sweep(tmp_path: Path, label: str, **env: str) -> dict[str, np.ndarray]:
    out = tmp_path / (re.sub(r"\W+", "_", label) + ".npz")
    proc = subprocess.run([sys.executable, str(SWEEP), str(out)], env=_env(**env), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def _ordered(x: np.ndarray) -> np.ndarray:
    """Float bits as integers in the floats' order (adjacent floats differ by 1): for ULP distances."""
    bits = x.view(np.int32 if x.dtype == np.float32 else np.int64).astype(np.int64)
    magnitude = bits & np.int64(0x7FFFFFFF if x.dtype == np.float32 else 0x7FFFFFFFFFFFFFFF)
    return np.where(bits < 0, -magnitude, magnitude)


def _same_bits(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Element-wise: the same float, bit for bit (so 0 and -0 differ), any NaN equal to any NaN."""
    both_nan = np.isnan(x) & np.isnan(y)
    return both_nan | ((_ordered(x) == _ordered(y)) & ~np.isnan(x) & ~np.isnan(y))


def _differences(base: dict, other: dict) -> dict[str, str]:
    """key -> a description, for every array that is not bit-identical."""
    found = {}
    for key in sorted(set(base) | set(other)):
        if key == "_cpu":
            continue
        x, y = base.get(key), other.get(key)
        if x is None or y is None or x.shape != y.shape or x.dtype != y.dtype:
            found[key] = "missing or another shape/dtype"
        elif x.dtype.kind != "f":
            if not np.array_equal(x, y):
                found[key] = "%r != %r" % (x, y)
        else:
            same = _same_bits(x, y)
            if not same.all():
                finite = ~same & np.isfinite(x) & np.isfinite(y)
                ulp = int(np.abs(_ordered(x[finite]) - _ordered(y[finite])).max()) if finite.any() else 0
                found[key] = "%d of %d differ, max %d ulp" % ((~same).sum(), x.size, ulp)
    return found


def _close(x: np.ndarray, y: np.ndarray, scale: float) -> bool:
    """Equal NaN/inf patterns and values within ``scale`` x the array's magnitude (summation order)."""
    if x.dtype.kind != "f":
        return np.array_equal(x, y)
    if any(not np.array_equal(f(x), f(y)) for f in (np.isnan, np.isposinf, np.isneginf)):
        return False
    finite = np.isfinite(x)
    magnitude = np.abs(x[finite]).max() if finite.any() else 0.0
    return bool(np.all(np.abs(x[finite] - y[finite]) <= scale * max(magnitude, 1e-30)))


#: Cases whose numbers come from the BLAS (matrix products, convolutions, LAPACK): they depend on its
#: kernel, as PyTorch's do on MKL's/oneDNN's; computing them in float64 would not be PyTorch's float32.
BLAS_CASES = {"mm", "mm_big", "mv", "dot", "bmm", "einsum", "linear", "conv2d", "conv_transpose2d", "det",
              "inverse"}
#: The op table's rows that reach the BLAS (einsum's contractions go through tensordot, its outer product too).
BLAS_ROWS = re.compile(r"(addmm|bmm|einsum|matmul|mm|mv|dot|tensordot|linear|bilinear|conv|det|inverse|inv|slogdet|"
                       r"logdet|solve|svd|linalg|baddbmm|sdpa|vdot|"
                       r"upsample_bi)")     # (bilinear/bicubic upsampling are weight-matrix products in minigrad)


def _from_blas(key: str) -> bool:
    parts = key.split("/")
    return parts[1] in BLAS_CASES or (parts[1] == "table" and BLAS_ROWS.match(parts[2]) is not None)


@pytest.fixture(scope="module")
def default_sweep(tmp_path_factory):
    return _sweep(tmp_path_factory.mktemp("sweep"), "default")


@pytest.mark.slow
@pytest.mark.parametrize(("label", "disabled"), _numpy_settings() or [pytest.param("-", "", marks=pytest.mark.skip(
    reason="numpy dispatches no SIMD kernels on this machine"))])
def test_numpy_kernels_do_not_change_float32_results(default_sweep, tmp_path, label, disabled):
    lower = _sweep(tmp_path, label, NPY_DISABLE_CPU_FEATURES=disabled)
    assert lower["_cpu"] != default_sweep["_cpu"], "NPY_DISABLE_CPU_FEATURES=%r changed no kernel" % disabled
    _assert_float32_identical(default_sweep, lower, "NPY_DISABLE_CPU_FEATURES=%r" % disabled)


@pytest.mark.slow
def test_glibc_and_numpy_baseline_kernels_do_not_change_float32_results(default_sweep, tmp_path):
    lower = _sweep(tmp_path, "glibc", NPY_DISABLE_CPU_FEATURES=LOWEST["NPY_DISABLE_CPU_FEATURES"],
                   GLIBC_TUNABLES=GLIBC_SSE2)
    _assert_float32_identical(default_sweep, lower, "numpy's baseline and glibc's SSE2 functions")


def _assert_float32_identical(base, other, setting, blas_differs=False):
    differing = _differences(base, other)
    wrong = {}
    for key, what in differing.items():
        dtype = key.split("/")[0]
        if blas_differs and _from_blas(key):
            ok = _close(base[key], other[key], 1e-4 if dtype == "float32" else 1e-12)   # (inverse: conditioning)
        elif dtype == "float64":
            # float64 transcendentals are dispatched too (tanh here; all of them under AVX-512's SVML) and glibc's
            # differ by an ULP with and without FMA; cancellation (1 - tanh², gelu's 1 + tanh) magnifies that.
            # 1e-10 of the array's magnitude still catches a float32 kernel in a float64 path (1e-7).
            ok = _close(base[key], other[key], 1e-10)
        else:
            ok = False
        if not ok:
            wrong[key] = what
    assert not wrong, "results that depend on the CPU kernel under %s:\n%s" % (
        setting, "\n".join("  %s: %s" % kv for kv in wrong.items()))


@pytest.mark.slow
def test_blas_kernel_changes_only_the_blas_cases(default_sweep, tmp_path):
    """OpenBLAS's GEMM kernel changes matrix products in the last bits (as MKL's does PyTorch's), and
    nothing else; within float32 rounding of the sums."""
    lower = _sweep(tmp_path, "blas", OPENBLAS_CORETYPE="Prescott")
    _assert_float32_identical(default_sweep, lower, "OPENBLAS_CORETYPE=Prescott", blas_differs=True)
    unexpected = {k for k in _differences(default_sweep, lower) if not _from_blas(k)}
    assert not unexpected


# -- each fix: a test that fails on the plain numpy float32 call --------------------------------------------

def _correctly_rounded(f64, *arrays):
    return f64(*(a.astype(np.float64) for a in arrays)).astype(np.float32)


def _sweep_input(kind):
    rng = np.random.default_rng(5)
    a = np.concatenate([rng.uniform(-10, 10, 20000), rng.normal(0, 1, 20000)]).astype(np.float32)
    return np.abs(a) if kind == "pos" else a


def _another_cpu(ufunc):
    """``ufunc`` as another CPU's kernel might compute it: float32 results one ULP up."""
    def f(*args, **kwargs):
        out = ufunc(*args, **kwargs)
        if getattr(out, "dtype", None) == np.float32:
            return np.nextafter(out, np.float32(np.inf), out=out) if isinstance(out, np.ndarray) and out.ndim \
                else np.nextafter(out, np.float32(np.inf))
        return out
    return f


def test_float32_results_do_not_use_numpy_float32_kernels(monkeypatch):
    """The whole sweep, in this process, with every dispatched numpy function (np.exp, np.logaddexp, ...)
    replaced by one whose float32 results are an ULP off, as on another CPU: nothing may change.  (This
    found gelu's backward, which took np.exp of float32, and softplus's np.logaddexp.)"""
    sys.path.insert(0, str(SWEEP.parent))
    try:
        import kernel_sweep
    finally:
        sys.path.remove(str(SWEEP.parent))
    state = torch.get_rng_state()                   # (the sweep seeds the generator: leave it as it was)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = kernel_sweep.sweep(dtypes=(np.float32,))
        with monkeypatch.context() as m:
            for name in DISPATCHED:
                if isinstance(getattr(np, name, None), np.ufunc):
                    m.setattr(np, name, _another_cpu(getattr(np, name)))
            assert np.exp(np.float32(1)) != np.float32(np.e)                    # (the patch is in place)
            other = kernel_sweep.sweep(dtypes=(np.float32,))
    torch.set_rng_state(state)
    differing = _differences(plain, other)
    assert not differing, "float32 results computed with numpy's own float32 kernels:\n" + "\n".join(
        "  %s: %s" % kv for kv in differing.items())


@pytest.mark.parametrize("p", [3, 2.5, 0.5])
def test_p_norm_powers_are_correctly_rounded(p):
    """``a ** p`` of a float32 array is numpy's float32 power (SVML's on AVX-512; the patch above cannot see
    an operator): the norm's powers are fmath's."""
    x = _sweep_input("any").reshape(40, 1000)
    powered = _correctly_rounded(lambda a: np.abs(a) ** p, x)
    expected = _correctly_rounded(lambda s: s ** (1 / p), powered.sum(axis=1))
    np.testing.assert_array_equal(torch.tensor(x).norm(p=p, dim=1).numpy(), expected)


# -- the static check: every float32 transcendental goes through fmath ---------------------------------------

#: numpy functions with CPU-dispatched float32 (or float64) kernels: exp/log/sin/cos/tanh (AVX2, AVX-512),
#: every other one through SVML on AVX-512, and those that call them (logaddexp, float_power).
DISPATCHED = {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2", "sin", "cos",
              "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
              "arctanh", "asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh", "cbrt", "power", "pow",
              "float_power", "logspace", "geomspace"}

#: (file, function) -> why a direct numpy call is right there.
ALLOWED = {
    ("minigrad/ops/_util.py", "fmath"): "fmath itself: float32 is widened to float64 before the call",
    ("minigrad/_random.py", "*"): "PyTorch's generator: float64 Box-Muller/transforms (its float32 normal path "
                                  "is reproduced with float32 polynomials, no numpy transcendental)",
    ("minigrad/_creation.py", "logspace"): "np.logspace in float64, then cast to the dtype",
    ("minigrad/ops/_rules.py", "T"): "the create_graph namespace: ``**`` of tensors is minigrad's pow (fmath)",
    ("minigrad/ops/simd.py", "*"): "PyTorch's SIMD kernels: SLEEF emulated with exact IEEE operations; the "
                                   "default build's C functions called with dtype=float64",
    ("minigrad/ops/_util.py", "_int_power"): "integer powers (exact in every kernel)",
    ("minigrad/ops/special.py", "*"): "torch.special's series and recurrences, evaluated in float64 (nn5)",
    ("minigrad/ops/decomp_nn5.py", "expm"): "log2 of the matrix norm: a float64 scalar (the scaling steps)",
    ("minigrad/ops/decomp_nn5.py", "Lstsq"): "residuals ``(x @ sol - y) ** 2``: a square, exact in every kernel",
}


def _direct_calls(path: Path):
    """(function name, numpy attribute, line) for each ``np.<DISPATCHED>`` reference in the file, and
    ("**", line) for each power of a non-constant in minigrad/ops (on an array it is float32 ``np.power``)."""
    tree = ast.parse(path.read_text(), str(path))
    found = []

    def visit(node, scope):
        for child in ast.iter_child_nodes(node):
            name = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and scope == "<module>":
                name = child.name
            if (isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name)
                    and child.value.id in ("np", "numpy") and child.attr in DISPATCHED):
                found.append((name, child.attr, child.lineno))
            if (isinstance(child, ast.BinOp) and isinstance(child.op, ast.Pow) and "ops" in path.parts
                    and not isinstance(child.left, ast.Constant)):
                found.append((name, "**", child.lineno))
            if isinstance(child, ast.ImportFrom) and child.module == "numpy":
                found.extend((name, a.name, child.lineno) for a in child.names if a.name in DISPATCHED)
            visit(child, name)

    visit(tree, "<module>")
    return found


def test_no_dispatched_numpy_transcendental_outside_fmath():
    offenders = []
    for path in sorted((ROOT / "minigrad").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for scope, attr, line in _direct_calls(path):
            if (rel, scope) in ALLOWED or (rel, "*") in ALLOWED:
                continue
            offenders.append("%s:%d (%s): %s -- use ops._util.fmath.%s" % (
                rel, line, scope, attr if attr == "**" else "np." + attr, "power" if attr == "**" else attr))
    assert not offenders, "\n".join(offenders)


def test_the_static_check_finds_a_direct_call(tmp_path):
    (tmp_path / "ops").mkdir()
    sample = tmp_path / "ops" / "sample.py"
    sample.write_text("import numpy as np\nfrom numpy import tanh\n\ndef f(a):\n    return np.exp(a) + np.sqrt(a)\n\n"
                      "def g(a):\n    return a ** 3 + 2 ** 64\n")
    assert _direct_calls(sample) == [("<module>", "tanh", 2), ("f", "exp", 5), ("g", "**", 8)]


# -- printed float32 values: the tests that compare them pass with the lowest kernels ------------------------

def _run_lowest(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=_env(**LOWEST), capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.slow
def test_doctests_pass_with_the_lowest_kernels():
    proc = _run_lowest("-m", "pytest", "--doctest-modules", "minigrad", "-q", "-p", "no:cacheprovider")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
