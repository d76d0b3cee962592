r"""Actuators: transmission, activation dynamics, gain and bias (MuJoCo's ``mj_transmission``
and ``mj_fwdActuation``).

An actuator turns its control ``ctrl`` into a scalar force :math:`f` along a scalar
**length** :math:`l(q)`: a joint angle, a tendon length, a slider's stroke. The
transmission gives the length and its gradient, the **moment arm**
:math:`\mathrm{moment} = \partial l / \partial q` (``actuator_moment (nout, nv)``), and by
virtual work the joint forces are

.. math:: \tau_{\mathrm{act}} = \mathrm{moment}^T f, \qquad \dot l = \mathrm{moment}\;\dot q .

The force is MuJoCo's general actuator, an activation :math:`w` times a gain plus a bias:

.. math:: f = \mathrm{gain}(l, \dot l)\; w + \mathrm{bias}(l, \dot l), \qquad
          \mathrm{gain} = g_0 + g_1 l + g_2 \dot l, \quad \mathrm{bias} = b_0 + b_1 l + b_2 \dot l

(``gaintype="fixed"`` keeps only :math:`g_0`), with :math:`w = u` the (clamped) control for
an actuator without dynamics, or its state ``act`` otherwise, which follows

=================  ==========================================  ===========================
``dyntype``        :math:`\dot w`                              used for
=================  ==========================================  ===========================
``integrator``     :math:`u`                                   ``intvelocity`` servos
``filter``         :math:`(u - w)/\tau`                        a first-order lag
``filterexact``    the same, integrated exactly over a step    ``position`` with ``timeconst``
``muscle``         :math:`(u - w)/\tau(u, w)`                  ``muscle`` (two time constants)
=================  ==========================================  ===========================

A muscle's gain and bias are its force–length–velocity curve and its passive spring
(``gaintype``/``biastype="muscle"``, :mod:`rbdl_edu.smooth.muscle`); a DC motor's are its
winding's (``"dcmotor"``, :mod:`rbdl_edu.smooth.dcmotor`, with up to five states); a PID
servo's (``gaintype="pid"``, :mod:`rbdl_edu.smooth.pid`) are its setpoints' and its integral's.

An actuator may take several controls (MuJoCo 4.0): a PID its position and velocity
setpoints and a feedforward, a DC motor its controller's inputs and a voltage. Actuator
``i``'s are ``ctrl[actuator_ctrladr[i]:][:actuator_ctrlnum[i]]``
(:mod:`rbdl_edu.model.controls`); every other actuator reads its one control. An
``<orientation>`` servo gives three forces, a torque vector (:mod:`rbdl_edu.smooth.so3`): the
per-output arrays (lengths, forces, ...) have ``nout`` rows, actuator ``i``'s from
``actuator_outadr[i]``.

A position servo is ``gain = kp``, ``bias = -kp l - kv l̇``: :math:`f = k_p (u - l) - k_v \dot l`,
a PD loop; a velocity servo ``gain = kv``, ``bias = -kv l̇``.

Stages (each ``stage(model, data)``, float-only NumPy like all simulation stages):
:func:`transmission` (position stage: ``actuator_length``, ``actuator_moment``),
:func:`actuator_velocity` (velocity stage), :func:`actuation` (``act_dot``,
``actuator_force``, ``qfrc_actuator``), and :func:`next_act`, the integrator's step of
``act``. The transmissions themselves are in :mod:`rbdl_edu.smooth.transmission`.

Reference: chapter 8 (Simulation: actuators); MuJoCo's documentation, Computation,
"Actuation model".

>>> import rbdl_edu as rbd
>>> from rbdl_edu.kinematics import kinematics
>>> from rbdl_edu.smooth.comframe import com_pos
>>> model = rbd.load_mjcf('''<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body>
...   </worldbody><actuator><position joint="j" kp="10" kv="1" ctrlrange="-1 1"/></actuator></mujoco>''')
>>> data = rbd.Data(model); data.qpos[:] = [0.25]; data.qvel[:] = [2.0]; data.ctrl[:] = [5.0]
>>> kinematics(model, data); com_pos(model, data); transmission(model, data)
>>> actuator_velocity(model, data); actuation(model, data)
>>> data.actuator_force      # 10 (1 - 0.25) - 1 * 2: the control was clamped to 1
array([5.5])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import asarray, is_jax, namespace, put, stacked
from rbdl_edu.cache import ids_where, per_model
from rbdl_edu.model.enums import (BIAS_AFFINE, BIAS_DCMOTOR, BIAS_MUSCLE, DYN_DCMOTOR, DYN_FILTER,
                                  DYN_FILTEREXACT, DYN_INTEGRATOR, DYN_MUSCLE, DYN_NONE, DYN_PID, GAIN_AFFINE,
                                  GAIN_DCMOTOR, GAIN_MUSCLE, GAIN_PID, GAIN_SO3, JOINT_NV, MAXVAL, MINVAL,
                                  TRN_TENDON)
from rbdl_edu.model.frozen import plain
from rbdl_edu.smooth import dcmotor, pid, so3
from rbdl_edu.smooth.muscle import muscle_bias, muscle_dynamics, muscle_gain
from rbdl_edu.smooth.transmission import transmission, wrap_period, wrap_setpoint

__all__ = ["transmission", "actuator_velocity", "actuation", "next_act", "clamped_ctrl", "gain_input",
           "unlimited_force", "switched_off", "controls", "first_controls", "first_outputs", "so3_outputs"]


def actuator_velocity(model, data):
    r"""``actuator_velocity (nout,)``: :math:`\dot l = \mathrm{moment}\;\dot q` (zero with the
    ``actuation`` flag disabled, as MuJoCo's ``mj_fwdVelocity``)."""
    if not model.nactuator and type(data.qvel) is np.ndarray:   # no actuator, numbers: it stays empty
        return
    if model.opt.disabled("actuation"):
        data.actuator_velocity = np.zeros(model.nout)
    else:
        data.actuator_velocity = data.actuator_moment @ data.qvel


def clamped_ctrl(model, data):
    """The controls the actuators act on ``(nu,)``: ``data.ctrl`` clamped to ``ctrlrange``
    where ``ctrllimited`` (unless the ``clampctrl`` flag is disabled), control by control.

    Bad controls raise ``ValueError``: a ``ctrl`` of the wrong shape, or one that is NaN
    or beyond 1e10 after clamping (MuJoCo warns and zeroes all controls instead; a silent
    zero would hide the bug that made the NaN).

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_mjcf('''<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body>
    ...   </worldbody><actuator><motor name="m" joint="j" ctrlrange="-1 1"/><motor joint="j"/>
    ...   </actuator></mujoco>''')
    >>> data = rbd.Data(model); data.ctrl[:] = [3.0, 3.0]
    >>> clamped_ctrl(model, data)               # only the first is limited
    array([1., 3.])
    >>> data.ctrl[0] = float("nan"); clamped_ctrl(model, data)
    Traceback (most recent call last):
    ...
    ValueError: bad control for actuator(s) m: ctrl = [nan] (NaN, or beyond 1e10 and not clamped by a ctrlrange)
    """
    m = plain(model)
    ctrl = asarray(data.ctrl)
    xp = namespace(ctrl)
    if ctrl.shape != (m.nu,):
        raise ValueError(f"data.ctrl has shape {ctrl.shape}; expected ({m.nu},) (the actuators' controls, "
                         "actuator i's from actuator_ctrladr[i])")
    if not m.opt.disabled("clampctrl"):
        lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
        ctrl = xp.where(m.actuator_ctrllimited, xp.clip(ctrl, lo, hi), ctrl)
    if is_jax(ctrl):                # traced by rbdl_edu.compiled: its values are not known here
        return ctrl
    bad = np.flatnonzero(~(np.abs(ctrl) <= MAXVAL))         # NaN fails every comparison
    if len(bad):
        owner = np.searchsorted(m.actuator_ctrladr + m.actuator_ctrlnum, bad, side="right")   # whose control
        names = list(dict.fromkeys(m.actuator_names[i] or f"#{i}" for i in owner))
        raise ValueError(f"bad control for actuator(s) {', '.join(names)}: ctrl = {ctrl[bad]} "
                         "(NaN, or beyond 1e10 and not clamped by a ctrlrange)")
    return ctrl


def controls(model, u, i):
    """Actuator ``i``'s controls, a list (empty for a DC motor with ``input="none"``)."""
    a = int(model.actuator_ctrladr[i])
    return [u[a + k] for k in range(int(model.actuator_ctrlnum[i]))]


def first_outputs(model, x):
    """``(nactuator,)``: each actuator's first output of ``x (nout,)`` (its length, velocity),
    what an actuator with one output acts on (``x`` itself unless an SO(3) servo has three)."""
    return x if model.nout == model.nactuator else x[model.actuator_outadr]


def first_controls(model, u):
    """``(nactuator,)``: each actuator's first control (0 for one without controls), what an
    actuator with one control acts on."""
    m = model
    if m.nu == m.nactuator and len(ids_where(m, "actuator_ctrlnum", 1)) == m.nactuator:    # (one each)
        return u
    if m.nu == 0:
        return np.zeros(m.nactuator)
    first = u[np.minimum(m.actuator_ctrladr, m.nu - 1)]
    return namespace(first).where(m.actuator_ctrlnum > 0, first, 0.0)


def actuation(model, data):
    r"""``act_dot (na,)``, ``actuator_force (nout,)`` and ``qfrc_actuator (nv,)`` (MuJoCo's
    ``mj_fwdActuation``). Needs :func:`transmission` and :func:`actuator_velocity`; for
    joints with ``actuatorgravcomp`` it also reads ``qfrc_gravcomp`` of the passive stage.

    In order:

    1. :func:`clamped_ctrl` :math:`u`;
    2. activation dynamics :math:`\dot w` (table in the module docstring);
    3. :math:`f = \mathrm{gain}\,w + \mathrm{bias}`, with :math:`w` the next activation
       for an ``actearly`` actuator;
    4. a tendon's ``actuatorfrcrange`` scales the forces of all actuators on it so that
       their sum fits the range; each actuator's ``forcerange`` clamps its force;
    5. :math:`\tau = \mathrm{moment}^T f`; joints with ``actuatorgravcomp`` add their
       gravity compensation here (instead of in ``qfrc_passive``); a hinge's or slide's
       ``actuatorfrcrange`` clamps :math:`\tau` at its dof.

    With the ``actuation`` flag disabled the forces are zero (and ``act`` does not move);
    an actuator in a group of ``opt.actuatorgroupdisable`` gives no force, and its ``act``
    does not move though ``act_dot`` is reported (:func:`switched_off`).
    """
    m = plain(model)
    data.act_dot, data.actuator_force = np.zeros(m.na), np.zeros(m.nout)
    data.qfrc_actuator = np.zeros(m.nv)
    if m.nactuator == 0 or m.opt.disabled("actuation"):
        return
    act = asarray(data.act)
    if act.shape != (m.na,):
        raise ValueError(f"data.act has shape {act.shape}; expected ({m.na},)")
    u = clamped_ctrl(model, data)
    # 2. activation dynamics: d/dt act
    length, velocity = first_outputs(m, data.actuator_length), first_outputs(m, data.actuator_velocity)
    if m.na or is_jax(act):              # (no activation state: none to move)
        data.act_dot = activation_rate(model, u, act, velocity, length)
    # 3. force = gain * (ctrl or act) + bias (none from a group switched off)
    off, force = switched_off(model), unlimited_force(model, data, u)
    force = namespace(force).where(off, 0.0, force)
    # 4. clamp: the total force on a tendon, then each actuator's force
    force = _tendon_force_limits(model, force)
    lo, hi = m.actuator_forcerange[:, 0], m.actuator_forcerange[:, 1]
    xp = namespace(force)
    force = xp.where(m.actuator_forcelimited, xp.clip(force, lo, hi), force)
    for i in ids_where(model, "actuator_biastype", BIAS_DCMOTOR):     # cogging, friction: not limited
        force = put(force, i, force[i] + dcmotor.mechanical_force(
            m.actuator_gainprm[i], m.actuator_dynprm[i], m.actuator_biasprm[i], length[i],
            *_block(m, i, act, data.act_dot)))
    force = xp.where(off, 0.0, force)
    if m.nout != m.nactuator:              # one row per output: an SO(3) servo's torque vector
        force = so3_outputs(m, data, u, act, force, off)
    data.actuator_force = force
    # 5. tau = moment^T f, gravity compensation as actuation, joint limits on the total
    tau = data.actuator_moment.T @ force
    if ids_where(model, "body_gravcomp") and not m.opt.disabled("gravity") and np.linalg.norm(m.opt.gravity) > 0:
        for j in ids_where(model, "jnt_actgravcomp"):
            d = slice(m.jnt_dofadr[j], m.jnt_dofadr[j] + JOINT_NV[int(m.jnt_type[j])])
            tau = put(tau, d, tau[d] + data.qfrc_gravcomp[d])
    for j in ids_where(model, "jnt_actfrclimited"):
        d = m.jnt_dofadr[j]        # a hinge's or slide's dof (the compiler never limits others)
        tau = put(tau, d, xp.clip(tau[d], m.jnt_actfrcrange[j, 0], m.jnt_actfrcrange[j, 1]))
    data.qfrc_actuator = tau


def gain_input(model, data, u, length=None, velocity=None):
    r"""``w (nactuator,)``, what each actuator's gain multiplies: its (first) clamped control
    without activation dynamics (``u (nu,)`` all controls), else its activation ``act``, or
    for an ``actearly`` actuator the activation after this step (:func:`_next`). Reads
    ``act`` and ``act_dot``. A servo on an angle
    (:func:`~rbdl_edu.smooth.transmission.wrap_period`) takes the setpoint nearest its
    length, the short way round. A DC motor without a current state: the voltage. ``length``,
    ``velocity``: each actuator's first output (:func:`first_outputs`, by default)."""
    m = model
    length = first_outputs(m, data.actuator_length) if length is None else length
    velocity = first_outputs(m, data.actuator_velocity) if velocity is None else velocity
    w = asarray(first_controls(m, u))
    stateful, special = gain_input_kinds(model)
    for i in stateful:
        if m.actuator_gaintype[i] == GAIN_PID:
            continue                                 # (a PID's gain is 0; its states act through its bias)
        if m.actuator_gaintype[i] == GAIN_DCMOTOR and m.actuator_dynprm[i, 0] <= 0:
            continue                           # a DC motor without a current state: the voltage (below)
        a = m.actuator_actadr[i] + m.actuator_actnum[i] - 1              # the last state
        w_i = (_next(m, i, data.act[a], data.act_dot[a], m.opt.timestep, a - m.actuator_actadr[i],
                     velocity[i]) if m.actuator_actearly[i] else data.act[a])
        w = put(w, i, w_i)
    for i in special:
        period = wrap_period(m, i)
        if period > 0 and m.actuator_gaintype[i] != GAIN_PID:
            w = put(w, i, wrap_setpoint(w[i], length[i], period))
        if m.actuator_gaintype[i] == GAIN_DCMOTOR and m.actuator_dynprm[i, 0] <= 0:
            state = _block(m, i, data.act, data.act_dot)[0]
            w = put(w, i, dcmotor.input_voltage(m.actuator_gainprm[i], m.actuator_dynprm[i], m.actuator_ctrlspec[i],
                                                controls(m, u, i), length[i],
                                                velocity[i], state, m.opt.timestep))
    return w


@per_model
def gain_input_kinds(model):
    """For :func:`gain_input`, two tuples of actuator ids: those with activation states, and
    those whose input is reworked (a servo on an angle, a DC motor without a current state)."""
    m = plain(model)
    special = [i for i in range(m.nactuator) if wrap_period(model, i) > 0
               or (m.actuator_gaintype[i] == GAIN_DCMOTOR and m.actuator_dynprm[i, 0] <= 0)]
    return tuple(np.flatnonzero(m.actuator_actadr >= 0).tolist()), tuple(special)


def so3_outputs(model, data, u, act, force, off):
    """``(nout,)``: the forces ``(nactuator,)`` of the actuators with one output at their
    rows, and each SO(3) servo's torque vector (:mod:`rbdl_edu.smooth.so3`), its norm bounded
    by its force range, at its three."""
    m, out = model, np.zeros(model.nout)
    out[m.actuator_outadr] = force
    for i in np.flatnonzero((m.actuator_gaintype == GAIN_SO3) & ~off):       # (one switched off: zero)
        o, a, nxt = m.actuator_outadr[i], m.actuator_actadr[i], None
        if m.actuator_actearly[i] and m.actuator_dyntype[i] != DYN_NONE:
            nxt = np.array(act, dtype=float)
            nxt[a:a + 3] = [_next(m, i, act[a + k], data.act_dot[a + k], m.opt.timestep, k) for k in range(3)]
        f = so3.so3_force(m, i, data.actuator_length[o:o + 3], data.actuator_velocity[o:o + 3],
                          so3.target(m, i, u, act, nxt))
        out[o:o + 3] = so3.clamp_norm(f, m.actuator_forcerange[i, 1]) if m.actuator_forcelimited[i] else f
    return out


def unlimited_force(model, data, u):
    r""":math:`f = \mathrm{gain}(l, \dot l)\,w + \mathrm{bias}(l, \dot l)` ``(nactuator,)``
    before the tendons' ``actuatorfrcrange`` and the actuators' ``forcerange`` limit it, with
    ``w`` from :func:`gain_input` (``u (nu,)`` the clamped controls); a PID adds the force
    of its setpoints and integral (:func:`rbdl_edu.smooth.pid.input_force`)."""
    m = plain(model)
    l, ldot = first_outputs(m, data.actuator_length), first_outputs(m, data.actuator_velocity)
    g, b = m.actuator_gainprm, m.actuator_biasprm
    out = m.actuator_outadr
    xp = namespace(l, ldot)
    gain = xp.where(m.actuator_gaintype == GAIN_PID, 0.0, g[:, 0])
    gain = gain + xp.where(m.actuator_gaintype == GAIN_AFFINE, g[:, 1] * l + g[:, 2] * ldot, 0.0)
    bias = xp.where(m.actuator_biastype == BIAS_AFFINE, b[:, 0] + b[:, 1] * l + b[:, 2] * ldot, 0.0)
    for i in ids_where(model, "actuator_gaintype", GAIN_MUSCLE):
        gain = put(gain, i, muscle_gain(l[i], ldot[i], m.actuator_lengthrange[out[i]], m.actuator_acc0[out[i]], g[i]))
    for i in ids_where(model, "actuator_biastype", BIAS_MUSCLE):
        bias = put(bias, i, muscle_bias(l[i], m.actuator_lengthrange[out[i]], m.actuator_acc0[out[i]], b[i]))
    for i in ids_where(model, "actuator_gaintype", GAIN_DCMOTOR):
        state = _block(m, i, data.act, data.act_dot)[0]
        gain = put(gain, i, dcmotor.gain(g[i], m.actuator_dynprm[i], state))
    for i in ids_where(model, "actuator_biastype", BIAS_DCMOTOR):
        bias = put(bias, i, dcmotor.stateless_bias(g[i], m.actuator_dynprm[i], ldot[i], gain[i]))
    for i in ids_where(model, "actuator_gaintype", GAIN_PID):
        bias = put(bias, i, bias[i] + _pid_force(m, data, u, i, l[i]))
    return gain * gain_input(model, data, u, l, ldot) + bias


def _pid_force(model, data, u, i, length):
    """PID ``i``'s force from its controls (the slew-limited setpoint) and its integral."""
    m, (state, rate) = model, _block(model, i, data.act, data.act_dot)
    period, ctrl = wrap_period(m, i), controls(m, u, i)
    if m.actuator_dyntype[i] == DYN_PID and ctrl:
        ctrl[0] = pid.slewed(m.actuator_dynprm[i], m.actuator_gainprm[i], ctrl[0], state, m.opt.timestep, period)[0]
    z = None
    if "integral" in pid.slots(m.actuator_dynprm[i], m.actuator_gainprm[i]) and m.actuator_dyntype[i] == DYN_PID:
        a, k = m.actuator_actadr[i] + m.actuator_actnum[i] - 1, m.actuator_actnum[i] - 1     # the last state
        z = _next(m, i, state[k], rate[k], m.opt.timestep) if m.actuator_actearly[i] else data.act[a]
    return pid.input_force(m.actuator_gainprm[i], m.actuator_biasprm[i], m.actuator_ctrlspec[i], ctrl,
                           length, z, period)


def _block(model, i, act, act_dot):
    """Actuator ``i``'s states and their rates (empty for a stateless actuator)."""
    a, n = model.actuator_actadr[i], model.actuator_actnum[i]
    return (act[a:a + n], act_dot[a:a + n]) if a >= 0 else (act[:0], act_dot[:0])


def activation_rate(model, u, act, velocity=None, length=None):
    r"""``act_dot (na,)`` of the controls ``u (nu,)`` and activations ``act (na,)``:
    :math:`u` for an integrator, :math:`(u - w)/\max(\tau, 10^{-15})` for a filter,
    :func:`~rbdl_edu.smooth.muscle.muscle_dynamics` for a muscle,
    :func:`~rbdl_edu.smooth.dcmotor.rates` for a DC motor and
    :func:`~rbdl_edu.smooth.pid.rates` for a PID (which read the actuator lengths
    ``length`` and velocities ``velocity``)."""
    m = model
    act_dot = [0.0] * m.na
    u1 = first_controls(m, u)
    for i in gain_input_kinds(model)[0]:          # the actuators with activation states
        a = m.actuator_actadr[i]
        if m.actuator_dyntype[i] == DYN_INTEGRATOR and m.actuator_actnum[i] > 1:
            act_dot[a:a + m.actuator_actnum[i]] = controls(m, u, i)     # an SO(3) servo's rotation vector
        elif m.actuator_dyntype[i] == DYN_INTEGRATOR:
            act_dot[a] = u1[i]
        elif m.actuator_dyntype[i] in (DYN_FILTER, DYN_FILTEREXACT):
            # (a servo on an angle filters towards the setpoint nearest its activation)
            period = wrap_period(m, i)
            target = wrap_setpoint(u1[i], act[a], period) if period > 0 else u1[i]
            act_dot[a] = (target - act[a]) / max(MINVAL, m.actuator_dynprm[i, 0])
        elif m.actuator_dyntype[i] == DYN_MUSCLE:
            act_dot[a] = muscle_dynamics(u1[i], act[a], m.actuator_dynprm[i])
        elif m.actuator_dyntype[i] == DYN_DCMOTOR:
            # (the controls drive only a DC motor's gain: MuJoCo gives others no input signature)
            n = m.actuator_actnum[i]
            spec = m.actuator_ctrlspec[i] if m.actuator_gaintype[i] == GAIN_DCMOTOR else 0
            act_dot[a:a + n] = dcmotor.rates(m.actuator_gainprm[i], m.actuator_dynprm[i], m.actuator_biasprm[i],
                                             spec, controls(m, u, i), length[i], velocity[i], act[a:a + n],
                                             m.opt.timestep)
        elif m.actuator_dyntype[i] == DYN_PID:
            n = m.actuator_actnum[i]
            act_dot[a:a + n] = pid.rates(m.actuator_gainprm[i], m.actuator_dynprm[i], u1[i], length[i],
                                         act[a:a + n], m.opt.timestep, wrap_period(m, i))
    return stacked(act_dot, (m.na,), u, act)


def next_act(model, data, dt=None, act_dot=None):
    r"""The activations after a step ``(na,)``, what MuJoCo's integrators do to ``act``
    (``mj_advance``): Euler :math:`w + h\,\dot w`, except a ``filterexact`` actuator, whose
    filter is integrated exactly, :math:`w + \dot w\,\tau (1 - e^{-h/\tau})`; then clamped to
    ``actrange`` where ``actlimited``. ``h`` is ``dt``, by default ``model.opt.timestep`` (the
    step MuJoCo always uses, in RK4 too); ``act_dot`` defaults to ``data.act_dot`` (RK4
    passes its combined rate). With the ``actuation`` flag disabled ``act`` does not change.

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_mjcf('''<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body>
    ...   </worldbody><actuator><general joint="j" dyntype="integrator" actrange="0 1"/></actuator></mujoco>''')
    >>> data = rbd.Data(model); data.act[:] = [0.999]
    >>> next_act(model, data, act_dot=[1.0])      # 0.999 + 0.002, clamped to the range
    array([1.])
    """
    m = model
    act = asarray(data.act)
    rate = asarray(data.act_dot if act_dot is None else act_dot)
    h = m.opt.timestep if dt is None else dt
    if m.na == 0 or m.opt.disabled("actuation"):
        return act
    off = switched_off(m)                          # a group switched off: its act stays
    out = [0.0] * m.na
    length, velocity = first_outputs(m, data.actuator_length), first_outputs(m, data.actuator_velocity)
    for i in np.flatnonzero(m.actuator_actadr >= 0):
        for k in range(m.actuator_actnum[i]):
            a = m.actuator_actadr[i] + k
            out[a] = _next(m, i, act[a], 0.0 if off[i] else rate[a], h, k, velocity[i])
        period = wrap_period(m, i)            # an angle setpoint: the one nearest the length
        if period > 0 and m.actuator_dyntype[i] != DYN_PID:
            out[a] = wrap_setpoint(out[a], length[i], period)
        if m.actuator_gaintype[i] == GAIN_SO3:     # a rotation vector: the angle kept in [-pi, pi]
            a = m.actuator_actadr[i]
            out[a:a + 3] = so3.reanchor(np.array(out[a:a + 3], dtype=float))
    return stacked(out, (m.na,), act, rate)


@per_model
def switched_off(model):
    """``(nactuator,)`` bools: the actuators whose group ``opt.actuatorgroupdisable`` switches off
    (MuJoCo's ``mj_actuatorDisabled``; ``opt`` is part of the model: once per model)."""
    return np.array([model.opt.actuator_disabled(int(g)) for g in model.actuator_group], dtype=bool)


def _next(model, i, w, wdot, h, offset=0, velocity=0.0):
    """Actuator ``i``'s activation ``w`` (its state ``offset``) after a step ``h`` at rate
    ``wdot``, clamped (MuJoCo's ``mj_nextActivation``; a DC motor's states are never
    clamped, a bristle's step reads the actuator's ``velocity``)."""
    m = model
    if m.actuator_dyntype[i] == DYN_DCMOTOR:
        return dcmotor.next_state(m.actuator_gainprm[i], m.actuator_dynprm[i], m.actuator_biasprm[i],
                                  offset, w, wdot, velocity, h)
    if model.actuator_dyntype[i] == DYN_FILTEREXACT:
        # w(h) = w + (u - w)(1 - exp(-h/tau)) = w + wdot tau (1 - exp(-h/tau))
        tau = max(MINVAL, model.actuator_dynprm[i, 0])
        w = w + wdot * tau * (1 - np.exp(-h / tau))
    else:
        w = w + wdot * h
    if model.actuator_actlimited[i]:
        w = namespace(w).clip(w, model.actuator_actrange[i, 0], model.actuator_actrange[i, 1])
    return w


def _tendon_force_limits(model, force):
    """Scale the forces of the actuators on a tendon with ``actuatorfrclimited`` so that
    their sum lies in the tendon's ``actuatorfrcrange`` (each by the same factor)."""
    m = plain(model)
    on_tendon = ids_where(model, "actuator_trntype", TRN_TENDON)
    if not on_tendon:
        return force
    total = [0.0] * m.ntendon
    for i in on_tendon:
        total[m.actuator_trnid[i, 0]] = total[m.actuator_trnid[i, 0]] + force[i]
    for i in on_tendon:
        t = m.actuator_trnid[i, 0]
        lo, hi = m.tendon_actfrcrange[t]
        if m.tendon_actfrclimited[t]:
            # a total outside [lo, hi] is scaled to the nearer end (written with where: it traces)
            T, xp = total[t], namespace(total[t])
            outside = (T != 0) & ((T < lo) | (T > hi))
            scale = xp.where(outside, xp.where(T < lo, lo, hi) / xp.where(outside, T, 1.0), 1.0)
            force = put(force, i, force[i] * scale)
    return force
