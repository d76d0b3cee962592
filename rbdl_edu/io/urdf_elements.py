"""Reading URDF elements with care: the one ``<origin>``, ``<inertial>``, ``<axis>``, ...
an element may hold (:func:`child`), and a typo in an attribute the dynamics reads caught
(:func:`check`, by edit distance: :func:`edits`) rather than silently ignored; URDF's
roll-pitch-yaw (:func:`rpy_to_quat`), an ``<origin>`` as a pose (:func:`origin`), and a
link's ``<inertial>`` diagonalized into MuJoCo's principal frame (:func:`inertial`).
:mod:`rbdl_edu.io.urdf` builds the robot from these.

What :func:`check` tolerates (an unknown element, an attribute no typo away from a known
one) it notes in :data:`ignored`; the reader warns once per file.

>>> edits("dampng", "damping"), edits("xzy", "xyz")
(1, 1)
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.inertia import eig3
from rbdl_edu.rotation import quat_mul

# the attributes of the elements the dynamics reads (None: any)
ATTRIBUTES = {"origin": {"xyz", "rpy"}, "mass": {"value"},
              "inertia": {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"}, "axis": {"xyz"},
              "limit": {"lower", "upper", "effort", "velocity"}, "dynamics": {"damping", "friction"},
              "mimic": {"joint", "multiplier", "offset"}, "parent": {"link"}, "child": {"link"},
              "joint": {"name", "type"}, "inertial": set(), "geometry": {"name"}, "box": {"size"},
              "cylinder": {"radius", "length"}, "sphere": {"radius"}, "mesh": {"filename", "scale"}}
# the elements each may hold (a second one of these is an error; others are warned about)
CHILDREN = {"joint": {"origin", "parent", "child", "axis", "calibration", "dynamics", "limit", "mimic",
                      "safety_controller"},
            "link": {"inertial", "visual", "collision", "contact"},      # (PyBullet's <contact>)
            "inertial": {"origin", "mass", "inertia"},
            "collision": {"origin", "geometry", "material"}}


def rpy_to_quat(rpy):
    """Quaternion of URDF's roll-pitch-yaw: rotate about x by roll, then about the fixed y
    by pitch, then about the fixed z by yaw, :math:`q = q_z \\otimes q_y \\otimes q_x`.

    >>> np.round(rpy_to_quat([0.0, 0.0, np.pi / 2]), 12)
    array([0.70710678, 0.        , 0.        , 0.70710678])
    """
    r, p, y = rpy
    qx = np.array([np.cos(r / 2), np.sin(r / 2), 0.0, 0.0])
    qy = np.array([np.cos(p / 2), 0.0, np.sin(p / 2), 0.0])
    qz = np.array([np.cos(y / 2), 0.0, 0.0, np.sin(y / 2)])
    return quat_mul(qz, quat_mul(qy, qx))


def origin(node):
    """``(pos, quat)`` of an element's ``<origin>`` child (identity if absent)."""
    o = child(node, "origin")
    if o is None:
        return np.zeros(3), np.array([1.0, 0, 0, 0])
    return (o.floats("xyz", 3, default=np.zeros(3)),
            rpy_to_quat(o.floats("rpy", 3, default=np.zeros(3))))


def child(node, tag, required=False):
    """The one ``<tag>`` inside ``node`` (None if there is none); its attributes checked."""
    found = [c for c in node.children if c.tag == tag]
    if required and not found:
        raise node.error(f"<{node.tag}> needs a <{tag}>")
    if len(found) > 1:
        raise found[1].error(f"a second <{tag}> in <{node.tag}> (URDF allows one)")
    if found:
        check(found[0])
    return found[0] if found else None


def check(node):
    """Refuse an attribute the element does not have (a typo would change the physics) and
    warn about an element it does not hold (URDF extensions are elements)."""
    allowed = ATTRIBUTES.get(node.tag)
    if allowed is not None:
        for name in node.attrib:
            if name in allowed or ":" in name or name.startswith("{"):
                continue
            close = [a for a in sorted(allowed) if edits(name, a) <= (1 if len(a) <= 4 else 2)]
            if close:
                raise node.error(f"unknown attribute {name!r} for <{node.tag}>: did you mean "
                                 f"{close[0]!r}?", name)
            ignored.append(f"{node.line}: <{node.tag} {name}=...>")
    known = CHILDREN.get(node.tag)
    if known is not None:
        for c in node.children:
            if c.tag not in known and not c.tag.startswith("{"):
                ignored.append(f"{c.line}: <{c.tag}> inside <{node.tag}>")


def edits(a, b):
    """The number of one-letter edits (insert, delete, replace, swap two neighbours) from
    ``a`` to ``b`` (Damerau-Levenshtein): a typo is one or two."""
    d = {(i, -1): i + 1 for i in range(-1, len(a))} | {(-1, j): j + 1 for j in range(-1, len(b))}
    for i in range(len(a)):
        for j in range(len(b)):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (a[i] != b[j]))
            if i and j and a[i] == b[j - 1] and a[i - 1] == b[j]:
                d[i, j] = min(d[i, j], d[i - 2, j - 2] + 1)
    return d[len(a) - 1, len(b) - 1]


ignored = []          # what check found and the loader warns about, once per file


def positive(node, name):
    """A required positive number attribute."""
    v = node.float(name)
    if v is None or not v > 0:
        raise node.error(f"<{node.tag}> needs a positive {name}", name)
    return v


def inertial(link):
    """``(mass, ipos, iquat, inertia)`` of a link (all zero if it has no ``<inertial>``)."""
    node = child(link, "inertial")
    if node is None:
        return 0.0, np.zeros(3), np.array([1.0, 0, 0, 0]), np.zeros(3)
    m = child(node, "mass", required=True)
    mass = m.float("value")
    if mass is None:
        raise m.error("<mass> needs a value", "value")
    if mass < 0:
        raise m.error("mass must not be negative", "value")
    pos, quat = origin(node)
    t = child(node, "inertia", required=True)
    names = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")
    v = {k: t.float(k, 0.0) for k in names}
    I = np.array([[v["ixx"], v["ixy"], v["ixz"]],
                  [v["ixy"], v["iyy"], v["iyz"]],
                  [v["ixz"], v["iyz"], v["izz"]]])
    if not np.all(np.isfinite(I)):
        raise t.error("inertia is not a finite number", "ixx")
    scale = max(1e-300, np.abs(I).max())
    if np.linalg.eigvalsh(I).min() < -max(1e-12, 1e-9 * scale):
        raise t.error("inertia tensor is not positive semi-definite", "ixx")
    # principal moments and axes, in the link frame: iquat = origin quat * eigen-axes
    inertia, q_axes = eig3(I, tol=1e-15)       # relative: URDF inertias can be tiny
    return mass, pos, quat_mul(quat, q_axes), np.maximum(inertia, 0.0)
