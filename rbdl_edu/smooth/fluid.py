r"""MuJoCo's two fluid models: the wrench a fluid of density :math:`\rho` and viscosity
:math:`\beta`, blowing with the velocity ``wind``, exerts on each body
(``doc/computation/fluid.rst`` of MuJoCo; ``mj_fluid`` in its ``engine_passive.c``).

Both work in a frame that moves with the body (or geom): ``v`` and ``ω`` are its linear
and angular velocity relative to the wind, in its own axes.

* **Inertia box** (every body, unless one of its geoms asks for the ellipsoid model): the
  body is the box with its mass and inertia, half-sizes
  :math:`r_i = \sqrt{6\,(I_j + I_k - I_i) / m}\,/\,2`. Quadratic drag
  :math:`f_i = -2\rho\,r_j r_k |v_i| v_i`, :math:`g_i = -\tfrac12\rho\,r_i (r_j^4 + r_k^4)|\omega_i|\omega_i`,
  and Stokes' viscous resistance of the sphere of radius :math:`r = (r_x + r_y + r_z)/3`:
  :math:`f = -6\pi\beta r\,v`, :math:`g = -8\pi\beta r^3\,\omega`.
* **Ellipsoid** (``fluidshape="ellipsoid"`` on a geom): the geom is the ellipsoid of
  :func:`~rbdl_edu.model.semiaxes.geom_semiaxes`; the fluid acts through its added mass
  (:func:`added_mass_wrench`), blunt and slender drag, angular drag, Kutta and Magnus lift
  and viscous resistance (:func:`viscous_wrench`), each scaled by ``geom_fluid``'s
  coefficients.

The wrenches here are ``(torque, force)`` pairs; :mod:`rbdl_edu.smooth.passive` maps them to joint
forces. Numbers only (the simulation stages are float-only).

>>> lfrc = inertia_box_wrench(np.array([0.0, 0, 0, 1, 0, 0]), box=np.array([0.5, 0.5, 0.5]),
...                           density=1.0, viscosity=0.0)
>>> lfrc                       # moving along x at 1 m/s: drag 2 rho r_y r_z v^2 = 0.5 N backwards
array([ 0. ,  0. ,  0. , -0.5,  0. ,  0. ])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import concat, namespace
from rbdl_edu.model.enums import GEOM_NAMES, MINVAL, OBJ_BODY, OBJ_GEOM
from rbdl_edu.model.semiaxes import geom_semiaxes
from rbdl_edu.rotation import cross
from rbdl_edu.smooth.comframe import object_velocity


def fluid_wrenches(model, data):
    """Every fluid wrench in world axes: a list of ``(body, point (3,), force (3,),
    torque (3,))``, the force acting at ``point``. Needs the poses of
    :func:`~rbdl_edu.kinematics.kinematics` and ``cvel`` (:func:`~rbdl_edu.smooth.comframe.com_vel_acc`).
    Empty unless ``opt.density`` or ``opt.viscosity`` is nonzero."""
    m, opt = model, model.opt
    if not opt.viscosity and not opt.density:
        return []
    out = []
    for i, objtype, g, point, R in fluid_frames(model, data):
        vel = relative_velocity(model, data, objtype, g, R)
        if objtype == OBJ_GEOM:         # the ellipsoid model, geom by geom
            semiaxes = geom_semiaxes(GEOM_NAMES[int(m.geom_type[g])], m.geom_size[g])
            coef, drag_blunt, drag_slender, drag_ang, kutta, magnus = m.geom_fluid[g, :6]
            lfrc = coef * (added_mass_wrench(vel, opt.density, m.geom_fluid[g, 6:9], m.geom_fluid[g, 9:12])
                           + viscous_wrench(vel, opt.density, opt.viscosity, semiaxes, drag_blunt,
                                            drag_slender, drag_ang, kutta, magnus))
        else:                           # the body's inertia box
            lfrc = inertia_box_wrench(vel, inertia_box(m.body_mass[i], m.body_inertia[i]),
                                      opt.density, opt.viscosity)
        out.append(_to_world(i, point, R, lfrc))
    return out


def fluid_frames(model, data):
    """The frames the fluid acts in, one ``(body, objtype, objid, point, R)`` each: for a
    body with a ``fluidshape="ellipsoid"`` geom, each such geom (``OBJ_GEOM``, its frame:
    the ellipsoid model replaces the body's inertia box); for any other body, the body
    itself (``OBJ_BODY``, its inertial frame ``xipos``, ``ximat``: the inertia box). A
    massless body has no box, and one welded to the world moves no joint: both are left
    out. :func:`~rbdl_edu.simulation.fluid_derivatives.fluid_vel` walks the same frames."""
    m = model
    for i in range(1, m.nbody):
        if m.body_mass[i] < MINVAL or m.body_weldid[i] == 0:
            continue
        geoms = [g for g in range(m.body_geomadr[i], m.body_geomadr[i] + m.body_geomnum[i])
                 if m.geom_fluid[g, 0] > 0]
        if geoms:
            for g in geoms:
                yield i, OBJ_GEOM, g, data.geom_xpos[g], data.geom_xmat[g]
        else:
            yield i, OBJ_BODY, i, data.xipos[i], data.ximat[i]


def relative_velocity(model, data, objtype, objid, R):
    """``[ω; v - wind]`` of the object's frame, in its own axes ``R``."""
    vel = object_velocity(model, data, objtype, objid, local=True)
    return concat(vel[:3], vel[3:] - R.T @ model.opt.wind)


def _to_world(body, point, R, lfrc):
    """A local ``[torque; force]`` turned to world axes, as ``(body, point, force, torque)``."""
    return body, point, R @ lfrc[3:], R @ lfrc[:3]


def inertia_box(mass, inertia):
    r"""Half-sizes ``(3,)`` of the box with this mass and these principal moments:
    :math:`r_i = \sqrt{3 (I_j + I_k - I_i) / (2m)}` (a tiny floor keeps it real).

    >>> inertia_box(12.0, [5.0, 5.0, 2.0])        # a 1 x 1 x 2 box of 12 kg
    array([0.5, 0.5, 1. ])
    """
    I = np.asarray(inertia, dtype=float)
    return np.sqrt(np.maximum(MINVAL, I.sum() - 2 * I) / mass * 6.0) / 2


def inertia_box_wrench(vel, box, density, viscosity):
    r"""The inertia-box model's local wrench ``[torque; force] (6,)`` on a body with
    velocity ``vel = [ω; v]`` (its own axes, relative to the wind) and half-sizes ``box``
    (module docstring). MuJoCo's full sizes :math:`s = 2r` appear in the code as
    ``s = 2 * box``."""
    w, v = vel[:3], vel[3:]
    s = 2 * box                                            # full side lengths
    torque, force = np.zeros(3), np.zeros(3)
    if viscosity > 0:
        # Stokes: a sphere of diameter d (the mean side)
        d = s.sum() / 3.0
        torque = torque - np.pi * d ** 3 * viscosity * w
        force = force - 3.0 * np.pi * d * viscosity * v
    if density > 0:
        j, k = [1, 0, 0], [2, 2, 1]                         # the other two axes of each axis
        # quadratic drag on the face across each axis, and on the spinning faces
        force = force - 0.5 * density * s[j] * s[k] * abs(v) * v
        torque = torque - density * s * (s[j] ** 4 + s[k] ** 4) * abs(w) * w / 64.0
    return concat(torque, force)


def added_mass_wrench(vel, density, virtual_mass, virtual_inertia):
    r"""The force of the fluid carried along (its momentum :math:`p = \rho\,m_A \circ v`,
    :math:`L = \rho\,I_A \circ \omega`) on a body moving steadily: local ``[torque; force]``,

    .. math:: f_A = p \times \omega, \qquad g_A = p \times v + L \times \omega

    (the terms in the acceleration are left out, as MuJoCo does: they would need ``qacc``).

    >>> added_mass_wrench(np.array([0.0, 0, 1, 1, 0, 0]), 1.0, np.ones(3), np.ones(3))
    array([ 0.,  0.,  0.,  0., -1.,  0.])
    """
    w, v = vel[:3], vel[3:]
    p = density * np.asarray(virtual_mass) * v
    L = density * np.asarray(virtual_inertia) * w
    return concat(cross(p, v) + cross(L, w), cross(p, w))


def viscous_wrench(vel, density, viscosity, r, drag_blunt, drag_slender, drag_ang, kutta, magnus):
    r"""The ellipsoid model's drag, lift and viscous resistance on an ellipsoid of semi-axes
    ``r`` moving with ``vel = [ω; v]`` (its axes, relative to the wind): local
    ``[torque; force] (6,)``.

    * Magnus lift :math:`f_M = C_M \rho V\,\omega \times v`;
    * Kutta lift :math:`f_K = C_K \rho A_{proj} \cos\alpha\,(n \times v) \times v`, with
      :math:`n` the (unnormalized) normal of the cross-section the ellipsoid shows to the
      flow, :math:`A_{proj}` its projected area and :math:`\alpha` the angle between
      :math:`n` and :math:`v`;
    * drag :math:`f_D = -\big(6\pi\beta r_D
      + \rho |v| (C_{blunt} A_{proj} + C_{slender}(A_{max} - A_{proj}))\big) v`,
      with :math:`r_D` the mean semi-axis, :math:`A_{max} = \pi r_{max} r_{mid}`;
    * angular drag :math:`g_D = -\big(8\pi\beta r_D^3 + \rho\,|I_\omega|\big)\omega`, where
      :math:`I_{\omega,i} = \omega_i\,(C_{ang} I_i + C_{slender}(I_{max} - I_i))` and
      :math:`I_i = \tfrac{8\pi}{15} r_i \max(r_j, r_k)^4` is the moment of the ellipsoid
      swept by turning about axis ``i``.
    """
    w, v = vel[:3], vel[3:]
    xp = namespace(vel)
    r = np.asarray(r, dtype=float)
    volume = 4.0 / 3.0 * np.pi * r[0] * r[1] * r[2]
    d_max, d_min = r.max(), r.min()
    d_mid = r.sum() - d_max - d_min
    A_max = np.pi * d_max * d_mid
    magnus_force = magnus * density * volume * cross(w, v)
    # the cross-section facing the flow: its normal n and projected area A_proj
    rr = np.array([r[1] * r[2], r[2] * r[0], r[0] * r[1]])        # r_j r_k for each axis
    proj_denom = (rr ** 4 * v ** 2).sum()
    proj_num = ((rr * v) ** 2).sum()
    A_proj = np.pi * xp.sqrt(proj_denom / xp.maximum(MINVAL, proj_num))
    n = rr ** 2 * v
    speed = xp.sqrt(v @ v)
    cos_alpha = proj_num / xp.maximum(MINVAL, speed * proj_denom)
    kutta_circulation = kutta * density * cos_alpha * A_proj * cross(n, v)
    kutta_force = cross(kutta_circulation, v)
    # Stokes' resistance of the sphere of diameter 2 r_D
    D = 2.0 / 3.0 * r.sum()
    I_swept = np.array([8.0 / 15.0 * np.pi * r[i] * max(r[(i + 1) % 3], r[(i + 2) % 3]) ** 4
                        for i in range(3)])
    I_max = 8.0 / 15.0 * np.pi * d_mid * d_max ** 4
    mom = w * (drag_ang * I_swept + drag_slender * (I_max - I_swept))
    drag_lin = viscosity * 3.0 * np.pi * D + density * speed * (
        A_proj * drag_blunt + drag_slender * (A_max - A_proj))
    drag_ang_coef = viscosity * np.pi * D ** 3 + density * xp.sqrt(mom @ mom)
    return concat(-drag_ang_coef * w, magnus_force + kutta_force - drag_lin * v)
