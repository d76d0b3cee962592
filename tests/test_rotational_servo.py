"""A servo whose length is an angle takes the short way round, as MuJoCo 4.0's does.

A position servo on a site with a reference site and a purely rotational gear, or on a ball
joint, has a length that is an angle: setpoints :math:`2\\pi|g|` apart are one orientation,
and MuJoCo 4.0 drives to the one nearest the present length (the force and, for a servo
with a state, the activation after each step). Without this the force of such an actuator
on a free body was off by a factor 2.8 from MuJoCo's. Compared with every field ``forward``
computes and ``step`` with each integrator, on free and hinged bodies."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from test_step_fields import FIELDS, _same

import rbdl_edu as rbd

SCENE = """<mujoco><option integrator="{integrator}"><flag gravity="disable"/></option><worldbody>
  <site name="world_frame" pos=".1 .2 .3" euler="10 20 30"/>
  <body name="base" pos="0 0 .6">{root}<geom type="box" size=".06 .1 .15"/><site name="base_frame"/>
    <body pos=".17 -.09 0" euler="0 90 0"><joint axis="0 0 1" damping=".02"/><geom type="box" size=".03 .04 .05"/>
      <body pos=".2 0 .07"><joint axis="0 1 0" damping=".02"/><geom type="capsule" size=".02" fromto="0 0 0 .2 0 0"/>
        <site name="foot" pos=".21 -.07 0" euler="40 40 40"/></body>
      <body pos="0 .1 0"><joint name="ball" type="ball" damping=".02"/><geom size=".04" pos=".1 0 0"/></body>
    </body></body></worldbody>
  <actuator>
    <general site="foot" refsite="base_frame" gear="1 0 0 0 0 0" biastype="affine" gainprm="51" biasprm="0 -51 -1"/>
    <general site="foot" refsite="base_frame" gear="0 0 0 0 .1 0" biastype="affine" gainprm="51" biasprm="0 -51 -1"/>
    <position site="foot" refsite="world_frame" gear="0 0 0 .2 .1 .3" kp="20" kv="1"/>
    <general site="foot" refsite="base_frame" gear="0 0 0 .1 0 0" dyntype="integrator" biastype="affine"
      gainprm="30" biasprm="0 -30 -.5"/>
    <general site="foot" refsite="base_frame" gear="0 0 0 0 0 .1" dyntype="filter" dynprm=".05"
      biastype="affine" gainprm="30" biasprm="0 -30 -.5"/>
    <general site="foot" refsite="base_frame" gear="0 0 0 0 .1 0" biastype="affine" gainprm="30" biasprm="0 -20 0"/>
    <position joint="ball" gear="0 .3 .1" kp="5" kv=".2"/>
  </actuator></mujoco>"""
ROOTS = {"free": "<freejoint/>", "hinged": '<joint type="hinge" axis="1 0 0"/><joint type="slide" axis="0 0 1"/>'}


@pytest.mark.parametrize("root", sorted(ROOTS))
@pytest.mark.parametrize("integrator", ["Euler", "RK4", "implicitfast"])
def test_rotational_servos_match_mujoco(root, integrator):
    xml = SCENE.format(integrator=integrator, root=ROOTS[root])
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    d, data = mujoco.MjData(m), rbd.Data(model)
    rng = np.random.default_rng(4)
    d.qpos[:] = m.qpos0 + rng.normal(size=m.nq) * 0.5
    mujoco.mj_normalizeQuat(m, d.qpos)
    d.qvel[:] = rng.normal(size=m.nv)
    d.act[:] = rng.uniform(-9, 9, m.na)                  # activations many turns away
    wrapped = 0
    for k in range(12):
        d.ctrl[:] = rng.uniform(-9, 9, m.nu)             # setpoints many turns away
        data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:], data.time = d.qpos, d.qvel, d.act, d.ctrl, d.time
        data.qacc_warmstart[:] = d.qacc_warmstart
        mujoco.mj_forward(m, d)
        rbd.forward(model, data)
        wrong = [f for f in ("actuator_length", "actuator_velocity", "actuator_force", "qfrc_actuator", "act_dot",
                             "qacc") if not _same(f, getattr(data, f), getattr(d, f))]
        assert not wrong, f"step {k}: {wrong} differ from mj_forward's"
        # actuator 1 without the wrap: 51 (u - l) - l'
        unwrapped = 51 * (d.ctrl[1] - d.actuator_length[1]) - d.actuator_velocity[1]
        wrapped += abs(d.actuator_force[1] - unwrapped) > 1
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        wrong = [f for f in FIELDS + ("qpos", "qvel", "act") if not _same(f, getattr(data, f), getattr(d, f))]
        assert not wrong, f"step {k}: {wrong} differ from mj_step's"
    assert wrapped >= 6, "the setpoints were not many turns away: the test would not test the wrap"
    assert np.abs(d.act).max() < 2, "the activations were not brought near the lengths"


def test_only_a_servo_on_an_angle_wraps():
    """A translation, an affine actuator that is not a servo (kp != -bias[1]): no wrap."""
    model = rbd.load_model(SCENE.format(integrator="Euler", root=ROOTS["free"]))
    periods = [rbd.smooth.transmission.wrap_period(model, i) for i in range(model.nu)]
    np.testing.assert_allclose(periods, [0, 0.2 * np.pi, 2 * np.pi * np.sqrt(0.14), 0.2 * np.pi, 0.2 * np.pi, 0,
                                         2 * np.pi * np.sqrt(0.1)])
