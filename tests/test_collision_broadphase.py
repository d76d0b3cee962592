"""Broadphase: sweep and prune finds every overlapping box pair, the body pairs it returns
contain every pair that truly collides (brute force over all geom pairs), and whole
multi-body scenes (several geoms per body, a floor, a welded chain) give MuJoCo's contact
pairs."""
from __future__ import annotations

import itertools

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.collision.broadphase import broadphase, sap_frame, sweep_and_prune
from rbdl_edu.collision.driver import COLLIDERS, narrowphase
from rbdl_edu.collision.filters import bitmask_rejects, body_pair_filter
from rbdl_edu.collision.geometry import geom_aabb, geom_poses, geom_rbound
from rbdl_edu.io.export import to_mjcf

SOLID = ["sphere", "capsule", "ellipsoid", "cylinder", "box"]


@pytest.mark.parametrize("seed", range(10))
def test_sap_equals_all_pairs_box_overlap(seed):
    rng = np.random.default_rng(seed)
    n = 60
    lo = rng.uniform(0, 3, size=(n, 3))
    boxes = np.hstack([lo, lo + rng.uniform(0.05, 0.6, size=(n, 3))])
    brute = {(i, j) for i, j in itertools.combinations(range(n), 2)
             if np.all(boxes[i, :3] <= boxes[j, 3:]) and np.all(boxes[j, :3] <= boxes[i, 3:])}
    for axis in range(3):
        assert set(sweep_and_prune(boxes, axis)) == brute


def random_world(rng, nbody=12, floor=True):
    spec = rbd.ModelSpec()
    if floor:
        spec.add_geom(0, "plane", [0, 0, 1], name="floor")
    parent = 0
    for i in range(nbody):
        # every third body is welded to the previous one, others are free
        welded = i % 3 == 2
        b = spec.add_body(parent if welded else 0, f"b{i}",
                          pos=[0.1, 0, 0] if welded else rng.uniform(-0.6, 0.6, 3) + [0, 0, 0.3],
                          mass=1.0, inertia=[0.01] * 3)
        if not welded:
            spec.add_joint(b, "free", f"j{i}")
        for k in range(int(rng.integers(1, 3))):
            t = SOLID[int(rng.integers(len(SOLID)))]
            size = {"sphere": [rng.uniform(0.05, 0.2)], "capsule": [0.05, rng.uniform(0.05, 0.2)],
                    "cylinder": [0.08, rng.uniform(0.05, 0.2)]}.get(t, list(rng.uniform(0.05, 0.2, 3)))
            q = rng.normal(size=4)
            spec.add_geom(b, t, size, name=f"g{i}_{k}", pos=rng.uniform(-0.1, 0.1, 3), quat=q / np.linalg.norm(q),
                          margin=0.02 if rng.random() < 0.3 else 0.0)
        parent = b
    return spec


@pytest.mark.parametrize("seed", range(8))
def test_broadphase_is_superset_of_true_pairs(seed):
    rng = np.random.default_rng(seed)
    model = random_world(rng).compile()
    data = rbd.Data(model)
    gpos, gmat = geom_poses(model, data.qpos)
    cand = set(broadphase(model, gpos, gmat, geom_rbound(model), geom_aabb(model)))
    true_pairs = set()
    for g1, g2 in itertools.combinations(range(model.ngeom), 2):
        b1, b2 = sorted((int(model.geom_bodyid[g1]), int(model.geom_bodyid[g2])))
        if b1 == b2 or body_pair_filter(model, b1, b2) or bitmask_rejects(
                model.geom_contype[g1], model.geom_conaffinity[g1],
                model.geom_contype[g2], model.geom_conaffinity[g2]):
            continue
        a, b = (g1, g2) if model.geom_type[g1] <= model.geom_type[g2] else (g2, g1)
        if (model.geom_type[a], model.geom_type[b]) in COLLIDERS and narrowphase(model, gpos, gmat, a, b):
            true_pairs.add((b1, b2))
    assert true_pairs, "scene without contacts tests nothing"
    assert true_pairs <= cand
    assert len(cand) < model.nbody * (model.nbody - 1) // 2     # and it does prune


def test_sap_frame_follows_the_spread():
    """Geoms along a diagonal line: the first SAP axis is that line."""
    spec = rbd.ModelSpec()
    for k in range(8):
        spec.add_geom(spec.add_body(0, pos=[k, 2 * k, 0.5 * k]), "sphere", [0.1])
    model = spec.compile()
    gpos, _ = geom_poses(model, [])
    axis = sap_frame(model, gpos)[0]
    np.testing.assert_allclose(abs(axis @ np.array([1, 2, 0.5]) / np.linalg.norm([1, 2, 0.5])), 1, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_multibody_scene_contact_pairs_match_mujoco(seed):
    """Floor, free bodies with 1-2 geoms each, welded children: same contact pairs as MuJoCo."""
    rng = np.random.default_rng(100 + seed)
    model = random_world(rng).compile()
    m = mujoco.MjModel.from_xml_string(to_mjcf(model))
    d = mujoco.MjData(m)
    data = rbd.Data(model)
    d.qpos[:] = data.qpos
    mujoco.mj_kinematics(m, d)
    mujoco.mj_collision(m, d)
    ours = rbd.collision.detect(model, data)
    name = lambda g: model.geom_names[g]
    mj_name = lambda g: mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g)
    assert {(name(c.geom1), name(c.geom2)) for c in ours} == \
        {(mj_name(c.geom[0]), mj_name(c.geom[1])) for c in d.contact[:d.ncon]}
    assert len(ours) > 0
