r"""Time: ``step`` and ``reset`` (MuJoCo's ``mj_step``, ``mj_resetData``; book, chapter 8).

:func:`step` checks the state, runs :func:`~rbdl_edu.simulation.forward.forward`, checks the
accelerations and advances the state with ``model.opt.integrator``
(:mod:`rbdl_edu.simulation.integrators`).

A simulation that diverges is never a silent NaN: as MuJoCo's ``mj_checkPos/Vel/Acc``, a
position, velocity or acceleration that is not finite or exceeds ``MAXVAL`` resets the state
and records a :class:`Divergence` (time, quantity, dof, value) in ``data.warning``.

>>> import rbdl_edu as rbd
>>> model = rbd.models.pendulum(); data = rbd.Data(model)
>>> data.qpos[:] = np.pi / 2
>>> step(model, data); round(data.time, 6), data.qvel.round(6)
(0.002, array([-0.00981]))
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rbdl_edu.model.data import Data
from rbdl_edu.model.enums import MAXVAL
from rbdl_edu.simulation.forward import forward
from rbdl_edu.simulation.integrators import integrate


class Divergence(NamedTuple):
    """A diverging simulation, as MuJoCo's ``mjWARN_BAD*``: at ``time``, ``quantity``
    (``"qpos"``, ``"qvel"`` or ``"qacc"``) at ``index`` held ``value``; the state was reset."""
    time: float
    quantity: str
    index: int
    value: float


def step(model, data):
    """Advance the state by ``model.opt.timestep`` (MuJoCo's ``mj_step``): check the state,
    :func:`forward`, check the accelerations, integrate with ``model.opt.integrator``."""
    if not check(model, data, "qpos") or not check(model, data, "qvel"):
        return
    forward(model, data)
    if not check(model, data, "qacc"):
        forward(model, data)
        return
    integrate(model, data)


def check(model, data, quantity):
    """False (after resetting the state and recording a :class:`Divergence`) if ``data.<quantity>``
    holds a NaN or a number beyond ``MAXVAL`` (MuJoCo's ``mj_checkPos/Vel/Acc``)."""
    x = getattr(data, quantity)
    bad = np.flatnonzero(~(np.abs(x) <= MAXVAL))          # NaN compares False
    if not len(bad):
        return True
    k = int(bad[0])
    data.warning.append(Divergence(float(data.time), quantity, k, float(x[k])))
    if not model.opt.disabled("autoreset"):
        reset(model, data, keep_warnings=True)
    return False


def reset(model, data, key=None, keep_warnings=False):
    """Back to the model's initial state (MuJoCo's ``mj_resetData``), or to keyframe ``key``
    (an id or a name; ``mj_resetDataKeyframe``): time, ``qpos``, ``qvel``, ``act``, ``ctrl``,
    mocap poses; applied forces and warnings cleared."""
    warnings = list(data.warning) if keep_warnings else []
    fresh = Data(model)
    data.__dict__.update({k: v for k, v in fresh.__dict__.items() if k != "model"})
    data.warning = warnings
    if key is not None:
        k = model.id("keyframe", key) if isinstance(key, str) else int(key)
        if not 0 <= k < model.nkey:
            raise IndexError(f"keyframe {key} does not exist (the model has {model.nkey})")
        data.time = float(model.key_time[k])
        data.qpos, data.qvel = model.key_qpos[k].copy(), model.key_qvel[k].copy()
        data.act, data.ctrl = model.key_act[k].copy(), model.key_ctrl[k].copy()
        data.mocap_pos = model.key_mpos[k].reshape(-1, 3).copy()
        data.mocap_quat = model.key_mquat[k].reshape(-1, 4).copy()
