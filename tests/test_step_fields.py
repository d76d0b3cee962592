"""After ``rbd.step``, every ``Data`` field equals MuJoCo's after ``mj_step``, for every
integrator, on every gymnasium asset and every ``models/*.xml`` (constraints off, as
``test_forward``): not only the new state but everything the step leaves behind.

RK4 is where this bites: it runs the pipeline four times per step. MuJoCo's inner stages
skip the sensors, so after a step ``sensordata`` still reads the state the step started
from, while poses, forces and accelerations are those of RK4's last stage. A reader who
takes ``sensordata`` after each step gets the same series from either engine."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from test_forward import CASES, both

import rbdl_edu as rbd
from rbdl_edu.lab import scene_path
from rbdl_edu.simulation.step import step_after_forward

# Data fields with MuJoCo's names, shapes and meaning (time and the state are in test_forward)
FIELDS = ("qacc", "qacc_smooth", "qfrc_bias", "qfrc_passive", "qfrc_actuator", "qfrc_smooth",
          "actuator_force", "actuator_length", "actuator_velocity", "act_dot", "xpos", "xquat", "xipos",
          "geom_xpos", "site_xpos", "subtree_com", "cdof", "cvel", "ten_length", "ten_velocity",
          "qacc_warmstart", "sensordata", "energy")


def _same(name, ours, theirs, tol=1e-8):
    ours, theirs = np.asarray(ours, float), np.asarray(theirs, float).reshape(np.shape(ours))
    if name == "xquat":                              # a quaternion and its negative are one rotation
        theirs = theirs * np.where(np.sum(ours * theirs, axis=-1, keepdims=True) < 0, -1, 1)
    scale = max(1.0, float(np.abs(theirs).max(initial=0)))
    return float(np.abs(ours - theirs).max(initial=0)) <= tol * scale


@pytest.mark.parametrize("path,integrator", CASES, ids=lambda x: getattr(x, "name", x))
def test_every_field_after_step_matches_mujoco(path, integrator):
    m, d, model = both(path, integrator)
    data = rbd.Data(model)
    rng = np.random.default_rng(len(path.name) + 1)
    d.qvel[:] = rng.normal(size=m.nv)
    d.ctrl[:] = rng.uniform(-1, 1, m.nu)
    mujoco.mj_step(m, d)
    data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:], data.time = d.qpos, d.qvel, d.act, d.ctrl, d.time
    data.qacc_warmstart[:] = d.qacc_warmstart
    for _ in range(2):
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        wrong = [name for name in FIELDS if not _same(name, getattr(data, name), getattr(d, name))]
        assert not wrong, f"{path.name}, {integrator}: {wrong} differ from mj_step's"


def test_rollout_row_k_is_state_k():
    """``rollout``'s row ``k`` holds state ``k`` and what ``forward`` reads there, sensors
    included, as MuJoCo's ``rollout`` module (its first row is the initial state)."""
    model = rbd.load_model("""<mujoco><option integrator="RK4"/><worldbody><body>
        <joint name="j" axis="0 1 0"/><geom size=".1" pos="0 0 -1"/><site name="s"/></body></worldbody>
        <sensor><jointpos joint="j"/><jointvel joint="j"/></sensor></mujoco>""")
    data = rbd.Data(model)
    data.qpos[:] = 0.5
    traj = rbd.rollout(model, data, 5)
    np.testing.assert_allclose(traj.sensordata[:, 0], traj.qpos[:, 0], atol=1e-15)
    np.testing.assert_allclose(traj.sensordata[:, 1], traj.qvel[:, 0], atol=1e-15)
    assert len(np.unique(traj.sensordata[:, 0])) == len(traj.sensordata)     # no repeated last row


def test_step_after_forward_is_step():
    """``step_after_forward`` (a forward at this state ran last, then only the controls
    changed) leaves every field as ``step`` does, bit for bit: on the lab's mouse with
    contacts (what MouseEnv runs), and on a state that its checks reset."""
    model = rbd.load_model(str(scene_path("flat")))
    a, b = rbd.Data(model), rbd.Data(model)
    for data in (a, b):
        rbd.reset(model, data, "stand")
    for k in range(6):
        for data in (a, b):
            rbd.forward(model, data)
            data.ctrl[:] = np.sin(np.arange(model.nu) + k)
        rbd.step(model, a)
        step_after_forward(model, b)
        for name, x in vars(a).items():
            if isinstance(x, np.ndarray):
                np.testing.assert_array_equal(getattr(b, name), x, err_msg=name)
    assert a.time == b.time and a.time > 0
    for data in (a, b):
        data.qvel[0] = 1e11                      # beyond MAXVAL: reset, then a step from qpos0
    with pytest.warns(rbd.simulation.step.DivergenceWarning):
        rbd.step(model, a)
    with pytest.warns(rbd.simulation.step.DivergenceWarning):
        step_after_forward(model, b)
    np.testing.assert_array_equal(a.qpos, b.qpos)
    assert a.warning["qvel"].number == b.warning["qvel"].number == 1
