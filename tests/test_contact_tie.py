"""A contact at exactly zero distance, as MuJoCo 4.0 decides it.

Every primitive collider keeps a contact when the distance is at most the margin (MuJoCo
compares ``dist > margin`` to drop one), so two geoms that just touch are in contact and
one rounding step apart they are not. The decision is only as good as the poses: the body
orientations must round as MuJoCo's (``xmat`` from the composed quaternion, that quaternion
normalized only when it is not of unit length to 1e-15), else gymnasium's point mass (a
sphere resting on the floor, turning about the vertical) is in contact in one engine and
not in the other."""
from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest
from test_mjcf import GYM

import rbdl_edu as rbd

# geom 1 (in the world, its top at z = 0) and geom 2 (on a free body, its bottom z0 below its
# center): geom 2 just touches geom 1 with the body at height z0 (the primitive colliders;
# box-box and capsule-box are the convex multi-contact work's)
PAIRS = {
    "plane-sphere": ('type="plane" size="2 2 .1"', 'type="sphere" size=".5"', 0.5),
    "plane-capsule": ('type="plane" size="2 2 .1"', 'type="capsule" size=".25" fromto="-.5 0 0 .5 0 0"', 0.25),
    "plane-cylinder": ('type="plane" size="2 2 .1"', 'type="cylinder" size=".25 .5"', 0.5),
    "plane-box": ('type="plane" size="2 2 .1"', 'type="box" size=".25 .5 .75"', 0.75),
    "sphere-sphere": ('type="sphere" size=".5" pos="0 0 -.5"', 'type="sphere" size=".25"', 0.25),
    "sphere-capsule": ('type="sphere" size=".5" pos="0 0 -.5"', 'type="capsule" size=".25" fromto="-.5 0 0 .5 0 0"', 0.25),
    "capsule-capsule": ('type="capsule" size=".5" fromto="0 -1 -.5 0 1 -.5"',
                        'type="capsule" size=".25" fromto="-.5 0 0 .5 0 0"', 0.25),
    "sphere-box": ('type="box" size="1 1 .5" pos="0 0 -.5"', 'type="sphere" size=".25"', 0.25),
    "sphere-cylinder": ('type="cylinder" size="1 .5" pos="0 0 -.5"', 'type="sphere" size=".25"', 0.25),
}


def _ncon(xml, z):
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    d, data = mujoco.MjData(m), rbd.Data(model)
    d.qpos[2] = data.qpos[2] = z
    mujoco.mj_forward(m, d)
    rbd.forward(model, data)
    return d, data


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_touching_geoms_tie_as_in_mujoco(pair):
    """Geom 2 a few rounding steps above and below touching: the same contacts (or none)
    at the same distance, bit for bit, as MuJoCo's; at exact touch there is a contact."""
    g1, g2, z0 = PAIRS[pair]
    xml = (f'<mujoco><worldbody><geom {g1}/><body><freejoint/><geom {g2}/></body></worldbody></mujoco>')
    below, above = [z0], [z0]
    for _ in range(4):
        below.append(math.nextafter(below[-1], -1.0))
        above.append(math.nextafter(above[-1], 2.0))
    seen = set()
    for z in below[::-1] + above[1:]:
        d, data = _ncon(xml, z)
        assert data.ncon == d.ncon, (pair, z, data.ncon, d.ncon)
        for ours, theirs in zip(data.contact, d.contact):
            assert ours.dist == theirs.dist, (pair, z, ours.dist, theirs.dist)
        seen.add(d.ncon > 0)
        if z == z0:
            assert d.ncon > 0, "touching geoms: a contact"
    assert seen == {True, False}, "no height without a contact: the tie was not tested"


def test_point_mass_resting_on_the_floor():
    """gymnasium's ``point.xml``: at random positions and headings the sphere touches the
    floor (distance 0, a contact) or is one rounding step above it (none), in both engines
    alike."""
    path = next((p for p in GYM if p.name == "point.xml"), None)
    assert path is not None, "gymnasium's point.xml is missing"
    m, model = mujoco.MjModel.from_xml_path(str(path)), rbd.load_model(path)
    d, data = mujoco.MjData(m), rbd.Data(model)
    rng = np.random.default_rng(0)
    counts = np.zeros(2, dtype=int)
    for _ in range(300):
        d.qpos[:] = data.qpos[:] = rng.uniform(-3, 3, m.nq)
        mujoco.mj_forward(m, d)
        rbd.forward(model, data)
        assert data.ncon == d.ncon, d.qpos
        np.testing.assert_array_equal(data.geom_xpos, d.geom_xpos)
        counts[d.ncon] += 1
    assert counts.min() > 0, counts                  # both cases were met
