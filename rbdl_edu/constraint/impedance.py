r"""How soft a constraint row is: ``solref`` and ``solimp`` turned into the regularizer
:math:`R`, the stiffness and damping :math:`k, b` and the reference acceleration
:math:`a_{ref}` (MuJoCo's ``mj_diagApprox``, ``mj_makeImpedance``, ``mj_referenceConstraint``;
book, chapter 10).

MuJoCo's constraints are *soft*: a row does not demand :math:`J\ddot q = a_{ref}` but pulls the
constrained acceleration toward it. If the constraint-space inverse inertia
:math:`A = J M^{-1} J^T` were diagonal, each row would get

.. math:: a_c = d\, a_{ref} + (1 - d)\, a_u

between the unconstrained acceleration :math:`a_u` and the reference, with the *impedance*
:math:`0 < d < 1`. That is what the regularizer :math:`R = \frac{1-d}{d} \hat A` buys, with
:math:`\hat A` (``efc_diagA``) an estimate of :math:`A`'s diagonal from the inverse weights
at ``qpos0`` (``body_invweight0``, ``dof_invweight0``, ``tendon_invweight0``).

* **solimp** ``(d0, dwidth, width, midpoint, power)``: the impedance as a function of the
  violation :math:`r` (``efc_pos - efc_margin``): ``d0`` at :math:`r = 0`, ``dwidth`` at
  :math:`|r| \ge` ``width``, in between an S-curve of two power laws that meet at
  ``midpoint`` (:func:`impedance`). Each is clamped to :math:`[10^{-4}, 0.9999]`.
* **solref** ``(timeconst, dampratio)``: a spring-damper :math:`a_{ref} = -b\,v - k\,d\,r`
  with :math:`b = 2/(d_{width}\tau)` and :math:`k = 1/(d_{width}^2 \tau^2 \zeta^2)`, so the
  row behaves like a mass-spring-damper with time constant τ and damping ratio ζ. Or
  ``(-stiffness, -damping)``: :math:`k = \text{stiffness}/d_{width}^2`,
  :math:`b = \text{damping}/d_{width}`. Unless ``<flag refsafe="disable"/>``, a time
  constant below two timesteps is raised to :math:`2h` (a spring stiffer than the
  integrator can follow would blow up).
* Friction rows (friction loss, the tangential rows of an elliptic cone) have no position:
  :math:`k = 0`, pure damping. An elliptic cone's friction rows take the contact's
  ``solreffriction`` when it is not zero, and :math:`R_1 = R_0/\text{impratio}`; a
  pyramidal cone's rows all share :math:`R = 2\mu^2 R_0` (so both cones resist sliding alike).

An adhesive contact (geom ``adhesion`` :math:`\delta`) adds :math:`R\,\delta` to its normal
row's :math:`a_{ref}` (shared equally by a pyramid's edges): with the passive pull
:math:`-\delta J^T` this is the friction cone translated by :math:`\delta`
(:func:`adhesion_reference`).

Connect and weld rows also subtract :math:`\dot J \dot q` from :math:`a_{ref}` (MuJoCo 4.0):
:math:`J\ddot q + \dot J\dot q` is the true acceleration of the constraint.

``efc_KBIP (nefc, 4)`` holds :math:`k, b, d, \partial d/\partial r` per row. The simulation
stages are float-only (NumPy).

>>> d, _ = impedance(np.array([0.9, 0.95, 0.001, 0.5, 2.0]), -0.0005, 0.0)   # halfway in
>>> round(d, 6)
0.925
"""
from __future__ import annotations

import math

import numpy as np

from rbdl_edu.arrays import put
from rbdl_edu.cache import per_model
from rbdl_edu.constraint.blocks import CONTACT_TYPES, blocks, equality_bodies
from rbdl_edu.model.enums import (CNSTR_CONTACT_ELLIPTIC, CNSTR_CONTACT_FRICTIONLESS, CNSTR_CONTACT_PYRAMIDAL,
                                  CNSTR_EQUALITY, CNSTR_FRICTION_DOF, CNSTR_FRICTION_TENDON,
                                  CNSTR_LIMIT_JOINT, CNSTR_LIMIT_TENDON, EQ_CONNECT, EQ_JOINT, EQ_WELD,
                                  MINVAL)
from rbdl_edu.model.frozen import plain

MINIMP, MAXIMP = 1e-4, 0.9999      # mjMINIMP, mjMAXIMP: the impedance stays strictly in (0, 1)


def impedance(solimp, r, margin=0.0):
    r"""The impedance :math:`d(r)` and its slope :math:`\partial d/\partial r` at violation
    ``r - margin`` (MuJoCo's ``getimpedance``).

    With :math:`x = |r|/\text{width}` and ``solimp = (d0, dwidth, width, m, p)``:
    :math:`d = d_0 + y(x)\,(d_{width} - d_0)`, where :math:`y(x) = x^p / m^{p-1}` for
    :math:`x \le m` and :math:`y = 1 - (1-x)^p/(1-m)^{p-1}` beyond; :math:`y = 1` for
    :math:`x \ge 1`. A flat curve (``d0 == dwidth`` or ``width`` 0) is their mean.

    >>> impedance(np.array([0.9, 0.95, 0.001, 0.5, 2.0]), -0.01)     # deeper than width
    (0.95, 0.0)
    """
    d0, dwidth, width, midpoint, power = solimp
    if d0 == dwidth or width <= MINVAL:
        return float(0.5 * (d0 + dwidth)), 0.0
    x = (r - margin) / width
    sign = 1.0 if x >= 0 else -1.0
    x = abs(x)
    if x >= 1 or x <= 0:
        return float(dwidth if x >= 1 else d0), 0.0
    if power == 1:
        y, dy = x, 1.0
    elif x <= midpoint:          # y = x^p / m^(p-1)
        a = 1 / midpoint ** (power - 1)
        y, dy = a * x ** power, power * a * x ** (power - 1)
    else:                        # y = 1 - (1-x)^p / (1-m)^(p-1)
        b = 1 / (1 - midpoint) ** (power - 1)
        y, dy = 1 - b * (1 - x) ** power, power * b * (1 - x) ** (power - 1)
    return float(d0 + y * (dwidth - d0)), float(dy * sign * (dwidth - d0) / width)


def clamp_solimp(solimp):
    """``solimp`` with each number in its range: the impedances and the midpoint in
    ``[MINIMP, MAXIMP]``, ``width >= 0``, ``power >= 1`` (MuJoCo's rules).

    >>> clamp_solimp([0, 1, -1, 0.5, 0.5])
    (0.0001, 0.9999, 0.0, 0.5, 1.0)
    """
    d0, dwidth, width, midpoint, power = (float(x) for x in solimp)

    def clip(x):
        return min(MAXIMP, max(MINIMP, x))
    return (clip(d0), clip(dwidth), max(0.0, width), clip(midpoint), max(1.0, power))


def safe_solref(model, solref, what):
    """``solref`` as the solver uses it: both numbers positive (time constant, damping ratio)
    or both not (direct ``-stiffness, -damping``); a time constant at least ``2 * timestep``
    unless ``<flag refsafe="disable"/>``. A mixed pair is a ``ValueError`` naming ``what``
    (MuJoCo warns and silently uses the default).

    >>> from rbdl_edu.models import pendulum
    >>> safe_solref(pendulum(), [0.001, 1.0], "joint")      # raised to two 2 ms timesteps
    array([0.004, 1.   ])
    """
    solref = np.array(solref, dtype=float)
    if (solref[0] > 0) != (solref[1] > 0):
        raise ValueError(f"{what}: solref {solref.tolist()} mixes the standard (timeconst, dampratio) "
                         "and the direct (-stiffness, -damping) forms")
    if solref[0] > 0 and not model.opt.disabled("refsafe"):
        solref[0] = max(solref[0], 2 * model.opt.timestep)
    return solref


def stiffness_damping(solref, dwidth):
    r"""``(k, b)`` of the reference spring-damper (module docstring): standard
    :math:`k = 1/(d_{width}^2\tau^2\zeta^2)`, :math:`b = 2/(d_{width}\tau)`; direct
    :math:`k = -\text{solref}_0/d_{width}^2`, :math:`b = -\text{solref}_1/d_{width}`.

    >>> stiffness_damping([0.02, 1.0], 1.0)
    (2500.0, 100.0)
    """
    timeconst, dampratio = solref
    k = (1 / max(MINVAL, dwidth ** 2 * timeconst ** 2 * dampratio ** 2) if timeconst > 0
         else -timeconst / max(MINVAL, dwidth ** 2))
    b = 2 / max(MINVAL, dwidth * timeconst) if dampratio > 0 else -dampratio / max(MINVAL, dwidth)
    return float(k), float(b)


def row_params(model, data, i):
    """``(solref, solreffriction, solimp)`` of row ``i`` from the object it constrains (MuJoCo's
    ``getsolparam``), after :func:`safe_solref` and :func:`clamp_solimp`, as tuples of numbers."""
    kind, k = int(data.efc_type[i]), int(data.efc_id[i])
    if kind not in CONTACT_TYPES:
        return object_params(model, kind, k)
    return contact_row_params(model, data.contact[k])


def contact_row_params(model, con):
    """:func:`row_params` of contact ``con``'s rows."""
    try:
        return contact_params(model, tuple(con.solref.tolist()), tuple(con.solreffriction.tolist()),
                              tuple(con.solimp.tolist()))
    except ValueError as error:
        raise ValueError(f"contact of geoms {con.geom1} and {con.geom2}{error}") from None


def softness(model, con_or_kind, k=None):
    """``(solimp, (k, b), b_friction)`` of a contact's rows (``softness(model, con)``) or of object
    ``k`` of row kind ``kind``: :func:`row_params`' ``solimp``, the reference spring-damper
    (:func:`stiffness_damping`), and the damping of an elliptic cone's friction rows (its
    ``solreffriction`` if given, else ``solref``). Worked out once per set of numbers."""
    if k is not None:
        return object_softness(model, con_or_kind, k)
    con = con_or_kind
    try:
        return contact_softness(model, tuple(con.solref.tolist()), tuple(con.solreffriction.tolist()),
                                tuple(con.solimp.tolist()))
    except ValueError as error:
        raise ValueError(f"contact of geoms {con.geom1} and {con.geom2}{error}") from None


@per_model
def contact_softness(model, solref, solreffriction, solimp):
    """:func:`softness` of a contact with these numbers (tuples)."""
    return _softness(*contact_params(model, solref, solreffriction, solimp))


@per_model
def object_softness(model, kind, k):
    """:func:`softness` of object ``k``'s row of kind ``kind``."""
    return _softness(*object_params(model, kind, k))


def _softness(solref, solreffriction, solimp):
    """:func:`softness` from :func:`row_params`' numbers."""
    return solimp, stiffness_damping(solref, solimp[1]), \
        stiffness_damping(solreffriction if any(solreffriction) else solref, solimp[1])[1]


@per_model
def contact_params(model, solref, solreffriction, solimp):
    """:func:`row_params` of a contact with these numbers (the geoms' or a ``<pair>``'s: few
    different ones per model, each worked out once)."""
    if any(solreffriction):
        solreffriction = safe_solref(model, solreffriction, " (solreffriction)").tolist()
    return tuple(safe_solref(model, solref, "").tolist()), tuple(solreffriction), clamp_solimp(solimp)


@per_model
def object_params(model, kind, k):
    """:func:`row_params` of a row that is not a contact's, of kind ``kind`` and object ``k``:
    the model's numbers, so once per model."""
    m = model
    if kind == CNSTR_EQUALITY:
        solref, solimp, what = m.eq_solref[k], m.eq_solimp[k], f"equality {m.eq_names[k] or k}"
    elif kind == CNSTR_LIMIT_JOINT:
        solref, solimp, what = m.jnt_solref[k], m.jnt_solimp[k], f"joint {m.jnt_names[k] or k}"
    elif kind == CNSTR_FRICTION_DOF:
        solref, solimp, what = m.dof_solref[k], m.dof_solimp[k], f"dof {k}"
    elif kind == CNSTR_LIMIT_TENDON:
        solref, solimp, what = m.tendon_solref_lim[k], m.tendon_solimp_lim[k], f"tendon {m.tendon_names[k] or k}"
    else:
        solref, solimp, what = m.tendon_solref_fri[k], m.tendon_solimp_fri[k], f"tendon {m.tendon_names[k] or k}"
    return tuple(safe_solref(model, solref, what).tolist()), (0.0, 0.0), clamp_solimp(solimp)


def violation(model, data, block, pos=None):
    """The violation :math:`r` the rows of a :class:`~rbdl_edu.constraint.blocks.Block` share
    in their one impedance: the norm of a connect's or weld's position error, else the
    position of its first row (MuJoCo's ``getposdim``). ``pos``: ``efc_pos`` as a list, if at
    hand."""
    if block.type == CNSTR_EQUALITY and model.eq_type[block.id] in (EQ_CONNECT, EQ_WELD):
        return float(np.linalg.norm(data.efc_pos[block.adr:block.adr + block.n]))
    return pos[block.adr] if pos is not None else float(data.efc_pos[block.adr])


def diag_approx(model, data, constraint_blocks=None):
    r"""``efc_diagA (nefc,)``: each row's :math:`\hat A_{ii}`, the inverse inertia it sees,
    from the inverse weights at ``qpos0`` (MuJoCo's ``mj_diagApprox``): a connect's or weld's
    two bodies (translation, and rotation for a weld's last 3 rows); a joint or tendon
    equality's one or two objects; the dof, joint or tendon of a friction loss or limit; a
    contact's two bodies (translation for the normal and sliding rows, rotation for spin and
    roll; a pyramidal edge :math:`n \pm \mu_k t_k` adds :math:`\mu_k^2` times its tangent's).
    ``constraint_blocks``: the rows' :class:`~rbdl_edu.constraint.blocks.Block` list, if at
    hand (else walked)."""
    m, (bw, geom_body) = plain(model), weights(model)
    out = []
    for i, n, kind, k in (blocks(model, data) if constraint_blocks is None else constraint_blocks):
        if kind in CONTACT_TYPES:
            con = data.contact[k]
            w1, w2 = bw[geom_body[con.geom1]], bw[geom_body[con.geom2]]
            tran, rot = w1[0] + w2[0], w1[1] + w2[1]
            if kind == CNSTR_CONTACT_FRICTIONLESS:
                out.append(tran)
            elif kind == CNSTR_CONTACT_ELLIPTIC:
                out += [tran if j < 3 else rot for j in range(n)]
            else:                           # edges n ± mu_j t_j, two per friction direction
                for j, mu in enumerate(con.friction[:con.dim - 1].tolist()):
                    out += [tran + mu ** 2 * (tran if j < 2 else rot)] * 2
        elif kind == CNSTR_EQUALITY and m.eq_type[k] in (EQ_CONNECT, EQ_WELD):
            b1, b2 = equality_bodies(m, k)
            out += [bw[b1][0] + bw[b2][0]] * 3 + [bw[b1][1] + bw[b2][1]] * (n - 3)
        elif kind == CNSTR_EQUALITY:
            weight = ((lambda j: m.dof_invweight0[m.jnt_dofadr[j]]) if m.eq_type[k] == EQ_JOINT
                      else (lambda t: m.tendon_invweight0[t]))
            out.append(weight(m.eq_obj1id[k]) + (weight(m.eq_obj2id[k]) if m.eq_obj2id[k] >= 0 else 0.0))
        elif kind == CNSTR_FRICTION_DOF:
            out.append(m.dof_invweight0[k])
        elif kind == CNSTR_LIMIT_JOINT:
            out.append(m.dof_invweight0[m.jnt_dofadr[k]])
        else:                               # a tendon's friction loss or limit
            out.append(m.tendon_invweight0[k])
    data.efc_diagA = np.array(out, dtype=float)


@per_model
def weights(model):
    """``(body_invweight0, geom_bodyid)`` as lists (read number by number)."""
    m = plain(model)
    return m.body_invweight0.tolist(), m.geom_bodyid.tolist()


def make_impedance(model, data, constraint_blocks=None):
    r"""``efc_R``, ``efc_D = 1/R``, ``efc_KBIP`` and each contact's ``mu`` from ``solref``,
    ``solimp`` and ``efc_diagA`` (MuJoCo's ``mj_makeImpedance``; the module docstring); then
    ``efc_diagA`` is reset to :math:`R\,d/(1-d)`, the estimate these :math:`R` imply.
    ``constraint_blocks``: as :func:`diag_approx`'s."""
    diagA, margin, pos, R, KBIP = data.efc_diagA.tolist(), data.efc_margin.tolist(), data.efc_pos.tolist(), [], []
    for block in (blocks(model, data) if constraint_blocks is None else constraint_blocks):
        i, n, kind, obj = block
        if kind in CONTACT_TYPES:                        # (a contact's violation: its first row's)
            con = data.contact[obj]
            solimp, (k, b), b_friction = softness(model, con)
            d, dd = impedance(solimp, pos[i], margin[i])
        else:
            solimp, (k, b), b_friction = softness(model, kind, obj)
            d, dd = impedance(solimp, violation(model, data, block, pos), margin[i])
        # R = (1 - d)/d * diagA, for all the rows of the block (a pyramid's: its first row's, which
        # friction_regularizer turns into all of them)
        R_block = ([max((1 - d) * diagA[i] / d, MINVAL)] * n if kind == CNSTR_CONTACT_PYRAMIDAL
                   else [max((1 - d) * a / d, MINVAL) for a in diagA[i:i + n]])     # (a NaN stays NaN)
        # k, b, d, dd of each row, one after the other
        if kind in (CNSTR_FRICTION_DOF, CNSTR_FRICTION_TENDON):
            KBIP += [0.0, b, d, dd]                      # friction has no position to return to
        elif kind == CNSTR_CONTACT_ELLIPTIC:
            # the friction rows: no position either, their own solref if given
            KBIP += [k, b, d, dd] + [0.0, b_friction, d, dd] * (n - 1)
        else:
            KBIP += [k, b, d, dd] * n
        if kind in (CNSTR_CONTACT_PYRAMIDAL, CNSTR_CONTACT_ELLIPTIC):
            friction_regularizer(model, con, kind, R_block)
        R += R_block
    R, KBIP = np.array(R, dtype=float), np.array(KBIP, dtype=float).reshape(data.nefc, 4)
    data.efc_R, data.efc_D, data.efc_KBIP = R, 1 / R, KBIP
    data.efc_diagA = R * KBIP[:, 2] / (1 - KBIP[:, 2])


def friction_regularizer(model, con, kind, R):
    r"""A frictional contact's ``R`` (its rows', a list, in place, from :math:`R_0` of the
    normal) and ``con.mu``: :math:`R_1 = R_0/\text{impratio}`, the regularized cone's
    :math:`\mu = \mu_1 \sqrt{R_1/R_0}`; an elliptic cone's :math:`R_j \mu_j^2 = R_1 \mu_1^2` in
    every friction direction; a pyramid's one :math:`R = 2\mu^2 R_0` for all its edges,
    matching the elliptic cone's resistance to sliding."""
    friction = con.friction.tolist()              # (Python numbers: the same arithmetic, fewer calls)
    R[1] = R[0] / max(MINVAL, model.opt.impratio)
    con.mu = friction[0] * math.sqrt(R[1] / R[0])
    if kind == CNSTR_CONTACT_ELLIPTIC:
        for j in range(1, con.dim - 1):
            R[j + 1] = R[1] * friction[0] ** 2 / friction[j] ** 2
    else:
        R[:] = [2 * con.mu ** 2 * R[0]] * len(R)


def reference(model, data, jdotv=None):
    r"""``efc_vel = J q̇`` and the reference acceleration ``efc_aref``,
    :math:`a_{ref} = -b\,(J\dot q) - k\,d\,(r - \text{margin})`, minus :math:`\dot J\dot q` on
    connect and weld rows (``jdotv (ne,)``, from :func:`rbdl_edu.constraint.rows.jdotv`)."""
    if not data.nefc:                    # no rows (constraints off, nothing touching): nothing to do
        data.efc_vel, data.efc_aref = np.zeros(0), np.zeros(0)
        return
    data.efc_vel = data.efc_J @ data.qvel
    surface_velocity(model, data)
    K, B, d = data.efc_KBIP[:, 0], data.efc_KBIP[:, 1], data.efc_KBIP[:, 2]
    aref = -B * data.efc_vel - K * d * (data.efc_pos - data.efc_margin)
    if surfaces(model)[0]:
        aref = aref + adhesion_reference(model, data)
    if jdotv is not None and data.ne:
        aref = put(aref, slice(0, data.ne), aref[:data.ne] - jdotv)
    data.efc_aref = aref


@per_model
def surfaces(model):
    """``(adhesion, moving)``: whether a geom or a pair is adhesive (MuJoCo's ``flg_adhesion``),
    whether a geom's surface moves (``geom_surfacevel``)."""
    return bool(model.flg_adhesion), bool(np.any(plain(model).geom_surfacevel))


def adhesion_reference(model, data):
    r"""``(nefc,)``: the bias :math:`R\,\delta` of adhesive contacts' rows (MuJoCo's
    ``mj_adhesionRef``): on the normal row of a frictionless or elliptic contact, and
    :math:`R_j\,\delta / (2(\mathrm{dim}-1))` on each edge of a pyramid. With it the net
    force :math:`f - \delta` obeys the unbiased equations: the resting penetration does not
    depend on the adhesion."""
    bias = np.zeros(data.nefc)
    for con in data.contact:
        if not con.adhesion or con.efc_address < 0:
            continue
        a, dim = con.efc_address, con.dim
        if dim == 1 or model.opt.cone == "elliptic":
            bias[a] = data.efc_R[a] * con.adhesion
        else:
            n = 2 * (dim - 1)
            bias[a:a + n] = data.efc_R[a:a + n] * (con.adhesion / n)
    return bias


def surface_velocity(model, data):
    r"""Add to each contact's rows of ``efc_vel`` the velocity of its geoms' surfaces
    (``geom_surfacevel``: a conveyor belt, a turntable), geom 2's minus geom 1's, as MuJoCo
    4.0 does. Surface ``g`` moves at :math:`\sigma(x) = R_g v + (R_g\omega) 	imes (x - p_g)`
    at the contact point :math:`x`; in the contact frame only the tangential and the spin
    components count (no push along the normal, no rolling drive). A pyramid's edge
    :math:`\pm k` sees :math:`\pm\mu_k` times component :math:`k`."""
    sv = plain(model).geom_surfacevel
    if not surfaces(model)[1]:
        return
    for con in data.contact:
        if con.efc_address < 0 or con.exclude:
            continue
        v, w = np.zeros(3), np.zeros(3)
        for sign, g in ((-1.0, con.geom1), (1.0, con.geom2)):
            if np.any(sv[g]):
                R = data.geom_xmat[g]
                wg = R @ sv[g, 3:]
                v += sign * (R @ sv[g, :3] + np.cross(wg, con.pos - data.geom_xpos[g]))
                w += sign * wg
        cs = np.concatenate([con.frame @ v, con.frame @ w])
        cs[0] = cs[4] = cs[5] = 0.0
        a, dim = con.efc_address, con.dim
        if dim == 1 or model.opt.cone == "elliptic":
            data.efc_vel[a:a + dim] += cs[:dim]
        else:
            for k in range(1, dim):
                mu = con.friction[k - 1]
                data.efc_vel[a + 2 * (k - 1)] += cs[0] + mu * cs[k]
                data.efc_vel[a + 2 * (k - 1) + 1] += cs[0] - mu * cs[k]


def resting_penetration(solref, solimp, gravity=9.81, timestep=0.002, margin=0.0):
    r"""The depth a body resting on one frictionless or elliptic contact sinks to, when the
    estimate :math:`\hat A` is exact: at rest :math:`a_c = 0`, so the force :math:`f` holds
    the weight, :math:`A f = g`, and :math:`R f = a_{ref} = -k\,d\,r`; with
    :math:`R = \frac{1-d}{d} A`:

    .. math:: r = -\frac{(1 - d(r))\, g}{k\, d(r)^2}

    solved for the violation :math:`r < 0` by bisection (``d`` depends on ``r``). Returns the
    penetration depth ``-dist``, with ``dist = r + margin`` the distance between the surfaces.

    >>> round(resting_penetration([0.02, 1.0], [0.9, 0.95, 0.001, 0.5, 2.0]) * 1000, 4)   # mm
    0.3672
    """
    solimp = clamp_solimp(solimp)
    tc, dr = solref
    if tc > 0:
        tc = max(tc, 2 * timestep)
    k, _ = stiffness_damping([tc, dr], solimp[1])

    def excess(r):                     # > 0 while r is not yet deep enough
        d, _ = impedance(solimp, r)
        return r + (1 - d) * gravity / (k * d * d)
    lo, hi = -1.0, 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if excess(mid) < 0 else (lo, mid)
    return -(0.5 * (lo + hi) + margin)
