r"""Derivatives of the dynamics by automatic differentiation of the same functions
(Carpentier & Mansard 2018 derive them analytically; Pinocchio's ``computeRNEADerivatives``
and ``computeABADerivatives`` are checked against these in ``tests/test_jax.py``).

Trajectory optimization, model-predictive control and LQR linearize the dynamics about a
state: they need :math:`\partial\tau/\partial q`, :math:`\partial\tau/\partial\dot q` (inverse
dynamics) or :math:`\partial\ddot q/\partial q`, :math:`\partial\ddot q/\partial\dot q`,
:math:`\partial\ddot q/\partial\tau = M^{-1}` (forward dynamics). ``jax.jacfwd`` pushes
tangent vectors through ``rnea``/``aba`` themselves.

Derivatives with respect to ``q`` are taken in the tangent space, as Pinocchio does: a
quaternion (ball or free joint) moves by a rotation vector, so column ``k`` is
:math:`\frac{d}{d\epsilon}\,\tau(q \oplus \epsilon e_k)` with :math:`q \oplus \delta` =
:func:`~rbdl_edu.configuration.integrate_pos` ``(q, δ, 1)``; the matrices are ``(nv, nv)``.

>>> import rbdl_edu as rbd
>>> from rbdl_edu.derivatives import rnea_derivatives
>>> m = rbd.models.pendulum()
>>> dtau_dq, dtau_dqd = rnea_derivatives(m, [0.0], [0.0], [0.0])
>>> float(dtau_dq[0, 0])          # holding the pendulum near the bottom: m g l
9.81
"""
from __future__ import annotations

import numpy as np

from rbdl_edu import compiled
from rbdl_edu.aba import aba
from rbdl_edu.configuration import integrate_pos
from rbdl_edu.rnea import rnea

jax, jnp = compiled.jax, compiled.jnp


def _tangent(f, model, q):
    """``δ -> f(q ⊕ δ)``: ``f`` seen as a function on the tangent space at ``q``."""
    return lambda dq: f(integrate_pos(model, q, dq, 1.0))


def rnea_derivatives(model, q, qd, qdd):
    r""":math:`\partial\tau/\partial q` and :math:`\partial\tau/\partial\dot q` of inverse
    dynamics, each ``(nv, nv)`` (``∂τ/∂q̈`` is the mass matrix, :func:`rbdl_edu.crba`);
    compiled once per model."""
    return tuple(np.asarray(d) for d in compiled.jit(model, _rnea_jacobians)(q, qd, qdd))


def aba_derivatives(model, q, qd, tau):
    r""":math:`\partial\ddot q/\partial q`, :math:`\partial\ddot q/\partial\dot q` and
    :math:`\partial\ddot q/\partial\tau = M^{-1}` of forward dynamics, each ``(nv, nv)``;
    compiled once per model."""
    return tuple(np.asarray(d) for d in compiled.jit(model, _aba_jacobians)(q, qd, tau))


def _rnea_jacobians(model, q, qd, qdd):
    zero = jnp.zeros(model.nv)
    dtau_dq = jax.jacfwd(_tangent(lambda q: rnea(model, q, qd, qdd), model, q))(zero)
    dtau_dqd = jax.jacfwd(lambda qd: rnea(model, q, qd, qdd))(qd)
    return dtau_dq, dtau_dqd


def _aba_jacobians(model, q, qd, tau):
    zero = jnp.zeros(model.nv)
    dqdd_dq = jax.jacfwd(_tangent(lambda q: aba(model, q, qd, tau), model, q))(zero)
    dqdd_dqd = jax.jacfwd(lambda qd: aba(model, q, qd, tau))(qd)
    dqdd_dtau = jax.jacfwd(lambda tau: aba(model, q, qd, tau))(tau)
    return dqdd_dq, dqdd_dqd, dqdd_dtau
