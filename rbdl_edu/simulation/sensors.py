r"""Sensors: MuJoCo's ``mj_sensorPos``, ``mj_sensorVel`` and ``mj_sensorAcc`` (book, chapter 8).

A sensor is a reading of something the pipeline has already computed, written to
``data.sensordata`` at ``model.sensor_adr[s]`` (``model.sensor_dim[s]`` numbers, in XML order).
Each sensor is read at the end of the stage it needs (``sensor_needstage``):

=============  ===========================================================================
stage          sensors (and what they read)
=============  ===========================================================================
position       ``jointpos``, ``ballquat`` (qpos); ``tendonpos``, ``actuatorpos`` (lengths);
               ``framepos``, ``framequat``, ``framexaxis/yaxis/zaxis`` (poses, optionally
               in a reference frame); ``subtreecom``; ``magnetometer`` (``opt.magnetic`` in
               the site frame); ``clock`` (time); ``e_potential``, ``e_kinetic`` (energies);
               ``jointlimitpos``, ``tendonlimitpos`` (a limit row's distance past its margin);
               ``rangefinder``, ``camprojection``, ``insidesite``, ``distance``, ``normal``, ``fromto``
               (:mod:`~rbdl_edu.simulation.geometric_sensors`)
velocity       ``jointvel``, ``ballangvel``, ``tendonvel``, ``actuatorvel``; ``gyro``,
               ``velocimeter`` (a site's angular and linear velocity in its own axes);
               ``framelinvel``, ``frameangvel`` (optionally relative to a moving frame);
               ``subtreelinvel``, ``subtreeangmom`` (:func:`~rbdl_edu.simulation.rne_post.subtree_vel`);
               ``jointlimitvel``, ``tendonlimitvel`` (the limit row's velocity)
acceleration   ``actuatorfrc``, ``jointactuatorfrc``, ``tendonactuatorfrc``;
               ``accelerometer`` (a site's acceleration minus gravity, site axes);
               ``framelinacc``, ``frameangacc``; ``force``, ``torque`` (the wrench a
               site's body gets from its parent, site axes); ``touch`` (the normal forces of
               contacts within the site's volume); ``jointlimitfrc``, ``tendonlimitfrc``
any of these   ``contact`` (:mod:`~rbdl_edu.simulation.contact_sensor`): acceleration if it
               reports or reduces by forces, velocity if it reports velocities, else position
=============  ===========================================================================

``force``, ``torque``, the accelerometers and ``framelinacc``, ``frameangacc`` call
:func:`~rbdl_edu.simulation.rne_post.rne_post_constraint` first (``cacc``, ``cfrc_ext``,
``cfrc_int``: all three filled, as MuJoCo's ``mj_rnePostConstraint``, even where only
``cacc`` is read). The touch sensors are read in one pass over the contacts
(:mod:`~rbdl_edu.simulation.touch`); the subtree velocity sensors call
:func:`~rbdl_edu.simulation.rne_post.subtree_vel`.

Each reading is then limited by its ``cutoff`` (0: none), by data type: a real number is
clipped to :math:`[-c, c]`, a positive one (``touch``) to :math:`\le c`; unit vectors and
quaternions have no cutoff (the compiler refuses one). ``noise`` is kept in the model but
not simulated, as in MuJoCo. With ``<flag sensor="disable"/>`` nothing is computed and
``sensordata`` keeps its values.

The simulation stages are float-only (NumPy).

>>> import rbdl_edu as rbd
>>> from rbdl_edu.kinematics import kinematics
>>> model = rbd.load_model('''<mujoco><worldbody><body><joint name="hinge" axis="0 1 0"/>
...   <geom size=".1" pos="0 0 -1"/><site name="imu" pos="0 0 -1"/></body></worldbody>
...   <sensor><jointpos joint="hinge"/><gyro name="gyro" site="imu"/></sensor></mujoco>''')
>>> data = rbd.Data(model); data.qpos[:] = 0.5; data.qvel[:] = 2.0
>>> kinematics(model, data); sensor_pos(model, data)
>>> data.sensordata[:1]
array([0.5])
>>> com_pos(model, data); com_vel_acc(model, data); sensor_vel(model, data)
>>> data.sensor("gyro").data                                # turning at 2 rad/s about y
array([0., 2., 0.])
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rbdl_edu.arrays import namespace, write
from rbdl_edu.cache import per_model
from rbdl_edu.model.enums import (BALL, CNSTR_LIMIT_JOINT, CNSTR_LIMIT_TENDON, DATATYPE_POSITIVE,
                                  DATATYPE_REAL, EQ_TENDON, FREE, OBJ_BODY, OBJ_GEOM, OBJ_SITE, OBJ_XBODY,
                                  SENSOR_NAMES, STAGE_ACC, STAGE_POS, STAGE_VEL, TRN_TENDON, WRAP_SITE)
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import cross, quat_conj, quat_log, quat_mul, quat_normalize
from rbdl_edu.simulation.motion_sensors import accelerometer, frame_velocity
from rbdl_edu.simulation.contact_sensor import contact_sensor
from rbdl_edu.simulation.geometric_sensors import cam_projection, geom_pair, inside_site, rangefinder
from rbdl_edu.simulation.rne_post import rne_post_constraint, spatial_path, subtree_vel
from rbdl_edu.simulation.touch import touch
from rbdl_edu.smooth.comframe import com_pos, com_vel_acc, frame_of, object_acceleration, object_velocity  # noqa: F401


def sensor_pos(model, data):
    """Fill ``sensordata`` for the position-stage sensors (MuJoCo's ``mj_sensorPos``). Needs
    the kinematics, ``com_pos`` (``subtreecom``), the tendon and transmission stages
    (``tendonpos``, ``actuatorpos``) and ``qM`` (``e_kinetic``)."""
    _read(model, data, STAGE_POS)


def sensor_vel(model, data):
    """Fill ``sensordata`` for the velocity-stage sensors (MuJoCo's ``mj_sensorVel``). Needs
    ``cvel`` (:func:`~rbdl_edu.smooth.comframe.com_vel_acc`), ``ten_velocity`` and
    ``actuator_velocity``."""
    _read(model, data, STAGE_VEL)


def sensor_acc(model, data):
    """Fill ``sensordata`` for the acceleration-stage sensors (MuJoCo's ``mj_sensorAcc``).
    Needs ``qacc``, ``actuator_force`` and ``qfrc_actuator``."""
    _read(model, data, STAGE_ACC)


def _read(model, data, stage):
    """Compute every sensor of ``stage`` and apply its cutoff (:func:`_plan`)."""
    if model.opt.disabled("sensor"):
        return
    plan = _plan(model, stage)
    if plan.subtree:
        subtree_vel(model, data)
    if plan.wrenches:
        rne_post_constraint(model, data)
    if plan.touch:                          # the touch sensors: all at once, capped at their cutoffs
        sites, adr, high = plan.touch
        value = touch(model, data, sites)
        _put(data, adr, value if high is None else np.minimum(value, high))
    # the sensors that read entries of one field: all of them at once
    for field, entry, adr, low, high in plan.entries:
        value = getattr(data, field)[entry]
        if low is not None:
            value = namespace(value).clip(value, low, high)
        _put(data, adr, value)
    for s, read, adr, cut in plan.others:
        value = read(model, data, s)
        _put(data, adr, cutoff(model, s, value) if cut else value)


def _put(data, adr, value):
    """``sensordata[adr] = value``: in place for NumPy arrays (asked by type, cheaply), else
    :func:`~rbdl_edu.arrays.write` (JAX: a new array)."""
    if type(value) is np.ndarray and type(data.sensordata) is np.ndarray:
        data.sensordata[adr] = value
    else:
        data.sensordata = write(data.sensordata, adr, value)


class _Plan(NamedTuple):
    """How to read the sensors of one stage (:func:`_plan`)."""
    subtree: bool          # subtree_vel first
    wrenches: bool         # rne_post_constraint first (cacc, cfrc_ext, cfrc_int)
    touch: tuple           # the touch sensors' (sites, sensordata addresses, cutoffs (inf: none) or None), or ()
    entries: tuple         # (field, entries, sensordata addresses, low, high cutoffs or None)
    others: tuple          # (sensor, reader, sensordata slice, has a cutoff)


@per_model
def _plan(model, stage):
    """The sensors of ``stage`` and what they need, made once per model: those that read one
    entry of a field (:data:`_ENTRIES`) grouped by field, and every other one with its reader,
    where it writes and whether it has a cutoff. An unknown kind raises NotImplementedError."""
    m = plain(model)
    ours = [s for s in range(m.nsensor) if m.sensor_needstage[s] == stage]
    kinds = {SENSOR_NAMES[int(m.sensor_type[s])] for s in ours}
    for s in ours:
        if SENSOR_NAMES[int(m.sensor_type[s])] not in _READERS:
            raise NotImplementedError(f"sensor {_name(model, s)}: <{SENSOR_NAMES[int(m.sensor_type[s])]}> sensors "
                                      "are not computed")
    entries, others, touches = {}, [], []
    for s in ours:
        kind = SENSOR_NAMES[int(m.sensor_type[s])]
        if kind == "touch":
            touches.append(s)
        elif kind in _ENTRIES and m.sensor_dim[s] == 1:
            field, _ = _ENTRIES[kind]
            entries.setdefault(field, []).append(s)
        else:
            others.append((s, _READERS[kind], slice(m.sensor_adr[s], m.sensor_adr[s] + m.sensor_dim[s]),
                           bool(m.sensor_cutoff[s] > 0)))
    grouped = []
    for field, sensors in entries.items():
        entry = np.array([_entry(m, s) for s in sensors], dtype=int)
        # as cutoff(): a real reading clipped to [-c, c], a positive one capped at c, where c > 0
        c, real = m.sensor_cutoff[sensors], m.sensor_datatype[sensors] == DATATYPE_REAL
        low, high = (np.where((c > 0) & real, -c, -np.inf), np.where(c > 0, c, np.inf)) if (c > 0).any() else (None, None)
        grouped.append((field, entry, m.sensor_adr[sensors], low, high))
    # a touch reading is positive: capped at its cutoff c where c > 0 (as cutoff())
    c = m.sensor_cutoff[touches]
    high = np.where(c > 0, c, np.inf) if (c > 0).any() else None
    touch = (m.sensor_objid[touches], m.sensor_adr[touches], high) if touches else ()
    return _Plan(bool(kinds & {"subtreelinvel", "subtreeangmom"}),
                 bool(kinds & {"force", "torque", "accelerometer", "framelinacc", "frameangacc"}), touch, tuple(grouped), tuple(others))


def cutoff(model, s, value):
    """``value`` of sensor ``s`` limited by its ``sensor_cutoff`` ``c`` (0: none), as MuJoCo: a
    real reading is clipped to ``[-c, c]``, a positive one is capped at ``c`` (from above
    only); unit vectors and quaternions are not changed, nor are ``contact`` and ``fromto``
    sensors.

    >>> import rbdl_edu as rbd
    >>> m = rbd.load_model('''<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body>
    ...   </worldbody><sensor><jointvel joint="j" cutoff="2"/></sensor></mujoco>''')
    >>> cutoff(m, 0, np.array([-3.0]))
    array([-2.])
    """
    c = model.sensor_cutoff[s]
    if c <= 0 or SENSOR_NAMES[int(model.sensor_type[s])] in ("contact", "fromto"):
        return value                       # (fromto's cutoff is its search distance, as distance's)
    if model.sensor_datatype[s] == DATATYPE_REAL:
        return namespace(value).clip(value, -c, c)
    if model.sensor_datatype[s] == DATATYPE_POSITIVE:
        return namespace(value).minimum(value, c)
    return value


def _name(model, s):
    return repr(model.sensor_names[s]) if model.sensor_names[s] else f"#{s}"


# -- position stage ---------------------------------------------------------------------------
def frame_quat(model, data, objtype, objid):
    """World orientation of a body's inertial frame (``OBJ_BODY``), a body (``OBJ_XBODY``), a
    geom or a site, as a quaternion composed from ``xquat`` as MuJoCo does (not normalized
    again: MuJoCo's sign and rounding)."""
    if objtype == OBJ_XBODY:
        return data.xquat[objid]
    if objtype == OBJ_BODY:
        return quat_mul(data.xquat[objid], model.body_iquat[objid])
    if objtype == OBJ_GEOM:
        return quat_mul(data.xquat[model.geom_bodyid[objid]], model.geom_quat[objid])
    if objtype == OBJ_SITE:
        return quat_mul(data.xquat[model.site_bodyid[objid]], model.site_quat[objid])
    raise ValueError(f"objtype {objtype} is not a frame (body, xbody, geom or site)")


def _frame_pos(model, data, s):
    """``framepos`` and the axis sensors: in the world, or in the reference frame
    :math:`(x_r, R_r)`: :math:`R_r^T (x - x_r)` and :math:`R_r^T e_k`."""
    x, R, _ = frame_of(model, data, model.sensor_objtype[s], model.sensor_objid[s])
    kind = SENSOR_NAMES[int(model.sensor_type[s])]
    value = x if kind == "framepos" else R[:, "xyz".index(kind[5])]     # framexaxis -> column 0
    if model.sensor_refid[s] < 0:
        return value
    x_r, R_r, _ = frame_of(model, data, model.sensor_reftype[s], model.sensor_refid[s])
    return R_r.T @ (value - x_r) if kind == "framepos" else R_r.T @ value


def _frame_quat(model, data, s):
    """``framequat``: :math:`q` in the world, or :math:`q_r^{-1} \\otimes q` in the reference frame."""
    q = frame_quat(model, data, model.sensor_objtype[s], model.sensor_objid[s])
    if model.sensor_refid[s] < 0:
        return q
    return quat_mul(quat_conj(frame_quat(model, data, model.sensor_reftype[s], model.sensor_refid[s])), q)


def energy_pos(model, data):
    r"""MuJoCo's ``mj_energyPos``: ``data.energy[0]``, the potential energy: gravity's
    :math:`-\sum_i m_i\, g \cdot x_{i,com}` (unless gravity is disabled) and the springs'
    :math:`\tfrac12 k x^2` (unless springs are disabled): joints (for a ball or a free
    joint's orientation :math:`x` is the rotation angle from ``qpos_spring``; a free joint's
    position adds its distance) and tendons (outside the dead band ``tendon_lengthspring``).
    Needs the kinematics and ``ten_length``."""
    m, q = model, data.qpos
    E = 0.0
    if not m.opt.disabled("gravity"):
        E -= float(m.body_mass[1:] @ (data.xipos[1:] @ m.opt.gravity))
    if not m.opt.disabled("spring"):
        for j in range(m.njnt):
            k, adr = m.jnt_stiffness[j], m.jnt_qposadr[j]
            if k == 0:
                continue
            if m.jnt_type[j] == FREE:
                E += k / 2 * np.sum((q[adr:adr + 3] - m.qpos_spring[adr:adr + 3]) ** 2)
                adr += 3
            if m.jnt_type[j] in (FREE, BALL):
                # the rotation from the spring's orientation: log(q_spring^-1 ⊗ q)
                x = quat_log(quat_mul(quat_conj(m.qpos_spring[adr:adr + 4]), q[adr:adr + 4]))
                E += k / 2 * float(x @ x)
            else:
                E += k / 2 * (q[adr] - m.qpos_spring[adr]) ** 2
        for t in range(m.ntendon):
            lower, upper = m.tendon_lengthspring[t]
            L = data.ten_length[t]
            x = L - upper if L > upper else (L - lower if L < lower else 0.0)
            E += m.tendon_stiffness[t] / 2 * x ** 2
    data.energy[0] = E


def energy_vel(model, data):
    r"""MuJoCo's ``mj_energyVel``: ``data.energy[1]``, the kinetic energy
    :math:`\tfrac12 \dot q^T M \dot q` (``M = data.qM``, armature included)."""
    data.energy[1] = 0.5 * float(data.qvel @ data.qM @ data.qvel)


def _e_potential(model, data, s):
    energy_pos(model, data)
    return data.energy[0]


def _e_kinetic(model, data, s):
    energy_vel(model, data)
    return data.energy[1]


# -- velocity stage ---------------------------------------------------------------------------
def _frame_vel(model, data, s):
    """``framelinvel``/``frameangvel``: the frame's ``[ω; v]`` in the world
    (:func:`~rbdl_edu.simulation.motion_sensors.frame_velocity`), or relative to a moving reference
    frame, in its axes: :math:`R_r^T(\\omega - \\omega_r)` and
    :math:`R_r^T(v - v_r - \\omega_r \\times (x - x_r))`."""
    objtype, objid = model.sensor_objtype[s], model.sensor_objid[s]
    linear = SENSOR_NAMES[int(model.sensor_type[s])] == "framelinvel"
    if model.sensor_refid[s] < 0:
        return frame_velocity(model, data, objtype, objid, linear)
    vel = object_velocity(model, data, objtype, objid)
    reftype, refid = model.sensor_reftype[s], model.sensor_refid[s]
    x, _, _ = frame_of(model, data, objtype, objid)
    x_r, R_r, _ = frame_of(model, data, reftype, refid)
    vel_r = object_velocity(model, data, reftype, refid)
    w, v = vel[:3] - vel_r[:3], vel[3:] - vel_r[3:] - cross(vel_r[:3], x - x_r)
    return R_r.T @ v if linear else R_r.T @ w


# -- acceleration stage -----------------------------------------------------------------------
def _joint_wrench(model, data, s):
    """``force``/``torque``: ``cfrc_int`` of the site's body (the wrench its parent exerts on it,
    about the tree's center of mass) moved to the site and turned to its axes:
    :math:`R_s^T f`, :math:`R_s^T(n_c - (x_s - c) \\times f)`."""
    _refuse_missing_forces(model, data, s)
    site = model.sensor_objid[s]
    b = model.site_bodyid[site]
    n_c, f = data.cfrc_int[b, :3], data.cfrc_int[b, 3:]
    x_s, R_s, c = data.site_xpos[site], data.site_xmat[site], data.subtree_com[model.body_rootid[b]]
    if SENSOR_NAMES[int(model.sensor_type[s])] == "force":
        return R_s.T @ f
    return R_s.T @ (n_c - cross(x_s - c, f))


def _refuse_missing_forces(model, data, s):
    """``cfrc_int`` holds every force the model can have except those of spatial tendons that
    wrap around geoms on the bodies they run over (:func:`~rbdl_edu.simulation.rne_post.tendon_wrenches`
    follows straight pieces between sites): refuse a force or torque sensor when one of them
    may pull, rather than read a wrong number."""
    m, what = model, f"sensor {_name(model, s)} ({SENSOR_NAMES[int(model.sensor_type[s])]})"
    constrained = not m.opt.disabled("constraint")
    for t in range(m.ntendon):
        if m.wrap_type[m.tendon_adr[t]] != WRAP_SITE or spatial_path(m, t) is not None:
            continue                                    # fixed tendons act through joints
        name = repr(m.tendon_names[t]) if m.tendon_names[t] else f"#{t}"
        if _tendon_pulls(m, t) or (constrained and _tendon_constrained(m, t)):
            raise NotImplementedError(f"{what}: the forces of spatial tendon {name}, which wraps "
                                      "around geoms, on the bodies it runs over are not computed yet")


def _tendon_constrained(m, t):
    """True if tendon ``t`` has a limit, friction loss or an equality that is switched on."""
    coupled = np.any((m.eq_type == EQ_TENDON) & ((m.eq_obj1id == t) | (m.eq_obj2id == t)))
    return bool((m.tendon_limited[t] and not m.opt.disabled("limit"))
                or (m.tendon_frictionloss[t] > 0 and not m.opt.disabled("frictionloss"))
                or (coupled and not m.opt.disabled("equality")))


def _tendon_pulls(m, t):
    """True if tendon ``t`` has a spring, a damper, armature or an actuator that is switched on."""
    actuated = np.any((m.actuator_trntype == TRN_TENDON) & (m.actuator_trnid[:, 0] == t))
    return bool((m.tendon_stiffness[t] > 0 and not m.opt.disabled("spring"))
                or (m.tendon_damping[t] > 0 and not m.opt.disabled("damper"))
                or m.tendon_armature[t] > 0 or (actuated and not m.opt.disabled("actuation")))


def _limit(model, data, s, kind, value):
    """``jointlimit*``/``tendonlimit*``: ``value(row)`` of the first limit row of the sensor's
    joint or tendon (``kind``), 0 if its limit is not active."""
    rows = np.flatnonzero((data.efc_type == kind) & (data.efc_id == model.sensor_objid[s]))
    return value(rows[0]) if len(rows) else 0.0


def _tendon_actuator_force(model, data, s):
    """``tendonactuatorfrc``: the sum of the forces of the actuators pulling on the tendon."""
    t = model.sensor_objid[s]
    pulling = (model.actuator_trntype == TRN_TENDON) & (model.actuator_trnid[:, 0] == t)
    return data.actuator_force[model.actuator_outadr[pulling]].sum()


#: sensors that read one entry of a field of data: (field, the model's address array of the
#: sensor's object in it, or None for the object's own index)
_ENTRIES = {
    "jointpos": ("qpos", "jnt_qposadr"), "jointvel": ("qvel", "jnt_dofadr"),
    "tendonpos": ("ten_length", None), "tendonvel": ("ten_velocity", None),
    "actuatorpos": ("actuator_length", "actuator_outadr"), "actuatorvel": ("actuator_velocity", "actuator_outadr"),
    "actuatorfrc": ("actuator_force", "actuator_outadr"), "jointactuatorfrc": ("qfrc_actuator", "jnt_dofadr"),
}


def _entry(model, s):
    """The entry of its field (:data:`_ENTRIES`) that sensor ``s`` reads."""
    _, adr = _ENTRIES[SENSOR_NAMES[int(model.sensor_type[s])]]
    return int(model.sensor_objid[s] if adr is None else getattr(model, adr)[model.sensor_objid[s]])


def _entry_reader(field):
    """A reader of one entry, or of an SO(3) servo's three outputs (an actuator sensor of dim 3)."""
    def read(m, d, s):
        e = _entry(m, s)
        return getattr(d, field)[e] if m.sensor_dim[s] == 1 else getattr(d, field)[e:e + m.sensor_dim[s]]
    return read


def _qpos(model, s, n=1):
    """The ``n`` qpos entries of the sensor's joint."""
    adr = model.jnt_qposadr[model.sensor_objid[s]]
    return slice(adr, adr + n)


def _dof(model, s, n=1):
    """The ``n`` dofs of the sensor's joint."""
    adr = model.jnt_dofadr[model.sensor_objid[s]]
    return slice(adr, adr + n)


_READERS = {
    # one entry of a field (jointpos, tendonpos, actuatorpos; jointvel, tendonvel, actuatorvel;
    # actuatorfrc, jointactuatorfrc): :data:`_ENTRIES` (the stages read them all at once)
    **{kind: _entry_reader(field) for kind, (field, _) in _ENTRIES.items()},
    # position
    "ballquat": lambda m, d, s: quat_normalize(d.qpos[_qpos(m, s, 4)]),
    "framepos": _frame_pos, "framexaxis": _frame_pos, "frameyaxis": _frame_pos, "framezaxis": _frame_pos,
    "framequat": _frame_quat,
    "subtreecom": lambda m, d, s: d.subtree_com[m.sensor_objid[s]],
    # the Earth's field (opt.magnetic, world axes) in the site's axes
    "magnetometer": lambda m, d, s: d.site_xmat[m.sensor_objid[s]].T @ m.opt.magnetic,
    "clock": lambda m, d, s: d.time,
    "e_potential": _e_potential, "e_kinetic": _e_kinetic,
    "rangefinder": rangefinder, "insidesite": inside_site, "camprojection": cam_projection,
    "distance": geom_pair, "normal": geom_pair, "fromto": geom_pair,
    # a contact sensor is read at the stage its data needs (position, velocity or acceleration)
    "contact": contact_sensor,
    # a limit's row: its distance beyond the margin, its velocity, its force
    "jointlimitpos": lambda m, d, s: _limit(m, d, s, CNSTR_LIMIT_JOINT, lambda j: d.efc_pos[j] - d.efc_margin[j]),
    "tendonlimitpos": lambda m, d, s: _limit(m, d, s, CNSTR_LIMIT_TENDON, lambda j: d.efc_pos[j] - d.efc_margin[j]),
    # velocity
    "ballangvel": lambda m, d, s: d.qvel[_dof(m, s, 3)],
    # the site's body's angular velocity (the same at every point of it) in the site's axes
    "gyro": lambda m, d, s: d.site_xmat[m.sensor_objid[s]].T @ d.cvel[m.site_bodyid[m.sensor_objid[s]], :3],
    "velocimeter": lambda m, d, s: object_velocity(m, d, OBJ_SITE, m.sensor_objid[s], local=True)[3:],
    "framelinvel": _frame_vel, "frameangvel": _frame_vel,
    "subtreelinvel": lambda m, d, s: d.subtree_linvel[m.sensor_objid[s]],
    "subtreeangmom": lambda m, d, s: d.subtree_angmom[m.sensor_objid[s]],
    "jointlimitvel": lambda m, d, s: _limit(m, d, s, CNSTR_LIMIT_JOINT, lambda j: d.efc_vel[j]),
    "tendonlimitvel": lambda m, d, s: _limit(m, d, s, CNSTR_LIMIT_TENDON, lambda j: d.efc_vel[j]),
    # acceleration
    "tendonactuatorfrc": _tendon_actuator_force,
    # a site's acceleration minus gravity's (cacc holds the world's fictitious -g), site axes
    "accelerometer": accelerometer,
    "framelinacc": lambda m, d, s: object_acceleration(m, d, m.sensor_objtype[s], m.sensor_objid[s])[3:],
    "frameangacc": lambda m, d, s: object_acceleration(m, d, m.sensor_objtype[s], m.sensor_objid[s])[:3],
    "force": _joint_wrench, "torque": _joint_wrench,
    "touch": lambda m, d, s: touch(m, d, m.sensor_objid[s:s + 1])[0],       # (_read reads them all at once)
    "jointlimitfrc": lambda m, d, s: _limit(m, d, s, CNSTR_LIMIT_JOINT, lambda j: d.efc_force[j]),
    "tendonlimitfrc": lambda m, d, s: _limit(m, d, s, CNSTR_LIMIT_TENDON, lambda j: d.efc_force[j]),
}
