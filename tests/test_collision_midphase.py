"""The midphase (:mod:`rbdl_edu.collision.midphase`) against MuJoCo 4.0.0's ``mj_collideTree``.

Scene: two free bodies of 14 small geoms each (spheres and long thin boxes; spheres and capsules:
closed-form pairs, compared to 1e-9), turned and pushed into each other, above a floor.

* each body's box tree equals MuJoCo's ``bvh_aabb``, ``bvh_child``, ``bvh_nodeid``;
* the contacts equal MuJoCo's, in MuJoCo's order, with ``<flag midphase>`` on and off;
* the geom pairs the trees hand to the narrowphase are exactly the pairs whose leaf boxes
  overlap (found here by testing all pairs), and fewer than all pairs.
"""
from __future__ import annotations

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.collision import candidate_pairs
from rbdl_edu.collision.filters import bounding_sphere_rejects, boxes_apart
from rbdl_edu.collision.geometry import geom_aabb, geom_rbound
from rbdl_edu.collision.midphase import body_trees, tree_pairs

N = 14      # geoms per body


def _body(name, pos, quat, kinds, rng):
    geoms = []
    for i in range(N):
        kind = kinds[i % 2]
        p = rng.uniform(-0.25, 0.25, 3)
        q = rng.normal(size=4)
        size = {"sphere": "0.04", "box": "0.12 0.02 0.015", "capsule": "0.015 0.1"}[kind]
        geoms.append(f'<geom name="{name}{i}" type="{kind}" size="{size}" pos="{p[0]:.4f} {p[1]:.4f} '
                     f'{p[2]:.4f}" quat="{q[0]:.4f} {q[1]:.4f} {q[2]:.4f} {q[3]:.4f}"/>')
    return (f'<body name="{name}" pos="{pos}" quat="{quat}"><freejoint/>' + "".join(geoms) + "</body>")


def scene(midphase="enable", seed=3):
    rng = np.random.default_rng(seed)
    return ('<mujoco><option><flag midphase="' + midphase + '"/></option><worldbody>'
            '<geom name="floor" type="plane" size="0 0 1"/>'
            + _body("a", "0 0 0.22", "1 0.2 0.1 0", ("sphere", "box"), rng)
            + _body("b", "0.3 0.05 0.3", "0.9 0 0.3 0.2", ("sphere", "capsule"), rng)
            + "</worldbody></mujoco>")


def ours(xml):
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    rbd.collision.detect(model, data)
    return model, data


def test_trees_as_mujoco():
    model, m = rbd.load_model(scene()), mujoco.MjModel.from_xml_string(scene())
    for b in (1, 2):
        tree, a, n = body_trees(model)[b], m.body_bvhadr[b], m.body_bvhnum[b]
        assert len(tree.aabb) == n == 2 * N - 1
        assert np.allclose(tree.aabb, m.bvh_aabb[a:a + n], rtol=0, atol=1e-9)
        assert (tree.child == m.bvh_child[a:a + n]).all()
        assert (tree.geom == m.bvh_nodeid[a:a + n]).all()


@pytest.mark.parametrize("midphase", ["enable", "disable"])
def test_contacts_as_mujoco(midphase):
    model, data = ours(scene(midphase))
    m = mujoco.MjModel.from_xml_string(scene(midphase))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    assert len(data.contact) == d.ncon > 8          # the bodies interpenetrate, and touch the floor
    for c, k in zip(data.contact, d.contact):
        assert (c.geom1, c.geom2) == tuple(k.geom)
        assert np.isclose(c.dist, k.dist, rtol=0, atol=1e-9)
        assert np.allclose(c.pos, k.pos, rtol=0, atol=1e-9)
        assert np.allclose(c.frame[0], k.frame[:3], rtol=0, atol=1e-9)


def test_tree_pairs_are_the_overlapping_leaves():
    model, data = ours(scene())
    gpos, gmat = data.geom_xpos, data.geom_xmat
    a, b = (list(np.flatnonzero(model.geom_bodyid == i)) for i in (1, 2))
    visits = []
    found = tree_pairs(model, 1, 2, gpos, gmat, visits)
    rbound, aabb = geom_rbound(model), geom_aabb(model)
    overlap = [(g1, g2) for g1 in a for g2 in b
               if not bounding_sphere_rejects(model, gpos, gmat, rbound, g1, g2, 0.0)
               and not boxes_apart(model, gpos, gmat, aabb, g1, g2, 0.0)]
    assert sorted(found) == overlap and 0 < len(overlap) < len(a) * len(b)
    assert len(set(found)) == len(found)
    assert len(visits) < len(a) * len(b)             # fewer node pairs visited than geom pairs
    between = [p for p in candidate_pairs(model, gpos, gmat) if {p[0], p[1]} <= set(a) | set(b)]
    assert len(between) == len(overlap)              # what reaches the narrowphase

    off = rbd.load_model(scene("disable"))
    between_off = [p for p in candidate_pairs(off, gpos, gmat) if {p[0], p[1]} <= set(a) | set(b)]
    assert len(between_off) > len(between)           # without it, the bounding spheres let more pass
