"""The URDF reader against Pinocchio (``pin``): ``crba``, ``rnea`` and ``aba`` must agree to
1e-10 relative with joints matched by name, on ``models/arm2.urdf`` and on every robot
URDF the ``example-robot-data`` wheel ships.

Robots of example-robot-data 6.0.0 that are refused, on purpose, with a ``ModelError``
(Pinocchio loads them; the data is not physical):

* ``tiago.urdf``, ``tiago_dual.urdf``, ``tiago_no_hand.urdf``, ``romeo_laas_small.urdf``:
  an inertia tensor that is not positive semi-definite;
* ``romeo.urdf``: finger links that move on joints but carry no mass anywhere below them
  (a singular mass matrix; Pinocchio's ABA returns NaN);
* ``ur_description/urdf/ur3.urdf``: an empty ``<robot>`` (a xacro leftover).

The oracles are hard requirements: without ``pinocchio`` or ``example-robot-data`` these
tests fail, they do not skip.
"""
from __future__ import annotations

import importlib.metadata
from pathlib import Path

import mujoco
import numpy as np
import pinocchio as pin
import pytest
from mujoco_oracle import compare_dynamics
from pinocchio_oracle import compare_floating_with_pinocchio, compare_with_pinocchio

import rbdl_edu as rbd
from rbdl_edu import load_urdf
from rbdl_edu.io.urdf import read_urdf
from rbdl_edu.io import ModelError, to_mjcf

ROOT = Path(__file__).resolve().parents[1]


def robot_urdfs():
    """The URDF files of the installed example-robot-data wheel (empty if it is missing)."""
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        return []
    robots = Path(dist.locate_file("cmeel.prefix/share/example-robot-data/robots"))
    return sorted(robots.glob("*/*/*.urdf"))


ROBOTS = robot_urdfs()
REFUSED = {"tiago.urdf": "positive semi-definite", "tiago_dual.urdf": "positive semi-definite",
           "tiago_no_hand.urdf": "positive semi-definite",
           "romeo_laas_small.urdf": "positive semi-definite",
           "romeo.urdf": "mass matrix would be singular", "ur3.urdf": "at least one <link>"}


def test_oracle_present():
    assert len(ROBOTS) >= 50, "example-robot-data is not installed: pip install -e '.[test]'"


def test_arm2_matches_pinocchio():
    path = ROOT / "models" / "arm2.urdf"
    model = load_urdf(path)
    assert model.jnt_names == ("shoulder", "elbow") and model.nbody == 5
    assert model.jnt_limited.tolist() == [True, False]
    np.testing.assert_allclose(model.dof_damping, [0.2, 0.1])
    compare_with_pinocchio(model, pin.buildModelFromUrdf(str(path)))


@pytest.mark.parametrize("path", ROBOTS, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_robot_matches_pinocchio(path):
    if path.name in REFUSED:
        with pytest.raises(ModelError, match=REFUSED[path.name]):
            load_urdf(path)
        return
    # rnea, crba and aba need no constants at qpos0, so the robot is read without them: iCub's
    # neck is at a kinematic singularity at qpos0 (three aligned axes), which set_const refuses
    model = read_urdf(path)
    compare_with_pinocchio(model, pin.buildModelFromUrdf(str(path)), trials=2)


@pytest.mark.parametrize("name", ["solo12.urdf", "a1.urdf", "talos_reduced.urdf"])
def test_floating_base_matches_pinocchio(name):
    """``floating_base=True`` against Pinocchio's ``JointModelFreeFlyer`` (velocity
    conventions converted, see ``pinocchio_oracle.py``)."""
    path = next(p for p in ROBOTS if p.name == name)
    model = load_urdf(path, floating_base=True)
    compare_floating_with_pinocchio(model, pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer()))


def test_floating_base_matches_mujoco():
    """A legged robot with ``floating_base=True``: exported to MJCF, MuJoCo gives the same
    dynamics (free-joint conventions: world position, body-frame angular velocity)."""
    path = next(p for p in ROBOTS if p.name == "solo12.urdf")
    model = load_urdf(path, floating_base=True)
    assert model.nq == 19 and model.nv == 18 and model.jnt_type[0] == rbd.model.enums.FREE
    m = mujoco.MjModel.from_xml_string(to_mjcf(model))
    compare_dynamics(model, m)


def test_load_model_picks_urdf(tmp_path):
    model = rbd.load_model(ROOT / "models" / "arm2.urdf")
    assert model.nv == 2
    # a URDF saved as .xml is recognised by its <robot> root
    (tmp_path / "arm2.xml").write_text((ROOT / "models" / "arm2.urdf").read_text())
    assert rbd.load_model(tmp_path / "arm2.xml").jnt_names == ("shoulder", "elbow")


BAD = {
    "planar": ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="planar">'
               '<parent link="a"/><child link="b"/></joint></robot>', "joint", "type"),
    "unknown link": ('<robot name="r"><link name="a"/><joint name="j" type="fixed"><parent link="a"/>'
                     '<child link="zz"/></joint></robot>', "child", "link"),
    "two roots": ('<robot name="r"><link name="a"/><link name="b"/></robot>', "robot", None),
    "negative mass": ('<robot name="r"><link name="a"><inertial><mass value="-1"/><inertia ixx="1" '
                      'iyy="1" izz="1"/></inertial></link></robot>', "mass", "value"),
    "bad number": ('<robot name="r"><link name="a"><inertial><mass value="one"/></inertial></link></robot>',
                   "mass", "value"),
    "not PSD": ('<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" '
                'izz="1" ixy="3"/></inertial></link></robot>', "inertia", "ixx"),
    "missing limit": ('<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/>'
                      '<inertia ixx="1" iyy="1" izz="1"/></inertial></link><joint name="j" type="revolute">'
                      '<parent link="a"/><child link="b"/></joint></robot>', "joint", None),
    "cycle": ('<robot name="r"><link name="a"/><link name="b"/><joint name="j1" type="fixed"><parent link="a"/>'
              '<child link="b"/></joint><joint name="j2" type="fixed"><parent link="b"/><child link="a"/>'
              '</joint></robot>', "robot", None),
    "not a robot": ('<mujoco/>', "mujoco", None),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_errors(case):
    xml, element, attribute = BAD[case]
    with pytest.raises(ModelError) as info:
        load_urdf(xml)
    assert (info.value.element, info.value.attribute) == (element, attribute), str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(ModelError, match="cannot read"):
        load_urdf(tmp_path / "nope.urdf")


def test_world_root_and_floating_joint():
    """A root link named ``world`` is the world; a ``floating`` joint from it is a free joint."""
    xml = ('<robot name="r"><link name="world"/><link name="box"><inertial><mass value="2"/>'
           '<inertia ixx="0.1" iyy="0.2" izz="0.3"/></inertial></link>'
           '<joint name="free" type="floating"><parent link="world"/><child link="box"/>'
           '<origin xyz="0 0 1" rpy="0.1 0.2 0.3"/></joint></robot>')
    model = load_urdf(xml)
    assert model.body_names == ("world", "box") and model.nq == 7 and model.jnt_names == ("free",)
    np.testing.assert_allclose(model.qpos0[:3], [0, 0, 1])
    m = mujoco.MjModel.from_xml_string(to_mjcf(model))
    compare_dynamics(model, m)


def test_rpy_is_fixed_axis_roll_pitch_yaw():
    """URDF's rpy: R = Rz(yaw) Ry(pitch) Rx(roll), checked against Pinocchio's rpyToMatrix."""
    from rbdl_edu.io.urdf_elements import rpy_to_quat
    from rbdl_edu.rotation import quat_to_mat
    rpy = np.array([0.3, -0.7, 1.9])
    np.testing.assert_allclose(quat_to_mat(rpy_to_quat(rpy)), pin.rpy.rpyToMatrix(rpy), atol=1e-14)
