# Idioms from tutorials and courses: new_* factories, legacy tensor types, rounding/cumsum/flip/tril grads,
# integer // and %, where with two numbers, x.T on a vector, std of one element, clip_grad_norm_, cuda checks.
import torch
import torch.nn as nn

x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64)
v = torch.tensor([1.5, -2.5, 0.5], requires_grad=True)
m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)

rounded = v.floor() + v.ceil() + v.round() + v.trunc()
rounded.sum().backward()
rounding_grad = v.grad.clone()
v.grad = None
(v.cumsum(0) * torch.tensor([1., 2., 3.])).sum().backward()
cumsum_grad = v.grad.clone()
v.grad = None
(v.flip(0) * torch.tensor([1., 2., 3.])).sum().backward()
flip_grad = v.grad.clone()
(m.tril() * 2 + m.triu(1)).sum().backward()

p = nn.Parameter(torch.tensor([3., 4.]))
(p * p).sum().backward()
norm = nn.utils.clip_grad_norm_([p], max_norm=1.0)

RESULT = {
    "new_zeros": x.new_zeros(2, 3),
    "new_ones": x.new_ones((2,)),
    "new_full": x.new_full((2,), 7),
    "new_tensor": x.new_tensor([1, 2]),
    "LongTensor": torch.LongTensor([1, 2]),
    "isinstance FloatTensor": [isinstance(torch.zeros(1), torch.FloatTensor), isinstance(x, torch.FloatTensor)],
    "type(DoubleTensor)": torch.tensor([1, 2]).type(torch.DoubleTensor),
    "type('torch.FloatTensor')": x.type('torch.FloatTensor'),
    "rounded": rounded,
    "rounding grad": rounding_grad,
    "cumsum": v.cumsum(0),
    "cumsum grad": cumsum_grad,
    "flip grad": flip_grad,
    "tril/triu grad": m.grad,
    "int //": torch.tensor([7, -7]) // 2,
    "int %": torch.tensor([7, -7]) % 3,
    "number % tensor": 7 % torch.tensor([2, 3]),
    "int // 0": catch(lambda: torch.tensor([1]) // 0),
    "2 ** int": 2 ** torch.tensor([1, 2]),
    "where numbers": torch.where(torch.tensor([True, False]), 1., 0.),
    "clamp int by float": torch.tensor([1, 5]).clamp(min=2.5),
    "bool minus": catch(lambda: 1 - torch.tensor([True])),
    "vector.T": torch.tensor([1., 2.], requires_grad=True).T,
    "vector.T warning": warns(lambda: torch.zeros(3, 2, 1).T),
    "std of one": torch.tensor([1.]).std(),
    "std of one warning": warns(lambda: torch.tensor([1.]).var()),
    "exp overflow warning": warns(lambda: torch.exp(torch.tensor([1000.]))),
    "clip norm": norm,
    "clipped grad": p.grad,
    "cuda": torch.cuda.is_available(),
    "numpy scalar * tensor": torch.tensor([1., 2.]) * 1 + __import__("numpy").float64(1.5) * torch.tensor([1., 2.]),
    "0-dim index": catch(lambda: torch.tensor(3.)[0]),
    "float index": catch(lambda: torch.zeros(2)[1.0]),
    "ragged": catch(lambda: torch.tensor([[1, 2], [3]])),
    "list of tensors": catch(lambda: torch.tensor([torch.tensor([1., 2.]), torch.tensor([3., 4.])])),
    "grad of no-grad output": catch(lambda: torch.autograd.grad(torch.ones(2).sum(), torch.ones(2))),
    "silu/elu/softplus": [nn.functional.silu(v), nn.functional.elu(v), nn.functional.softplus(v)],
    "isclose": torch.isclose(torch.tensor([1., 2.]), torch.tensor([1., 2.1])),
    "nonzero": torch.nonzero(torch.tensor([0, 3, 0, 4])),
}
