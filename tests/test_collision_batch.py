"""The collision pass on arrays (:func:`rbdl_edu.collision.driver.near_pairs`,
:mod:`rbdl_edu.collision.batch`) against the book's loop (:func:`~rbdl_edu.collision.candidate_pairs`,
then the oriented-box test before an iterating collider, as ``collide`` did pair by pair).

* the array tests equal the one-pair tests, pair by pair (bounding spheres, oriented boxes);
* the geom pairs handed to the narrowphase are the same, in the same order, on the midphase
  scene of ``test_collision_midphase`` (two bodies of 14 geoms, a floor) at random poses --
  also with the midphase off, the margin overridden, an ``<exclude>`` and a geom without
  collision bits --, on three single-geom bodies (few pairs: tested one at a time) and on
  every scene of the lab at random poses of the mouse;
* ``collide`` gives the same contacts on either route.
"""
from __future__ import annotations

import numpy as np
import pytest
from test_collision_midphase import scene

import rbdl_edu as rbd
from rbdl_edu.collision import candidate_pairs
from rbdl_edu.collision.batch import obbs_apart, spheres_apart
from rbdl_edu.collision.broadphase import broadphase
from rbdl_edu.collision.driver import COLLIDERS, ITERATIVE, near_pairs
from rbdl_edu.collision.filters import bounding_sphere_rejects, boxes_apart
from rbdl_edu.collision.geometry import geom_aabb, geom_rbound
from rbdl_edu.collision.pair_params import pair_margin_gap
from rbdl_edu.kinematics import kinematics
from rbdl_edu.lab import scene_path
from rbdl_edu.model.enums import FREE
from rbdl_edu.model.frozen import plain

SCENES = ("flat", "ellipsoids", "capsules", "boards", "arc", "slope", "terrain")


def book_pairs(model, gpos, gmat):
    """What ``collide`` hands to the narrowphase, the book's way (one pair at a time)."""
    aabb, types = geom_aabb(model), plain(model).geom_type
    return [(g1, g2, pair) for g1, g2, pair in candidate_pairs(model, gpos, gmat)
            if not (COLLIDERS[(types[g1], types[g2])] in ITERATIVE and
                    boxes_apart(model, gpos, gmat, aabb, g1, g2, sum(pair_margin_gap(model, g1, g2, pair))))]


def array_pairs(model, gpos, gmat):
    return near_pairs(model, gpos, gmat, broadphase(model, gpos, gmat, geom_rbound(model), geom_aabb(model)))


def random_poses(model, rng, count, spread=0.2):
    """``data`` at ``count`` random poses: the free bodies moved and turned at random."""
    data = rbd.Data(model)
    for _ in range(count):
        data.qpos[:] = model.qpos0
        for j in np.flatnonzero(np.asarray(model.jnt_type) == FREE):
            a = model.jnt_qposadr[j]
            data.qpos[a:a + 3] += rng.uniform(-spread, spread, 3)
            q = rng.normal(size=4)
            data.qpos[a + 3:a + 7] = q / np.linalg.norm(q)
        kinematics(model, data)
        yield data


def test_array_tests_equal_one_pair_tests():
    model = rbd.load_model(scene())
    rbound, aabb = geom_rbound(model), geom_aabb(model)
    g1, g2 = (a.ravel() for a in np.meshgrid(np.arange(model.ngeom), np.arange(model.ngeom)))
    rng = np.random.default_rng(1)
    margin = rng.uniform(0, 0.05, len(g1))
    hits = 0
    for data in random_poses(model, rng, 4):
        gpos, gmat = data.geom_xpos, data.geom_xmat
        sph = spheres_apart(model, gpos, gmat, rbound, g1, g2, margin)
        obb = obbs_apart(model, gpos, gmat, aabb, g1, g2, margin)
        for k in range(len(g1)):
            assert sph[k] == bounding_sphere_rejects(model, gpos, gmat, rbound, g1[k], g2[k], margin[k])
            assert obb[k] == boxes_apart(model, gpos, gmat, aabb, g1[k], g2[k], margin[k])
        hits += int((~sph & ~obb).sum())
    assert 0 < hits < 4 * len(g1)                       # both verdicts occur


FEW = """<mujoco><worldbody><geom name="floor" type="plane" size="0 0 1"/>
  <body pos="0 0 0.1"><freejoint/><geom type="sphere" size="0.1"/></body>
  <body pos="0.12 0.05 0.12"><freejoint/><geom type="capsule" size="0.05 0.1"/></body>
  <body pos="-0.1 0.1 0.1"><freejoint/><geom type="cylinder" size="0.08 0.06"/></body></worldbody></mujoco>"""

VARIANTS = {
    "few pairs (one at a time)": FEW,
    "midphase": scene(),
    "midphase off": scene("disable"),
    "override": scene().replace("<option>", '<option o_margin="0.03"><flag override="enable"/>'),
    "exclude, no bits": scene().replace('name="b0"', 'name="b0" contype="0" conaffinity="0"')
    .replace("</worldbody>", '</worldbody><contact><exclude body1="world" body2="a"/></contact>'),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_same_pairs_as_the_book_on_the_midphase_scene(variant):
    model = rbd.load_model(VARIANTS[variant])
    count = 0
    for data in random_poses(model, np.random.default_rng(7), 12, spread=0.1):
        book = book_pairs(model, data.geom_xpos, data.geom_xmat)
        assert array_pairs(model, data.geom_xpos, data.geom_xmat) == book
        count += len(book)
    assert count > 12                                   # the bodies do touch (or nearly)


@pytest.mark.parametrize("name", SCENES)
def test_same_pairs_as_the_book_on_the_lab_scenes(name):
    model = rbd.load_model(str(scene_path(name)))
    rng = np.random.default_rng(3)
    data = rbd.Data(model)
    rbd.reset(model, data, "stand")
    stand, count = data.qpos.copy(), 0
    for _ in range(10):
        data.qpos[:] = stand
        data.qpos[0] += rng.uniform(0, 0.5)             # along the course, legs at random
        data.qpos[2] += rng.uniform(-0.02, 0.01)
        data.qpos[7:] += rng.uniform(-0.6, 0.6, model.nq - 7)
        kinematics(model, data)
        book = book_pairs(model, data.geom_xpos, data.geom_xmat)
        assert array_pairs(model, data.geom_xpos, data.geom_xmat) == book
        count += len(book)
    assert count > 0


def test_collide_same_contacts_on_either_route():
    model = rbd.load_model(scene())
    for data in random_poses(model, np.random.default_rng(5), 3):
        fast = rbd.collision.collide(model, data)
        data.contact_filter = lambda m, d, g1, g2: False        # (a filter: the book's route)
        book = rbd.collision.collide(model, data)
        assert [(c.geom1, c.geom2) for c in fast] == [(c.geom1, c.geom2) for c in book]
        assert all(np.array_equal(a.pos, b.pos) and a.dist == b.dist for a, b in zip(fast, book))
