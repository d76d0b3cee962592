"""The smooth pipeline (no constraints) against MuJoCo 4.0: ``forward`` and one ``step`` with
each integrator, on every gymnasium asset and every ``models/*.xml``, at states taken along a
MuJoCo trajectory with random controls; and what a user meets around it: reset and
keyframes, divergence, bad controls, rollout.

In both engines constraints are off (``<flag constraint="disable"/>``): contacts, limits and
equalities are the next chapter's."""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest
from test_mjcf import GYM, MODELS

import rbdl_edu as rbd

INTEGRATORS = {"Euler": mujoco.mjtIntegrator.mjINT_EULER, "RK4": mujoco.mjtIntegrator.mjINT_RK4,
               "implicitfast": mujoco.mjtIntegrator.mjINT_IMPLICITFAST}
FORCES = ("qfrc_passive", "qfrc_actuator", "actuator_force", "qfrc_bias", "qfrc_smooth", "sensordata")


def both(path, integrator):
    m = mujoco.MjModel.from_xml_path(str(path))
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    m.opt.integrator = INTEGRATORS[integrator]
    model = rbd.load_model(path)
    opt = dataclasses.replace(model.opt, integrator=integrator,
                              disableflags=model.opt.disableflags | {"constraint"})
    return m, mujoco.MjData(m), model.replace(opt=opt)


CASES = [(p, i) for p in [p for p in MODELS if p.suffix == ".xml"] + GYM for i in INTEGRATORS]


@pytest.mark.parametrize("path,integrator", CASES, ids=lambda x: getattr(x, "name", x))
def test_forward_and_step_match_mujoco(path, integrator):
    m, d, model = both(path, integrator)
    data = rbd.Data(model)
    rng = np.random.default_rng(len(path.name))
    d.qvel[:] = rng.normal(size=m.nv)
    for k in range(12):
        d.ctrl[:] = rng.uniform(-1, 1, m.nu) * np.where(m.actuator_ctrllimited, 1.5, 1.0)
        mujoco.mj_step(m, d)                       # move along MuJoCo's trajectory
        if k % 3:
            continue
        data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:] = d.qpos, d.qvel, d.act, d.ctrl
        data.time = d.time
        mujoco.mj_forward(m, d)
        rbd.forward(model, data)
        for name in FORCES:
            ours, theirs = getattr(data, name), getattr(d, name)
            assert np.abs(ours - theirs).max(initial=0) <= 1e-8 * max(1, np.abs(theirs).max(initial=0)), name
        assert np.abs(data.qacc - d.qacc).max() <= 1e-8 * max(1, np.abs(d.qacc).max()), "qacc"
        d2 = mujoco.MjData(m)
        d2.qpos[:], d2.qvel[:], d2.act[:], d2.ctrl[:], d2.time = d.qpos, d.qvel, d.act, d.ctrl, d.time
        mujoco.mj_step(m, d2)
        rbd.step(model, data)
        for name in ("qpos", "qvel", "act"):
            assert np.abs(getattr(data, name) - getattr(d2, name)).max(initial=0) <= 1e-9, (name, k)
        assert data.time == pytest.approx(d2.time, abs=1e-15)


def test_reset_and_keyframes():
    model = rbd.load_model("""<mujoco><worldbody><body name="b"><freejoint/><geom size=".1"/></body>
        <body mocap="true" name="target" pos="1 2 3"><geom size=".1"/></body></worldbody>
        <keyframe><key name="up" time="1.5" qpos="0 0 2 1 0 0 0" qvel="0 0 1 0 0 0" mpos="4 5 6"/></keyframe>
        </mujoco>""")
    data = rbd.Data(model)
    rbd.step(model, data)
    data.xfrc_applied[1] = 1.0
    rbd.reset(model, data, "up")
    assert data.time == 1.5 and data.qpos[2] == 2 and data.qvel[2] == 1
    np.testing.assert_array_equal(data.mocap_pos, [[4, 5, 6]])
    assert not data.xfrc_applied.any()
    rbd.reset(model, data)
    assert data.time == 0 and data.qpos[2] == 0 and np.allclose(data.mocap_pos, [[1, 2, 3]])
    with pytest.raises(KeyError, match="up"):
        rbd.reset(model, data, "down")


def test_divergence_resets_and_warns():
    """A timestep far too large for a stiff spring: the state blows up; like MuJoCo the step
    resets the state and records when and what, and never leaves a NaN behind."""
    model = rbd.load_model("""<mujoco><option timestep="0.5"/><worldbody><body>
        <joint stiffness="1e7" type="slide"/><geom size=".1"/></body></worldbody></mujoco>""")
    data = rbd.Data(model)
    data.qpos[:] = 0.1
    for _ in range(40):
        rbd.step(model, data)
        assert np.all(np.isfinite(data.qpos)) and np.all(np.isfinite(data.qvel))
    assert data.warning, "the simulation should have diverged"
    w = data.warning[next(iter(data.warning))].first
    assert w.quantity in ("qpos", "qvel", "qacc") and w.time > 0 and not abs(w.value) <= 1e10


def test_bad_controls_and_unknown_names():
    model = rbd.load_model("""<mujoco><worldbody><body><joint name="hinge"/><geom size=".1"/></body>
        </worldbody><actuator><motor name="m" joint="hinge"/></actuator>
        <sensor><jointpos name="angle" joint="hinge"/></sensor></mujoco>""")
    data = rbd.Data(model)
    with pytest.raises(ValueError, match=r"data.ctrl has shape \(1,\); cannot assign an array of shape \(2,\)"):
        data.ctrl = np.zeros(2)
    # NaN controls: refused, naming the field (MuJoCo instead warns and zeroes them; a NaN
    # control is a bug in the controller, and zero is a control it never chose)
    data.ctrl = np.array([np.nan])
    with pytest.raises(ValueError, match=r"data.ctrl\[0\] is nan"):
        rbd.forward(model, data)
    data.ctrl = np.array([0.5])
    rbd.forward(model, data)
    with pytest.raises(KeyError, match="angle"):
        data.sensor("angel")
    with pytest.raises(KeyError, match="hinge"):
        data.joint("hinj")
    logged = data.sensor("angle")
    data.qpos[:] = 1.0
    rbd.forward(model, data)
    assert logged.data[0] == 0.0 and data.sensor("angle").data[0] == 1.0      # a copy, not a view


def test_rollout_records_what_step_computes():
    """rollout = a loop of step, with the state before each step, the sensors of that state,
    the controls used, and a controller function called each step."""
    xml = """<mujoco><worldbody><body><joint name="hinge" axis="0 1 0" damping="0.1"/>
        <geom type="capsule" size=".05" fromto="0 0 0 0 0 -1"/></body></worldbody>
        <actuator><position name="servo" joint="hinge" kp="20"/></actuator>
        <sensor><jointpos joint="hinge"/><jointvel joint="hinge"/></sensor></mujoco>"""
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    traj = rbd.rollout(model, data, 300, control=lambda m, d: [0.5 * np.sin(d.time)], progress=False)
    assert traj.qpos.shape == (301, 1) and traj.sensordata.shape == (301, 2) and traj.ctrl.shape == (300, 1)
    np.testing.assert_allclose(traj.sensordata[:, 0], traj.qpos[:, 0], atol=1e-15)
    np.testing.assert_allclose(traj.ctrl[:, 0], 0.5 * np.sin(traj.time[:-1]), atol=1e-15)
    data2 = rbd.Data(model)
    for k in range(300):
        data2.ctrl[:] = traj.ctrl[k]
        rbd.step(model, data2)
    np.testing.assert_array_equal(data2.qpos, traj.qpos[-1])
    with pytest.raises(ValueError, match=r"\(300, 1\)"):
        rbd.rollout(model, data, 300, control=np.zeros((299, 1)))


def test_tendon_armature_between_trees_is_dropped_as_mujoco_does():
    """MuJoCo 4.0 keeps M tree-sparse: a tendon's armature a JᵀJ counts only where two dofs
    share a branch (here: two pendulums in two trees, coupled by a fixed tendon)."""
    xml = """<mujoco><worldbody><body><joint name="a" axis="0 1 0"/><geom size=".1" pos="0 0 -1"/></body>
        <body pos="1 0 0"><joint name="b" axis="0 1 0"/><geom size=".1" pos="0 0 -1"/></body></worldbody>
        <tendon><fixed armature="0.3"><joint joint="a" coef="1"/><joint joint="b" coef="1"/></fixed></tendon></mujoco>"""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    d.qpos[:] = data.qpos[:] = [0.3, -0.2]
    mujoco.mj_forward(m, d)
    rbd.forward(model, data)
    np.testing.assert_allclose(data.qacc, d.qacc, rtol=1e-12)
    assert data.qM[0, 1] == 0
