"""The local derivative of each backward node, in words and as formulas, keyed by class name."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["LocalDerivative", "LOCAL_DERIVATIVES", "local_derivative"]


class LocalDerivative(NamedTuple):
    """What a backward node multiplies the incoming gradient by.

    Attributes
    ----------
    words : str
        One sentence for a learner.
    formulas : tuple of str
        The partial derivatives, one per input, with ``g`` the incoming gradient.
    """

    words: str
    formulas: tuple[str, ...]


_D = LocalDerivative

# NOTE [formulas]: ``g`` is the gradient arriving at the node (grad_output); each
# formula gives what the node sends to one input (grad_input).  Broadcast inputs
# additionally sum ``g`` over the broadcast dimensions.
LOCAL_DERIVATIVES: dict[str, LocalDerivative] = {
    "AddBackward0": _D("Addition passes the gradient through unchanged to both inputs.",
                       ("∂(a+b)/∂a = 1  →  g", "∂(a+b)/∂b = 1  →  g")),
    "AddBackward1": _D("Adding a constant passes the gradient through.", ("∂(a+c)/∂a = 1  →  g",)),
    "SubBackward0": _D("Subtraction passes the gradient to a, and its negative to b.",
                       ("∂(a−b)/∂a = 1  →  g", "∂(a−b)/∂b = −1  →  −g")),
    "SubBackward1": _D("Subtracting a constant passes the gradient through.", ("∂(a−c)/∂a = 1  →  g",)),
    "RsubBackward1": _D("c − a: the gradient changes sign.", ("∂(c−a)/∂a = −1  →  −g",)),
    "MulBackward0": _D("Product rule: each input gets the gradient times the other input.",
                       ("∂(a·b)/∂a = b  →  g·b", "∂(a·b)/∂b = a  →  g·a")),
    "MulBackward1": _D("Multiplying by a constant scales the gradient by it.", ("∂(a·c)/∂a = c  →  g·c",)),
    "DivBackward0": _D("Quotient rule: a gets g/b, b gets −g·a/b².",
                       ("∂(a/b)/∂a = 1/b  →  g/b", "∂(a/b)/∂b = −a/b²  →  −g·a/b²")),
    "DivBackward1": _D("Dividing by a constant divides the gradient by it.", ("∂(a/c)/∂a = 1/c  →  g/c",)),
    "NegBackward0": _D("Negation flips the sign of the gradient.", ("∂(−a)/∂a = −1  →  −g",)),
    "PowBackward0": _D("Power rule with a constant exponent n.", ("∂(aⁿ)/∂a = n·aⁿ⁻¹  →  g·n·aⁿ⁻¹",)),
    "PowBackward1": _D("Power with a tensor exponent: power rule for the base, log rule for the exponent.",
                       ("∂(aᵇ)/∂a = b·aᵇ⁻¹", "∂(aᵇ)/∂b = aᵇ·ln a")),
    "PowBackward2": _D("A constant raised to a tensor power.", ("∂(cᵇ)/∂b = cᵇ·ln c",)),
    "SqrtBackward0": _D("Square root.", ("∂√a/∂a = 1/(2√a)  →  g/(2·out)",)),
    "ExpBackward0": _D("The exponential is its own derivative: the node reuses its output.",
                       ("∂eᵃ/∂a = eᵃ  →  g·out",)),
    "LogBackward0": _D("Natural logarithm.", ("∂ln a/∂a = 1/a  →  g/a",)),
    "SinBackward0": _D("Sine.", ("∂sin a/∂a = cos a  →  g·cos a",)),
    "CosBackward0": _D("Cosine.", ("∂cos a/∂a = −sin a  →  −g·sin a",)),
    "TanhBackward0": _D("tanh, from its output.", ("∂tanh a/∂a = 1 − tanh²a  →  g·(1 − out²)",)),
    "SigmoidBackward0": _D("Sigmoid, from its output; at most 1/4, so long chains shrink the gradient.",
                           ("∂σ(a)/∂a = σ(a)·(1 − σ(a))  →  g·out·(1 − out)",)),
    "ReluBackward0": _D("ReLU lets the gradient through where the input was positive, else 0.",
                        ("∂relu(a)/∂a = [a > 0]  →  g·[out > 0]",)),
    "AbsBackward0": _D("Absolute value.", ("∂|a|/∂a = sign(a)  →  g·sign(a)",)),
    "TanBackward0": _D("Tangent, from its output.", ("∂tan a/∂a = 1 + tan²a  →  g·(1 + out²)",)),
    "AsinBackward0": _D("Arcsine.", ("∂asin a/∂a = 1/√(1 − a²)  →  g/√(1 − a²)",)),
    "AcosBackward0": _D("Arccosine.", ("∂acos a/∂a = −1/√(1 − a²)  →  −g/√(1 − a²)",)),
    "AtanBackward0": _D("Arctangent.", ("∂atan a/∂a = 1/(1 + a²)  →  g/(1 + a²)",)),
    "SinhBackward0": _D("Hyperbolic sine.", ("∂sinh a/∂a = cosh a  →  g·cosh a",)),
    "CoshBackward0": _D("Hyperbolic cosine.", ("∂cosh a/∂a = sinh a  →  g·sinh a",)),
    "Atan2Backward0": _D("atan2(a, b), the angle of the point (b, a).",
                         ("∂/∂a = b/(a² + b²)  →  g·b/(a² + b²)", "∂/∂b = −a/(a² + b²)  →  −g·a/(a² + b²)")),
    "Log1PBackward0": _D("ln(1 + a), exact for small a.", ("∂ln(1+a)/∂a = 1/(1 + a)  →  g/(1 + a)",)),
    "Expm1Backward0": _D("eᵃ − 1, from its output.", ("∂(eᵃ−1)/∂a = eᵃ  →  g·(out + 1)",)),
    "ErfBackward0": _D("The error function.", ("∂erf a/∂a = 2/√π·e^(−a²)  →  g·2/√π·e^(−a²)",)),
    "MaskedFillBackward0": _D("Filled positions were overwritten: they get no gradient; the rest pass g.",
                              ("∂/∂a  →  g where the mask is False, 0 where True",)),
    "MaskedFillBackward1": _D("Filled positions were overwritten by the value: it collects their gradient.",
                              ("∂/∂a  →  g where the mask is False", "∂/∂value  →  Σ g where the mask is True")),
    "SumBackward0": _D("Sum of all elements: every element gets the same gradient.",
                       ("∂(Σᵢ aᵢ)/∂aᵢ = 1  →  g broadcast to a's shape",)),
    "SumBackward1": _D("Sum over some dimensions: the gradient is broadcast back along them.",
                       ("∂(Σ_dim a)/∂a = 1  →  g expanded over dim",)),
    "MeanBackward0": _D("Mean of all n elements: each element gets g/n.",
                        ("∂(Σᵢ aᵢ / n)/∂aᵢ = 1/n  →  g/n broadcast",)),
    "MeanBackward1": _D("Mean over some dimensions: g/n broadcast back along them.",
                        ("∂(mean_dim a)/∂a = 1/n  →  g/n expanded over dim",)),
    "MaxBackward1": _D("Max over a dimension: the gradient goes to the position of the maximum.",
                       ("∂max/∂aᵢ = [i = argmax]",)),
    "MmBackward0": _D("Matrix product: the gradient is multiplied by the other factor, transposed.",
                      ("∂(A@B)/∂A  →  g @ Bᵀ", "∂(A@B)/∂B  →  Aᵀ @ g")),
    "MvBackward0": _D("Matrix–vector product.", ("∂(A@v)/∂A  →  g ⊗ v", "∂(A@v)/∂v  →  Aᵀ @ g")),
    "DotBackward0": _D("Dot product: each vector gets g times the other.",
                       ("∂(a·b)/∂a  →  g·b", "∂(a·b)/∂b  →  g·a")),
    "BmmBackward0": _D("Batched matrix product.", ("∂(A@B)/∂A  →  g @ Bᵀ", "∂(A@B)/∂B  →  Aᵀ @ g")),
    "AddmmBackward0": _D("bias + A@B (as in nn.Linear): the bias gets g summed over the batch.",
                         ("∂/∂bias  →  Σ_batch g", "∂/∂A  →  g @ Bᵀ", "∂/∂B  →  Aᵀ @ g")),
    "TBackward0": _D("Transpose: the gradient is transposed back.", ("∂(aᵀ)/∂a  →  gᵀ",)),
    "TransposeBackward0": _D("Transpose of two dimensions: swapped back.", ("∂/∂a  →  g.transpose(d0, d1)",)),
    "PermuteBackward0": _D("Permutation of dimensions: the inverse permutation is applied.",
                           ("∂/∂a  →  g.permute(inverse)",)),
    "ViewBackward0": _D("A view only changes the shape: the gradient is reshaped back.",
                        ("∂/∂a  →  g.view(a.shape)",)),
    "ReshapeAliasBackward0": _D("Reshape: the gradient is reshaped back.", ("∂/∂a  →  g.reshape(a.shape)",)),
    "UnsqueezeBackward0": _D("unsqueeze: the added dimension is squeezed out of the gradient.",
                             ("∂/∂a  →  g.squeeze(dim)",)),
    "SqueezeBackward0": _D("squeeze: the removed dimension is put back.", ("∂/∂a  →  g.unsqueeze(dim)",)),
    "ExpandBackward0": _D("expand: the gradient is summed over the expanded dimensions.",
                          ("∂/∂a  →  Σ_expanded g",)),
    "CloneBackward0": _D("clone copies: the gradient passes through.", ("∂/∂a  →  g",)),
    "SelectBackward0": _D("Indexing one element: its gradient goes to that position, zeros elsewhere.",
                          ("∂a[i]/∂a  →  zeros with g at i",)),
    "IndexBackward0": _D("Advanced indexing: gradients are scattered (and added) back.",
                         ("∂a[idx]/∂a  →  index_put(zeros, idx, g, accumulate)",)),
    "SliceBackward0": _D("Slicing: the gradient fills the slice, zeros elsewhere.",
                         ("∂a[s]/∂a  →  zeros with g in s",)),
    "CatBackward0": _D("Concatenation: each input gets its own slice of the gradient.",
                       ("∂/∂aₖ  →  g[slice k]",)),
    "StackBackward0": _D("Stacking: each input gets its own index of the gradient.", ("∂/∂aₖ  →  g[k]",)),
    "AmaxBackward0": _D("amax: the gradient goes to the largest elements, shared evenly among ties.",
                        ("∂/∂a  →  g·[a = max] / (number of maxima)",)),
    "AminBackward0": _D("amin: the gradient goes to the smallest elements, shared evenly among ties.",
                        ("∂/∂a  →  g·[a = min] / (number of minima)",)),
    "SortBackward0": _D("Sorting only moves values: each gradient goes back to where its value came from.",
                        ("∂/∂a  →  g scattered back through the sort indices",)),
    "TopkBackward0": _D("top-k: the k chosen elements get their gradient back, the others 0.",
                        ("∂/∂a  →  g at the k indices, 0 elsewhere",)),
    "CumprodBackward0": _D("Cumulative product: each element affects every later partial product.",
                           ("∂/∂aᵢ  →  Σ_{j ≥ i} g_j·out_j / aᵢ   (computed without dividing by zero)",)),
    "EinsumBackward0": _D("einsum is linear in each operand: its gradient is another einsum of g with the "
                          "other operands.", ("∂/∂A  →  einsum(g, B, … → A's indices)",)),
    "TraceBackward0": _D("The trace sums the diagonal: the gradient is g on the diagonal, 0 elsewhere.",
                         ("∂tr(A)/∂A = I  →  g·I",)),
    "SoftmaxBackward0": _D("Softmax: the Jacobian is diag(s) − s sᵀ.", ("∂/∂a  →  s·(g − Σ g·s)",)),
    "LogSoftmaxBackward0": _D("log-softmax: g minus softmax times the sum of g.",
                              ("∂/∂a  →  g − softmax(a)·Σ_dim g",)),
    # Under create_graph=True, some backwards are recorded as one op of their own (as in PyTorch).
    "ThresholdBackwardBackward0": _D("ReLU's backward, differentiated: the same mask again (and 0 for the "
                                     "input, whose mask is piecewise constant).",
                                     ("∂/∂g  →  gg·[a > 0]", "∂/∂a  →  0")),
    "SoftmaxBackwardDataBackward0": _D("Softmax's backward, differentiated: the map g ↦ s·(g − Σ g·s) again, "
                                       "and its change with s.",
                                       ("∂/∂g  →  s·(gg − Σ gg·s)", "∂/∂s  →  gg·(g − Σ g·s) − g·Σ gg·s")),
    "LogSoftmaxBackwardDataBackward0": _D("log-softmax's backward, differentiated.",
                                          ("∂/∂g  →  gg − Σ gg·eʸ", "∂/∂y  →  −gg·eʸ·Σ g")),
    "NllLossBackward0": _D("Negative log-likelihood: −1 (÷ batch for mean) at each target class, "
                           "0 elsewhere.",
                           ("∂/∂xᵢ,c  →  −g·[c = targetᵢ] / N",)),
    "MseLossBackward0": _D("Mean squared error.",
                           ("∂ mean((x−y)²)/∂x  →  g·2(x − y)/N", "∂/∂y  →  −g·2(x − y)/N")),
    "BinaryCrossEntropyBackward0": _D("Binary cross-entropy on probabilities.",
                                      ("∂/∂p  →  g·(p − y) / (p(1 − p)) / N",)),
    "BinaryCrossEntropyWithLogitsBackward0": _D(
        "BCE with logits: sigmoid and log fused, a numerically stable (σ(x) − y).",
        ("∂/∂x  →  g·(σ(x) − y) / N",)),
    "AccumulateGrad": _D("A leaf: the arriving gradient is added into .grad (created on first use).",
                         (".grad ← .grad + g   (or .grad ← g if .grad is None)",)),
}

_GENERIC = _D("Chain rule: each input receives the incoming gradient times this operation's "
              "local derivative with respect to that input.",
              ("grad_input = g · ∂out/∂input",))


def local_derivative(name: str) -> LocalDerivative:
    """The local derivative of a backward node, with a generic chain-rule fallback.

    Parameters
    ----------
    name : str
        The node's class name, e.g. ``"MulBackward0"``.

    Returns
    -------
    LocalDerivative

    Examples
    --------
    >>> local_derivative("MulBackward0").formulas[0]
    '∂(a·b)/∂a = b  →  g·b'
    >>> local_derivative("FancyOpBackward0").words.startswith("Chain rule")
    True
    """
    return LOCAL_DERIVATIVES.get(name, _GENERIC)


def formulas_payload(names) -> dict[str, dict]:
    """The table entries for ``names`` (plus ``"_generic"``), as JSON-able dicts for the stepper."""
    out = {name: {"words": local_derivative(name).words, "formulas": list(local_derivative(name).formulas)}
           for name in sorted(set(names))}
    out["_generic"] = {"words": _GENERIC.words, "formulas": list(_GENERIC.formulas)}
    return out
