"""Shortcuts that skip collision work change no contact (issue 20).

* GJK's early exit (MuJoCo's cutoff): a convex pair farther apart than the margin is dropped
  as soon as a support point proves it, and the answer is unchanged everywhere else.
* The oriented-bounding-box test before the narrowphase (MuJoCo's midphase) skips only
  pairs without contacts, and does skip separated ones; so does the bounding-capsule test
  before an iterating collider (ours), whose capsules hold their geoms.

For random pairs of curved and flat convex geoms and a margin ``c >= 0`` around their distance,
``signed_distance`` with ``cutoff=c`` is ``None`` exactly when the full answer's distance
exceeds ``c``, and otherwise equals the full answer.
"""
from __future__ import annotations

import numpy as np
import pytest

from rbdl_edu.collision.convex import signed_distance, support
from rbdl_edu.collision.driver import narrowphase
from rbdl_edu.collision.filters import boxes_apart, capsules_apart, segment_distance
from rbdl_edu.collision.geometry import geom_aabb, geom_capsule
from rbdl_edu.collision.pair_params import pair_margin_gap
from rbdl_edu.model.spec import ModelSpec
from rbdl_edu.rotation import quat_to_mat

SHAPES = {"sphere": [0.05], "capsule": [0.03, 0.08], "ellipsoid": [0.1, 0.06, 0.03],
          "cylinder": [0.04, 0.05], "box": [0.05, 0.04, 0.03]}



def random_poses(rng, spread):
    """Geom 0 at the origin, geom 1 within ``spread`` of it; both turned at random."""
    gpos = np.array([np.zeros(3), rng.uniform(-spread, spread, 3)])
    gmat = np.array([quat_to_mat(q / np.linalg.norm(q)) for q in rng.normal(size=(2, 4))])
    return gpos, gmat

@pytest.mark.parametrize("t1,t2", [("sphere", "ellipsoid"), ("capsule", "ellipsoid"),
                                   ("ellipsoid", "ellipsoid"), ("cylinder", "box")])
def test_cutoff_drops_exactly_the_far_pairs(t1, t2):
    spec = ModelSpec()
    _ = spec.add_geom(0, t1, SHAPES[t1]); _ = spec.add_geom(0, t2, SHAPES[t2])
    model = spec.compile()
    rng = np.random.default_rng(3)
    dropped = kept = 0
    for _ in range(40):
        gpos, gmat = random_poses(rng, 0.25)
        full = signed_distance(model, gpos, gmat, 0, 1)
        # a margin (never negative) just below or just above the distance
        cutoff = max(0.0, full[0] + rng.choice([-1, 1]) * rng.uniform(1e-6, 0.02))
        cut = signed_distance(model, gpos, gmat, 0, 1, cutoff=cutoff)
        if full[0] > cutoff:
            assert cut is None, (t1, t2, full[0], cutoff)
            dropped += 1
        else:
            assert cut is not None and abs(cut[0] - full[0]) < 1e-12, (t1, t2, full[0], cutoff)
            assert np.allclose(cut[1], full[1], atol=1e-12), (t1, t2)
            kept += 1
    assert dropped >= 10 and kept >= 10, (dropped, kept)


@pytest.mark.parametrize("t1,t2", [("sphere", "ellipsoid"), ("capsule", "box"), ("ellipsoid", "cylinder"),
                                   ("box", "box")])
def test_box_test_skips_only_pairs_without_contacts(t1, t2):
    spec = ModelSpec()
    _ = spec.add_geom(0, t1, SHAPES[t1], margin=0.01); _ = spec.add_geom(0, t2, SHAPES[t2])
    model = spec.compile()
    aabb = geom_aabb(model)
    rng = np.random.default_rng(5)
    skipped = touching = 0
    for _ in range(60):
        gpos, gmat = random_poses(rng, 0.15)
        contacts = narrowphase(model, gpos, gmat, 0, 1)
        apart = boxes_apart(model, gpos, gmat, aabb, 0, 1, sum(pair_margin_gap(model, 0, 1)))
        assert not (apart and contacts), (t1, t2, gpos[1])
        skipped += apart
        touching += bool(contacts)
    assert skipped >= 10 and touching >= 5, (skipped, touching)


@pytest.mark.parametrize("t1,t2", [("capsule", "cylinder"), ("ellipsoid", "cylinder"),
                                   ("capsule", "ellipsoid"), ("sphere", "box"), ("box", "ellipsoid")])
def test_capsule_test_skips_only_pairs_without_contacts(t1, t2):
    """The bounding capsules (ours) hold their geoms: every support point lies within the
    radius of the segment; a pair whose capsules are apart has no contact, and some are."""
    spec = ModelSpec()
    _ = spec.add_geom(0, t1, SHAPES[t1], margin=0.01); _ = spec.add_geom(0, t2, SHAPES[t2])
    model = spec.compile()
    axis, half, radius = geom_capsule(model)
    rng = np.random.default_rng(8)
    skipped = touching = 0
    for _ in range(60):
        gpos, gmat = random_poses(rng, 0.12)
        for g in (0, 1):                                       # the capsule holds the geom
            A = gmat[g][:, axis[g]] * half[g]
            for d in rng.normal(size=(8, 3)):
                p = support(model, gpos, gmat, g, d)
                assert segment_distance(p, 0 * A, gpos[g], A) <= radius[g] + 1e-12, (t1, t2, g)
        margin = sum(pair_margin_gap(model, 0, 1))
        full = signed_distance(model, gpos, gmat, 0, 1)
        apart = capsules_apart(model, gpos, gmat, 0, 1, margin)
        assert not (apart and full[0] < margin), (t1, t2, full[0])
        skipped += apart
        touching += full[0] < margin
    assert skipped >= 5 and touching >= 5, (skipped, touching)


def test_sweep_leaves_out_only_bodies_without_partners():
    """The sweep and prune skips bodies the bitmask lets touch no other body (the mouse's: they
    only touch the world): the candidate pairs are those of the sweep over every body."""
    import rbdl_edu as rbd
    from rbdl_edu.collision.broadphase import broadphase, sap_bodies
    from rbdl_edu.collision.geometry import geom_poses, geom_rbound
    from rbdl_edu.lab import scene_path
    spec = ModelSpec()
    rng = np.random.default_rng(2)
    for k in range(8):                      # bodies with random bitmasks, some never matching
        b = spec.add_body(0, pos=rng.uniform(-0.2, 0.2, 3), mass=1, inertia=[1e-3] * 3)
        _ = spec.add_joint(b, "free")
        _ = spec.add_geom(b, "sphere", [0.1], contype=int(rng.choice([1, 2, 4])), conaffinity=int(rng.choice([0, 2])))
    for model in (spec.compile(), rbd.load_model(str(scene_path("flat")))):
        gp, gm = geom_poses(model, model.qpos0)
        full = broadphase(model, gp, gm, geom_rbound(model), geom_aabb(model), return_sap=True)
        assert broadphase(model, gp, gm, geom_rbound(model), geom_aabb(model)) == full[0]
        assert len(sap_bodies(model)) < len(full[2])          # some bodies were left out


def test_sphere_ellipsoid_closed_form_is_the_convex_answer():
    """The sphere-ellipsoid collider (nearest point by one monotone scalar equation) equals the
    general path (GJK/EPA, polished) on random poses, touching, apart and deep, flat
    ellipsoids too; on the shortest axis' plane inside it hands over to the general path."""
    from rbdl_edu.collision.convex import convex
    from rbdl_edu.collision.ellipsoid import nearest_on_ellipsoid, sphere_ellipsoid
    rng = np.random.default_rng(11)
    compared = inside = 0
    for size in ([0.1, 0.06, 0.03], [0.05, 0.3, 0.006]):
        spec = ModelSpec()
        _ = spec.add_geom(0, "sphere", [0.02]); _ = spec.add_geom(0, "ellipsoid", size)
        model = spec.compile()
        for _ in range(40):
            gpos = np.array([rng.uniform(-1, 1, 3) * np.array(size) * rng.uniform(0.2, 1.6), np.zeros(3)])
            q = rng.normal(size=4)
            gmat = np.array([np.eye(3), quat_to_mat(q / np.linalg.norm(q))])
            gpos[0] = gmat[1] @ gpos[0]
            ours, general = sphere_ellipsoid(model, gpos, gmat, 0, 1, 0.05), convex(model, gpos, gmat, 0, 1, 0.05)
            assert len(ours) == len(general)
            for (d1, p1, n1, _), (d2, p2, n2, _) in zip(ours, general):
                # (the polished general path is good to ~1e-10 in depth inside a flat ellipsoid,
                # its normal then to ~1e-5)
                assert abs(d1 - d2) < 1e-9 and np.abs(p1 - p2).max() < 1e-6 and np.abs(n1 - n2).max() < 2e-5
                compared += 1
                inside += d1 < -0.02
            # ours is exact: x on the surface, y - x along the surface normal there
            y = gmat[1].T @ gpos[0]
            found = nearest_on_ellipsoid(np.array(size), y)
            if found is not None:
                x = found[0]
                nu = x / np.square(size)
                assert abs(np.sum(np.square(x / size)) - 1) < 1e-12
                assert np.linalg.norm(np.cross(y - x, nu)) <= 1e-12 * np.linalg.norm(nu)
    assert compared >= 40 and inside >= 5, (compared, inside)
    assert nearest_on_ellipsoid(np.array([0.3, 0.2, 0.1]), np.array([0.05, 0.02, 0.0])) is None
