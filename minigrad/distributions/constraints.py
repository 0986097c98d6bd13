"""The constraints a distribution checks its parameters and samples against (``torch.distributions.constraints``)."""

from __future__ import annotations

from typing import Any

__all__ = ["Constraint", "real", "positive", "unit_interval", "boolean", "simplex", "real_vector", "dependent",
           "interval", "integer_interval", "greater_than", "less_than", "dependent_property"]


class Constraint:
    """A region of values: ``check(value)`` is a bool tensor, True where the value is inside."""

    is_discrete = False
    event_dim = 0

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.__class__.__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on the distribution's parameters (not checked)."""

    def __init__(self, *, is_discrete: bool = False, event_dim: int = 0) -> None:
        self.is_discrete, self.event_dim = is_discrete, event_dim

    def check(self, value: Any) -> Any:
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint: Any) -> bool:
    return isinstance(constraint, _Dependent)


class _DependentProperty(property):
    """A property of the distribution (``support`` of Uniform) that is also a dependent constraint."""


def dependent_property(fn: Any = None, *, is_discrete: bool = False, event_dim: int = 0) -> Any:
    if fn is None:
        return lambda f: _DependentProperty(f)
    return _DependentProperty(fn)


class _Real(Constraint):
    def check(self, value: Any) -> Any:
        return value == value                      # False only at nan


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value: Any) -> Any:
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Any) -> Any:
        return self.lower_bound < value

    def __repr__(self) -> str:
        return "GreaterThan(lower_bound=%s)" % (self.lower_bound,)


class _LessThan(Constraint):
    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Any) -> Any:
        return value < self.upper_bound

    def __repr__(self) -> str:
        return "LessThan(upper_bound=%s)" % (self.upper_bound,)


class _Interval(Constraint):
    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value: Any) -> Any:
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return "Interval(lower_bound=%s, upper_bound=%s)" % (self.lower_bound, self.upper_bound)


class _HalfOpenInterval(_Interval):
    def check(self, value: Any) -> Any:
        return (self.lower_bound <= value) & (value < self.upper_bound)

    def __repr__(self) -> str:
        return "HalfOpenInterval(lower_bound=%s, upper_bound=%s)" % (self.lower_bound, self.upper_bound)


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value: Any) -> Any:
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return "IntegerInterval(lower_bound=%s, upper_bound=%s)" % (self.lower_bound, self.upper_bound)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value: Any) -> Any:
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _IndependentConstraint(Constraint):
    def __init__(self, base: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint, self.reinterpreted_batch_ndims = base, reinterpreted_batch_ndims
        self.event_dim = base.event_dim + reinterpreted_batch_ndims

    def check(self, value: Any) -> Any:
        result = self.base_constraint.check(value)
        for _ in range(self.reinterpreted_batch_ndims):
            result = result.all(-1)
        return result

    def __repr__(self) -> str:
        return "IndependentConstraint(%r, %d)" % (self.base_constraint, self.reinterpreted_batch_ndims)


dependent = _Dependent()
real = _Real()
boolean = _Boolean()
positive = _GreaterThan(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
real_vector = _IndependentConstraint(real, 1)
greater_than = _GreaterThan
less_than = _LessThan
interval = _Interval
half_open_interval = _HalfOpenInterval
integer_interval = _IntegerInterval
