"""The JAX path: the same functions under ``jax.jit``, ``jax.vmap`` and ``jax.jacfwd``.

* on random trees with every joint type, compiled ``rnea``, ``crba``, ``aba``, forward
  kinematics, the tree-sparse factorization and ``integrate_pos`` equal the NumPy path to
  1e-12 (relative), unbatched and batched (``vmap``);
* the derivatives of inverse and forward dynamics (:mod:`rbdl_edu.derivatives`) equal
  Pinocchio's analytical ones (``computeRNEADerivatives``, ``computeABADerivatives``) to 1e-8
  on URDF robots, and central finite differences;
* float32 input is refused, a compiled function is made once per model;
* the smooth step (constraints off), ``compiled.jit(model, pure_step)``, equals ``rbd.step`` to
  1e-12 with each integrator, on a model with every smooth stage and on gymnasium assets, and
  ``vmap``-ed over 4096 states equals the states stepped one by one (every gymnasium asset
  with every integrator is checked by ``benchmarks/bench_jax.py``, where its compile time counts).

JAX is an optional extra (``rbdl_edu[jax]``): without it this module is skipped, with the
reason; ``make test`` installs it, so CI runs it.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is the optional extra rbdl_edu[jax]; the NumPy path is tested without it")

import pinocchio as pin  # noqa: E402
from pinocchio_oracle import joint_maps  # noqa: E402
from test_mjcf import GYM  # noqa: E402
from test_urdf import ROBOTS  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu import compiled, factor  # noqa: E402
from rbdl_edu.derivatives import aba_derivatives, rnea_derivatives  # noqa: E402
from rbdl_edu.kinematics import forward_kinematics  # noqa: E402
from rbdl_edu.rnea import rnea_passes  # noqa: E402
from rbdl_edu.simulation.step import pure_step  # noqa: E402

jnp = jax.numpy
ROOT = Path(__file__).resolve().parents[1]
TREES = [rbd.models.auto_tree(n, bf=bf, joint_types=types, seed=n, root_joint=root)
         for n, bf, types, root in [(5, 1.0, ("hinge", "slide"), None), (6, 2.0, ("hinge", "slide", "ball"), None),
                                    (4, 1.5, ("hinge", "ball"), "free"), (3, 1.0, ("ball",), None)]]


def rel(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return np.abs(a - b).max(initial=0) / max(1.0, np.abs(b).max(initial=0))


def random_state(model, rng, batch=()):
    q = np.array([rbd.random_qpos(model, rng) for _ in range(int(np.prod(batch)))]).reshape(batch + (model.nq,)) \
        if batch else rbd.random_qpos(model, rng)
    return q, rng.normal(size=batch + (model.nv,)), rng.normal(size=batch + (model.nv,))


@pytest.mark.parametrize("model", TREES, ids=lambda m: f"nv{m.nv}")
def test_compiled_equals_numpy(model):
    rng = np.random.default_rng(0)
    q, qd, x = random_state(model, rng)
    for name, f, args in [("rnea", rbd.rnea, (q, qd, x)), ("aba", rbd.aba, (q, qd, x)), ("crba", rbd.crba, (q,)),
                          ("bias", rbd.bias, (q, qd))]:
        assert rel(compiled.jit(model, f)(*args), f(model, *args)) < 1e-12, name
    xpos, xmat = compiled.jit(model, forward_kinematics)(q)
    assert rel(xpos, forward_kinematics(model, q)[0]) < 1e-12 and rel(xmat, forward_kinematics(model, q)[1]) < 1e-12
    assert rel(compiled.jit(model, rbd.integrate_pos)(q, qd, 0.01), rbd.integrate_pos(model, q, qd, 0.01)) < 1e-12
    Msp = factor.to_tree_sparse(model, rbd.crba(model, q))
    qLD = compiled.jit(model, factor.factor_ltdl)(Msp)
    assert rel(qLD, factor.factor_ltdl(model, Msp)) < 1e-12
    assert rel(compiled.jit(model, factor.solve_ltdl)(qLD, x), np.linalg.solve(rbd.crba(model, q), x)) < 1e-10


def test_traced_factor_row_by_row_equals_unrolled(monkeypatch):
    # a traced factor/solve unrolls its loops up to factor.UNROLL_LIMIT row updates and runs
    # row by row above it: both ways equal the NumPy factor (a fresh model for each limit,
    # as the choice is kept per model)
    rng = np.random.default_rng(1)
    for limit, rowwise in ((factor.UNROLL_LIMIT, False), (0, True)):
        monkeypatch.setattr(factor, "UNROLL_LIMIT", limit)
        model = rbd.models.auto_tree(6, bf=1.5, joint_types=("hinge", "ball"), seed=3)
        assert factor.rowwise(model) is rowwise
        q, _, x = random_state(model, rng)
        M = rbd.crba(model, q)
        Msp, H = factor.to_tree_sparse(model, M), factor.to_tree_sparse(model, M - 50.0 * np.eye(model.nv))
        qLD = jax.jit(lambda Msp: factor.factor_ltdl(model, Msp))(Msp)
        assert rel(qLD, factor.factor_ltdl(model, Msp)) < 1e-12, rowwise
        assert rel(jax.jit(lambda a, b: factor.solve_ltdl(model, a, b))(qLD, x), np.linalg.solve(M, x)) < 1e-10
        lifted = jax.jit(lambda H: factor.factor_ltdl(model, H, min_pivot=1e-3))(H)       # pivots raised
        assert rel(lifted, factor.factor_ltdl(model, H, min_pivot=1e-3)) < 1e-12, rowwise


def test_per_state_keeps_jax_arrays_by_identity():
    # a traced step asks for each joint's transform in several stages: traced once
    model = TREES[2]
    q, qd, _ = random_state(model, np.random.default_rng(2))
    qj, qdj = jnp.asarray(q), jnp.asarray(qd)
    assert rbd.joints.jcalc(model, 1, qj, qdj) is rbd.joints.jcalc(model, 1, qj, qdj)
    again = rbd.joints.jcalc(model, 1, jnp.asarray(q), qdj)           # equal values, another array
    assert again is not rbd.joints.jcalc(model, 1, qj, qdj)
    for a, b in zip(again, rbd.joints.jcalc(model, 1, q, qd)):
        assert rel(a, b) < 1e-12
    eqns = jax.make_jaxpr(lambda q: [rbd.joints.joint_frames(model, i, q)[0] for i in range(1, model.nbody)] * 2)(q)
    once = jax.make_jaxpr(lambda q: [rbd.joints.joint_frames(model, i, q)[0] for i in range(1, model.nbody)])(q)
    assert len(eqns.jaxpr.eqns) == len(once.jaxpr.eqns)


def test_unknown_compiler_options_are_dropped(monkeypatch):
    """An XLA that does not know compiled.COMPILER_OPTIONS compiles without them."""
    monkeypatch.setattr(compiled, "COMPILER_OPTIONS", {"xla_cpu_no_such_option": True})
    assert np.array_equal(compiled._caller(lambda x: 2 * x)([1.0, 2.0]), [2.0, 4.0])
    # several vectors go in joined as one (and are split again): the same fallback
    assert np.array_equal(compiled._caller(lambda x, y: x - 2 * y)(np.ones(1), np.array([2.0, 3.0])), [-3.0, -5.0])


@pytest.mark.parametrize("model", TREES[:2], ids=lambda m: f"nv{m.nv}")
def test_vmap_equals_numpy_batches(model):
    rng = np.random.default_rng(1)
    q, qd, x = random_state(model, rng, batch=(16,))
    for f, args in [(rbd.rnea, (q, qd, x)), (rbd.aba, (q, qd, x)), (rbd.crba, (q,))]:
        assert rel(compiled.jit(model, f, batched=True)(*args), f(model, *args)) < 1e-12, f.__name__
    # a traced batch runs RNEA body by body (arrays.batch_traced), pushed bodies included
    xfrc = rng.normal(size=(16, model.nbody, 6))
    passes = compiled.jit(model, rnea_passes_of, batched=True)(q, qd, x, xfrc)
    for got, want in zip(passes, rnea_passes_of(model, q, qd, x, xfrc)):
        assert rel(got, want) < 1e-12


def rnea_passes_of(model, q, qd, qdd, xfrc):
    """RNEA's stacked intermediates (Xup, v, a, fB, f) and tau, body first as NumPy's batches."""
    p = rnea_passes(model, q, qd, qdd, xfrc)
    return [p.Xup, p.v, p.a, p.fB, p.f, p.tau] if q.ndim == 1 else \
        [np.moveaxis(x, 1, 0) for x in (p.Xup, p.v, p.a, p.fB, p.f)] + [p.tau]


def test_float32_is_refused_and_compiled_once():
    model = TREES[0]
    with pytest.raises(TypeError, match="float64"):
        rbd.rnea(model, jnp.zeros(model.nq, dtype=jnp.float32), np.zeros(model.nv), np.zeros(model.nv))
    assert compiled.jit(model, rbd.rnea) is compiled.jit(model, rbd.rnea)
    assert compiled.jit(model, rbd.rnea) is not compiled.jit(model, rbd.rnea, batched=True)


def test_grad_of_a_scalar():
    """``jax.grad`` of the kinetic energy through ``crba``: ∂T/∂q̇ = M q̇."""
    model = TREES[1]
    rng = np.random.default_rng(2)
    q, qd, _ = random_state(model, rng)
    g = jax.grad(lambda qd: 0.5 * qd @ rbd.crba(model, jnp.asarray(q)) @ qd)(jnp.asarray(qd))
    assert rel(g, rbd.crba(model, q) @ qd) < 1e-12


def central_differences(f, model, q, h=1e-6, tangent=True):
    """Columns ``(f(q ⊕ h e_k) - f(q ⊖ h e_k)) / 2h``, in the tangent space at ``q`` (or plain
    ``q ± h e_k`` for a velocity)."""
    cols = []
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = h
        plus, minus = (rbd.integrate_pos(model, q, e, 1.0), rbd.integrate_pos(model, q, -e, 1.0)) if tangent \
            else (q + e, q - e)
        cols.append((f(plus) - f(minus)) / (2 * h))
    return np.array(cols).T


@pytest.mark.parametrize("model", TREES, ids=lambda m: f"nv{m.nv}")
def test_derivatives_equal_finite_differences(model):
    rng = np.random.default_rng(3)
    q, qd, x = random_state(model, rng)
    dtau_dq, dtau_dqd = rnea_derivatives(model, q, qd, x)
    assert rel(dtau_dq, central_differences(lambda q: rbd.rnea(model, q, qd, x), model, q)) < 1e-6
    assert rel(dtau_dqd, central_differences(lambda v: rbd.rnea(model, q, v, x), model, qd, tangent=False)) < 1e-6
    dqdd_dq, dqdd_dqd, dqdd_dtau = aba_derivatives(model, q, qd, x)
    assert rel(dqdd_dq, central_differences(lambda q: rbd.aba(model, q, qd, x), model, q)) < 1e-6
    assert rel(dqdd_dtau, np.linalg.inv(rbd.crba(model, q))) < 1e-10


PIN_ROBOTS = [ROOT / "models" / "arm2.urdf"] + [p for p in ROBOTS if p.name == "panda.urdf"]


@pytest.mark.parametrize("path", PIN_ROBOTS, ids=lambda p: p.name)
def test_derivatives_equal_pinocchio(path):
    assert len(PIN_ROBOTS) == 2, PIN_ROBOTS
    model, pm = rbd.load_urdf(path), pin.buildModelFromUrdf(str(path))
    pd = pm.createData()
    v_index, to_pin = joint_maps(model, pm)
    P = np.zeros((model.nv, pm.nv))
    P[np.arange(model.nv), v_index] = 1              # ours = P @ Pinocchio's (dof order)
    rng = np.random.default_rng(4)
    for _ in range(2):
        q = rng.uniform(-1.5, 1.5, model.nq)
        qd, qdd = rng.normal(size=(2, model.nv))
        qp, v, a = to_pin(q), P.T @ qd, P.T @ qdd
        dq, dv, _ = pin.computeRNEADerivatives(pm, pd, qp, v, a)
        ours_dq, ours_dv = rnea_derivatives(model, q, qd, qdd)
        assert rel(ours_dq, P @ dq @ P.T) < 1e-8 and rel(ours_dv, P @ dv @ P.T) < 1e-8
        tau = rng.normal(size=model.nv)
        dq, dv, dtau = pin.computeABADerivatives(pm, pd, qp, v, P.T @ tau)
        ours = aba_derivatives(model, q, qd, tau)
        for k, theirs in enumerate((dq, dv, dtau)):
            assert rel(ours[k], P @ theirs @ P.T) < 1e-8, k


# -- the compiled step ----------------------------------------------------------------------------
#: every smooth stage on one small model: a free body, ball, hinge and slide joints with springs and
#: dampers, a fixed tendon with a damper, the fluid's inertia boxes, actuators on joints, on the tendon
#: and on a site, one with filter dynamics and affine gain and bias, and sensors of every stage
STEP_XML = """<mujoco><option viscosity="0.1" integrator="{integrator}"><flag constraint="disable"/></option>
<worldbody><body pos="0 0 1"><freejoint/><geom type="capsule" size=".05 .2"/>
  <body pos="0 0 -.3"><joint name="ball" type="ball" damping=".3" stiffness="2"/><geom size=".08"/>
    <site name="s" pos="0 .1 0"/>
    <body pos="0 0 -.3"><joint name="hinge" axis="0 1 0" damping=".5" stiffness="3" springref=".2"/>
      <geom type="box" size=".05 .05 .1"/>
      <body pos="0 0 -.2"><joint name="slide" type="slide" axis="1 0 0" damping="1"/><geom size=".04"/></body>
</body></body></body></worldbody>
<tendon><fixed name="t" damping=".2"><joint joint="hinge" coef="1"/><joint joint="slide" coef="-.5"/></fixed></tendon>
<actuator><motor name="m" joint="hinge" gear="2" ctrlrange="-1 1" ctrllimited="true"/>
  <general joint="slide" dyntype="filter" dynprm=".05" gaintype="affine" gainprm="3 0 -1" biastype="affine"
           biasprm="0 -2 -.5"/>
  <position tendon="t" kp="5" kv="1"/><velocity site="s" gear="0 0 0 1 0 0" kv=".5"/></actuator>
<sensor><jointpos joint="hinge"/><framepos objtype="site" objname="s"/><velocimeter site="s"/>
  <accelerometer site="s"/><actuatorfrc actuator="m"/><tendonpos tendon="t"/></sensor></mujoco>"""


def random_states(model, rng, n):
    """``n`` random states ``(qpos, qvel, act, ctrl)``, each ``(n, ·)``."""
    return (np.array([rbd.random_qpos(model, rng) for _ in range(n)]), rng.normal(size=(n, model.nv)),
            rng.normal(size=(n, model.na)), rng.uniform(-1.5, 1.5, size=(n, model.nu)))


def numpy_step(model, qpos, qvel, act, ctrl):
    """One ``rbd.step`` from a fresh Data at this state (the reference)."""
    data = rbd.Data(model)
    data.qpos, data.qvel, data.act, data.ctrl = qpos, qvel, act, ctrl
    rbd.step(model, data)
    return data.qpos, data.qvel, data.act


def gym_model(name, integrator):
    """A gymnasium asset with constraints off and this integrator."""
    model = rbd.load_model(next(p for p in GYM if p.name == name))
    opt = dataclasses.replace(model.opt, integrator=integrator, disableflags=model.opt.disableflags | {"constraint"})
    return model.replace(opt=opt)


@pytest.mark.parametrize("model", [rbd.load_model(STEP_XML.format(integrator="implicitfast")),
                                   gym_model("swimmer.xml", "Euler"), gym_model("inverted_pendulum.xml", "RK4")],
                         ids=["every-stage-implicitfast", "swimmer-Euler", "inverted_pendulum-RK4"])
def test_compiled_step_equals_numpy_step(model):
    """``compiled.jit(model, pure_step)`` = ``rbd.step`` to 1e-12, at random states."""
    rng = np.random.default_rng(5)
    step = compiled.jit(model, pure_step)
    for state in zip(*random_states(model, rng, 3)):
        for ours, theirs in zip(step(*state), numpy_step(model, *state)):
            assert rel(ours, theirs) < 1e-12
    assert all(rel(a, b) == 0 for a, b in zip(pure_step(model, *state), numpy_step(model, *state)))


def test_vmapped_step_equals_looped_step():
    """4096 states stepped at once (``batched=True``) = each stepped alone by NumPy."""
    model = gym_model("inverted_double_pendulum.xml", "Euler")
    rng = np.random.default_rng(6)
    states = random_states(model, rng, 4096)
    batch = compiled.jit(model, pure_step, batched=True)(*states)
    looped = [np.array(x) for x in zip(*(numpy_step(model, *s) for s in zip(*states)))]
    for ours, theirs in zip(batch, looped):
        assert ours.shape == theirs.shape and rel(ours, theirs) < 1e-12


def test_compiled_step_refuses_constraints():
    """Constraint rows come and go with the state: a compiled step refuses them, with the flag to set."""
    model = rbd.models.double_pendulum()
    with pytest.raises(NotImplementedError, match='constraint="disable"'):
        compiled.jit(model, pure_step)(model.qpos0, np.zeros(model.nv), np.zeros(0), np.zeros(0))
