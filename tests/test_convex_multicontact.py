"""Convex pairs where a face rests on a face get MuJoCo 4.0's several contacts (issue 24).

MuJoCo 4.0 (``multiccd`` on by default) gives a box or mesh pair the corners of the clipped
contact patch, a plane-mesh pair the face at the deepest vertex, and the other convex pairs
(cylinder, capsule against a box or mesh) the extra points found by tilting the pair a
little; a capsule lying on a box gets MuJoCo's two points (its capsule-box heuristic). Each
scene below is loaded by rbdl_edu and by ``mujoco==4.0.0`` from the same MJCF:

* at the start, the same number of contacts, and each of ours equal to one of MuJoCo's
  (depth, position, normal to 1e-5: MuJoCo's mesh vertices are single precision and its
  EPA stops at ``ccd_tolerance`` = 1e-6);
* after 1 s of ``step`` (0.5 s under ``RBDL_EDU_FAST=1``), the same number of contacts and
  ``qpos`` within 1e-3.

Where the clipped patch has more than four corners (a box turned over a face of the same
size), MuJoCo keeps four found by a search that starts at the first vertex of its mesh
polygon; the start of our hull polygon may differ, so those scenes are not used here.
"""
from __future__ import annotations

import os

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd

CUBE = ('<mesh name="{name}" vertex="-1 -1 -1  1 -1 -1  1 1 -1  -1 1 -1  -1 -1 1  1 -1 1  1 1 1  -1 1 1" '
        'scale="{s} {s} {s}"/>')


def scene(body, assets=""):
    return (f'<mujoco><option timestep="0.0025"/><asset>{assets}</asset><worldbody>'
            f'<geom type="plane" size="2 2 0.1"/>{body}</worldbody></mujoco>')


SCENES = {
    # a box resting on a box-shaped mesh, turned 20 degrees: box-mesh face clipping
    "box on box-mesh": scene(
        '<geom type="mesh" mesh="cube" pos="0 0 0.1"/>'
        '<body pos="0.02 0.01 0.2795"><freejoint/>'
        '<geom type="box" size="0.06 0.05 0.08" euler="0 0 20"/></body>',
        CUBE.format(name="cube", s=0.1)),
    # a die (a cube mesh) on the floor: plane-mesh, the bottom face's four corners
    "die on plane": scene(
        '<body pos="0 0 0.0495"><freejoint/><geom type="mesh" mesh="cube" euler="0 0 15"/></body>',
        CUBE.format(name="cube", s=0.05)),
    # a smaller cube mesh on a cube mesh on the floor: mesh-mesh and plane-mesh
    "mesh stack": scene(
        '<body pos="0 0 0.0495"><freejoint/><geom type="mesh" mesh="big"/></body>'
        '<body pos="0 0 0.1385"><freejoint/><geom type="mesh" mesh="small" euler="0 0 10"/></body>',
        CUBE.format(name="big", s=0.05) + CUBE.format(name="small", s=0.04)),
    # a long box lying across a cylinder on its side: the line contact's two ends (tilts)
    "long box across cylinder": scene(
        '<geom type="cylinder" size="0.05 0.3" pos="0 0 0.05" euler="90 0 0"/>'
        '<body pos="0 0 0.1295"><freejoint/><geom type="box" size="0.4 0.05 0.03"/></body>'),
    # a capsule lying on a box (issue 24: MuJoCo ends at z = 0.11979 with 2 contacts)
    "capsule on box": scene(
        '<geom type="box" size="0.3 0.3 0.05" pos="0 0 0.05"/>'
        '<body pos="0 0 0.1195"><freejoint/><geom type="capsule" size="0.02 0.15" euler="0 90 0"/></body>'),
}
DURATION = 0.5 if os.environ.get("RBDL_EDU_FAST") else 1.0
TOL_CONTACT, TOL_QPOS = 1e-5, 1e-3
TOL_CURVED = 1e-4         # a cylinder: MuJoCo's EPA point is off by ~2e-5 (ccd_tolerance 1e-6)


def ours_contacts(data):
    return [(c.geom1, c.geom2, c.dist, np.array(c.pos), np.array(c.normal)) for c in data.contact]


def mujoco_contacts(d):
    return [(int(c.geom[0]), int(c.geom[1]), float(c.dist), np.array(c.pos), np.array(c.frame[:3]))
            for c in d.contact[:d.ncon]]


def assert_same_contacts(ours, theirs, where, tol=TOL_CONTACT):
    """Same count; each contact of ours equal to one of MuJoCo's (matched once)."""
    assert len(ours) == len(theirs), (where, len(ours), len(theirs))
    free = list(theirs)
    for g1, g2, dist, pos, n in ours:
        err = [max(abs(dist - b[2]), np.abs(pos - b[3]).max(), np.abs(n - b[4]).max())
               if (g1, g2) == (b[0], b[1]) else np.inf for b in free]
        k = int(np.argmin(err))
        assert err[k] < tol, (where, (g1, g2, dist, pos, n), free)
        free.pop(k)


@pytest.mark.parametrize("name", list(SCENES))
def test_resting_contacts_and_trajectory(name):
    xml = SCENES[name]
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    rbd.forward(model, data)
    mujoco.mj_forward(m, d)
    tol = TOL_CURVED if "cylinder" in name else TOL_CONTACT
    assert_same_contacts(ours_contacts(data), mujoco_contacts(d), (name, "start"), tol)
    for _ in range(round(DURATION / m.opt.timestep)):
        rbd.step(model, data)
        mujoco.mj_step(m, d)
    assert len(data.contact) == d.ncon, (name, len(data.contact), d.ncon)
    err = np.abs(np.asarray(data.qpos) - d.qpos).max()
    assert err < TOL_QPOS, (name, err, np.asarray(data.qpos), d.qpos)


def tilted_box_on_mesh(rng):
    """A box over a larger cube mesh, turned about z and tilted by up to 2 degrees (its
    face within MuJoCo's 5-degree face tolerance), 0 to 6 mm deep at its lowest corner."""
    yaw, tx, ty = rng.uniform(-180, 180), *rng.uniform(-2, 2, 2)
    h = rng.uniform(0.02, 0.045, 3)                # within the mesh's face: at most 4 corners
    x, y = rng.uniform(-0.01, 0.01, 2)
    body = (f'<geom type="mesh" mesh="cube" pos="0 0 0.1"/><body pos="{x} {y} 0.3" euler="{tx} {ty} {yaw}">'
            f'<freejoint/><geom type="box" size="{h[0]} {h[1]} {h[2]}"/></body>')
    xml = scene(body, CUBE.format(name="cube", s=0.1))
    model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
    data, d = rbd.Data(model), mujoco.MjData(m)
    # lower the box until its lowest corner is 0 to 6 mm below the mesh's top face (z = 0.2)
    mujoco.mj_kinematics(m, d)
    signs = np.array(np.meshgrid(*[[-1, 1]] * 3)).reshape(3, -1).T
    corners = d.geom_xpos[2] + (signs * h) @ d.geom_xmat[2].reshape(3, 3).T
    q = np.array(m.qpos0)
    q[2] -= corners[:, 2].min() - 0.2 + rng.uniform(0, 6e-3)
    return model, data, m, d, q


def test_tilted_boxes_on_a_mesh():
    """Random boxes nearly flat on a mesh: face clipping gives MuJoCo's contacts (1 to 4,
    each at its own depth)."""
    rng = np.random.default_rng(0)
    counts = []
    for trial in range(30):
        model, data, m, d, q = tilted_box_on_mesh(rng)
        data.qpos[:] = q
        d.qpos[:] = q
        rbd.collision.detect(model, data)
        mujoco.mj_kinematics(m, d)
        mujoco.mj_collision(m, d)
        ours = [c for c in ours_contacts(data) if c[0] != 0]          # the box-mesh pair
        theirs = [c for c in mujoco_contacts(d) if c[0] != 0]
        assert_same_contacts(ours, theirs, ("tilted box", trial))
        counts.append(len(ours))
    assert max(counts) == 4 and min(counts) < 4, counts        # both full patches and partial ones


def test_cylinders_and_capsules_on_boxes_and_meshes():
    """A cylinder or a capsule lying, standing or tilted on a box or a box-shaped mesh: the
    tilts give MuJoCo's contact count (1 on a rim, 2 along a line, 4 on a disk)."""
    rng = np.random.default_rng(1)
    counts = set()
    for k in range(24):
        kind, base = ("cylinder", "capsule")[k % 2], ("box", "mesh")[(k // 2) % 2]
        r, h = rng.uniform(0.02, 0.06), rng.uniform(0.05, 0.15)
        lying = k % 3 != 0
        tilt = rng.choice([0.0, 0.0, rng.uniform(-20, 20)])
        euler = f"{90 if lying else 0} {tilt} {rng.uniform(-90, 90)}"
        below = ('<geom type="box" size="0.1 0.1 0.1" pos="0 0 0.1"/>' if base == "box"
                 else '<geom type="mesh" mesh="cube" pos="0 0 0.1"/>')
        z = 0.2 + (r if lying else h if kind == "cylinder" else h + r) - rng.uniform(0, 0.002)
        x, y = rng.uniform(-0.02, 0.02, 2)
        xml = (f'<mujoco><asset>{CUBE.format(name="cube", s=0.1)}</asset><worldbody>{below}'
               f'<body pos="{x} {y} {z}" euler="{euler}"><freejoint/><geom type="{kind}" size="{r} {h}"/>'
               '</body></worldbody></mujoco>')
        model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
        data, d = rbd.Data(model), mujoco.MjData(m)
        ours = rbd.collision.detect(model, data)
        mujoco.mj_forward(m, d)
        assert len(ours) == d.ncon, (k, xml, len(ours), d.ncon)
        counts.add(d.ncon)
    assert {1, 2, 4} <= counts, counts
