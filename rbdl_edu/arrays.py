"""What lets one algorithm run on floats, batches, SymPy symbols and JAX arrays.

The algorithms are written once, over arrays, in NumPy's notation (``@``, ``X.mT``,
``matvec``). Three kinds of array flow through the same lines:

* NumPy ``float64`` arrays, with optional leading batch dimensions ``(..., n)``;
* NumPy arrays of ``dtype=object`` whose entries are SymPy expressions (symbolic);
* JAX arrays (``rbdl_edu[jax]``), so ``jax.jit``, ``jax.vmap`` and ``jax.grad`` work.

:func:`namespace` picks the array library of the inputs (``numpy`` or ``jax.numpy``),
called ``xp`` in the code, as the Python array API standard does. The few operations that
differ for symbols (``sin``, ``cos``, a small matrix inverse) dispatch here, and nowhere
else.

>>> import sympy as sp
>>> float(sin(0.0)), cos(sp.Symbol('t'))
(0.0, array(cos(t), dtype=object))
"""
from __future__ import annotations

import contextlib
import functools
import sys

import numpy as np
import sympy as sp


#: NumPy's float64 dtype: ``x.dtype == FLOAT64`` asks the same as ``x.dtype == FLOAT64``, without
#: making the dtype from the type on every call (the fast paths below ask it per operation)
FLOAT64 = np.dtype(np.float64)


#: types that are never JAX arrays, told apart by a set lookup (``isinstance(x, jax.Array)`` takes a
#: Python call of JAX's metaclass, asked of every argument of every operation once JAX is imported)
NOT_JAX = frozenset({np.ndarray, float, int, bool, np.float64, type(None)})


def is_jax(x) -> bool:
    """True for a JAX array or tracer (checked without importing JAX)."""
    if type(x) in NOT_JAX:
        return False
    jax = sys.modules.get("jax")
    return jax is not None and isinstance(x, jax.Array)


def namespace(*xs):
    """``jax.numpy`` if any argument is a JAX array, else ``numpy``.

    >>> namespace(np.zeros(3)).__name__
    'numpy'
    """
    jax = sys.modules.get("jax")
    if jax is not None:
        for x in xs:
            if type(x) not in NOT_JAX and isinstance(x, jax.Array):
                return jax.numpy
    return np


def is_symbolic(*xs) -> bool:
    """True if any argument is a SymPy expression or an object array.

    >>> is_symbolic(1.0, np.zeros(3)), is_symbolic(sp.Symbol('q'))
    (False, True)
    """
    for x in xs:
        if isinstance(x, sp.Basic):
            return True
        if isinstance(x, np.ndarray) and x.dtype == object:
            return True
    return False


def asarray(x, dtype=None):
    """``x`` as an array: JAX arrays stay as they are; otherwise ``float64``, or ``object``
    if it holds SymPy entries (or ``dtype=object`` is asked for).

    >>> asarray([1, 2]).dtype, asarray([sp.Symbol('m'), 1]).dtype
    (dtype('float64'), dtype('O'))
    """
    if type(x) is np.ndarray and x.dtype == FLOAT64 and dtype is None:    # the common case, first
        return x
    if is_jax(x):
        return x
    if dtype is object or is_symbolic(x):
        return np.array(x, dtype=object) if not isinstance(x, np.ndarray) else x.astype(object)
    if isinstance(x, np.ndarray) and x.dtype == FLOAT64:
        return x
    a = np.asarray(x)
    if a.dtype == object:                   # a list holding a SymPy entry
        return a
    return a.astype(float)


@functools.lru_cache(maxsize=None)
def _numpy_eye(n, dtype):
    identity = np.eye(n, dtype=dtype)
    identity.setflags(write=False)
    return identity


def eye(xp, n, dtype):
    """``xp.eye(n, dtype=dtype)``; for NumPy one shared read-only matrix per ``(n, dtype)``
    (made once, not at every call).

    >>> eye(np, 2, float)
    array([[1., 0.],
           [0., 1.]])
    """
    if xp is np:
        return _numpy_eye(n, np.dtype(dtype))
    return xp.eye(n, dtype=dtype)


def concat(*parts):
    """The parts joined along their last axis, their leading (batch) dimensions broadcast
    first: ``concat(w (..., 3), v (3,))`` is ``(..., 6)``.

    >>> concat(np.zeros((2, 3)), np.ones(3)).shape
    (2, 6)
    """
    if all(type(p) is np.ndarray for p in parts):          # NumPy arrays of one batch shape: nothing to broadcast
        batch = parts[0].shape[:-1]
        if all(p.shape[:-1] == batch for p in parts):
            return np.concatenate(parts, axis=-1)
    xp = namespace(*parts)
    leading = [np.shape(p)[:-1] for p in parts]
    if any(s != leading[0] for s in leading):
        batch = np.broadcast_shapes(*leading)
        parts = [xp.broadcast_to(p, batch + np.shape(p)[-1:]) for p in parts]
    return xp.concatenate(parts, axis=-1)


def entries(x):
    """The entries of ``x`` along its last axis, as a list: Python floats for one vector of
    numbers (scalar arithmetic on them is several times faster than on NumPy scalars), else
    the slices ``x[..., k]`` (batches, symbols, JAX).

    >>> entries(np.array([1.0, 2.0])), entries(np.ones((2, 2)))[0]
    ([1.0, 2.0], array([1., 1.]))
    """
    if type(x) is np.ndarray and x.ndim == 1 and x.dtype == FLOAT64:
        return x.tolist()
    return [x[..., k] for k in range(x.shape[-1])]


def from_entries(parts, *like):
    """The inverse of :func:`entries`: ``parts`` stacked along a new last axis, an array of
    the kind of the arrays ``like`` they were computed from.

    >>> from_entries([1.0, 2.0], np.zeros(2))
    array([1., 2.])
    """
    if all(type(x) is np.ndarray and x.ndim == 1 and x.dtype == FLOAT64 for x in like):
        return np.array(parts, dtype=np.float64)
    return namespace(*like).stack(parts, axis=-1)


def _elementwise(f_num, f_sym):
    f_np = getattr(np, f_num)

    def f(x):
        if type(x) is np.ndarray and x.dtype == FLOAT64:     # numbers: NumPy's, asked first
            return f_np(x)
        if is_symbolic(x):                   # an object array (0-d for a single symbol)
            return np.vectorize(f_sym, otypes=[object])(x)
        return getattr(namespace(x), f_num)(x)
    f.__doc__ = f"``{f_num}`` for floats and arrays (NumPy or JAX), ``sympy.{f_sym.__name__}`` for symbols."
    return f


sin = _elementwise("sin", sp.sin)
cos = _elementwise("cos", sp.cos)


def inv(A):
    """Inverse of a small square matrix ``(..., n, n)``; SymPy's for object arrays.

    >>> inv(np.array([[2.0]]))
    array([[0.5]])
    """
    if A.shape[-1] == 0:                     # a body without dofs: nothing to invert
        return A
    if is_symbolic(A):
        if A.shape[-1] == 1:
            return 1 / A
        out = np.empty(A.shape, dtype=object)
        for idx in np.ndindex(A.shape[:-2]):
            out[idx] = np.array(sp.Matrix(A[idx]).inv(), dtype=object)
        return out
    if A.shape[-1] == 1:
        return 1.0 / A
    return namespace(A).linalg.inv(A)


def put(x, index, value):
    """``x`` with ``x[index] = value``, as a new array: a NumPy copy written in place, or JAX's
    ``x.at[index].set(value)`` (its arrays are immutable), so that the same line runs on
    numbers, symbols and traced arrays.

    >>> put(np.zeros(3), slice(1, 3), 2.0)
    array([0., 2., 2.])
    """
    if is_jax(x) or is_jax(value):
        return namespace(x, value).asarray(x).at[index].set(value)
    y = np.array(x, dtype=object if is_symbolic(x, value) else np.result_type(x, value))
    y[index] = value
    return y


def write(x, index, value):
    """``x[index] = value`` in ``x`` itself, which is returned: a NumPy buffer keeps its
    identity, so a view a caller holds follows it (as a slice of MuJoCo's ``mjData`` does);
    JAX's arrays are immutable, so there it is :func:`put`'s new array.

    >>> x = np.zeros(3); view = x[1:]
    >>> write(x, 1, 5.0) is x, view
    (True, array([5., 0.]))
    """
    if type(x) is np.ndarray and (type(value) is np.ndarray or type(value) is float or not is_jax(value)):
        x[index] = value                    # (NumPy, the common case, asked first)
        return x
    if type(x) is Rows:                     # a traced batch's rows (rows): the list takes the row
        x.rows[index] = value
        return x
    if type(index) is np.ndarray and index.ndim == 1:     # JAX, rows by number: gathered, not scattered
        return _write_rows(namespace(x, value), x, index, value)
    return put(x, index, value)


_BATCH_TRACED = [False]


def batch_traced():
    """True while :func:`rbdl_edu.compiled.jit` traces a function ``vmap``-ed over a batch
    (:func:`tracing_batch`). The recursions over the tree then go body by body and keep each
    body's value apart (:class:`Rows`): XLA runs one traced state fastest with the bodies of a
    level stacked (fewer kernels), but lays a stacked batch out and copies it again at every
    level (the Panda's rnea over 4096 states: 2.6 against 8.8 µs a state, 2026-11-26)."""
    return _BATCH_TRACED[0]


@contextlib.contextmanager
def tracing_batch(batched=True):
    """While this block traces, :func:`batch_traced` is ``batched``."""
    before, _BATCH_TRACED[0] = _BATCH_TRACED[0], batched
    try:
        yield
    finally:
        _BATCH_TRACED[0] = before


class Rows:
    """A traced array kept as the list of its rows while a recursion over the tree writes it
    body by body (:func:`rows`; ``tree_levels(model, by_body=True)``): XLA copies a whole
    array for each row written into it, and every copy of a ``vmap``-ed batch is as large as
    the batch; a list takes each row as it comes and is stacked once (:func:`stack_rows`).
    ``x[i]`` reads body ``i``'s row; :func:`write` and :func:`add_at` change it."""
    __slots__ = ("rows",)

    def __init__(self, x):
        self.rows = [x[k] for k in range(x.shape[0])]

    def __getitem__(self, i):
        return self.rows[i]


def rows(x):
    """``x`` ready to be written row by row by a recursion: as :class:`Rows` while a batch is
    traced (:func:`batch_traced`), else as it is (NumPy writes in place; one traced state's
    stacked rows are fewer kernels)."""
    return Rows(x) if _BATCH_TRACED[0] else x


def stack_rows(x):
    """The array again once the recursion is done (:func:`rows`)."""
    return namespace(*x.rows).stack(x.rows) if type(x) is Rows else x


def _write_rows(xp, x, index, value):
    """JAX's ``x.at[index].set(value)`` for distinct row numbers ``index`` (NumPy ints) without a
    scatter (which XLA's CPU backend runs as a loop): each row of ``x`` picks its new value, or a
    row of zeros it then ignores, by a gather, and a select keeps the others."""
    n, k = x.shape[0], len(index)
    source = np.full(n, k)
    source[index] = np.arange(k)                 # row r of x takes row source[r] of the values
    keep = (source == k).reshape((n,) + (1,) * (x.ndim - 1))
    value = xp.broadcast_to(xp.asarray(value, dtype=x.dtype), (k,) + x.shape[1:])
    padded = xp.concatenate([value, xp.zeros((1,) + x.shape[1:], dtype=x.dtype)])
    return xp.where(keep, x, padded[source])


def move_axis(x, source, destination):
    """``xp.moveaxis(x, source, destination)``, and ``x`` itself where there is nothing to move
    (a matrix, whose axes -2 and 0 are one: the common case of one state, asked first).

    >>> move_axis(np.zeros((2, 3, 4)), -2, 0).shape, move_axis(np.zeros((3, 4)), -2, 0).shape
    ((3, 2, 4), (3, 4))
    """
    if x.ndim == 2 and {source, destination} <= {0, -2}:
        return x
    return namespace(x).moveaxis(x, source, destination)


def zeros_like(x):
    """``xp.zeros_like(x)``: for a NumPy array ``np.zeros`` of its shape and dtype (NumPy's
    ``zeros_like`` is a Python function, several times slower on a small array).

    >>> zeros_like(np.ones((2, 3))).shape, zeros_like(np.ones(2, dtype=object))[0]
    ((2, 3), 0)
    """
    if type(x) is np.ndarray:
        return np.zeros(x.shape, x.dtype)
    return namespace(x).zeros_like(x)


def add_at(x, index, value):
    """``x[index] += value`` where ``index`` may repeat (each repeat adds), returned: NumPy's
    ``np.add.at`` in ``x`` itself, JAX's ``x.at[index].add(value)`` (a new array).

    >>> add_at(np.zeros(2), np.array([1, 1]), np.array([2.0, 3.0]))
    array([0., 5.])
    """
    if type(x) is Rows:                                      # (rows) one body's row
        x.rows[index] = x.rows[index] + value
        return x
    if type(index) is int and type(x) is np.ndarray and type(value) is np.ndarray and x.dtype == value.dtype:
        x[index] += value                                    # one row of NumPy (no repeat): in place, at once
        return x
    if is_jax(x) or is_jax(value):
        xp = namespace(x, value)
        if isinstance(index, int):                           # one row: read, add, write back
            return put(x, index, x[index] + value)
        if type(index) is np.ndarray and index.ndim == 1:      # rows by number: a product, not a scatter
            one_hot = (np.arange(x.shape[0])[:, None] == index).astype(float)   # (rows of x, rows of value)
            value = xp.broadcast_to(value, (len(index),) + x.shape[1:])
            return x + xp.tensordot(one_hot, value, axes=1)
        return xp.asarray(x).at[index].add(value)
    np.add.at(x, index, value)
    return x


def stacked(parts, shape, *like):
    """``parts`` (numbers or arrays) stacked along a new first axis and reshaped to ``shape``,
    an array of the kind of ``like`` and ``parts`` (NumPy or JAX); ``shape`` gives the empty
    array its shape when there are no parts.

    >>> stacked([1.0, np.float64(2.0)], (2,)), stacked([], (0, 3)).shape
    (array([1., 2.]), (0, 3))
    """
    xp = namespace(*like, *parts)
    if xp is np:
        return np.array(parts, dtype=float).reshape(shape)
    return xp.asarray(parts, dtype=float).reshape(shape)
