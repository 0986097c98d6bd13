"""``torch.add(t, ...)`` & co.: the functions minigrad/__init__.py makes from Tensor methods, one list.

The loop over ``_TENSOR_METHODS`` makes them at run time; the ``if TYPE_CHECKING:`` block spells each out
(``add = Tensor.add``) for type checkers and IDEs.  The two must name the same functions, in the same order.
"""

from __future__ import annotations

import ast
from pathlib import Path

import minigrad

INIT = Path(minigrad.__file__)


def _type_checking_names() -> list[str]:
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    blocks = [node for node in tree.body
              if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"]
    assert len(blocks) == 1, "minigrad/__init__.py should have one `if TYPE_CHECKING:` block"
    names = []
    for stmt in blocks[0].body:
        assert isinstance(stmt, ast.Assign), ast.unparse(stmt)
        (target,) = stmt.targets
        assert isinstance(target, ast.Name), ast.unparse(stmt)
        assert ast.unparse(stmt.value) == "Tensor." + target.id, ast.unparse(stmt)
        names.append(target.id)
    return names


def test_the_type_checking_block_spells_out_every_tensor_method_function() -> None:
    assert _type_checking_names() == minigrad._TENSOR_METHODS


def test_every_tensor_method_function_exists_and_names_itself() -> None:
    for name in minigrad._TENSOR_METHODS:
        fn = getattr(minigrad, name)
        assert fn.__name__ == name
        assert hasattr(minigrad.Tensor, name), name
        assert name in minigrad.__all__, name


def test_a_function_is_its_method() -> None:
    x = minigrad.tensor([-1.5, 0.0, 2.0])
    assert minigrad.sgn(x).tolist() == x.sgn().tolist() == [-1.0, 0.0, 1.0]
    assert minigrad.add(2, x).tolist() == [0.5, 2.0, 4.0]
