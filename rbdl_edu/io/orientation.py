r"""The five ways MJCF writes an orientation, turned into one unit quaternion ``(w, x, y, z)``.

An element (body, geom, site, inertial, frame) may carry at most one of

* ``quat="w x y z"`` — normalized;
* ``axisangle="ax ay az angle"`` — :math:`(\cos\frac\theta2, \sin\frac\theta2\,\hat a)`;
* ``euler="a b c"`` — three rotations about the axes named by ``<compiler eulerseq>``:
  a lowercase letter turns about the *rotating* axis (``q = q ⊗ q_k``), an uppercase one
  about the *fixed* axis (``q = q_k ⊗ q``);
* ``xyaxes="x1 x2 x3 y1 y2 y3"`` — the frame's x and y axes (y is made orthogonal to x,
  z = x × y);
* ``zaxis="z1 z2 z3"`` — the shortest rotation taking (0, 0, 1) to z.

Angles are in degrees unless ``<compiler angle="radian"/>``.

>>> from rbdl_edu.io.xmlread import parse_xml
>>> node = parse_xml('<body euler="0 0 90"/>')
>>> np.round(read_orientation(node, degrees=True, eulerseq="xyz"), 12)
array([0.70710678, 0.        , 0.        , 0.70710678])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.xmlread import degrees_to_radians
from rbdl_edu.rotation import mat_to_quat, quat_mul

ORIENTATIONS = ("quat", "axisangle", "euler", "xyaxes", "zaxis")
_AXIS = {"x": 0, "y": 1, "z": 2}


def _normalized(node, v, attribute):
    """``v / |v|``, computed as ``u / |u|`` with ``u = v / max|v_i|`` so that no square
    overflows or underflows; a zero (or non-finite) result is an error at ``node``."""
    scale = float(np.max(np.abs(v)))
    if not scale > 0 or not np.isfinite(scale):
        raise node.error(f"{attribute} has zero length", attribute)
    u = v / scale
    n = float(np.linalg.norm(u))
    if n * scale < 1e-15:
        raise node.error(f"{attribute} has zero length", attribute)
    out = u / n
    if not np.all(np.isfinite(out)):
        raise node.error(f"{attribute} cannot be normalized", attribute)
    return out


def z_to_quat(z):
    r"""The shortest rotation taking (0, 0, 1) to the direction of ``z`` (any length):
    axis :math:`e_z \times z` (normalized), angle :math:`\operatorname{atan2}(|e_z\times z|, z_3)`;
    a half turn about x if ``z`` points straight down. (Computed in the order MuJoCo's
    compiler uses, so the rounding, and hence degenerate principal frames, agree.)

    >>> np.round(z_to_quat(np.array([2.0, 0, 0])), 12)
    array([ 0.70710678,  0.        ,  0.70710678,  0.        ])
    """
    axis = np.array([-z[1], z[0], 0.0])                  # e_z × z
    s = float(np.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]))
    axis = np.array([1.0, 0.0, 0.0]) if s < 1e-10 else axis / s
    angle = np.arctan2(s, z[2])
    return np.concatenate([[np.cos(angle / 2)], axis * np.sin(angle / 2)])


def frame_to_quat(R):
    """Unit quaternion (any sign) of a rotation matrix whose columns are the frame's axes."""
    return mat_to_quat(R)


def read_orientation(node, degrees, eulerseq, default=(1.0, 0.0, 0.0, 0.0)):
    """The orientation written on ``node`` as a unit quaternion (``default`` if none is).

    Raises :class:`~rbdl_edu.io.errors.ModelError` if more than one form is given, or
    if an axis has zero length.
    """
    given = [a for a in ORIENTATIONS if node.has(a)]
    if len(given) > 1:
        raise node.error(f"more than one orientation given: {', '.join(given)}", given[1])
    if not given:
        return np.array(default, dtype=float)
    q = _read(node, given[0], degrees, eulerseq)
    if not np.all(np.isfinite(q)) or not abs(np.linalg.norm(q) - 1) < 1e-9:
        raise node.error(f"{given[0]} does not give a rotation", given[0])
    return q


def _read(node, kind, degrees, eulerseq):
    angle = degrees_to_radians if degrees else (lambda x: np.asarray(x, dtype=float))
    if kind == "quat":
        return _normalized(node, node.floats("quat", 4), "quat")
    if kind == "axisangle":
        v = node.floats("axisangle", 4)
        axis, theta = _normalized(node, v[:3], "axisangle"), float(angle(v[3]))
        return np.concatenate([[np.cos(theta / 2)], np.sin(theta / 2) * axis])
    if kind == "euler":
        e = angle(node.floats("euler", 3))
        q = np.array([1.0, 0, 0, 0])
        for k, letter in enumerate(eulerseq):
            qk = np.array([np.cos(e[k] / 2), 0.0, 0.0, 0.0])
            qk[1 + _AXIS[letter.lower()]] = np.sin(e[k] / 2)
            # lowercase: about the rotating (new) axis; uppercase: about the fixed axis
            q = quat_mul(q, qk) if letter.islower() else quat_mul(qk, q)
        return q / np.linalg.norm(q)
    if kind == "xyaxes":
        v = node.floats("xyaxes", 6)
        x = _normalized(node, v[:3], "xyaxes")
        y = _normalized(node, v[3:] - x * (x @ v[3:]), "xyaxes")   # Gram-Schmidt
        z = np.cross(x, y)
        return frame_to_quat(np.column_stack([x, y, _normalized(node, z, "xyaxes")]))
    return z_to_quat(_normalized(node, node.floats("zaxis", 3), "zaxis"))


def check_eulerseq(node, text):
    """``<compiler eulerseq>``: three letters from ``xyzXYZ``."""
    if len(text) != 3 or any(c not in "xyzXYZ" for c in text):
        raise node.error(f"eulerseq={text!r} must be 3 letters from xyzXYZ", "eulerseq")
    return text
