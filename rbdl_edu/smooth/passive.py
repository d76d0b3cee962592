r"""Passive forces: springs, dampers, gravity compensation and the fluid (MuJoCo's
``mj_passive``; book chapter 8).

Forces that the mechanism makes by itself, from its state alone, all as joint forces
``(nv,)``:

=================  ===================================================================
``qfrc_spring``    joint springs :math:`-k(q)\,(q - q_{spring})` and tendon springs
                   :math:`J_t^T (-k\,x)`, ``x`` the tendon's length outside its dead band
``qfrc_damper``    dof dampers :math:`-b(\dot q)\,\dot q` and tendon dampers :math:`J_t^T (-b\,\dot l)`
``qfrc_gravcomp``  :math:`\sum_i J_i^T (-\,\mathrm{gravcomp}_i\, m_i\, g)`: a lift at each
                   body's center of mass that cancels (part of) its weight
``qfrc_fluid``     the fluid's drag and lift (:mod:`rbdl_edu.smooth.fluid`)
``qfrc_adhesion``  the pull of adhesive contacts along their normals
                   (:func:`~rbdl_edu.smooth.adhesion.adhesion_forces`; needs the contacts)
``qfrc_passive``   their sum; gravity compensation only on the joints that do not take it
                   from their actuators (``jnt_actgravcomp``)
=================  ===================================================================

A stiffness or damping may be nonlinear: with ``jnt_stiffnesspoly = (k_2, k_3)`` the
spring is :math:`-(k x + k_2 x^2 + k_3 x^3)`, and with ``dof_dampingpoly = (b_2, b_3)`` the
damper is :math:`-(b v + b_2 v|v| + b_3 v^3)` (odd in ``v``: it always resists). A ball
joint's spring turns it back along the shortest rotation: ``x`` is the rotation vector
that takes ``qpos_spring`` to ``q`` (a free joint adds a linear spring on its position).

The joint springs and dampers are conservative and dissipative forces of a potential and
a Rayleigh function,

.. math:: \tau_{spring} = -\frac{\partial V}{\partial q}, \quad V = \sum_j \int_0^{x_j} k(s)\,s\,ds;
          \qquad \tau_{damper} = -\frac{\partial R}{\partial \dot q}, \quad R = \sum_d \int_0^{\dot q_d} b(s)\,s\,ds,

and :func:`joint_spring_damper` computes them from ``(model, q, qd)`` alone, on numbers,
batches or SymPy symbols (hinge and slide joints), so the book can check that identity
exactly. The rest of the stage reads what earlier stages left in ``data`` and is
float-only, like every simulation stage.

Switches, as MuJoCo 4.0: ``spring`` and ``damper`` turn off their forces; with both off
the whole stage is off (no gravity compensation, no fluid); gravity compensation needs
gravity (the ``gravity`` flag and a nonzero ``opt.gravity``); the fluid acts when
``opt.density`` or ``opt.viscosity`` is nonzero. The ``passive`` flag (MuJoCo's until
3.3.6, which replaced it by these two; MuJoCo 4.0's MJCF refuses it) turns the whole stage
off, as both would.

>>> import rbdl_edu as rbd
>>> spec = rbd.ModelSpec()
>>> b = spec.add_body(0, mass=1.0, inertia=[1, 1, 1])
>>> _ = spec.add_joint(b, "hinge", stiffness=10.0, springref=0.5, damping=2.0)
>>> model = spec.compile()
>>> joint_spring_damper(model, np.array([0.2]), np.array([1.0]))   # -10 (0.2 - 0.5), -2 * 1
(array([3.]), array([-2.]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import FLOAT64, asarray, is_jax, is_symbolic, namespace
from rbdl_edu.cache import per_model
from rbdl_edu.model.enums import FREE, HINGE, SLIDE
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import quat_conj, quat_log, quat_mul, quat_normalize
from rbdl_edu.smooth.adhesion import adhesion_forces
from rbdl_edu.smooth.comframe import jac
from rbdl_edu.smooth.fluid import fluid_wrenches


def passive(model, data):
    """The passive stage (MuJoCo's ``mj_passive``): fills ``qfrc_spring``, ``qfrc_damper``,
    ``qfrc_gravcomp``, ``qfrc_fluid`` and ``qfrc_passive`` (each ``(nv,)``).

    Reads ``qpos``, ``qvel``; the poses of :func:`~rbdl_edu.kinematics.kinematics`;
    ``subtree_com`` and ``cdof`` (:func:`~rbdl_edu.smooth.comframe.com_pos`, for the Jacobians);
    ``cvel`` (:func:`~rbdl_edu.smooth.comframe.com_vel_acc`, for the fluid); ``ten_length``,
    ``ten_velocity``, ``ten_J`` (the tendon stage). See the module docstring for the
    forces and the switches.

    >>> import rbdl_edu as rbd
    >>> from rbdl_edu.kinematics import kinematics
    >>> from rbdl_edu.smooth.comframe import com_pos
    >>> model = rbd.load_model('''<mujoco><worldbody><body gravcomp="1">
    ...   <joint name="slider" type="slide" axis="0 0 1"/><geom size="0.1" mass="2"/>
    ... </body></worldbody></mujoco>''')
    >>> data = rbd.Data(model)
    >>> kinematics(model, data); com_pos(model, data); passive(model, data)
    >>> data.qfrc_passive                  # holds up its 2 kg against gravity
    array([19.62])
    """
    m, opt = model, model.opt
    zeros = np.zeros((6, m.nv))                                # (six rows of one array)
    data.qfrc_spring, data.qfrc_damper, data.qfrc_gravcomp = zeros[:3]
    data.qfrc_fluid, data.qfrc_adhesion, data.qfrc_passive = zeros[3:]
    spring, damper = not opt.disabled("spring"), not opt.disabled("damper")
    if opt.disabled("passive") or not (spring or damper) or not has_passive_forces(m):
        return                      # (a model with no spring, damper, lift, fluid or adhesion: zeros)
    qfrc_spring, qfrc_damper = joint_spring_damper(m, data.qpos, data.qvel, spring, damper)
    ten_spring, ten_damper = tendon_spring_damper(m, data, spring, damper)
    data.qfrc_spring, data.qfrc_damper = qfrc_spring + ten_spring, qfrc_damper + ten_damper
    data.qfrc_gravcomp = gravity_compensation(m, data)
    data.qfrc_fluid = sum((apply_ft(m, data, f, t, p, b) for b, p, f, t in fluid_wrenches(m, data)),
                          np.zeros(m.nv))
    if has_passive_forces(m)["adhesion"] and not opt.disabled("contact"):
        data.qfrc_adhesion = adhesion_forces(m, data)
    # gravity compensation counts as passive on the joints that do not route it through actuators
    passive_gravcomp = ~plain(m).jnt_actgravcomp[plain(m).dof_jntid]
    data.qfrc_passive = (data.qfrc_spring + data.qfrc_damper + data.qfrc_fluid + data.qfrc_adhesion
                         + np.where(passive_gravcomp, data.qfrc_gravcomp, 0.0))


@per_model
def has_passive_forces(model):
    """Which passive forces ``model`` can have at all (a dict of flags, by name; empty, and
    false, if none can be other than zero: the stage then leaves its zeros): springs and
    dampers on joints or tendons, gravity compensation, the fluid, adhesion."""
    m = plain(model)
    coefficients = (m.jnt_stiffness, m.jnt_stiffnesspoly, m.dof_damping, m.dof_dampingpoly)
    parts = dict(joints=any(x.dtype != np.float64 or np.any(x != 0) for x in coefficients),
                 tendons=bool(tendons_with_springs(model)),
                 gravcomp=bool(gravcomp_bodies(model)),
                 fluid=bool(model.opt.viscosity or model.opt.density),
                 adhesion=bool(model.flg_adhesion))
    return parts if any(parts.values()) else {}


def poly_force(linear, poly, x, odd=False):
    r"""The coefficient :math:`\kappa(x)` of a (nonlinear) spring or damper whose force is
    :math:`-\kappa(x)\,x` (MuJoCo's ``mju_polyForce``):

    .. math:: \kappa(x) = a + b\,x + c\,x^2 \quad (\text{spring}), \qquad
              \kappa(v) = a + b\,|v| + c\,v^2 \quad (\text{damper, } \mathtt{odd}=\mathrm{True})

    ``linear = a``, ``poly = (b, c)``; zero coefficients are left out (so symbols meet no
    ``|v|`` they do not need).

    >>> poly_force(2.0, [0.0, 1.0], -3.0), poly_force(2.0, [1.0, 0.0], -3.0, odd=True)
    (11.0, 5.0)
    """
    x = abs(x) if odd else x
    c, power = linear, 1
    for coef in poly:
        power = power * x
        if not _zero(coef):
            c = c + coef * power
    return c


def damper_slope(model, qvel):
    r"""``(nv,)``: how fast each dof's damper force grows with its speed,
    :math:`\frac{d}{dv}\big(\kappa_b(v)\,v\big) = a + 2b|v| + 3c\,v^2` (MuJoCo's
    ``mjd_xPolyForce``): the diagonal that the Euler integrator adds, times the timestep, to
    ``M`` to take the dampers implicitly.

    >>> import rbdl_edu as rbd
    >>> spec = rbd.ModelSpec()
    >>> _ = spec.add_joint(spec.add_body(0, mass=1.0, inertia=[1, 1, 1]), damping=[2.0, 1.0, 0.5])
    >>> damper_slope(spec.compile(), np.array([-2.0]))       # 2 + 2 * 1 * 2 + 3 * 0.5 * 4
    array([12.])
    """
    speed = abs(asarray(qvel))
    b, (b2, b3) = plain(model).dof_damping, plain(model).dof_dampingpoly.T
    return b + 2 * b2 * speed + 3 * b3 * speed ** 2


def _zero(c):
    """True for a coefficient that is exactly zero (a number; never a free symbol)."""
    return not isinstance(c, np.ndarray) and c == 0


def joint_spring_damper(model, q, qd, spring=True, damper=True):
    r"""The joint springs' and dampers' forces ``(qfrc_spring, qfrc_damper)``, each
    ``(..., nv)``: on every joint :math:`-\kappa_k(x)\,x` with ``x`` its displacement from
    ``qpos_spring`` (a rotation vector for ball and free joints, with a linear part for a
    free joint's position, whose spring uses the length :math:`|x|`), and on every dof
    :math:`-\kappa_b(\dot q)\,\dot q` (:func:`poly_force`).

    Works on numbers, batches ``q (..., nq)``, ``qd (..., nv)``, and on SymPy symbols
    for hinge and slide joints (a quaternion spring needs numbers: ``ValueError``).

    >>> import sympy as sp
    >>> import rbdl_edu as rbd
    >>> k, b, q0, q, qd = sp.symbols("k b q0 q qd")
    >>> spec = rbd.ModelSpec()
    >>> _ = spec.add_joint(spec.add_body(0, mass=1, inertia=[1, 1, 1]), stiffness=k, damping=b, springref=q0)
    >>> joint_spring_damper(spec.compile(), np.array([q]), np.array([qd]))
    (array([k*(-q + q0)], dtype=object), array([-b*qd], dtype=object))
    """
    m = model
    q, qd = asarray(q), asarray(qd)
    linear = linear_springs(model)
    if linear is not None and type(q) is type(qd) is np.ndarray and q.shape == (m.nq,) and qd.shape == (m.nv,) \
            and q.dtype == qd.dtype == FLOAT64:
        # one state of numbers, every spring and damper linear: the same lines on arrays
        (qposadr, dofadr, k), (damped, b) = linear
        f_spring, f_damper = np.zeros(m.nv), np.zeros(m.nv)
        if spring:
            x = q[qposadr] - plain(m).qpos_spring[qposadr]
            f_spring[dofadr] = -x * k
        if damper:
            f_damper[damped] = -qd[damped] * b
        return f_spring, f_damper
    symbolic = is_symbolic(q, qd, m.jnt_stiffness, m.dof_damping, m.qpos_spring)
    if q.shape[-1:] != (m.nq,) or qd.shape[-1:] != (m.nv,):
        raise ValueError(f"q {q.shape} and qd {qd.shape} must end in nq = {m.nq} and nv = {m.nv}")
    batch = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1])
    xp = namespace(q, qd)
    f_spring, f_damper = [0] * m.nv, [0] * m.nv
    for j in range(m.njnt if spring else 0):
        k, kpoly = m.jnt_stiffness[j], m.jnt_stiffnesspoly[j]
        if _zero(k) and all(_zero(c) for c in kpoly):
            continue
        a, d, kind = m.jnt_qposadr[j], m.jnt_dofadr[j], m.jnt_type[j]
        if kind in (HINGE, SLIDE):
            # f = -c(x) x,  x = q - q_spring
            x = q[..., a] - m.qpos_spring[a]
            f_spring[d] = -x * poly_force(k, kpoly, x)
            continue
        if symbolic:
            raise ValueError(f"joint {m.jnt_names[j] or j}: a quaternion spring needs numbers, not symbols")
        if kind == FREE:
            # the position's spring pulls along x with the strength of its length |x|
            x = q[..., a:a + 3] - m.qpos_spring[a:a + 3]
            f = -poly_force(k, kpoly, xp.linalg.norm(x, axis=-1))[..., None] * x
            f_spring[d:d + 3] = [f[..., n] for n in range(3)]
            a, d = a + 3, d + 3
        # the rotation vector x with q = q_spring ⊗ exp(x): the spring turns back along -x
        x = quat_log(quat_mul(quat_conj(m.qpos_spring[a:a + 4]), quat_normalize(q[..., a:a + 4])))
        f = -poly_force(k, kpoly, xp.linalg.norm(x, axis=-1))[..., None] * x
        f_spring[d:d + 3] = [f[..., n] for n in range(3)]
    for i in range(m.nv if damper else 0):
        # f = -c(v) v
        b, bpoly = m.dof_damping[i], m.dof_dampingpoly[i]
        if not (_zero(b) and all(_zero(c) for c in bpoly)):
            f_damper[i] = -qd[..., i] * poly_force(b, bpoly, qd[..., i], odd=True)
    return _stack(f_spring, batch, symbolic), _stack(f_damper, batch, symbolic)


@per_model
def linear_springs(model):
    """For a model of numbers whose joint springs and dampers are all linear (no
    ``stiffnesspoly``/``dampingpoly``) and sit on hinges and slides only: the springs'
    ``(qposadr, dofadr, stiffness)`` and the damped dofs' ``(dof, damping)``, arrays for
    :func:`joint_spring_damper` to compute at once; else None (it goes joint by joint).

    >>> import rbdl_edu as rbd
    >>> linear_springs(rbd.models.double_pendulum())[1][0]
    array([], dtype=int64)
    """
    m = plain(model)
    if any(x.dtype != np.float64 for x in (m.jnt_stiffness, m.dof_damping, m.qpos_spring)) \
            or np.any(m.jnt_stiffnesspoly != 0) or np.any(m.dof_dampingpoly != 0):
        return None
    sprung = np.flatnonzero(m.jnt_stiffness != 0)
    if np.any((m.jnt_type[sprung] != HINGE) & (m.jnt_type[sprung] != SLIDE)):
        return None
    damped = np.flatnonzero(m.dof_damping != 0)
    return (m.jnt_qposadr[sprung], m.jnt_dofadr[sprung], m.jnt_stiffness[sprung]), (damped, m.dof_damping[damped])


def _stack(pieces, batch, symbolic):
    """Per-dof pieces (numbers, expressions or ``batch`` arrays) as one ``batch + (nv,)`` array."""
    if any(is_jax(p) for p in pieces):         # traced (rbdl_edu.compiled): stacked, not written
        xp = namespace(*pieces)
        return xp.stack([xp.broadcast_to(xp.asarray(p, dtype=float), batch) for p in pieces], axis=-1)
    dtype = object if symbolic else float
    out = np.zeros(batch + (len(pieces),), dtype=dtype)
    for i, p in enumerate(pieces):
        out[..., i] = p
    return out


def tendon_spring_damper(model, data, spring=True, damper=True):
    r"""The tendons' springs and dampers as joint forces ``(spring (nv,), damper (nv,))``:
    :math:`J_t^T f` with :math:`f = -\kappa_k(x)\,x`, where ``x`` is how far the length is
    outside the dead band ``tendon_lengthspring = [lo, hi]`` (zero inside it), and
    :math:`f = -\kappa_b(\dot l)\,\dot l`. Reads ``ten_length``, ``ten_velocity``, ``ten_J``."""
    m = model
    qfrc_spring, qfrc_damper = np.zeros(m.nv), np.zeros(m.nv)
    for t in tendons_with_springs(m):
        k, kpoly = (m.tendon_stiffness[t], m.tendon_stiffnesspoly[t]) if spring else (0.0, ())
        b, bpoly = (m.tendon_damping[t], m.tendon_dampingpoly[t]) if damper else (0.0, ())
        has_spring = k != 0 or np.any(kpoly)
        if not (has_spring or b != 0 or np.any(bpoly)):
            continue
        lo, hi = m.tendon_lengthspring[t]
        if has_spring and lo == -1 and hi == -1:
            raise ValueError(f"tendon {m.tendon_names[t] or t}: its spring length (-1: the length at "
                             "qpos_spring) has not been computed (set_const with the tendon stage)")
        length, velocity = data.ten_length[t], data.ten_velocity[t]
        # the dead band: no force between lo and hi, a spring towards the nearer end outside
        xp = namespace(length)
        x = xp.where(length > hi, length - hi, xp.where(length < lo, length - lo, 0.0))
        qfrc_spring = qfrc_spring + data.ten_J[t] * (-x * poly_force(k, kpoly, x))
        qfrc_damper = qfrc_damper + data.ten_J[t] * (-velocity * poly_force(b, bpoly, velocity, odd=True))
    return qfrc_spring, qfrc_damper


@per_model
def tendons_with_springs(model):
    """The tendons with a nonzero stiffness or damping coefficient (linear or polynomial),
    as a tuple of ids: the only ones :func:`tendon_spring_damper` needs to visit."""
    m = plain(model)
    coefficients = np.concatenate([m.tendon_stiffness[:, None], m.tendon_stiffnesspoly, m.tendon_damping[:, None],
                                   m.tendon_dampingpoly], axis=1)
    return tuple(np.flatnonzero((coefficients != 0).any(axis=1)).tolist())


def gravity_compensation(model, data):
    r"""``qfrc_gravcomp (nv,)``: :math:`\sum_i J_i^T(-\mathrm{gravcomp}_i\, m_i\, g)`, the
    lift ``body_gravcomp`` asks for at each body's center of mass (``1``: its weight; more:
    buoyancy). Zero without gravity (the ``gravity`` flag, or ``opt.gravity = 0``)."""
    m, g = model, model.opt.gravity
    qfrc = np.zeros(m.nv)
    if model.opt.disabled("gravity") or not np.any(g):
        return qfrc
    for i in gravcomp_bodies(model):
        qfrc = qfrc + apply_ft(m, data, -(m.body_mass[i] * m.body_gravcomp[i]) * g, np.zeros(3),
                               data.xipos[i], i)
    return qfrc


@per_model
def gravcomp_bodies(model):
    """The bodies with a nonzero ``body_gravcomp``, as a tuple of ids (the world left out)."""
    return tuple(i for i in np.flatnonzero(plain(model).body_gravcomp).tolist() if i > 0)


def apply_ft(model, data, force, torque, point, body):
    r"""Joint forces ``(nv,)`` of a force at the world point ``point`` and a torque, both in
    world axes, on ``body``: :math:`J_p^T f + J_r^T \tau` (MuJoCo's ``mj_applyFT``)."""
    jacp, jacr = jac(model, data, body, point)
    return jacp.T @ force + jacr.T @ torque
