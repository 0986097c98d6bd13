"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` and their one-step cells, as PyTorch builds them on the CPU.

Everything is made of ordinary ops, in the order of PyTorch's ``aten/src/ATen/native/RNN.cpp``, so
the recorded graph has PyTorch's node names step by step:

* a layer first projects the whole sequence at once, ``linear(input, weight_ih, bias_ih)``, and
  ``unbind``\\ s it into time steps (``UnbindBackward0``);
* each step adds ``linear(h, weight_hh, bias_hh)`` (``AddmmBackward0``) and applies the cell:
  ``tanh``/``relu`` (RNN); four gates from ``unsafe_chunk`` (LSTM); three (GRU);
* the steps' outputs are ``stack``\\ ed (``StackBackward0``), the two directions ``cat``\\ ed, and
  ``dropout`` applied between layers in training;
* ``h_n`` (and ``c_n``) are the layers' final states, stacked.

One difference, on purpose: PyTorch's CPU LSTM in float32 runs a fused oneDNN kernel and records a
single ``MkldnnRnnLayerBackward0`` node per layer.  minigrad records the graph PyTorch records without
oneDNN (float64, or ``torch.backends.mkldnn.flags(enabled=False)``): the same values and gradients,
a readable graph.  ``PackedSequence`` inputs are not supported.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

from ... import _creation
from ..._tensor import Tensor
from ...ops import rnn as R
from ...ops import shape as S
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


# -- one step of each cell (RNN.cpp's SimpleCell, LSTMCell, GRUCell) -------------------------------

def _linear_hh(h: Tensor, p: tuple[Any, ...]) -> Tensor:
    return F.linear(h, p[1], p[3])


def _simple_cell(activation: Any, x: Tensor, h: Tensor, p: tuple[Any, ...], projected: bool) -> Tensor:
    """``activation(h @ W_hhᵀ + b_hh + x @ W_ihᵀ + b_ih)``; ``x`` already projected when ``projected``."""
    return activation(_linear_hh(h, p) + (x if projected else F.linear(x, p[0], p[2])))


def _lstm_cell(x: Tensor, hidden: tuple[Tensor, Tensor], p: tuple[Any, ...], projected: bool) -> tuple[Tensor, Tensor]:
    """The gates i, f, g, o from one ``unsafe_chunk``; ``c' = f·c + i·g``, ``h' = o·tanh(c')`` (projected by
    ``weight_hr`` if there is one)."""
    h, c = hidden
    gates = _linear_hh(h, p) + (x if projected else F.linear(x, p[0], p[2]))
    i, f, g, o = R.unsafe_chunk(gates, 4, 1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    cy = f * c + i * g
    hy = o * cy.tanh()
    if p[4] is not None:
        hy = hy.matmul(p[4].t())
    return hy, cy


def _gru_cell(x: Tensor, h: Tensor, p: tuple[Any, ...], projected: bool) -> Tensor:
    """Reset gate r, update gate z, candidate n = tanh(x_n + r·h_n); ``h' = (h − n)·z + n``."""
    xi = R.unsafe_chunk(x if projected else F.linear(x, p[0], p[2]), 3, 1)
    hh = R.unsafe_chunk(_linear_hh(h, p), 3, 1)
    reset = (hh[0] + xi[0]).sigmoid()
    update = (hh[1] + xi[1]).sigmoid()
    new = (xi[2] + hh[2] * reset).tanh()
    return (h - new) * update + new


def _output(hidden: Any) -> Tensor:
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _layer(cell: Any, steps: list[Tensor], hidden: Any, p: tuple[Any, ...]) -> tuple[list[Tensor], Any]:
    outputs = []
    for x in steps:
        hidden = cell(x, hidden, p, True)
        outputs.append(_output(hidden))
    return outputs, hidden


def _stack(tensors: list[Tensor]) -> Tensor:
    return S.Stack.apply(0, *tensors)


def run_rnn(cell: Any, input: Tensor, hiddens: list[Any], weights: list[tuple[Any, ...]], num_layers: int,
            dropout: float, train: bool, bidirectional: bool, batch_first: bool) -> tuple[Tensor, list[Any]]:
    """PyTorch's ``_rnn_impl`` on the CPU: the layers in turn; returns the output and each layer-direction's
    final hidden state (``hiddens`` and ``weights`` have one entry per layer and direction)."""
    x = input.transpose(0, 1) if batch_first else input
    dirs = 2 if bidirectional else 1
    finals: list[Any] = []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            p, h = weights[layer * dirs + d], hiddens[layer * dirs + d]
            steps = list(F.linear(x, p[0], p[2]).unbind(0))
            if d == 1:
                steps.reverse()
            outputs, h = _layer(cell, steps, h, p)
            if not outputs:
                raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
            if d == 1:
                outputs.reverse()
            outs.append(_stack(outputs))
            finals.append(h)
        x = outs[0] if dirs == 1 else S.Cat.apply(outs[0].ndim - 1, *outs)
        if dropout != 0 and train and layer < num_layers - 1:
            x = F.dropout(x, dropout, True)
    if batch_first:     # (ATen: rnn_tanh/rnn_relu/gru use transpose_, lstm transpose)
        x = x.transpose(0, 1) if cell is _lstm_cell else R.TransposeInplace.apply(x, 0, 1)
    return x, finals


# -- the multi-layer modules ------------------------------------------------------------------------

class RNNBase(Module):
    """What ``RNN``, ``LSTM`` and ``GRU`` share: the parameters ``weight_ih_l{k}[_reverse]``, ``weight_hh_l{k}``,
    ``bias_ih_l{k}``, ``bias_hh_l{k}`` (``weight_hr_l{k}`` with ``proj_size``), per layer and direction, all
    drawn from U(-1/√hidden_size, 1/√hidden_size) in that order (PyTorch's ``reset_parameters``)."""

    mode: str
    input_size: int
    hidden_size: int
    num_layers: int
    bias: bool
    batch_first: bool
    dropout: float
    bidirectional: bool
    proj_size: int

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first = bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", stacklevel=2)
        for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                                  ("input_size", input_size, int), ("hidden_size", hidden_size, int)):
            if not isinstance(value, kind):
                raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")
            if kind is int and value <= 0:
                raise ValueError(f"{name} must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        gates = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}.get(mode)
        if gates is None:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = gates * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                shapes: list[tuple[int, ...]] = [(gate_size, layer_input_size), (gate_size, real_hidden_size)]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    shapes += [(gate_size,), (gate_size,)]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    shapes.append((proj_size, hidden_size))
                    names.append("weight_hr_l{}{}")
                suffix = "_reverse" if direction == 1 else ""
                names = [n.format(layer, suffix) for n in names]
                for n, shape in zip(names, shapes):
                    setattr(self, n, Parameter(_creation.empty(*shape, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list[Tensor]:
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """A no-op, as in PyTorch on the CPU (cuDNN's single weight buffer does not exist here)."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _weights(self) -> list[tuple[Any, ...]]:
        """Per layer and direction: ``(w_ih, w_hh, b_ih, b_hh, w_hr)`` with None for what is absent."""
        out = []
        for names in self._all_weights:
            p = [getattr(self, n) for n in names]
            w_ih, w_hh = p[0], p[1]
            b_ih, b_hh = (p[2], p[3]) if self.bias else (None, None)
            out.append((w_ih, w_hh, b_ih, b_hh, p[-1] if self.proj_size > 0 else None))
        return out

    def check_input(self, input: Tensor, batch_sizes: Any) -> None:
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                             f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Any) -> tuple[int, int, int]:
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx: Tensor, expected_hidden_size: tuple[int, int, int],
                          msg: str = "Expected hidden size {}, got {}") -> None:
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Any, batch_sizes: Any) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _batched(self, name: str, input: Tensor, hx: Any) -> tuple[Tensor, Any, bool]:
        """The input with a batch dim (unbatched 2-D input gets one), checking ``hx``'s rank."""
        if isinstance(input, tuple):
            raise NotImplementedError("minigrad's recurrent layers do not take a PackedSequence")
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D"
                             + (" tensor instead" if name == "RNN" else " instead"))
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        return input, hx, batched

    def _zeros(self, input: Tensor, size: int) -> Tensor:
        batch = input.size(0) if self.batch_first else input.size(1)
        layers = self.num_layers * (2 if self.bidirectional else 1)
        return _creation.zeros(layers, batch, size, dtype=input.dtype)

    def _one_hidden(self, name: str, cell: Any, input: Tensor, hx: Any) -> tuple[Tensor, Tensor]:
        """RNN and GRU: one hidden state ``hx`` of ``(layers·directions, batch, hidden)``."""
        input, hx, batched = self._batched(name, input, hx)
        if hx is not None:
            if not batched and hx.dim() != 2:
                raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
            if batched and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            if not batched:
                hx = hx.unsqueeze(1)
        else:
            hx = self._zeros(input, self.hidden_size)
        self.check_forward_args(input, hx, None)
        output, finals = run_rnn(cell, input, list(hx.unbind(0)), self._weights(), self.num_layers, self.dropout,
                                 self.training, self.bidirectional, self.batch_first)
        hidden = _stack(finals)
        if not batched:
            output, hidden = output.squeeze(0 if self.batch_first else 1), hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """An Elman RNN: ``h_t = tanh(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh)`` (or ``relu``), per layer.

    ``forward(input, hx=None)`` returns ``(output, h_n)``: ``output`` is every step's last-layer state,
    ``(L, N, D·hidden)`` (``(N, L, ...)`` with ``batch_first``), ``h_n`` the final state of each layer
    and direction, ``(layers·D, N, hidden)``.

    >>> import minigrad as torch
    >>> _ = torch.manual_seed(0)
    >>> rnn = torch.nn.RNN(3, 5, num_layers=2)
    >>> rnn
    RNN(3, 5, num_layers=2)
    >>> output, h_n = rnn(torch.randn(7, 2, 3))
    >>> output.shape, h_n.shape
    (torch.Size([7, 2, 5]), torch.Size([2, 2, 5]))
    >>> output.grad_fn
    <StackBackward0 object at 0x...>
    """

    nonlinearity: str

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        activation = Tensor.tanh if self.mode == "RNN_TANH" else Tensor.relu

        def cell(x: Tensor, h: Tensor, p: tuple[Any, ...], projected: bool) -> Tensor:
            return _simple_cell(activation, x, h, p, projected)

        return self._one_hidden("RNN", cell, input, hx)


class GRU(RNNBase):
    """A gated recurrent unit RNN (gates r, z, n per step); ``forward(input, hx=None)`` -> ``(output, h_n)`` as RNN.

    >>> import minigrad as torch
    >>> torch.nn.GRU(4, 6, batch_first=True, bidirectional=True)
    GRU(4, 6, batch_first=True, bidirectional=True)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        return self._one_hidden("GRU", _gru_cell, input, hx)


class LSTM(RNNBase):
    """A long short-term memory RNN: ``forward(input, (h_0, c_0)=None)`` -> ``(output, (h_n, c_n))``.

    >>> import minigrad as torch
    >>> lstm = torch.nn.LSTM(10, 20, 2)
    >>> output, (h_n, c_n) = lstm(torch.randn(5, 3, 10))
    >>> output.shape, h_n.shape, c_n.shape
    (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes: Any) -> tuple[int, int, int]:
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden: Any, batch_sizes: Any) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        input, hx, batched = self._batched("LSTM", input, hx)
        if hx is None:
            real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            hx = (self._zeros(input, real_hidden_size), self._zeros(input, self.hidden_size))
        else:
            if batched and (hx[0].dim() != 3 or hx[1].dim() != 3):
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            if not batched:
                if hx[0].dim() != 2 or hx[1].dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
        output, finals = run_rnn(_lstm_cell, input, hiddens, self._weights(), self.num_layers, self.dropout,
                                 self.training, self.bidirectional, self.batch_first)
        h_n, c_n = _stack([h for h, _ in finals]), _stack([c for _, c in finals])
        if not batched:
            output, h_n, c_n = output.squeeze(0 if self.batch_first else 1), h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


# -- the cells: one time step ---------------------------------------------------------------------

class RNNCellBase(Module):
    """``weight_ih`` ``(chunks·hidden, input)``, ``weight_hh`` ``(chunks·hidden, hidden)``, ``bias_ih``, ``bias_hh``,
    all drawn from U(-1/√hidden_size, 1/√hidden_size) in that order."""

    input_size: int
    hidden_size: int
    bias: bool
    weight_ih: Tensor
    weight_hh: Tensor
    bias_ih: Tensor | None
    bias_hh: Tensor | None

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(_creation.empty(num_chunks * hidden_size, input_size, dtype=dtype))
        self.weight_hh = Parameter(_creation.empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _params(self) -> tuple[Any, ...]:
        return (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh, None)

    def _check(self, input: Tensor, hiddens: tuple[Tensor, ...]) -> None:
        """ATen's checks of ``rnn_tanh_cell``/``lstm_cell``/``gru_cell``, on the batched tensors."""
        if input.size(1) != self.weight_ih.size(1):
            raise RuntimeError("input has inconsistent input_size: got %d expected %d"
                               % (input.size(1), self.weight_ih.size(1)))
        for label, hx in enumerate(hiddens):
            if input.size(0) != hx.size(0):
                raise RuntimeError("Input batch size %d doesn't match hidden%d batch size %d"
                                   % (input.size(0), label, hx.size(0)))
            if hx.size(1) != self.weight_hh.size(1):
                raise RuntimeError("hidden%d has inconsistent hidden_size: got %d, expected %d"
                                   % (label, hx.size(1), self.weight_hh.size(1)))

    def _ranks(self, name: str, input: Tensor, hx: Any, what: str = "hidden") -> bool:
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {hx.dim()}D instead")
        return input.dim() == 2


class RNNCell(RNNCellBase):
    """One Elman step: ``h' = tanh(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh)`` (or ``relu``).

    >>> import minigrad as torch
    >>> cell = torch.nn.RNNCell(3, 4, nonlinearity='relu')
    >>> cell
    RNNCell(3, 4, nonlinearity=relu)
    >>> cell(torch.ones(2, 3)).shape
    torch.Size([2, 4])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        batched = self._ranks("RNNCell", input, hx)
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not batched:
            hx = hx.unsqueeze(0)
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check(input, (hx,))
        activation = Tensor.tanh if self.nonlinearity == "tanh" else Tensor.relu
        ret = _simple_cell(activation, input, hx, self._params(), False)
        return ret if batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``forward(input, (h, c)=None)`` -> ``(h', c')``.

    >>> import minigrad as torch
    >>> h, c = torch.nn.LSTMCell(3, 4)(torch.ones(2, 3))
    >>> h.shape, c.shape
    (torch.Size([2, 4]), torch.Size([2, 4]))
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Tensor]:
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros)
        elif not batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        self._check(input, tuple(hx))
        h, c = _lstm_cell(input, tuple(hx), self._params(), False)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step: ``h' = (h − n)·z + n``.

    >>> import minigrad as torch
    >>> torch.nn.GRUCell(3, 4, bias=False)
    GRUCell(3, 4, bias=False)
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        batched = self._ranks("GRUCell", input, hx)
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not batched:
            hx = hx.unsqueeze(0)
        self._check(input, (hx,))
        ret = _gru_cell(input, hx, self._params(), False)
        return ret if batched else ret.squeeze(0)
