"""One owner for each thing: two wrong answers that came from two copies of one idea.

1. **The integrator's matrix.** ``rbd.step`` solves :math:`H\\ddot q = f` with its own matrix
   :math:`H` (:math:`M + hB` for Euler's implicit damping, :math:`M - hD` for implicitfast),
   and with ``<flag invdiscrete="enable"/>`` ``rbd.inverse`` must undo exactly that matrix:
   given the acceleration the integrator used, it returns the force that was applied. When
   the inverse kept its own copy of "which matrix does Euler use", the copies disagreed:
   with ``damper="disable"`` Euler steps with plain :math:`M` (nothing to damp), but the
   inverse still used :math:`M + hB` and returned 1.597 for an applied force of 1.0. Now
   :func:`~rbdl_edu.simulation.integrators.implicit_matrix` is the one owner, used by both.

2. **The loader.** A model needs constants computed from its dynamics at ``qpos0``
   (``set_const``: e.g. the contact's impedance scale from the inverse inertia). A second
   loader, ``rbd.io.load_model``, read and compiled the file but skipped ``set_const``: a
   ball resting in a floor got :math:`\\ddot z = 2.63` instead of MuJoCo's 2.01. Now there is
   one loader (``rbd.load_model``, which ``rbd.load_mjcf`` and ``rbd.load_urdf`` name), and
   the old names fail loudly, pointing at it.
"""
from __future__ import annotations

import itertools

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.io.mjcf import read_mjcf

# --- 1. the integrator's matrix: inverse(step's acceleration) == the applied force --------------

H = 0.01        # a large timestep, so that the h B and h D terms are far above round-off


def chain_xml(integrator, damper, eulerdamp):
    """A hinge (damped) carrying a slide (damped), and a free-floating box (whose gyroscopic
    derivative implicitfast takes implicitly), with the flags in the MJCF text."""
    return f"""<mujoco>
  <option integrator="{integrator}" timestep="{H}">
    <flag damper="{damper}" eulerdamp="{eulerdamp}" invdiscrete="enable"/>
  </option>
  <worldbody>
    <body pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" damping="0.5"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05" mass="1"/>
      <body pos="0.3 0 0">
        <joint name="slide" type="slide" axis="1 0 0" damping="0.8"/>
        <geom type="box" size="0.05 0.05 0.05" mass="0.5"/>
      </body>
    </body>
    <body pos="1 0 2">
      <freejoint/>
      <geom type="box" size="0.1 0.2 0.3" mass="2"/>
    </body>
  </worldbody>
</mujoco>"""


CASES = list(itertools.product(("Euler", "implicitfast"), ("enable", "disable"), ("enable", "disable")))


def state(nq, nv):
    """A state away from rest (the free body tumbling, so its gyroscopic term is nonzero) and
    an applied force on every dof."""
    rng = np.random.default_rng(7)
    qpos = np.zeros(nq)
    qpos[:2] = 0.3, 0.05                                         # hinge, slide
    quat = np.array([0.9, 0.1, 0.2, 0.3])
    qpos[2:9] = [1.0, 0.0, 2.0, *(quat / np.linalg.norm(quat))]  # the free body
    qvel = rng.normal(size=nv)
    qfrc_applied = rng.normal(size=nv)
    return qpos, qvel, qfrc_applied


def integrator_acc(step, data, qvel):
    """The acceleration the integrator used: step, then read it off the velocity change
    (every integrator here ends with :math:`\\dot q_{t+h} = \\dot q_t + h\\ddot q`)."""
    step()
    return (np.array(data.qvel) - qvel) / H


def rbd_case(integrator, damper, eulerdamp):
    """rbdl_edu: (forward's qacc, the integrator's acceleration, the inverse of it)."""
    model = rbd.load_model(chain_xml(integrator, damper, eulerdamp))
    data = rbd.Data(model)
    qpos, qvel, f = state(model.nq, model.nv)
    data.qpos[:], data.qvel[:], data.qfrc_applied[:] = qpos, qvel, f
    rbd.forward(model, data)
    qacc = data.qacc.copy()
    acc = integrator_acc(lambda: rbd.step(model, data), data, qvel)
    # back to the state before the step, with the integrator's acceleration
    data.qpos[:], data.qvel[:], data.time = qpos, qvel, 0.0
    data.qacc[:] = acc
    rbd.inverse(model, data)
    return model, qacc, acc, data.qfrc_inverse.copy(), f


def mujoco_case(integrator, damper, eulerdamp):
    """The same in MuJoCo (mj_step, mj_inverse)."""
    m = mujoco.MjModel.from_xml_string(chain_xml(integrator, damper, eulerdamp))
    d = mujoco.MjData(m)
    qpos, qvel, f = state(m.nq, m.nv)
    d.qpos[:], d.qvel[:], d.qfrc_applied[:] = qpos, qvel, f
    acc = integrator_acc(lambda: mujoco.mj_step(m, d), d, qvel)
    d.qpos[:], d.qvel[:], d.time = qpos, qvel, 0.0
    d.qacc[:] = acc
    mujoco.mj_inverse(m, d)
    return acc, d.qfrc_inverse.copy()


def test_the_bug_itself_one_for_one_not_1597():
    """The case that was wrong: a damped hinge (a 0.1 m sphere of water's density,
    :math:`I = 0.01676`), Euler, ``damper="disable"``, h = 0.02, a force of 1. The step uses
    plain :math:`M`: :math:`\\ddot q = 1/I = 59.68`; its inverse is 1. The old inverse, with
    :math:`M + hB`, gave :math:`1 + hB\\ddot q = 1 + 0.02 \\cdot 0.5 \\cdot 59.68 = 1.597`."""
    xml = """<mujoco><option integrator="Euler" timestep="0.02">
               <flag damper="disable" invdiscrete="enable"/></option>
             <worldbody><body><joint damping="0.5"/><geom size=".1"/></body></worldbody></mujoco>"""
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    data.qfrc_applied[:] = 1.0
    rbd.step(model, data)
    acc = data.qvel / 0.02
    assert acc[0] == pytest.approx(1 / data.qM[0, 0], rel=1e-12)       # plain M: nothing to damp
    assert acc[0] == pytest.approx(59.6831, abs=1e-4)
    data.qpos[:], data.qvel[:], data.qacc[:] = 0.0, 0.0, acc
    rbd.inverse(model, data)
    assert data.qfrc_inverse[0] == pytest.approx(1.0, abs=1e-12)
    old = (data.qM + 0.02 * np.diag(model.dof_damping)) @ acc     # the old inverse's matrix
    assert old[0] == pytest.approx(1.5968, abs=1e-4)


@pytest.mark.parametrize("integrator, damper, eulerdamp", CASES)
def test_inverse_of_the_step_is_the_applied_force(integrator, damper, eulerdamp):
    """rbd.inverse, given the acceleration rbd.step used, returns qfrc_applied (to 1e-8)."""
    model, qacc, acc, qfrc_inverse, f = rbd_case(integrator, damper, eulerdamp)
    np.testing.assert_allclose(qfrc_inverse, f, rtol=0, atol=1e-8,
                               err_msg=f"{integrator}, damper={damper}, eulerdamp={eulerdamp}: "
                                       "inverse(step's acceleration) != qfrc_applied")


@pytest.mark.parametrize("integrator, damper, eulerdamp", CASES)
def test_step_and_inverse_agree_with_mujoco(integrator, damper, eulerdamp):
    """The same acceleration as MuJoCo's integrator, and the same inverse force as
    mj_inverse (which also returns qfrc_applied)."""
    _, _, acc, qfrc_inverse, f = rbd_case(integrator, damper, eulerdamp)
    mj_acc, mj_qfrc_inverse = mujoco_case(integrator, damper, eulerdamp)
    np.testing.assert_allclose(acc, mj_acc, rtol=0, atol=1e-8, err_msg="integrator's acceleration")
    np.testing.assert_allclose(mj_qfrc_inverse, f, rtol=0, atol=1e-8, err_msg="MuJoCo's own identity")
    np.testing.assert_allclose(qfrc_inverse, mj_qfrc_inverse, rtol=0, atol=1e-8, err_msg="qfrc_inverse")


@pytest.mark.parametrize("integrator, damper, eulerdamp", CASES)
def test_the_cases_tell_the_matrices_apart(integrator, damper, eulerdamp):
    """The model is not a degenerate one where every matrix gives the same answer: where the
    integrator has a matrix of its own (Euler with damping taken implicitly; implicitfast,
    whose tumbling free body is implicit even without dampers), its acceleration differs
    from forward's; where Euler has none, they agree, and the old inverse's :math:`M + hB`
    would have been off by :math:`hB\\ddot q` (the 1.597-for-1.0 bug)."""
    model, qacc, acc, _, _ = rbd_case(integrator, damper, eulerdamp)
    has_matrix = integrator == "implicitfast" or (damper == "enable" and eulerdamp == "enable")
    gap = np.abs(acc - qacc).max()
    if has_matrix:
        assert gap > 1e-3, f"the integrator's acceleration equals forward's ({gap:.2e}): the case tests nothing"
    else:
        assert gap < 1e-10, f"Euler without implicit damping changed forward's acceleration by {gap:.2e}"
        old_error = np.abs(H * model.dof_damping * acc).max()
        assert old_error > 1e-3, "the old M + hB inverse would have given the right answer here too"


# --- 2. one loader ------------------------------------------------------------------------------

# a unit-mass ball of radius 0.1 sunk 1 mm into the floor: the contact pushes it up
BALL = """<mujoco>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body pos="0 0 0.099">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="1"/>
    </body>
  </worldbody>
</mujoco>"""


def forward_qacc(model):
    data = rbd.Data(model)
    rbd.forward(model, data)
    return data.qacc.copy()


def test_every_way_to_load_gives_mujocos_contact(tmp_path):
    """Text or file, load_model or load_mjcf: one loader, one answer, MuJoCo's (the contact's
    impedance scale is a set_const constant)."""
    path = tmp_path / "ball.xml"
    path.write_text(BALL)
    m = mujoco.MjModel.from_xml_string(BALL)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    assert d.qacc[2] > 1.0                      # the floor pushes the ball up, against gravity
    loaded = {"load_model(text)": rbd.load_model(BALL), "load_mjcf(text)": rbd.load_mjcf(BALL),
              "load_model(path)": rbd.load_model(path), "load_model(str(path))": rbd.load_model(str(path)),
              "load_mjcf(path)": rbd.load_mjcf(path)}
    for how, model in loaded.items():
        np.testing.assert_allclose(forward_qacc(model), d.qacc, rtol=0, atol=1e-6, err_msg=how)


def test_reading_without_set_const_is_refused_not_the_old_wrong_answer():
    """Why the one loader matters: the reader alone (no set_const) once gave the old 2.63 in
    silence; forward now refuses a model without its constants and names the fix."""
    assert forward_qacc(rbd.load_model(BALL))[2] == pytest.approx(2.0095, abs=1e-6)
    assert forward_qacc(rbd.set_const(read_mjcf(BALL)))[2] == pytest.approx(2.0095, abs=1e-6)
    with pytest.raises(ValueError, match=r"constants at qpos0 were not computed.*rbd.set_const"):
        forward_qacc(read_mjcf(BALL))


def test_a_spec_compiled_model_is_refused_until_its_constants_are_set():
    """``ModelSpec.compile()`` compiles only: its ``body_invweight0`` is zero, and a box on the
    floor drifted 1e-4 m from the loaded model's in 200 steps without a word."""
    model = rbd.load_model("""<mujoco><worldbody><geom type="plane" size="1 1 .1"/><body pos="0 0 .2">
        <freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody></mujoco>""")
    compiled = rbd.ModelSpec.from_model(model).compile()
    with pytest.raises(ValueError, match="constants at qpos0"):
        rbd.step(compiled, rbd.Data(compiled))
    d1, d2 = rbd.Data(model), rbd.Data(rbd.set_const(compiled))
    rbd.step(model, d1, 200)
    rbd.step(rbd.set_const(compiled), d2, 200)
    np.testing.assert_array_equal(d1.qpos, d2.qpos)
    assert rbd.models.pendulum().set_const is not None            # the ready-made models have theirs


@pytest.mark.parametrize("name", ["load_model", "load_mjcf", "load_urdf"])
def test_the_old_loaders_are_gone_and_say_where_to_go(name):
    """``rbd.io.load_*`` raise, and the message names the one loader, ``rbd.load_model``."""
    with pytest.raises(AttributeError) as e:
        getattr(rbd.io, name)
    assert "rbd.load_model" in str(e.value), str(e.value)
