r"""An actuator's length range found by simulation (MuJoCo's ``mj_setLengthRange``).

A muscle's force–length curve is drawn over its **length range** :math:`[l_{min}, l_{max}]`
(:mod:`rbdl_edu.smooth.muscle`): the lengths the actuator can reach. A model file may give
it (``lengthrange``) or let the compiler find it, as MuJoCo's does after ``mj_setConst``:
push the model along the actuator, first to make it short, then long, and read off where
the length settles, against the joint limits and whatever else stops the motion.

Which actuators, and how, ``<compiler><lengthrange>`` says
(:class:`~rbdl_edu.io.mjcf_settings.LengthRangeOptions`): by ``mode`` the muscles
(default), none or all; a range given (lower < upper) is kept (``useexisting``); with
``uselimit`` a limited joint's or tendon's range is copied. Every other is simulated, each
direction :math:`s = \mp 1` from ``qpos0`` at rest, for ``inttotal`` seconds:

* the model simulates with contacts, gravity, springs, dampers, friction loss and the
  actuators switched off (and only those: limits and equalities act), at the options'
  ``timestep``, with Euler (or the implicit integrator the model names);
* before each step the velocity decays, :math:`\dot q \leftarrow e^{-h/\max(0.01,\,\tau)}\,\dot q`;
* the applied force pushes along the actuator's moment arm :math:`J` (``actuator_moment``),
  scaled so that it would accelerate the length at ``accel``:

  .. math:: f = s\,\frac{a}{\lVert M^{-1} J^T \rVert}\,J^T,
            \qquad \lVert f \rVert \le f_{max} \text{ if } f_{max} > 0;

* :math:`l_{min}` (pushing short) is the smallest length over the last ``interval``
  seconds, :math:`l_{max}` (pushing long) the largest; over that window each side must
  have moved less than ``tolrange`` times the range, or the length did not settle and the
  model is refused (a joint without a limit, say), as MuJoCo refuses it.

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><compiler angle="radian">
...     <lengthrange timestep="0.05" inttotal="3" interval="0.5"/></compiler>
...   <worldbody><body><joint name="j" range="-1 0.5"/><geom size=".1" pos=".3 0 0"/></body></worldbody>
...   <actuator><muscle joint="j"/></actuator></mujoco>''')
>>> model.actuator_lengthrange.round(4)      # the hinge's limits, pushed into (they give a little)
array([[-1.0101,  0.5101]])
"""
from __future__ import annotations

import dataclasses

import numpy as np

from rbdl_edu.io.errors import error_at
from rbdl_edu.io.mjcf_settings import LengthRangeOptions
from rbdl_edu.model.data import Data
from rbdl_edu.model.enums import BIAS_MUSCLE, GAIN_MUSCLE, MINVAL, TRN_JOINT, TRN_JOINTINPARENT, TRN_SO3, TRN_TENDON
from rbdl_edu.simulation.forward import acceleration, check_constants, forward, position, solve_M, velocity
from rbdl_edu.simulation.integrators import integrate
from rbdl_edu.simulation.step import check
from rbdl_edu.smooth.actuation import actuation

#: what the length-range simulation switches off (MuJoCo's compiler sets exactly these flags)
SWITCHED_OFF = frozenset({"frictionloss", "contact", "spring", "damper", "gravity", "actuation"})


def set_length_ranges(model, options=None):
    """``model`` with ``actuator_lengthrange`` set for every actuator ``options`` (a
    :class:`~rbdl_edu.io.mjcf_settings.LengthRangeOptions`, the defaults if not given) asks
    for: kept, copied from a limit, or simulated (:func:`length_range`). ``model`` must
    have its constants at ``qpos0`` (:func:`rbdl_edu.setconst.set_const`)."""
    options = options or LengthRangeOptions()
    ranges = np.array(model.actuator_lengthrange, dtype=float)
    for k in range(model.nactuator):
        if not needs_range(model, k, options):
            continue
        o = model.actuator_outadr[k]                  # (its one output)
        if options.useexisting and ranges[o, 0] < ranges[o, 1]:
            continue
        if model.actuator_trntype[k] == TRN_SO3:
            raise _error(model, k, "an <orientation> servo has no length range to find (three outputs, a "
                                   "rotation; MuJoCo 4.0's search does not converge on it either): use "
                                   '<lengthrange mode="muscle"> or give lengthrange')
        limit = _limit(model, k) if options.uselimit else None
        ranges[o] = limit if limit is not None else length_range(model, k, options)
    if np.array_equal(ranges, model.actuator_lengthrange):
        return model
    return dataclasses.replace(model, actuator_lengthrange=ranges)


def needs_range(model, k, options):
    """Whether actuator ``k`` gets a length range by ``options.mode``: ``all``, ``none``, or
    the muscles (``muscle``; ``muscleuser`` too, user gains being refused here)."""
    if options.mode in ("muscle", "muscleuser"):
        return model.actuator_gaintype[k] == GAIN_MUSCLE or model.actuator_biastype[k] == BIAS_MUSCLE
    return options.mode == "all"


def _limit(model, k):
    """The range of actuator ``k``'s limited joint or tendon, or None (``uselimit``)."""
    trn, i = model.actuator_trntype[k], model.actuator_trnid[k, 0]
    if trn in (TRN_JOINT, TRN_JOINTINPARENT) and model.jnt_limited[i]:
        return model.jnt_range[i]
    if trn == TRN_TENDON and model.tendon_limited[i]:
        return model.tendon_range[i]
    return None


def simulation_model(model, options):
    """The model the simulation runs: :data:`SWITCHED_OFF` disabled (and nothing else), no
    sleep, the options' ``timestep`` (if positive), RK4 replaced by Euler (MuJoCo's
    ``mj_step2`` integrates RK4 models with Euler)."""
    opt = model.opt
    return model.replace(opt=dataclasses.replace(
        opt, disableflags=SWITCHED_OFF, enableflags=opt.enableflags - {"sleep"},
        timestep=options.timestep if options.timestep > 0 else opt.timestep,
        integrator="Euler" if opt.integrator == "RK4" else opt.integrator))


def length_range(model, k, options=None):
    """``(l_min, l_max)`` of actuator ``k`` by simulation (the module docstring); a
    :class:`~rbdl_edu.io.errors.ModelError` naming the actuator if the simulation diverges,
    the range is empty or a side did not settle within ``tolrange``."""
    options = options or LengthRangeOptions()
    check_constants(model)                  # (the limits' softness needs the constants at qpos0)
    sim = simulation_model(model, options)
    lmin, lmax = np.zeros(2), np.zeros(2)
    for side in (0, 1):
        data = Data(sim)
        updated = False
        while data.time < options.inttotal:
            length = push_step(sim, data, k, side, options)
            if data.time == 0:
                raise _error(model, k, "unstable lengthrange simulation")
            if data.time > options.inttotal - options.interval:
                lmin[side] = length if not updated else min(lmin[side], length)
                lmax[side] = length if not updated else max(lmax[side], length)
                updated = True
    lo, hi = lmin[0], lmax[1]
    if not hi - lo > 0:
        raise _error(model, k, f"invalid lengthrange ({lo:.6g}, {hi:.6g}) found by simulation")
    for side in (0, 1):
        if lmax[side] - lmin[side] > options.tolrange * (hi - lo):
            raise _error(model, k, f"the lengthrange simulation did not converge: pushed "
                         f"{('short', 'long')[side]}, the length still moves over ({lmin[side]:.6g}, "
                         f"{lmax[side]:.6g}) of the range ({lo:.6g}, {hi:.6g}); give lengthrange, or a joint or "
                         "tendon range with <compiler><lengthrange uselimit=\"true\"/>")
    return lo, hi


def push_step(sim, data, k, side, options):
    """One step of the simulation pushing actuator ``k`` short (``side`` 0) or long (1):
    velocities decayed, the push as ``qfrc_applied``, the step as MuJoCo's ``mj_step1`` and
    ``mj_step2``; returns the length before the step (MuJoCo's ``evalAct``)."""
    data.qvel = data.qvel * np.exp(-sim.opt.timestep / max(0.01, options.timeconst))
    check(sim, data, "qpos")
    check(sim, data, "qvel")
    position(sim, data, sensors=False)
    velocity(sim, data, sensors=False)
    # f = s a J^T / |M^-1 J^T|, at most maxforce
    J = np.asarray(data.actuator_moment[sim.actuator_outadr[k]], dtype=float)
    f = (2 * side - 1) * options.accel / max(MINVAL, np.linalg.norm(solve_M(sim, data, J))) * J
    if options.maxforce > 0 and np.linalg.norm(f) > options.maxforce:
        f = f * options.maxforce / max(MINVAL, np.linalg.norm(f))
    data.qfrc_applied = f
    actuation(sim, data)
    acceleration(sim, data, sensors=False)
    if not check(sim, data, "qacc"):
        forward(sim, data)
    integrate(sim, data)
    return float(data.actuator_length[sim.actuator_outadr[k]])


def _error(model, k, reason):
    """A ModelError at actuator ``k``'s element (if the model came from a file)."""
    return error_at(model, "actuator", k, f"actuator {model.actuator_names[k] or k!r}: {reason}")
