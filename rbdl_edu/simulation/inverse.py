r"""Inverse dynamics with constraints (MuJoCo's ``mj_inverse``; book, chapters 8 and 10).

>>> import rbdl_edu as rbd
>>> model = rbd.models.pendulum(); data = rbd.Data(model)
>>> data.qpos[:] = np.pi / 2
>>> rbd.forward(model, data)
>>> inverse(model, data); data.qfrc_inverse.round(12)     # no force holds it: it falls freely
array([0.])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.constraint.cost import update
from rbdl_edu.model.model import check_not_mujoco
from rbdl_edu.simulation.forward import check_constants, check_finite, position, velocity
from rbdl_edu.simulation.integrators import implicit_matrix
from rbdl_edu.simulation.sensors import sensor_acc


def inverse(model, data):
    r"""The force that produces ``data.qacc`` at the current state (MuJoCo's ``mj_inverse``):

    .. math:: f_{inverse} = M\ddot q + c(q, \dot q) - f_{passive} - J^T f(\ddot q)

    (``qfrc_inverse (nv,)``), where the constraint forces follow from :math:`\ddot q` itself:
    soft constraints give each row the force :math:`f = -\partial s/\partial x` at its residual
    :math:`x = J\ddot q - a_{ref}` (:func:`~rbdl_edu.constraint.cost.update`), so the inverse is defined
    even with contacts. After :func:`forward`, ``qfrc_inverse`` is what was applied:
    ``qfrc_applied + qfrc_actuator + J^T xfrc_applied`` (to the solver's tolerance). Runs the
    position and velocity stages (and their sensors), not the actuation; then the acceleration
    sensors. With ``<flag invdiscrete="enable"/>`` ``qacc`` is taken as the integrator's
    (:func:`discrete_acc`).
    """
    check_not_mujoco(model, data)
    check_constants(model)
    check_finite(model, data)
    position(model, data)
    velocity(model, data)
    qacc = data.qacc
    if model.opt.enabled("invdiscrete"):
        data.qacc = discrete_acc(model, data)
    update(model, data, data.efc_J @ data.qacc - data.efc_aref)
    data.qfrc_inverse = data.qM @ data.qacc + data.qfrc_bias - data.qfrc_passive - data.qfrc_constraint
    sensor_acc(model, data)
    data.qacc = qacc



def discrete_acc(model, data):
    r"""The acceleration :func:`~rbdl_edu.simulation.forward.forward` would have returned for
    the velocity change ``h * qacc`` that the integrator makes (MuJoCo's ``mj_discreteAcc``):
    the integrator solves :math:`H\ddot q = f` with its own matrix :math:`H`
    (:func:`~rbdl_edu.simulation.integrators.implicit_matrix`: :math:`M + hB` for Euler's
    implicit damping, :math:`M - hD` for implicitfast and implicit), so forward's
    acceleration is :math:`M^{-1} H \ddot q`."""
    if model.opt.integrator not in ("Euler", "implicitfast", "implicit"):
        raise NotImplementedError(f"invdiscrete with the {model.opt.integrator} integrator (MuJoCo refuses RK4)")
    H = implicit_matrix(model, data)
    if H is None:
        return data.qacc
    return np.linalg.solve(data.qM, H @ data.qacc)
