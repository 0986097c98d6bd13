"""Anomaly detection (``detect_anomaly`` / ``set_detect_anomaly``), run on minigrad and on PyTorch alike."""

from __future__ import annotations

import threading
import warnings

import pytest

ENABLED = ("Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled "
           "for debugging.")


@pytest.fixture(autouse=True)
def _mode_off_afterwards(lib):
    yield
    lib.autograd.set_detect_anomaly(False)


def _nan_program(lib):
    a = lib.tensor([0.0, 1.0], requires_grad=True)
    b = a * 0
    c = b / b                       # the line anomaly mode must point at
    return a, c


def test_detect_anomaly_warns_and_raises_on_the_first_nan_formula(lib):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with lib.autograd.detect_anomaly():
            assert lib.is_anomaly_enabled()
            assert lib.is_anomaly_check_nan_enabled()
            a, c = _nan_program(lib)
            assert "traceback_" in c.grad_fn.metadata
            with pytest.raises(RuntimeError, match=r"^Function 'DivBackward0' returned nan values in its 1th output"):
                c.sum().backward()
        assert not lib.is_anomaly_enabled()
    messages = [str(w.message) for w in caught]
    assert messages[0] == ENABLED
    assert messages[1].startswith("Error detected in DivBackward0. Traceback of forward call that caused the error:\n")
    assert "c = b / b" in messages[1]
    assert __file__ in messages[1]
    assert "minigrad" + "/" not in messages[1].split("\n", 1)[1].replace(__file__, "")   # only the user's frames
    assert a.grad is None


def test_check_nan_false_lets_the_nan_through(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with lib.autograd.detect_anomaly(check_nan=False):
            assert lib.is_anomaly_enabled()
            assert not lib.is_anomaly_check_nan_enabled()
            a, c = _nan_program(lib)
            c.sum().backward()
    assert a.grad.isnan().all()
    assert lib.is_anomaly_check_nan_enabled()          # restored


def test_set_detect_anomaly_is_a_call_and_a_context_manager(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("error")                   # set_detect_anomaly itself does not warn
        mode = lib.autograd.set_detect_anomaly(True)
        assert lib.is_anomaly_enabled()
        with mode:
            assert lib.is_anomaly_enabled()
        assert not lib.is_anomaly_enabled()              # __exit__ restores the mode from before the call
        with lib.autograd.set_detect_anomaly(True, check_nan=False):
            assert lib.is_anomaly_enabled()
            assert not lib.is_anomaly_check_nan_enabled()
        assert not lib.is_anomaly_enabled()
        assert lib.is_anomaly_check_nan_enabled()


def test_an_error_in_a_custom_backward_names_the_forward_line(lib):
    class Boom(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom")

    lib.autograd.set_detect_anomaly(True)
    x = lib.ones(2, requires_grad=True)
    y = Boom.apply(x)               # the forward call
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="boom"):
            y.sum().backward()
    (message,) = [str(w.message) for w in caught]
    assert message.startswith("Error detected in BoomBackward. Traceback of forward call that caused the error:")
    assert "y = Boom.apply(x)" in message


def test_nodes_from_before_the_mode_have_no_forward_stack(lib):
    _a, c = _nan_program(lib)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.autograd.set_detect_anomaly(True)
        with pytest.raises(RuntimeError, match="returned nan values in its 1th output"):
            c.sum().backward()
    (message,) = [str(w.message).split(" (Triggered internally")[0] for w in caught]   # PyTorch adds its C++ file
    assert message == ("Error detected in DivBackward0. No forward pass information available. Enable detect "
                       "anomaly during forward pass for more information.")


def test_the_mode_is_process_wide_and_off_means_no_check(lib):
    seen = []
    lib.autograd.set_detect_anomaly(True)
    worker = threading.Thread(target=lambda: seen.append(lib.is_anomaly_enabled()))
    worker.start()
    worker.join()
    assert seen == [True]
    lib.autograd.set_detect_anomaly(False)
    a, c = _nan_program(lib)
    c.sum().backward()                                   # off: NaN flows into .grad silently
    assert a.grad.isnan().all()
    assert "traceback_" not in c.grad_fn.metadata
