"""What depends on the model alone (a body's spatial inertia, its fixed offset from its
parent, a hinge's motion subspace) is computed once per model and reused.

The values live on the model object itself (a model never changes: ``model.replace``
returns a new one, with no cache), so a lookup is two dictionary reads.

>>> from rbdl_edu.models import pendulum
>>> @per_model
... def nbody_squared(model):
...     return model.nbody ** 2
>>> nbody_squared(pendulum())
4
"""
from __future__ import annotations

import functools
import sys

import numpy as np

_ATTRIBUTE = "_per_model_cache"          # model.__dict__[_ATTRIBUTE]: {function: {args: value}}


def per_model(f):
    """Decorator: cache ``f(model, *args)`` for as long as ``model`` lives (arrays, alone or in a
    tuple, come back read-only so no caller can change the cached value)."""
    @functools.wraps(f)
    def cached(model, *args):
        try:
            return model.__dict__[_ATTRIBUTE][f][args]
        except KeyError:
            pass
        value = f(model, *args)
        for array in (value if isinstance(value, tuple) else (value,)):
            if isinstance(array, np.ndarray):
                array.setflags(write=False)
        model.__dict__.setdefault(_ATTRIBUTE, {}).setdefault(f, {})[args] = value
        return value
    return cached


@per_model
def ids_where(model, field, value=None):
    """The ids whose entry of the model's array ``field`` is ``value`` (not zero, if None), a tuple
    found once per model (what a stage loops over: most models have no muscle, no DC motor, ...).

    >>> from rbdl_edu.models import double_pendulum
    >>> ids_where(double_pendulum(), "body_parentid", 1), ids_where(double_pendulum(), "body_dofnum")
    ((2,), (1, 2))
    """
    x = np.asarray(getattr(model, field))
    return tuple(np.flatnonzero(x if value is None else x == value).tolist())


_STATE_ATTRIBUTE = "_per_state_cache"    # model.__dict__[_STATE_ATTRIBUTE]: {function: {key: value}}
_STATES_KEPT = 4                         # recent argument sets remembered per function
_MISSING = object()
_NONE = {}                               # (no memo yet; never written)
_FLOAT64 = np.dtype(np.float64)         # (NumPy's one float64 dtype: compared by identity)


def per_state(f):
    """Decorator: remember ``f(model, *args)`` for the last few argument sets, where ``args``
    mixes ints and one state of numbers (NumPy ``float64`` vectors, compared by value). A step
    asks for a joint's transform at the same ``qpos`` in kinematics, the com frames, CRBA and
    RNEA: it is computed once. JAX arrays (immutable) and tracers are compared by identity, so
    a traced step computes it once too (a graph a quarter the size for XLA to compile and
    run). A batch of NumPy states is remembered alone (the last one; RNEA asks for its dofs'
    axes three times); symbols are never cached (the call goes straight through). Arrays
    come back read-only.

    >>> from rbdl_edu.models import pendulum
    >>> @per_state
    ... def twice(model, q):
    ...     return 2 * q
    >>> model, q = pendulum(), np.array([1.0])
    >>> twice(model, q) is twice(model, q), twice(model, np.array([2.0]))
    (True, array([4.]))
    """
    @functools.wraps(f)
    def cached(model, *args):
        a = args[0] if len(args) == 1 else None
        if type(a) is np.ndarray and a.dtype is _FLOAT64 and a.ndim == 1:
            key = a.tobytes()                       # (the commonest call: f(model, q), asked first)
        else:
            key = _key(args)
            if key is None:
                return f(model, *args)              # a batch, symbols, JAX, ...: not cached
        memo = model.__dict__.get(_STATE_ATTRIBUTE, _NONE).get(f)
        if memo is None:
            memo = model.__dict__.setdefault(_STATE_ATTRIBUTE, {}).setdefault(f, {})
        value = memo.get(key, _MISSING)
        if value is not _MISSING:
            return value
        value = f(model, *args)
        for array in (value if isinstance(value, tuple) else (value,)):
            if isinstance(array, np.ndarray):
                array.setflags(write=False)
        if len(memo) >= _STATES_KEPT * max(model.nbody, model.njnt) or (type(key) is tuple and _batch(key)):
            memo.clear()                            # keep a few states' worth, or one batch, not every state
        memo[key] = value
        return value
    return cached


def _key(args):
    """The memo key of :func:`per_state`'s arguments: a tuple of the ints and the states'
    bytes (a batch's: its shape and bytes), or None where an argument is not cached (symbols,
    ...)."""
    key = []
    for a in args:
        kind = type(a)
        if kind is int:                             # (the common cases first: an index, ...
            key.append(a)
        elif kind is np.ndarray and a.dtype is _FLOAT64 and a.ndim == 1:
            key.append(a.tobytes())                 # ... and one state of numbers)
        elif kind is np.ndarray and a.dtype is _FLOAT64:
            key.append((a.shape, a.tobytes()))      # a batch of states
        elif isinstance(a, np.ndarray):             # (a subclass, a model's frozen array)
            if a.dtype != np.float64 or a.ndim != 1:
                return None
            key.append(a.tobytes())
        elif isinstance(a, (int, np.integer)):
            key.append(a)
        elif _is_jax(a):
            key.append(_Same(a))
        else:
            return None
    return tuple(key)


def _batch(key):
    """True for the key of a batch of states (kept alone: its values are as large as the batch)."""
    return type(key) is tuple and any(type(k) is tuple for k in key)


def _is_jax(x):
    """A JAX array or tracer (without importing JAX)."""
    if type(x) is np.ndarray or type(x) is float or type(x) is int:
        return False
    jax = sys.modules.get("jax")
    return jax is not None and isinstance(x, jax.Array)


class _Same:
    """A key equal only to a key of the very same array, which it keeps alive (so that no other
    array takes its ``id`` while the memo holds it)."""
    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x

    def __hash__(self):
        return id(self.x)

    def __eq__(self, other):
        return type(other) is _Same and other.x is self.x
