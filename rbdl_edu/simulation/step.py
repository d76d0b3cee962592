r"""Time: ``step`` and ``reset`` (MuJoCo's ``mj_step``, ``mj_resetData``; book, chapter 8).

:func:`step` checks the state, runs :func:`~rbdl_edu.simulation.forward.forward`, checks the
accelerations and advances the state with ``model.opt.integrator``
(:mod:`rbdl_edu.simulation.integrators`).

A simulation that diverges is never a silent NaN: as MuJoCo's ``mj_checkPos/Vel/Acc``, a
position, velocity or acceleration that is not finite or exceeds ``MAXVAL`` resets the state
and records a :class:`Divergence` (time, quantity, dof, value) in ``data.warning`` (counted by
kind, with the first and the last record, as MuJoCo's ``mjData.warning``).

>>> import rbdl_edu as rbd
>>> model = rbd.models.pendulum(); data = rbd.Data(model)
>>> data.qpos[:] = np.pi / 2
>>> step(model, data); round(data.time, 6), data.qvel.round(6)
(0.002, array([-0.00981]))
"""
from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np

from rbdl_edu.arrays import is_jax
from rbdl_edu.model.data import Data
from rbdl_edu.model.enums import MAXVAL
from rbdl_edu.model.model import check_not_mujoco
from rbdl_edu.simulation.forward import acceleration, check_finite, compiled_half, forward, stages, switches
from rbdl_edu.simulation.integrators import integrate
from rbdl_edu.simulation.sleep import start_asleep
from rbdl_edu.smooth.actuation import actuation


class Divergence(NamedTuple):
    """A diverging simulation, as MuJoCo's ``mjWARN_BAD*``: at ``time``, ``quantity``
    (``"qpos"``, ``"qvel"`` or ``"qacc"``) at ``index`` held ``value``; the state was reset."""
    time: float
    quantity: str
    index: int
    value: float


def step(model, data, nstep=1):
    """Advance the state by ``model.opt.timestep`` (MuJoCo's ``mj_step``), ``nstep`` times:
    check the state, :func:`forward`, check the accelerations, integrate with
    ``model.opt.integrator``.

    As MuJoCo, a bad position or velocity resets the state and the step goes on from the
    reset state (``time`` ends at one ``timestep``); a bad acceleration resets the state and
    runs :func:`forward` again before integrating. Each is recorded in ``data.warning`` and
    said once per kind as a :class:`DivergenceWarning`. With ``<flag autoreset="disable"/>``
    the bad state is kept, and :func:`forward` refuses it with an error naming the field
    (MuJoCo would go on computing NaNs)."""
    check_not_mujoco(model, data)
    if isinstance(nstep, bool) or not float(nstep).is_integer() or nstep < 0:
        raise ValueError(f"nstep={nstep!r}: a whole number of steps >= 0")
    for _ in range(int(nstep)):
        check(model, data, "qpos")
        check(model, data, "qvel")
        forward(model, data)
        if not check(model, data, "qacc"):
            forward(model, data)
        integrate(model, data)


def step_after_forward(model, data):
    """:func:`step` right after :func:`forward` at the same state, with only the controls (or
    the applied forces) changed since: the position and velocity stages that forward left in
    ``data`` are not run again (MuJoCo's ``mj_step2`` after ``mj_step1``), the same numbers as
    :func:`step`. For a controller that reads the sensors at a state and then sets the
    controls, as the lab's :class:`~rbdl_edu.lab.env.MouseEnv`; the caller vouches that time,
    ``qpos``, ``qvel``, ``act`` and the mocap poses are the ones forward saw. With sleep, or an
    accelerated model (its compiled half runs the stages as one), or a state that
    :func:`check` resets, it is :func:`step`."""
    check_not_mujoco(model, data)
    if switches(model).sleep or compiled_half(model, data) is not None \
            or not (check(model, data, "qpos") and check(model, data, "qvel")):
        step(model, data)
        return
    check_finite(model, data)                   # the controls just set
    actuation(model, data)
    acceleration(model, data)
    if not check(model, data, "qacc"):
        forward(model, data)
    integrate(model, data)


def pure_step(model, qpos, qvel, act, ctrl):
    """One :func:`step` as a pure function of the state: ``(qpos, qvel, act, ctrl) -> (qpos,
    qvel, act)`` after one ``timestep``, everything else (time, applied forces, mocap poses)
    at the model's defaults, as in a fresh :class:`~rbdl_edu.model.data.Data`. The same
    stages and integrator as :func:`step`, so :func:`rbdl_edu.compiled.jit` compiles it
    (and ``batched=True`` steps a batch of states):

    >>> import rbdl_edu as rbd
    >>> from rbdl_edu import compiled
    >>> model = rbd.load_model('''<mujoco><option><flag constraint="disable"/></option><worldbody>
    ...   <body><joint axis="0 1 0"/><geom size=".1" pos="0 0 -1"/></body></worldbody></mujoco>''')
    >>> qpos, qvel, act = compiled.jit(model, pure_step)([0.3], [0.0], [], [])
    >>> bool(np.allclose(qvel, pure_step(model, [0.3], [0.0], [], [])[1], rtol=1e-12, atol=0))
    True

    Compiled, two things differ from :func:`step`, because a compiled function cannot
    branch on the values it computes: a diverging state is not reset (it runs on as NaN or
    infinity, for the caller to see), and constraints are refused (their rows come and go
    with the state): compile a model with ``<flag constraint="disable"/>``. On numbers a
    state that is not finite raises a ``ValueError`` naming the field."""
    data = Data(model)
    data.qpos, data.qvel, data.act, data.ctrl = qpos, qvel, act, ctrl
    if any(is_jax(x) for x in (data.qpos, data.qvel, data.act, data.ctrl)):
        if not model.opt.disabled("constraint"):
            raise NotImplementedError("a compiled step runs the smooth pipeline only: constraints (contacts, "
                                      "limits, equalities) are not traced; disable them with "
                                      "<flag constraint=\"disable\"/> (opt.disableflags)")
    else:
        check_finite(model, data)
    stages(model, data)
    integrate(model, data)
    return data.qpos, data.qvel, data.act


class DivergenceWarning(RuntimeWarning):
    """The simulation diverged and was reset (MuJoCo prints ``WARNING: Nan, Inf or huge value in
    QPOS at DOF 0. The simulation is unstable.``)."""


def check(model, data, quantity):
    """False (after resetting the state and recording a :class:`Divergence`) if ``data.<quantity>``
    holds a NaN or a number beyond ``MAXVAL`` (MuJoCo's ``mj_checkPos/Vel/Acc``)."""
    x = getattr(data, quantity)
    if type(x) is np.ndarray and _within(x.tolist()):     # the common case, asked first (on numbers)
        return True
    if (np.abs(x) <= MAXVAL).all():
        return True
    bad = np.flatnonzero(~(np.abs(x) <= MAXVAL))          # NaN compares False
    if not len(bad):
        return True
    k = int(bad[0])
    data.warning.record(quantity, Divergence(float(data.time), quantity, k, float(x[k])))
    autoreset = not model.opt.disabled("autoreset")
    if data.warning[quantity].number == 1:              # said once per kind, as MuJoCo prints it
        warnings.warn(f"{quantity}[{k}] = {float(x[k]):.6g} at time {data.time:.4f}: the simulation is unstable; "
                      + ("the state was reset to qpos0 (data.warning counts the resets)" if autoreset
                         else "<flag autoreset='disable'/>: the state was kept"), DivergenceWarning, stacklevel=3)
    if autoreset:
        reset(model, data, keep_warnings=True)
    return False


def _within(values):
    """True if every number of the list ``values`` is within ``±MAXVAL`` (NaN is not): a finite sum
    rules NaN and infinities out, then the extremes say the rest (an empty list: True)."""
    return not values or (math.isfinite(sum(values)) and -MAXVAL <= min(values) and max(values) <= MAXVAL)


def reset(model, data, key=None, keep_warnings=False):
    """Back to the model's initial state (MuJoCo's ``mj_resetData``), or to keyframe ``key``
    (an id or a name; ``mj_resetDataKeyframe``): time, ``qpos``, ``qvel``, ``act``, ``ctrl``,
    mocap poses; applied forces and warnings cleared."""
    check_not_mujoco(model, data)
    kept = data.warning
    fresh = Data(model)
    data.__dict__.update({k: v for k, v in fresh.__dict__.items() if k != "model"})
    if keep_warnings:
        data.warning = kept
    if key is not None:
        if data.sleep_init_pending:              # sleep="init" trees fall asleep at qpos0, as MuJoCo
            start_asleep(model, data, stages)
        k = model.id("keyframe", key) if isinstance(key, str) else int(key)
        if not 0 <= k < model.nkey:
            raise IndexError(f"keyframe {key} does not exist (the model has {model.nkey})")
        data.time = float(model.key_time[k])
        data.qpos, data.qvel = model.key_qpos[k].copy(), model.key_qvel[k].copy()
        data.act, data.ctrl = model.key_act[k].copy(), model.key_ctrl[k].copy()
        data.mocap_pos = model.key_mpos[k].reshape(-1, 3).copy()
        data.mocap_quat = model.key_mquat[k].reshape(-1, 4).copy()
