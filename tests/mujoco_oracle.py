"""Compare a model compiled by rbdl_edu with the one MuJoCo compiles from the same file.

Used by ``tests/test_mjcf.py``. The oracle is ``mujoco==4.0.0``; if it is missing the
import fails and so do the tests (a cross-check without its oracle must not pass).
"""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np

import rbdl_edu as rbd

FIELD_TOL = 1e-9          # compiled model fields, absolute (relative for masses/inertias)
DYN_TOL = 1e-10           # dynamics, relative to the size of MuJoCo's result


def quat_close(a, b, tol=FIELD_TOL):
    """Quaternions equal up to sign (q and -q are the same rotation)."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    d = np.minimum(np.abs(a - b).max(-1), np.abs(a + b).max(-1))
    return d.max(initial=0.0) <= tol


# Fields of ours that MuJoCo computes and we do not yet, each with where it will come from.
# Every other array field of ``Model`` is compared with MuJoCo's field of the same name.
NOT_YET = {}
# Fields of ours that mjModel does not have, each with where MuJoCo keeps it instead.
OURS_ONLY = {
    "body_sleep": "MuJoCo's compiler turns the sleep policy of a tree's root body into tree_sleep_policy "
                  "(rbdl_edu.simulation.sleep.tree_sleep_policy, compared in tests/test_sleep.py)",
    "jnt_springdamper": "MuJoCo's compiler keeps springdamper in its spec (mjsJoint) and writes "
                        "the stiffness and damping it gives into jnt_stiffness and dof_damping",
}
QUATERNIONS = {"body_quat", "body_iquat", "geom_quat", "site_quat"}
NAMED = {"body": mujoco.mjtObj.mjOBJ_BODY, "jnt": mujoco.mjtObj.mjOBJ_JOINT,
         "geom": mujoco.mjtObj.mjOBJ_GEOM, "site": mujoco.mjtObj.mjOBJ_SITE,
         "mesh": mujoco.mjtObj.mjOBJ_MESH, "hfield": mujoco.mjtObj.mjOBJ_HFIELD,
         "mat": mujoco.mjtObj.mjOBJ_MATERIAL,
         "pair": mujoco.mjtObj.mjOBJ_PAIR, "exclude": mujoco.mjtObj.mjOBJ_EXCLUDE,
         "eq": mujoco.mjtObj.mjOBJ_EQUALITY, "tendon": mujoco.mjtObj.mjOBJ_TENDON,
         "actuator": mujoco.mjtObj.mjOBJ_ACTUATOR, "sensor": mujoco.mjtObj.mjOBJ_SENSOR,
         "key": mujoco.mjtObj.mjOBJ_KEY}


def _file_frame_vertices(m):
    out = []
    for k in range(m.nmesh):
        a, n = m.mesh_vertadr[k], m.mesh_vertnum[k]
        R = rbd.rotation.quat_to_mat(np.asarray(m.mesh_quat[k], float))
        out.append(m.mesh_pos[k] + np.asarray(m.mesh_vert[a:a + n], float) @ R.T)
    return np.concatenate(out) if out else np.zeros((0, 3))


def _triangles(m):
    """Each mesh's triangles, each turned to start at its smallest index, sorted."""
    out = []
    for k in range(m.nmesh):
        a, n = m.mesh_faceadr[k], m.mesh_facenum[k]
        f = np.asarray(m.mesh_face[a:a + n], dtype=int)
        f = np.array([np.roll(t, -int(np.argmin(t))) for t in f]).reshape(-1, 3)
        out.append(f[np.lexsort(f.T[::-1])])
    return np.concatenate(out) if out else np.zeros((0, 3), dtype=int)


def compare_fields(model, m):
    """Assert that every typed field of ``model`` (ours) equals MuJoCo's ``m``: sizes, every
    array with MuJoCo's name (except :data:`NOT_YET` and :data:`OURS_ONLY`), and the names of
    every object."""
    for size in rbd.model.SIZES:
        assert getattr(model, size) == getattr(m, size), size
    scale = max(1.0, float(np.abs(m.body_inertia).max(initial=0)), float(m.body_mass.max()))
    for f in dataclasses.fields(model):
        name = f.name
        if "shape" not in f.metadata or name in NOT_YET or name in OURS_ONLY or name.endswith("_names"):
            continue
        ours, theirs = getattr(model, name), np.asarray(getattr(m, name))
        theirs = theirs.reshape(ours.shape) if theirs.size == ours.size else theirs
        assert ours.shape == theirs.shape, (name, ours.shape, theirs.shape)
        if name == "body_parentid":                 # the world's parent: -1 here, 0 in MuJoCo
            ours, theirs = ours[1:], theirs[1:]
        if name in ("mesh_vert", "mesh_quat"):
            # a mesh's principal axes are not unique when two moments are equal: compare the
            # vertices back in the file's frame, x = mesh_pos + R(mesh_quat) v
            ours, theirs = _file_frame_vertices(model), _file_frame_vertices(m)
        if name == "mesh_face":
            # the same triangles (qhull may list a hull's triangles in another order and
            # start each at another corner)
            ours, theirs = _triangles(model), _triangles(m)
        if f.metadata["dtype"] in (int, bool):
            np.testing.assert_array_equal(ours, theirs.astype(ours.dtype), err_msg=name)
        elif name in QUATERNIONS:
            # up to sign, even where two principal moments are equal (any frame turned about
            # the repeated axis would do): the compiler follows MuJoCo's arithmetic
            assert quat_close(ours, theirs), name
        else:
            # MuJoCo stores colors and mesh vertices in single precision
            atol = {"geom_rgba": 1e-7, "site_rgba": 1e-7, "mat_rgba": 1e-7, "mesh_vert": 1e-6,
                    "mesh_quat": 1e-6 * max(1.0, float(np.abs(ours).max(initial=0)))}.get(
                name, FIELD_TOL * (scale if name in ("body_mass", "body_inertia", "body_subtreemass",
                                                     "dof_M0") else 1))
            if name in ("dof_invweight0", "body_invweight0", "tendon_invweight0"):   # relative (a light body's is huge)
                atol = FIELD_TOL * max(1.0, float(np.abs(theirs).max(initial=0)))
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=atol, err_msg=name)
    for prefix, objtype in NAMED.items():
        names = getattr(model, prefix + "_names")
        theirs = [mujoco.mj_id2name(m, objtype, k) or "" for k in range(len(names))]
        if prefix == "body":
            theirs[0] = "world"
        assert list(names) == theirs, prefix


def random_state(model, rng):
    """A random ``q`` (unit quaternions for ball and free joints), ``qd``, ``qdd``, and
    random applied wrenches ``xfrc (nbody, 6)`` (none on the world)."""
    q = model.qpos0 + rng.uniform(-1, 1, model.nq)
    for j in range(model.njnt):
        a = model.jnt_qposadr[j]
        if model.jnt_type[j] == rbd.model.enums.FREE:
            q[a + 3:a + 7] /= np.linalg.norm(q[a + 3:a + 7])
        elif model.jnt_type[j] == rbd.model.enums.BALL:
            q[a:a + 4] /= np.linalg.norm(q[a:a + 4])
    qd, qdd = rng.normal(size=model.nv), rng.normal(size=model.nv)
    xfrc = rng.normal(size=(model.nbody, 6))
    xfrc[0] = 0
    return q, qd, qdd, xfrc


def mujoco_dynamics(m, q, qd, qdd, xfrc, tau):
    """MuJoCo's ``M``, ``qfrc_bias``, ``M qdd + bias - J^T f`` and ``qacc`` (with constraints,
    actuation and passive forces disabled, so only the rigid-body dynamics remain)."""
    m = mujoco.MjModel.__copy__(m) if hasattr(mujoco.MjModel, "__copy__") else m
    m.opt.disableflags |= (mujoco.mjtDisableBit.mjDSBL_CONSTRAINT | mujoco.mjtDisableBit.mjDSBL_ACTUATION
                           | mujoco.mjtDisableBit.mjDSBL_SPRING | mujoco.mjtDisableBit.mjDSBL_DAMPER)
    d = mujoco.MjData(m)
    d.qpos[:], d.qvel[:] = q, qd
    mujoco.mj_forward(m, d)
    M = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, d, M)
    bias = d.qfrc_bias.copy()
    # J^T f: each body's wrenches [force, torque] (world frame) act at its center of mass
    qfrc_ext = np.zeros(m.nv)
    for b in range(1, m.nbody):
        mujoco.mj_applyFT(m, d, xfrc[b, :3].copy(), xfrc[b, 3:].copy(), d.xipos[b].copy(), b, qfrc_ext)
    tau_id = M @ qdd + bias - qfrc_ext
    d.qfrc_applied[:] = tau
    d.xfrc_applied[:] = xfrc
    mujoco.mj_forward(m, d)
    return M, bias, tau_id, d.qacc.copy()


def close(ours, theirs, tol=DYN_TOL):
    """Relative agreement: ``|ours - theirs| <= tol * max(1, |theirs|)`` (max norms)."""
    err = np.abs(np.asarray(ours) - theirs).max(initial=0.0)
    return err <= tol * max(1.0, np.abs(theirs).max(initial=0.0)), err


def compare_dynamics(model, m, seed=0, trials=3):
    """Assert ``crba``, ``bias``, ``rnea`` with ``xfrc_applied`` and ``aba`` equal MuJoCo's
    at random states."""
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        q, qd, qdd, xfrc = random_state(model, rng)
        tau = rng.normal(size=model.nv)
        M, bias, tau_id, qacc = mujoco_dynamics(m, q, qd, qdd, xfrc, tau)
        for name, ours, theirs in [
                ("crba", rbd.crba(model, q), M),
                ("bias", rbd.bias(model, q, qd), bias),
                ("rnea", rbd.rnea(model, q, qd, qdd, xfrc_applied=xfrc), tau_id),
                ("aba", rbd.aba(model, q, qd, tau, xfrc_applied=xfrc), qacc)]:
            ok, err = close(ours, theirs)
            assert ok, f"{name} differs from MuJoCo by {err:.3g}"
