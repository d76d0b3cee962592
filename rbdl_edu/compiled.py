"""The same algorithms, compiled with JAX (``pip install rbdl_edu[jax]``).

Nothing here is a second copy of an algorithm: :func:`jit` hands ``rnea``, ``crba``,
``aba``, the kinematics or the factorization *as they are* to ``jax.jit``. They run on
JAX arrays because every line is written over arrays (``@``, ``.mT``, ``xp.matvec``, with
``xp`` the array library of the inputs, :func:`rbdl_edu.arrays.namespace`) and builds its
results from per-body pieces instead of writing into arrays.

What to know:

* importing this module switches JAX to 64-bit floats (``jax_enable_x64``); it must happen
  before any JAX array exists, else JAX silently computes in 32 bits (the algorithms
  refuse float32 JAX input with a clear error). It also asks JAX to run CPU computations in
  the calling thread (``jax_cpu_enable_async_dispatch`` off, also before the first array): a
  call of a few microseconds costs half as much without the hand-over to a worker thread;
* small NumPy arguments travel to the compiled function as one buffer (one transfer, not one
  per argument); JAX arrays pass straight through;
* a model's numbers are constants of the compiled function (the loops over bodies unroll
  at trace time), so a compiled function belongs to one model: :func:`jit` keeps one per
  ``(model, function)`` and a notebook pays the compile once;
* ``jax.vmap`` gives batches (``batched=True``), ``jax.jacfwd``/``jax.grad`` derivatives
  (:mod:`rbdl_edu.derivatives`);
* the smooth simulation step compiles too: ``jit(model, pure_step)`` of
  :func:`rbdl_edu.simulation.step.pure_step`, ``(qpos, qvel, act, ctrl) -> (qpos, qvel, act)``,
  constraints off (the stages write into ``Data`` with :func:`rbdl_edu.arrays.put` and
  per-body lists, so the same lines trace).

>>> import rbdl_edu as rbd
>>> from rbdl_edu import compiled
>>> model = rbd.models.double_pendulum()
>>> rnea = compiled.jit(model, rbd.rnea)
>>> rnea([0.3, -0.2], [0.0, 0.0], [1.0, 1.0]).round(6)
Array([8.308363, 1.646383], dtype=float64)
>>> compiled.jit(model, rbd.rnea) is rnea        # compiled once per model
True
"""
from __future__ import annotations

import weakref

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError as e:                      # the optional extra is missing
    raise ImportError("rbdl_edu.compiled needs JAX: pip install 'rbdl_edu[jax]'") from e

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_cpu_enable_async_dispatch", False)      # read when JAX makes its CPU client

_compiled = weakref.WeakKeyDictionary()       # model -> {(function, batched): compiled}

#: NumPy arguments of at most this many numbers in all are joined into one vector for the call
PACKED_MAX = 4096


def jit(model, function, batched=False):
    """``function(model, *arrays)`` compiled for ``model`` with ``jax.jit`` (and
    ``jax.vmap`` over a leading batch axis of every argument if ``batched``); cached per
    model. The arguments may be NumPy arrays or lists; the result is a JAX array.

    Parameters
    ----------
    model : Model
    function : callable ``function(model, *arrays)``, e.g. ``rbd.rnea``, ``rbd.aba``
    batched : bool
    """
    cache = _compiled.setdefault(model, {})
    key = (function, batched)
    if key not in cache:
        def run(*arrays):
            return function(model, *arrays)
        cache[key] = _caller(jax.vmap(run) if batched else run)
    return cache[key]


def _caller(f):
    """``jax.jit(f)``, called with float64 arrays (lists and numbers converted); small NumPy
    arguments are joined into one vector, split again (by slices, free) inside the compiled
    function, one compiled function per tuple of shapes."""
    whole, packed = jax.jit(f), {}

    def call(*arrays):
        arrays = [a if hasattr(a, "dtype") else np.asarray(a, dtype=float) for a in arrays]
        if not all(type(a) is np.ndarray and a.dtype == np.float64 for a in arrays) \
                or sum(a.size for a in arrays) > PACKED_MAX:
            return whole(*arrays)
        shapes = tuple(a.shape for a in arrays)
        if shapes not in packed:
            packed[shapes] = jax.jit(_unpacking(f, shapes))
        return packed[shapes](np.concatenate([a.ravel() for a in arrays]))
    return call


def _unpacking(f, shapes):
    """``f`` of the arrays of ``shapes`` laid end to end in one vector."""
    ends = np.cumsum([0] + [int(np.prod(s)) for s in shapes]).tolist()

    def g(flat):
        return f(*(flat[a:b].reshape(s) for a, b, s in zip(ends, ends[1:], shapes)))
    return g
