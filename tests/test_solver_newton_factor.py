"""The Newton solver's Hessian solve (issue 20): Cholesky with every pivot floored at mjMINVAL,
as MuJoCo's ``mju_cholFactor(H, nv, mjMINVAL)`` and ``mju_cholSolve``. A singular or
near-singular Hessian gives MuJoCo's finite step instead of a ``LinAlgError``; a regular one
gives the ordinary solution."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest

from rbdl_edu.constraint.primal import cholesky_floored, newton_step
from rbdl_edu.model.enums import MINVAL


def mujoco_step(H, g):
    L = H.copy()
    mujoco.mju_cholFactor(L, MINVAL)
    x = np.zeros(len(g))
    mujoco.mju_cholSolve(x, L, g)
    return x


# Hessians whose pivots are exact (so the floor is decided the same way in both codes):
# a zero pivot, a negative one, pivots below mjMINVAL, and the same inside a larger matrix
SINGULAR = {
    "zero pivot": [[1.0, 1.0], [1.0, 1.0]],
    "zero pivot, 3x3": [[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 3.0]],
    "negative pivot": [[1.0, 0.0], [0.0, -1e-300]],
    "pivot below mjMINVAL": [[1e-17, 0.0], [0.0, 2.0]],
    "coupled tiny pivot": [[4.0, 2.0, 1.0], [2.0, 1.0 + 2.0 ** -52, 0.5], [1.0, 0.5, 5.0]],
}


@pytest.mark.parametrize("name", list(SINGULAR))
def test_floored_cholesky_is_mujocos(name):
    H = np.array(SINGULAR[name])
    g = np.arange(1.0, len(H) + 1)
    x, ref = newton_step(H, g), mujoco_step(H, g)
    assert np.all(np.isfinite(x))
    assert np.allclose(x, ref, rtol=1e-9, atol=0), (x, ref)
    L = cholesky_floored(H)
    assert np.all(np.diagonal(L) ** 2 >= MINVAL * (1 - 1e-12)) and np.allclose(np.tril(L), L)


def test_a_singular_hessian_once_raised():
    """What the plain solve did on the first case: the bare error this replaces."""
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.solve(np.array(SINGULAR["zero pivot"]), np.ones(2))


def test_regular_hessian_gives_the_solution():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(8, 8))
    H = A @ A.T + 0.5 * np.eye(8)
    g = rng.normal(size=8)
    assert np.allclose(newton_step(H, g), np.linalg.solve(H, g), rtol=1e-12, atol=1e-14)
