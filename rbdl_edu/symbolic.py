r"""Symbolic equations of motion: symbols for a model's state and the Lagrangian derivation
(book chapter 4).

For a tree whose joints are all hinges and slides (so ``q`` are true generalized
coordinates, ``nq == nv``), the Lagrangian :math:`L = T - V` gives

.. math:: \tau = \frac{d}{dt}\frac{\partial L}{\partial \dot q} - \frac{\partial L}{\partial q}
              = M(q)\ddot q + C(q,\dot q)\dot q + g(q),

where the time derivative is taken by the chain rule,
:math:`\frac{d}{dt} = \sum_j \dot q_j \frac{\partial}{\partial q_j} + \ddot q_j \frac{\partial}{\partial \dot q_j}`.
:math:`T` and :math:`V` come from :mod:`rbdl_edu.kinematics` — an independent route to
the same equations as RNEA and CRBA, which is what makes it a proof.

>>> from rbdl_edu.models import pendulum
>>> m = pendulum(symbolic=True)
>>> q, qd, qdd = state_symbols(m)
>>> sp.simplify(lagrangian_tau(m)[0] - (m.body_inertia[1, 1] + m.body_mass[1] * sp.Symbol('l', positive=True)**2) * qdd[0]
...             - sp.Symbol('g', positive=True) * m.body_mass[1] * sp.Symbol('l', positive=True) * sp.sin(q[0]))
0
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from rbdl_edu.crba import crba
from rbdl_edu.kinematics import kinetic_energy, potential_energy
from rbdl_edu.model.enums import BALL, FREE


def state_symbols(model):
    r"""SymPy symbols for the state: ``q, qd, qdd`` as object arrays ``(nq,)``, ``(nv,)``, ``(nv,)``.

    Their names are ``q1..qn``, ``qdot1..qdotn``, ``qddot1..qddotn``, which SymPy prints as
    the book writes them: :math:`q_1`, :math:`\dot q_1`, :math:`\ddot q_1` (and ``q̇₁`` in text).

    >>> from rbdl_edu.models import double_pendulum
    >>> q, qd, qdd = state_symbols(double_pendulum())
    >>> q, qd
    (array([q1, q2], dtype=object), array([qdot1, qdot2], dtype=object))
    >>> sp.latex(qdd[0])
    '\\ddot{q}_{1}'
    """
    q = np.array(sp.symbols(f"q1:{model.nq + 1}", real=True), dtype=object).reshape(model.nq)
    qd = np.array(sp.symbols(f"qdot1:{model.nv + 1}", real=True), dtype=object).reshape(model.nv)
    qdd = np.array(sp.symbols(f"qddot1:{model.nv + 1}", real=True), dtype=object).reshape(model.nv)
    return q, qd, qdd


def _require_coordinates(model):
    if any(t in (BALL, FREE) for t in model.jnt_type):
        raise ValueError("the Lagrangian route needs hinge and slide joints only (nq == nv): "
                         "a quaternion is not a set of generalized coordinates")


def energies(model):
    """Kinetic and potential energy ``(T, V)`` as SymPy expressions in :func:`state_symbols`.

    >>> from rbdl_edu.models import pendulum
    >>> T, V = energies(pendulum())
    >>> T
    1.0*qdot1**2
    """
    q, qd, _ = state_symbols(model)
    T = sp.expand(sp.sympify(kinetic_energy(model, q, qd)))
    V = sp.sympify(potential_energy(model, q))
    return T, V


def lagrangian_tau(model):
    r"""Joint forces from Lagrange's equations, ``(nv,)`` object array in :func:`state_symbols`.

    .. math:: \tau_k = \sum_j \Big(\frac{\partial^2 L}{\partial \dot q_k \partial q_j}\dot q_j
              + \frac{\partial^2 L}{\partial \dot q_k \partial \dot q_j}\ddot q_j\Big)
              - \frac{\partial L}{\partial q_k}

    Joint armature adds :math:`\tfrac12 \sum_k a_k \dot q_k^2` to :math:`T` (the rotor's energy).

    >>> from rbdl_edu.models import pendulum
    >>> lagrangian_tau(pendulum())[0]
    2.0*qddot1 + 9.81*sin(q1)
    """
    _require_coordinates(model)
    q, qd, qdd = state_symbols(model)
    T, V = energies(model)
    T = T + sum(sp.Rational(1, 2) * a * v**2 for a, v in zip(model.dof_armature, qd))
    L = T - V
    tau = []
    for k in range(model.nv):
        dL_dqdk = sp.diff(L, qd[k])
        ddt = sum(sp.diff(dL_dqdk, q[j]) * qd[j] + sp.diff(dL_dqdk, qd[j]) * qdd[j] for j in range(model.nv))
        tau.append(ddt - sp.diff(L, q[k]))
    return np.array(tau, dtype=object)


def mass_matrix_from_energy(model):
    r""":math:`M = \partial^2 T / \partial \dot q^2`, the Hessian of the kinetic energy.

    >>> from rbdl_edu.models import pendulum
    >>> mass_matrix_from_energy(pendulum())
    Matrix([[2.0]])
    """
    q, qd, _ = state_symbols(model)
    T, _ = energies(model)
    return sp.hessian(T, list(qd))


def christoffel(M, q):
    r"""Christoffel symbols of the first kind of ``M (n, n)`` in the coordinates ``q``:

    .. math:: \Gamma_{ijk} = \tfrac12\left(\frac{\partial M_{kj}}{\partial q_i}
              + \frac{\partial M_{ki}}{\partial q_j} - \frac{\partial M_{ij}}{\partial q_k}\right)

    returned as ``G[i][j][k]``.

    >>> q = sp.symbols('q1 q2')
    >>> G = christoffel(sp.Matrix([[2 + sp.cos(q[1]), 0], [0, 1]]), q)
    >>> G[0][0][1]
    sin(q2)/2
    """
    M = sp.Matrix(M)
    n = M.shape[0]
    dM = [sp.diff(M, q[i]) for i in range(n)]
    return [[[sp.Rational(1, 2) * (dM[i][k, j] + dM[j][k, i] - dM[k][i, j]) for k in range(n)]
             for j in range(n)] for i in range(n)]


def coriolis_matrix(model, q=None, qd=None):
    r"""The Coriolis matrix from Christoffel symbols, :math:`C_{kj} = \sum_i \Gamma_{ijk}\dot q_i`,
    with :math:`M` from :func:`~rbdl_edu.crba.crba` on symbols.

    With this choice :math:`\dot M - 2C` is skew-symmetric and :math:`C\dot q` is the
    velocity part of the bias force. Without ``q, qd`` the result is in
    :func:`state_symbols`; with numbers it is evaluated there (exactly, then to floats).

    >>> from rbdl_edu.models import double_pendulum
    >>> C = coriolis_matrix(double_pendulum(), [0.0, np.pi / 2], [1.0, 0.0])
    >>> np.round(C, 12)
    array([[ 0. , -0.5],
           [ 0.5,  0. ]])
    """
    _require_coordinates(model)
    qs, qds, _ = state_symbols(model)
    M = sp.Matrix(crba(model, qs))
    G = christoffel(M, qs)
    n = model.nv
    C = sp.Matrix(n, n, lambda k, j: sum(G[i][j][k] * qds[i] for i in range(n)))
    if q is None:
        return C
    values = dict(zip(qs, np.asarray(q, dtype=float))) | dict(zip(qds, np.asarray(qd, dtype=float)))
    return np.array(C.subs(values).evalf(), dtype=float)


def is_identically_zero(expr, q):
    r"""Exact test that ``expr`` vanishes for all values of its symbols.

    The equations of motion of hinge/slide trees are polynomials in the parameters,
    the velocities and :math:`\sin\theta, \cos\theta` of the joint angles :math:`q_i`
    (and of constant angles such as a fixed skew). Writing :math:`s = \sin\theta`,
    :math:`c = \cos\theta` for every angle, the expression is identically zero exactly
    when its polynomial reduces to zero modulo :math:`s^2 + c^2 - 1` (a Gröbner basis:
    the leading terms :math:`s^2` share no factor). This is ``sympy.simplify(expr) == 0``
    done by polynomial algebra, which stays fast on 3-D arms where ``simplify`` does not.

    >>> q1 = sp.Symbol('q1')
    >>> is_identically_zero(sp.sin(q1)**2 + sp.cos(q1)**2 - 1, [q1])
    True
    >>> is_identically_zero(sp.sin(q1)**2 - 1, [q1])
    False
    >>> is_identically_zero(q1 * (sp.cos(sp.Rational(3, 7))**2 + sp.sin(sp.Rational(3, 7))**2 - 1), [q1])
    True
    """
    expr = sp.sympify(expr)
    q = list(q)

    def is_angle(x):                                   # a joint variable or a constant
        return x in q or not x.free_symbols

    if not all(is_angle(f.args[0]) for f in expr.atoms(sp.sin, sp.cos)):
        expr = sp.expand_trig(expr)                    # sin(q1 + q2) -> products
        if not all(is_angle(f.args[0]) for f in expr.atoms(sp.sin, sp.cos)):
            raise ValueError("the expression has trigonometric terms that are not sin(q_i), cos(q_i)")
    angles = q + sorted({f.args[0] for f in expr.atoms(sp.sin, sp.cos)} - set(q), key=str)
    s = sp.symbols(f"s_1:{len(angles) + 1}")
    c = sp.symbols(f"c_1:{len(angles) + 1}")
    expr = expr.xreplace({sp.sin(a): si for a, si in zip(angles, s)} | {sp.cos(a): ci for a, ci in zip(angles, c)})
    gens = list(s) + list(c) + sorted(expr.free_symbols - set(s) - set(c), key=str)
    try:
        P = sp.Poly(expr, *gens)                       # expands; rational coefficients stay exact
    except sp.PolynomialError:                         # symbols in a denominator: clear it
        P = sp.Poly(sp.numer(sp.together(expr)), *gens)
    if P.is_zero:
        return True
    relations = [sp.Poly(si**2 + ci**2 - 1, *gens) for si, ci in zip(s, c)]
    _, remainder = sp.reduced(P, relations, *gens, order="lex")
    return remainder.is_zero
