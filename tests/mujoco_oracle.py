"""Compare a model compiled by rbdl_edu with the one MuJoCo compiles from the same file.

Used by ``tests/test_mjcf.py``. The oracle is ``mujoco==4.0.0``; if it is missing the
import fails and so do the tests (a cross-check without its oracle must not pass).
"""
from __future__ import annotations

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


def compare_fields(model, m):
    """Assert that the compiled fields of ``model`` (ours) equal MuJoCo's ``m``."""
    assert (model.nq, model.nv, model.nbody, model.njnt) == (m.nq, m.nv, m.nbody, m.njnt)
    assert model.ngeom == m.ngeom and model.nsite == m.nsite
    # the world's parent: -1 here (DESIGN.md), 0 in MuJoCo
    np.testing.assert_array_equal(model.body_parentid[1:], m.body_parentid[1:], err_msg="body_parentid")
    ints = ["body_jntnum", "body_jntadr", "body_dofnum", "body_dofadr",
            "body_weldid", "body_rootid", "jnt_type", "jnt_bodyid", "jnt_qposadr", "jnt_dofadr",
            "dof_bodyid", "dof_jntid", "dof_parentid", "geom_type", "geom_bodyid",
            "geom_contype", "geom_conaffinity", "geom_condim", "geom_priority", "geom_dataid",
            "site_bodyid"]
    for name in ints:
        np.testing.assert_array_equal(getattr(model, name), getattr(m, name), err_msg=name)
    np.testing.assert_array_equal(model.jnt_limited, m.jnt_limited.astype(bool), err_msg="jnt_limited")
    scale = max(1.0, float(np.abs(m.body_inertia).max()), float(m.body_mass.max()))
    for name in ["body_mass", "body_inertia"]:
        np.testing.assert_allclose(getattr(model, name), getattr(m, name), rtol=0,
                                   atol=FIELD_TOL * scale, err_msg=name)
    for name in ["body_pos", "body_ipos", "jnt_axis", "jnt_pos", "jnt_range", "jnt_stiffness",
                 "qpos0", "qpos_spring", "dof_armature", "dof_damping", "dof_frictionloss",
                 "geom_size", "geom_pos", "geom_friction", "geom_solref", "geom_solimp",
                 "geom_margin", "geom_gap", "site_pos", "site_size"]:
        np.testing.assert_allclose(getattr(model, name), getattr(m, name), rtol=0,
                                   atol=FIELD_TOL, err_msg=name)
    # MuJoCo stores colors in single precision
    np.testing.assert_allclose(model.geom_rgba, m.geom_rgba, rtol=0, atol=1e-7, err_msg="geom_rgba")
    for name in ["body_quat", "geom_quat", "site_quat"]:
        assert quat_close(getattr(model, name), getattr(m, name)), name
    # principal axes up to sign, even where two principal moments are equal (any frame
    # turned about the repeated axis would do): the compiler follows MuJoCo's arithmetic
    assert quat_close(model.body_iquat, m.body_iquat), "body_iquat"


def random_state(model, rng):
    """A random ``q`` (unit quaternions for ball and free joints), ``qd``, ``qdd``, and
    random applied wrenches ``xfrc (nbody, 6)`` (none on the world)."""
    q = model.qpos0 + rng.uniform(-1, 1, model.nq)
    for j in range(model.njnt):
        a = model.jnt_qposadr[j]
        if model.jnt_type[j] == rbd.model.FREE:
            q[a + 3:a + 7] /= np.linalg.norm(q[a + 3:a + 7])
        elif model.jnt_type[j] == rbd.model.BALL:
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


def _enum(enum_type, value):
    """``mujoco.mjtTrn.mjTRN_JOINT`` -> ``"joint"``."""
    return enum_type(int(value)).name.split("_", 1)[1].lower()


def compare_extras(model, m):
    """Actuators, sensors, contact pairs/excludes, equalities, fixed tendons and keyframes
    (the records in ``model.extras``) against MuJoCo's arrays."""
    ex = model.extras
    A = ex["actuators"]
    assert ex["nu"] == m.nu == len(A)
    for i, a in enumerate(A):
        assert a.trntype == _enum(mujoco.mjtTrn, m.actuator_trntype[i]), i
        assert tuple(a.trnid) == tuple(m.actuator_trnid[i]), i
        assert a.cranklength == m.actuator_cranklength[i], i
        assert a.dyntype == _enum(mujoco.mjtDyn, m.actuator_dyntype[i])
        assert a.gaintype == _enum(mujoco.mjtGain, m.actuator_gaintype[i])
        assert a.biastype == _enum(mujoco.mjtBias, m.actuator_biastype[i])
        for name in ("gear", "ctrlrange", "forcerange", "actrange", "gainprm", "biasprm", "dynprm"):
            np.testing.assert_allclose(getattr(a, name), getattr(m, "actuator_" + name)[i], atol=FIELD_TOL,
                                       err_msg=f"actuator {i} {name}")
        for name in ("ctrllimited", "forcelimited", "actlimited"):
            assert getattr(a, name) == bool(getattr(m, "actuator_" + name)[i]), (i, name)
    S = ex["sensors"]
    assert len(S) == m.nsensor
    for i, s in enumerate(S):
        mj_name = {"jointactuatorfrc": "jointactfrc", "tendonactuatorfrc": "tendonactfrc"}.get(s.type, s.type)
        assert mj_name == _enum(mujoco.mjtSensor, m.sensor_type[i]), (i, s.type)
        assert s.objid == m.sensor_objid[i] and s.noise == m.sensor_noise[i], i
    P = ex["pairs"]
    assert len(P) == m.npair
    for i, p in enumerate(P):
        assert (p.geom1, p.geom2, p.condim) == (m.pair_geom1[i], m.pair_geom2[i], m.pair_dim[i])
        for name in ("friction", "solref", "solimp", "margin", "gap"):
            np.testing.assert_allclose(getattr(p, name), getattr(m, "pair_" + name)[i], atol=FIELD_TOL,
                                       err_msg=f"pair {i} {name}")
    assert [(e.body1 << 16) + e.body2 for e in ex["excludes"]] == list(m.exclude_signature)
    E = ex["equalities"]
    assert len(E) == m.neq
    for i, e in enumerate(E):
        assert e.type == _enum(mujoco.mjtEq, m.eq_type[i])
        assert (e.obj1, e.obj2, e.active) == (m.eq_obj1id[i], m.eq_obj2id[i], bool(m.eq_active0[i]))
        np.testing.assert_allclose(e.solref, m.eq_solref[i], atol=FIELD_TOL)
        np.testing.assert_allclose(e.solimp, m.eq_solimp[i], atol=FIELD_TOL)
        if e.type in ("joint", "tendon"):
            np.testing.assert_allclose(e.data, m.eq_data[i, :5], atol=FIELD_TOL)
    T = ex["tendons"]
    assert len(T) == m.ntendon
    for i, t in enumerate(T):
        adr, num = m.tendon_adr[i], m.tendon_num[i]
        if hasattr(t, "joints"):                      # fixed: joints and coefficients
            assert num == len(t.joints)
            assert list(t.joints) == list(m.wrap_objid[adr:adr + num])
            np.testing.assert_allclose(t.coefs, m.wrap_prm[adr:adr + num], atol=FIELD_TOL)
        else:                                         # spatial: the wrap path
            assert num == len(t.path)
            assert [p[0] for p in t.path] == [_enum(mujoco.mjtWrap, w) for w in m.wrap_type[adr:adr + num]]
            assert [p[1] for p in t.path] == list(m.wrap_objid[adr:adr + num])
            np.testing.assert_allclose([p[2] for p in t.path], m.wrap_prm[adr:adr + num], atol=FIELD_TOL)
        assert t.limited == bool(m.tendon_limited[i])
        np.testing.assert_allclose(t.range, m.tendon_range[i], atol=FIELD_TOL)
        np.testing.assert_allclose([t.stiffness, t.damping, t.frictionloss],
                                   [m.tendon_stiffness[i], m.tendon_damping[i], m.tendon_frictionloss[i]])
    K = ex["keyframes"]
    assert len(K) == m.nkey
    for i, k in enumerate(K):
        for name in ("qpos", "qvel", "ctrl", "act"):
            np.testing.assert_allclose(getattr(k, name), getattr(m, "key_" + name)[i], atol=FIELD_TOL)
        assert k.time == m.key_time[i]
