"""Cameras that track or look at a body (``<camera mode="track|trackcom|targetbody|
targetbodycom">``) against ``mujoco==4.0.0``: the constants at ``qpos0`` (``cam_pos0``,
``cam_poscom0``, ``cam_mat0``, ``cam_targetbodyid``), ``cam_xpos``/``cam_xmat`` after
``forward`` and ``step`` with each integrator, and the sensors that look through such
cameras (``camprojection``, a rangefinder's pixels, ``insidesite``); and ``to_mjcf`` writes
them back."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from feature_oracle import FIELDS, INTEGRATORS, check

import rbdl_edu as rbd
from rbdl_edu.io import ModelError
from rbdl_edu.io.export import to_mjcf

SCENE = """<mujoco><option timestep="0.004"/>
  <worldbody><geom name="floor" type="plane" size="3 3 0.1"/>
    <site name="zone" type="box" size="1 1 .6" pos="0 0 .6"/>
    <camera name="watch" mode="targetbody" target="arm" pos="2 -1 1.5" resolution="3 2"/>
    <camera name="watch com" mode="targetbodycom" target="arm" pos="-1 -2 2"/>
    <body name="arm" pos="0 0 1"><joint name="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" fromto="0 0 0 .5 0 0" size=".04"/>
      <camera name="follow" mode="track" pos="0 -1.5 .2" xyaxes="1 0 0 0 .2 1" resolution="4 3"/>
      <camera name="follow com" mode="trackcom" pos=".3 -1 .5" euler="70 0 10"/>
      <camera name="follow other" mode="trackcom" target="ball" pos="0 -1 0" xyaxes="1 0 0 0 0 1"/>
      <body name="fore" pos=".5 0 0"><joint axis="0 1 0"/><geom type="capsule" fromto="0 0 0 .4 0 0" size=".03"/>
        <site name="tip" pos=".4 0 0"/></body></body>
    <body name="ball" pos=".8 .3 .3"><freejoint/><geom name="ball" size=".1"/>
      <camera name="ride" mode="targetbody" target="fore" pos="0 0 .3"/></body>
  </worldbody>
  <sensor><camprojection site="tip" camera="watch"/><camprojection site="tip" camera="follow"/>
    <camprojection site="tip" camera="ride"/><rangefinder camera="follow" data="dist"/>
    <rangefinder camera="watch" data="dist normal"/>
    <insidesite site="zone" objtype="camera" objname="follow com"/></sensor>
</mujoco>"""

CONSTANTS = ("cam_mode", "cam_targetbodyid", "cam_pos0", "cam_poscom0", "cam_mat0", "cam_pos", "cam_quat")


def test_constants_at_qpos0_match_mujoco():
    m, model = mujoco.MjModel.from_xml_string(SCENE), rbd.load_model(SCENE)
    for name in CONSTANTS:
        ours = np.asarray(getattr(model, name), float)
        np.testing.assert_allclose(ours, np.asarray(getattr(m, name), float).reshape(ours.shape), rtol=0, atol=1e-12,
                                   err_msg=name)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_camera_poses_and_sensors_match_mujoco(integrator):
    """The arm swings, the ball falls and rolls: the cameras follow and turn."""
    check(SCENE, integrator, nstate=3, nskip=30, qvel=2.0, fields=FIELDS + ("cam_xpos", "cam_xmat"))


def test_tracking_cameras_write_back():
    """``to_mjcf`` writes each camera's mode and target: MuJoCo and our loader read them back."""
    model = rbd.load_model(SCENE)
    text = to_mjcf(model)
    m0, m1, again = mujoco.MjModel.from_xml_string(SCENE), mujoco.MjModel.from_xml_string(text), rbd.load_model(text)
    for name in CONSTANTS:
        np.testing.assert_allclose(getattr(m1, name), getattr(m0, name), rtol=0, atol=1e-12, err_msg=name)
        np.testing.assert_allclose(getattr(again, name), getattr(model, name), rtol=0, atol=1e-12, err_msg=name)


def test_unknown_target_is_refused_by_name():
    with pytest.raises(ModelError, match="unknown target body 'nobody'"):
        rbd.load_model('<mujoco><worldbody><camera mode="targetbody" target="nobody"/></worldbody></mujoco>')
