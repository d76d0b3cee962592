"""Read-only model arrays: a :class:`~rbdl_edu.model.model.Model` never changes in place.

Per-model caches (:mod:`rbdl_edu.cache`) and the constants at ``qpos0`` are computed from
a model's arrays once; an array written in place afterwards would be silently ignored by
them. So every model array is a :class:`FrozenArray`, and the one way to change a model is
``model.replace(field=...)``, which returns a new model with everything recomputed.

>>> x = frozen([1.0, 2.0])
>>> x
array([1., 2.])
>>> x[0] = 3.0
Traceback (most recent call last):
    ...
ValueError: a Model's arrays are read-only (caches computed from them would keep the old numbers): model.replace(body_mass=...) returns a model with the change and every constant that depends on it recomputed
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model


class FrozenArray(np.ndarray):
    """A model array: read-only, and an attempt to write it says how to change a model
    (``model.replace``), so an edit can never be silently ignored by a cache that holds the
    old numbers. Arithmetic on it gives plain NumPy arrays."""

    def __repr__(self):
        return repr(self.view(np.ndarray))          # printed as the array it is

    def __setitem__(self, index, value):
        if not self.flags.writeable:
            raise ValueError(FROZEN)
        super().__setitem__(index, value)

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if out is None:                             # the common case: plain arrays in, a plain array out
            return getattr(ufunc, method)(*[x.view(np.ndarray) if type(x) is FrozenArray else x for x in inputs],
                                          **kwargs)
        if out is not None:
            if any(isinstance(o, FrozenArray) and not o.flags.writeable for o in out):
                raise ValueError(FROZEN)
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, FrozenArray) else o for o in out)
        inputs = tuple(x.view(np.ndarray) if isinstance(x, FrozenArray) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)


FROZEN = ("a Model's arrays are read-only (caches computed from them would keep the old numbers): "
          "model.replace(body_mass=...) returns a model with the change and every constant that "
          "depends on it recomputed")


def frozen(value):
    """``value`` as a read-only :class:`FrozenArray` (a copy, unless it is frozen already)."""
    if isinstance(value, FrozenArray) and not value.flags.writeable:
        return value
    x = np.array(value).view(FrozenArray)
    x.flags.writeable = False
    return x


class ReadOnlyViews:
    """A model's arrays as plain read-only NumPy views (``np.ndarray.view(x, np.ndarray)``), its
    other fields as they are: the same numbers, still refused on a write (by NumPy's own
    "assignment destination is read-only"), without :class:`FrozenArray`'s Python-level dispatch
    on every operation. The engine's inner loops read their model arrays here."""

    def __init__(self, model):
        self._model = model

    def __getattr__(self, name):                # the first read of a field; after it, a dict hit
        if name.startswith("_"):                # (copy and pickle ask for hooks before __init__ ran)
            raise AttributeError(name)
        value = getattr(self._model, name)
        if isinstance(value, FrozenArray):
            value = np.ndarray.view(value, np.ndarray)
        self.__dict__[name] = value
        return value


@per_model
def plain(model):
    """``model``'s :class:`ReadOnlyViews`, made once per model.

    >>> from rbdl_edu.models import pendulum
    >>> mass = plain(pendulum()).body_mass
    >>> type(mass).__name__, mass.flags.writeable
    ('ndarray', False)
    """
    return ReadOnlyViews(model)
