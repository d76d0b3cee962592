"""Symbolic proofs (book chapter 4): on small systems with symbolic joint variables *and*
symbolic masses, lengths and inertias,

* RNEA equals the Lagrangian τ = d/dt ∂L/∂q̇ − ∂L/∂q, exactly;
* CRBA equals the Hessian of the kinetic energy in q̇;
* Ṁ − 2C is skew-symmetric, with C from Christoffel symbols.

"Exactly" means the difference is identically zero: ``is_identically_zero`` reduces it
to zero modulo sin² + cos² = 1 (exact polynomial algebra; see its docstring).
"""
import numpy as np
import pytest
import sympy as sp

from rbdl_edu import crba, models, rnea
from rbdl_edu.symbolic import (coriolis_matrix, is_identically_zero, lagrangian_tau,
                               mass_matrix_from_energy, state_symbols)

SYSTEMS = {
    "pendulum": lambda: models.pendulum(symbolic=True),
    "double_pendulum": lambda: models.double_pendulum(symbolic=True),
    "cart_pole": lambda: models.cart_pole(symbolic=True),
    "acrobot": lambda: models.acrobot(symbolic=True),
    "planar_3link": lambda: models.planar_chain(3, symbolic=True),
    "skew_arm_3d": lambda: models.skew_arm(symbolic=True),
    "slide_hinge_chain": lambda: models.slide_hinge_chain(symbolic=True),
    "branched_tree": lambda: models.branched_tree(symbolic=True),
    # Featherstone's random tree, symbolic: hinges and slides on exact skewed axes
    "auto_tree": lambda: models.auto_tree(4, bf=2, skew=0.3, joint_types=("hinge", "slide"),
                                          seed=2, symbolic=True),
}


@pytest.fixture(scope="module", params=list(SYSTEMS))
def system(request):
    model = SYSTEMS[request.param]()
    q, qd, qdd = state_symbols(model)
    return request.param, model, q, qd, qdd


def test_systems_are_symbolic_in_their_parameters(system):
    name, model, *_ = system
    assert model.is_symbolic
    assert any(isinstance(m, sp.Symbol) for m in model.body_mass[1:]), name


def test_rnea_equals_lagrange(system):
    name, model, q, qd, qdd = system
    tau = rnea(model, q, qd, qdd)
    tau_lagrange = lagrangian_tau(model)
    for k in range(model.nv):
        assert is_identically_zero(tau[k] - tau_lagrange[k], q), f"{name}: τ[{k}] differs"


def test_crba_equals_hessian_of_kinetic_energy(system):
    name, model, q, qd, qdd = system
    M = crba(model, q)
    H = mass_matrix_from_energy(model)
    for i in range(model.nv):
        for j in range(model.nv):
            assert is_identically_zero(M[i, j] - H[i, j], q), f"{name}: M[{i},{j}] differs"


def test_Mdot_minus_2C_is_skew_symmetric(system):
    name, model, q, qd, qdd = system
    M = sp.Matrix(crba(model, q))
    n = model.nv
    C = coriolis_matrix(model)                     # Christoffel symbols of this same M
    Mdot = sum((sp.diff(M, q[i]) * qd[i] for i in range(n)), sp.zeros(n, n))
    N = Mdot - 2 * C
    for i in range(n):
        for j in range(i, n):
            assert is_identically_zero(N[i, j] + N[j, i], q), f"{name}: N+Nᵀ at [{i},{j}]"
    # and C q̇ + g is the bias force of RNEA
    bias = rnea(model, q, qd, np.zeros(n, dtype=object))
    g = rnea(model, q, np.zeros(n, dtype=object), np.zeros(n, dtype=object))
    Cqd = C * sp.Matrix(qd)
    for k in range(n):
        assert is_identically_zero(bias[k] - g[k] - Cqd[k], q), f"{name}: (C q̇)[{k}]"


def test_the_zero_test_can_fail():
    """A wrong model must be caught: perturb one mass in the Lagrangian side."""
    model = models.double_pendulum(symbolic=True)
    q, qd, qdd = state_symbols(model)
    tau = rnea(model, q, qd, qdd)
    wrong = lagrangian_tau(model)[0].subs(sp.Symbol("m2", positive=True), 2 * sp.Symbol("m2", positive=True))
    assert not is_identically_zero(tau[0] - wrong, q)
