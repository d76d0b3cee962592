"""MuJoCo's adhesion actuator (``<adhesion>``, and ``<general body=...>``) against
``mujoco==4.0.0``: the compiled actuator, and ``forward``/``step`` with each integrator
(every field) on a gripper pad that presses on a box and pulls, with pyramidal and
elliptic cones and condim 1, 3 and 4; the pad carries a suction cup whose ``gap`` keeps its
contact with the floor without rows (its normal Jacobian enters the moment directly), and
a ball under the cup is pulled by a ``<general body=...>``."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from feature_oracle import INTEGRATORS, check

import rbdl_edu as rbd
from rbdl_edu.io import ModelError

GRIPPER = """<mujoco model="adhesion"><option timestep="0.002" cone="{cone}"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 .1" condim="{condim}"/>
    <body name="box" pos="0 0 0.05"><freejoint/><geom type="box" size=".1 .1 .05" mass="0.5" condim="{condim}"/></body>
    <body name="pad" pos="0.02 0 0.13"><joint name="z" type="slide" axis="0 0 1" damping="2"/>
      <joint name="tilt" axis="1 0 0" damping="0.5"/>
      <geom name="pad" type="box" size=".06 .06 .03" mass="0.2" condim="{condim}"/>
      <geom name="cup" type="sphere" size=".03" pos="0.3 0 -0.02" gap="0.05" margin="0.05"/></body>
    <body name="ball" pos="0.32 0 0.03"><freejoint/><geom size=".03" mass="0.05"/></body>
  </worldbody>
  <actuator>
    <adhesion name="stick" body="pad" gain="20" ctrlrange="0 1"/>
    <general name="suck" body="ball" gainprm="3" ctrlrange="0 1" ctrllimited="true"/>
    <position joint="z" kp="60" ctrlrange="-0.1 0.1"/>
  </actuator>
  <sensor><actuatorfrc actuator="stick"/><actuatorfrc actuator="suck"/></sensor>
</mujoco>"""

CASES = {"pyramidal condim 3": ("pyramidal", 3), "elliptic condim 3": ("elliptic", 3),
         "pyramidal condim 1": ("pyramidal", 1), "pyramidal condim 4": ("pyramidal", 4)}


def _ctrl(rng, m):
    """Full adhesion and suction, the pad driven down then up and about."""
    return np.array([rng.uniform(0.5, 1.0), rng.uniform(0.5, 1.0), rng.uniform(-0.1, 0.1)])


# each cone and condim with Euler; each integrator on the default cone
RUNS = [("Euler", case) for case in CASES] + [(i, "pyramidal condim 3") for i in INTEGRATORS if i != "Euler"]


@pytest.mark.parametrize("integrator, case", RUNS)
def test_adhesion_matches_mujoco(integrator, case):
    check(GRIPPER.format(cone=CASES[case][0], condim=CASES[case][1]), integrator, nstate=3, nskip=30,
          qvel=0.1, ctrl=_ctrl)


def test_the_run_exercises_adhesion():
    """Not vacuous: the pad touches the box with active rows, the cup (on the pad) is within
    its gap of the floor (a contact without rows), the ball has contacts, and both actuators
    have a moment and pull."""
    m, d, model, data = check(GRIPPER.format(cone="pyramidal", condim=3), "Euler", nstate=1, nskip=60,
                              qvel=0.1, ctrl=_ctrl)
    pad, cup = model.body("pad").id, model.body("ball").id
    on_pad = [c for c in data.contact if pad in (model.geom_bodyid[c.geom1], model.geom_bodyid[c.geom2])]
    on_ball = [c for c in data.contact if cup in (model.geom_bodyid[c.geom1], model.geom_bodyid[c.geom2])]
    assert any(c.efc_address >= 0 for c in on_pad) and any(c.exclude for c in on_pad) and on_ball
    assert np.all(np.abs(data.actuator_moment[:2]).max(axis=1) > 0.1)
    assert np.all(np.abs(data.actuator_force[:2]) > 0.5)


def test_compiled_adhesion_matches_mujoco():
    xml = GRIPPER.format(cone="pyramidal", condim=3)
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    for name in ("actuator_trntype", "actuator_trnid", "actuator_gainprm", "actuator_ctrllimited",
                 "actuator_ctrlrange", "actuator_acc0", "actuator_dynprm"):
        np.testing.assert_allclose(getattr(model, name), getattr(m, name), err_msg=name)


@pytest.mark.parametrize("attributes, message", [
    ('body="b"', "needs ctrlrange"),
    ('body="b" ctrlrange="-1 1"', "cannot be negative"),
    ('body="b" ctrlrange="0 1" ctrllimited="true"', "unknown attribute 'ctrllimited'"),
])
def test_bad_adhesion_is_refused(attributes, message):
    xml = f"""<mujoco><worldbody><body name="b"><freejoint/><geom size=".1"/></body></worldbody>
      <actuator><adhesion {attributes}/></actuator></mujoco>"""
    with pytest.raises(ModelError, match=message):
        rbd.load_model(xml)
