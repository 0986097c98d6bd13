# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 2 · The chain rule, by hand and by autograd
#
# *About 25 minutes.*
#
# Backpropagation is nothing more than the chain rule, applied one node at a time, from the output
# back to the inputs. In this notebook you will
#
# * compute the gradients of a small expression **by hand**,
# * watch autograd compute the same numbers, **stepping through `backward()` node by node**,
# * write the engine's loop yourself: walk `grad_fn.next_functions`, count dependencies, and send
#   each gradient on with the node's local derivative.

# %%
import minigrad as torch
import viz
import viz.plots

from course_checks import check_edge_gradients, check_hand_gradients, check_leaves_function, check_mul_rule

# %% [markdown]
# ## A derivative is a slope
#
# For a function of one number, $f'(x_0)$ is the slope of the tangent at $x_0$: how much $f$
# changes per unit change of $x$, for small changes. Here autograd computes the slope
# (`torch=torch` tells the plot to differentiate with minigrad).

# %%
ax = viz.plots.plot_tangent(lambda x: x**3 - 2 * x, 1.5, torch=torch)

# %% [markdown]
# ## Before autograd: nudge an input, watch the output
#
# You can measure a slope without knowing any calculus: nudge the input by a small $h$ and see how
# much the output moves. $\big(f(x + h) - f(x)\big)/h$ approaches $f'(x)$ as $h$ shrinks. Plain
# Python floats, no autograd:

# %%
def f_plain(x):
    return x**3 - 2 * x


x0 = 1.5
for h in (0.1, 0.01, 0.001, 0.0001):
    print(f"h = {h:<7} (f(x0 + h) - f(x0)) / h = {(f_plain(x0 + h) - f_plain(x0)) / h:.5f}")
print("the exact slope 3·x0² − 2 =", 3 * x0**2 - 2)

# %% [markdown]
# ## The chain rule
#
# If $L$ depends on $a$ only through $e$, then
# $\dfrac{\partial L}{\partial a} = \dfrac{\partial L}{\partial e}\cdot\dfrac{\partial e}{\partial a}$:
# the effect of $a$ on $L$ is its effect on $e$ times $e$'s effect on $L$. Along a longer path the
# local derivatives multiply; where a value is used by several paths, the contributions **add up**.
#
# Our example (the one from micrograd):
#
# $$e = a\cdot b,\qquad d = e + c,\qquad L = d\cdot f$$
#
# with $a = 2,\ b = -3,\ c = 10,\ f = -2$.

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-3.0, requires_grad=True)
c = torch.tensor(10.0, requires_grad=True)
f = torch.tensor(-2.0, requires_grad=True)
e = a * b
d = e + c
L = d * f
names = {"a": a, "b": b, "c": c, "f": f, "e": e, "d": d, "L": L}
print(e, d, L)

# %% [markdown]
# Nudge each input by $h = 0.001$ in turn and watch $L$ (plain numbers again). The change of $L$
# divided by $h$ is the slope of $L$ along that input: **how much $L$ cares about it**. Keep these
# four numbers in mind.

# %%
def L_of(a, b, c, f):
    return (a * b + c) * f


h = 0.001
base = L_of(2.0, -3.0, 10.0, -2.0)
for name, nudged in [("a", L_of(2.0 + h, -3.0, 10.0, -2.0)), ("b", L_of(2.0, -3.0 + h, 10.0, -2.0)),
                     ("c", L_of(2.0, -3.0, 10.0 + h, -2.0)), ("f", L_of(2.0, -3.0, 10.0, -2.0 + h))]:
    print(f"nudge {name}: L moves by {nudged - base:+.4f}, slope ≈ {(nudged - base) / h:+.3f}")

# %% [markdown]
# That took one extra evaluation of $L$ per input — fine for four inputs, hopeless for a network
# with a million weights (and only approximate). The chain rule gets all four slopes **exactly**,
# in one backward pass. (Notebook 11 counts the passes each way.)

# %% [markdown]
# ### By hand
#
# Start at the output, $\partial L/\partial L = 1$, and go backwards. Each step multiplies the
# gradient that has arrived by the **local** derivative of one operation:
#
# 1. $L = d\cdot f$: the local derivatives are $\partial L/\partial d = f = -2$ and
#    $\partial L/\partial f = d = 4$. So $\partial L/\partial d = -2$ and $\partial L/\partial f = 4$.
# 2. $d = e + c$: local derivatives 1 and 1, so the gradient $-2$ passes on unchanged:
#    $\partial L/\partial e = -2$, $\ \partial L/\partial c = -2$.
# 3. $e = a\cdot b$: local derivatives $\partial e/\partial a = b = -3$ and
#    $\partial e/\partial b = a = 2$, so $\partial L/\partial a = -2 \cdot (-3) = 6$ and
#    $\partial L/\partial b = -2 \cdot 2 = -4$.
#
# A product sends the incoming gradient to each factor multiplied by the *other* factor; a sum
# passes it on unchanged.

# %% [markdown]
# ### By autograd, one node at a time
#
# Here is the graph autograd recorded. Nothing has a gradient yet.

# %%
viz.draw(L, params=names)

# %% [markdown]
# `viz.step_backward(L)` runs the real `L.backward()` and records every node the engine executes.
# Press **▶** (next step; or click the widget and use the → key) to step: the running node lights
# up, the edges carrying a gradient show its value, and the panel shows the gradient that arrives,
# the node's local derivative, and the gradients it sends on; at an `AccumulateGrad` node you see
# the leaf's `.grad` before and after. Compare each step with the hand computation above.
# (**▶ play** runs through all steps; the slider jumps.)

# %%
stepper = viz.step_backward(L, params=names)
stepper

# %% [markdown]
# The steps are also plain data, so we can print them and check them against our hand computation.
# `grad_outputs` is what arrives at a node, `grad_inputs` what it sends to each entry of its
# `next_functions`.

# %%
stepper.print()

# %%
for step in stepper.steps:
    print(f"{step.name:15s} in: {step.grad_outputs}  out: {step.grad_inputs}")
print("a.grad =", a.grad, " b.grad =", b.grad, " c.grad =", c.grad, " f.grad =", f.grad)

# %% [markdown]
# Notice the order: autograd runs a node only when **all** the gradients for it have arrived, and
# it runs a leaf's `AccumulateGrad` as soon as it can.
#
# ## Exercise 1 · chain rule by hand, with a value used twice
#
# $$q = x\cdot y,\qquad r = q + z,\qquad s = r\cdot r \qquad\text{at } x = 3,\ y = -2,\ z = 4.$$
#
# Compute $\partial s/\partial x$, $\partial s/\partial y$, $\partial s/\partial z$ by hand. Careful:
# $r$ is used twice in $r\cdot r$, and both uses send a gradient back to $r$.

# %%
# EXERCISE: your hand-computed gradients
# PREDICTION
answer = {"x": 8.0, "y": -12.0, "z": -4.0}
# END PREDICTION
check_hand_gradients(answer)

# %% [markdown]
# Now let autograd confirm it (and look at the two arrows from `AddBackward0` into `MulBackward0`).

# %%
x = torch.tensor(3.0, requires_grad=True)
y = torch.tensor(-2.0, requires_grad=True)
z = torch.tensor(4.0, requires_grad=True)
r = x * y + z
s = r * r
s.backward()
print(x.grad, y.grad, z.grad)
viz.draw(s, params={"x": x, "y": y, "z": z, "s": s})

# %% [markdown]
# ### Exercise 2 · every edge, by hand
#
# Backward sends one gradient along each edge of the graph. For the same $s = r\cdot r$,
# $r = q + z$, $q = x\cdot y$ at $x = 3,\ y = -2,\ z = 4$, write the gradient that travels along each
# edge, from the node that sends it to the input that receives it. `s → r (1st)` and `s → r (2nd)`
# are the two edges from the multiplication `r * r` to `r`: one per factor. Do not add them up —
# that happens *at* `r`, after both have arrived.

# %%
# EXERCISE: the gradient on each edge (sender → receiver)
# PREDICTION
answer = {
    "s → r (1st)": -2.0,
    "s → r (2nd)": -2.0,
    "r → q": -4.0,
    "r → z": -4.0,
    "q → x": 8.0,
    "q → y": -12.0,
}
# END PREDICTION
check_edge_gradients(answer)

# %% [markdown]
# The stepper can quiz you the same way, edge by edge: in **predict mode** each outgoing gradient
# stays hidden until you type your value (or reveal it). Type the numbers from your table above.

# %%
x = torch.tensor(3.0, requires_grad=True)
y = torch.tensor(-2.0, requires_grad=True)
z = torch.tensor(4.0, requires_grad=True)
q = x * y
r = q + z
s = r * r
try:
    quiz = viz.step_backward(s, params={"x": x, "y": y, "z": z, "q": q, "r": r, "s": s}, predict=True)
except TypeError:   # a viz without predict mode: the ordinary stepper, gradients shown
    print("(this viz has no predict mode yet: the stepper below shows the gradients instead)")
    quiz = viz.step_backward(s, params={"x": x, "y": y, "z": z, "q": q, "r": r, "s": s})
quiz

# %% [markdown]
# ## Walking the graph as the engine does
#
# `backward()` needs two passes over the graph.
#
# **Pass 1: discover the graph and count dependencies.** Starting from the root's `grad_fn`, follow
# every entry of `next_functions` (skipping `None`), and count for each node how many gradients it
# will receive. We use a stack, not recursion, so deep graphs are no problem.

# %%
def count_dependencies(root):
    """For each node reachable from root.grad_fn: how many edges lead into it."""
    dependencies = {}
    stack, seen = [root.grad_fn], {root.grad_fn}
    while stack:
        node = stack.pop()
        for child, _input_nr in node.next_functions:
            if child is None:          # an input that needs no gradient
                continue
            dependencies[child] = dependencies.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return dependencies


r = x * y + z
s = r * r
for node, count in count_dependencies(s).items():
    print(f"{type(node).__name__:15s} receives {count} gradient(s)")

# %% [markdown]
# **Pass 2: run the nodes.** Keep a buffer of the gradient collected so far for each node. A node
# is ready when its count drops to zero; then it applies its local derivative to the collected
# gradient and sends one gradient to each of its `next_functions`.
#
# What does a node need to compute its local derivative? The values it **saved during the forward
# pass**. They are visible as attributes `_saved_<name>`: a multiplication saved both factors.

# %%
print(s.grad_fn, s.grad_fn._saved_self, s.grad_fn._saved_other)

# %% [markdown]
# For an addition the local derivative is 1 for both inputs: the rule passes the gradient on. A rule
# takes the node and the gradient arriving at it (a plain Python number here) and returns one
# gradient per entry of `next_functions`.

# %%
def add_rule(node, grad):
    return grad, grad


# %% [markdown]
# ### Exercise 3 · the rule for a multiplication
#
# Write `mul_rule(node, grad)` for `MulBackward0` (`out = self * other`). Read the saved factors with
# `node._saved_self.item()` and `node._saved_other.item()` (`.item()` turns a one-element tensor into
# a Python number).

# %%
# EXERCISE: return (gradient for self, gradient for other)
def mul_rule(node, grad):
    # SOLUTION
    # STUB: ...  # TODO: return (gradient for self, gradient for other)
    return grad * node._saved_other.item(), grad * node._saved_self.item()
    # END SOLUTION


check_mul_rule(mul_rule, torch)

# %% [markdown]
# Now the whole engine, in twenty lines. It works on one-number tensors only (gradients are
# Python floats), but it is the same algorithm as the real one.

# %%
# NEEDS: check_mul_rule (Exercise 3)
RULES = {"AddBackward0": add_rule, "MulBackward0": mul_rule}


def manual_backward(root):
    """Return {leaf tensor: gradient} for a scalar root, like root.backward() would accumulate."""
    dependencies = count_dependencies(root)
    buffers = {root.grad_fn: 1.0}          # dL/dL = 1
    ready = [root.grad_fn]
    leaf_grads = {}
    while ready:
        node = ready.pop()
        grad = buffers.pop(node)           # the sum of everything that arrived
        if type(node).__name__ == "AccumulateGrad":
            leaf_grads[node.variable] = leaf_grads.get(node.variable, 0.0) + grad
            continue
        grads_out = RULES[type(node).__name__](node, grad)
        for (child, _), g in zip(node.next_functions, grads_out):
            if child is None:
                continue
            buffers[child] = buffers.get(child, 0.0) + g    # contributions add up
            dependencies[child] -= 1
            if dependencies[child] == 0:                    # everything has arrived
                ready.append(child)
    return leaf_grads


r = x * y + z
s = r * r
grads = manual_backward(s)
print("ds/dx =", grads[x], " ds/dy =", grads[y], " ds/dz =", grads[z])

# %% [markdown]
# The same numbers as autograd's, and as yours by hand. And on the first example:

# %%
# NEEDS: check_mul_rule (Exercise 3)
a2, b2, c2, f2 = (torch.tensor(v, requires_grad=True) for v in (2.0, -3.0, 10.0, -2.0))
L2 = (a2 * b2 + c2) * f2
print([manual_backward(L2)[t] for t in (a2, b2, c2, f2)])

# %% [markdown]
# > **The same in PyTorch.** PyTorch's engine works the same way: it first counts, for every node
# > reachable from the roots, how many gradients it will receive, and runs a node only once they
# > have all arrived, with their sum — so each node runs exactly once, however many paths lead to
# > it. Among the ready nodes it prefers the most recently created, and an `AccumulateGrad` runs as
# > soon as it is ready. The `_saved_self` / `_saved_other` attributes, `next_functions` and the
# > node names are PyTorch's too.
#
# ### Exercise 4 · find the leaves
#
# Write `leaves(t)`: walk the graph behind `t` (start at `t.grad_fn`, follow `next_functions`) and
# return the list of leaf tensors that require grad — each once. Use a stack and a `seen` set, as
# in `count_dependencies`. An `AccumulateGrad` node holds its leaf in `.variable`.

# %%
# EXERCISE: return each leaf tensor reachable from t.grad_fn, once
def leaves(t):
    # SOLUTION
    found, stack, seen = [], [t.grad_fn], {t.grad_fn}
    while stack:
        node = stack.pop()
        if type(node).__name__ == "AccumulateGrad":
            found.append(node.variable)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return found
    # END SOLUTION


check_leaves_function(leaves, torch)

# %% [markdown]
# ## Summary
#
# * The chain rule multiplies local derivatives along each path and adds the paths up.
# * Each node computes its local derivative from what it saved in the forward pass (`_saved_*`).
# * The engine counts dependencies first, then runs each node once, when all its gradients have
#   arrived; `AccumulateGrad` adds the result into the leaf's `.grad`.
#
# Next: **3 · vector-valued outputs**: what `backward()` computes when the output is not a single
# number.
