"""Habits that gave a wrong number with no word (issue: no silent wrong answers); each test
failed before its fix."""
from __future__ import annotations

import dataclasses
import warnings

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.simulation.step import DivergenceWarning

PENDULUM = """<mujoco><worldbody><body><joint name="j" axis="0 1 0"/><geom size=".1" pos="0 0 -1"/></body>
    </worldbody><actuator><motor name="m" joint="j"/></actuator></mujoco>"""


def test_a_nan_state_is_reset_said_once_and_time_goes_on_as_in_mujoco():
    model, m = rbd.load_model(PENDULUM), mujoco.MjModel.from_xml_string(PENDULUM)
    data, d = rbd.Data(model), mujoco.MjData(m)
    data.time = d.time = 1.0
    data.qpos[0] = d.qpos[0] = np.nan
    with pytest.warns(DivergenceWarning, match=r"qpos\[0\] = nan at time 1.0000.*reset"):
        rbd.step(model, data)
    mujoco.mj_step(m, d)
    assert data.time == d.time == m.opt.timestep          # reset to 0, then the step went on
    np.testing.assert_array_equal(data.qpos, d.qpos)
    assert data.warning["qpos"].last.quantity == "qpos" and data.warning["qpos"].last.time == 1.0
    data.qpos[0] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")                   # said once per kind: no second warning
        rbd.step(model, data)
    assert data.warning["qpos"].number == 2 and data.warning.number == 2
    data.qvel[0] = np.inf
    with pytest.warns(DivergenceWarning, match=r"qvel\[0\] = inf"):
        rbd.step(model, data)


def test_forward_on_a_state_that_is_not_finite_names_the_field():
    model = rbd.load_model(PENDULUM)
    for name, index in (("qpos", 0), ("qvel", 0), ("ctrl", 0), ("qfrc_applied", 0), ("xfrc_applied", (1, 2))):
        data = rbd.Data(model)
        getattr(data, name)[index] = np.nan
        where = index if isinstance(index, int) else f"{index[0]}, {index[1]}"
        with pytest.raises(ValueError, match=rf"data\.{name}\[{where}\] is nan"):
            rbd.forward(model, data)
        with pytest.raises(ValueError, match=rf"data\.{name}"):
            rbd.inverse(model, data)


@pytest.mark.parametrize("name", ["ctrl", "qfrc_applied", "qpos", "qvel", "xfrc_applied"])
def test_an_int_array_assigned_to_a_data_field_becomes_float(name):
    model = rbd.load_model(PENDULUM)
    data = rbd.Data(model)
    shape = getattr(data, name).shape
    given = np.zeros(shape, dtype=int)
    setattr(data, name, given)
    getattr(data, name).flat[0] = 0.7
    assert getattr(data, name).dtype == np.float64 and getattr(data, name).flat[0] == 0.7
    assert given.flat[0] == 0                            # a copy: the caller's array is untouched
    with pytest.raises(ValueError, match=rf"data\.{name} has shape"):
        setattr(data, name, np.zeros(shape[:-1] + (shape[-1] + 1,)))


def test_a_control_in_a_rollout_of_ints():
    """The lab's seed report: controls computed as ints (``np.sign``) must still move the joint."""
    model = rbd.load_model(PENDULUM)
    data = rbd.Data(model)
    data.ctrl = np.ones(1, dtype=int)
    rbd.step(model, data)
    assert data.qvel[0] > 0


@pytest.mark.parametrize("change,message", [
    (dict(cone="Elliptic"), r"option cone='Elliptic' is not one of \['elliptic', 'pyramidal'\]"),
    (dict(solver="newton"), r"option solver='newton' is not one of \['CG', 'Newton', 'PGS'\]"),
    (dict(integrator="rk4"), r"option integrator='rk4'"),
    (dict(disableflags={"gravty"}), r"unknown disable flag 'gravty'; did you mean 'gravity'\?"),
    (dict(enableflags={"energie"}), r"unknown enable flag 'energie'; did you mean 'energy'\?"),
    (dict(disableflags="gravity"), r"a set of flag names, not the string 'gravity'"),
    (dict(impratio=float("nan")), r"impratio=nan must be a finite number"),
    (dict(timestep=-0.001), r"timestep=-0.001 must be positive"),
    (dict(gravity=[0, 0, float("inf")]), r"gravity must be 3 finite numbers"),
    (dict(iterations=2.5), r"iterations=2.5 must be a whole number"),
])
def test_options_set_in_code_are_checked_as_in_xml(change, message):
    """``cone="Elliptic"`` once ran as pyramidal, bit for bit; ``disableflags={"gravty"}`` was
    ignored; ``impratio=nan`` removed the contact force. Now each is refused, by the one
    idiom for changing an option: ``model.replace(opt=dataclasses.replace(model.opt, ...))``."""
    model = rbd.load_model(PENDULUM)
    with pytest.raises((ValueError, TypeError), match=message):
        model.replace(opt=dataclasses.replace(model.opt, **change))
    with pytest.raises((ValueError, TypeError), match=message):
        rbd.Option(**change)


BALL = """<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
    <body name="ball" pos="0 0 .099"><freejoint/><geom size=".1" mass="1"/></body>
    <body name="arm" pos="0.5 0 0.5"><joint name="hinge" axis="0 1 0" damping="0.1"/>
    <geom type="capsule" size=".02" fromto="0 0 0 .2 0 0" mass="0.3"/></body></worldbody>
    <actuator><position joint="hinge" kp="5" dampratio="1"/></actuator></mujoco>"""


def test_a_model_edit_is_refused_and_replace_recomputes_every_constant():
    """``m.body_mass[2] *= 3`` once changed nothing (caches kept the old numbers) while a
    ``dof_damping`` edit did: per-episode domain randomization silently did nothing. Now the
    write is refused with the way to do it, and ``replace`` gives the physics MuJoCo gives
    after the same edit and ``mj_setConst``."""
    model = rbd.load_model(BALL)
    data = rbd.Data(model)
    rbd.forward(model, data)
    with pytest.raises(ValueError, match=r"model\.replace\(body_mass=\.\.\.\)"):
        model.body_mass[2] *= 3
    with pytest.raises(ValueError, match="read-only"):
        model.dof_damping[6] = 1.0
    mass = model.body_mass.copy()
    mass[1:] *= [3.0, 2.0]
    heavier = model.replace(body_mass=mass, body_inertia=model.body_inertia * np.array([[1], [3], [2]]))
    m = mujoco.MjModel.from_xml_string(BALL)
    m.body_mass[:] = heavier.body_mass
    m.body_inertia[:] = heavier.body_inertia
    mujoco.mj_setConst(m, mujoco.MjData(m))
    for name in ("dof_M0", "dof_invweight0", "body_invweight0", "actuator_acc0", "actuator_biasprm"):
        np.testing.assert_allclose(getattr(heavier, name), getattr(m, name).reshape(getattr(heavier, name).shape),
                                   rtol=1e-9, atol=1e-12, err_msg=name)
    d = mujoco.MjData(m)
    d.qfrc_applied[6] = 1.0                      # a torque on the hinge: its acceleration is 1/I
    mujoco.mj_forward(m, d)
    data = rbd.Data(heavier)
    data.qfrc_applied[6] = 1.0
    rbd.forward(heavier, data)
    np.testing.assert_allclose(data.qacc, d.qacc, rtol=1e-6, atol=1e-8)
    # the first model is untouched, its caches too; the edit changed the physics
    data0 = rbd.Data(model)
    data0.qfrc_applied[6] = 1.0
    rbd.forward(model, data0)
    assert np.abs(data0.qacc - data.qacc).max() > 1e-3


def test_a_zero_mocap_quaternion_is_the_identity_as_in_mujoco():
    xml = """<mujoco><worldbody><body mocap="true" name="target" pos="0 0 1">
        <geom size=".1" contype="0" conaffinity="0"/></body>
        <body><freejoint/><geom size=".1"/></body></worldbody></mujoco>"""
    model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
    data, d = rbd.Data(model), mujoco.MjData(m)
    data.mocap_quat[0] = d.mocap_quat[0] = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")               # no division by zero on the way
        rbd.forward(model, data)
    mujoco.mj_forward(m, d)
    np.testing.assert_allclose(data.xquat, d.xquat, atol=1e-15)
    np.testing.assert_allclose(data.qacc, d.qacc, atol=1e-12)


@pytest.mark.parametrize("integrator", ["Euler", "RK4", "implicitfast"])
def test_a_diverging_step_resets_with_every_integrator(integrator):
    """RK4's inner stages may meet a state that is no longer finite: as in MuJoCo they go on
    (no error from inside the step), and the next step's check resets and says so."""
    model = rbd.load_model(f"""<mujoco><option timestep="0.5" integrator="{integrator}"/><worldbody><body>
        <joint stiffness="1e7" type="slide"/><geom size=".1"/></body></worldbody></mujoco>""")
    data = rbd.Data(model)
    data.qpos[:] = 0.1
    with pytest.warns(DivergenceWarning):
        for _ in range(40):
            rbd.step(model, data)
    assert data.warning and np.all(np.isfinite(data.qpos)) and np.all(np.isfinite(data.qvel))


def test_warnings_are_counted_in_bounded_memory_as_in_mujoco():
    """A simulation that resets at every other step keeps, per kind, a count and the first and
    last record (MuJoCo's ``warning[k].number`` and ``lastinfo``), not one entry per step; the
    kinds are MuJoCo's. (MuJoCo's reset clears its counters, so after an autoreset its count
    reads 1; ours counts every reset since the last ``rbd.reset``: the appendix says so.)"""
    xml = """<mujoco><option timestep="0.5"/><worldbody><body>
        <joint stiffness="1e9" type="slide"/><geom size=".1"/></body></worldbody></mujoco>"""
    model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
    data, d = rbd.Data(model), mujoco.MjData(m)
    data.qpos[:] = d.qpos[:] = 0.1
    with pytest.warns(DivergenceWarning) as said:
        rbd.step(model, data, 300)
    mujoco.mj_step(m, d, 300)
    assert len(said) == 1                                          # said once
    kinds = {"qpos": mujoco.mjtWarning.mjWARN_BADQPOS, "qvel": mujoco.mjtWarning.mjWARN_BADQVEL,
             "qacc": mujoco.mjtWarning.mjWARN_BADQACC}
    assert [k for k in kinds if data.warning[k].number] == [k for k, w in kinds.items() if d.warning[w].number]
    assert data.warning.number == data.warning["qacc"].number == 150 and list(data.warning) == ["qacc"]
    first, last = data.warning["qacc"].first, data.warning["qacc"].last
    assert (first.time, last.time) == (0.5, 1.0) and abs(last.value) > 1e10
    assert data.time == d.time and data.qpos[0] == pytest.approx(d.qpos[0], rel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traj = rbd.rollout(model, data, 10)                        # the rollout's own count, added to data's
    assert traj.warning["qacc"].number == 5 and data.warning["qacc"].number == 155
    rbd.reset(model, data)
    assert not data.warning and data.warning["qacc"].number == 0
