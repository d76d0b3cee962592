"""States along MuJoCo trajectories, and our tendon/actuator stages run at each of them.

Used by ``tests/test_tendon.py`` and ``tests/test_actuation.py``. The oracle is
``mujoco==4.0.0`` (a missing oracle fails the import, so the tests fail, never skip).

MuJoCo steps the model with random controls (some beyond ``ctrlrange``, to exercise the
clamping) and constraints off; at a few states along the way both sides compute the
tendon and actuator stages from the same ``qpos``, ``qvel``, ``act`` and ``ctrl``. Our
upstream stages (kinematics, com frames) are our own; the one field another stage owns
(``qfrc_gravcomp``, the passive stage's) is copied from MuJoCo.
"""
from __future__ import annotations

import copy
import os

import mujoco
import numpy as np

import rbdl_edu as rbd
from rbdl_edu.smooth.actuation import actuation, actuator_velocity, transmission
from rbdl_edu.smooth.comframe import com_pos
from rbdl_edu.kinematics import kinematics
from rbdl_edu.smooth.tendon import tendon, tendon_velocity

TOL = 1e-8                 # the tolerance for forces; lengths and Jacobians too


def load_both(source):
    """Our model and MuJoCo's from a path or XML text, constraints off in MuJoCo's."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and source.endswith(".xml")):
        m = mujoco.MjModel.from_xml_path(os.fspath(source))
    else:
        m = mujoco.MjModel.from_xml_string(source)
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    return rbd.load_model(source), m


def random_ctrl(m, rng):
    """Controls spread over 1.5 times each ``ctrlrange`` (normal ones where unlimited)."""
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    limited = np.asarray(m.actuator_ctrllimited, dtype=bool)
    return np.where(limited, mid + 1.5 * half * rng.uniform(-1, 1, m.nu), rng.normal(size=m.nu))


def mujoco_states(m, nstate=3, nskip=15, seed=0):
    """``nstate`` MjData copies along a trajectory with random controls, each after
    ``mj_forward`` at a fresh random control (so ``act`` and ``ctrl`` are independent)."""
    d = mujoco.MjData(m)
    rng = np.random.default_rng(seed)
    d.qvel[:] = 0.3 * rng.normal(size=m.nv)
    out = []
    for _ in range(nstate):
        for _ in range(nskip):
            d.ctrl[:] = random_ctrl(m, rng)
            mujoco.mj_step(m, d)
        d.ctrl[:] = random_ctrl(m, rng)
        mujoco.mj_forward(m, d)
        assert not d.warning[mujoco.mjtWarning.mjWARN_BADQACC].number, "MuJoCo diverged"
        out.append(copy.copy(d))
    return out


def ours_at(model, d):
    """Our ``Data`` at MuJoCo's state ``d``, after kinematics, com frames, tendons,
    transmission, their velocities and actuation."""
    data = rbd.Data(model)
    data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:] = d.qpos, d.qvel, d.act, d.ctrl
    data.qfrc_gravcomp = d.qfrc_gravcomp.copy()          # the passive stage's field
    kinematics(model, data)
    com_pos(model, data)
    tendon(model, data)
    transmission(model, data)
    tendon_velocity(model, data)
    actuator_velocity(model, data)
    actuation(model, data)
    return data


def dense(m, d, what):
    """MuJoCo's sparse ``ten_J`` or ``actuator_moment`` as a dense matrix."""
    if what == "ten_J":
        out = np.zeros((m.ntendon, m.nv))
        mujoco.mju_sparse2dense(out, d.ten_J, m.ten_J_rownnz, m.ten_J_rowadr, m.ten_J_colind)
    else:
        out = np.zeros((m.nu, m.nv))
        mujoco.mju_sparse2dense(out, d.actuator_moment, d.moment_rownnz, d.moment_rowadr, d.moment_colind)
    return out


def error(ours, theirs):
    """``|ours - theirs|`` relative to ``max(1, |theirs|)`` (max norms)."""
    theirs = np.asarray(theirs, dtype=float)
    return float(np.abs(np.asarray(ours) - theirs).max(initial=0.0) / max(1.0, np.abs(theirs).max(initial=0.0)))


def compare(model, m, d, fields, tol=TOL):
    """Run our stages at ``d`` and assert each of ``fields`` equals MuJoCo's; returns the
    largest relative error per field."""
    data = ours_at(model, d)
    worst = {}
    for name in fields:
        theirs = dense(m, d, name) if name in ("ten_J", "actuator_moment") else getattr(d, name)
        worst[name] = error(getattr(data, name), theirs)
        assert worst[name] <= tol, f"{name}: ours {getattr(data, name)} MuJoCo {theirs} (error {worst[name]:.3g})"
    return worst
