r"""MuJoCo's muscle: a force–length–velocity curve, a passive spring and activation dynamics
(``mju_muscleGain``, ``mju_muscleBias``, ``mju_muscleDynamics``; MuJoCo's documentation,
Modeling, "Muscles").

A muscle pulls (its force is negative) along its length :math:`l`. Its length is measured
in units of the **optimal length** :math:`L_0`, set so that the actuator's ``lengthrange``
:math:`[l_{min}, l_{max}]` maps onto the operating ``range`` :math:`[r_0, r_1]`:

.. math:: L_0 = \frac{l_{max} - l_{min}}{r_1 - r_0}, \qquad
          L = r_0 + \frac{l - l_{min}}{L_0}, \qquad V = \frac{\dot l}{L_0\, v_{max}} .

With the peak force :math:`F` (``force``, or ``scale / actuator_acc0`` when ``force`` < 0)
the active force is :math:`-F\,F_L(L)\,F_V(V)` times the activation, and the passive force
:math:`-F\,F_P(L)`:

* :math:`F_L`: two pairs of half-parabolas, 0 at ``lmin`` and ``lmax``, 1 at :math:`L = 1`;
* :math:`F_V`: 0 when shortening at :math:`V \le -1`, :math:`(V+1)^2` up to 0, rising to
  ``fvmax`` when lengthening;
* :math:`F_P`: 0 up to :math:`L = 1`, a half-parabola to :math:`b = (1 + l_{max})/2`,
  where it reaches ``fpmax``/2, then linear.

The activation :math:`w` follows the excitation :math:`u \in [0, 1]` with a faster time
constant when rising than when falling (Millard et al. 2013):

.. math:: \dot w = \frac{u - w}{\tau}, \qquad
          \tau = \begin{cases} \tau_{act}(0.5 + 1.5 w) & u > w\\
                                \tau_{deact}/(0.5 + 1.5 w) & u \le w \end{cases}

(:math:`w` clamped to [0, 1] in the factors), the switch smoothed over a width ``tausmooth``
of :math:`u - w` when that is positive.

The parameter vectors are MuJoCo's: ``prm = (r0, r1, force, scale, lmin, lmax, vmax, fpmax,
fvmax)`` (gain and bias share them), ``dynprm = (tau_act, tau_deact, tausmooth)``.

>>> prm = (0.75, 1.05, 100.0, 200.0, 0.5, 1.6, 1.5, 1.3, 1.2)
>>> float(muscle_gain(0.25, 0.0, (0.0, 0.3), 1.0, prm))     # L = 0.75 + 0.25/1 = 1, at rest: -F
-100.0
>>> float(muscle_bias(0.25, (0.0, 0.3), 1.0, prm))          # not stretched past L0: no passive force
0.0
"""
from __future__ import annotations

from rbdl_edu.model.enums import MINVAL

__all__ = ["muscle_gain", "muscle_gain_vel", "muscle_bias", "muscle_dynamics", "length_curve"]


def length_curve(L, lmin, lmax):
    r""":math:`F_L(L)`, MuJoCo's ``mju_muscleGainLength``: 0 outside ``[lmin, lmax]``, 1 at
    :math:`L = 1`, four half-parabolas meeting at the midpoints :math:`a = (l_{min}+1)/2` and
    :math:`b = (1+l_{max})/2`."""
    if not lmin <= L <= lmax:
        return 0.0
    a, b = 0.5 * (lmin + 1), 0.5 * (1 + lmax)
    if L <= a:
        x = (L - lmin) / max(MINVAL, a - lmin)
        return 0.5 * x * x
    if L <= 1:
        x = (1 - L) / max(MINVAL, 1 - a)
        return 1 - 0.5 * x * x
    if L <= b:
        x = (L - 1) / max(MINVAL, b - 1)
        return 1 - 0.5 * x * x
    x = (lmax - L) / max(MINVAL, lmax - b)
    return 0.5 * x * x


def _normalized(length, lengthrange, acc0, prm):
    """The peak force :math:`F`, the optimal length :math:`L_0` and the normalized length :math:`L`."""
    r0, r1, force, scale = prm[0], prm[1], prm[2], prm[3]
    if force < 0:
        force = scale / max(MINVAL, acc0)
    L0 = (lengthrange[1] - lengthrange[0]) / max(MINVAL, r1 - r0)
    return force, L0, r0 + (length - lengthrange[0]) / max(MINVAL, L0)


def muscle_gain(length, velocity, lengthrange, acc0, prm):
    r"""The active force per unit activation, :math:`-F\,F_L(L)\,F_V(V)`."""
    force, L0, L = _normalized(length, lengthrange, acc0, prm)
    V, y, fvmax = velocity / max(MINVAL, L0 * prm[6]), prm[8] - 1, prm[8]
    if V <= -1:
        FV = 0.0
    elif V <= 0:
        FV = (V + 1) * (V + 1)
    elif V <= y:
        FV = fvmax - (y - V) * (y - V) / max(MINVAL, y)
    else:
        FV = fvmax
    return -force * length_curve(L, prm[4], prm[5]) * FV


def muscle_gain_vel(length, velocity, lengthrange, acc0, prm):
    r""":math:`\partial\,\mathrm{gain}/\partial \dot l = -F\,F_L(L)\,F_V'(V) / (L_0 v_{max})`,
    what the implicit integrators use (MuJoCo's ``mjd_muscleGain_vel``)."""
    force, L0, L = _normalized(length, lengthrange, acc0, prm)
    V, y = velocity / max(MINVAL, L0 * prm[6]), prm[8] - 1
    if V <= -1 or V > y:
        dFV = 0.0
    elif V <= 0:
        dFV = 2 * V + 2
    else:
        dFV = (-2 * V + 2 * y) / max(MINVAL, y)
    return -force * length_curve(L, prm[4], prm[5]) * dFV / max(MINVAL, L0 * prm[6])


def muscle_bias(length, lengthrange, acc0, prm):
    r"""The passive force :math:`-F\,F_P(L)`: a half-parabola from :math:`L = 1` to
    :math:`b = (1 + l_{max})/2`, linear beyond."""
    force, _, L = _normalized(length, lengthrange, acc0, prm)
    lmax, fpmax = prm[5], prm[7]
    b = 0.5 * (1 + lmax)
    if L <= 1:
        return 0.0
    if L <= b:
        x = (L - 1) / max(MINVAL, b - 1)
        return -force * fpmax * 0.5 * x * x
    x = (L - b) / max(MINVAL, b - 1)
    return -force * fpmax * (0.5 + x)


def _smoothstep(x):
    """MuJoCo's ``mju_sigmoid``: :math:`6x^5 - 15x^4 + 10x^3` on [0, 1], 0 below, 1 above."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    return x * x * x * (3 * x * (2 * x - 5) + 10)


def muscle_dynamics(ctrl, act, dynprm):
    r""":math:`\dot w = (u - w)/\tau` with :math:`u` clamped to [0, 1] and the activation- or
    deactivation time constant (module docstring)."""
    u = min(max(ctrl, 0.0), 1.0)
    w = min(max(act, 0.0), 1.0)
    tau_act = dynprm[0] * (0.5 + 1.5 * w)
    tau_deact = dynprm[1] / (0.5 + 1.5 * w)
    width = dynprm[2]
    du = u - act                        # the excess excitation (of the unclamped activation)
    if width < MINVAL:
        tau = tau_act if du > 0 else tau_deact
    else:
        tau = tau_deact + (tau_act - tau_deact) * _smoothstep(du / width + 0.5)
    return du / max(MINVAL, tau)
