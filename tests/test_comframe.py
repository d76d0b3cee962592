"""MuJoCo's com-based quantities against MuJoCo itself, on every gymnasium asset and every
model in ``models/``: ``subtree_com``, ``cdof``, ``cdof_dot``, ``cvel``, ``cacc``, ``mj_jac``, and object
velocities and accelerations, at random states (constraints off)."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from test_mjcf import GYM, MODELS

import rbdl_edu as rbd
from rbdl_edu.smooth.comframe import cdof_dot, com_pos, com_vel_acc, jac, object_acceleration, object_velocity
from rbdl_edu.model.enums import OBJ_BODY, OBJ_GEOM, OBJ_SITE, OBJ_XBODY
from rbdl_edu.kinematics import kinematics

TOL = 1e-10


def both_at_random_state(path, seed):
    m = mujoco.MjModel.from_xml_path(str(path))
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    d = mujoco.MjData(m)
    rng = np.random.default_rng(seed)
    d.qpos[:] = m.qpos0 + 0.3 * rng.normal(size=m.nq)
    mujoco.mj_normalizeQuat(m, d.qpos)
    d.qvel[:] = rng.normal(size=m.nv)
    mujoco.mj_forward(m, d)
    mujoco.mj_rnePostConstraint(m, d)
    model = rbd.load_model(path)
    data = rbd.Data(model)
    data.qpos[:], data.qvel[:], data.qacc[:] = d.qpos, d.qvel, d.qacc
    kinematics(model, data)
    com_pos(model, data)
    com_vel_acc(model, data)
    return model, data, m, d


def close(ours, theirs, what):
    scale = max(1.0, float(np.abs(theirs).max(initial=0)))
    assert np.abs(np.asarray(ours) - theirs).max(initial=0) <= TOL * scale, what


@pytest.mark.parametrize("path", [p for p in MODELS if p.suffix == ".xml"] + GYM, ids=lambda p: p.name)
def test_com_frames_match_mujoco(path):
    model, data, m, d = both_at_random_state(path, seed=len(path.name))
    for name in ("subtree_com", "cdof", "cvel", "cacc", "xpos", "xipos", "xanchor", "xaxis",
                 "geom_xpos", "site_xpos"):
        close(getattr(data, name), getattr(d, name), name)
    # how fast each axis turns and moves (free joints' translations: not at all; a ball's three
    # axes with the velocity before the ball)
    close(cdof_dot(model, data), d.cdof_dot, "cdof_dot")
    close(data.xmat, d.xmat.reshape(-1, 3, 3), "xmat")
    close(data.geom_xmat, d.geom_xmat.reshape(-1, 3, 3), "geom_xmat")
    rng = np.random.default_rng(1)
    for b in range(1, m.nbody):
        point = d.xpos[b] + rng.normal(size=3)
        jp, jr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
        mujoco.mj_jac(m, d, jp, jr, point, b)
        ours = jac(model, data, b, point)
        close(ours[0], jp, f"jacp of body {b}")
        close(ours[1], jr, f"jacr of body {b}")
    objects = [(OBJ_BODY, mujoco.mjtObj.mjOBJ_BODY, m.nbody), (OBJ_XBODY, mujoco.mjtObj.mjOBJ_XBODY, m.nbody),
               (OBJ_GEOM, mujoco.mjtObj.mjOBJ_GEOM, m.ngeom), (OBJ_SITE, mujoco.mjtObj.mjOBJ_SITE, m.nsite)]
    for ours_type, mj_type, n in objects:
        for k in range(n):
            for local in (0, 1):
                v, a = np.zeros(6), np.zeros(6)
                mujoco.mj_objectVelocity(m, d, mj_type, k, v, local)
                mujoco.mj_objectAcceleration(m, d, mj_type, k, a, local)
                close(object_velocity(model, data, ours_type, k, bool(local)), v, f"velocity {mj_type} {k}")
                close(object_acceleration(model, data, ours_type, k, bool(local)), a, f"acceleration {mj_type} {k}")
