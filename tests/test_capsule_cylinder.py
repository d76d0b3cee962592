"""A capsule against a cylinder (:mod:`rbdl_edu.collision.capsule_cylinder`) and MuJoCo 4.0.0.

Each scene is a cylinder in the world, at a random pose, and a capsule on a free body placed
in the cylinder's frame by family, random sizes, a third of the scenes with a margin; both
engines load the same MJCF with MuJoCo's default options (``multiccd`` on: its single-shot
multi-contact path).

* **The curved side** (closed form): the capsule crossing the side at 5 to 90 degrees from
  the axis, overlapping or apart within the margin, its end against the side, and lying
  along the side (parallel): one contact in both engines; the same ``dist`` to 1e-6
  (MuJoCo's ``ccd_tolerance``); our normal attains our distance (the separation of the two
  geoms along it) and no other normal separates more -- neither MuJoCo's nor ones near
  ours: the distance is the largest separation, which ours is exactly; the normals agree to
  1e-4 (MuJoCo's follows from its witness points, about ``sqrt(ccd_tolerance)``); the
  positions to 1e-4 -- along a line contact (parallel) only across the line, as MuJoCo's
  point is wherever its EPA stopped on it.
* **Caps, rims, the axis**: the closed form declines and the general convex path answers,
  the same contacts as :func:`~rbdl_edu.collision.convex.convex`.
"""
from __future__ import annotations

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.collision.capsule_cylinder import capsule_cylinder, side_contact
from rbdl_edu.collision.convex import convex, support
from rbdl_edu.rotation import mat_to_quat, quat_to_mat

SIDE = ("crossing", "apart", "end on side", "parallel")
OFF_SIDE = ("standing on a cap", "across a rim", "through the axis")
N_SCENES = 12
TOL_DIST, TOL_NORMAL, TOL_POS = 1e-6, 1e-4, 1e-4


def frame_with_z(u):
    """A rotation whose third column is the unit ``u``."""
    t = np.cross(u, np.eye(3)[np.argmin(np.abs(u))])
    t /= np.linalg.norm(t)
    return np.column_stack([t, np.cross(u, t), u])


def local_pose(family, rng, R, H, r, L):
    """The capsule's center and axis in the cylinder's frame."""
    pen = rng.uniform(0, 0.5 * r)                            # how deep (negative: apart)
    phi = rng.uniform(0, 2 * np.pi)
    radial, tangent, z = np.array([np.cos(phi), np.sin(phi), 0]), np.array([-np.sin(phi), np.cos(phi), 0]), \
        np.array([0, 0, 1.0])
    if family in ("crossing", "apart"):                      # the nearest point at s0, height z0
        pen = pen if family == "crossing" else -rng.uniform(0, 0.04)
        alpha = np.radians(rng.uniform(5, 90)) * rng.choice([-1, 1])        # from the axis
        u = np.cos(alpha) * z + np.sin(alpha) * tangent
        s0, z0 = rng.uniform(-0.8, 0.8), rng.uniform(-0.8, 0.8) * H
        return radial * (R + r - pen) + z0 * z - s0 * L * u, u
    if family == "end on side":
        u = radial + rng.normal(size=3) * 0.1
        u /= np.linalg.norm(u)
        return radial * (R + L + r - pen) + rng.uniform(-0.8, 0.8) * H * z, u
    if family == "parallel":
        return radial * (R + r - pen) + rng.uniform(-0.5, 0.5) * H * z, z * rng.choice([-1, 1])
    if family == "standing on a cap":
        return radial * rng.uniform(0, 0.8) * R + (H + L + r - pen) * z, z
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    if family == "across a rim":
        d = (radial + z) / np.sqrt(2)
        return radial * R + H * z + d * (r - pen), u
    return rng.uniform(-0.5, 0.5) * H * z - rng.uniform(-0.8, 0.8) * L * u, u     # through the axis


def scenes(family, seed):
    """``(xml, qpos, local)`` per scene: the MJCF, the capsule's free joint, its (center, axis)
    in the cylinder's frame."""
    rng = np.random.default_rng(seed)
    for k in range(N_SCENES):
        R, H, r, L = rng.uniform(0.05, 0.3), rng.uniform(0.05, 0.5), rng.uniform(0.01, 0.1), rng.uniform(0.02, 0.3)
        margin = 0.05 if k % 3 == 0 or family == "apart" else 0.0
        cq = rng.normal(size=4)
        cq /= np.linalg.norm(cq)
        cp = rng.uniform(-0.5, 0.5, 3)
        c, u = local_pose(family, rng, R, H, r, L)
        Rc = quat_to_mat(cq)
        xml = (f'<mujoco><worldbody><geom type="cylinder" size="{R} {H}" pos="{cp[0]} {cp[1]} {cp[2]}" '
               f'quat="{cq[0]} {cq[1]} {cq[2]} {cq[3]}" margin="{margin}"/><body><freejoint/>'
               f'<geom type="capsule" size="{r} {L}" margin="{margin}"/></body></worldbody></mujoco>')
        yield xml, np.concatenate([cp + Rc @ c, mat_to_quat(Rc @ frame_with_z(u))]), (c, u * L, R, H)


def both(xml, qpos):
    """Our model, data and contacts, and MuJoCo's contacts, at ``qpos``."""
    model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
    data, d = rbd.Data(model), mujoco.MjData(m)
    data.qpos[:] = d.qpos[:] = qpos
    ours = rbd.collision.detect(model, data)
    mujoco.mj_kinematics(m, d)
    mujoco.mj_collision(m, d)
    return model, data, ours, list(d.contact[:d.ncon])


def separation(model, data, n):
    """The gap between capsule (geom 1) and cylinder (geom 0) along ``n`` (from the capsule)."""
    gp, gm = data.geom_xpos, data.geom_xmat
    return n @ support(model, gp, gm, 0, -n) - n @ support(model, gp, gm, 1, n)


def assert_side_as_mujoco(model, data, ours, theirs, where, rng):
    """One contact in both engines, as the module docstring says."""
    assert len(ours) == len(theirs) <= 1, (where, ours, theirs)
    for a, b in zip(ours, theirs):
        n, n_mj = np.asarray(a.normal), b.frame[:3] / np.linalg.norm(b.frame[:3])
        assert abs(a.dist - b.dist) < TOL_DIST, (where, a.dist, b.dist)
        assert abs(separation(model, data, n) - a.dist) < 1e-12, where
        near = n + rng.normal(size=(20, 3)) * 1e-4
        for m in [n_mj, *(near / np.linalg.norm(near, axis=1, keepdims=True))]:
            assert separation(model, data, m) <= a.dist + 1e-12, where
        assert np.abs(n - n_mj).max() < TOL_NORMAL, (where, n, n_mj)
        dp = np.asarray(a.pos) - b.pos
        if where[0] == "parallel":                  # (along the line, MuJoCo's point is anywhere)
            axis = data.geom_xmat[0][:, 2]
            dp = dp - (dp @ axis) * axis
        assert np.abs(dp).max() < TOL_POS, (where, a.pos, b.pos)


@pytest.mark.parametrize("family", SIDE)
def test_side_as_mujoco(family):
    rng, touching = np.random.default_rng(1), 0
    for k, (xml, qpos, (c, a, R, H)) in enumerate(scenes(family, SIDE.index(family))):
        assert side_contact(c, a, R, H) is not None, (family, k)        # the closed form answers
        model, data, ours, theirs = both(xml, qpos)
        assert_side_as_mujoco(model, data, ours, theirs, (family, k), rng)
        touching += len(ours)
    assert touching >= N_SCENES // 2, (family, touching)


@pytest.mark.parametrize("family", OFF_SIDE)
def test_off_the_side_general_path(family):
    """Where a cap or a rim is closest, or the segment crosses the axis, the closed form
    declines and the general convex collider answers (the same contacts); a capsule across a
    rim may still touch the side first (then as MuJoCo, above)."""
    rng, touching, declined = np.random.default_rng(2), 0, 0
    for k, (xml, qpos, (c, a, R, H)) in enumerate(scenes(family, 10 + OFF_SIDE.index(family))):
        model, data, ours, theirs = both(xml, qpos)
        touching += len(ours) > 0
        if side_contact(c, a, R, H) is not None:
            assert family == "across a rim", (family, k)
            assert_side_as_mujoco(model, data, ours, theirs, (family, k), rng)
            continue
        declined += 1
        args = (model, data.geom_xpos, data.geom_xmat, 1, 0, model.geom_margin[0] + model.geom_margin[1])
        general, closed = convex(*args), capsule_cylinder(*args)
        assert len(ours) == len(general) == len(closed), (family, k)
        for a_, b, x in zip(ours, general, closed):
            assert a_.dist == b[0] == x[0] and np.array_equal(b[1], x[1]) and np.array_equal(b[2], x[2])
    assert touching >= N_SCENES // 2 and declined >= N_SCENES // 2, (family, touching, declined)
