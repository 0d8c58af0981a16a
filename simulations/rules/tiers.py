"""A compiled rule run as plain Python all the way down, for the reference engine.

Each rule function here is a numba dispatcher whose ``.py_func`` is its Python source.  A rule
that calls another rule calls it through the dispatcher, compiled, in 64-bit integers; the
reference engine settles in Python integers of any size (guts without a cap: a pot past
2^63 chips), and calling a dispatcher from Python costs more than the few lines it runs.
:func:`plain_python` gives the same code object with every rule it calls taken by its own
Python source (the rule's ``.py_func`` itself when it calls none): the same arithmetic, no
second copy.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any


@functools.cache  # one plain-Python object per rule, so each caller holds the same one
def plain_python(rule: Any) -> Callable[..., Any]:
    """``rule`` (a numba dispatcher) as plain Python: its own source, calling every compiled
    function it names by that function's source too."""
    # A rule without its numba decorator (the mutation run mutates the rules core as plain
    # Python) is its own source.
    source: types.FunctionType = getattr(rule, "py_func", rule)
    names = dict(source.__globals__)
    compiled = [name for name in source.__code__.co_names if hasattr(names.get(name), "py_func")]
    if not compiled:
        return source  # calls nothing compiled: its source is the plain-Python tier
    for name in compiled:
        names[name] = plain_python(names[name])
    return types.FunctionType(
        source.__code__, names, source.__name__, source.__defaults__, source.__closure__
    )
