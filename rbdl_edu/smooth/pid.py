r"""MuJoCo 4.0's PID servo (``<pid>``; ``gaintype="pid"``, ``biastype="affine"``, ``dyntype``
``"pid"`` when it keeps states): one actuator with up to three controls, a position
setpoint :math:`q_{ref}`, a velocity setpoint :math:`v_{ref}` and a feedforward force
:math:`f_{ff}` (``input``, any of ``pos vel ff`` in this order; an input not taken is 0):

.. math:: f = k_p (q_{ref} - l) + k_v (v_{ref} - \dot l) + k_i z + f_{ff}

with :math:`l, \dot l` the actuator's length and velocity. :math:`k_p` and :math:`k_v` live
only in the affine bias, ``biasprm = (0, -kp, -kv)``: the bias gives
:math:`-k_p l - k_v \dot l`, the controls :math:`-b_1 q_{ref} - b_2 v_{ref} + f_{ff}`.

Two optional states in ``act`` (MuJoCo's slot order):

* **slew limit** (``slewmax`` :math:`s` = ``dynprm[1]`` > 0): the setpoint actually used is
  the last one moved at most :math:`s h` towards :math:`q_{ref}` (its state is that last
  setpoint, its rate the move over :math:`h`);
* **integral** (``ki`` = ``gainprm[0]`` > 0): :math:`\dot z = q_{ref} - l`, which stops
  growing beyond ``imax`` = ``dynprm[0]`` (anti-windup; 0: no bound).

On an angle that wraps (a ball joint, a site with a rotational gear: the period :math:`P` of
:func:`~rbdl_edu.smooth.transmission.wrap_period`) the setpoint is taken the short way round
and the integral's error too.

Reference: MuJoCo's XML reference, ``actuator/pid``; ``engine_forward.c``
(``mj_fwdActuation``, ``mjDYN_PID``, ``mjGAIN_PID``).

>>> biasprm, gainprm, dynprm = (0.0, -10.0, -1.0), (0.0,) * 10, (0.0,) * 10
>>> float(input_force(gainprm, biasprm, 3, [0.5, 2.0], 0.5, None))     # kp qref + kv vref
7.0
"""
from __future__ import annotations

from rbdl_edu.arrays import namespace
from rbdl_edu.model.enums import INPUT_FF, INPUT_POS, INPUT_VEL

__all__ = ["slots", "setpoints", "slewed", "rates", "input_force"]


def slots(dynprm, gainprm):
    """The PID's states and their offsets in its block of ``act``: slew, integral."""
    names = [n for n, on in (("slew", dynprm[1] > 0), ("integral", gainprm[0] > 0)) if on]
    return {name: k for k, name in enumerate(names)}


def setpoints(spec, u):
    """``(q_ref, v_ref, f_ff)`` of the controls ``u`` (the inputs ``spec`` lists, in order)."""
    out, k = [], 0
    for bit in (INPUT_POS, INPUT_VEL, INPUT_FF):
        out.append(u[k] if spec & bit else 0.0)
        k += bool(spec & bit)
    return tuple(out)


def _wrap(u, length, period):
    r"""``u`` moved by a multiple of ``period`` to within half a period of ``length``."""
    if period <= 0:
        return u
    x = (u - length) / period
    xp = namespace(x)
    return u - period * xp.sign(x) * xp.floor(xp.abs(x) + 0.5)


def slewed(dynprm, gainprm, q_ref, state, h, period=0.0):
    r"""``(q, rate)``: the position setpoint after the slew limit, :math:`q_{ref}` (taken
    nearest the last setpoint :math:`q^-` on a wrapping angle) clamped to
    :math:`q^- \pm s h`, and the slew state's rate :math:`(q - q^-)/h`; ``q_ref`` and 0
    without a slew limit (MuJoCo's ``slewLimit``)."""
    s = slots(dynprm, gainprm)
    if "slew" not in s:
        return q_ref, 0.0
    prev, step = state[s["slew"]], dynprm[1] * h
    q = _wrap(q_ref, prev, period)
    q = namespace(q).clip(q, prev - step, prev + step)
    return q, (q - prev) / h


def rates(gainprm, dynprm, q_ref, length, state, h, period=0.0):
    r"""The rates of the PID's states (list, slot order): the slew state's, and the integral's
    :math:`q - l` (on a wrapping angle the error the short way round), held at 0 in the
    direction that would take :math:`|z|` beyond ``imax``."""
    s = slots(dynprm, gainprm)
    out = [0.0] * len(s)
    q, slew_rate = slewed(dynprm, gainprm, q_ref, state, h, period)
    if "slew" in s:
        out[s["slew"]] = slew_rate
    if "integral" in s:
        err = q - length
        err = _wrap(err, 0.0, period)
        z, imax = state[s["integral"]], dynprm[0]
        if imax > 0:
            xp = namespace(z, err)
            err = xp.where(z >= imax, xp.minimum(err, 0.0), xp.where(z <= -imax, xp.maximum(err, 0.0), err))
        out[s["integral"]] = err
    return out


def input_force(gainprm, biasprm, spec, u, length, z, period=0.0):
    r"""The force of the controls (the bias adds :math:`-k_p l - k_v \dot l`):
    :math:`-b_1 q_{ref} - b_2 v_{ref} + f_{ff} + k_i z`, with :math:`q_{ref}` the slew-limited
    setpoint (``u[0]`` already replaced), taken nearest the length :math:`l` on a wrapping
    angle; ``z`` the integral (``None`` without one)."""
    q_ref, v_ref, ff = setpoints(spec, u)
    q_ref = _wrap(q_ref, length, period)
    f = -biasprm[1] * q_ref - biasprm[2] * v_ref + ff
    return f + gainprm[0] * z if z is not None else f
