"""Compare rbdl_edu's constraint rows, forces and accelerations with MuJoCo 4.0's at the
same state (``tests/test_constraint.py``, ``tests/test_solver.py``).

Both engines get the same model file; the state (``qpos``, ``qvel``, ``act``, ``ctrl``,
``qacc_warmstart``, ``eq_active``) is copied from a MuJoCo ``MjData``. Optima are compared
at a tight solver tolerance (1e-12, up to 1000 iterations) in both, so that what is
compared is the unique minimum, not where each solver happened to stop.
"""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np

import rbdl_edu as rbd

ROW_TOL = 1e-9            # the rows (Jacobian, positions, softness, reference), relative
FORCE_TOL = 1e-6          # qacc, efc_force per row type, qfrc_constraint, relative
TIGHT = dict(tolerance=1e-12, iterations=1000)
ROW_FIELDS = ("efc_J", "efc_pos", "efc_margin", "efc_frictionloss", "efc_diagA", "efc_R", "efc_D",
              "efc_KBIP", "efc_aref", "efc_b")


def both(xml, tight=True, island=True, **option):
    """``(m, model)``: MuJoCo's and our model of ``xml`` (text or path), with the solver options
    ``option`` (``solver="CG"``, ...), :data:`TIGHT` tolerances if ``tight``, and islands
    switched off in both if not ``island``."""
    m = mujoco.MjModel.from_xml_path(str(xml)) if not str(xml).lstrip().startswith("<") \
        else mujoco.MjModel.from_xml_string(xml)
    model = rbd.load_model(xml)
    opt = dict(TIGHT) if tight else {}
    opt.update(option)
    flags = set(model.opt.disableflags) | (set() if island else {"island"})
    model = model.replace(opt=dataclasses.replace(model.opt, disableflags=frozenset(flags), **opt))
    for key, value in opt.items():
        setattr(m.opt, key, {"solver": {"PGS": 0, "CG": 1, "Newton": 2},
                             "cone": {"pyramidal": 0, "elliptic": 1}}.get(key, {}).get(value, value))
    if not island:
        m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_ISLAND
    return m, model


def copy_state(d, data):
    """``data`` (ours) at MuJoCo's state ``d``."""
    data.time = d.time
    data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:] = d.qpos, d.qvel, d.act, d.ctrl
    data.qacc_warmstart[:] = d.qacc_warmstart
    data.qfrc_applied[:], data.xfrc_applied[:] = d.qfrc_applied, d.xfrc_applied
    data.eq_active[:] = d.eq_active.astype(bool)
    data.mocap_pos[:], data.mocap_quat[:] = d.mocap_pos, d.mocap_quat


def efc_J(m, d):
    """MuJoCo's constraint Jacobian as a dense ``(nefc, nv)`` array (sparse or dense storage)."""
    if not mujoco.mj_isSparse(m):
        return d.efc_J.reshape(d.nefc, m.nv).copy()
    J = np.zeros((d.nefc, m.nv))
    for i in range(d.nefc):
        a, n = d.efc_J_rowadr[i], d.efc_J_rownnz[i]
        J[i, d.efc_J_colind[a:a + n]] = d.efc_J[a:a + n]
    return J


def relerr(ours, theirs):
    """``max |ours - theirs| / max(1, max |theirs|)``."""
    theirs = np.asarray(theirs, float)
    return float(np.abs(np.asarray(ours, float) - theirs).max(initial=0.0) / max(1.0, np.abs(theirs).max(initial=0.0)))


def forward_both(m, d, model, data=None):
    """Run ``mj_forward`` and our :func:`rbd.forward` at MuJoCo's state; returns our data."""
    data = rbd.Data(model) if data is None else data
    copy_state(d, data)
    mujoco.mj_forward(m, d)
    rbd.forward(model, data)
    return data


def check(m, d, model, data, states=False, what=""):
    """Assert that our contacts, rows, forces and accelerations equal MuJoCo's (module
    docstring; ``states``: ``efc_state`` too, which MuJoCo leaves stale when it solves by
    islands: call :func:`both` with ``island=False``). Returns the largest errors."""
    assert data.ncon == d.ncon, f"{what}: ncon {data.ncon} != {d.ncon}"
    for k, con in enumerate(data.contact):
        assert (con.geom1, con.geom2) == tuple(d.contact.geom[k]), f"{what}: contact {k}"
    counts = (data.ne, data.nf, data.nl, data.nefc)
    assert counts == (d.ne, d.nf, d.nl, d.nefc), f"{what}: ne, nf, nl, nefc {counts}"
    np.testing.assert_array_equal(data.efc_type, d.efc_type, err_msg=what)
    np.testing.assert_array_equal(data.efc_id, d.efc_id, err_msg=what)
    errors = {}
    theirs = dict(efc_J=efc_J(m, d), efc_KBIP=d.efc_KBIP.reshape(-1, 4))
    for name in ROW_FIELDS:
        errors[name] = relerr(getattr(data, name), theirs.get(name, getattr(d, name)))
        assert errors[name] <= ROW_TOL, f"{what}: {name} differs by {errors[name]:.3g}"
    for kind in set(d.efc_type.tolist()):
        rows = d.efc_type == kind
        errors[f"efc_force[{kind}]"] = err = relerr(data.efc_force[rows], d.efc_force[rows])
        assert err <= FORCE_TOL, f"{what}: efc_force of rows of type {kind} differs by {err:.3g}"
    for name in ("qacc", "qfrc_constraint"):
        errors[name] = relerr(getattr(data, name), getattr(d, name))
        assert errors[name] <= FORCE_TOL, f"{what}: {name} differs by {errors[name]:.3g}"
    if states:
        np.testing.assert_array_equal(data.efc_state, d.efc_state, err_msg=what)
    return errors


def trajectory_states(m, nstep, every, rng, qvel_scale=0.0, ctrl=True):
    """Yield MuJoCo ``MjData`` states along a trajectory of ``nstep`` steps at ``m``'s own
    settings (random controls, an initial random velocity), one every ``every`` steps."""
    d = mujoco.MjData(m)
    d.qvel[:] = qvel_scale * rng.normal(size=m.nv)
    for k in range(nstep):
        if ctrl:
            d.ctrl[:] = rng.uniform(-1, 1, m.nu)
        mujoco.mj_step(m, d)
        if k % every == every - 1:
            yield d
