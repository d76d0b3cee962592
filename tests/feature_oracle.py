"""One check for a feature written as a small model: ``forward`` and ``step`` against
``mujoco==4.0.0``, every field both compute, for each integrator.

MuJoCo runs a trajectory with random controls; at a few states along it our ``Data`` takes
MuJoCo's state (``qpos``, ``qvel``, ``act``, ``ctrl``, ``time``, the warm start), both run
``forward`` and every field in :data:`FIELDS` must agree (1e-8 relative to values above 1);
then both ``step`` once from that state and the same fields must agree again."""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.io import ModelError

INTEGRATORS = {"Euler": mujoco.mjtIntegrator.mjINT_EULER, "RK4": mujoco.mjtIntegrator.mjINT_RK4,
               "implicitfast": mujoco.mjtIntegrator.mjINT_IMPLICITFAST}
#: every integrator :func:`both` can set ("implicit" too, checked where a feature asks for it)
ALL_INTEGRATORS = {**INTEGRATORS, "implicit": mujoco.mjtIntegrator.mjINT_IMPLICIT}
FIELDS = ("qacc", "qacc_smooth", "qfrc_bias", "qfrc_passive", "qfrc_actuator", "qfrc_smooth",
          "actuator_force", "actuator_length", "actuator_velocity", "act_dot", "xpos", "xquat", "xipos",
          "geom_xpos", "site_xpos", "subtree_com", "cdof", "cvel", "ten_length", "ten_velocity", "qM",
          "sensordata", "energy", "qpos", "qvel", "act")


def both(xml, integrator):
    """MuJoCo's model and data and ours from ``xml``, with ``integrator``."""
    m = mujoco.MjModel.from_xml_string(xml)
    m.opt.integrator = ALL_INTEGRATORS[integrator]
    model = rbd.load_model(xml)
    return m, mujoco.MjData(m), model.replace(opt=dataclasses.replace(model.opt, integrator=integrator))


def _theirs(m, d, name):
    if name == "qM":
        M = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, M)
        return M
    return getattr(d, name)


def differing(model, data, m, d, fields=FIELDS, tol=1e-8):
    """The names of the fields in which ``data`` and MuJoCo's ``d`` differ."""
    wrong = []
    for name in fields:
        ours = np.asarray(getattr(data, name), float)
        theirs = np.asarray(_theirs(m, d, name), float).reshape(ours.shape)
        if name == "xquat":                          # a quaternion and its negative are one rotation
            theirs = theirs * np.where(np.sum(ours * theirs, axis=-1, keepdims=True) < 0, -1, 1)
        scale = max(1.0, float(np.abs(theirs).max(initial=0)))
        if not float(np.abs(ours - theirs).max(initial=0)) <= tol * scale:
            wrong.append(f"{name}: ours {ours.ravel()[:8]} MuJoCo {theirs.ravel()[:8]}")
    return wrong


def check(xml, integrator, nstate=3, nskip=20, seed=0, ctrl=None, fields=FIELDS, qvel=0.3):
    """Compare ``forward`` and one ``step`` at ``nstate`` states of a MuJoCo trajectory;
    ``ctrl(rng, m)`` draws the controls (default: uniform over 1.5 times [-1, 1])."""
    m, d, model = both(xml, integrator)
    data = rbd.Data(model)
    rng = np.random.default_rng(seed)
    draw = ctrl or (lambda rng, m: rng.uniform(-1.5, 1.5, m.nu))
    d.qvel[:] = qvel * rng.normal(size=m.nv)
    for k in range(nstate):
        for _ in range(nskip):
            d.ctrl[:] = draw(rng, m)
            mujoco.mj_step(m, d)
        d.ctrl[:] = draw(rng, m)
        data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:] = d.qpos, d.qvel, d.act, d.ctrl
        data.time, data.qacc_warmstart[:] = d.time, d.qacc_warmstart
        mujoco.mj_forward(m, d)
        rbd.forward(model, data)
        wrong = differing(model, data, m, d, fields)
        assert not wrong, f"{integrator}, state {k}, forward: " + "; ".join(wrong)
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        wrong = differing(model, data, m, d, fields)
        assert not wrong, f"{integrator}, state {k}, step: " + "; ".join(wrong)
    return m, d, model, data


def compiled_fields_agree(xml, names, tol=1e-12):
    """Both engines compile ``xml``; each model field in ``names`` agrees (as floats) to ``tol``.
    Returns ``(model, m)``."""
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    for name in names:
        np.testing.assert_allclose(np.asarray(getattr(model, name), float), np.asarray(getattr(m, name), float),
                                   rtol=tol, atol=tol, err_msg=name)
    return model, m


def refused_as_mujoco(xml, message):
    """MuJoCo refuses ``xml`` and so does rbdl_edu, with a ``ModelError`` matching ``message``."""
    with pytest.raises(ValueError):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match=message):
        rbd.load_model(xml)
