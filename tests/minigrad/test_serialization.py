"""torch.save / torch.load: round trips, and a load that cannot run code unless asked to."""

from __future__ import annotations

import io
import pickle
import zipfile
from collections import OrderedDict

import pytest

import minigrad as torch


def roundtrip(obj, **kwargs):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer, **kwargs)


def test_state_dict_and_checkpoint_round_trip(tmp_path):
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    torch.save(model.state_dict(), tmp_path / "m.pth")
    loaded = torch.load(tmp_path / "m.pth")
    assert isinstance(loaded, OrderedDict)
    assert list(loaded) == list(model.state_dict())
    assert all(torch.equal(loaded[k], v) for k, v in model.state_dict().items())
    checkpoint = roundtrip({"epoch": 2, "loss": float("inf"), "sizes": torch.Size([1, 2]), "dtype": torch.int64,
                            "nested": [(1, 2.5), {"k": None}], "blob": b"\x00\x01", "big": -(2**70)})
    assert checkpoint == {"epoch": 2, "loss": float("inf"), "sizes": torch.Size([1, 2]), "dtype": torch.int64,
                          "nested": [(1, 2.5), {"k": None}], "blob": b"\x00\x01", "big": -(2**70)}


def test_shared_tensors_stay_shared_and_dtypes_survive():
    x = torch.arange(3)
    p = torch.nn.Parameter(torch.ones(2))
    a, b, c, d = roundtrip([x, x, p, torch.tensor([1.5], dtype=torch.float64)])
    assert a is b
    assert a.dtype is torch.int64
    assert isinstance(c, torch.nn.Parameter)
    assert c.requires_grad
    assert d.dtype is torch.float64


class _Boom:
    def __reduce__(self):
        return (exec, ("import builtins; builtins.BOOM = True",))


def test_weights_only_load_never_unpickles():
    buffer = io.BytesIO()
    torch.save({"x": _Boom()}, buffer)
    buffer.seek(0)
    import builtins

    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        torch.load(buffer)
    assert not hasattr(builtins, "BOOM")


def test_weights_only_false_loads_a_whole_module():
    model = roundtrip(torch.nn.Linear(2, 2), weights_only=False)
    assert isinstance(model, torch.nn.Linear)


def test_a_pickle_smuggled_into_the_tree_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("minigrad/format", "minigrad-save/1")
        z.writestr("minigrad/data.json", '{"t": "tensor", "id": 0, "dtype": "float32", "requires_grad": false, '
                                         '"parameter": false}')
        z.writestr("minigrad/tensors/0.npy", pickle.dumps(_Boom()))
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="not a plain array"):  # numpy's allow_pickle=False
        torch.load(buffer)


def test_not_a_minigrad_file():
    with pytest.raises(pickle.UnpicklingError):
        torch.load(io.BytesIO(b"not a zip"))
