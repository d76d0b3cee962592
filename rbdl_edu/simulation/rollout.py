"""Simulating many steps at once for a notebook: :func:`rollout` returns the trajectory as
arrays (and shows a progress bar on long runs).

>>> import rbdl_edu as rbd
>>> model = rbd.models.pendulum(); data = rbd.Data(model); data.qpos[:] = 1.0
>>> traj = rollout(model, data, 500)
>>> traj.qpos.shape, round(float(traj.time[-1]), 6)
((501, 1), 1.0)
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from tqdm.auto import tqdm

from rbdl_edu.model.warning_log import WarningLog
from rbdl_edu.simulation.forward import forward
from rbdl_edu.simulation.step import step

PROGRESS_STEPS = 2000          # runs at least this long show a progress bar by default


class Trajectory(NamedTuple):
    """A simulated trajectory: the state and the sensors at the start and after each step,
    ``time (n+1,)``, ``qpos (n+1, nq)``, ``qvel (n+1, nv)``, ``act (n+1, na)``,
    ``sensordata (n+1, nsensordata)``, and the controls used by each step, ``ctrl (n, nu)``.
    ``warning`` counts what went wrong on the way (a :class:`~rbdl_edu.model.warning_log.WarningLog`:
    ``traj.warning["qacc"].number``, ``.first``, ``.last``; also added to ``data.warning``)."""
    time: np.ndarray
    qpos: np.ndarray
    qvel: np.ndarray
    act: np.ndarray
    sensordata: np.ndarray
    ctrl: np.ndarray
    warning: WarningLog


def rollout(model, data, nstep, control=None, progress=None):
    """Step ``nstep`` times from the state in ``data`` (which ends at the last state) and
    return the :class:`Trajectory`.

    Parameters
    ----------
    model, data : the model and its data (the start state: ``time``, ``qpos``, ``qvel``,
        ``act``, ``ctrl``, applied forces).
    nstep : int
    control : None (keep ``data.ctrl``), an array ``(nstep, nu)`` (one row per step), or a
        function ``control(model, data) -> ctrl (nu,)`` called before each step (a controller).
    progress : bool, optional
        Show a ``tqdm`` progress bar; by default for runs of ``PROGRESS_STEPS`` steps or more.
    """
    nstep = int(nstep)
    if not callable(control) and control is not None:
        control = np.asarray(control, dtype=float)
        if control.shape != (nstep, model.nu):
            raise ValueError(f"control has shape {control.shape}; expected (nstep, nu) = ({nstep}, {model.nu})")
    rows = {k: [] for k in ("time", "qpos", "qvel", "act", "sensordata")}
    ctrl = np.zeros((nstep, model.nu))
    before, data.warning = data.warning, WarningLog()       # this run's warnings, said once per kind

    def record(*names):
        for k in names:
            rows[k].append(np.array(getattr(data, k), dtype=float))

    steps = range(nstep)
    if progress or (progress is None and nstep >= PROGRESS_STEPS):
        steps = tqdm(steps, desc="simulating", unit="step")
    try:
        _run(model, data, steps, control, ctrl, record)
    finally:
        during, data.warning = data.warning, before
        before.merge(during)
    forward(model, data)
    record(*rows)
    return Trajectory(*(np.array(rows[k]) for k in ("time", "qpos", "qvel", "act", "sensordata")), ctrl, during)


def _run(model, data, steps, control, ctrl, record):
    """The steps of :func:`rollout`: controls in, state before, sensors after each step."""
    for k in steps:
        if callable(control):
            data.ctrl = np.asarray(control(model, data), dtype=float)
        elif control is not None:
            data.ctrl = control[k].copy()
        ctrl[k] = data.ctrl
        record("time", "qpos", "qvel", "act")
        step(model, data)                # its forward computes the sensors of the state it starts from
        record("sensordata")
