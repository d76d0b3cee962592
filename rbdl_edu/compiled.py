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
* it asks JAX for one worker thread (``PJRT_NPROC=1``, unless already set, also before the
  first array): XLA runs a compiled function's kernels on a pool of threads when they are
  independent, and for these graphs of hundreds of tiny kernels waking the pool costs more
  than it saves (the accelerated humanoid step, four calls: 4.4 -> 3.1 ms of CPU);
* XLA compiles with :data:`COMPILER_OPTIONS` (its older loop emitter: two thirds of the
  compile time for these graphs of many small operations; matrix products in the calling
  thread);
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

import os
import weakref

import numpy as np

from rbdl_edu.arrays import tracing_batch

try:
    import jax
    import jax.numpy as jnp
except ImportError as e:                      # the optional extra is missing
    raise ImportError("rbdl_edu.compiled needs JAX: pip install 'rbdl_edu[jax]'") from e

os.environ.setdefault("PJRT_NPROC", "1")                       # read when JAX makes its CPU client
jax.config.update("jax_enable_x64", True)
jax.config.update("jax_cpu_enable_async_dispatch", False)      # read when JAX makes its CPU client

_compiled = weakref.WeakKeyDictionary()       # model -> {(function, batched): compiled}

#: XLA options for these graphs of many small operations (dropped where XLA does not know them):
#: its older loop emitter compiles them in about two thirds of the time of the newer fusion
#: emitters, and they run as fast (a smooth step of a 32-link chain: 13.2 -> 8.5 s of CPU);
#: matrix products of 6×6 and smaller run in the calling thread, not handed to Eigen's thread
#: pool (a jitted rnea on the Panda: about 4 µs less per call, 4096 states vmap-ed as fast);
#: the kernels are ordered by XLA's memory-optimised scheduler (a jitted rnea on the Panda:
#: 95 -> 18 µs, 2026-11-26; the steps unchanged). Measured, not derived: XLA's CPU runtime
#: runs kernels one after another when they form a chain or touch only buffers of ≤ 512 bytes,
#: else as a graph of tasks (~0.5 µs each), and the per-level RNEA's stacked transforms are
#: larger; in this order (buffers reused) the small robot's kernels run as the former
COMPILER_OPTIONS = {"xla_cpu_use_fusion_emitters": False, "xla_cpu_multi_thread_eigen": False,
                    "xla_cpu_scheduler_type": "CPU_SCHEDULER_TYPE_MEMORY_OPTIMIZED"}


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
            with tracing_batch(batched):      # a batch's recursions go body by body (batch_traced)
                return function(model, *arrays)
        cache[key] = _caller(jax.vmap(run) if batched else run)
    return cache[key]


def _caller(f):
    """``jax.jit(f)`` with :data:`COMPILER_OPTIONS`, called with arrays (lists and numbers become
    float64 arrays; arrays pass straight: a conversion would cost more than the call). Several
    vectors of NumPy floats (the common call: ``q, qd, qdd``) go in joined as one vector and are
    split again inside the compiled function: JAX checks and hands over one argument instead
    of several (a jitted rnea on the Panda: about 1–3 µs less per call)."""
    plain, joined = [], {}                    # joined: the vectors' sizes -> f of one vector

    def call(*arrays):
        sizes = []
        for a in arrays:
            if type(a) is not np.ndarray or a.ndim != 1 or a.dtype is not _FLOAT64:
                break
            sizes.append(a.shape[0])
        else:
            if len(sizes) > 1:
                x, sizes = np.concatenate(arrays), tuple(sizes)
                g = joined.get(sizes)
                if g is None:
                    g = joined[sizes] = _jitted(_split(f, sizes), x)
                return g(x)
        arrays = [a if hasattr(a, "dtype") else np.asarray(a, dtype=float) for a in arrays]
        if not plain:
            plain.append(_jitted(f, *arrays))
        return plain[0](*arrays)
    return call


_FLOAT64 = np.dtype(np.float64)         # (NumPy's one float64 dtype: compared by identity)


def _split(f, sizes):
    """``f`` of one vector, the vectors of ``sizes`` joined."""
    ends = np.cumsum(sizes).tolist()

    def g(x):
        return f(*(x[end - n:end] for n, end in zip(sizes, ends)))
    return g


def _jitted(f, *example):
    """``jax.jit(f, compiler_options=COMPILER_OPTIONS)``, compiled for the arguments ``example``,
    or plain ``jax.jit(f)`` with an XLA that does not know the options."""
    compiled = jax.jit(f, compiler_options=COMPILER_OPTIONS)
    try:
        compiled(*example)
    except jax.errors.JaxRuntimeError as e:      # an XLA that does not know the options
        if "compile option" not in str(e):
            raise
        compiled = jax.jit(f)
    return compiled
