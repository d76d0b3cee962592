"""The geom-pair sensors (``distance``, ``normal``, ``fromto``) between every pair of convex
shapes (sphere, capsule, ellipsoid, cylinder, box, mesh), a plane and convex shapes, a
height field, and bodies of several geoms, against ``mujoco==4.0.0`` (MuJoCo's
``mj_geomDistance``: its GJK/EPA for convex pairs and box-box, its colliders with the cutoff
as margin for the others).

How close: boxes and meshes are polytopes, on which GJK and EPA end exactly in both engines:
they agree to the single-precision mesh vertices MuJoCo keeps (1e-7). On a curved surface
(sphere, capsule, ellipsoid, cylinder) MuJoCo's GJK stops within its ``ccd_tolerance``
(1e-6 on the duality gap), where rbdl_edu's distance is exact (its GJK/EPA polished on
smooth surfaces): separated pairs agree to 1e-4 in the witness points; overlapping ones
take MuJoCo's EPA on a curved surface, which stops earlier still: 1e-2. (The sphere and
capsule pairs with a closed-form collider agree to round-off.)"""
from __future__ import annotations

import itertools

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.io import ModelError
from rbdl_edu.kinematics import kinematics
from rbdl_edu.simulation.geometric_sensors import geom_distance

SHAPES = {"sphere": 'type="sphere" size=".1"', "capsule": 'type="capsule" size=".06 .12"',
          "ellipsoid": 'type="ellipsoid" size=".08 .12 .15"', "cylinder": 'type="cylinder" size=".09 .1"',
          "box": 'type="box" size=".1 .07 .12"', "mesh": 'type="mesh" mesh="tet"'}
EXACT = {"box", "mesh"}

PAIR = """<mujoco><asset><mesh name="tet" vertex="0 0 0 .3 0 0 0 .25 0 0 0 .28 .15 .15 .15"/></asset><worldbody>
  <body name="a"><freejoint/><geom name="g1" {0}/></body>
  <body name="b" pos=".3 0 0"><freejoint/><geom name="g2" {1}/></body></worldbody>
  <sensor><distance geom1="g1" geom2="g2" cutoff="1"/><fromto geom1="g1" geom2="g2" cutoff="1"/>
    <normal geom1="g1" geom2="g2" cutoff="1"/></sensor></mujoco>"""


def _compare(xml, states, tol):
    """Assert the sensors agree at ``states`` (qpos rows); MuJoCo's first sensor at each."""
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    d, data = mujoco.MjData(m), rbd.Data(model)
    first = []
    for q in states:
        d.qpos[:], data.qpos[:] = q, q
        mujoco.mj_forward(m, d)
        rbd.forward(model, data)
        np.testing.assert_allclose(data.sensordata, d.sensordata, rtol=0, atol=tol, err_msg=str(q))
        first.append(d.sensordata[0])
    return np.array(first)


def _at_distance(model, q, target):
    """``q`` with the second body moved along x until the pair's distance is ``target``
    (bisection on rbdl_edu's distance)."""
    lo, hi = 0.0, 0.6
    data = rbd.Data(model)
    for _ in range(9):
        q[7] = (lo + hi) / 2
        data.qpos[:] = q
        kinematics(model, data)
        lo, hi = (q[7], hi) if geom_distance(model, data, 0, 1, 1.0)[0] < target else (lo, q[7])
    return q.copy()


PAIRS = list(itertools.combinations_with_replacement(SHAPES, 2))
#: the distances the poses are set to: apart, and overlapping by a little
APART, OVERLAP = (0.03,), (-0.008,)


@pytest.mark.parametrize("s1, s2", PAIRS)
def test_convex_pairs_match_mujoco(s1, s2):
    """A random orientation at a distance apart and at an overlap, each pair in both orders
    (the second order is the first with the bodies swapped)."""
    rng = np.random.default_rng(PAIRS.index((s1, s2)))
    xml, swapped = PAIR.format(SHAPES[s1], SHAPES[s2]), PAIR.format(SHAPES[s2], SHAPES[s1])
    model = rbd.load_model(xml)
    q = np.zeros(14)
    q[:3], q[8] = rng.normal(0, 0.03, 3), 0.02
    q[3:7], q[10:] = (v / np.linalg.norm(v) for v in rng.normal(size=(2, 4)))
    exact = {s1, s2} <= EXACT
    for targets, sign, tol in ((APART, 1, 1e-7 if exact else 1e-4), (OVERLAP, -1, 1e-7 if exact else 1e-2)):
        poses = [_at_distance(model, q, t) for t in targets]
        assert np.all(sign * _compare(xml, poses, tol) > 0)
        assert np.all(sign * _compare(swapped, [np.r_[p[7:], p[:7]] for p in poses], tol) > 0)


SCENE = """<mujoco><asset><mesh name="tet" vertex="0 0 0 .3 0 0 0 .25 0 0 0 .28 .15 .15 .15"/>
    </asset>
  <worldbody><geom name="floor" type="plane" size="2 2 .1"/><geom name="floor2" type="plane" size="2 2 .1" pos="0 0 2"/>
    <body name="robot" pos="0 0 .5"><freejoint/><geom name="egg" type="ellipsoid" size=".08 .12 .15"/>
      <geom name="tet" type="mesh" mesh="tet" pos=".2 0 0"/><geom type="cylinder" size=".05 .1" pos="-.2 0 0"/></body>
    <body name="crate" pos=".6 .1 .4"><freejoint/><geom name="crate" type="box" size=".1 .07 .12"/>
      <geom type="capsule" size=".04 .1" pos="0 .2 0"/></body></worldbody>
  <sensor><distance body1="robot" body2="crate" cutoff="2"/><fromto body1="crate" body2="robot" cutoff="2"/>
    <normal geom1="floor" body2="robot" cutoff="2"/><fromto geom1="egg" geom2="floor" cutoff="2"/>
    <distance geom1="tet" geom2="floor" cutoff="2"/><distance geom1="floor" geom2="floor2" cutoff="2"/>
    <distance geom1="egg" geom2="crate" cutoff=".05"/></sensor></mujoco>"""


def test_bodies_and_planes_match_mujoco():
    """Bodies of several geoms (the nearest pair wins), planes against a mesh and an
    ellipsoid, two planes (no collider: the cutoff), and a cutoff smaller than the distance."""
    rng = np.random.default_rng(3)
    m = mujoco.MjModel.from_xml_string(SCENE)
    states = []
    for _ in range(4):
        q = m.qpos0.copy()
        q[:3] += rng.normal(0, 0.1, 3)
        q[7:10] += rng.normal(0, 0.1, 3)
        q[3:7], q[10:14] = (v / np.linalg.norm(v) for v in rng.normal(size=(2, 4)))
        states.append(q)
    _compare(SCENE, states, 1e-5)


def test_height_field_is_refused_as_mujoco():
    xml = """<mujoco><asset><hfield name="h" nrow="2" ncol="2" elevation="0 1 1 0" size="1 1 .1 .1"/></asset>
      <worldbody><geom name="h" type="hfield" hfield="h"/><body name="b" pos="0 0 1"><freejoint/><geom size=".1"/></body>
      </worldbody><sensor><distance geom1="h" body2="b"/></sensor></mujoco>"""
    with pytest.raises(ValueError, match="height fields are not supported"):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match="height fields are not supported in geom distance sensors"):
        rbd.load_model(xml)
