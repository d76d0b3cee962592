"""What depends on the model alone (a body's spatial inertia, its fixed offset from its
parent, a hinge's motion subspace) is computed once per model and reused.

>>> from rbdl_edu.models import pendulum
>>> @per_model
... def nbody_squared(model):
...     return model.nbody ** 2
>>> nbody_squared(pendulum())
4
"""
from __future__ import annotations

import functools
import weakref

import numpy as np

_store = weakref.WeakKeyDictionary()      # model -> {(function name, args): value}


def per_model(f):
    """Decorator: cache ``f(model, *args)`` for as long as ``model`` lives (arrays, alone or in a
    tuple, come back read-only so no caller can change the cached value)."""
    @functools.wraps(f)
    def cached(model, *args):
        memo = _store.setdefault(model, {})
        key = (f.__name__,) + args
        if key not in memo:
            value = f(model, *args)
            for array in (value if isinstance(value, tuple) else (value,)):
                if isinstance(array, np.ndarray):
                    array.setflags(write=False)
            memo[key] = value
        return memo[key]
    return cached
