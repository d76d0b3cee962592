"""A body's mass and inertia in the MJCF compiler, as MuJoCo sets them.

* ``<inertial>`` gives them directly (``fullinertia`` is diagonalized);
* otherwise (or always, with ``inertiafromgeom="true"``) they are inferred from the body's
  geoms (:func:`~rbdl_edu.io.inertia.combine`);
* ``boundmass``/``boundinertia`` raise small values, ``balanceinertia`` fixes inertias that
  break the triangle inequality :math:`I_1 + I_2 \\ge I_3`;
* ``settotalmass`` finally scales every mass and inertia.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><compiler settotalmass="10"/><worldbody>
...   <body><joint/><geom size="0.1"/></body><body><joint/><geom size="0.1"/></body></worldbody></mujoco>''')
>>> m.body_mass.tolist()
[0.0, 5.0, 5.0]
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.inertia import combine, eig3
from rbdl_edu.io.mjcf_defaults import check_attributes
from rbdl_edu.model.enums import MINVAL


def body_inertia(c, node, pos, quat, items, geoms):
    """``(mass, ipos, iquat, inertia)`` of a body, as MuJoCo's compiler sets them."""
    inertials = [n for n, _, _, _ in items if n.tag == "inertial"]
    if len(inertials) > 1:
        raise inertials[1].error("a body can have only one <inertial>")
    mass, ipos, iquat, inertia = 0.0, None, np.array([1.0, 0, 0, 0]), np.zeros(3)
    if inertials:
        mass, ipos, iquat, inertia = read_inertial(c, inertials[0])
    mode = c.settings.inertiafromgeom
    if mode == "true" or (mode == "auto" and not inertials):
        parts = [g["part"] for g in geoms if g["part"] is not None]
        if parts:
            mass, ipos, inertia, iquat = combine(parts)
    if ipos is None:
        # no inertial frame at all: MuJoCo copies the body frame into it (mass is zero)
        ipos, iquat = pos.copy(), quat.copy()
    if not (np.isfinite(mass) and np.all(np.isfinite(inertia)) and np.all(np.isfinite(ipos))):
        raise node.error("mass or inertia is not a finite number (sizes or densities too large)")
    s = c.settings
    mass = max(mass, s.boundmass)
    inertia = np.maximum(inertia, s.boundinertia)
    if mass < 0 or np.any(inertia < 0):
        raise node.error("mass and inertia cannot be negative")
    A, B, C = inertia
    if A + B < C or A + C < B or B + C < A:
        if not s.balanceinertia:
            where = inertials[0] if inertials else node
            raise where.error("inertia must satisfy A + B >= C (triangle inequality); "
                              'use <compiler balanceinertia="true"/> to fix')
        inertia = np.full(3, inertia.sum() / 3)
    return mass, ipos, iquat, inertia


def read_inertial(c, node):
    check_attributes(node)
    if not node.has("pos"):
        raise node.error("<inertial> needs pos", "pos")
    if not node.has("mass"):
        raise node.error("<inertial> needs mass", "mass")
    mass = node.float("mass")
    if mass < 0:
        raise node.error("mass must not be negative", "mass")
    if node.has("fullinertia"):
        if node.has("diaginertia"):
            raise node.error("give diaginertia or fullinertia, not both", "fullinertia")
        if any(node.has(a) for a in ("quat", "axisangle", "euler", "xyaxes", "zaxis")):
            raise node.error("fullinertia and an orientation cannot both be given", "fullinertia")
        # "Ixx Iyy Izz Ixy Ixz Iyz" -> its principal moments and axes
        f = node.floats("fullinertia", 6)
        I = np.array([[f[0], f[3], f[4]], [f[3], f[1], f[5]], [f[4], f[5], f[2]]])
        if np.linalg.eigvalsh(I).min() < -1e-12 * max(1.0, abs(f[:3]).max()):
            raise node.error("fullinertia is not positive semi-definite", "fullinertia")
        inertia, iquat = eig3(I)
    else:
        if not node.has("diaginertia"):
            raise node.error("<inertial> needs diaginertia or fullinertia", "diaginertia")
        inertia, iquat = node.floats("diaginertia", 3), c.orientation(node)
    if np.any(inertia < 0):
        raise node.error("inertia must not be negative",
                         "fullinertia" if node.has("fullinertia") else "diaginertia")
    return mass, node.floats("pos", 3), iquat, np.asarray(inertia, dtype=float)


def check_moving_bodies(c):
    """MuJoCo's rule: a body with a joint needs mass and inertia (at least
    ``mjMINVAL``), or a jointless descendant (welded to it) that has them."""
    B = c.spec.bodies
    # carries[i]: body i, or a body welded below it, has mass and inertia (children come
    # after their parents, so one pass from the leaves up settles it)
    carries = [B[i]["mass"] >= MINVAL and np.all(np.asarray(B[i]["inertia"]) >= MINVAL)
               for i in range(len(B))]
    for i in range(len(B) - 1, 0, -1):
        if carries[i] and not c.body_has_joint[i]:
            carries[B[i]["parent"]] = True
    for i in range(1, len(B)):
        if c.body_has_joint[i] and not carries[i]:
            raise c.body_mass_nodes[i].error(
                "a body with a joint must have positive mass and inertia (give <inertial> or geoms)")


def set_total_mass(c):
    """``<compiler settotalmass>``: scale every mass and inertia so the masses add up to it."""
    target = c.settings.settotalmass
    if target <= 0:
        return
    total = sum(b["mass"] for b in c.spec.bodies[1:])
    scale = target / max(MINVAL, total)
    for b in c.spec.bodies[1:]:
        b["mass"] = b["mass"] * scale
        b["inertia"] = np.asarray(b["inertia"]) * scale
