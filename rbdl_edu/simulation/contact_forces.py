r"""The forces of all contacts at once, and the ``touch`` sensors that add them up (MuJoCo's
``mj_contactForce`` for every contact, and its touch sensor; book, chapters 8 and 10).

A contact with constraint rows (``efc_address >= 0``) pushes with the forces of its rows,
in its own frame (:func:`~rbdl_edu.constraint.rows.contact_force`, one contact): an
elliptic cone's rows are the forces themselves; a pyramid's :math:`2(\mathrm{dim} - 1)` edge
forces :math:`f_{k\pm}` give the normal force :math:`\sum_k (f_{k+} + f_{k-})` and the
friction :math:`\mu_k (f_{k+} - f_{k-})`; an adhesive contact reports the net normal force,
less its adhesion. :func:`contact_forces` does this for every contact in a few array
operations, over a table of each contact's rows (one column per contact, zeros below its
last row). The wrenches on the bodies (:func:`~rbdl_edu.simulation.rne_post.constraint_wrenches`)
and the touch sensors (:func:`touch`) read the one table.

The simulation stages are float-only (NumPy).

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
...   <body pos="0 0 .099"><freejoint/><geom size=".1" mass="1"/><site name="s" size=".11"/></body>
...   </worldbody><sensor><touch site="s"/></sensor></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data)
>>> forces = contact_forces(model, data)
>>> forces.force.round(4), forces.bodies             # a 1 kg ball pressed 1 mm into the floor
(array([[11.8195,  0.    ,  0.    ,  0.    ,  0.    ,  0.    ]]), array([[0, 1]]))
>>> touch(model, data, np.array([0]), forces).round(4)
array([11.8195])
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rbdl_edu.collision.ray import ray_geom
from rbdl_edu.model.enums import MINVAL, SPHERE
from rbdl_edu.model.frozen import plain


class ContactForces(NamedTuple):
    """The contacts that have constraint rows, in the order of ``data.contact`` (:func:`contact_forces`)."""
    bodies: np.ndarray     # (n, 2): the bodies of its geom1 and geom2
    pos: np.ndarray        # (n, 3): the contact point
    frame: np.ndarray      # (n, 3, 3): the contact frame (rows: the normal, two tangents)
    force: np.ndarray      # (n, 6): the force in that frame (normal, 2 friction, spin, 2 rolling)


_ROW = np.arange(10)[:, None]        # a contact has at most 10 rows (a pyramid of dim 6)
_NO_FRICTION = np.zeros(5)
_NONE = ContactForces(np.zeros((0, 2), dtype=int), np.zeros((0, 3)), np.zeros((0, 3, 3)), np.zeros((0, 6)))


def contact_forces(model, data):
    """Every contact's force in its own frame (:class:`ContactForces`; the contacts without rows,
    excluded or immovable, are left out), all at once."""
    m = plain(model)
    cons = [con for con in data.contact if con.efc_address >= 0]
    if not cons:
        return _NONE
    ints = np.array([(con.efc_address, con.dim, con.geom1, con.geom2) for con in cons])
    adr, dim = ints[:, 0], ints[:, 1]
    elliptic = m.opt.cone == "elliptic"
    # each contact's rows, one column per contact (zeros below its last row): a pyramid has
    # 2 (dim - 1) edges (one row if dim is 1), an elliptic cone dim rows
    f = data.efc_force
    count = dim if elliptic else np.maximum(2 * dim - 2, 1)
    rows = np.where(_ROW < count, f[np.minimum(adr + _ROW, len(f) - 1)], 0.0)
    if elliptic:
        force = rows[:6].T.copy()
    else:
        # the normal force Σ (f_k+ + f_k-) (the rows added one by one, as MuJoCo's mj_contactForce)
        # and the friction μ_k (f_k+ - f_k-)
        friction = np.array([con.friction if con.dim > 1 else _NO_FRICTION for con in cons])
        force = np.concatenate([np.cumsum(rows, axis=0)[-1, :, None], (rows[0::2] - rows[1::2]).T * friction], axis=1)
    adhesion = [con.adhesion for con in cons]
    if any(adhesion):
        force[:, 0] -= adhesion
    return ContactForces(m.geom_bodyid[ints[:, 2:]], np.array([con.pos for con in cons]),
                         np.array([con.frame for con in cons]), force)


def touch(model, data, sites, forces):
    r"""``(len(sites),)``: what the touch sensors on ``sites`` read: per site, the sum of the normal
    forces of the contacts of the site's body whose force ray, from the contact point along
    the normal force (pointing into the site's body), meets the site's volume (MuJoCo's
    sensor zone). Which contacts push on which site's body is one array test; the rays are
    cast for those only (:func:`rays_meet_sites`)."""
    m = plain(model)
    if not len(forces.pos):
        return np.zeros(len(sites))             # (no contact: nothing to ask the site's pose, numbers or traced)
    # on[i, k, side]: contact k's geom on this side (geom1, geom2) is on site i's body
    on = forces.bodies == m.site_bodyid[sites][:, None, None]
    i, k = np.nonzero(on.any(axis=2) & (forces.force[:, 0] > 0))
    # the normal points from geom1 to geom2: turned where the site's body is geom2's
    ray = forces.frame[k, 0] * np.where(on[i, k, 1], -1.0, 1.0)[:, None]
    hit = rays_meet_sites(model, data, sites[i], forces.pos[k], ray)
    # the normal forces of the rays that hit, added up site by site (in contact order)
    return np.bincount(i[hit], weights=forces.force[k[hit], 0], minlength=len(sites))


def rays_meet_sites(model, data, sites, pnt, vec):
    r"""``(n,)`` booleans: the ray :math:`p_k + x\,v_k`, :math:`x \ge 0`, meets the volume of site
    ``sites[k]`` (:func:`~rbdl_edu.collision.ray.ray_geom` :math:`\ge 0`). Spheres all at once, as
    MuJoCo's ``ray_sphere``: with :math:`d = p - x_s`, the ray meets the sphere of radius
    :math:`r` where :math:`(v \cdot v)\,x^2 + 2 (v \cdot d)\,x + d \cdot d - r^2 = 0` has a root
    :math:`x \ge 0`, that is where its larger root is not negative; other shapes one by one."""
    m = plain(model)
    sphere = m.site_type[sites] == SPHERE
    if sphere.all():
        d = pnt - data.site_xpos[sites]
        a, b, c = (vec * vec).sum(axis=1), (vec * d).sum(axis=1), (d * d).sum(axis=1) - m.site_size[sites, 0] ** 2
        det = b * b - a * c
        return (det >= 0) & (a >= MINVAL) & (np.sqrt(np.maximum(det, 0.0)) >= b)
    hit = np.zeros(len(sites), dtype=bool)
    if sphere.any():
        hit[sphere] = rays_meet_sites(model, data, sites[sphere], pnt[sphere], vec[sphere])
    for j in np.flatnonzero(~sphere):
        s = sites[j]
        hit[j] = ray_geom(data.site_xpos[s], data.site_xmat[s], m.site_size[s], pnt[j], vec[j], m.site_type[s]) >= 0
    return hit
