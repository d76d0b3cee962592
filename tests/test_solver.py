"""The constraint solvers: Newton, CG and PGS reach the same optimum; they follow MuJoCo
4.0's iterations (the same number of iterations, the same statistics); simulations with
contacts follow MuJoCo's for a second.

* **One optimum.** The cost is strictly convex, so the three solvers, run to a tight
  tolerance, agree on ``qacc`` and the forces (to 1e-6 relative; PGS, which stops on its
  cost improvement, is the loosest).
* **MuJoCo's iterations.** With islands off and MuJoCo's default tolerance, each solver
  takes as many iterations as MuJoCo's and reports the same improvements (Newton and CG:
  same line searches; PGS: same pseudo-random visiting order and momentum).
* **Trajectories.** 1 s of each canonical contact scene (``tests/test_constraint.py``, at a
  timestep of 5 ms) with MuJoCo's default solver settings stays within 1e-3 of MuJoCo's
  ``qpos`` (in practice ~1e-10).
"""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest
from constraint_oracle import both, forward_both, relerr
from test_constraint import CONTACTS, SCENES, states

import rbdl_edu as rbd
from rbdl_edu.constraint.pgs import qcqp
from rbdl_edu.constraint.primal import LineCost, line_search


#: the mechanism with one connect and no welds: Gauss-Seidel crawls on the full one's
#: redundant loop (a connect, two welds and a site weld between the same two bodies)
LOOP = SCENES["mechanism_pyramidal"].replace('<weld body1="a" body2="c" torquescale="2"/>', "").replace(
    '<weld site1="sa" site2="sc"/>', "").replace('<weld body1="bb" anchor=".1 0 0" relpose="1 2 3 1 0 0 0" solref=".05 .7"/>', "")


@pytest.mark.parametrize("name", ["stack", "stack_elliptic", "pairs", "sphere_condim6_elliptic",
                                  "capsule_condim4_elliptic", "loop"])
def test_three_solvers_agree(name):
    """Newton and CG at tolerance 1e-12, PGS at 1e-16 (its test is on the cost improvement,
    which is quadratic in the error): the same accelerations and forces to 1e-6."""
    xml = LOOP if name == "loop" else SCENES[name]
    found = 0
    for d in states(xml, np.random.default_rng(11), nstep=60, every=20, qvel=0.3,
                    random_qpos=0.2 if name == "loop" else 0.0):
        results = {}
        for solver in ("Newton", "CG", "PGS"):
            m, model = both(xml, solver=solver, iterations=5000, tolerance=1e-16 if solver == "PGS" else 1e-12)
            data = forward_both(m, d, model)
            results[solver] = data.qacc.copy(), data.efc_force.copy()
        qacc, force = results["Newton"]
        for solver in ("CG", "PGS"):
            assert relerr(results[solver][0], qacc) <= 1e-6, (name, solver, "qacc")
            assert relerr(results[solver][1], force) <= 1e-6, (name, solver, "efc_force")
        found += len(force) > 0
    assert found


@pytest.mark.parametrize("solver,name", [(s, n) for s in ("Newton", "CG", "PGS")
                                         for n in ("stack", "stack_elliptic", "pairs", "mechanism")
                                         if (s, n) != ("CG", "mechanism")])
def test_iterations_as_mujoco(name, solver):
    """At MuJoCo's default tolerance, islands off: the same number of iterations, the same
    improvements. (CG on the redundant mechanism runs out of iterations in both engines and
    wanders: its rounding differs after a hundred iterations.)"""
    xml = SCENES[name]
    m, model = both(xml, tight=False, island=False, solver=solver)
    for d in states(xml, np.random.default_rng(12), nstep=60, every=20, qvel=0.3,
                    random_qpos=0.2 if "mechanism" in name else 0.0):
        data = forward_both(m, d, model)
        assert data.solver_niter == d.solver_niter[0], (name, solver)
        improvement = np.array([s.improvement for s in data.solver])
        theirs = d.solver.improvement[:d.solver_niter[0]]
        assert np.allclose(improvement, theirs, rtol=1e-4, atol=1e-9 * max(1, np.abs(theirs).max(initial=0)))
        assert relerr(data.qacc, d.qacc) <= 1e-6


@pytest.mark.parametrize("name", sorted(CONTACTS))
def test_one_second_trajectory(name):
    """1 s at timestep 5 ms, MuJoCo's default solver settings (islands, tolerance 1e-8)."""
    xml = CONTACTS[name].replace("<option ", '<option timestep="0.005" ', 1)
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    rng = np.random.default_rng(13)
    d.qvel[:] = data.qvel[:] = 0.3 * rng.normal(size=m.nv)
    worst = 0.0
    for _ in range(200):
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        worst = max(worst, np.abs(data.qpos - d.qpos).max())
    assert worst <= 1e-3 and data.ncon == d.ncon and not data.warning, (name, worst)


def test_warmstart_and_certificate():
    """A body at rest: the warm start is the optimum, so Newton and CG stop with 0 iterations
    (MuJoCo 4.0's certificate); without the warm start they iterate."""
    xml = CONTACTS["box"]
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    for _ in range(300):
        rbd.step(model, data)
    rbd.forward(model, data)
    assert data.solver_niter == 0
    cold = model.replace(opt=dataclasses.replace(model.opt, disableflags=frozenset({"warmstart"})))
    rbd.forward(cold, data)
    assert data.solver_niter > 0


def test_line_search_is_exact():
    """Along any direction the line search lands where the cost's slope vanishes."""
    xml = CONTACTS["stack_elliptic"]
    m, model = both(xml)
    d = next(states(xml, np.random.default_rng(14), nstep=40, every=40, qvel=0.5))
    data = forward_both(m, d, model)
    rng = np.random.default_rng(15)
    a = data.qacc_smooth.copy()
    for _ in range(5):
        p = rng.normal(size=model.nv)
        f = LineCost(model, data, a, data.qM @ a, data.efc_J @ a - data.efc_aref, p)
        alpha, improvement, _, _ = line_search(f, 1e-10, 100, 1 / np.trace(data.qM))
        assert abs(f(alpha).d1) <= 1e-8 * np.linalg.norm(p) * np.trace(data.qM) and improvement >= 0
        assert f(alpha).cost <= min(f(alpha - 1e-3).cost, f(alpha + 1e-3).cost) + 1e-12


def test_qcqp():
    """The ellipse-constrained quadratic: inside, the plain minimum; outside, on the boundary
    with the gradient along the boundary's normal."""
    A, d = np.array([[2.0, 0.5], [0.5, 1.0]]), np.array([0.5, 2.0])
    b = np.array([-0.1, 0.1])
    assert np.allclose(qcqp(A, b, d, 10.0), np.linalg.solve(A, -b))
    b = np.array([-3.0, 4.0])
    y = qcqp(A, b, d, 1.0)
    assert np.sum(y ** 2 / d ** 2) == pytest.approx(1.0)
    g, n = A @ y + b, y / d ** 2                        # gradient, the boundary's normal
    assert abs(g[0] * n[1] - g[1] * n[0]) <= 1e-9 * np.linalg.norm(g) * np.linalg.norm(n) and g @ n < 0


@pytest.mark.parametrize("name", ["stack", "stack_elliptic", "pairs", "capsule_condim4_elliptic"])
def test_noslip_as_mujoco(name):
    """NoSlip after Newton: the same forces, accelerations and iterations as MuJoCo (islands on)."""
    xml = SCENES[name].replace("<option ", '<option noslip_iterations="20" ', 1)
    m, model = both(xml, tight=False)
    for d in states(xml, np.random.default_rng(16), nstep=60, every=20, qvel=0.3):
        data = forward_both(m, d, model)
        assert relerr(data.efc_force, d.efc_force) <= 1e-9 and relerr(data.qacc, d.qacc) <= 1e-9
        assert data.solver_niter == d.solver_niter.sum()


def test_what_reduces_slip_on_an_incline():
    """A box that friction holds on a 20° incline (mu = 0.6 > tan 20°) still creeps, as soft
    contacts do: ~1 mm in 0.5 s with pyramidal cones; about half with elliptic ones; ten times
    less with ``impratio="10"``; practically nothing with NoSlip."""
    xml = """<mujoco><option {}/><worldbody><geom type="plane" size="5 5 .1" euler="0 20 0"/>
      <body pos="0 0 .1" euler="0 20 0"><freejoint/><geom type="box" size=".1 .1 .1" friction="0.6"/></body>
      </worldbody></mujoco>"""
    creep = {}
    for option in ("", 'cone="elliptic"', 'cone="elliptic" impratio="10"', 'noslip_iterations="10"'):
        model = rbd.load_model(xml.format(option))
        data = rbd.Data(model)
        for _ in range(250):
            rbd.step(model, data)
        start = data.qpos[:3].copy()
        for _ in range(250):
            rbd.step(model, data)
        creep[option] = np.linalg.norm(data.qpos[:3] - start)
    pyramidal, elliptic, impratio, noslip = creep.values()
    assert 5e-4 < pyramidal < 2e-3 and elliptic < 0.6 * pyramidal
    assert impratio == pytest.approx(elliptic / 10, rel=0.05) and noslip < 1e-3 * pyramidal
