"""MJCF ``<dcmotor>``: MuJoCo 4.0's DC motor, its datasheet attributes turned into the
parameter vectors of :mod:`rbdl_edu.smooth.dcmotor` (MuJoCo's ``mjs_setToDCMotor``).

=============== ======================================================================
``resistance``  :math:`R`; or from ``nominal``: :math:`R = K V_n/\\tau_0`
``motorconst``  ``Kt Ke``: :math:`K = \\sqrt{K_t K_e}` (or the one given); or from
                ``nominal = (V_n, tau_0, omega_0)``: :math:`K_e = V_n/\\omega_0`
``inductance``  ``L te``: the electrical time constant :math:`t_e = L/R` (or ``te``)
``saturation``  ``torque current didt``: ``forcerange`` :math:`\\pm\\tau_{max}`
                (:math:`\\tau_{max} = K i_{max}`), the current's rate limit
``thermal``     ``RT C tau alpha T0 Ta`` (any two of RT, C, tau)
``cogging``     ``amplitude poles phase``
``lugre``       ``sigma0 sigma1 F_C F_S omega_S``
``input``       the controls, in this order: the on-board controller's ``pos`` and
                ``vel`` setpoints and ``ff`` torque, and the ``voltage`` (the
                default), one control each (``actuator_ctrlspec`` bits 1, 2, 4, 8);
                ``none``: no control (16)
``controller``  ``kp ki kd slewmax Imax Vmax`` of the on-board controller
=============== ======================================================================

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
...   <actuator><dcmotor joint="j" nominal="12 0.5 300"/></actuator></mujoco>''')
>>> m.actuator_gainprm[0, :2]          # R = K 12/0.5 with K = 12/300
array([0.96, 0.04])
"""
from __future__ import annotations

import math

import numpy as np

from rbdl_edu.io.xmlread import Node

__all__ = ["dcmotor_prm", "check_input", "input_bits", "check_controller", "dcmotor_states", "inherited_limit", "INPUTS"]


def dcmotor_states(dynprm, gainprm):
    """How many states (``actdim``) a DC motor with these parameters has (see
    :func:`rbdl_edu.smooth.dcmotor.slots`)."""
    return sum(int(x > 0) for x in (dynprm[7], gainprm[5], dynprm[2], dynprm[5], dynprm[0]))


INPUTS = {"pos": 1, "vel": 2, "ff": 4, "voltage": 8, "pressure": 32}


def input_bits(a):
    """The bits of ``a``'s ``input``: its tokens, in MuJoCo's order ``pos vel ff voltage
    pressure`` (each once), or ``none`` (16); 0 if not given."""
    tokens = a.get("input", "").split()
    if tokens == ["none"]:
        return 16
    spec = 0
    for t in tokens:
        if t not in INPUTS:
            raise a.error(f"unknown input {t!r}: the inputs are {', '.join(INPUTS)} (or none)", "input")
        if INPUTS[t] <= spec:
            raise a.error("inputs must be listed in canonical order [pos, vel, ff, voltage, pressure]", "input")
        spec |= INPUTS[t]
    return spec


def check_input(a, gain):
    """The ``actuator_ctrlspec`` of ``a`` (MuJoCo's input bits, one control per bit): a DC
    motor's inputs (``voltage`` if not given; ``none``: no control); a PID's (a subset of
    ``pos vel ff``, ``pos vel`` if not given); what the one control of a fixed or affine gain
    means (``pos``, ``vel``, ``pressure``: a declaration, 0 if not given)."""
    spec = input_bits(a)
    if gain == "dcmotor":
        if spec & 32:
            raise a.error("dcmotor inputs are 'none' or a subset of [pos, vel, ff, voltage]", "input")
        return spec or 8
    if gain == "pid":
        if spec & ~7:
            raise a.error("pid inputs are a subset of [pos, vel, ff]", "input")
        return spec or 3
    if not spec:
        return 0
    if gain in ("fixed", "affine"):
        if spec not in (1, 2, 32):
            raise a.error("fixed and affine gains take one input, 'pos', 'vel' or 'pressure'", "input")
        return spec
    raise a.error(f'input is not available for {gain} gains', "input")


def check_controller(a, spec, gainprm, dynprm):
    """MuJoCo's rules for the controller: its gains and slew limit need a controller input,
    its integral the position setpoint."""
    controller = spec & 7 if spec != 16 else 0
    if not controller and (gainprm[4] or gainprm[5] or gainprm[6]):
        raise a.error("dcmotor controller gains require a controller input (pos, vel, ff)", "controller")
    if not controller and dynprm[7] > 0:
        raise a.error("dcmotor slew rate limiting requires a controller input (pos, vel, ff)", "controller")
    if gainprm[5] > 0 and not spec & 1:
        raise a.error("dcmotor integral gain requires the pos input", "controller")
    if controller and gainprm[1] <= 0:
        raise a.error("dcmotor controller inputs require a positive motor constant", "input")


def _floats(a, key, n):
    """Up to ``n`` numbers, the rest zero (MuJoCo reads these attributes from the front)."""
    given = [float(x) for x in a.floats(key)] if a.has(key) else []
    if len(given) > n:
        raise a.error(f"{key} takes at most {n} numbers", key)
    return given + [0.0] * (n - len(given))


def _constants(a, R, motorconst, nominal):
    """:math:`(K, R)` from ``motorconst``, ``resistance`` and ``nominal`` (without an
    actuator damping, which is not read: :math:`K_e = V_n/\\omega_0`)."""
    Kt, Ke = motorconst
    vn, tau0, omega0 = nominal
    if vn > 0 and Ke <= 0 and omega0 > 0:
        Ke = vn / omega0
    K = math.sqrt(Kt * Ke) if Kt > 0 and Ke > 0 else (Kt if Kt > 0 else Ke)
    if R == 0 and vn > 0 and tau0 > 0 and K > 0:
        R = K * vn / tau0
    if K <= 0:
        raise a.error("DC motor: the motor constant K must be positive (motorconst or nominal)", "motorconst")
    if R <= 0:
        raise a.error("DC motor: the resistance R must be positive (resistance or nominal)", "resistance")
    return K, R


def _torque_limit(K, saturation):
    """``(forcelimited, forcerange)`` of ``saturation = (torque, current, ...)``: the torque,
    or :math:`K i_{max}`; none if both are 0."""
    if saturation[0] > 0 or saturation[1] > 0:
        tau_max = saturation[0] if saturation[0] > 0 else K * saturation[1]
        return True, (-tau_max, tau_max)
    return False, (0.0, 0.0)


def inherited_limit(a, own, cls, read_limited):
    """A DC motor's force limit when the element itself does not give ``saturation`` (as
    MuJoCo): the one its default class computed from the class's own ``saturation`` and
    motor constant, else the class's ``forcerange`` (set on any actuator kind). ``own``: the
    element's own attributes; ``cls``: its class's; ``read_limited(node)`` reads
    ``forcelimited``/``forcerange``. ``None`` when the element gives ``saturation``."""
    if "saturation" in own:
        return None
    node = Node("dcmotor", cls, a.file, a.line)
    if any(_floats(node, "saturation", 3)[:2]):
        K, _ = _constants(node, node.float("resistance", 0.0), _floats(node, "motorconst", 2),
                          _floats(node, "nominal", 3))
        return _torque_limit(K, _floats(node, "saturation", 3))
    return read_limited(Node("dcmotor", {k: v for k, v in cls.items() if k in ("forcelimited", "forcerange")},
                             a.file, a.line))


def dcmotor_prm(a):
    """``(dynprm, gainprm, biasprm, forcelimited, forcerange, ctrlspec)`` of a ``<dcmotor>``
    (the force limit from its own ``saturation``; see :func:`inherited_limit`)."""
    spec = check_input(a, "dcmotor")
    K, R = _constants(a, a.float("resistance", 0.0), _floats(a, "motorconst", 2), _floats(a, "nominal", 3))
    dynprm, gainprm, biasprm = np.zeros(10), np.zeros(10), np.zeros(10)
    gainprm[:2] = R, K
    kp, ki, kd, slewmax, Imax, Vmax = _floats(a, "controller", 6)
    gainprm[4:8], dynprm[7:9] = (kp, ki, kd, max(Vmax, 0.0)), (slewmax, Imax)
    check_controller(a, spec, gainprm, dynprm)
    saturation = _floats(a, "saturation", 3)
    forcelimited, forcerange = _torque_limit(K, saturation)
    dynprm[1] = max(saturation[2], 0.0)                  # (di/dt)_max
    biasprm[:3] = _floats(a, "cogging", 3)
    L, te = _floats(a, "inductance", 2)
    if L < 0 or te < 0:
        raise a.error("DC motor: inductance and its time constant must be non-negative", "inductance")
    dynprm[0] = L / R if L > 0 else te
    RT, C, tth, alpha, T0, Ta = _floats(a, "thermal", 6)
    if RT > 0 or C > 0 or tth > 0:
        if tth > 0 and RT > 0 and C == 0:
            C = tth / RT
        elif tth > 0 and C > 0 and RT == 0:
            RT = tth / C
        if RT <= 0 or C <= 0:
            raise a.error("DC motor: the thermal resistance and capacitance must be positive", "thermal")
        dynprm[2:5], gainprm[2:4] = (RT, C, Ta), (alpha, T0)
    lugre = _floats(a, "lugre", 5)
    if lugre[0] > 0:
        dynprm[5:7], biasprm[3:6] = lugre[:2], lugre[2:]
    return (tuple(float(x) for x in dynprm), tuple(float(x) for x in gainprm),
            tuple(float(x) for x in biasprm), forcelimited, forcerange, spec)
