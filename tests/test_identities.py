"""Physical identities on Featherstone's random trees (book chapters 5-7).

Every model mixes hinge, slide, ball and free joints (some bodies carry two joints, some
have armature); every state is random. The identities hold exactly in exact arithmetic,
so the tolerances are round-off, except where a derivative is taken by finite
differences (power balance, momentum rate), which is said where it happens.
"""
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.factor import factor_ltdl, solve_ltdl, to_tree_sparse
from rbdl_edu.configuration import integrate_pos, random_qpos
from rbdl_edu.models import auto_tree

JOINTS = ("hinge", "slide", "ball", "free")
# 24 trees: chains and bushy trees, with and without skewed axes and tapering links
TREES = [dict(nb=nb, bf=bf, skew=skew, taper=taper, seed=seed)
         for seed, (nb, bf, skew, taper) in enumerate(
             [(n, bf, sk, tp) for n in (3, 6, 9) for bf in (1.0, 1.5, 2.5, 4.0)
              for sk, tp in ((0.0, 1.0), (0.7, 0.9))])]


def make(params):
    return auto_tree(**params, joint_types=JOINTS, multi_joint=True, armature=0.2)


def random_state(model, seed):
    rng = np.random.default_rng(seed)
    return random_qpos(model, rng), rng.normal(size=model.nv), rng.normal(size=model.nv)


def relerr(a, b):
    return np.max(np.abs(a - b)) / max(1.0, np.max(np.abs(b)))


@pytest.fixture(params=range(len(TREES)), ids=lambda k: "tree{}-nb{nb}-bf{bf}".format(k, **TREES[k]))
def tree(request):
    model = make(TREES[request.param])
    return model, *random_state(model, 100 + request.param)


def test_trees_mix_every_joint_type():
    kinds = set()
    for params in TREES:
        kinds |= set(make(params).jnt_type.tolist())
    assert kinds == {0, 1, 2, 3}


def test_mass_matrix_is_symmetric_positive_definite(tree):
    model, q, qd, qdd = tree
    M = rbd.crba(model, q)
    assert relerr(M, M.T) < 1e-12
    assert np.linalg.eigvalsh(M).min() > 0


def test_kinetic_energy_is_half_qd_M_qd(tree):
    model, q, qd, qdd = tree
    M = rbd.crba(model, q)
    # M holds armature: the rotors' kinetic energy ½ Σ a q̇² is added to the bodies'
    T = rbd.kinetic_energy(model, q, qd) + 0.5 * np.sum(model.dof_armature * qd**2)
    assert abs(0.5 * qd @ M @ qd - T) <= 1e-12 * max(1.0, T)


def test_aba_inverts_rnea(tree):
    model, q, qd, qdd = tree
    tau = rbd.rnea(model, q, qd, qdd)
    assert relerr(rbd.aba(model, q, qd, tau), qdd) < 1e-9


def test_aba_inverts_rnea_with_applied_wrenches(tree):
    model, q, qd, qdd = tree
    xfrc = np.random.default_rng(7).normal(size=(model.nbody, 6))
    tau = rbd.rnea(model, q, qd, qdd, xfrc)
    assert relerr(rbd.aba(model, q, qd, tau, xfrc), qdd) < 1e-9


def test_M_is_the_derivative_of_rnea_in_qdd(tree):
    model, q, qd, qdd = tree
    # rnea is affine in q̈, so each column of M is an exact difference
    c = rbd.rnea(model, q, qd, np.zeros(model.nv))
    cols = [rbd.rnea(model, q, qd, e) - c for e in np.eye(model.nv)]
    assert relerr(np.array(cols).T, rbd.crba(model, q)) < 1e-9
    assert relerr(rbd.bias(model, q, qd), c) == 0


def test_ltdl_solve_equals_dense_solve(tree):
    model, q, qd, qdd = tree
    M = rbd.crba(model, q)
    b = np.random.default_rng(3).normal(size=model.nv)
    x = solve_ltdl(model, factor_ltdl(model, to_tree_sparse(model, M)), b)
    assert relerr(x, np.linalg.solve(M, b)) < 1e-9


def _d_dt(f, h=1e-3):
    """Five-point central difference of f at 0 (error O(h⁴) ≈ 1e-12 here)."""
    return (-f(2 * h) + 8 * f(h) - 8 * f(-h) + f(-2 * h)) / (12 * h)


def test_power_balance(tree):
    """dE/dt = τ·q̇ with E = T + V (+ rotor energy), τ = rnea(q, q̇, q̈).

    E(q, q̇) is a quadratic form in q̇, so dE/dt = ∂E/∂q q̇ + q̇ᵀM q̈: the first term is
    the derivative along the constant-velocity path q(t) = integrate_pos(q, q̇, t), which
    depends only on the tangent q̇ and is taken by finite differences.
    """
    model, q, qd, qdd = tree
    a = model.dof_armature

    def energy(t):
        qt = integrate_pos(model, q, qd, t)
        return (rbd.kinetic_energy(model, qt, qd) + 0.5 * np.sum(a * qd**2)
                + rbd.potential_energy(model, qt))

    dE_dt = _d_dt(energy) + qd @ rbd.crba(model, q) @ qdd
    power = rbd.rnea(model, q, qd, qdd) @ qd
    assert abs(dE_dt - power) <= 1e-7 * max(1.0, abs(power))


@pytest.mark.parametrize("seed", range(6))
def test_momentum_is_conserved_without_gravity(seed):
    """A free-floating tree with no gravity and no joint forces keeps its spatial momentum:
    dh/dt = ∂h/∂q q̇ + A(q) q̈ = 0 with q̈ from ABA (h = A(q) q̇ is linear in q̇)."""
    model = auto_tree(6, bf=1.5, skew=0.4, joint_types=("hinge", "slide", "ball"), seed=seed,
                      multi_joint=True, root_joint="free")
    model = model.replace(opt=model.opt.__class__(gravity=np.zeros(3)))
    q, qd, _ = random_state(model, seed)
    qdd = rbd.aba(model, q, qd, np.zeros(model.nv))
    dh_dt = _d_dt(lambda t: rbd.momentum(model, integrate_pos(model, q, qd, t), qd)) \
        + rbd.momentum(model, q, qdd)
    h = rbd.momentum(model, q, qd)
    assert np.max(np.abs(dh_dt)) <= 1e-7 * max(1.0, np.max(np.abs(h)))
    # and joint forces do change it: the check can fail
    qdd_pushed = rbd.aba(model, q, qd, np.ones(model.nv))
    assert np.max(np.abs(rbd.momentum(model, q, qdd_pushed) - rbd.momentum(model, q, qdd))) > 1e-3


@pytest.mark.parametrize("params", TREES[::4], ids=lambda p: f"nb{p['nb']}-bf{p['bf']}")
def test_batched_equals_looped(params):
    model = make(params)
    states = [random_state(model, s) for s in range(5)]
    Q, QD, QDD = (np.array([s[k] for s in states]) for k in range(3))
    Q, QD, QDD = Q.reshape(5, 1, -1), QD.reshape(5, 1, -1), QDD.reshape(5, 1, -1)   # batch (5, 1)
    xfrc = np.random.default_rng(1).normal(size=(5, 1, model.nbody, 6))
    tau = rbd.rnea(model, Q, QD, QDD, xfrc)
    M = rbd.crba(model, Q)
    qdd = rbd.aba(model, Q, QD, tau, xfrc)
    xpos, xmat = rbd.forward_kinematics(model, Q)
    v = rbd.body_velocities(model, Q, QD)
    for k in range(5):
        q, qd, qdd_k = states[k]
        assert relerr(tau[k, 0], rbd.rnea(model, q, qd, qdd_k, xfrc[k, 0])) < 1e-12
        assert relerr(M[k, 0], rbd.crba(model, q)) < 1e-12
        assert relerr(qdd[k, 0], rbd.aba(model, q, qd, tau[k, 0], xfrc[k, 0])) < 1e-12
        assert relerr(xpos[k, 0], rbd.forward_kinematics(model, q)[0]) < 1e-12
        assert relerr(v[k, 0], rbd.body_velocities(model, q, qd)) < 1e-12


def test_wrong_shapes_name_the_shapes():
    model = make(TREES[0])
    with pytest.raises(ValueError, match=r"qd has shape \(2,\); expected \(\.\.\., \d+\)"):
        rbd.rnea(model, model.qpos0, np.zeros(2), np.zeros(model.nv))
    with pytest.raises(ValueError, match="xfrc_applied has shape"):
        rbd.rnea(model, model.qpos0, np.zeros(model.nv), np.zeros(model.nv), np.zeros((2, 6)))
