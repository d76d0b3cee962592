"""Scalar helpers that let one algorithm run on floats, batches and SymPy symbols.

The algorithms are written once over NumPy arrays. Numeric inputs are float arrays
(with optional leading batch dimensions); symbolic inputs are NumPy arrays of
``dtype=object`` whose entries are SymPy expressions. The few places where the two
differ (``sin``, ``cos``, small matrix inverses) dispatch here, and
nowhere else.

>>> import sympy as sp
>>> float(sin(0.0)), cos(sp.Symbol('t'))
(0.0, cos(t))
"""
from __future__ import annotations

import numpy as np
import sympy as sp


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


def asarray(x):
    """``x`` as an array: float64 if numeric, ``object`` if it holds SymPy entries.

    >>> asarray([1, 2]).dtype, asarray([sp.Symbol('m'), 1]).dtype
    (dtype('float64'), dtype('O'))
    """
    if isinstance(x, np.ndarray):
        return x if x.dtype in (object, np.float64) else x.astype(float)
    if isinstance(x, sp.Basic):
        return np.array(x, dtype=object)
    a = np.asarray(x)
    # a list holding a SymPy entry becomes an object array
    return a if a.dtype == object else a.astype(float)


def dtype_of(*xs):
    """``object`` if any argument is symbolic, else ``float``."""
    return object if is_symbolic(*xs) else float


def zeros(shape, *like):
    """Zeros of ``shape`` with the dtype of ``like`` (object zeros are ``sp.Integer(0)``)."""
    if dtype_of(*like) is object:
        z = np.empty(shape, dtype=object)
        z.fill(sp.Integer(0))
        return z
    return np.zeros(shape)


def eye(n, *like):
    """Identity of size ``n`` with the dtype of ``like``."""
    E = zeros((n, n), *like)
    for k in range(n):
        E[k, k] = sp.Integer(1) if E.dtype == object else 1.0
    return E


def _elementwise(f_num, f_sym):
    def f(x):
        if is_symbolic(x):
            if isinstance(x, np.ndarray):
                return np.vectorize(f_sym, otypes=[object])(x)
            return f_sym(x)
        return f_num(x)
    f.__doc__ = f"``{f_num.__name__}`` for floats and arrays, ``sympy.{f_sym.__name__}`` for symbols."
    return f


sin = _elementwise(np.sin, sp.sin)
cos = _elementwise(np.cos, sp.cos)


def inv(A):
    """Inverse of a small square matrix ``(..., n, n)``; SymPy's for object arrays.

    >>> inv(np.array([[2.0]]))
    array([[0.5]])
    """
    if is_symbolic(A):
        n = A.shape[-1]
        out = np.empty(A.shape, dtype=object)
        for idx in np.ndindex(A.shape[:-2]):
            if n == 1:
                out[idx] = np.array([[1 / A[idx][0, 0]]], dtype=object)
            else:
                out[idx] = np.array(sp.Matrix(A[idx]).inv(), dtype=object)
        return out
    if A.shape[-1] == 1:
        return 1.0 / A
    return np.linalg.inv(A)
