"""Seeded random programs.

``generate(seed)`` builds a program step by step. Each candidate step is executed at once with
real PyTorch (the oracle), so the generator knows every tensor's shape, dtype and
``requires_grad`` and can draw the next op's arguments from what is valid (a ``dim`` in range,
an index within bounds, a partner of a broadcastable shape). A candidate PyTorch rejects is
dropped -- except now and then, when it is kept as a deliberate *error step*: both libraries must
then raise the same exception, and the program goes on without its outputs.

Same seed, same PyTorch -> same program (``random.Random(seed)`` drives every choice).

The mix: 1-4 leaves (float32 or float64; now and then special values 0, -0, +-inf, nan, huge,
tiny, ties; 0-d and empty shapes), 3-40 op steps drawn from :data:`fuzzlib.ops.VARIANTS`
(elementwise, reductions, linear algebra, shape ops and views, indexing, ``nn.functional``),
in-place ops on non-leaves and on views (and, rarely, on a leaf), hooks, ``retain_grad``,
``no_grad`` blocks, and one backward plan (:data:`PLANS`).
"""

from __future__ import annotations

import contextlib
import random
import warnings
from typing import Any

import numpy as np

from . import ops
from .generate_helpers import broadcastable as _broadcastable
from .program import literal, namespace

SPECIALS = [0.0, -0.0, 1.0, -1.0, float("inf"), float("-inf"), float("nan"), 1e30, -1e30, 100.0, -100.0,
            1e-30, 2.0, 0.5]


class Gen:
    """The generator's state: the random stream, the program so far, and a live PyTorch namespace."""

    def __init__(self, seed: int, torch_module=None):
        if torch_module is None:
            import torch as torch_module
        self.torch = torch_module
        self.seed = seed
        self.rng = random.Random(seed)
        self.ns = namespace(torch_module)
        self.steps: list[dict] = []
        self.counter = 0
        self.dtype = self.rng.choice(["float32", "float32", "float64"])
        self.error_steps = 0

    # ---------------------------------------------------------------- names and facts

    def fresh(self, prefix: str = "t") -> str:
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def tensors(self) -> list[str]:
        """Names of the live tensors (not those PyTorch refuses to read any more)."""
        out = []
        for k, v in self.ns.items():
            if k[0] in "tx" and k[1:].isdigit() and isinstance(v, self.torch.Tensor):
                try:
                    _ = (v.grad_fn, v.is_leaf)
                except RuntimeError:
                    continue
                out.append(k)
        return out

    def sh(self, name: str) -> tuple:
        return tuple(self.ns[name].shape)

    def nd(self, name: str) -> int:
        return self.ns[name].dim()

    def dt(self, name: str) -> str:
        return str(self.ns[name].dtype).replace("torch.", "")

    def is_float(self, name: str) -> bool:
        return self.ns[name].is_floating_point()

    def numel(self, name: str) -> int:
        return self.ns[name].numel()

    # ---------------------------------------------------------------- random choices

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def choice(self, seq):
        return self.rng.choice(list(seq))

    def pick(self, floating: bool = True, min_nd: int = 0, max_nd: int = 9, nonempty: bool = False,
             grad: bool | None = None, where=None) -> str | None:
        """An existing tensor (biased towards recent ones: deep chains, but fan-out too)."""
        cands = []
        for name in self.tensors():
            t = self.ns[name]
            if floating and not t.is_floating_point():
                continue
            if not (min_nd <= t.dim() <= max_nd):
                continue
            if nonempty and t.numel() == 0:
                continue
            if grad is not None and t.requires_grad != grad:
                continue
            if where is not None and not where(name):
                continue
            cands.append(name)
        if not cands:
            return None
        if self.chance(0.6):
            return cands[-1 - min(int(self.rng.expovariate(0.7)), len(cands) - 1)]
        return self.rng.choice(cands)

    def dim(self, name: str, extra: int = 0) -> int:
        """A valid dim of ``name`` (negative half the time); out of range now and then."""
        n = max(self.nd(name) + extra, 1)  # a 0-d tensor accepts dim 0 and -1
        if self.chance(0.02):
            return self.choice([n, -n - 1, n + 1])
        d = self.rng.randrange(n)
        return d - n if self.chance(0.4) else d

    def dims(self, name: str) -> tuple:
        n = self.nd(name)
        if n == 0:
            return (0,)
        k = self.rng.randint(1, n)
        return tuple(sorted(self.rng.sample(range(n), k)))

    def shape(self, max_nd: int = 3) -> tuple:
        nd = self.choice([0, 1, 1, 2, 2, 2, 3, 3][: 2 + 2 * max_nd])
        sizes = []
        for _ in range(nd):
            sizes.append(0 if self.chance(0.025) else self.choice([1, 2, 2, 3, 3, 4]))
        return tuple(sizes)

    def values(self, shape: tuple, kind: str | None = None) -> np.ndarray:
        if kind is None:
            kind = self.choice(["normal"] * 12 + ["ties"] * 3 + ["special"] * 2 + ["positive"] * 3 + ["constant"])
        n = int(np.prod(shape)) if shape else 1
        if kind == "normal":
            vals = [round(self.rng.gauss(0, 1.2), 2) for _ in range(n)]
        elif kind == "positive":
            vals = [round(self.rng.uniform(0.1, 3), 2) for _ in range(n)]
        elif kind == "ties":
            vals = [self.choice([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.0, 2.0]) for _ in range(n)]
        elif kind == "constant":  # std/var/norm of a constant: zero variance
            vals = [self.choice([1.0, 0.0, -2.0])] * n
        elif kind == "unit":
            vals = [round(self.rng.uniform(0.05, 0.95), 2) for _ in range(n)]
        else:
            vals = [self.choice(SPECIALS) if self.chance(0.5) else round(self.rng.gauss(0, 1), 2) for _ in range(n)]
        return np.array(vals, dtype=np.float64).reshape(shape)

    # ---------------------------------------------------------------- building steps

    def try_step(self, step: dict, keep_error: float = 0.0) -> bool:
        """Execute ``step`` with PyTorch; append it when it works (or, with ``keep_error``, when it raises)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(step["code"], self.ns)
            except Exception:
                for name in step.get("outs", ()):
                    self.ns.pop(name, None)
                if self.chance(keep_error):
                    step["note"] = "PyTorch raises here"
                    self.steps.append(step)
                    self.error_steps += 1
                    return True
                return False
        self.steps.append(step)
        return True

    def leaf(self, shape: tuple | None = None, dtype: str | None = None, grad: bool = True,
             kind: str | None = None) -> str:
        """A new leaf tensor (requires_grad when ``grad``); returns its name."""
        if shape is None:
            shape = self.shape()
        dtype = dtype or (self.dtype if not self.chance(0.05) else self.choice(["float32", "float64"]))
        name = self.fresh("x")
        code = "%s = %s" % (name, literal(self.values(shape, kind), dtype, grad))
        ok = self.try_step({"kind": "leaf", "op": "leaf", "code": code, "outs": [name], "uses": [],
                            "observe": [name]})
        assert ok, code
        return name

    def const(self, shape: tuple, dtype: str, kind: str | None = None) -> str:
        """Code for a constant tensor (no name, no step)."""
        return literal(self.values(shape, kind), dtype)

    def index(self, shape: tuple, high: int) -> str:
        """Code for an int64 tensor of indices in ``[0, high)``."""
        vals = np.array([self.rng.randrange(max(high, 1)) for _ in range(int(np.prod(shape)) if shape else 1)],
                        dtype=np.int64).reshape(shape)
        return literal(vals, "int64")

    def partner(self, a: str, same: bool = False) -> str:
        """A tensor broadcastable with ``a``: an existing one of a fitting shape, or a new leaf."""
        sa = self.sh(a)
        if not same and self.chance(0.02):  # a shape mismatch now and then
            bad = tuple(s + 1 for s in sa) if sa else (2,)
            return self.leaf(bad, grad=self.chance(0.5))
        if self.chance(0.5):
            fits = self.pick(where=lambda n: n != a and (self.sh(n) == sa if same else _broadcastable(self.sh(n), sa)))
            if fits is not None:
                return fits
        if same:
            shape = sa
        else:
            form = self.choice(["same", "same", "ones", "suffix", "scalar", "lead"])
            if form == "same" or not sa:
                shape = sa
            elif form == "ones":
                shape = tuple(1 if self.chance(0.5) else s for s in sa)
            elif form == "suffix":
                shape = sa[self.rng.randrange(len(sa) + 1):]
            elif form == "scalar":
                shape = ()
            else:
                shape = (self.choice([1, 2]), *sa)
        return self.leaf(shape, grad=self.chance(0.7))

    def add_op(self, code_expr: str, op: str, uses: list[str], keep_error: float = 0.05) -> list[str]:
        """Append ``<outs> = code_expr``; a tuple result is unpacked into one name per element."""
        probe = "__probe = " + code_expr
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(probe, self.ns)
            except Exception:
                if self.chance(keep_error):
                    name = self.fresh()
                    self.steps.append({"kind": "op", "op": op, "code": "%s = %s" % (name, code_expr),
                                       "outs": [name], "uses": uses, "observe": [], "note": "PyTorch raises here"})
                    self.error_steps += 1
                return []
        value = self.ns.pop("__probe")
        if isinstance(value, (tuple, list)):
            if len(value) > 6 or not all(isinstance(v, self.torch.Tensor) for v in value):
                return []
            outs = [self.fresh() for _ in value]
            lhs = ", ".join(outs) + ("," if len(outs) == 1 else "")
            for n, v in zip(outs, value):
                self.ns[n] = v
        elif isinstance(value, self.torch.Tensor):
            outs = [self.fresh()]
            lhs = outs[0]
            self.ns[outs[0]] = value
        else:
            return []
        if value is not None and any(isinstance(v, self.torch.Tensor) and v.numel() > 400
                                     for v in (value if isinstance(value, (tuple, list)) else [value])):
            for n in outs:
                self.ns.pop(n)
            return []
        self.steps.append({"kind": "op", "op": op, "code": "%s = %s" % (lhs, code_expr), "outs": outs,
                           "uses": uses, "observe": outs})
        return outs

    def add_stmt(self, code: str, op: str, kind: str, uses: list[str], observe: list[str],
                 outs: list[str] | None = None, keep_error: float = 0.3) -> bool:
        return self.try_step({"kind": kind, "op": op, "code": code, "outs": outs or [], "uses": uses,
                              "observe": observe}, keep_error=keep_error)




# ------------------------------------------------------------------ backward plans


def _loss_terms(g: Gen, roots: list[str]) -> list[str]:
    terms = []
    for r in roots:
        if g.numel(r) == 1 and g.chance(0.5):
            terms.append("%s.sum()" % r)
        else:
            terms.append("(%s * %s).sum()" % (r, g.const(g.sh(r), g.dt(r))))
    return terms


def _loss_step(g: Gen, template: str, terms: list[str], roots: list[str], leaves: list[str], op: str,
               observe: list[str], outs: list[str], keep_error: float = 0.3) -> bool:
    """A plan step whose loss is a sum of ``terms`` (one per root): the minimiser may drop terms."""
    step = {"kind": "plan", "op": op, "code": template.replace("{loss}", " + ".join(terms)), "outs": outs,
            "uses": roots + leaves, "observe": observe, "template": template, "terms": terms,
            "term_roots": roots, "leaves": leaves}
    return g.try_step(step, keep_error=keep_error)


def _roots(g: Gen) -> list[str]:
    cands = [n for n in g.tensors() if g.ns[n].requires_grad and g.ns[n].is_floating_point()]
    if not cands:
        return []
    nonleaf = [n for n in cands if not g.ns[n].is_leaf] or cands
    k = min(len(nonleaf), g.choice([1, 1, 1, 2, 3]))
    # the last tensors are the deepest ones: prefer them
    return sorted(set(nonleaf[-k:] if g.chance(0.7) else g.rng.sample(nonleaf, k)), key=nonleaf.index)


def _leaves(g: Gen) -> list[str]:
    return [n for n in g.tensors() if n.startswith("x") and g.ns[n].requires_grad]


PLANS = ["backward", "backward", "backward_v", "grad", "grad_outputs", "retain_twice", "retain_keep", "twice",
         "create_graph", "create_graph", "backward_create_graph", "backward_inputs", "autograd_backward"]


def add_plan(g: Gen, plan: str) -> None:
    roots = _roots(g)
    leaves = _leaves(g)
    if not roots or not leaves:
        return
    uses = roots + leaves
    terms = _loss_terms(g, roots)
    L = ", ".join(leaves)
    if plan == "backward":
        _loss_step(g, "loss = {loss}\nloss.backward()", terms, roots, leaves, plan, ["loss"], ["loss"])
    elif plan == "backward_v":
        r = roots[-1]
        g.add_stmt("%s.backward(%s)" % (r, g.const(g.sh(r), g.dt(r))), plan, "plan", [r, *leaves], [])
    elif plan == "grad":
        inputs = list(leaves)
        inner = [n for n in g.tensors() if g.ns[n].requires_grad and not g.ns[n].is_leaf and n not in roots]
        if inner and g.chance(0.4):  # a non-leaf input: its hooks must not change what grad returns
            inputs.append(g.choice(inner))
            if g.chance(0.5) and (g.ns[inputs[-1]]._base is None or g.ns[inputs[-1]]._version == 0):
                g.add_stmt("h0 = %s.register_hook(lambda g: g * 2)" % inputs[-1], "hook", "hook", [inputs[-1]], [])
        _loss_step(g, "loss = {loss}\ngs = torch.autograd.grad(loss, [%s], allow_unused=%s)" % (
            ", ".join(inputs), g.chance(0.9)), terms, roots, inputs, plan, ["gs"], ["loss", "gs"])
    elif plan == "grad_outputs":
        vs = ", ".join(g.const(g.sh(r), g.dt(r)) for r in roots)
        g.add_stmt("gs = torch.autograd.grad([%s], [%s], grad_outputs=[%s], allow_unused=True)" % (
            ", ".join(roots), L, vs), plan, "plan", uses, ["gs"], ["gs"])
    elif plan == "retain_twice":
        _loss_step(g, "loss = {loss}\nloss.backward(retain_graph=True)\nloss.backward()", terms, roots, leaves,
                   plan, ["loss"], ["loss"])
    elif plan == "retain_keep":
        # the first .grad is kept: the second backward must store a new tensor, not add into it
        kept = [n for n in g.tensors() if g.ns[n].requires_grad and getattr(g.ns[n], "retains_grad", False)]
        x = g.choice(kept) if kept and g.chance(0.7) else leaves[-1]
        _loss_step(g, "loss = {loss}\nloss.backward(retain_graph=True)\ngk = %s.grad\nloss.backward()" % x,
                   terms, roots, leaves + ([x] if x not in leaves else []), plan, ["loss"], ["loss", "gk"])
    elif plan == "twice":
        _loss_step(g, "loss = {loss}\nloss.backward()", terms, roots, leaves, "backward", ["loss"], ["loss"])
        g.add_stmt("loss.backward()", plan, "plan", ["loss", *leaves], [], keep_error=1.0)
    elif plan == "create_graph":
        ok = _loss_step(g, "loss = {loss}\ngs = torch.autograd.grad(loss, [%s], create_graph=True, "
                        "allow_unused=True)" % L, terms, roots, leaves, plan, ["gs"], ["loss", "gs"], keep_error=0.5)
        if not ok or "gs" not in g.ns:
            return
        terms = []
        for i, gi in enumerate(g.ns["gs"]):
            if gi is not None and gi.requires_grad:
                terms.append("(gs[%d] * %s).sum()" % (i, g.const(tuple(gi.shape), str(gi.dtype)[6:])))
        if terms:
            g.add_stmt("gg = %s\ngg.backward()" % " + ".join(terms), "second_backward", "plan", ["gs", *leaves],
                       ["gg"], ["gg"])
    elif plan == "backward_create_graph":
        ok = _loss_step(g, "loss = {loss}\nloss.backward(create_graph=True)", terms, roots, leaves, plan, ["loss"],
                        ["loss"], keep_error=0.5)
        x = leaves[0]
        if ok and g.ns[x].grad is not None and g.ns[x].grad.requires_grad:
            g.add_stmt("gx = %s.grad.clone()\n%s.grad = None\n(gx * %s).sum().backward()" % (
                x, x, g.const(g.sh(x), g.dt(x))), "second_backward", "plan", [x, *leaves], ["gx"], ["gx"])
    elif plan == "backward_inputs":
        sub = leaves[: max(1, len(leaves) // 2)]
        _loss_step(g, "loss = {loss}\nloss.backward(inputs=[%s])" % ", ".join(sub), terms, roots, leaves, plan,
                   ["loss"], ["loss"])
    elif plan == "autograd_backward":
        vs = ", ".join(g.const(g.sh(r), g.dt(r)) for r in roots)
        g.add_stmt("torch.autograd.backward([%s], [%s])" % (", ".join(roots), vs), plan, "plan", uses, [])


# ------------------------------------------------------------------ the program


def generate(seed: int, torch_module=None) -> dict:
    """The program for ``seed``: leaves, 3-40 op steps, one backward plan."""
    g = Gen(seed, torch_module)
    for _ in range(g.rng.randint(1, 3)):
        g.leaf()
    n_ops = g.rng.randint(3, 40)
    tries = 0
    while sum(1 for s in g.steps if s["kind"] != "leaf") < n_ops and tries < n_ops * 6:
        tries += 1
        variant = ops.draw(g)
        with contextlib.suppress(ops.Skip, ValueError, IndexError):  # no fitting input; an empty range
            variant.build(g)
    add_plan(g, g.choice(PLANS))
    return {"seed": seed, "steps": g.steps}


def programs(seed: int, n: int) -> Any:
    """``n`` programs from ``seed`` (program ``k`` is ``generate(seed * 1_000_003 + k)``)."""
    for k in range(n):
        yield generate(seed * 1_000_003 + k)
