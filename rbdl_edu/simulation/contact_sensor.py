r"""MuJoCo 4.0's ``contact`` sensor: a fixed-size report of the contacts that match, in
three steps (book, chapter 10).

1. **Match.** A contact matches if it involves the first object (``geom1``, ``body1``,
   ``subtree1``: the body or any body below it) and the second (``geom2``, ``body2``,
   ``subtree2``); an unnamed side matches anything. A ``site`` instead of the first object
   matches contacts whose position lies inside the site's volume. The reported normal points
   from the first object to the second: when the contact has them the other way round, its
   frame is turned by 180° about its second tangent (normal and first tangent negated, the
   force's and torque's third component too).
2. **Reduce** to ``num`` slots: the first matches in ``data.contact`` order (``none``), the
   smallest distances (``mindist``) or largest forces (``maxforce``) first; or
   (``netforce``) one synthetic contact at the force-weighted centroid of the matches, with
   their total force and torque about it in world axes (zeros if nothing matches).
3. **Extract** the ``data`` fields of each slot: ``found`` (the number of matches), ``force``
   and ``torque`` (contact frame), ``dist``, ``pos``, ``normal``, ``tangent``, and the
   second body's velocity relative to the first at the contact, ``linvel`` and ``angvel``
   (contact frame). Empty slots are zero.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.collision.raycast import inside_shape
from rbdl_edu.constraint.rows import contact_force
from rbdl_edu.model.enums import CONDATA, MINVAL, OBJ_BODY, OBJ_GEOM, OBJ_SITE, OBJ_UNKNOWN, OBJ_XBODY
from rbdl_edu.rotation import cross
from rbdl_edu.smooth.comframe import object_velocity

__all__ = ["contact_sensor", "match_contact"]


def _involves(model, body, geom, objtype, objid):
    """Does the contact side ``(body, geom)`` satisfy the criterion ``(objtype, objid)``?"""
    if objtype in (OBJ_UNKNOWN, OBJ_SITE):
        return True
    if objtype == OBJ_GEOM:
        return geom == objid
    if objtype == OBJ_BODY:
        return body == objid
    if objtype == OBJ_XBODY:                       # the subtree: climb until at or above objid
        while body > objid:
            body = model.body_parentid[body]
        return body == objid
    return False


def match_contact(model, data, k, type1, id1, type2, id2):
    """0 if contact ``k`` does not match, 1 if it does as it is, -1 if it does with the
    sides swapped (MuJoCo's ``matchContact``)."""
    m, con = model, data.contact[k]
    if type1 == OBJ_UNKNOWN and type2 == OBJ_UNKNOWN:
        return 1
    if type1 == OBJ_SITE and not inside_shape(data.site_xpos[id1], data.site_xmat[id1], m.site_size[id1],
                                              m.site_type[id1], con.pos):
        return 0
    sides = [(m.geom_bodyid[con.geom1], con.geom1), (m.geom_bodyid[con.geom2], con.geom2)]
    m11, m12 = (_involves(m, b, g, type1, id1) for b, g in sides)
    m21, m22 = (_involves(m, b, g, type2, id2) for b, g in sides)
    if not (m11 or m12) or not (m21 or m22):
        return 0
    if type1 != OBJ_UNKNOWN and type2 != OBJ_UNKNOWN:
        regular, reverse = m11 and m22, m12 and m21
        return -1 if reverse and not regular else 1
    if type1 != OBJ_UNKNOWN:
        return 1 if m11 else -1
    return 1 if m22 else -1


def _relative_velocity(model, data, k):
    """The second body's ``[ω; v]`` relative to the first's at contact ``k``, in its frame."""
    con = data.contact[k]
    vel = []
    for g in (con.geom1, con.geom2):
        b = model.geom_bodyid[g]
        w, v = object_velocity(model, data, OBJ_XBODY, b)[:3], object_velocity(model, data, OBJ_XBODY, b)[3:]
        vel.append((w, v + cross(w, con.pos - data.xpos[b])))
    w, v = vel[1][0] - vel[0][0], vel[1][1] - vel[0][1]
    return con.frame @ w, con.frame @ v


def _slot(model, data, k, flip, nfound, bits):
    """The data fields of contact ``k`` (turned if ``flip``), concatenated."""
    con = data.contact[k]
    f = contact_force(model, data, k) if bits & 0b110 else np.zeros(6)   # forces: acceleration stage only
    force, torque = f[:3].copy(), f[3:].copy()
    normal, tangent = con.frame[0].copy(), con.frame[1].copy()
    angvel, linvel = _relative_velocity(model, data, k) if bits & 0b110000000 else (np.zeros(3), np.zeros(3))
    if flip:
        force[2], torque[2] = -force[2], -torque[2]
        normal, tangent = -normal, -tangent
        # the other body relative to this one, in the turned frame (n, t, b) -> (-n, -t, b)
        linvel, angvel = linvel * [1, 1, -1], angvel * [1, 1, -1]
    fields = {"found": [nfound], "force": force, "torque": torque, "dist": [con.dist], "pos": con.pos,
              "normal": normal, "tangent": tangent, "linvel": linvel, "angvel": angvel}
    return np.concatenate([fields[name] for i, name in enumerate(CONDATA) if bits >> i & 1])


def contact_sensor(model, data, s):
    """The contact sensor ``s``'s ``num`` slots (module docstring)."""
    m = model
    bits, reduce, num = (int(x) for x in m.sensor_intprm[s])
    size = m.sensor_dim[s] // num
    matches = []
    for k in range(len(data.contact)):
        how = match_contact(m, data, k, m.sensor_objtype[s], m.sensor_objid[s], m.sensor_reftype[s],
                            m.sensor_refid[s])
        if how:
            matches.append((k, how < 0))
    out = np.zeros(m.sensor_dim[s])
    if reduce == 3:
        return _netforce(m, data, matches, bits, out)
    if reduce == 1:
        matches.sort(key=lambda km: (data.contact[km[0]].dist, km[0]))
    elif reduce == 2:
        matches.sort(key=lambda km: (-float(contact_force(m, data, km[0])[:3] @ contact_force(m, data, km[0])[:3]),
                                     km[0]))
    for j, (k, flip) in enumerate(matches[:num]):
        out[j * size:(j + 1) * size] = _slot(m, data, k, flip, len(matches), bits)
    return out


def _netforce(model, data, matches, bits, out):
    """One synthetic contact: the force-weighted centroid of the matches and their total
    wrench about it, in world axes (normal = x, tangent = y); all zero without a match."""
    if not matches:
        return out
    wrenches, weights = [], []
    for k, flip in matches:
        w = contact_force(model, data, k) * (-1 if flip else 1)
        wrenches.append(w)
        weights.append(np.linalg.norm(w[:3]))
    point = np.zeros(3)
    for (k, _), weight in zip(matches, weights):
        point += weight * data.contact[k].pos
    point = point / max(sum(weights), MINVAL)
    force, torque = np.zeros(3), np.zeros(3)
    for (k, _), w in zip(matches, wrenches):
        frame = data.contact[k].frame
        f = frame.T @ w[:3]
        force += f
        torque += frame.T @ w[3:] + cross(data.contact[k].pos - point, f)
    fields = {"found": [len(matches)], "force": force, "torque": torque, "dist": [0.0], "pos": point,
              "normal": [1.0, 0.0, 0.0], "tangent": [0.0, 1.0, 0.0], "linvel": np.zeros(3), "angvel": np.zeros(3)}
    out[:] = np.concatenate([fields[name] for i, name in enumerate(CONDATA) if bits >> i & 1])
    return out
