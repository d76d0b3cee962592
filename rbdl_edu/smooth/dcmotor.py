r"""MuJoCo 4.0's DC motor (``<dcmotor>``; ``dyn/gain/biastype="dcmotor"``): a voltage drives
a current through the winding, the current makes a torque, the turning rotor a back-EMF.

With resistance :math:`R`, motor constant :math:`K` (torque per ampere = volts per rad/s),
terminal voltage :math:`V` (the control) and rotor speed :math:`\omega = \dot l` (the
actuator's velocity), the winding is :math:`L\,\dot\imath = V - R\,i - K\omega` and the
torque :math:`f = K i`:

* without inductance the current is algebraic, :math:`i = (V - K\omega)/R`, so
  :math:`f = \tfrac{K}{R} V - \tfrac{K^2}{R}\omega` (``gain`` :math:`K/R`, ``bias`` the
  back-EMF term);
* with an electrical time constant :math:`t_e = L/R` the current is a state,
  :math:`\dot\imath = (V/R - K\omega/R - i)/t_e`, integrated exactly over a step (as a
  ``filterexact``), and :math:`f = K\,i` with the current *after* the step (``actearly``).

Three optional effects, each with its own state in ``act`` (slot order: temperature,
bristle, current):

* **thermal**: the winding warms, :math:`\dot T = (R i^2 - T/R_T)/C` (:math:`T` above
  ambient :math:`T_a`), and the resistance grows, :math:`R(1 + \alpha(T + T_a - T_0))`;
* **cogging**: :math:`A \sin(N l + \phi)` added to the force;
* **LuGre friction**: bristles of deflection :math:`z`,
  :math:`\dot z = \omega - \sigma_0 |\omega| z / g(\omega)` with the Stribeck curve
  :math:`g(\omega) = F_C + (F_S - F_C) e^{-(\omega/\omega_S)^2}`, push back with
  :math:`-\sigma_0 z - \sigma_1 \dot z`; :math:`z` is integrated exactly for a step at
  constant :math:`\omega`.

Cogging and friction are mechanical: they are added after ``forcerange`` (the
``saturation`` current limit) clamps the electrical torque.

Parameters, as MuJoCo stores them: ``gainprm = (R, K, alpha, T0, kp, ki, kd, Vmax)``,
``dynprm = (te, didt_max, RT, C, Ta, sigma0, sigma1, slewmax, Imax)``,
``biasprm = (A, N, phi, F_C, F_S, omega_S)``. The controls are the voltage and/or the
inputs of the on-board controller (a position and a velocity setpoint, a torque
feedforward: :func:`voltage`), whose slew limit and integral are two more states (before
the others); a motor with ``input="none"`` has no control (its voltage is 0).

Reference: MuJoCo's documentation, XML reference, ``actuator/dcmotor``, and its DC motor
technical note; ``engine_forward.c`` (``mj_fwdActuation``).

>>> prm = (2.0, 0.05) + (0.0,) * 8
>>> slots((0.0,) * 10, prm)          # no inductance, heat or friction: no state
{}
>>> float(stateless_bias(prm, (0.0,) * 10, 10.0))     # -K^2/R omega
-0.0125
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import namespace
from rbdl_edu.model.enums import MINVAL

__all__ = ["slots", "stribeck", "resistance", "gain", "input_voltage", "rates", "slewed", "voltage", "next_state",
           "stateless_bias", "clamped", "mechanical_force", "friction_force", "velocity_slope", "friction_slope",
           "inputs", "POS", "VEL", "FF", "VOLTAGE", "NONE"]


def slots(dynprm, gainprm):
    """The motor's states and their offsets in its block of ``act``, in MuJoCo's order
    (``mj_dcmotorSlots``): slew, integral (controller), temperature, bristle, current."""
    present = (("slew", dynprm[7] > 0), ("integral", gainprm[5] > 0), ("temperature", dynprm[2] > 0),
               ("bristle", dynprm[5] > 0), ("current", dynprm[0] > 0))
    names = [name for name, on in present if on]
    return {name: k for k, name in enumerate(names)}


def stribeck(omega, F_C, F_S, omega_S):
    r"""The Stribeck curve :math:`g(\omega) = F_C + (F_S - F_C)\,e^{-(\omega/\omega_S)^2}`."""
    ratio = omega / max(MINVAL, omega_S)
    return F_C + (F_S - F_C) * namespace(omega).exp(-ratio * ratio)


def resistance(gainprm, dynprm, state):
    r""":math:`R`, grown with the winding's temperature when the thermal model is on."""
    R, s = gainprm[0], slots(dynprm, gainprm)
    if "temperature" in s:
        T = state[s["temperature"]]
        R = R * (1 + gainprm[2] * (T + dynprm[4] - gainprm[3]))
    return R


def input_voltage(gainprm, dynprm, spec, u, length, omega, state, h):
    """The voltage a motor without a current state multiplies by :math:`K/R`: its controls
    ``u`` (a list, the first after the slew limit) through the controller (:func:`voltage`)."""
    s = slots(dynprm, gainprm)
    x_I = state[s["integral"]] if "integral" in s else 0.0
    return voltage(gainprm, spec, slewed(dynprm, gainprm, u, state, h)[0], length, omega, x_I)


def gain(gainprm, dynprm, state):
    r"""What multiplies the gain input: :math:`K` (the input is the current state) or
    :math:`K/R` (the input is the voltage)."""
    K = gainprm[1]
    return K if dynprm[0] > 0 else K / max(MINVAL, resistance(gainprm, dynprm, state))


def stateless_bias(gainprm, dynprm, omega, motor_gain=None):
    r"""The back-EMF force :math:`-\tfrac{K}{R} K \omega` of a motor without a current state
    (zero with one: there the back-EMF is in :math:`\dot\imath`)."""
    if dynprm[0] > 0:
        return 0.0 * omega
    g = gainprm[1] / max(MINVAL, gainprm[0]) if motor_gain is None else motor_gain
    return -g * gainprm[1] * omega


#: MuJoCo's input bits (``actuator_ctrlspec``): the controls are a position or velocity
#: setpoint, a torque feedforward, the terminal voltage, in this order; or none
POS, VEL, FF, VOLTAGE, NONE = 1, 2, 4, 8, 16


def inputs(spec, u):
    """``(pos, vel, ff, voltage)`` of the controls ``u`` (the inputs ``spec`` lists, in this
    order; an input not taken is 0), MuJoCo's ``unpackServoInputs``."""
    out, k = [], 0
    for bit in (POS, VEL, FF, VOLTAGE):
        out.append(u[k] if spec & bit and k < len(u) else 0.0)
        k += bool(spec & bit)
    return tuple(out)


def slewed(dynprm, gainprm, u, state, h):
    r"""``(u, rate)``: the controls ``u`` (a list) with the first after the slew limit,
    clamped to within ``slewmax`` :math:`h` of the last one (the slew state), and that
    state's rate (MuJoCo's ``slewLimit``); ``u`` and 0 without one."""
    s = slots(dynprm, gainprm)
    if "slew" not in s or not len(u):
        return u, 0.0
    prev, slew = state[s["slew"]], dynprm[7] * h
    first = namespace(u[0]).clip(u[0], prev - slew, prev + slew)
    return [first, *u[1:]], (first - prev) / h


def voltage(gainprm, spec, u, length, omega, x_I):
    r"""The terminal voltage of the controls ``u`` (a list): the on-board controller's, which
    commands the torque :math:`\tau = k_p (u_{pos} - l) + k_d (u_{vel} - \dot l) + k_i x_I
    + u_{ff}` (absent inputs 0) and drives :math:`V = \frac{R}{K}\tau + K\dot l`, clamped to
    ``Vmax``; plus the ``voltage`` input, unclamped (MuJoCo's ``dcmotorVoltage``)."""
    V = inputs(spec, u)[3] + 0.0 * omega
    if spec & (POS | VEL | FF) and spec != NONE:
        drive, Vmax = _drive(gainprm, spec, u, length, omega, x_I), gainprm[7]
        V = V + (namespace(drive).clip(drive, -Vmax, Vmax) if Vmax > 0 else drive)
    return V


def _drive(gainprm, spec, u, length, omega, x_I):
    """The controller's voltage before the ``Vmax`` clamp."""
    R, K, kp, ki, kd = gainprm[0], gainprm[1], gainprm[4], gainprm[5], gainprm[6]
    pos, vel, ff, _ = inputs(spec, u)
    torque = kp * (pos - length) + kd * (vel - omega) + ki * x_I + ff
    return R / K * torque + K * omega


def clamped(gainprm, dynprm, spec, u, length, omega, state, h):
    """Is the controller's voltage held at ``Vmax`` (then it does not follow the speed)?"""
    if not spec & (POS | VEL | FF) or spec == NONE or gainprm[7] <= 0:
        return False
    s = slots(dynprm, gainprm)
    x_I = state[s["integral"]] if "integral" in s else 0.0
    V = _drive(gainprm, spec, slewed(dynprm, gainprm, u, state, h)[0], length, omega, x_I)
    return namespace(V).abs(V) > gainprm[7]


def rates(gainprm, dynprm, biasprm, spec, u, length, omega, state, h):
    r"""The rates of the motor's states (list, slot order) at controls ``u`` (a list, the
    inputs ``spec`` lists), length ``length``, speed ``omega`` and states ``state``; ``h`` the time step
    (of the slew limit)."""
    s, out = slots(dynprm, gainprm), [0.0] * len(slots(dynprm, gainprm))
    u, slew_rate = slewed(dynprm, gainprm, u, state, h)
    if "slew" in s:
        out[s["slew"]] = slew_rate
    x_I = 0.0
    if "integral" in s:
        # the position error, not accumulated beyond Imax (anti-windup)
        x_I, err, Imax = state[s["integral"]], u[0] - length, dynprm[8]      # (the first input is pos)
        if Imax > 0:
            xp = namespace(x_I, err)
            err = xp.where(x_I >= Imax, xp.minimum(err, 0.0), xp.where(x_I <= -Imax, xp.maximum(err, 0.0), err))
        out[s["integral"]] = err
    V = voltage(gainprm, spec, u, length, omega, x_I)
    R, K, te = gainprm[0], gainprm[1], dynprm[0]
    xp = namespace(omega, V)
    if "temperature" in s:
        T = state[s["temperature"]]
        R = R * (1 + gainprm[2] * (T + dynprm[4] - gainprm[3]))
        i = state[s["current"]] if te > 0 else (V - K * omega) / R
        out[s["temperature"]] = (R * i * i - T / dynprm[2]) / dynprm[3]        # dT/dt = (R i^2 - T/R_T)/C
    if "bristle" in s:
        g = stribeck(omega, biasprm[3], biasprm[4], biasprm[5])
        a = -dynprm[5] * xp.abs(omega) / xp.maximum(MINVAL, g)
        out[s["bristle"]] = a * state[s["bristle"]] + omega                    # dz/dt = omega - sigma0 |omega| z/g
    if te > 0:
        i_dot = (V / R - K / R * omega - state[s["current"]]) / te             # di/dt = (V/R - K omega/R - i)/t_e
        if dynprm[1] > 0:
            i_dot = xp.clip(i_dot, -dynprm[1], dynprm[1])
        out[s["current"]] = i_dot
    return out


def next_state(gainprm, dynprm, biasprm, offset, w, wdot, omega, h):
    """State ``offset`` after a step ``h`` (MuJoCo's ``mj_nextActivation``): the current
    exactly as a first-order filter, the bristle exactly at constant speed, the others by
    Euler."""
    s = slots(dynprm, gainprm)
    xp = namespace(w, wdot, omega)
    if offset == s.get("current"):
        te = max(MINVAL, dynprm[0])
        return w + wdot * te * (1 - np.exp(-h / te))
    if offset == s.get("bristle"):
        # z(h) = e^{ah} z + (e^{ah} - 1)/a omega
        g = stribeck(omega, biasprm[3], biasprm[4], biasprm[5])
        a = -dynprm[5] * xp.abs(omega) / xp.maximum(MINVAL, g)
        e = xp.exp(a * h)
        return e * w + xp.where(xp.abs(a) > MINVAL, (e - 1) / xp.where(a == 0, 1.0, a), h) * omega
    if offset == s.get("integral") and dynprm[8] > 0:
        return xp.clip(w + wdot * h, -dynprm[8], dynprm[8])
    return w + wdot * h


def mechanical_force(gainprm, dynprm, biasprm, length, state, state_dot):
    r"""Cogging :math:`A\sin(N l + \phi)` and LuGre friction :math:`-\sigma_0 z - \sigma_1\dot z`,
    added after the force limits."""
    f = 0.0 * length
    if biasprm[0] != 0:
        f = f + biasprm[0] * namespace(length).sin(biasprm[1] * length + biasprm[2])
    return f + friction_force(gainprm, dynprm, state, state_dot)


def friction_force(gainprm, dynprm, state, state_dot):
    r"""The LuGre friction :math:`-\sigma_0 z - \sigma_1 \dot z` (0 without bristles)."""
    s = slots(dynprm, gainprm)
    if "bristle" not in s:
        return 0.0
    return -dynprm[5] * state[s["bristle"]] - dynprm[6] * state_dot[s["bristle"]]


def velocity_slope(gainprm, dynprm, state, state_dot, h, gain=True, bias=True, spec=VOLTAGE, held=False):
    r""":math:`\partial f/\partial\dot l` for the implicit integrators (MuJoCo's
    ``mjd_actuator_vel``), :math:`R` at the winding's temperature: the back-EMF bias
    :math:`-K^2/R` without a current state (``bias``: the bias is a DC motor's); the on-board
    controller's :math:`\partial V/\partial\dot l = -k_d R/K + K` through :math:`K/R` (none
    while its voltage is ``held`` at ``Vmax``); with a current state both act through the
    current after the step, :math:`K (\partial V/\partial\dot l - K)(1 - e^{-h/t_e})/R`
    (``gain``: the gain is a DC motor's), none while the current's rate is at its limit. The
    friction's :math:`-\sigma_1` is :func:`friction_slope`."""
    xp = namespace(state, state_dot)
    R, K, te = xp.maximum(MINVAL, resistance(gainprm, dynprm, state)), gainprm[1], dynprm[0]
    dVdw = 0.0
    if gain and spec & (POS | VEL | FF):
        dVdw = xp.where(held, 0.0, -gainprm[6] * max(MINVAL, gainprm[0]) / K + K)
    if te <= 0:
        return (-K * K / R if bias else 0.0) + K * dVdw / R
    if not gain:
        return 0.0
    slope = K * (dVdw - K) * (1 - np.exp(-h / te)) / R
    k = slots(dynprm, gainprm)["current"]
    if dynprm[1] > 0 and k < len(state_dot):
        slope = xp.where(xp.abs(state_dot[k]) >= dynprm[1], 0.0, slope)
    return slope


def friction_slope(dynprm):
    r"""The LuGre friction's :math:`\partial f/\partial\dot l = -\sigma_1` (its bristle's own
    dependence on the speed left out, as MuJoCo): mechanical, it counts even when the
    current is saturated."""
    return -dynprm[6] if dynprm[6] > 0 else 0.0
