"""Actuator length ranges found by simulation (MuJoCo's ``mj_setLengthRange``, run by the
loader: :mod:`rbdl_edu.simulation.lengthrange`) against ``mujoco==4.0.0``.

An arm like MuJoCo's ``arm26`` (two hinges, six muscles on spatial tendons wrapping the
shoulder and elbow cylinders, with and without side sites), plus a muscle on a joint, one on
a fixed tendon, one with its range given and a motor: every simulated range equal to
MuJoCo's within its own tolerance (``tolrange`` of the range; in fact to round-off), then
``forward`` and ``step`` equal at random states. The ``<compiler><lengthrange>`` options
(``mode``, ``useexisting``, ``uselimit``, ``accel``, ``maxforce``, ``timeconst``,
``timestep``, ``inttotal``, ``interval``) and the integrators the simulation steps with, on
a small model; a range that does not settle, or is empty, refused as MuJoCo refuses it.
The simulations are short (``timestep``/``inttotal`` in the files: ~100 steps a side)."""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest
from feature_oracle import differing

import rbdl_edu as rbd
from rbdl_edu.io import ModelError

# (MuJoCo's default simulation, 1000 steps a side, gives the same ranges as MuJoCo's to
# 1e-13 too; here shortened, the same options for both)
FAST = 'timestep="0.02" inttotal="2" interval="0.5" accel="50" timeconst="0.2"'
ARM = f"""<mujoco model="arm26-like"><compiler angle="degree"><lengthrange {FAST}/></compiler>
  <option timestep="0.005"/>
  <default><joint axis="0 0 1" limited="true" damping="0.2"/><muscle ctrllimited="true" ctrlrange="0 1"/></default>
  <worldbody>
    <site name="a0" pos="-0.12 0 0"/><site name="side0" pos="0 -0.12 0"/>
    <body name="upper">
      <joint name="shoulder" range="-10 100"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04"/>
      <geom name="shoulder" type="cylinder" size=".08 .04" mass="0"/>
      <site name="f1" pos="0.12 0.05 0"/><site name="e1" pos="0.12 -0.05 0"/>
      <site name="f2" pos="0.32 0.05 0"/><site name="e2" pos="0.32 -0.05 0"/>
      <site name="bf" pos="0.2 0.09 0"/><site name="be" pos="0.2 -0.09 0"/><site name="side1" pos="0.4 -0.12 0"/>
      <body name="fore" pos="0.4 0 0">
        <joint name="elbow" range="0 110"/>
        <geom type="capsule" fromto="0 0 0 0.35 0 0" size="0.03"/>
        <geom name="elbow" type="cylinder" size=".06 .04" mass="0"/>
        <site name="f3" pos="0.1 0.04 0"/><site name="e3" pos="0.1 -0.04 0"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <spatial name="SF"><site site="a0"/><geom geom="shoulder"/><site site="f1"/></spatial>
    <spatial name="SE"><site site="a0"/><geom geom="shoulder" sidesite="side0"/><site site="e1"/></spatial>
    <spatial name="EF"><site site="f2"/><geom geom="elbow"/><site site="f3"/></spatial>
    <spatial name="EE"><site site="e2"/><geom geom="elbow" sidesite="side1"/><site site="e3"/></spatial>
    <spatial name="BF"><site site="a0"/><geom geom="shoulder"/><site site="bf"/>
      <geom geom="elbow"/><site site="f3"/></spatial>
    <spatial name="BE"><site site="a0"/><geom geom="shoulder" sidesite="side0"/><site site="be"/>
      <geom geom="elbow" sidesite="side1"/><site site="e3"/></spatial>
    <fixed name="fx"><joint joint="elbow" coef="0.05"/><joint joint="shoulder" coef="-0.03"/></fixed>
  </tendon>
  <actuator>
    <muscle name="SF" tendon="SF"/><muscle name="SE" tendon="SE"/><muscle name="EF" tendon="EF"/>
    <muscle name="EE" tendon="EE"/><muscle name="BF" tendon="BF"/><muscle name="BE" tendon="BE"/>
    <muscle name="direct" joint="elbow" gear="0.1"/><muscle name="fx" tendon="fx"/>
    <muscle name="given" tendon="SE" lengthrange="0.3 0.5"/><motor name="motor" joint="shoulder"/>
  </actuator>
</mujoco>"""


@pytest.fixture(scope="module")
def arm():
    return mujoco.MjModel.from_xml_string(ARM), rbd.load_model(ARM)


def test_arm_length_ranges_match_mujoco(arm):
    m, model = arm
    width = m.actuator_lengthrange[:, 1] - m.actuator_lengthrange[:, 0]
    muscles = slice(0, 8)                             # simulated (the given one and the motor are kept)
    assert np.all(width[muscles] > 0.1 * np.abs(m.actuator_lengthrange[muscles]).max(axis=1))
    # within MuJoCo's own tolerance (tolrange, 5 % of each range) ...
    assert np.all(np.abs(model.actuator_lengthrange - m.actuator_lengthrange) <= 0.05 * width[:, None])
    # ... which is wide: the two simulations agree to round-off
    np.testing.assert_allclose(model.actuator_lengthrange, m.actuator_lengthrange, rtol=0, atol=1e-9)
    assert tuple(model.actuator_lengthrange[8]) == (0.3, 0.5) and tuple(model.actuator_lengthrange[9]) == (0, 0)


@pytest.mark.parametrize("integrator", ["Euler", "implicitfast"])
def test_arm_forward_and_step_match_mujoco_with_the_ranges(arm, integrator):
    """The muscles' forces depend on the range (their optimal length L0): forward and step
    at random states, activations and controls."""
    m, model = arm
    m.opt.integrator = {"Euler": mujoco.mjtIntegrator.mjINT_EULER,
                        "implicitfast": mujoco.mjtIntegrator.mjINT_IMPLICITFAST}[integrator]
    model = model.replace(opt=dataclasses.replace(model.opt, integrator=integrator))
    rng = np.random.default_rng(1)
    d, data = mujoco.MjData(m), rbd.Data(model)
    for _ in range(3):
        d.qpos[:] = rng.uniform(0, 1.5, m.nq)
        d.qvel[:] = rng.normal(size=m.nv)
        d.act[:] = rng.uniform(0, 1, m.na)
        d.ctrl[:] = rng.uniform(0, 1, m.nu)
        data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:] = d.qpos, d.qvel, d.act, d.ctrl
        mujoco.mj_forward(m, d)
        rbd.forward(model, data)
        assert not differing(model, data, m, d)
        assert np.all(np.abs(data.actuator_force[:8]) > 1e-3)      # the muscles pull
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        assert not differing(model, data, m, d)


SMALL = """<mujoco><compiler angle="degree">{compiler}</compiler>{option}<worldbody>
  <site name="a" pos="0 0 0.2"/>
  <body><joint name="j" axis="0 1 0" range="-60 45" damping="3"/><geom size=".1" pos=".2 0 0"/>
    <site name="b" pos="0.2 0 0"/>
    <body pos="0.3 0 0"><joint name="k" axis="0 1 0" range="-30 30"/><geom size=".05"/></body></body></worldbody>
  <tendon><spatial name="t" range="0.1 0.5"><site site="a"/><site site="b"/></spatial></tendon>
  <actuator><muscle joint="j"/><muscle tendon="t"/><muscle joint="k" lengthrange="0.5 -0.5"/>
    <motor joint="k"/>{extra}</actuator></mujoco>"""
SHORT = 'timestep="0.05" inttotal="3" interval="0.5"'


@pytest.mark.parametrize("lengthrange, option, extra", [
    (SHORT, "", ""),
    (SHORT + ' uselimit="true"', "", ""),                                 # copied, not simulated
    (SHORT + ' useexisting="false" accel="5" timeconst="0.5"', "", '<muscle tendon="t" lengthrange="0.2 0.3"/>'),
    (SHORT + ' maxforce="0.5"', '<option gravity="0 0 -30"/>', ""),      # (gravity is off)
    (SHORT + ' mode="all"', '<option integrator="RK4"><flag limit="disable"/></option>', ""),
    ('timestep="-1" inttotal="1" interval="0.3"', '<option integrator="implicitfast" timestep="0.01"/>', ""),
    (SHORT + ' mode="none"', "", '<muscle joint="j"/>'),
])
def test_compiler_options_match_mujoco(lengthrange, option, extra):
    """Each option changes the simulation (or skips it) as in MuJoCo: the limit flag the file
    disables is on again, RK4 steps as Euler, a timestep of -1 is the model's."""
    xml = SMALL.format(compiler=f"<lengthrange {lengthrange}/>", option=option, extra=extra)
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    np.testing.assert_allclose(model.actuator_lengthrange, m.actuator_lengthrange, rtol=0, atol=1e-9)


@pytest.mark.parametrize("extra, lengthrange, message", [
    ('<muscle name="loose" tendon="free"/>', "", "did not converge"),        # a hinge without limits
    ('<motor name="still" site="s"/>', 'mode="all"', "invalid lengthrange"),     # a site's length is 0
])
def test_ranges_that_do_not_settle_are_refused_as_mujoco(extra, lengthrange, message):
    xml = f"""<mujoco><compiler><lengthrange timestep="0.05" inttotal="1" interval="0.5" {lengthrange}/></compiler>
      <worldbody><body><joint name="j" range="-1 1"/><geom size=".1" pos=".2 0 0"/><site name="s"/>
      <body pos=".3 0 0"><joint name="free" axis="0 1 0"/><geom size=".1"/></body></body></worldbody>
      <tendon><fixed name="free"><joint joint="free" coef="1"/></fixed></tendon>
      <actuator><muscle joint="j"/>{extra}</actuator></mujoco>"""
    with pytest.raises(ValueError, match="(?i)" + message.split()[0]):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match=message) as error:
        rbd.load_model(xml)
    assert error.value.line == 5 and error.value.element in ("muscle", "motor")    # the actuator's element
    assert repr(extra.split('"')[1]) in str(error.value)                           # and its name
