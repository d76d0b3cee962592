r"""The mouse's leg: a planar two-link chain and its inverse kinematics by the law of cosines
(book, chapter 11).

Each leg moves in its own sagittal plane. Coordinates are taken at the hip (for the fore legs,
the shoulder): :math:`x` forward, :math:`z` up. The hip angle :math:`q_1` turns the thigh
(length :math:`l_1`) away from straight down, positive forwards; the knee angle :math:`q_2`
turns the shin (length :math:`l_2`) relative to the thigh, with the same sign rule. With
:math:`e(\theta) = (\sin\theta, -\cos\theta)` the unit vector at angle :math:`\theta` from
straight down, the foot is at

.. math::  p(q_1, q_2) = l_1\, e(q_1) + l_2\, e(q_1 + q_2).

Inverse kinematics: the distance :math:`r = |p|` fixes the knee angle by the law of cosines,
:math:`r^2 = l_1^2 + l_2^2 + 2 l_1 l_2 \cos q_2`, and the hip angle is the direction of
:math:`p` minus the angle the knee bend adds to it. A leg has two solutions, the knee bent
backwards (:math:`q_2 > 0`, the mouse's fore legs, like elbows) or forwards
(:math:`q_2 < 0`, its hind legs); ``knee`` chooses. A target out of reach
(:math:`|l_1 - l_2| \le r \le l_1 + l_2` fails) is a ``ValueError``, never a silent NaN.

The functions work on floats and on arrays of targets (``x``, ``z`` of any equal shape).

>>> q1, q2 = leg_ik(0.0, -0.045, knee=+1)         # a fore foot 45 mm below the shoulder
>>> np.round(np.degrees([q1, q2]), 3)
array([-49.995,  99.99 ])
>>> np.round(leg_fk(q1, q2), 12)                   # back to the target
array([ 0.   , -0.045])
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Leg(NamedTuple):
    """Lengths of a leg's links (metres): thigh ``l1`` (hip to knee), shin ``l2`` (knee to the
    centre of the foot). The same numbers as ``models/mouse/mouse.xml``."""
    l1: float = 0.035
    l2: float = 0.035


#: the mouse's legs (all four are alike)
LEG = Leg()


def leg_fk(q1, q2, leg=LEG):
    r"""Foot position :math:`(x, z)` in the hip frame: :math:`l_1 e(q_1) + l_2 e(q_1 + q_2)`.

    Parameters
    ----------
    q1, q2 : float or array
        Hip and knee angles (radians), equal shapes.
    leg : Leg

    Returns
    -------
    ndarray, shape ``(2,) + shape(q1)``: ``x`` and ``z``.

    >>> np.round(leg_fk(0.0, 0.0), 12)               # straight down
    array([ 0.  , -0.07])
    """
    q1, q2 = np.asarray(q1, dtype=float), np.asarray(q2, dtype=float)
    x = leg.l1 * np.sin(q1) + leg.l2 * np.sin(q1 + q2)
    z = -leg.l1 * np.cos(q1) - leg.l2 * np.cos(q1 + q2)
    return np.stack([x, z])


def leg_ik(x, z, knee=+1, leg=LEG):
    r"""Hip and knee angles that put the foot at :math:`(x, z)` (hip frame).

    .. math::
        \cos q_2 = \frac{r^2 - l_1^2 - l_2^2}{2 l_1 l_2}, \qquad
        q_1 = \operatorname{atan2}(x, -z) - \operatorname{atan2}(l_2 \sin q_2,\; l_1 + l_2 \cos q_2)

    Parameters
    ----------
    x, z : float or array
        Foot target (metres), equal shapes.
    knee : {+1, -1}
        Sign of the knee angle: +1 knee bent backwards (fore legs), -1 forwards (hind legs).
    leg : Leg

    Returns
    -------
    (q1, q2) : floats or arrays of the targets' shape (radians).

    Raises
    ------
    ValueError
        If a target is out of the leg's reach, naming it and the reach.

    >>> leg_ik(0.0, -0.08)
    Traceback (most recent call last):
    ...
    ValueError: foot target (x, z) = (0, -0.08) is out of reach: its distance 0.08 from the hip is not in [0, 0.07]
    """
    if knee not in (1, -1):
        raise ValueError(f"knee must be +1 or -1, not {knee!r}")
    x, z = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(z, dtype=float))
    l1, l2 = leg
    r2 = x**2 + z**2
    rmin, rmax = abs(l1 - l2), l1 + l2
    bad = ~((r2 >= rmin**2 - 1e-15) & (r2 <= rmax**2 + 1e-15))      # NaN is bad too
    if bad.any():
        k = np.unravel_index(np.argmax(bad), bad.shape) if bad.ndim else ()
        raise ValueError(f"foot target (x, z) = ({x[k]:.6g}, {z[k]:.6g}) is out of reach: its distance "
                         f"{np.sqrt(r2[k]):.6g} from the hip is not in [{rmin:.6g}, {rmax:.6g}]")
    # law of cosines for the knee (clipped: rounding may leave |c| a hair above 1 at full reach)
    c = np.clip((r2 - l1**2 - l2**2) / (2 * l1 * l2), -1.0, 1.0)
    q2 = knee * np.arccos(c)
    # the foot's direction from straight down, minus what the bent knee adds to it
    q1 = np.arctan2(x, -z) - np.arctan2(l2 * np.sin(q2), l1 + l2 * np.cos(q2))
    if q1.ndim == 0:
        return float(q1), float(q2)
    return q1, q2


def workspace(q1_range, q2_range, leg=LEG, n=60):
    r"""Foot positions over a grid of joint angles within the given ranges: the leg's reachable
    region (for a plot).

    Parameters
    ----------
    q1_range, q2_range : (low, high)
        Joint ranges (radians), e.g. from ``model.jnt_range``.
    n : int
        Grid points per joint.

    Returns
    -------
    ndarray ``(2, n * n)``: ``x`` and ``z`` of the feet.

    >>> p = workspace((-np.pi / 2, np.pi / 2), (0, np.radians(160)), n=5)
    >>> p.shape, bool(np.all(np.hypot(*p) <= 0.07 + 1e-12))
    ((2, 25), True)
    """
    q1, q2 = np.meshgrid(np.linspace(*q1_range, n), np.linspace(*q2_range, n))
    return leg_fk(q1.ravel(), q2.ravel(), leg)
