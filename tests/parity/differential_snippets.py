# ruff: noqa: E501 - the snippets are learner code, one statement a line
"""The snippets ``differential.py`` runs under torch and minigrad: what tutorial and course code types.

Each ``### name`` line starts a snippet; ``torch``, ``nn``, ``F``, ``optim`` and ``np`` are bound.
"""

from __future__ import annotations

_SOURCE = r'''
### blitz_requires_grad
x = torch.ones(2, 2, requires_grad=True)
print(x)
y = x + 2
print(y)
print(y.grad_fn)
z = y * y * 3
out = z.mean()
print(z, out)
### blitz_requires_grad_
a = torch.tensor([[1., 2.], [3., 4.]])
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)
### blitz_backward_mean
x = torch.ones(2, 2, requires_grad=True)
out = ((x + 2) * (x + 2) * 3).mean()
out.backward()
print(x.grad)
### blitz_vjp_loop
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
### blitz_no_grad_block
x = torch.ones(3, requires_grad=True)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
### blitz_detach_eq
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.detach()
print(y.requires_grad)
print(x.eq(y).all())
### blitz_grad_fn_next
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
print(Q.grad_fn, Q.grad_fn.next_functions)
### blitz_frozen_params
model = nn.Linear(4, 2)
for param in model.parameters():
    param.requires_grad = False
model.bias = nn.Parameter(torch.zeros(2))
print([p.requires_grad for p in model.parameters()])
print([n for n, p in model.named_parameters()])
### mechanics_requires_grad_or
x = torch.randn(5, 5)
y = torch.randn(5, 5)
z = torch.randn((5, 5), requires_grad=True)
a = x + y
print(a.requires_grad)
b = a + z
print(b.requires_grad)
### mechanics_set_grad_enabled
x = torch.tensor([1.], requires_grad=True)
with torch.set_grad_enabled(False):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
### mechanics_no_grad_decorator
@torch.no_grad()
def doubler(x):
    return x * 2
x = torch.tensor([1.], requires_grad=True)
z = doubler(x)
print(z.requires_grad)
@torch.no_grad
def tripler(x):
    return x * 3
print(tripler(x).requires_grad)
### mechanics_no_grad_method_decorator
class M:
    @torch.no_grad()
    def predict(self, x):
        return x * 2
x = torch.tensor([1.], requires_grad=True)
print(M().predict(x).requires_grad, torch.is_grad_enabled())
### mechanics_enable_grad_inside_no_grad
x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
@torch.enable_grad()
def f(x):
    return x * 2
with torch.no_grad():
    print(f(x).requires_grad)
### mechanics_inference_mode
x = torch.ones(2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad, y.is_inference(), x.is_inference())
### mechanics_inplace_saved_error
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.sigmoid()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    print(str(e).split(';')[0])
### mechanics_inplace_exp_error
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.exp()
b.add_(1)
b.sum().backward()
### mechanics_inplace_leaf_error
a = torch.tensor([1., 2., 3.], requires_grad=True)
a.add_(1)
### mechanics_inplace_leaf_no_grad_ok
a = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.no_grad():
    a.add_(1)
    a *= 2
print(a, a.requires_grad, a.is_leaf, a._version)
### mechanics_version_counter
x = torch.tensor([1., 2.])
print(x._version)
x.add_(1)
print(x._version)
x[0] = 5
print(x._version)
y = x.view(2)
y.mul_(2)
print(x._version, y._version)
### mechanics_saved_tensor_mod_message
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
z = y * y
y.add_(1)
z.sum().backward()
### micrograd_scalar
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-3.0, requires_grad=True)
c = torch.tensor(10.0, requires_grad=True)
e = a * b
d = e + c
f = torch.tensor(-2.0, requires_grad=True)
L = d * f
L.backward()
print(L, L.item(), a.grad.item(), b.grad, c.grad, f.grad)
print(a.data.item(), a.grad.data)
### micrograd_neuron
x1 = torch.tensor(2.0).double(); x1.requires_grad = True
x2 = torch.tensor(0.0).double(); x2.requires_grad = True
w1 = torch.tensor(-3.0).double(); w1.requires_grad = True
w2 = torch.tensor(1.0).double(); w2.requires_grad = True
b = torch.tensor(6.8813735870195432).double(); b.requires_grad = True
n = x1*w1 + x2*w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
print(o)
### micrograd_ops
a = torch.tensor(-4.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
print(f'{g.data.item():.4f}')
g.backward()
print(f'{a.grad.item():.4f}')
print(f'{b.grad.item():.4f}')
print(g)
### micrograd_fstring
a = torch.tensor(2.0, requires_grad=True)
print(f"{a}")
print(f"{a:.2f}")
print(f"value {a * 3}")
print("%s" % a)
print(str(a * 2))
print(f"{torch.tensor([1.5, 2.])}")
### micrograd_fstring_vec_spec
print(f"{torch.tensor([1.5, 2.]):.2f}")
### manual_backprop_numpy_style
N, D_in, H, D_out = 4, 3, 5, 2
x = torch.linspace(-1, 1, N * D_in).reshape(N, D_in)
y = torch.linspace(0, 1, N * D_out).reshape(N, D_out)
w1 = torch.linspace(-0.5, 0.5, D_in * H).reshape(D_in, H)
w2 = torch.linspace(0.3, -0.3, H * D_out).reshape(H, D_out)
learning_rate = 1e-2
for t in range(3):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum().item()
    print(t, round(loss, 5))
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)
    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2
print(w1.sum(), w2.sum())
### manual_backprop_autograd
dtype = torch.float
device = torch.device("cpu")
N, D_in, H, D_out = 4, 3, 5, 2
x = torch.linspace(-1, 1, N * D_in, device=device, dtype=dtype).reshape(N, D_in)
y = torch.linspace(0, 1, N * D_out, device=device, dtype=dtype).reshape(N, D_out)
w1 = torch.linspace(-0.5, 0.5, D_in * H, dtype=dtype).reshape(D_in, H).requires_grad_()
w2 = torch.linspace(0.3, -0.3, H * D_out, dtype=dtype).reshape(H, D_out).requires_grad_()
learning_rate = 1e-2
for t in range(3):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    print(t, loss.item() > 0, loss.grad_fn)
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(w1.grad, w1.is_leaf, w1.requires_grad)
### manual_randn_shapes
N, D_in, H, D_out = 64, 1000, 100, 10
x = torch.randn(N, D_in)
w1 = torch.randn(D_in, H, requires_grad=True)
print(x.shape, w1.shape, x.dtype, w1.requires_grad, x.mm(w1).shape)
print(torch.randn(3).shape, torch.randn((2, 3)).size(), torch.rand(2, 2).dtype, torch.randn(2, dtype=torch.double).dtype)
### custom_relu_function
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input
x = torch.tensor([-1., 2., -3., 4.], requires_grad=True)
relu = MyReLU.apply
y = relu(x)
print(y)
(y * torch.arange(4.)).sum().backward()
print(x.grad)
print(type(y.grad_fn).__name__, y.grad_fn.name())
### custom_legendre
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
x = torch.linspace(-1, 1, 5, requires_grad=True)
P3 = LegendrePolynomial3.apply
y = P3(x)
y.sum().backward()
print(y, x.grad)
### nn_sequential_mse_sum
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1), torch.nn.Flatten(0, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
loss_fn = torch.nn.MSELoss(reduction='sum')
x = torch.linspace(-1, 1, 6).reshape(2, 3)
y = torch.tensor([0.5, -0.5])
learning_rate = 1e-2
for t in range(3):
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    print(t, loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
print(model)
print(model[0].weight.grad)
### nn_sequential_adam
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.linspace(-1, 1, 6).reshape(2, 3)
y = torch.tensor([[0.5], [-0.5]])
for t in range(3):
    loss = loss_fn(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(t, round(loss.item(), 5))
print(optimizer)
### nn_module_custom
class TwoLayerNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super(TwoLayerNet, self).__init__()
        self.linear1 = torch.nn.Linear(D_in, H)
        self.linear2 = torch.nn.Linear(H, D_out)
    def forward(self, x):
        h_relu = self.linear1(x).clamp(min=0)
        return self.linear2(h_relu)
model = TwoLayerNet(3, 4, 2)
print(model)
print(sum(p.numel() for p in model.parameters()))
print([(n, tuple(p.shape)) for n, p in model.named_parameters()])
print(model(torch.zeros(5, 3)).shape)
### nn_linear_repr_params
l = nn.Linear(2, 3, bias=False)
print(l, l.weight.shape, l.bias)
print(nn.Linear(2, 3).bias.requires_grad, nn.Linear(2, 3).weight.grad)
### nn_sgd_momentum
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
for _ in range(3):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
    print(w)
print(opt.state_dict()['param_groups'])
### nn_crossentropy_training
torch.manual_seed(0)
model = nn.Linear(4, 3)
with torch.no_grad():
    model.weight.copy_(torch.linspace(-1, 1, 12).reshape(3, 4))
    model.bias.zero_()
x = torch.linspace(-2, 2, 8).reshape(2, 4)
y = torch.tensor([0, 2])
criterion = nn.CrossEntropyLoss()
out = model(x)
loss = criterion(out, y)
print(loss)
_, predicted = torch.max(out, 1)
print(predicted, (predicted == y).sum().item(), (predicted == y).float().mean())
print(out.argmax(dim=1), out.argmax(1).eq(y).sum())
correct = 0
correct += (predicted == y).sum().item()
print(correct / len(y), 100 * correct / y.size(0))
### torch_max_forms
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]])
print(torch.max(x))
print(torch.max(x, 1))
print(torch.max(x, dim=0))
print(torch.max(x, 1, keepdim=True)[0])
v, i = x.max(dim=1)
print(v, i)
print(torch.max(x, torch.tensor(3.)))
print(torch.min(x, 0).indices)
print(torch.max(x, 1).values)
### torch_max_elementwise_tensors
a = torch.tensor([1., 5.]); b = torch.tensor([3., 2.])
print(torch.max(a, b), torch.min(a, b), torch.maximum(a, b))
### max_grad_fn
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)
print(x.max(), x.max(1), x.min(0)[0])
### new_factories
x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64)
print(x.new_zeros(2, 3))
print(x.new_ones((2,)))
print(x.new_tensor([1, 2]))
print(x.new_tensor([1., 2.]))
print(x.new_full((2, 2), 7))
print(x.new_empty(3).shape, x.new_zeros(2).dtype)
print(torch.tensor([1, 2]).new_zeros(3))
print(x.new_ones(2, requires_grad=True))
### dtype_spellings
print(torch.float, torch.double, torch.long, torch.int, torch.half, torch.float32 is torch.float)
print(torch.tensor([1, 2], dtype=torch.float), torch.tensor([1, 2], dtype=torch.double))
print(torch.zeros(2, dtype=torch.long), torch.ones(2, dtype=torch.int))
print(torch.tensor([1., 2.]).to(torch.float64))
print(torch.tensor([1.5, 2.5]).to(torch.int64))
print(torch.tensor([1.5, -2.5]).long(), torch.tensor([1.5, -2.5]).int())
print(torch.tensor([0., 1.5]).bool())
print(torch.tensor([True, False]).float(), torch.tensor([True, False]).long())
### dtype_repr_float64
print(torch.tensor([1., 2.], dtype=torch.float64))
print(torch.tensor(1.5, dtype=torch.float64))
print(torch.tensor([1.5], dtype=torch.float16))
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1, 2], dtype=torch.uint8))
print(torch.tensor([1, 2], dtype=torch.int8), torch.tensor([1, 2], dtype=torch.int16))
print(torch.tensor([True, False]))
print(torch.tensor(3), torch.tensor(True))
print(torch.tensor([], dtype=torch.float64), torch.tensor([]), torch.tensor([], dtype=torch.long))
print(torch.zeros(2, 0))
### dtype_repr_requires_grad
print(torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True))
print(torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True) * 2)
print(torch.ones(2, 2, dtype=torch.float64).sum(0))
### type_method
x = torch.tensor([1, 2])
print(x.type())
print(x.type(torch.float32))
print(x.type(torch.FloatTensor))
print(x.float().type(torch.DoubleTensor))
print(x.type(torch.LongTensor).dtype)
### type_strings
x = torch.tensor([1., 2.])
print(x.type(), torch.tensor([1.]).double().type(), torch.tensor([True]).type(), torch.tensor([1], dtype=torch.int32).type())
print(x.type('torch.DoubleTensor'))
print(isinstance(x, torch.FloatTensor), isinstance(x, torch.Tensor))
### size_shape
x = torch.zeros(3, 4, 5)
print(x.size(), x.size(0), x.size(-1), x.shape[-1], x.shape[1:], len(x), x.dim(), x.ndim, x.numel())
print(x.shape == (3, 4, 5), x.size() == torch.Size([3, 4, 5]), list(x.shape), tuple(x.shape))
print(torch.Size([2, 3]), type(x.shape).__name__, x.shape.numel())
print(x.size(3))
### size_error
x = torch.zeros(3, 4)
x.size(2)
### iteration
x = torch.tensor([[1., 2.], [3., 4.]])
for row in x:
    print(row)
for v in torch.tensor([1, 2, 3]):
    print(v, v.item(), int(v))
print(list(torch.tensor([1., 2.])))
print([float(v) for v in torch.tensor([1.5, 2.5])])
print(sum(torch.tensor([1., 2., 3.])))
### transpose_T
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
print(x.T, x.t(), x.transpose(0, 1).shape)
v = torch.tensor([1., 2.], requires_grad=True)
print(v.T, v.t())
print(x.mT.shape, x.T.is_contiguous(), x.T.contiguous().is_contiguous())
### transpose_T_3d
x = torch.zeros(2, 3, 4)
print(x.permute(2, 0, 1).shape, x.transpose(-1, -2).shape)
### transpose_T_3d_warn
x = torch.zeros(2, 3, 4)
print(x.T.shape)
### detach_numpy
x = torch.tensor([1., 2.], requires_grad=True)
a = x.detach().numpy()
print(type(a).__name__, a.dtype, a)
y = x * 2
print(y.detach().numpy(), y.data.numpy(), y.detach().cpu().numpy())
x.numpy()
### from_numpy
a = np.array([1., 2., 3.])
t = torch.from_numpy(a)
print(t, t.dtype)
a[0] = 10
print(t)
t[1] = 20
print(a)
print(torch.from_numpy(np.arange(3)))
print(torch.from_numpy(np.array([1., 2.], dtype=np.float32)))
print(torch.tensor(np.array([1., 2.])), torch.as_tensor(np.array([1, 2])))
print(torch.from_numpy(np.zeros((2, 2))).float().dtype)
### tensor_from_numpy_scalars
print(torch.tensor(np.float64(1.5)), torch.tensor([np.float32(1.5)]), torch.tensor(np.int64(3)))
print(torch.tensor([np.float64(1.5), np.float64(2.5)]))
print(torch.tensor(3.5).dtype, torch.tensor([1, 2.5]).dtype, torch.tensor([True, 1]).dtype)
### allclose_equal
a = torch.tensor([1., 2., 3.])
b = a + 1e-6
print(torch.allclose(a, b), a.allclose(b, atol=1e-9, rtol=0), torch.equal(a, a.clone()), torch.equal(a, b))
print(torch.isclose(a, b))
### comparisons_masks
x = torch.tensor([-1., 2., -3., 4.])
print(x > 0, x[x > 0], x[x < 0].sum())
mask = (x > 0) & (x < 3)
print(mask, x[mask], mask.sum(), mask.float().mean(), mask.any(), mask.all())
print(x == 2, x != 2, x >= 2, x <= 2, ~(x > 0), (x > 0) | (x < -2))
x[x < 0] = 0
print(x)
print(torch.where(x > 1, x, torch.zeros_like(x)))
print(torch.where(x > 1, x, 0.))
print(torch.where(x > 1))
print(torch.nonzero(x), x.nonzero())
### mask_grad
x = torch.tensor([-1., 2., -3., 4.], requires_grad=True)
y = x[x > 0]
print(y)
y.sum().backward()
print(x.grad)
### where_grad
x = torch.tensor([-1., 2., -3., 4.], requires_grad=True)
y = torch.where(x > 0, x * 2, x * x)
print(y)
y.sum().backward()
print(x.grad)
### where_scalar_scalar
x = torch.tensor([-1., 2.])
print(torch.where(x > 0, 1., 0.), torch.where(x > 0, 1, 0))
### cat_stack
a = torch.tensor([[1., 2.]], requires_grad=True)
b = torch.tensor([[3., 4.]])
print(torch.cat([a, b]), torch.cat((a, b), dim=1), torch.cat([a, b], 0).shape)
print(torch.stack([a, b]), torch.stack([a, b], dim=1).shape, torch.stack((a[0], b[0]), -1))
print(torch.cat([torch.tensor([1]), torch.tensor([2.])]))
### cat_error
torch.cat([torch.zeros(2, 3), torch.zeros(2, 4)])
### stack_error
torch.stack([torch.zeros(2, 3), torch.zeros(2, 4)])
### views
x = torch.arange(12)
print(x.view(3, 4), x.view(-1, 6).shape, x.view(2, -1).shape, x.view(12).shape, x.view(-1).shape)
y = torch.arange(6.).reshape(2, 3)
print(y.view(-1), y.reshape(3, 2), y.flatten(), y.unsqueeze(0).shape, y.unsqueeze(-1).shape, y.unsqueeze(1).shape)
print(torch.zeros(1, 3, 1).squeeze().shape, torch.zeros(1, 3, 1).squeeze(0).shape, torch.zeros(1, 3, 1).squeeze(-1).shape)
print(torch.zeros(2, 3).squeeze(0).shape)
print(y.view(3, 2).grad_fn, torch.unsqueeze(y, 0).shape, torch.squeeze(torch.zeros(1, 2)).shape)
### view_error
x = torch.arange(6.).reshape(2, 3)
x.view(4, 2)
### view_noncontig_error
x = torch.arange(6.).reshape(2, 3)
x.t().view(6)
### reshape_error
torch.arange(6).reshape(4, -1)
### view_grad_fns
x = torch.arange(6.).reshape(2, 3).requires_grad_()
print(x.view(-1).grad_fn, x.reshape(6).grad_fn, x.t().reshape(6).grad_fn, x.flatten().grad_fn)
print(x.unsqueeze(0).grad_fn, x.unsqueeze(0).squeeze(0).grad_fn, x[0].grad_fn, x[:, 1].grad_fn, x[0, 1].grad_fn)
print(x.permute(1, 0).grad_fn, x.T.grad_fn, x.transpose(0, 1).grad_fn, x.expand(2, 2, 3).grad_fn)
print(x[[0, 1]].grad_fn, x[x > 2].grad_fn, x[..., 0].grad_fn, x[None].grad_fn)
### argmax_dim
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]])
print(x.argmax(), x.argmax(dim=1), x.argmax(0), torch.argmax(x, dim=1, keepdim=True), x.argmin(1))
### accuracy
pred = torch.tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
y = torch.tensor([1, 0, 0])
acc = (pred.argmax(1) == y).float().mean()
print(acc, acc.item(), f"{acc:.2%}", (pred.argmax(1) == y).sum(), (pred.argmax(1) == y).type(torch.float).sum().item())
### softmax
x = torch.tensor([[1., 2., 3.], [1., 1., 1.]], requires_grad=True)
s = F.softmax(x, dim=1)
print(s, s.sum(1))
print(torch.softmax(x, 0), x.softmax(-1), F.log_softmax(x, dim=1), torch.log_softmax(x, 1))
print(nn.Softmax(dim=1)(x))
### softmax_no_dim
x = torch.tensor([[1., 2., 3.], [1., 1., 1.]])
print(F.softmax(x))
### one_hot
print(F.one_hot(torch.tensor([0, 2, 1])))
print(F.one_hot(torch.tensor([0, 2]), num_classes=4))
print(F.one_hot(torch.tensor([[0], [1]]), 3).shape, F.one_hot(torch.tensor([0, 1])).dtype)
print(F.one_hot(torch.arange(3) % 2).float())
### one_hot_float_error
F.one_hot(torch.tensor([0., 1.]))
### activations
x = torch.tensor([-2., -0.5, 0., 0.5, 2.], requires_grad=True)
print(nn.functional.relu(x), F.relu(x), torch.relu(x), torch.sigmoid(x), torch.tanh(x), x.sigmoid())
print(F.leaky_relu(x, 0.1), F.elu(x), F.gelu(x), F.silu(x), F.softplus(x), F.hardtanh(x))
print(torch.exp(x), torch.log(x.abs() + 1), torch.sqrt(x.abs()), torch.abs(x), torch.sin(x), torch.cos(x))
print(nn.ReLU()(x), nn.Sigmoid()(x), nn.Tanh()(x), nn.LeakyReLU(0.2)(x), nn.GELU()(x))
### activations_grad
x = torch.tensor([-2., -0.5, 0., 0.5, 2.], requires_grad=True)
for f in [F.relu, torch.sigmoid, torch.tanh, F.leaky_relu, F.elu, F.gelu, F.silu, F.softplus, torch.exp, torch.abs]:
    x.grad = None
    f(x).sum().backward()
    print(f(x).grad_fn, x.grad)
### log_nan_inf
x = torch.tensor([-1., 0., 1.])
print(torch.log(x), torch.sqrt(x), 1 / x, torch.exp(torch.tensor([1000.])), x / 0)
print(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5]))
print(torch.tensor([float('nan'), 1.]), torch.tensor(float('nan')), torch.tensor([float('inf')]))
print(torch.tensor([float('inf'), 1., 2.]), torch.tensor([float('nan'), 1.25, 100.]))
print(torch.tensor([1e-10, 1.]), torch.tensor([1e10, 1.]), torch.tensor([123456789.]), torch.tensor([0.0001]))
### reductions
x = torch.arange(6.).reshape(2, 3)
print(torch.sum(x, dim=0, keepdim=True), x.sum(1), x.sum((0, 1)), x.mean(dim=(0, 1)), x.mean(0))
print(x.std(), x.std(0), x.var(), x.var(1, unbiased=False), x.std(dim=1, keepdim=True))
print(x.prod(), x.prod(1), x.max(), x.min(), x.norm(), x.norm(dim=1), x.abs().sum())
print(x.sum().item(), x.mean().item(), x.sum(dim=-1))
print(torch.mean(x), torch.sum(x), torch.std(x), torch.var(x, 0))
print(torch.cumsum(x, 1), x.cumsum(0))
### reductions_int
x = torch.arange(6).reshape(2, 3)
print(x.sum(), x.sum(0), x.prod(), x.max(), x.min(1))
### mean_int_error
torch.arange(6).mean()
### reductions_grad_fns
x = torch.arange(6.).reshape(2, 3).requires_grad_()
print(x.sum(), x.sum(0), x.mean(), x.mean(1), x.std(), x.var(0), x.prod(), x.norm(), x.max(), x.amax(1))
### std_single
print(torch.tensor([1.]).std(), torch.tensor([1., 2.]).std(unbiased=False))
### integer_division
a = torch.tensor(3)
print(a / 2, torch.tensor([3, 4]) / 2, torch.tensor([3, 4]) // 2, torch.tensor([3, -4]) % 3, torch.tensor([-7]) // 2)
print(torch.tensor([3., -4.]) // 2, torch.tensor([3.5, -4.5]) % 2, 7 // torch.tensor([2, 3]), 7 % torch.tensor([2, 3]))
print(torch.tensor([5, 6]) / torch.tensor([2, 4]), torch.div(torch.tensor([5, -6]), 4, rounding_mode='floor'), torch.div(torch.tensor([5, -6]), 4, rounding_mode='trunc'))
print(torch.tensor([1, 2]) * 1.5, torch.tensor([1, 2]) + 0.5, torch.tensor([1, 2]) - True, 2.5 * torch.tensor([2]))
### int_float_scalar_promo
x = torch.tensor([1, 2, 3])
print((x * 1.0).dtype, (x + 1).dtype, (x / 1).dtype, (x ** 2).dtype, (x ** 0.5).dtype, (x.float() ** 2).dtype)
print(x ** 2, x ** 0.5, 2 ** x, 2.0 ** x, x.pow(2))
print((x * torch.tensor(1.5)).dtype, (x * torch.tensor([1.5])).dtype, (x.double() + torch.tensor([1.])).dtype)
print((torch.tensor([1.], dtype=torch.float16) + torch.tensor([1.])).dtype, (torch.tensor([1], dtype=torch.int32) + 1).dtype)
print((torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype)
### bool_arithmetic
b = torch.tensor([True, False, True])
print(b + b, b * 2, b.sum(), b * 1.5, b & b, b | ~b, b.int(), b.float().mean())
print(b + 1, b ^ b, b.long() * torch.tensor([1, 2, 3]))
### bool_sub_error
b = torch.tensor([True, False])
b - b
### bool_neg_error
b = torch.tensor([True, False])
-b
### int_tensor_true_div_inplace_error
x = torch.tensor([1, 2])
x /= 2
### int_inplace_float_error
x = torch.tensor([1, 2])
x += 1.5
### int_inplace_mul_error
x = torch.tensor([1, 2])
x.mul_(1.5)
### int_inplace_ok
x = torch.tensor([1, 2])
x += 2
x *= 3
x //= 2
print(x)
### arange_float
print(torch.arange(5).float(), torch.arange(5), torch.arange(1, 4), torch.arange(0, 1, 0.25), torch.arange(5.), torch.arange(0, 10, 3))
print(torch.arange(5).dtype, torch.arange(5.).dtype, torch.arange(0, 1, 0.1).shape, torch.arange(-1, 1, 0.5))
print(torch.arange(3, dtype=torch.float32), torch.arange(10, 0, -3))
### linspace_repr
print(torch.linspace(0, 1, 5), torch.linspace(-1, 1, 3), torch.linspace(0, 10, 11), torch.linspace(0, 1, 7))
print(torch.linspace(0, 1, steps=4, dtype=torch.float64), torch.linspace(0., 1., 1), torch.linspace(1, 100, 4))
print(torch.logspace(0, 2, 3))
### repr_wide
print(torch.arange(30.))
print(torch.arange(30))
print(torch.arange(2000.))
print(torch.linspace(0, 1, 20).reshape(4, 5))
print(torch.arange(24.).reshape(2, 3, 4))
### repr_sci
print(torch.tensor([1e-5, 1.]), torch.tensor([1e5, 1e-5]), torch.tensor([0.1, 1000.5]), torch.tensor([100000.]))
print(torch.tensor([1.23456789e8]), torch.tensor([-1e-3, 2.]), torch.tensor(1e-8), torch.tensor(12345.678))
print(torch.tensor([0., -0.]), torch.tensor(-0.), torch.tensor([1., -1.5]))
### repr_int_wide
print(torch.tensor([1, -100, 10000]), torch.tensor([[1, 2], [300, 4]]))
### repr_grad_fn_names
x = torch.tensor([1., 2.], requires_grad=True)
for y in [x + 1, x - 1, x * 2, x / 2, -x, x ** 2, 2 ** x, x.exp(), x.log(), x.sum(), x.mean(), x @ x, x.dot(x), x.abs(), x.sqrt(), 1 / x, 1 - x, x.pow(x), x.clamp(0, 1), x.clamp(min=0), x.relu(), x.reciprocal(), x.square(), x.rsqrt(), x.norm(), x.max(), x.sin(), x.cos(), x.tanh(), x.sigmoid(), x.float(), x.double(), x.clone(), x.view(2), x.reshape(1, 2), x.unsqueeze(0), x.expand(2, 2), x.repeat(2), x.flip(0), x.cumsum(0), x.prod(), x.std(), x.var(), x.log1p(), x.expm1(), x.sign(), x.floor(), x.ceil(), x.round(), x.maximum(x), x.minimum(x), torch.where(x > 1, x, x)]:
    print(y.grad_fn.name())
### repr_grad_fn_more
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
for y in [x.mm(x), x @ x, x.matmul(x), x.t(), x.transpose(0, 1), x[0], x[:, 0], x[0, 0], x[[0]], x.sum(0), x.mean(1), x.softmax(0), x.log_softmax(0), x.logsumexp(0), x.max(0)[0], x.min(1).values, x.mv(x[0]), x.flatten(), x.split(1)[0], x.chunk(2)[1], x.unbind()[0], x.narrow(0, 0, 1), x.gather(0, torch.tensor([[0, 1]])), x.masked_fill(x > 2, 0.), x.squeeze(), x.unsqueeze(1), x.expand_as(x), torch.cat([x, x]), torch.stack([x, x]), x.permute(1, 0), x.diag(), x.trace(), x.tril(), x.triu(), x.addmm(x, x) if hasattr(x, 'addmm') else x, x.bmm(x[None].expand(1, 2, 2)[0][None]) if False else x.sum()]:
    print(y.grad_fn.name())
### zero_grad_forms
x = torch.tensor([1., 2.], requires_grad=True)
(x * 2).sum().backward()
x.grad.data.zero_()
print(x.grad)
(x * 3).sum().backward()
print(x.grad)
x.grad.zero_()
x.grad = None
print(x.grad)
(x * x).sum().backward()
print(x.grad)
### grad_accumulation
x = torch.tensor([1., 2.], requires_grad=True)
for i in range(3):
    (x * x).sum().backward()
    print(x.grad)
### second_backward_error
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
### second_backward_retain
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad)
### backward_nonscalar_error
x = torch.tensor([1., 2.], requires_grad=True)
(x * 2).backward()
### backward_no_grad_error
x = torch.tensor([1., 2.])
x.sum().backward()
### backward_shape_mismatch
x = torch.tensor([1., 2.], requires_grad=True)
(x * 2).backward(torch.ones(3))
### non_leaf_grad_warning
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.sum().backward()
print(y.grad)
### retain_grad
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
z = (y * y).sum()
z.backward()
print(y.grad, y.retains_grad, x.retains_grad, y.is_leaf, z.is_leaf, x.is_leaf)
### is_leaf_cases
a = torch.rand(10, requires_grad=True)
print(a.is_leaf)
b = torch.rand(10, requires_grad=True).double()
print(b.is_leaf)
c = torch.rand(10) + 2
print(c.is_leaf)
d = torch.rand(10).requires_grad_()
print(d.is_leaf)
e = torch.rand(10, requires_grad=True) * 2
print(e.is_leaf, e.requires_grad)
### hooks_tensor
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
h = y.register_hook(lambda g: print('y grad', g))
x.register_hook(lambda g: g * 10)
y.sum().backward()
print(x.grad)
h.remove()
x.grad = None
(x * 2).sum().backward()
print(x.grad)
### hooks_module
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(1.); lin.bias.fill_(0.)
def fwd(m, inp, out):
    print('fwd', type(m).__name__, inp[0].shape, out)
def bwd(m, gin, gout):
    print('bwd', [g if g is None else g.shape for g in gin], gout)
h1 = lin.register_forward_hook(fwd)
h2 = lin.register_full_backward_hook(bwd)
out = lin(torch.tensor([[1., 2.]]))
out.sum().backward()
h1.remove(); h2.remove()
lin(torch.tensor([[1., 2.]]))
### autograd_grad_forms
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
g2 = torch.autograd.grad(g.sum(), x)
print(g2)
z = x * 2
print(torch.autograd.grad(z, x, grad_outputs=torch.ones_like(z)))
print(torch.autograd.grad(outputs=[(x * x).sum()], inputs=[x]))
print(torch.autograd.grad((x * x).sum(), [x], retain_graph=True)[0])
### autograd_grad_unused
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.grad((x * 2).sum(), [x, w], allow_unused=True))
torch.autograd.grad((x * 2).sum(), [x, w])
### autograd_grad_nonscalar
x = torch.tensor([1., 2.], requires_grad=True)
torch.autograd.grad(x * 2, x)
### autograd_grad_no_grad_input
x = torch.tensor([1., 2.])
torch.autograd.grad(x.sum(), x)
### higher_order
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy, = torch.autograd.grad(y, x, create_graph=True)
d2y, = torch.autograd.grad(dy, x, create_graph=True)
d3y, = torch.autograd.grad(d2y, x)
print(dy, d2y, d3y)
x = torch.tensor(1.0, requires_grad=True)
y = torch.sin(x)
g = torch.autograd.grad(y, x, create_graph=True)[0]
g.backward()
print(g, x.grad)
### higher_order_backward_create_graph
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
y.backward(create_graph=True)
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
g = x.grad.sum()
x.grad = None
g.backward()
print(x.grad)
### functional_jacobian_hessian
from torch.autograd.functional import jacobian, hessian
def f(x):
    return x ** 2 + x.sum()
print(jacobian(f, torch.tensor([1., 2.])))
print(hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.])))
print(jacobian(lambda a, b: a * b, (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))
print(torch.autograd.functional.vjp(lambda x: x * 2, torch.tensor([1., 2.]), torch.tensor([1., 1.])))
print(torch.autograd.functional.jvp(lambda x: x * 2, torch.tensor([1., 2.]), torch.tensor([1., 1.])))
print(torch.autograd.functional.hvp(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]), torch.tensor([1., 1.])))
### gradcheck
from torch.autograd import gradcheck
inp = (torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True),)
print(gradcheck(torch.sigmoid, inp, eps=1e-6, atol=1e-4))
print(torch.autograd.gradcheck(lambda x: (x ** 2).sum(), inp))
print(torch.autograd.gradgradcheck(lambda x: (x ** 3).sum(), inp))
### gradcheck_float32_warn
from torch.autograd import gradcheck
inp = (torch.tensor([1., 2.], requires_grad=True),)
print(gradcheck(torch.sigmoid, inp, eps=1e-3, atol=1e-2))
### gradcheck_fail
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 3
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Bad.apply, (x,), raise_exception=False))
torch.autograd.gradcheck(Bad.apply, (x,))
### item_errors
torch.tensor([1., 2.]).item()
### item_values
print(torch.tensor([3]).item(), type(torch.tensor(3).item()).__name__, type(torch.tensor(3.).item()).__name__, torch.tensor(True).item(), torch.tensor([[2.5]]).item())
print(torch.tensor([1., 2.]).tolist(), torch.tensor(1.).tolist(), torch.tensor([[1, 2]]).tolist())
print(float(torch.tensor(1.5)), int(torch.tensor(2.7)), bool(torch.tensor(0.)))
### float_multi_error
float(torch.tensor([1., 2.]))
### bool_multi_error
if torch.tensor([1., 2.]) > 0:
    pass
### requires_grad_int_error
torch.tensor([1, 2], requires_grad=True)
### requires_grad_int_error2
torch.tensor([1, 2]).requires_grad_()
### requires_grad_int_error3
x = torch.tensor([1, 2])
x.requires_grad = True
### requires_grad_nonleaf_error
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.requires_grad = False
### requires_grad_chains
x = torch.zeros(3).requires_grad_()
y = torch.ones(2, 2).requires_grad_(True).sum()
print(x, y, torch.tensor([1.]).requires_grad_(False).requires_grad)
w = torch.empty(3, 3).fill_(0.5).requires_grad_()
print(w.requires_grad, w.is_leaf)
### detach_ops
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.detach()
print(z, z.requires_grad, z.is_leaf, z.grad_fn)
z[0] = 10
print(y)
y.detach_()
print(y.requires_grad, y.grad_fn)
### clone_detach
x = torch.tensor([1., 2.], requires_grad=True)
y = x.clone()
print(y, y.is_leaf)
z = x.detach().clone()
print(z, z.requires_grad)
w = x.clone().detach().requires_grad_(True)
print(w)
### tensor_copy_warning
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor(x)
print(y, y.requires_grad)
### Tensor_legacy
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.Tensor([[1, 2]]).dtype, torch.FloatTensor([1, 2]))
print(torch.LongTensor([1, 2]), torch.DoubleTensor([1.5]))
### Tensor_legacy_empty
print(torch.Tensor(), torch.Tensor().shape)
### indexing_basic
x = torch.arange(12).reshape(3, 4)
print(x[0], x[-1], x[:, 1], x[1:, ::2], x[..., -1], x[None].shape, x[1, 2], x[[0, 2]], x[[0, 2], [1, 3]])
print(x[torch.tensor([0, 2])], x[:, torch.tensor([1])], x[0][1], x[1:2, :].shape)
### index_error
x = torch.arange(6).reshape(2, 3)
x[2]
### index_error_col
x = torch.arange(6).reshape(2, 3)
x[:, 5]
### index_float_error
x = torch.arange(6).reshape(2, 3)
x[1.0]
### index_setitem
x = torch.zeros(3, 3)
x[0] = 1
x[:, 1] = torch.tensor([2., 3., 4.])
x[2, 2] = 9
x[x == 0] = -1
print(x)
x[[0, 1], [2, 2]] = torch.tensor([7., 8.])
print(x)
### index_grad
x = torch.arange(6.).reshape(2, 3).requires_grad_()
y = x[0, 1:] * 2 + x[[1, 1], [0, 0]].sum()
y.sum().backward()
print(x.grad)
### inplace_views_grad
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 1
y[0] = 0
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
### inplace_relu_grad
x = torch.tensor([-1., 2.], requires_grad=True)
y = x * 2
y.relu_()
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
### broadcasting
a = torch.ones(3, 1, requires_grad=True)
b = torch.ones(1, 4, requires_grad=True)
c = a * b
print(c.shape)
c.sum().backward()
print(a.grad, b.grad)
print((torch.ones(2, 3) + torch.tensor([1., 2., 3.])).shape)
### broadcasting_error
torch.ones(2, 3) + torch.ones(2)
### matmul_shapes
a = torch.ones(2, 3); b = torch.ones(3, 4)
print((a @ b).shape, torch.matmul(a, b).shape, torch.mm(a, b).shape, (torch.ones(5, 2, 3) @ b).shape, (a @ torch.ones(3)).shape, (torch.ones(3) @ torch.ones(3)))
print(torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 1)).shape)
### matmul_error
torch.ones(2, 3) @ torch.ones(2, 3)
### mm_error
torch.mm(torch.ones(2, 3), torch.ones(2, 3))
### mm_dtype_error
torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float64)
### mm_int_float_error
torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.long)
### losses
pred = torch.tensor([[0.2, 0.8], [0.6, 0.4]], requires_grad=True)
target = torch.tensor([[0., 1.], [1., 0.]])
print(F.mse_loss(pred, target), nn.MSELoss()(pred, target), nn.L1Loss()(pred, target), F.binary_cross_entropy(pred, target))
print(F.cross_entropy(pred, torch.tensor([1, 0])), nn.NLLLoss()(F.log_softmax(pred, 1), torch.tensor([1, 0])))
print(nn.BCEWithLogitsLoss()(pred, target), F.smooth_l1_loss(pred, target), F.huber_loss(pred, target))
print(nn.CrossEntropyLoss(reduction='none')(pred, torch.tensor([1, 0])), nn.MSELoss(reduction='sum')(pred, target))
### cross_entropy_target_dtype_error
F.cross_entropy(torch.tensor([[0.2, 0.8]]), torch.tensor([1.]))
### cross_entropy_prob_targets
print(F.cross_entropy(torch.tensor([[0.2, 0.8]]), torch.tensor([[0., 1.]])))
### mse_size_warning
F.mse_loss(torch.tensor([[1.], [2.]]), torch.tensor([1., 2.]))
### dataloader
from torch.utils.data import TensorDataset, DataLoader
X = torch.arange(10.).reshape(5, 2)
y = torch.arange(5)
ds = TensorDataset(X, y)
print(len(ds), ds[0])
dl = DataLoader(ds, batch_size=2)
for xb, yb in dl:
    print(xb, yb)
print(len(dl))
### dataloader_custom_dataset
from torch.utils.data import Dataset, DataLoader
class DS(Dataset):
    def __len__(self):
        return 3
    def __getitem__(self, i):
        return torch.tensor([float(i)]), i
for b in DataLoader(DS(), batch_size=2):
    print(b)
### dataloader_dict
from torch.utils.data import DataLoader
data = [{'x': torch.tensor([1., 2.]), 'y': 0}, {'x': torch.tensor([3., 4.]), 'y': 1}]
print(next(iter(DataLoader(data, batch_size=2))))
### random_split
from torch.utils.data import random_split, TensorDataset
ds = TensorDataset(torch.arange(10))
a, b = random_split(ds, [8, 2])
print(len(a), len(b), type(a).__name__)
### module_train_eval
m = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5), nn.BatchNorm1d(2))
print(m.training)
m.eval()
print(m.training, m[1].training)
print(m.train(), m.training)
### module_state_dict
m = nn.Linear(2, 1)
sd = m.state_dict()
print(list(sd.keys()), type(sd).__name__, sd['weight'].shape, sd['weight'].requires_grad)
### module_parameters_list
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(len(list(m.parameters())), [type(p).__name__ for p in m.parameters()])
print(m[0].weight.shape, m[2].bias.shape, m[-1])
print(list(m.children()))
print([n for n, _ in m.named_modules()])
### parameter_repr
p = nn.Parameter(torch.tensor([1., 2.]))
print(p)
print(p * 2)
print(nn.Parameter(torch.tensor([1., 2.]), requires_grad=False))
### conv_shapes
c = nn.Conv2d(1, 2, 3)
print(c, c.weight.shape, c(torch.zeros(1, 1, 5, 5)).shape)
### embedding_shapes
e = nn.Embedding(10, 3)
print(e, e(torch.tensor([1, 2])).shape)
### optim_lr_change
w = torch.tensor([1.], requires_grad=True)
opt = optim.SGD([w], lr=0.1)
for g in opt.param_groups:
    g['lr'] = 0.5
(w * 2).sum().backward()
opt.step()
print(w, opt.param_groups[0]['lr'])
### optim_zero_grad_none
w = torch.tensor([1.], requires_grad=True)
opt = optim.SGD([w], lr=0.1)
(w * 2).sum().backward()
opt.zero_grad()
print(w.grad)
### optim_repr
w = torch.tensor([1.], requires_grad=True)
print(optim.SGD([w], lr=0.1))
print(optim.Adam([w]))
### clamp_forms
x = torch.tensor([-2., 0., 2.])
print(x.clamp(min=0), x.clamp(max=1), x.clamp(-1, 1), torch.clamp(x, min=-1), x.clip(0, 1), x.clamp_min(0), x.clamp_max(0))
print(torch.tensor([1, 5]).clamp(2, 4), torch.tensor([1, 5]).clamp(min=2.5))
### clamp_grad
x = torch.tensor([-2., 0., 0.5, 2.], requires_grad=True)
x.clamp(0, 1).sum().backward()
print(x.grad)
### relu_grad_at_zero
x = torch.tensor([-1., 0., 1.], requires_grad=True)
x.relu().sum().backward()
print(x.grad)
x.grad = None
x.abs().sum().backward()
print(x.grad)
x.grad = None
x.sqrt().sum().backward()
print(x.grad)
### pow_grad_edge
x = torch.tensor([0., 1., -2.], requires_grad=True)
(x ** 2).sum().backward()
print(x.grad)
x.grad = None
(x ** 0.5).sum().backward()
print(x.grad)
### max_grad_ties
x = torch.tensor([1., 3., 3.], requires_grad=True)
x.max().backward()
print(x.grad)
x.grad = None
x.max(0)[0].backward()
print(x.grad)
### norm_grad_zero
x = torch.zeros(3, requires_grad=True)
x.norm().backward()
print(x.grad)
### zeros_ones_forms
print(torch.zeros(2, 3), torch.ones((2,)), torch.zeros([1, 2]), torch.full((2,), 3.), torch.full((2,), 3), torch.eye(2), torch.eye(2, 3))
print(torch.zeros_like(torch.tensor([1, 2])), torch.ones_like(torch.tensor([1., 2.]), dtype=torch.long), torch.full_like(torch.zeros(2), 5))
print(torch.zeros(2).dtype, torch.zeros(()), torch.ones([]), torch.empty(2, 3).shape)
### tensor_creation_errors
torch.tensor([[1, 2], [3]])
### tensor_creation_str_error
torch.tensor('abc')
### split_chunk
x = torch.arange(10)
print(x.split(3), x.chunk(3), torch.split(x, [2, 8]), x.chunk(4))
### sort_topk
x = torch.tensor([3., 1., 2.])
print(x.sort(), torch.sort(x, descending=True), x.topk(2), torch.topk(x, 1).indices, x.argsort())
### flip_roll
x = torch.arange(4)
print(x.flip(0), torch.flip(x, [0]), x.roll(1), torch.roll(x, -1))
### math_funcs
x = torch.tensor([1.5, -2.5, 0.5])
print(x.floor(), x.ceil(), x.round(), torch.round(torch.tensor([0.5, 1.5, 2.5])), x.trunc(), x.frac(), x.sign(), torch.sign(x))
print(torch.exp(torch.tensor(1.)), torch.log2(torch.tensor(8.)), torch.log10(torch.tensor(100.)), torch.pow(x, 2), torch.pow(2, x))
print(torch.tensor(2.).sqrt(), torch.rsqrt(torch.tensor(4.)), torch.tensor([4., 9.]).sqrt())
print(torch.atan2(torch.tensor(1.), torch.tensor(1.)), torch.erf(torch.tensor(0.5)), torch.tan(torch.tensor(0.5)))
### constants
import math
print(torch.pi if hasattr(torch, 'pi') else math.pi, torch.tensor(math.pi), torch.tensor([math.e]))
print(torch.inf if hasattr(torch, 'inf') else float('inf'), torch.nan if hasattr(torch, 'nan') else 0)
### numel_dim
x = torch.zeros(2, 3)
print(torch.numel(x), x.nelement(), x.element_size(), x.is_floating_point(), torch.is_tensor(x), torch.is_floating_point(x))
### einsum_basic
a = torch.arange(6.).reshape(2, 3); b = torch.arange(3.)
print(torch.einsum('ij,j->i', a, b))
### outer_addmm
a = torch.tensor([1., 2.]); b = torch.tensor([3., 4., 5.])
print(torch.outer(a, b), torch.addmm(torch.zeros(2, 2), torch.eye(2), torch.ones(2, 2)))
### diag_trace_tril
x = torch.arange(9.).reshape(3, 3)
print(torch.diag(x), torch.diag(torch.tensor([1., 2.])), x.trace(), torch.tril(x), torch.triu(x, 1))
### numpy_interop
x = torch.tensor([1., 2.])
print(np.array(x), np.asarray(x).dtype, x.numpy().sum(), np.mean(x.numpy()))
print(x + np.float64(1.5), (np.float64(1.5) * x))
### np_scalar_mul_dtype
x = torch.tensor([1., 2.])
print((x * np.float64(2)).dtype, (x + np.int64(1)).dtype)
### in_place_methods
x = torch.tensor([1., 2.])
x.add_(1).mul_(2).sub_(1).div_(2)
print(x)
x.fill_(3)
x.zero_()
print(x)
x.copy_(torch.tensor([5., 6.]))
x.clamp_(max=5.5)
print(x)
x.pow_(2)
print(x, x._version)
### randint_shapes
print(torch.randint(0, 10, (3,)).shape, torch.randint(10, (2, 2)).dtype, torch.randperm(5).sort()[0], torch.randint(3, 5, (1,)).dtype)
print(torch.rand(3).min() >= 0, torch.normal(0., 1., size=(2,)).shape, torch.randn(2, 3).mean(0).shape)
### manual_seed_reproducible
torch.manual_seed(42)
a = torch.randn(3)
torch.manual_seed(42)
b = torch.randn(3)
print(torch.equal(a, b), type(torch.manual_seed(1)).__name__)
### dropout_eval
d = nn.Dropout(p=0.5)
d.eval()
x = torch.ones(4)
print(d(x), F.dropout(x, training=False), F.dropout(x, p=0.).sum())
### dropout_train_shape
d = nn.Dropout(p=0.5)
y = d(torch.ones(1000))
print(y.shape, set(y.unique().tolist()) <= {0.0, 2.0})
### batchnorm_eval
bn = nn.BatchNorm1d(2)
x = torch.tensor([[1., 2.], [3., 6.]])
print(bn(x))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x))
### layernorm
ln = nn.LayerNorm(3)
print(ln(torch.tensor([[1., 2., 3.]])))
print(ln)
### flatten_module
print(nn.Flatten()(torch.zeros(2, 3, 4)).shape, torch.flatten(torch.zeros(2, 3, 4), 1).shape)
### autograd_function_ctx_needs_input_grad
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print(ctx.needs_input_grad)
        return g * b, g * a
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
Mul.apply(a, b).sum().backward()
print(a.grad, b.grad)
### autograd_function_wrong_count
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b
    @staticmethod
    def backward(ctx, g):
        return g
a = torch.tensor([1., 2.], requires_grad=True)
Bad.apply(a, a).sum().backward()
### autograd_function_old_style
class Old(torch.autograd.Function):
    def forward(self, x):
        return x * 2
Old()(torch.tensor([1.]))
### autograd_function_forward_direct
class F2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
print(F2.apply(torch.tensor([1.], requires_grad=True)))
### variable_legacy
from torch.autograd import Variable
v = Variable(torch.tensor([1., 2.]), requires_grad=True)
print(v, type(v).__name__)
(v * 2).sum().backward()
print(v.grad)
### grad_of_nonleaf_none
x = torch.tensor([1.], requires_grad=True)
y = x * 2
print(y.grad_fn.next_functions, y.grad_fn.next_functions[0][0].variable is x)
### saved_tensors_attr
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
z = x.exp()
print(z.grad_fn._saved_result)
### saved_tensor_after_free
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
y.sum().backward()
y.grad_fn._saved_self
### nonleaf_view_inplace_leaf
x = torch.tensor([1., 2.], requires_grad=True)
x[0] = 5
### view_of_leaf_inplace
x = torch.tensor([1., 2.], requires_grad=True)
y = x.view(2)
y.add_(1)
### scalar_tensor_ops
a = torch.tensor(3.)
print(a + 1, a * a, a ** 2, 2 / a, a.sqrt(), -a, abs(-a), a > 2, a.shape, a.dim(), a.numel(), a.item())
print(round(a.item(), 2), a.tolist(), a.view(1), a.reshape(1, 1), a.unsqueeze(0), a[None], a.expand(3))
### scalar_tensor_errors_len
len(torch.tensor(3.))
### scalar_tensor_errors_iter
for v in torch.tensor(3.):
    pass
### scalar_tensor_index
torch.tensor(3.)[0]
### stats_funcs
x = torch.tensor([[1., 2.], [3., 4.]])
print(torch.median(torch.tensor([1., 3., 2.])), x.median(), torch.mode(torch.tensor([1, 1, 2])).values if hasattr(torch, 'mode') else 1)
print(x.cumprod(1), torch.unique(torch.tensor([3, 1, 1, 2])), torch.tensor([1, 1, 2]).bincount() if hasattr(torch.Tensor, 'bincount') else 0)
### where_broadcast_dtypes
x = torch.tensor([1, -2, 3])
print(torch.where(x > 0, x, 0), torch.where(x > 0, x, 0.5), torch.where(x > 0, 1.0, x))
### type_conversion_grad
x = torch.tensor([1., 2.], requires_grad=True)
y = x.double()
print(y, y.dtype)
y.sum().backward()
print(x.grad, x.grad.dtype)
### to_forms
x = torch.tensor([1., 2.])
print(x.to('cpu'), x.to(torch.device('cpu')), x.to('cpu', torch.float64), x.to(dtype=torch.int32), x.to(torch.zeros(1, dtype=torch.float64)).dtype, x.cpu(), x.device, x.is_cuda)
print(torch.cuda.is_available())
### device_str
x = torch.zeros(2)
print(x.device, str(x.device), x.device.type, torch.device('cpu'), torch.zeros(2, device='cpu').device)
### contiguous_stride
x = torch.zeros(2, 3)
print(x.stride(), x.t().stride(), x.t().is_contiguous(), x.t().contiguous().stride())
### expand_repeat
x = torch.tensor([[1.], [2.]])
print(x.expand(2, 3), x.expand(-1, 2), x.repeat(1, 3), x.repeat(2, 1).shape, x.expand_as(torch.zeros(2, 4)).shape)
### expand_error
torch.tensor([[1.], [2.]]).expand(3, 3)
### gather_scatter
x = torch.tensor([[1., 2.], [3., 4.]])
print(x.gather(1, torch.tensor([[0], [1]])), torch.gather(x, 0, torch.tensor([[1, 0]])))
print(torch.zeros(2, 3).scatter_(1, torch.tensor([[0], [2]]), 1.))
### masked_fill
x = torch.tensor([1., 2., 3.])
print(x.masked_fill(x > 1, 0.), x.masked_fill(torch.tensor([True, False, False]), float('-inf')))
### logical_ops
a = torch.tensor([True, False]); b = torch.tensor([True, True])
print(torch.logical_and(a, b), torch.logical_or(a, b), torch.logical_not(a), torch.logical_xor(a, b))
### any_all
x = torch.tensor([[0., 1.], [0., 0.]])
print(x.any(), x.all(), x.any(dim=1), torch.any(x > 0), torch.all(x >= 0), x.bool().any(0))
### count_nonzero
print(torch.count_nonzero(torch.tensor([0, 1, 2])), (torch.tensor([0, 1, 2]) != 0).sum())
### sum_dtype_bool
x = torch.tensor([True, True, False])
print(x.sum(), x.sum().dtype, x.float().sum(), torch.tensor([1, 2], dtype=torch.int32).sum().dtype)
### mean_keepdim
x = torch.arange(6.).reshape(2, 3)
print(x.mean(1, keepdim=True), x.mean(-1).shape, x.sum(dim=[0, 1]), x.sum(axis=0) if True else 0)
### std_grad
x = torch.tensor([1., 2., 4.], requires_grad=True)
x.std().backward()
print(x.grad)
### complex_chain_grad
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = (x.exp() / x.exp().sum(1, keepdim=True)).log()
z = -(y * torch.tensor([[1., 0.], [0., 1.]])).sum(1).mean()
z.backward()
print(z, x.grad)
### nn_init
w = torch.empty(3, 5)
nn.init.constant_(w, 0.3)
print(w)
nn.init.zeros_(w); nn.init.ones_(w)
print(w.sum())
print(nn.init.xavier_uniform_(torch.empty(3, 5)).shape, nn.init.kaiming_normal_(torch.empty(3, 5), mode='fan_out', nonlinearity='relu').shape)
nn.init.eye_(w)
print(w)
### modulelist_dict
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
print(len(ml), ml)
md = nn.ModuleDict({'a': nn.ReLU()})
print(md['a'], md)
### sequential_ordereddict
from collections import OrderedDict
m = nn.Sequential(OrderedDict([('fc', nn.Linear(2, 3)), ('act', nn.ReLU())]))
print(m, m.fc)
### clip_grad_norm
p = nn.Parameter(torch.tensor([3., 4.]))
(p * p).sum().backward()
n = nn.utils.clip_grad_norm_([p], max_norm=1.0)
print(n, p.grad)
### lr_scheduler_steplr
w = torch.tensor([1.], requires_grad=True)
opt = optim.SGD([w], lr=1.0)
sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for e in range(5):
    opt.step()
    sched.step()
    print(e, sched.get_last_lr(), opt.param_groups[0]['lr'])
### sched_before_opt_warning
w = torch.tensor([1.], requires_grad=True)
opt = optim.SGD([w], lr=1.0)
sched = optim.lr_scheduler.StepLR(opt, step_size=2)
sched.step()
### exp_grad_value
x = torch.tensor([0., 1.], requires_grad=True)
y = torch.exp(x)
y.backward(torch.tensor([1., 1.]))
print(x.grad)
### log_softmax_nll
logits = torch.tensor([[2., 1., 0.1]], requires_grad=True)
loss = F.nll_loss(F.log_softmax(logits, dim=1), torch.tensor([0]))
loss.backward()
print(loss, logits.grad)
### sigmoid_bce_manual
x = torch.tensor([0.5, -1.])
w = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor(0., requires_grad=True)
yhat = torch.sigmoid(x @ w + b)
loss = -(1. * torch.log(yhat) + 0 * torch.log(1 - yhat))
loss.backward()
print(yhat, loss, w.grad, b.grad)
### linear_regression_loop
X = torch.linspace(0, 1, 5).unsqueeze(1)
Y = 3 * X + 1
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for i in range(20):
    loss = ((X @ w + b - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_(); b.grad.zero_()
print(w, b, loss)
### linear_regression_sub_not_inplace_error
w = torch.zeros(2, requires_grad=True)
(w * 2).sum().backward()
w = w - 0.1 * w.grad
print(w.is_leaf, w.grad_fn)
(w * 2).sum().backward()
print(w.grad)
### nested_list_tensor
print(torch.tensor([[1., 2.], [3., 4.]]).shape, torch.tensor([[[1]]]).shape, torch.tensor([torch.tensor(1.), torch.tensor(2.)]))
### tensor_list_of_tensors_error
torch.tensor([torch.tensor([1., 2.]), torch.tensor([3., 4.])])
### stack_list_of_scalars
losses = [torch.tensor(1.), torch.tensor(2.)]
print(torch.stack(losses).mean(), torch.tensor(losses))
### sum_python_list_of_tensors
losses = [torch.tensor(1., requires_grad=True) * 2, torch.tensor(2.)]
print(sum(losses))
### hook_modify_grad_print
v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()
### register_hook_no_grad_error
torch.tensor([1.]).register_hook(lambda g: g)
### node_hooks
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad_fn.register_hook(lambda gi, go: print('node', gi, go))
y.grad_fn.register_prehook(lambda go: print('pre', go))
y.sum().backward()
### backward_inputs
x = torch.tensor([1.], requires_grad=True)
w = torch.tensor([2.], requires_grad=True)
(x * w).sum().backward(inputs=[w])
print(x.grad, w.grad)
### torch_autograd_backward
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
torch.autograd.backward(y, torch.ones(2))
print(x.grad)
torch.autograd.backward([(x * x).sum()])
print(x.grad)
### no_grad_param_update_version
p = torch.tensor([1.], requires_grad=True)
y = p * p
with torch.no_grad():
    p.add_(1)
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, 'version' in str(e))
### inplace_on_output_of_view
base = torch.tensor([1., 2., 3., 4.], requires_grad=True)
x = base * 1
v = x[:2]
v.mul_(10)
print(x, x.grad_fn, v.grad_fn)
x.sum().backward()
print(base.grad)
### repr_long_float_vals
print(torch.tensor([0.1, 0.2, 0.3]) * 3, torch.tensor([1/3]), torch.tensor([2/3], dtype=torch.float64), torch.tensor(1/3, dtype=torch.float64))
print(torch.tensor([1.0001, 2.]), torch.tensor([12.5, 100.25]), torch.tensor([-0.0001]), torch.tensor([0.00001, 0.5]))
### repr_nested_empty
print(torch.zeros(0, 3), torch.zeros(2, 0, 3), torch.tensor([[]]))
### repr_bool_2d
print(torch.tensor([[True, False], [False, True]]))
### repr_large_int
print(torch.tensor([2**40, 1]), torch.tensor([-5, 3]), torch.tensor(-7))
### repr_half
print(torch.tensor([1.5, 2.25], dtype=torch.float16), torch.tensor(0.1, dtype=torch.half))
### repr_summarized_2d
print(torch.arange(1100.).reshape(100, 11))
### repr_summarized_int
print(torch.arange(1001))
### set_printoptions
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.]))
torch.set_printoptions(precision=4)
print(torch.tensor([1.23456, 2.]))
### set_printoptions_sci
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-5, 1.]))
torch.set_printoptions(sci_mode=None)
print(torch.tensor([1e-5, 1.]))
### grad_fn_none_leaf
x = torch.tensor([1.], requires_grad=True)
print(x.grad_fn, x.grad, torch.tensor([1.]).grad_fn)
### mul_int_tensor_grad
x = torch.tensor([1., 2.], requires_grad=True)
y = x * torch.tensor([2, 3])
print(y)
y.sum().backward()
print(x.grad)
### float64_float32_mix_grad
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
y = x * w
print(y.dtype, y)
y.sum().backward()
print(x.grad.dtype, w.grad.dtype)
### division_by_zero_int
print(torch.tensor([1, 2]) // torch.tensor([0, 1]) if False else 'skip')
print(torch.tensor([1., 0.]) / torch.tensor([0., 0.]))
### integer_div_zero_error
torch.tensor([1, 2]) // torch.tensor([0, 1])
### tensor_bool_eq_none
x = torch.tensor([1.])
print(x is None, x == None if False else 'skip')
### tensor_in_list
x = torch.tensor([1., 2.])
print(2. in x, 5 in x)
### tensor_hash_dict
a = torch.tensor(1.)
d = {a: 1}
print(len(d))
### math_funcs_grads
x = torch.tensor([0.3, -0.4, 0.0, 1.7], requires_grad=True)
for name in ["tan", "erf", "frac", "log1p", "expm1", "asin", "acos", "atan", "sinh", "cosh"]:
    y = getattr(torch, name)(x)
    y.sum().backward()
    print(name, y, x.grad, [n for n in dir(y.grad_fn) if n.startswith("_saved")])
    x.grad = None
y = torch.atan2(x, x + 1)
y.sum().backward()
print(y, x.grad, torch.arctan2(torch.tensor([1, 2]), torch.tensor([1, 0])))
print(torch.tensor([1e-10]).log1p().item(), torch.tensor([1e-10]).expm1().item())
### amax_amin_ties
m = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)
for y in [m.amax(), m.amax(1), torch.amin(m, (0, 1), keepdim=True), m.amax(-1), m.amin(dim=[0])]:
    y.sum().backward()
    print(y, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, m.grad)
    m.grad = None
### median_mode_ties
m = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)
print(m.median(), torch.median(m, 1), torch.median(m, dim=0, keepdim=True), torch.tensor([1., 2., 3., 4.]).median())
m.median().backward()
print(m.grad)
print(torch.mode(torch.tensor([[3., 1., 3., 1., 2.], [2., 2., 5., 5., 0.]])), torch.tensor([5, 3, 7]).median())
### cumprod_zeros
x = torch.tensor([2., 0., 3., 0.], requires_grad=True)
y = x.cumprod(0)
y.sum().backward()
print(y, x.grad)
x = torch.tensor([[2., 0., 3., 4.], [1., 2., 3., 4.]], requires_grad=True)
y = torch.cumprod(x, dim=1)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(y, g.detach(), torch.autograd.grad(g.sum(), x)[0])  # (g.grad_fn: CopySlices in PyTorch)
print(torch.tensor([1, 2, 3]).cumprod(0), torch.tensor([1., 2., 3.]).cumprod(dim=0, dtype=torch.float64))
### sort_topk_options
x = torch.tensor([[3., 1., 3., 2.], [0., 5., 5., -1.]], requires_grad=True)
print(x.sort(descending=True), torch.sort(x, 0), x.topk(3), x.topk(2, dim=0, largest=False))
print(x.sort()[0].grad_fn._saved_dim, x.topk(1)[0].grad_fn._saved_indices, torch.argsort(x, descending=True))
print(torch.tensor([1., float('nan'), 2.]).sort(), torch.tensor([1., float('nan'), 2.]).sort(descending=True))
### unique_options
print(torch.unique(torch.tensor([3, 1, 1, 2]), return_inverse=True, return_counts=True))
print(torch.tensor([[1, 2], [1, 2], [0, 1]]).unique(dim=0, return_inverse=True), torch.tensor(3.).unique())
print(torch.tensor([1., 5., 1.], requires_grad=True).unique(), torch.tensor([1, 1, 4]).bincount(minlength=6))
### normal_shapes
a = torch.zeros(2, 3, requires_grad=True)
print(torch.normal(a, 1.).shape, torch.normal(0., torch.ones(3)).shape, torch.normal(torch.zeros(3), torch.ones(2, 3)).shape)
print(torch.normal(a, 1.).grad_fn, torch.normal(0., a + 1).grad_fn, torch.normal(a, a + 1).grad_fn)
print(torch.normal(2., 3., (2,)).dtype, torch.normal(0., 1., size=(2,), dtype=torch.float64).dtype)
torch.normal(a, a + 1).sum().backward()
print(a.grad)
### unique_consecutive
print(torch.tensor([1, 2, 2, 3]).unique(), torch.unique(torch.tensor([3., 1.]), return_counts=True))
### sum_empty
print(torch.tensor([]).sum(), torch.zeros(0).mean())
### max_empty_error
torch.tensor([]).max()
### chained_comparison_error
x = torch.tensor([1., 2.])
print(0 < x < 3)
### eye_like_ops
x = torch.eye(3)
print(x * 2 - 1, x.diagonal() if hasattr(x, 'diagonal') else 0)
### mm_vector_error
torch.mm(torch.ones(2, 3), torch.ones(3))
### dot_error
torch.dot(torch.ones(2), torch.ones(3))
### dot_2d_error
torch.dot(torch.ones(2, 2), torch.ones(2, 2))
### linear_input_error
nn.Linear(3, 2)(torch.ones(2, 4))
### linear_int_input_error
nn.Linear(3, 2)(torch.ones(2, 3, dtype=torch.long))
### linear_double_input_error
nn.Linear(3, 2)(torch.ones(2, 3, dtype=torch.double))
### module_double
m = nn.Linear(3, 2).double()
print(m.weight.dtype, m(torch.ones(1, 3, dtype=torch.double)).dtype)
### module_to_dtype
m = nn.Linear(3, 2).to(torch.float64)
print(m.weight.dtype, m.bias.dtype)
### relu_inplace_module
x = torch.tensor([-1., 2.])
r = nn.ReLU(inplace=True)
print(r(x), x, r)
### sum_keepdim_none_dim
x = torch.ones(2, 3)
print(x.sum(dim=None), x.sum(dim=()) if False else 0)
### unsqueeze_error
torch.zeros(2).unsqueeze(3)
### squeeze_dims_tuple
print(torch.zeros(1, 2, 1).squeeze((0, 2)).shape)
### squeeze_dims_tuple_grad
x = torch.ones(1, 3, 1, requires_grad=True)
y = x.squeeze((0, -1))
print(y, y.shape)
(y * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)
### numpy_axis_keywords
x = torch.arange(6.).reshape(2, 3)
print(x.sum(axis=1), torch.sum(x, axis=0, keepdims=True), x.mean(axis=-1, keepdims=True), torch.max(x, axis=0).values, x.argmax(axis=1), x.std(axis=0))
### diag_diagonal_grads
x = torch.arange(9.).reshape(3, 3).requires_grad_()
v = torch.tensor([1., 2.], requires_grad=True)
y = x.diagonal(1)
print(y, y._base is x, torch.diag(v, 1), x.diag(-1))
(y.sum() + x.trace() * 2 + torch.diag(v, 1).sum() + x.diag(-1).pow(2).sum()).backward()
print(x.grad, v.grad)
### diagonal_inplace
a = torch.zeros(3, 3)
a.diagonal().fill_(1.)
a.diagonal(-1).add_(torch.tensor([5., 6.]))
print(a)
b = torch.ones(2, 2, requires_grad=True).clone()
b.diagonal().mul_(3)
print(b)
### roll_grads
x = torch.arange(6.).reshape(2, 3).requires_grad_()
y = x.roll(1, 1)
print(y, x.roll(-1), torch.roll(x, (1, 1), (0, 1)))
(y * torch.arange(6.).reshape(2, 3)).sum().backward()
print(x.grad)
### scatter_grads
x = torch.zeros(2, 4, requires_grad=True)
src = torch.arange(1., 7.).reshape(2, 3).requires_grad_()
index = torch.tensor([[0, 1, 3], [2, 0, 1]])
y = x.scatter(1, index, src)
z = x.scatter_add(1, index, src)
print(y, z, x.scatter(1, index, -1.))
(y * torch.arange(8.).reshape(2, 4)).sum().backward()
print(x.grad, src.grad)
w = torch.zeros(3, 5).scatter_add_(0, torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]]), torch.ones(2, 5))
print(w)
### index_masked_select
x = torch.arange(12.).reshape(3, 4).requires_grad_()
y = x.index_select(1, torch.tensor([0, 2, 0]))
z = torch.masked_select(x, x > 6)
print(y, z)
(y.sum() + z.sum()).backward()
print(x.grad)
### einsum_grads
a = torch.arange(6.).reshape(2, 3).requires_grad_()
b = torch.arange(12.).reshape(3, 4).requires_grad_()
s = torch.tensor([[1., 2.], [3., -4.]], requires_grad=True)
print([t.detach() for t in (torch.einsum('ij,jk->ik', a, b), torch.einsum('ij->ji', a), torch.einsum('i,j->ij', a[0], b[0]), torch.einsum('...ij->...', a))])
(torch.einsum('ij,jk->ik', a, b).sum() + torch.einsum('bij,bjk->bik', a[None], b[None]).pow(2).sum()).backward()
print(a.grad, b.grad)
(-torch.einsum('ii', s)).backward()
print(s.grad)
### einsum_grad_fn
a = torch.ones(2, 3, requires_grad=True)
print(torch.einsum('ij,kj->ik', a, a))
### permute_error
torch.zeros(2, 3).permute(0)
### transpose_error
torch.zeros(2, 3).transpose(0, 2)
### sum_dim_error
torch.zeros(2, 3).sum(2)
### zeros_neg_error
torch.zeros(-1)
### grad_none_after_no_backward
x = torch.tensor([1.], requires_grad=True)
print(x.grad is None)
### tensor_add_list_error
torch.tensor([1., 2.]) + [1, 2]
### tensor_add_str_error
torch.tensor([1., 2.]) + 'a'
### mul_numpy_array
x = torch.tensor([1., 2.])
r = x * np.array([2., 3.])
print(type(r).__name__, r)
### numpy_mul_tensor
x = torch.tensor([1., 2.])
r = np.array([2., 3.]) * x
print(type(r).__name__)
### inplace_ops_return_self
x = torch.zeros(2)
print(x.add_(1) is x, x.mul_(2) is x, x.zero_() is x, x.requires_grad_() is x)
### backward_twice_nonleaf_retain
x = torch.tensor([2.], requires_grad=True)
y = x ** 2
z = y * 3
z.backward(retain_graph=True)
z.backward()
print(x.grad)
### grad_accumulate_nonleaf_retain
x = torch.tensor([2.], requires_grad=True)
y = x ** 2
y.retain_grad()
z = y * 3
z.backward(retain_graph=True)
z.backward()
print(y.grad, x.grad)
### autograd_grad_create_graph_hessian_vec
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2).prod()
g = torch.autograd.grad(y, x, create_graph=True)[0]
H = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(2)])
print(g, H)
### backward_on_int_loss
x = torch.tensor([1., 2.], requires_grad=True)
y = (x > 1).sum()
print(y.requires_grad)
y.backward()
### argmax_no_grad
x = torch.tensor([1., 2.], requires_grad=True)
print(x.argmax(), x.argmax().requires_grad, (x > 1).requires_grad, x.sign().requires_grad, x.round())
### floor_grad
x = torch.tensor([1.5, 2.5], requires_grad=True)
x.floor().sum().backward()
print(x.grad)
### sort_grad
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = x.sort()
(v * torch.tensor([1., 2., 3.])).sum().backward()
print(v, i, x.grad)
### topk_grad
x = torch.tensor([3., 1., 2.], requires_grad=True)
x.topk(2).values.sum().backward()
print(x.grad, x.topk(2))
### tensor_format_int
x = torch.tensor(5)
print(f"{x}", f"{x:3d}", "%d" % x, "%.1f" % torch.tensor(2.5), "{:.3f}".format(torch.tensor(1.)))
### tensor_round_builtin
print(round(torch.tensor(2.567).item(), 2), round(torch.tensor(2.567), 2))
### tensor_numpy_float
print(np.float32(torch.tensor(2.5)), float(torch.tensor([2.5])))
### cosine_similarity
a = torch.tensor([[1., 0.], [1., 1.]]); b = torch.tensor([[1., 0.], [0., 1.]])
print(F.cosine_similarity(a, b), F.normalize(a, dim=1), torch.cdist(a, b) if hasattr(torch, 'cdist') else 0)
### pad_interpolate
print(F.pad(torch.ones(2, 2), (1, 1)))
### conv_forward_values
c = nn.Conv2d(1, 1, 2, bias=False)
with torch.no_grad():
    c.weight.fill_(1.)
print(c(torch.arange(9.).reshape(1, 1, 3, 3)))
### maxpool
print(F.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2), nn.MaxPool2d(2)(torch.zeros(1, 1, 4, 4)).shape)
### sequential_append
m = nn.Sequential()
m.append(nn.Linear(1, 1))
m.add_module('relu', nn.ReLU())
print(m, len(m))
### parameters_count_requires_grad
m = nn.Linear(10, 5)
print(sum(p.numel() for p in m.parameters() if p.requires_grad))
### adam_step_values
w = torch.tensor([1.0, -1.0], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
for _ in range(3):
    opt.zero_grad()
    ((w - 2) ** 2).sum().backward()
    opt.step()
print(w)
### adam_weight_decay
w = torch.tensor([1.0, -1.0], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1, weight_decay=0.1, betas=(0.8, 0.9))
for _ in range(3):
    opt.zero_grad()
    ((w - 2) ** 2).sum().backward()
    opt.step()
print(w)
### sgd_nesterov_wd
w = torch.tensor([1.0, -1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
for _ in range(3):
    opt.zero_grad()
    ((w - 2) ** 2).sum().backward()
    opt.step()
print(w)
### optim_param_groups
a = torch.tensor([1.], requires_grad=True); b = torch.tensor([1.], requires_grad=True)
opt = optim.SGD([{'params': [a]}, {'params': [b], 'lr': 0.01}], lr=0.1, momentum=0.9)
print([g['lr'] for g in opt.param_groups], len(opt.param_groups), opt.defaults['momentum'])
### optim_empty_error
optim.SGD([], lr=0.1)
### optim_no_lr
print(optim.SGD([torch.tensor([1.], requires_grad=True)]).defaults['lr'])
### optim_step_no_grad
w = torch.tensor([1.], requires_grad=True)
opt = optim.Adam([w])
opt.step()
print(w)
### tensor_methods_exist
x = torch.tensor([1., 2.])
for name in ['add', 'sub', 'mul', 'div', 'pow', 'exp', 'log', 'sum', 'mean', 'view', 'reshape', 'numpy', 'tolist', 'item', 'backward', 'detach', 'clone', 'new_zeros', 'new_ones', 'new_tensor', 'new_full', 'new_empty', 'type_as', 'view_as', 'masked_fill', 'abs', 'log_softmax', 'softmax', 'size', 'dim', 'cumsum', 'cumprod', 'diff', 'flip', 'roll', 'argsort', 'unique', 'nonzero', 'sign', 'floor', 'ceil', 'round', 'fmod', 'remainder', 'logical_and', 'logical_or', 'lerp', 'addcmul', 'addcdiv', 'sinh', 'cosh', 'asin', 'acos', 'atan', 'erf', 'log2', 'log10', 'square', 'mean', 'median', 'min', 'max', 'amin', 'amax', 'aminmax', 'msort', 'tril', 'triu', 'diag', 'diagonal', 'trace', 'index_select', 'masked_select', 'scatter', 'scatter_add', 'index_add', 'take', 'repeat_interleave', 'tile', 'movedim', 'moveaxis', 'hardshrink', 'nan_to_num', 'isclose', 'where', 'clamp_', 'fill_diagonal_', 'apply_', 'map_', 'sum_to_size', 'int', 'short', 'char', 'byte', 'std_mean' if False else 'std', 'is_leaf', 'grad_fn', 'data', 'T', 'H', 'mT', 'shape', 'dtype', 'device', 'is_cuda', 'requires_grad', 'retain_grad', 'register_hook', 'zero_', 'uniform_', 'normal_', 'fill_', 'bernoulli', 'multinomial', 'exponential_', 'geometric_', 'log_normal_', 'cauchy_', 'random_', 'dist', 'cross', 'logdet', 'det', 'inverse', 'pinverse', 'norm', 'renorm', 'squeeze_', 'unsqueeze_', 't_', 'transpose_', 'resize_', 'abs_', 'floor_', 'log_', 'sin_', 'fmod_', 'remainder_', 'logsumexp', 'logit', 'xlogy', 'positive', 'signbit', 'heaviside', 'bitwise_and', 'float_power', 'true_divide', 'floor_divide', 'sgn', 'angle', 'conj', 'real', 'storage', 'untyped_storage', 'share_memory_', 'pin_memory', 'to_dense', 'is_sparse', 'nbytes', 'itemsize', 'names', 'layout', 'is_shared']:
    if not hasattr(x, name):
        print('missing', name)
### torch_funcs_exist
for name in ['abs', 'add', 'addmm', 'all', 'allclose', 'amax', 'any', 'arange', 'argmax', 'argmin', 'argsort', 'as_tensor', 'atan2', 'bmm', 'broadcast_tensors', 'broadcast_to', 'cat', 'cdist', 'ceil', 'chunk', 'clamp', 'clip', 'clone', 'column_stack', 'concat', 'cos', 'cosh', 'count_nonzero', 'cumprod', 'cumsum', 'diag', 'diagonal', 'diff', 'dist', 'div', 'dot', 'einsum', 'empty', 'eq', 'equal', 'erf', 'exp', 'expm1', 'eye', 'flatten', 'flip', 'floor', 'fmod', 'from_numpy', 'full', 'full_like', 'gather', 'ge', 'gt', 'hstack', 'index_select', 'inverse', 'isclose', 'isfinite', 'isinf', 'isnan', 'kron', 'le', 'lerp', 'linspace', 'log', 'log10', 'log1p', 'log2', 'log_softmax', 'logical_and', 'logical_not', 'logical_or', 'logspace', 'logsumexp', 'lt', 'manual_seed', 'masked_fill', 'masked_select', 'matmul', 'max', 'maximum', 'mean', 'median', 'meshgrid', 'min', 'minimum', 'mm', 'mul', 'multinomial', 'mv', 'narrow', 'ne', 'neg', 'nonzero', 'norm', 'normal', 'numel', 'ones', 'ones_like', 'outer', 'permute', 'pow', 'prod', 'rand', 'rand_like', 'randint', 'randn', 'randn_like', 'randperm', 'reciprocal', 'relu', 'remainder', 'repeat_interleave', 'reshape', 'roll', 'round', 'rsqrt', 'scatter', 'searchsorted', 'select', 'sigmoid', 'sign', 'sin', 'sinh', 'softmax', 'sort', 'split', 'sqrt', 'square', 'squeeze', 'stack', 'std', 'sub', 'sum', 'swapaxes', 't', 'take', 'tan', 'tanh', 'tensor', 'tensordot', 'tile', 'topk', 'trace', 'transpose', 'tril', 'triu', 'trunc', 'unbind', 'unique', 'unsqueeze', 'var', 'var_mean', 'std_mean', 'vstack', 'where', 'zeros', 'zeros_like', 'no_grad', 'enable_grad', 'set_grad_enabled', 'is_grad_enabled', 'inference_mode', 'get_default_dtype', 'set_default_dtype', 'set_printoptions', 'is_tensor', 'is_floating_point', 'set_num_threads' if False else 'is_tensor', 'Size', 'device', 'dtype', 'float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool', 'long', 'int', 'float', 'double', 'half', 'short', 'cfloat' if False else 'float', 'pi', 'inf', 'nan', 'e', 'cuda', 'backends', 'save', 'load', 'sigmoid', 'autograd', 'nn', 'optim', 'utils', 'Generator', 'get_rng_state', 'seed', 'initial_seed', 'bernoulli', 'cumsum', 'detach', 'exp2' if False else 'exp', 'heaviside', 'histc', 'bincount', 'cartesian_prod', 'cross', 'tensor_split', 'hsplit', 'dsplit' if False else 'split', 'block_diag', 'cov', 'corrcoef', 'triu_indices', 'tril_indices', 'empty_like', 'scalar_tensor', 'clamp_min', 'clamp_max', 'rsub', 'addcmul', 'addcdiv', 'baddbmm', 'chain_matmul' if False else 'matmul', 'linalg', 'special', 'fft' if False else 'nn', 'compile', 'jit', 'typename', 'promote_types', 'result_type', 'can_cast', 'finfo', 'iinfo', 'use_deterministic_algorithms', 'is_nonzero', 'numel', 'xlogy', 'logit', 'square', 'amin', 'aminmax', 'nanmean', 'nansum', 'frac', 'float_power', 'floor_divide', 'true_divide', 'negative', 'positive', 'softmax', 'dropout', 'relu_', 'celu', 'selu', 'threshold']:
    if not hasattr(torch, name):
        print('missing', name)
### F_funcs_exist
for name in ['relu', 'relu6', 'elu', 'selu', 'celu', 'gelu', 'silu', 'mish', 'leaky_relu', 'prelu', 'rrelu', 'glu', 'hardtanh', 'hardswish', 'hardsigmoid', 'logsigmoid', 'softplus', 'softsign', 'softmin', 'softmax', 'log_softmax', 'tanh', 'sigmoid', 'tanhshrink', 'threshold', 'linear', 'bilinear', 'dropout', 'dropout1d', 'dropout2d', 'embedding', 'one_hot', 'pad', 'interpolate', 'conv1d', 'conv2d', 'conv_transpose2d', 'max_pool1d', 'max_pool2d', 'avg_pool1d', 'avg_pool2d', 'adaptive_avg_pool2d', 'adaptive_max_pool2d', 'batch_norm', 'layer_norm', 'group_norm', 'instance_norm', 'normalize', 'cosine_similarity', 'pairwise_distance', 'mse_loss', 'l1_loss', 'smooth_l1_loss', 'huber_loss', 'cross_entropy', 'nll_loss', 'binary_cross_entropy', 'binary_cross_entropy_with_logits', 'kl_div', 'margin_ranking_loss', 'hinge_embedding_loss', 'triplet_margin_loss', 'cosine_embedding_loss', 'poisson_nll_loss', 'gaussian_nll_loss', 'multi_margin_loss', 'soft_margin_loss', 'unfold', 'fold', 'scaled_dot_product_attention', 'grid_sample', 'pixel_shuffle']:
    if not hasattr(F, name):
        print('missing', name)
### nn_modules_exist
for name in ['Module', 'Sequential', 'ModuleList', 'ModuleDict', 'ParameterList', 'ParameterDict', 'Parameter', 'Linear', 'Bilinear', 'Identity', 'Conv1d', 'Conv2d', 'ConvTranspose2d', 'MaxPool1d', 'MaxPool2d', 'AvgPool2d', 'AdaptiveAvgPool2d', 'BatchNorm1d', 'BatchNorm2d', 'LayerNorm', 'GroupNorm', 'Dropout', 'Dropout2d', 'Embedding', 'EmbeddingBag', 'RNN', 'LSTM', 'GRU', 'RNNCell', 'LSTMCell', 'GRUCell', 'Transformer', 'MultiheadAttention', 'TransformerEncoderLayer', 'ReLU', 'ReLU6', 'LeakyReLU', 'PReLU', 'ELU', 'SELU', 'CELU', 'GELU', 'SiLU', 'Mish', 'Sigmoid', 'Tanh', 'Softmax', 'LogSoftmax', 'Softplus', 'Softsign', 'Hardtanh', 'Hardswish', 'Hardsigmoid', 'LogSigmoid', 'Threshold', 'Flatten', 'Unflatten', 'MSELoss', 'L1Loss', 'SmoothL1Loss', 'HuberLoss', 'CrossEntropyLoss', 'NLLLoss', 'BCELoss', 'BCEWithLogitsLoss', 'KLDivLoss', 'MarginRankingLoss', 'HingeEmbeddingLoss', 'CosineEmbeddingLoss', 'TripletMarginLoss', 'CosineSimilarity', 'PairwiseDistance', 'Upsample', 'ZeroPad2d', 'init', 'utils', 'functional']:
    if not hasattr(nn, name):
        print('missing', name)
### optim_exist
for name in ['SGD', 'Adam', 'AdamW', 'RMSprop', 'Adagrad', 'Adadelta', 'Adamax', 'NAdam', 'RAdam', 'LBFGS', 'Optimizer', 'lr_scheduler']:
    if not hasattr(optim, name):
        print('missing', name)
for name in ['StepLR', 'MultiStepLR', 'ExponentialLR', 'CosineAnnealingLR', 'ReduceLROnPlateau', 'LambdaLR', 'OneCycleLR', 'LinearLR', 'CyclicLR', 'CosineAnnealingWarmRestarts', 'SequentialLR', 'MultiplicativeLR', 'ConstantLR', 'PolynomialLR', 'ChainedScheduler']:
    if not hasattr(optim.lr_scheduler, name):
        print('missing', name)
### rng_rand_matrix
import hashlib
def digest(t):
    return hashlib.sha1(t.numpy().tobytes()).hexdigest()[:16]
for seed in [0, 1, 42, 2**32 + 5, -1]:
    for n in [1, 7, 15, 16, 17, 100, 1000, 1025]:
        for dtype in [torch.float32, torch.float64]:
            torch.manual_seed(seed)
            print(seed, n, dtype, digest(torch.rand(n, dtype=dtype)), digest(torch.empty(n, dtype=dtype).uniform_(-2.5, 0.75)))
### rng_randn_matrix
import hashlib
def digest(t):
    return hashlib.sha1(t.numpy().tobytes()).hexdigest()[:16]
for seed in [0, 1, 42, 2**32 + 5, -1]:
    for n in [1, 7, 15, 16, 17, 31, 100, 1000, 1025]:
        for dtype in [torch.float32, torch.float64]:
            torch.manual_seed(seed)
            print(seed, n, dtype, digest(torch.randn(n, dtype=dtype)), digest(torch.empty(n, dtype=dtype).normal_(0.5, 3.0)), digest(torch.randn(3, n, dtype=dtype)))
torch.manual_seed(0)
print(torch.randn(2, 3))
print(torch.rand(2, 3))
### rng_normal_cache_and_mixed_sequence
import hashlib
def digest(t):
    return hashlib.sha1(t.numpy().tobytes()).hexdigest()[:16]
torch.manual_seed(3)
for n in [1, 3, 1, 20, 5, 2, 17, 1]:
    print(digest(torch.randn(n)), digest(torch.rand(n)), digest(torch.randint(0, 100, (n,))), digest(torch.randn(n, dtype=torch.float64)))
    print(digest(torch.randperm(n + 3)), digest(torch.empty(n).exponential_()), digest(torch.empty(n).bernoulli_(0.3)))
print(torch.randn(5))
print(torch.rand(4, 4).t().normal_().shape)
print(digest(torch.empty(6, 5).t().uniform_()), digest(torch.empty(20, 3).t().normal_()))
### rng_integers
import hashlib
def digest(t):
    return hashlib.sha1(t.numpy().tobytes()).hexdigest()[:16]
for seed in [0, 7, 123456789]:
    torch.manual_seed(seed)
    print(torch.randint(10, (8,)), torch.randint(-5, 5, (2, 4)), torch.randint(3, 10, (3,), dtype=torch.float32))
    print(torch.randint(0, 2**40, (4,)), torch.randint(0, 10, (4,), dtype=torch.int32), torch.randint(low=2, high=9, size=(3,)), torch.randint(high=4, size=(3,)))
    print(torch.randperm(10), torch.randperm(5, dtype=torch.float32), digest(torch.randperm(1000)), digest(torch.randperm(70000)))
    print(torch.empty(4, dtype=torch.int64).random_(), torch.empty(4).random_(), torch.empty(3, dtype=torch.float64).random_(), torch.empty(4, dtype=torch.int32).random_(5), torch.empty(4).random_(2, 7), torch.empty(5, dtype=torch.bool).random_(), torch.empty(3, dtype=torch.uint8).random_())
    print(torch.randint_like(torch.zeros(3), 5), torch.randint_like(torch.zeros(2, dtype=torch.int64), 2, 9))
### rng_keyword_forms
torch.manual_seed(0)
print(torch.randn(size=(2, 3)))
print(torch.rand(size=[2]), torch.rand((2,)), torch.rand([1, 2]), torch.randn(2, 2, dtype=torch.float64), torch.rand(2, device='cpu'))
out = torch.empty(3)
r = torch.randn(3, out=out)
print(r is out, out)
g = torch.Generator()
g.manual_seed(5)
print(torch.randn(2, generator=g), torch.rand(2, generator=g), torch.randint(0, 9, (3,), generator=g), torch.randperm(4, generator=g))
print(torch.normal(0.0, 1.0, size=(3,)), torch.normal(2.0, 3.0, (2,), generator=g), torch.randn(()), torch.rand(0))
print(torch.rand_like(torch.zeros(2)), torch.randn_like(torch.zeros(2, dtype=torch.float64)))
for bad in [lambda: torch.randn(size=3), lambda: torch.randint(5), lambda: torch.randint(5, 5, (2,)), lambda: torch.rand(2, generator=5), lambda: torch.randn(-1)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0])
### rng_normal_tensor_args
torch.manual_seed(0)
m = torch.zeros(20, requires_grad=True)
a = torch.normal(m, 2.0)
print(a.grad_fn, a[:4])
b = torch.normal(1.0, torch.ones(17) * 0.5)
print(b.grad_fn, b[:4])
c = torch.normal(torch.arange(4.), torch.ones(4))
print(c.grad_fn, c)
print(torch.normal(torch.zeros(2, 3, dtype=torch.float64), 1.0))
### rng_distributions
torch.manual_seed(0)
print(torch.empty(5).cauchy_(), torch.empty(5).log_normal_(), torch.empty(5).geometric_(0.3), torch.empty(4, dtype=torch.float64).exponential_(3.0))
p = torch.rand(3, 4)
print(torch.bernoulli(p), torch.bernoulli(p.double()), torch.bernoulli(torch.ones(3), 0.5), p.bernoulli(), torch.empty(2, 3).bernoulli_(torch.tensor([0.1, 0.9, 0.5])))
for bad in [lambda: torch.empty(2).bernoulli_(1.5), lambda: torch.zeros(2, dtype=torch.int64).uniform_(), lambda: torch.zeros(2, dtype=torch.int64).normal_(), lambda: torch.empty(2).exponential_(-1.0), lambda: torch.empty(2).geometric_(1.5)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0])
### rng_multinomial
torch.manual_seed(0)
p = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.multinomial(p, 1), torch.multinomial(p, 1, replacement=True), torch.multinomial(p, 3), torch.multinomial(p, 8, replacement=True))
P = torch.rand(3, 27)
print(torch.multinomial(P, 10, replacement=True), torch.multinomial(P.double(), 4), P.multinomial(2))
g = torch.Generator().manual_seed(2147483647)
probs = torch.rand(27, generator=g)
probs = probs / probs.sum()
print(torch.multinomial(probs, num_samples=20, replacement=True, generator=g))
print(torch.multinomial(torch.tensor([0.6, 0.3, 0.1]), 4, replacement=True, generator=torch.Generator().manual_seed(2147483647)))
for bad in [lambda: torch.multinomial(p, 5), lambda: torch.multinomial(torch.tensor([-1., 2.]), 1), lambda: torch.multinomial(torch.tensor([0., 0.]), 2, True), lambda: torch.multinomial(torch.tensor([1, 2]), 1), lambda: torch.multinomial(torch.zeros(2, 2, 2), 1), lambda: torch.multinomial(p, 0)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0])
### rng_generator_objects
g = torch.Generator()
print(g.initial_seed(), g.device)
print(g.manual_seed(7) is g, g.initial_seed())
s = g.get_state()
print(s.dtype, s.shape, s[:12], s[16:24])
a = torch.randn(5, generator=g)
g.set_state(s)
print(torch.equal(a, torch.randn(5, generator=g)))
torch.manual_seed(-1)
print(torch.initial_seed())
torch.manual_seed(2**40 + 3)
print(torch.initial_seed(), torch.rand(2))
torch.manual_seed(1.7)
print(torch.initial_seed())
for bad in [lambda: torch.manual_seed(2**64), lambda: g.set_state(torch.zeros(10, dtype=torch.uint8)), lambda: g.set_state(torch.zeros(5056))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0])
torch.manual_seed(0)
torch.randn(3)
st = torch.get_rng_state()
print(st.shape, st[:24], st[5040:])
x = torch.randn(4)
torch.set_rng_state(st)
print(torch.equal(x, torch.randn(4)))
import hashlib
print(hashlib.sha1(st.numpy().tobytes()).hexdigest())
torch.manual_seed(0)
torch.randn(1)
st = torch.get_rng_state()
print(st[5020:], hashlib.sha1(st.numpy().tobytes()).hexdigest())
s2 = torch.seed()
print(torch.initial_seed() == s2)
### rng_module_init
torch.manual_seed(0)
lin = nn.Linear(4, 3)
print(lin.weight, lin.bias)
conv = nn.Conv2d(2, 3, 3)
print(conv.weight[0, 0], conv.bias)
emb = nn.Embedding(5, 3, padding_idx=0)
print(emb.weight)
bil = nn.Bilinear(2, 3, 2)
print(bil.weight.sum(), bil.bias)
model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 2))
print([p.sum().item() for p in model.parameters()])
w = torch.empty(3, 5)
for init in [lambda: nn.init.uniform_(w), lambda: nn.init.normal_(w, 0.5, 2.0), lambda: nn.init.xavier_uniform_(w), lambda: nn.init.xavier_normal_(w, gain=2.0), lambda: nn.init.kaiming_uniform_(w, a=0.1), lambda: nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'), lambda: nn.init.uniform_(w, -1, 1, generator=torch.Generator().manual_seed(3))]:
    print(init())
### rng_dropout
torch.manual_seed(0)
x = torch.ones(4, 6, requires_grad=True)
y = F.dropout(x, 0.3)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
d = nn.Dropout(0.5)
print(d(torch.ones(20)))
d.eval()
print(d(torch.ones(3)))
print(nn.Dropout2d(0.5)(torch.ones(2, 4, 2, 2)).sum(dim=(2, 3)))
print(F.dropout(torch.ones(3, 4, dtype=torch.float64), 0.25))
print(F.dropout1d(torch.ones(2, 3, 4), 0.5).sum(-1))
z = torch.ones(5)
print(F.dropout(z, 0.5, inplace=True) is z, z)
### rng_dataloader_shuffle
from torch.utils.data import DataLoader, TensorDataset, RandomSampler, SubsetRandomSampler, WeightedRandomSampler, random_split
torch.manual_seed(0)
ds = TensorDataset(torch.arange(10.), torch.arange(10))
loader = DataLoader(ds, batch_size=4, shuffle=True)
for epoch in range(2):
    print([y.tolist() for _, y in loader])
print(torch.rand(1))
it = iter(loader)
print(torch.rand(1))
print(next(it)[1])
g = torch.Generator().manual_seed(1)
print([y.tolist() for _, y in DataLoader(ds, batch_size=5, shuffle=True, generator=g)])
print(list(RandomSampler(ds, replacement=True, num_samples=40)))
print(list(RandomSampler(ds, num_samples=13)))
print(list(SubsetRandomSampler([10, 20, 30, 40])), list(WeightedRandomSampler([0.1, 0.9, 0.4], 5)), list(WeightedRandomSampler([0.1, 0.9, 0.4], 2, replacement=False)))
print([s.indices for s in random_split(ds, [3, 7])], [len(s) for s in random_split(ds, [0.5, 0.5], generator=torch.Generator().manual_seed(42))])
print(torch.rand(2))
### rng_dataloader_workers
import random
from torch.utils.data import DataLoader, Dataset, get_worker_info
class Noisy(Dataset):
    def __len__(self):
        return 8
    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor(float(i)) + torch.rand(()), (info.id if info is not None else -1), random.random()
def init_fn(worker_id):
    print('init', worker_id, get_worker_info().seed - get_worker_info().seed % 1, get_worker_info().num_workers)
torch.manual_seed(0)
random.seed(0)
print(get_worker_info())
for workers in [0, 2]:
    for x, wid, r in DataLoader(Noisy(), batch_size=2, shuffle=True, num_workers=workers):
        print(x, wid.tolist(), r)
print(torch.rand(1), random.random())
loader = DataLoader(Noisy(), batch_size=3, num_workers=2, persistent_workers=True, shuffle=True)
for epoch in range(2):
    print([wid.tolist() for _, wid, _ in loader])
for bad in [lambda: DataLoader(Noisy(), num_workers=-1), lambda: DataLoader(Noisy(), prefetch_factor=2), lambda: DataLoader(Noisy(), persistent_workers=True)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0])
### api_meshgrid
a = torch.tensor([1., 2, 3], requires_grad=True)
b = torch.tensor([4., 5])
x, y = torch.meshgrid(a, b)
print(x, y, x.grad_fn.name(), x.grad_fn.next_functions[0][0].name())
x2, y2 = torch.meshgrid([a, b], indexing='xy')
print(x2, y2, x2.shape)
(x2 * 2 + y2).sum().backward()
print(a.grad)
print(torch.meshgrid(a, indexing='ij'), torch.meshgrid(torch.tensor(3.), indexing='ij'))
xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing='xy')
print(xs, ys)
for bad in [lambda: torch.meshgrid(a, b, indexing='foo'), lambda: torch.meshgrid(a, b.double(), indexing='ij'), lambda: torch.meshgrid(indexing='ij')]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
print(torch.cartesian_prod(a, b), torch.cartesian_prod(a, b).grad_fn.name())
import torch.functional
print(torch.functional.meshgrid is torch.meshgrid)
### api_misc_functions
print(torch.histc(torch.tensor([1., 2, 1, 4]), bins=4, min=0, max=3), torch.histc(torch.tensor([1., 2, 1]), bins=4))
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=torch.tensor([1., 2., 4.])))
print(torch.histogram(torch.tensor([1., 2, 1]), torch.tensor([0., 1, 2, 3]), density=True))
print(torch.bitwise_xor(torch.tensor([5, 3]), 1), torch.tensor([5]).bitwise_xor(torch.tensor([1])), torch.bitwise_and(torch.tensor([6]), torch.tensor([3])), torch.bitwise_not(torch.tensor([True, False])))
print(torch.eq(torch.tensor([1, 2]), 2), torch.ne(torch.tensor([1, 2]), 2), torch.gt(torch.tensor([1., 3.]), torch.tensor([2., 2.])), torch.le(torch.tensor([1]), 1))
for bad in [lambda: torch.histc(torch.tensor([1, 2])), lambda: torch.bitwise_xor(torch.tensor([1.]), torch.tensor([2.]))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
print(torch.get_default_device())
torch.set_default_device('cpu')
print(torch.get_default_device(), torch.accelerator.is_available(), torch.accelerator.current_accelerator(), torch.accelerator.device_count())
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(device, torch.device('cuda'), repr(torch.device('cuda:1')), torch.device('cpu') == torch.device('cpu'), torch.ones(1).device)
print(torch.broadcast_shapes((2, 1), (3,)), torch.tensordot(torch.ones(2, 3), torch.ones(3, 4), dims=1).shape, torch.atleast_2d(torch.tensor(1.)))
### api_inplace_twins
x = torch.tensor([0.5], requires_grad=True) * 1
x.cos_()
print(x.grad_fn, x)
x = torch.tensor([0.5, -1.2])
print(x.abs_(), x.floor_(), torch.tensor([2.7]).round_(), torch.tensor([4.]).sqrt_(), torch.tensor([0.3]).sin_(), torch.tensor([2.]).log_(), torch.tensor([-2.]).sign_(), torch.tensor([5.]).remainder_(3))
w = torch.ones(3, requires_grad=True)
y = w * 2
y.sin_()
y.sum().backward()
print(w.grad)
### behaviour_mul_saved_hooks_order
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
order = []
def pack(t):
    order.append(('pack', t.tolist()))
    return t
def unpack(t):
    order.append(('unpack', t.tolist()))
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    c = a * b
print(order)
order.clear()
c.sum().backward()
print(order, a.grad, b.grad)
### behaviour_inference_version_and_cuda
with torch.inference_mode():
    t = torch.ones(2)
try:
    print(t._version)
except Exception as e:
    print(type(e).__name__, e)
print(torch.ones(2)._version)
for bad in [lambda: torch.tensor([1.]).to('cuda:1'), lambda: torch.tensor([1.]).to(device=torch.device('cuda')), lambda: torch.tensor([1.]).cuda(), lambda: torch.device('foo')]:
    try:
        bad()
    except BaseException as e:
        print(type(e).__name__, str(e).split(':')[0])
with torch.autograd.graph.save_on_cpu():
    a = torch.ones(2, requires_grad=True)
    b = (a * a).sum()
b.backward()
print(a.grad)
### api_save_load
import io, os, tempfile
torch.manual_seed(0)
m = torch.nn.Linear(2, 3)
d = tempfile.mkdtemp()
path = os.path.join(d, 'model.pth')
torch.save(m.state_dict(), path)
sd = torch.load(path)
print(type(sd).__name__, sd, sd['weight'].requires_grad)
m2 = torch.nn.Linear(2, 3); print(m2.load_state_dict(torch.load(path, weights_only=True)), torch.equal(m2.weight, m.weight))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
m(torch.ones(1, 2)).sum().backward(); opt.step()
ck = {'epoch': 5, 'model_state_dict': m.state_dict(), 'optimizer_state_dict': opt.state_dict(), 'loss': 0.25, 'nan': float('nan'), 'shape': torch.Size([2, 3]), 'dt': torch.float64, 'big': 2**70, 'tup': (1, 'a', None, True)}
b = io.BytesIO()
torch.save(ck, b)
b.seek(0)
ck2 = torch.load(b)
print(ck2['epoch'], ck2['loss'], ck2['nan'], ck2['shape'], ck2['dt'], ck2['big'], ck2['tup'], ck2['optimizer_state_dict'])
x = torch.ones(3, requires_grad=True); p = torch.nn.Parameter(torch.zeros(2))
b = io.BytesIO(); torch.save([x, x, p, torch.arange(4), torch.tensor([True])], b); b.seek(0); l = torch.load(b)
print(l, l[0] is l[1], type(l[2]).__name__, l[2].requires_grad)
b = io.BytesIO(); torch.save(m, b); b.seek(0)
try: torch.load(b)
except Exception as e: print(type(e).__name__, str(e).split('.')[0])
b.seek(0); print(torch.load(b, weights_only=False))
try: torch.load(os.path.join(d, 'nope.pt'))
except Exception as e: print(type(e).__name__)
print(torch.load(path, map_location='cpu')['bias'], torch.load(path, map_location=torch.device('cpu'))['bias'].shape)
### api_index_range_list_tuple
x = torch.arange(12.).view(3, 4).requires_grad_(True)
y = torch.tensor([1, 0, 3])
for key in [(range(3), y), [0, 2], ([0, 2], [1, 3]), (slice(None), [1, 2]), range(2), (range(1, 3),), ([[0, 1], [1, 2]],), (0, range(2)), ((0, 1), (1, 2))]:
    try:
        r = x[key]
        print(r, r.grad_fn.name() if r.grad_fn else None)
    except Exception as e:
        print(type(e).__name__, e)
logprobs = (x + 1).log()
n = 3
loss = -logprobs[range(n), y].mean()
loss.backward()
print(loss, x.grad)
z = torch.zeros(5)
z[range(2)] = 1.
z[[3, 4]] = torch.tensor([2., 3.])
print(z, z[range(0)])
### nn_lazy_batchnorm2d_adaptive_pool
torch.manual_seed(0)
m = nn.LazyLinear(3)
print(m, m.weight, type(m.weight).__name__, list(m.state_dict()) if False else '')
y = m(torch.ones(2, 4))
print(m, type(m).__name__, m.weight, m.bias, y.grad_fn.name())
net = nn.Sequential(nn.LazyLinear(5), nn.ReLU(), nn.LazyLinear(2))
print(net(torch.randn(3, 7)), net)
bn = nn.BatchNorm2d(3)
x = torch.randn(2, 3, 4, 4)
out = bn(x)
print(bn, out.grad_fn.name(), bn.running_mean, bn.running_var, out[0, 0, 0])
bn.eval()
print(bn(x)[1, 2, 3])
try:
    bn(torch.ones(2, 3))
except Exception as e:
    print(type(e).__name__, e)
x.requires_grad_()
p = nn.AdaptiveAvgPool2d((1, 1))
print(p, p(x).grad_fn.name(), p(x).shape)
p = nn.AdaptiveAvgPool2d(3)
r = p(x)
print(p, r.grad_fn.name(), r[0,0])
r.sum().backward()
print(x.grad[0, 0])
print(nn.AdaptiveAvgPool2d((None, 2))(x).shape, F.adaptive_avg_pool2d(torch.arange(25.).view(1,5,5), (2, 3)))
try:
    nn.AdaptiveAvgPool2d(2)(torch.ones(3))
except Exception as e:
    print(type(e).__name__, e)
### optim_adadelta_nadam_radam
for name, kw in [('Adadelta', {}), ('Adadelta', {'lr': 0.5, 'weight_decay': 0.1}), ('NAdam', {}), ('NAdam', {'lr': 0.01, 'weight_decay': 0.01, 'decoupled_weight_decay': True}), ('RAdam', {}), ('RAdam', {'lr': 0.01, 'weight_decay': 0.1})]:
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    opt = getattr(torch.optim, name)(model.parameters(), **kw)
    x = torch.randn(8, 3)
    y = torch.randn(8, 2)
    for i in range(12):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    print(name, kw, loss.item(), model.weight.detach().numpy().round(5).tolist(), sorted(opt.state[model.weight].keys()), opt.state[model.weight]['step'])
print(torch.optim.Adadelta([torch.zeros(1, requires_grad=True)]).defaults)
### func_transforms
import warnings
warnings.filterwarnings('ignore', category=DeprecationWarning)  # PyTorch's own torch.jit.script notices
import torch.func as fn
from math import pi
x = torch.tensor([0.5, 1.0, 2.0])
f = lambda x: (x.sin() * x ** 2).sum()
print(fn.grad(f)(x), fn.grad(fn.grad(lambda x: (x ** 3).sum()) if False else f)(x))
print(fn.grad(lambda x: fn.grad(lambda y: (y ** 3).sum())(x).sum())(x))
print(fn.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x + 1))
print(fn.grad(lambda x: ((x ** 2).sum(), x.mean()), has_aux=True)(x))
print(fn.grad_and_value(f)(x))
out, vjp_fn = fn.vjp(torch.sin, x)
print(out, vjp_fn(torch.ones(3)))
print(fn.jacrev(torch.sin)(x), fn.jacfwd(lambda x: x ** 2)(x), fn.jacrev(lambda x, y: x * y, argnums=1)(x, x))
print(fn.hessian(lambda x: (x ** 3).sum())(x))
print(fn.jvp(torch.sin, (x,), (torch.ones(3),)))
print(fn.vmap(torch.dot)(torch.ones(4, 3), torch.arange(12.).view(4, 3)), fn.vmap(lambda a: a * 2, in_dims=1)(torch.arange(6.).view(2, 3)))
print(fn.vmap(torch.mv, in_dims=(None, 0))(torch.ones(2, 3), torch.arange(12.).view(4, 3)))
model = torch.nn.Linear(3, 2)
params = {k: v.detach() for k, v in model.named_parameters()}
print(fn.functional_call(model, {k: torch.ones_like(v) for k, v in params.items()}, (x,)), model.weight.sum().item() != 6)
def loss(p, xb, yb):
    return ((fn.functional_call(model, p, (xb,)) - yb) ** 2).mean()
xs = torch.arange(12.).view(4, 3) / 10
ys = torch.ones(4, 2)
ps = fn.vmap(fn.grad(loss), in_dims=(None, 0, 0))(params, xs, ys)
print({k: v.shape for k, v in ps.items()})
for bad in [lambda: fn.grad(lambda x: x * 2)(x), lambda: fn.vmap(torch.add)(torch.ones(2), torch.ones(3))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).split('\n')[0])
### linalg_det_inv_solve_svd
A = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
b = torch.tensor([1., 2.], requires_grad=True)
for name, f in [('det', lambda: torch.det(A)), ('ldet', lambda: torch.linalg.det(A)), ('inv', lambda: torch.inverse(A)), ('linv', lambda: torch.linalg.inv(A)), ('solve', lambda: torch.linalg.solve(A, b)), ('svd', lambda: torch.svd(A)), ('lsvd', lambda: torch.linalg.svd(A)), ('svdvals', lambda: torch.linalg.svdvals(A)), ('Adet', lambda: A.det()), ('Ainv', lambda: A.inverse())]:
    r = f()
    r0 = r[0] if isinstance(r, tuple) else r
    print(name, type(r).__name__, r0.grad_fn.name() if r0.grad_fn else None, r)
torch.manual_seed(0)
M = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
B = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(torch.linalg.det, (M,)), torch.autograd.gradcheck(torch.linalg.inv, (M,)), torch.autograd.gradcheck(torch.linalg.solve, (M, B)))
print(torch.autograd.gradcheck(lambda m: torch.linalg.svdvals(m), (M,)), torch.autograd.gradgradcheck(torch.linalg.det, (M,)))
R = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda r: (lambda u, s, vh: (u.abs().sum(), s, vh.abs().sum()))(*torch.linalg.svd(r, full_matrices=False)), (R,)))
torch.linalg.det(M).backward()
print(M.grad)
for bad in [lambda: torch.inverse(torch.zeros(2, 2)), lambda: torch.det(torch.zeros(2, 3)), lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2))]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e, isinstance(e, RuntimeError))
print([t.detach() for t in torch.linalg.slogdet(A)])
### function_setup_context
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.save_for_backward(x)
        ctx.k = k
        print('setup', type(output).__name__, output.requires_grad)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g * ctx.k, None
x = torch.tensor([1., 2.], requires_grad=True)
y = Sq.apply(x, 3.)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
with torch.no_grad():
    print(Sq.apply(x, 2.))
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        result, = ctx.saved_tensors
        return g * result
z = MyExp.apply(x)
print(z, torch.autograd.grad(z.sum(), x))
class Old(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
print(Old.apply(x))
### profiler_table
model = nn.Sequential(nn.Linear(10, 5), nn.ReLU())
x = torch.randn(3, 10)
with torch.autograd.profiler.profile(record_shapes=True) as prof:
    with torch.autograd.profiler.record_function("model_inference"):
        y = model(x)
table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=10)
print(type(table).__name__, 'Self CPU time total' in table, 'model_inference' in table, 'aten::addmm' in table)
print(sorted({e.key for e in prof.key_averages()} & {'aten::addmm', 'aten::relu', 'model_inference'}))
import torch.profiler
from torch.profiler import ProfilerActivity, record_function
with torch.profiler.profile(activities=[ProfilerActivity.CPU]) as prof:
    with record_function("step"):
        (x * 2).sum()
print('aten::mul' in prof.key_averages().table())
### nn_conv_transpose2d
torch.manual_seed(0)
m = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
print(m, m.weight.shape, m.bias)
x = torch.randn(2, 4, 5, 5, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn.name(), y[0, 0, :2, :4])
y.pow(2).sum().backward()
# the weight's and bias's gradients are sums of 50-200 products: their 4th decimal depends on the BLAS kernel
# (-17.06705 +- 2e-6 here), so they are compared to 2 decimals
print(x.grad[0, 0, :2], m.weight.grad[0, 0].round(decimals=2), m.bias.grad.round(decimals=2))
print(F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2))
print(nn.ConvTranspose2d(3, 6, (2, 3), dilation=2, bias=False)(torch.randn(3, 4, 4)).shape)
xd = torch.randn(1, 2, 3, 3, dtype=torch.float64, requires_grad=True)
wd = torch.randn(2, 3, 2, 2, dtype=torch.float64, requires_grad=True)
bd = torch.randn(3, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda a, b, c: F.conv_transpose2d(a, b, c, stride=2, padding=1, dilation=2), (xd, wd, bd)))
### autograd_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = torch.tensor([5., 6.], requires_grad=True)
def fn(grads):
    print('all', [None if g is None else g.tolist() for g in grads])
h = torch.autograd.graph.register_multi_grad_hook((a, b, c), fn)
(a * b).sum().backward()
(a * b * c).sum().backward()
try:
    torch.autograd.grad((b * c).sum(), (b,))
except RuntimeError as e:
    print(type(e).__name__, e)
h.remove()
(a * b).sum().backward()
h2 = torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: print('any', g.tolist()), mode='any')
(a * b * 2).sum().backward()
(a * b * 3).sum().backward()
try:
    torch.autograd.graph.register_multi_grad_hook((a,), fn, mode='some')
except Exception as e:
    print(type(e).__name__, e)
### fwad_dual_basics
import torch.autograd.forward_ad as fwAD
import warnings
warnings.filterwarnings('ignore', category=DeprecationWarning)  # torch: jit.script inside make_dual
x = torch.tensor([1., 2., 3.])
t = torch.tensor([1., 0., 0.5])
try:
    fwAD.make_dual(x, t)
except RuntimeError as e:
    print(e)
with fwAD.dual_level() as level:
    print(level)
    d = fwAD.make_dual(x, t)
    print(d)
    print(fwAD.unpack_dual(d))
    u = fwAD.unpack_dual(d)
    print(type(u).__name__, u._fields, u.tangent is t)
    y = d.sin() * 2 + d
    print(fwAD.unpack_dual(y))
    print(fwAD.unpack_dual(x), fwAD.unpack_dual(d.argmax()), fwAD.unpack_dual(d.detach()).tangent)
    print(fwAD.unpack_dual(d.sum()), fwAD.unpack_dual(d.view(3, 1)).tangent.shape)
    with torch.no_grad():
        print(fwAD.unpack_dual(d * d))
print(fwAD.unpack_dual(y), y)

### fwad_errors
import torch.autograd.forward_ad as fwAD
import warnings
warnings.filterwarnings('ignore', category=DeprecationWarning)  # torch: jit.script inside make_dual
x = torch.tensor([1., 2., 3.])
with fwAD.dual_level():
    for bad in [torch.ones(2), torch.ones(3, dtype=torch.int64)]:
        try:
            fwAD.make_dual(x, bad)
        except (RuntimeError, ValueError) as e:
            print(type(e).__name__, e)
    try:
        fwAD.make_dual(torch.arange(3), torch.arange(3))
    except ValueError as e:
        print(e)
    try:
        fwAD.make_dual(x, x, level=5)
    except RuntimeError as e:
        print(e)
    d = fwAD.make_dual(x, x)
    try:
        fwAD.make_dual(d, x)
    except RuntimeError as e:
        print(e)
    try:
        with fwAD.dual_level():
            pass
    except RuntimeError as e:
        print(e)
try:
    fwAD.exit_dual_level()
except RuntimeError as e:
    print(e)
print(fwAD.enter_dual_level())
fwAD.exit_dual_level()

### fwad_tangent_dtype_shape_and_grad
import torch.autograd.forward_ad as fwAD
import warnings
warnings.filterwarnings('ignore', category=DeprecationWarning)  # torch: jit.script inside make_dual
x = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    print(d, d.grad_fn)
    m = fwAD.make_dual(x.detach(), torch.ones(2, dtype=torch.float64))
    print(fwAD.unpack_dual(m * 2).tangent.dtype, fwAD.unpack_dual(m).tangent.dtype)
    e = d.exp()
    p, t = fwAD.unpack_dual(e)
    print(t, t.requires_grad, type(t.grad_fn).__name__)
    t.sum().backward()
    print(x.grad)
    print(fwAD.unpack_dual(d.double()), fwAD.unpack_dual(d @ torch.ones(2, 3)).tangent.detach())
    print(fwAD.unpack_dual(torch.where(d > 1, d, torch.ones(2))))

### fwad_custom_function
import torch.autograd.forward_ad as fwAD
import warnings
warnings.filterwarnings('ignore', category=DeprecationWarning)  # torch: jit.script inside make_dual
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo, k):
        print('forward sees', fwAD.unpack_dual(foo).tangent, torch.is_grad_enabled())
        result = foo.exp() * k
        ctx.save_for_forward(result)
        ctx.k = k
        return result
    @staticmethod
    def jvp(ctx, gI, gk):
        (result,) = ctx.saved_tensors
        print('jvp', gk, result, torch.is_grad_enabled())
        return gI * result
    @staticmethod
    def backward(ctx, g):
        return g, None
class TwoIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * 2 + b
    @staticmethod
    def jvp(ctx, ga, gb):
        print('jvp got', ga, gb)
        return ga * 2 + gb
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([0., 1.]), torch.ones(2))
    print(fwAD.unpack_dual(Fn.apply(d, 3.0)).tangent)
    print(fwAD.unpack_dual(TwoIn.apply(d, torch.ones(2))).tangent)
    try:
        NoJvp.apply(d)
    except NotImplementedError as e:
        print(e)

### fwad_module_and_functional_call
import torch.autograd.forward_ad as fwAD
import warnings
warnings.filterwarnings('ignore', category=DeprecationWarning)  # torch: jit.script inside make_dual
from torch.func import functional_call
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2), nn.LogSoftmax(dim=1))
x = torch.randn(5, 4)
params = dict(model.named_parameters())
tangents = {n: torch.rand_like(p) for n, p in params.items()}
with fwAD.dual_level():
    duals = {n: fwAD.make_dual(p, tangents[n]) for n, p in params.items()}
    out = functional_call(model, duals, (x,))
    print(fwAD.unpack_dual(out).tangent)
    loss = F.nll_loss(out, torch.tensor([0, 1, 1, 0, 1]))
    print(fwAD.unpack_dual(loss).tangent.detach())
    print(fwAD.unpack_dual(F.cross_entropy(functional_call(model[:3], duals, (x,)), torch.tensor([0, 1, 1, 0, 1]))).tangent.detach())

### fwad_ops_tangents
import torch.autograd.forward_ad as fwAD
import warnings
warnings.filterwarnings('ignore', category=DeprecationWarning)  # torch: jit.script inside make_dual
a = torch.randn(3, 4)
b = torch.randn(3, 4).abs() + 0.5
with fwAD.dual_level():
    da = fwAD.make_dual(a, torch.ones(3, 4))
    db = fwAD.make_dual(b, torch.full((3, 4), 0.5))
    outs = {
        'div': da / db, 'pow': db ** 1.5, 'powt': db ** da, 'log': db.log(), 'sqrt': db.sqrt(),
        'sigmoid': da.sigmoid(), 'relu': da.relu(), 'gelu': F.gelu(da), 'softplus': F.softplus(da),
        'clamp': da.clamp(-0.5, 0.5), 'max': torch.maximum(da, db), 'mean': da.mean(1), 'var': da.var(0),
        'softmax': da.softmax(1), 'logsumexp': da.logsumexp(1), 'norm': da.norm(), 'prod': db.prod(1),
        'cumsum': da.cumsum(1), 'cat': torch.cat([da, db]), 'stack': torch.stack([da, db], 2)[0],
        'index': da[1:, [0, 2]], 'T': da.T, 'amax': da.amax(1), 'sort': da.sort(1).values,
        'mm': da @ db.T, 'einsum': torch.einsum('ij,ij->i', da, db), 'layer_norm': F.layer_norm(da, (4,)),
        'mse': F.mse_loss(da, db), 'bce': F.binary_cross_entropy(da.sigmoid(), b.sigmoid()),
        'masked': da.masked_fill(a > 0, 0.), 'pad': F.pad(da, (1, 1), value=3.),
    }
    for name, out in outs.items():
        print(name, fwAD.unpack_dual(out).tangent)

### fwad_inplace
import torch.autograd.forward_ad as fwAD
import warnings
warnings.filterwarnings('ignore', category=DeprecationWarning)  # torch: jit.script inside make_dual
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([1., 2., 3.]), torch.tensor([1., 0., 0.5]))
    x.mul_(3)
    print(fwAD.unpack_dual(x))
    y = x * 1
    y.add_(1).div_(2)
    print(fwAD.unpack_dual(y))
    z = fwAD.make_dual(torch.zeros(3, 3, requires_grad=True), torch.ones(3, 3)) * 1
    z.diagonal().mul_(2)
    print(fwAD.unpack_dual(z).tangent.tolist())

### func_jvp_jacfwd_forward_mode
from torch.func import jvp, jacfwd, jacrev, hessian, grad, vmap
x = torch.randn(3)
f = lambda x: (x.sin() * x).sum()
print(jvp(f, (x,), (torch.ones(3),)))
print(jacfwd(torch.sin)(x))
print(hessian(f)(x))
print(jacfwd(jacfwd(f))(x))
print(jvp(lambda x: jvp(f, (x,), (torch.ones(3),))[1], (x,), (torch.ones(3),)))
print(jvp(grad(f), (x,), (torch.ones(3),))[1])
W = torch.randn(4, 3, dtype=torch.float64)
print(jacfwd(lambda W, x: (x @ W.T).tanh(), argnums=(0, 1))(W, x.double())[1])
print(jvp(lambda a, b: a @ b, (torch.randn(2, 3), torch.randn(3, 2)), (torch.ones(2, 3), torch.ones(3, 2))))
print(jacfwd(lambda x: (x.exp(), x.sum()), has_aux=False)(x)[1])
print(vmap(lambda x: jvp(torch.sin, (x,), (torch.ones(3),))[1])(torch.randn(2, 3)))
for bad in [lambda: jvp(f, x, torch.ones(3)), lambda: jvp(f, (x,), (torch.ones(2),))]:
    try:
        bad()
    except RuntimeError as e:
        print(e)

### gradcheck_check_forward_ad
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result
    @staticmethod
    def jvp(ctx, gI):
        return gI * ctx.result
class Wrong(Exp):
    @staticmethod
    def jvp(ctx, gI):
        return gI * 2
x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Exp.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                               check_undefined_grad=False, check_batched_grad=False))
print(torch.autograd.gradcheck(Wrong.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                               check_undefined_grad=False, check_batched_grad=False, raise_exception=False))
print(torch.autograd.gradcheck(torch.sin, (x,), check_forward_ad=True))
### dataloader_worker_processes
import os
import random
import warnings
from torch.utils.data import DataLoader, Dataset, TensorDataset, get_worker_info
warnings.filterwarnings('ignore', message='This DataLoader will create')
MAIN = os.getpid()
class Noisy(Dataset):
    def __len__(self):
        return 10
    def __getitem__(self, i):
        info = get_worker_info()
        return (torch.tensor([float(i)]) + torch.rand(1), info.id if info else -1, random.random(),
                float(np.random.rand()), os.getpid() != MAIN, info.seed - torch.initial_seed() if info else None)
def init(worker_id):
    np.random.seed(np.random.randint(0, 2 ** 31) + worker_id)
torch.manual_seed(0)
for kw in [dict(num_workers=2, shuffle=True), dict(num_workers=3, worker_init_fn=init), dict(num_workers=2, prefetch_factor=1)]:
    for x, wid, r, n, other_process, seed_offset in DataLoader(Noisy(), batch_size=3, **kw):
        print(x.view(-1), wid.tolist(), r, n, other_process.tolist(), seed_offset.tolist())
print(torch.rand(2))
loader = DataLoader(Noisy(), batch_size=4, num_workers=2, persistent_workers=True, shuffle=True)
for epoch in range(2):
    for x, wid, *_ in loader:
        print(epoch, x.view(-1), wid.tolist())
        break
class Bad(Dataset):
    def __len__(self):
        return 4
    def __getitem__(self, i):
        if i == 2:
            raise KeyError("bad item %d" % i)
        return i
try:
    list(DataLoader(Bad(), batch_size=1, num_workers=2))
except KeyError as e:
    print(type(e).__name__, str(e).splitlines()[0])
def bad_init(worker_id):
    raise ValueError('no init for %d' % worker_id)
try:
    list(DataLoader(Bad(), num_workers=1, worker_init_fn=bad_init))
except ValueError as e:
    print(str(e).splitlines()[0])
print([b for b in DataLoader(TensorDataset(torch.arange(12.).view(6, 2), torch.arange(6)), batch_size=4, num_workers=2, shuffle=True)])
try:
    DataLoader(Noisy(), num_workers=1, timeout=-1)
except ValueError as e:
    print(e)
### linalg_slogdet_logdet_svd_second_order
A = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
s, l = torch.linalg.slogdet(A)
print(s, l, l.grad_fn.name(), s.grad_fn.name(), s.requires_grad)
r = torch.slogdet(A)
print(type(r).__name__, r.logabsdet.grad_fn.name(), r)
print(torch.logdet(A @ A.T), torch.logdet(-torch.eye(3, dtype=torch.float64)), torch.logdet(torch.zeros(2, 2)))
print(A.logdet().grad_fn.name() if hasattr(A, 'logdet') else None)
l.backward()
print(A.grad)
print(torch.autograd.gradgradcheck(lambda a: torch.linalg.slogdet(a)[1], (A,)))
U, S, Vh = torch.linalg.svd(A)
print(S.grad_fn.name(), U.grad_fn.name(), [n for n in dir(S.grad_fn) if n.startswith('_saved_')])
g, = torch.autograd.grad(S.sum(), A, create_graph=True)
print(g.grad_fn.name())
h, = torch.autograd.grad((g * torch.arange(9.).view(3, 3)).sum(), A)
print(h.abs().max() < 1e-10)
g2, = torch.autograd.grad(S.pow(2).sum() + U[:, 0].abs().sum(), A, create_graph=True)
print(torch.autograd.grad(g2.sum(), A)[0])
B = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradgradcheck(torch.linalg.svdvals, (B,)))
print(torch.autograd.gradgradcheck(lambda b: torch.linalg.svd(b, full_matrices=False)[0].abs().sum(), (B,)))
print(torch.autograd.gradgradcheck(lambda b: torch.linalg.svd(b)[2].abs().sum(), (B.T.detach().requires_grad_(),)))
from torch.func import hessian
print(hessian(lambda a: torch.linalg.svdvals(a).pow(3).sum())(A.detach())[0, 0])
### out_keyword
# the tensor tutorials' out= forms: written into out, out returned, out resized (warning unless empty)
x, y = torch.arange(6.).view(2, 3), torch.ones(2, 3)
o = torch.empty(0)
print(torch.add(x, y, out=o) is o, o)
m = torch.zeros(3, 3)
print(torch.matmul(x.T, y, out=m) is m, m)
print(torch.mul(x, 2, out=torch.zeros(5)))
print(torch.eq(x, 2, out=torch.zeros(2, 3, dtype=torch.bool)))
print(torch.exp(torch.zeros(2), out=torch.zeros(2, dtype=torch.float64)))
with torch.no_grad():
    print(torch.add(x.requires_grad_(), 1, out=torch.zeros(2, 3)).requires_grad)
for bad in (lambda: torch.add(x, y, out=torch.zeros(2, 3, dtype=torch.long)),
            lambda: torch.add(x, y, out=[1]),
            lambda: torch.mul(x, y, out=torch.zeros(2, 3))):
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
'''


def _parse(source: str) -> list[tuple[str, str]]:
    snippets, name, lines = [], None, []
    for line in source.splitlines():
        if line.startswith("### "):
            if name is not None:
                snippets.append((name, "\n".join(lines) + "\n"))
            name, lines = line[4:].strip(), []
        elif name is not None:
            lines.append(line)
    if name is not None:
        snippets.append((name, "\n".join(lines) + "\n"))
    return snippets


SNIPPETS = _parse(_SOURCE)

# Snippets known to differ, and why. The test fails if any *other* snippet differs.
KNOWN_DIFFERENCES = {
    # not implemented: layers and functions beyond minigrad's scope (CNNs, normalisation layers, ...)
    "cosine_similarity": "torch.cdist",
    "tensor_methods_exist": "the long tail of Tensor methods", "torch_funcs_exist": "the long tail of torch.*",
    "F_funcs_exist": "the long tail of F.*", "nn_modules_exist": "the long tail of nn.*",
    "optim_exist": "Adamax, LBFGS and most schedulers",
    # grad_fn names of composite implementations
    "einsum_grad_fn": "einsum records one EinsumBackward0 node (not a PyTorch name); PyTorch records the "
                      "permute/view/bmm/mul/sum ops its einsum is made of (here ViewBackward0), and some "
                      "single-operand einsums ('ij->ji', 'ii->i') are views there, copies in minigrad",
    # messages and numpy interplay
    "numpy_mul_tensor": "ndarray * Tensor gives a Tensor (PyTorch raises TypeError)",
    "numpy_interop": "PyTorch's own numpy-2 DeprecationWarning from __array__",
    "mul_numpy_array": "PyTorch's own numpy-2 DeprecationWarning from __array_wrap__",
}
