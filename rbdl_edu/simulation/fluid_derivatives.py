r"""How the fluid's wrench changes with velocity: the :math:`6\times6` matrices
:math:`B = \partial\,\mathrm{lfrc} / \partial\,\mathrm{vel}` of the two fluid models of
:mod:`rbdl_edu.smooth.fluid` (MuJoCo's ``mjd_inertiaBoxFluid`` and ``mjd_ellipsoidFluid``, used by
the ``implicitfast`` integrator; book, chapter 8).

Everything is in the frame that moves with the body (inertia box) or the geom (ellipsoid):
``vel = [ω; v]`` is its velocity relative to the wind in its own axes, and the wrench is
``[torque; force]`` in the same axes, so row ``i``, column ``j`` of ``B`` is
:math:`\partial\,\mathrm{lfrc}_i/\partial\,\mathrm{vel}_j`. The frame's velocity is
:math:`J\dot q` with the local Jacobian ``J (6, nv)`` and the joint forces are
:math:`J^T \mathrm{lfrc}`, so the joint-space derivative is :math:`J^T B J`
(:func:`fluid_vel`).

Each block is the exact derivative of the force in :mod:`rbdl_edu.smooth.fluid`, with MuJoCo's
guards against dividing by zero (``MINVAL``) where the flow stops, so that a body at rest in
still fluid gets the viscous terms only. Numbers only (a simulation stage).

>>> B = inertia_box_vel(np.array([0.0, 0, 0, 1, 0, 0]), box=np.array([0.5, 0.5, 0.5]),
...                     density=1.0, viscosity=0.0)
>>> np.diag(B)                 # drag -rho s_y s_z |v| v / 2 grows at -rho s_y s_z |v| = -1
array([ 0.,  0.,  0., -1.,  0.,  0.])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import concat, namespace
from rbdl_edu.model.enums import GEOM_NAMES, MINVAL, OBJ_GEOM
from rbdl_edu.model.semiaxes import geom_semiaxes
from rbdl_edu.rotation import skew
from rbdl_edu.smooth.comframe import jac
from rbdl_edu.smooth.fluid import fluid_frames, inertia_box, relative_velocity


def fluid_vel(model, data, symmetrize=()):
    r""":math:`\partial\,\mathrm{qfrc\_fluid}/\partial\dot q` ``(nv, nv)``: :math:`\sum J^T B J`
    over the bodies in the fluid (inertia box) or their geoms (ellipsoid), the frames of
    :func:`~rbdl_edu.smooth.fluid.fluid_frames`. An ellipsoid's ``B`` is not symmetric;
    on the bodies in ``symmetrize`` it is replaced by :math:`(B + B^T)/2` (what
    ``implicitfast`` does, except on standalone free bodies). Zero unless ``opt.density`` or
    ``opt.viscosity`` is positive."""
    m, opt = model, model.opt
    D = np.zeros((m.nv, m.nv))
    if not (opt.density > 0 or opt.viscosity > 0):
        return D
    for i, objtype, g, point, R in fluid_frames(model, data):
        vel = relative_velocity(model, data, objtype, g, R)
        jacp, jacr = jac(model, data, i, point)
        J = namespace(jacr, R).concatenate([R.T @ jacr, R.T @ jacp])   # local, rotation rows first
        if objtype == OBJ_GEOM:
            semiaxes = geom_semiaxes(GEOM_NAMES[int(m.geom_type[g])], m.geom_size[g])
            B = ellipsoid_vel(vel, opt.density, opt.viscosity, semiaxes, m.geom_fluid[g])
            if i in symmetrize:
                B = (B + B.T) / 2
        else:
            B = inertia_box_vel(vel, inertia_box(m.body_mass[i], m.body_inertia[i]), opt.density, opt.viscosity)
        D = D + J.T @ B @ J
    return D


def inertia_box_vel(vel, box, density, viscosity):
    r"""``B (6, 6)`` of the inertia-box model (diagonal: each component of its wrench depends
    on the same component of the velocity). With full sides :math:`s = 2r` and
    :math:`d = \bar s`:

    .. math:: \frac{\partial g_i}{\partial\omega_i} = -\pi d^3\beta
              - \tfrac{2}{64}\rho\, s_i (s_j^4 + s_k^4)\,|\omega_i|, \qquad
              \frac{\partial f_i}{\partial v_i} = -3\pi d\beta - \rho\, s_j s_k |v_i|

    (the derivative of :math:`-c\,|x|\,x` is :math:`-2c\,|x|`)."""
    w, v = vel[:3], vel[3:]
    s = 2 * np.asarray(box, dtype=float)
    j, k = [1, 0, 0], [2, 2, 1]                            # the other two axes of each axis
    diag = np.zeros(6)
    if viscosity > 0:
        d = s.sum() / 3.0
        diag = diag + np.concatenate([np.full(3, -np.pi * d ** 3 * viscosity),
                                      np.full(3, -3.0 * np.pi * d * viscosity)])
    if density > 0:
        diag = diag + concat(-density * s * (s[j] ** 4 + s[k] ** 4) * 2 * abs(w) / 64.0,
                             -0.5 * density * s[j] * s[k] * 2 * abs(v))
    return namespace(diag).diag(diag)


def ellipsoid_vel(vel, density, viscosity, semiaxes, fluid):
    r"""``B (6, 6)`` of the ellipsoid model: the derivatives of Magnus and Kutta lift, drag,
    angular drag and the added-mass forces of :func:`~rbdl_edu.smooth.fluid.viscous_wrench` and
    :func:`~rbdl_edu.smooth.fluid.added_mass_wrench`. ``fluid`` is the geom's ``geom_fluid (12,)``
    (its first entry, the on/off flag, is not a factor here: MuJoCo reads it as a boolean)."""
    _, drag_blunt, drag_slender, drag_ang, kutta, magnus = fluid[:6]
    r = np.asarray(semiaxes, dtype=float)
    B = np.zeros((6, 6))
    B[3:, :] += magnus_vel(vel, density, r, magnus)
    B[3:, 3:] += kutta_vel(vel[3:], density, r, kutta) + drag_vel(vel[3:], density, viscosity, r, drag_blunt,
                                                                   drag_slender)
    B[:3, :3] += angular_drag_vel(vel[:3], density, viscosity, r, drag_slender, drag_ang)
    return B + added_mass_vel(vel, density, fluid[6:9], fluid[9:12])


def magnus_vel(vel, density, r, magnus):
    r"""``(3, 6)``: Magnus lift :math:`f = c\,\omega\times v`, :math:`c = C_M\rho V`:
    :math:`\partial f/\partial\omega = -c\,[v]_\times`, :math:`\partial f/\partial v = c\,[\omega]_\times`."""
    c = magnus * density * 4.0 / 3.0 * np.pi * r[0] * r[1] * r[2]
    return np.hstack([-skew(c * vel[3:]), skew(c * vel[:3])])


def _projection(v, r):
    r"""What the ellipsoid shows the flow: ``a`` with :math:`a_i = (r_j r_k)^2`,
    :math:`P = \sum a_i v_i^2`, :math:`Q = \sum a_i^2 v_i^2` (then
    :math:`A_{proj} = \pi\sqrt{Q/P}` and the section's normal is :math:`n = a \circ v`)."""
    a = np.array([r[1] * r[2], r[2] * r[0], r[0] * r[1]]) ** 2
    return a, a @ v ** 2, (a * a) @ v ** 2


def kutta_vel(v, density, r, kutta):
    r"""``(3, 3)``: Kutta lift :math:`f = k\,\sqrt{P/(QN)}\,(n\times v)\times v` with
    :math:`k = \pi C_K\rho`, :math:`N = |v|^2`, that is :math:`f_i = -k\sqrt{P/(QN)}\,c_i v_i`,
    :math:`c_i = a_i N - P`. Its derivative:

    .. math:: \frac{\partial f_i}{\partial v_j} = \frac{k}{\sqrt{PQN}}\Big(v_i v_j
              \big(c_i\,(a_j^2 P/Q - a_j + P/N) + 2P\,(a_j - a_i)\big) - \delta_{ij}\,c_i P\Big)
    """
    a, P, Q = _projection(v, r)
    N = v @ v
    c = a * N - P
    inner = a * a * P / max(MINVAL, Q) - a + P / max(MINVAL, N)
    k = np.pi * kutta * density / max(MINVAL, np.sqrt(Q * P * N))
    return k * (np.outer(v, v) * (np.outer(c, inner) + 2 * P * (a[None, :] - a[:, None])) - np.diag(c * P))


def drag_vel(v, density, viscosity, r, drag_blunt, drag_slender):
    r"""``(3, 3)``: drag :math:`f = -(6\pi\beta r_D + \rho|v|\,C(v))\,v` with
    :math:`C = C_{blunt}A_{proj} + C_{slender}(A_{max} - A_{proj})`:

    .. math:: \frac{\partial f}{\partial v} = -6\pi\beta r_D\,I - \rho\,C\Big(|v|\,I + \frac{v v^T}{|v|}\Big)
              - \rho|v|\,(C_{blunt} - C_{slender})\; v \Big(\frac{\partial A_{proj}}{\partial v}\Big)^T,
              \qquad \frac{\partial A_{proj}}{\partial v_i} = \frac{\pi\,a_i v_i\,(a_i P - Q)}{\sqrt{P^3 Q}}
    """
    a, P, Q = _projection(v, r)
    d_max, d_min = r.max(), r.min()
    A_max = np.pi * d_max * (r.sum() - d_max - d_min)
    A_proj = np.pi * np.sqrt(Q / max(MINVAL, P))
    speed = np.sqrt(v @ v)
    dA = np.pi * a * v * (a * P - Q) / max(MINVAL, np.sqrt(P ** 3 * Q))
    C = A_proj * drag_blunt + drag_slender * (A_max - A_proj)
    lin = viscosity * 3.0 * np.pi * 2.0 / 3.0 * r.sum()          # Stokes: 3 pi beta times the diameter
    return (-density * C * (np.outer(v, v) + (v @ v) * np.eye(3)) / max(MINVAL, speed)
            - density * speed * (drag_blunt - drag_slender) * np.outer(v, dA) - lin * np.eye(3))


def angular_drag_vel(w, density, viscosity, r, drag_slender, drag_ang):
    r"""``(3, 3)``: angular drag :math:`g = -(\pi\beta D^3 + \rho\,|\mu|)\,\omega` with
    :math:`\mu = c \circ \omega`, :math:`c_i = C_{ang} I_i + C_{slender}(I_{max} - I_i)`
    (:func:`~rbdl_edu.smooth.fluid.viscous_wrench`):

    .. math:: \frac{\partial g}{\partial\omega} = -(\pi\beta D^3 + \rho|\mu|)\,I
              - \frac{\rho}{|\mu|}\,\omega\,(c \circ \mu)^T
    """
    D = 2.0 / 3.0 * r.sum()
    d_max, d_min = r.max(), r.min()
    I_max = 8.0 / 15.0 * np.pi * (r.sum() - d_max - d_min) * d_max ** 4
    I_swept = np.array([8.0 / 15.0 * np.pi * r[i] * max(r[(i + 1) % 3], r[(i + 2) % 3]) ** 4 for i in range(3)])
    c = drag_ang * I_swept + drag_slender * (I_max - I_swept)
    mu = w * c
    rho = density / max(MINVAL, np.sqrt(mu @ mu))
    cmu = -rho * w * c * c                                     # -rho/|mu| (c ∘ mu)
    return np.outer(w, cmu) + (w @ cmu - viscosity * np.pi * D ** 3) * np.eye(3)


def added_mass_vel(vel, density, virtual_mass, virtual_inertia):
    r"""``(6, 6)``: the added-mass wrench :math:`g = p\times v + L\times\omega`,
    :math:`f = p\times\omega`, with :math:`p = \rho\,m_A\circ v`, :math:`L = \rho\,I_A\circ\omega`.
    By :math:`\partial(a\times b) = -[b]_\times\partial a + [a]_\times\partial b`:

    .. math:: \frac{\partial g}{\partial\omega} = [L]_\times - [\omega]_\times\rho\,\mathrm{diag}(I_A), \quad
              \frac{\partial g}{\partial v} = [p]_\times - [v]_\times\rho\,\mathrm{diag}(m_A), \quad
              \frac{\partial f}{\partial\omega} = [p]_\times, \quad
              \frac{\partial f}{\partial v} = -[\omega]_\times\rho\,\mathrm{diag}(m_A)
    """
    w, v = vel[:3], vel[3:]
    mA, IA = density * np.asarray(virtual_mass), density * np.asarray(virtual_inertia)
    p, L = mA * v, IA * w
    return np.block([[skew(L) - skew(w) * IA, skew(p) - skew(v) * mA],
                     [skew(p), -skew(w) * mA]])
