"""Collision on the book's models (``models/*.xml``) and on an MJCF scene that uses
``<contact><pair>/<exclude>``, a mesh and option flags, loaded by our MJCF compiler and by
MuJoCo 4.0.0 from the same file: same contacts at random configurations."""
from __future__ import annotations

import glob
import os

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.model.enums import FREE, HINGE, SLIDE

from test_collision_mujoco import CLOSED_FORM

ROOT = os.path.join(os.path.dirname(__file__), "..")
MODELS = sorted(glob.glob(os.path.join(ROOT, "models", "*.xml")))


def random_qpos(model, rng):
    q = np.array(model.qpos0, dtype=float)
    for j in range(model.njnt):
        a, t = model.jnt_qposadr[j], model.jnt_type[j]
        if t == HINGE:
            q[a] = rng.uniform(-np.pi, np.pi)
        elif t == SLIDE:
            q[a] = rng.uniform(-0.5, 0.5)
        else:
            k = a + (3 if t == FREE else 0)
            if t == FREE:
                q[a:a + 3] += rng.uniform(-0.3, 0.3, 3)
            quat = rng.normal(size=4)
            q[k:k + 4] = quat / np.linalg.norm(quat)
    return q


def compare_at(model, m, qpos):
    d = mujoco.MjData(m)
    d.qpos[:] = qpos
    mujoco.mj_kinematics(m, d)
    mujoco.mj_collision(m, d)
    data = rbd.Data(model)
    data.qpos[:] = qpos
    ours = rbd.collision.detect(model, data)
    theirs = list(d.contact[:d.ncon])
    assert {(c.geom1, c.geom2) for c in ours} == {(int(c.geom[0]), int(c.geom[1])) for c in theirs}
    for g1, g2 in {(c.geom1, c.geom2) for c in ours}:
        a = [c for c in ours if (c.geom1, c.geom2) == (g1, g2)]
        b = [c for c in theirs if (c.geom[0], c.geom[1]) == (g1, g2)]
        types = (int(model.geom_type[g1]), int(model.geom_type[g2]))
        if types in CLOSED_FORM:
            assert len(a) == len(b)
            for x, y in zip(a, b):
                assert abs(x.dist - y.dist) < 1e-9
                np.testing.assert_allclose(x.pos, y.pos, atol=1e-9)
                np.testing.assert_allclose(x.normal, y.frame[:3], atol=1e-9)
                assert x.dim == y.dim
                np.testing.assert_allclose(x.friction, y.friction, atol=1e-15)
        else:
            assert abs(min(c.dist for c in a) - min(c.dist for c in b)) < 1e-6, (types, a, b)
    return len(ours)


@pytest.mark.parametrize("path", MODELS, ids=[os.path.basename(p) for p in MODELS])
def test_book_models(path):
    model = rbd.load_model(path)
    m = mujoco.MjModel.from_xml_path(path)
    assert model.ngeom == m.ngeom
    rng = np.random.default_rng(0)
    compare_at(model, m, model.qpos0)
    for _ in range(15):
        compare_at(model, m, random_qpos(model, rng))


# The forearm capsule starts a little off the elbow: capsules whose segment ends coincide
# have no defined normal (MuJoCo then uses z1 x z2 or the x axis, decided by a 1e-15
# threshold that the two engines' roundoff straddles).
SCENE = """
<mujoco>
  <option ccd_tolerance="1e-11" ccd_iterations="2000">
    <flag filterparent="disable" multiccd="disable"/>
  </option>
  <asset>
    <mesh name="tet" vertex="0 0 0  0.3 0 0  0 0.3 0  0 0 0.3  0.2 0.2 0.2"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1" friction="0.7 0.01 0.001"/>
    <body name="arm" pos="0 0 0.3">
      <joint name="j1" type="hinge" axis="0 1 0"/>
      <geom name="upper" type="capsule" fromto="0 0 0 0.4 0 0" size="0.05" priority="1" condim="4"/>
      <body name="fore" pos="0.4 0 0">
        <joint name="j2" type="hinge" axis="0 1 0"/>
        <geom name="lower" type="capsule" fromto="0.03 0 0.02 0.4 0 0" size="0.04"/>
        <geom name="hand" type="box" pos="0.45 0 0" size="0.06 0.04 0.03" margin="0.01"/>
      </body>
    </body>
    <body name="rock" pos="0.3 0.3 0.2">
      <freejoint/>
      <geom name="rock" type="mesh" mesh="tet"/>
    </body>
    <body name="ball" pos="0.6 0 0.1">
      <freejoint/>
      <geom name="ball" type="sphere" size="0.08" contype="2" conaffinity="2"/>
    </body>
    <body name="egg" pos="-0.3 0 0.1">
      <freejoint/>
      <geom name="egg" type="ellipsoid" size="0.1 0.06 0.05"/>
    </body>
  </worldbody>
  <contact>
    <pair geom1="ball" geom2="hand" condim="6" friction="0.2 0.2 0.01 0.001 0.001"/>
    <pair geom1="floor" geom2="ball" margin="0.02"/>
    <exclude body1="arm" body2="egg"/>
  </contact>
</mujoco>
"""


def test_mjcf_scene_with_pairs_excludes_mesh_and_flags():
    model = rbd.load_model(SCENE)
    m = mujoco.MjModel.from_xml_string(SCENE)
    rng = np.random.default_rng(3)
    total = 0
    for k in range(40):
        q = random_qpos(model, rng) if k else np.array(model.qpos0, float)
        total += compare_at(model, m, q)
    assert total > 20
