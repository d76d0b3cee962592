"""``Data``: the state of a model and everything computed from it (MuJoCo's ``mjData``).

The state is ``time``, ``qpos``, ``qvel``, ``act``, ``ctrl`` and the applied forces; the
rest is filled by the pipeline's stages, each field by the stage named beside it.
Field names and shapes are MuJoCo's.

Named access (``data.joint("hip").qpos``, ``data.body("torso").xpos``,
``data.sensor("imu").data``, ...) has MuJoCo's names, and returns **copies** taken at the
moment of the call: a value you store does not change when the simulation moves on.
(MuJoCo's Python bindings return live views instead; a log built from views silently
holds the last state many times.) Assigning an attribute writes into ``Data``:
``data.joint("elbow").qpos = 0.5`` (:mod:`rbdl_edu.model.records`).

>>> from rbdl_edu.models import double_pendulum
>>> data = Data(double_pendulum())
>>> data.joint("elbow").qpos = 0.5
>>> data.qpos, data.joint("elbow").qpos
(array([0. , 0.5]), array([0.5]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import FLOAT64, is_jax
from rbdl_edu.cache import per_model
from rbdl_edu.model.enums import AWAKE, SLEEP_INIT
from rbdl_edu.model.model import check_not_mujoco
from rbdl_edu.model.records import data_record
from rbdl_edu.model.warning_log import WarningLog


class Data:
    """State and results of ``model``.

    State: ``time``, ``qpos (nq,)``, ``qvel (nv,)``, ``act (na,)``, ``ctrl (nu,)``,
    ``eq_active (neq,)`` (which equality constraints act), ``qfrc_applied (nv,)``,
    ``xfrc_applied (nbody, 6)`` (``[force, torque]`` in world coordinates at each body's
    center of mass), ``mocap_pos (nmocap, 3)``, ``mocap_quat (nmocap, 4)``.

    Filled by the stages of :func:`rbdl_edu.simulation.forward.forward`, in order:

    ============================  ===========================================================
    kinematics                    ``xpos (nbody, 3)``, ``xquat (nbody, 4)``, ``xmat (nbody, 3, 3)``,
                                  ``xipos``, ``ximat`` (inertial frames), ``xanchor (njnt, 3)``,
                                  ``xaxis (njnt, 3)``, ``geom_xpos (ngeom, 3)``, ``geom_xmat``,
                                  ``site_xpos (nsite, 3)``, ``site_xmat``
    com frames (comframe)         ``subtree_com (nbody, 3)``, ``cdof (nv, 6)``; later ``cvel``,
                                  ``cacc (nbody, 6)``
    cameras (camera)              ``cam_xpos (ncam, 3)``, ``cam_xmat (ncam, 3, 3)``
    tendons                       ``ten_length (ntendon,)``, ``ten_J (ntendon, nv)``,
                                  ``ten_velocity``, ``ten_wrapadr``, ``ten_wrapnum``,
                                  ``wrap_obj (2 nwrap,)``, ``wrap_xpos (2 nwrap, 3)``
    mass matrix                   ``qM (nv, nv)`` (dense, with armature), ``qLD (nM,)`` its factor;
                                  ``qH (nM,)`` implicitfast's :math:`M - hD` factored the same way
                                  (an accelerated model's smooth half computes it)
    transmission                  ``actuator_length (nout,)``, ``actuator_moment (nout, nv)``,
                                  ``actuator_velocity (nout,)`` (one row per force output)
    collision                     ``contact`` (a list of contacts; ``ncon`` their number)
    constraints                   ``ne``, ``nf``, ``nl``, ``nefc`` (rows: equality, friction
                                  loss, limit, all); per row: ``efc_type``, ``efc_id``,
                                  ``efc_J (nefc, nv)``, ``efc_pos``, ``efc_margin``,
                                  ``efc_frictionloss``, ``efc_diagA``, ``efc_KBIP (nefc, 4)``,
                                  ``efc_R``, ``efc_D``; later ``efc_vel``, ``efc_aref``
                                  (:mod:`rbdl_edu.constraint.rows`, :mod:`rbdl_edu.constraint.impedance`)
    velocity                      ``qfrc_bias (nv,)`` (Coriolis, centrifugal, gravity)
    passive                       ``qfrc_spring``, ``qfrc_damper``, ``qfrc_gravcomp``,
                                  ``qfrc_fluid``, ``qfrc_adhesion``, ``qfrc_passive (nv,)``
    actuation                     ``act_dot (na,)``, ``actuator_force (nout,)``, ``qfrc_actuator (nv,)``
    acceleration                  ``qfrc_smooth``, ``qacc_smooth``; the constraint solver's
                                  ``efc_b``, ``efc_force``, ``efc_state``, ``qfrc_constraint``,
                                  ``qacc (nv,)`` and its statistics ``solver_niter``, ``solver``
                                  (:mod:`rbdl_edu.constraint.solver`)
    sleep                         ``tree_asleep (ntree,)``: MuJoCo's sleep counter of each tree
                                  (``sleep_init_pending``: the ``sleep="init"`` trees are not yet)
                                  (:mod:`rbdl_edu.simulation.sleep`)
    inverse dynamics              ``qfrc_inverse (nv,)`` (:func:`rbdl_edu.simulation.inverse.inverse`)
    sensors                       ``sensordata (nsensordata,)``, ``subtree_linvel``,
                                  ``subtree_angmom (nbody, 3)``, ``cfrc_int``, ``cfrc_ext (nbody, 6)``,
                                  ``energy (2,)`` (potential, kinetic)
    ============================  ===========================================================

    ``contact_filter``: ``None``, or the user's function ``(model, data, geom1, geom2) -> bool``
    that rejects a dynamic geom pair instead of the ``contype``/``conaffinity`` bitmask
    (MuJoCo's ``mjcb_contactfilter``, :func:`rbdl_edu.collision.filters.user_contact_filter`).

    ``qacc_warmstart (nv,)`` is part of the state: the last step's ``qacc``, where the
    constraint solver starts. ``warning`` (a :class:`~rbdl_edu.model.warning_log.WarningLog`)
    counts what went wrong, by kind, with the first and the last record of each, as MuJoCo's
    ``mjData.warning`` (bounded memory however long the run): a diverging simulation
    (kinds ``"qpos"``, ``"qvel"``, ``"qacc"``; :class:`~rbdl_edu.simulation.step.Divergence`), an
    ``implicitfast`` step whose :math:`M - hD` was not positive definite (kind ``"inertia"``;
    :class:`~rbdl_edu.simulation.integrators.InertiaWarning`).
    """

    def __init__(self, model):
        check_not_mujoco(model)
        m = model
        self.model = m
        self.time = 0.0
        self.qpos = np.array(m.qpos0, dtype=float)
        self.qvel = np.zeros(m.nv)
        self.act = np.zeros(m.na)
        self.ctrl = np.zeros(m.nu)
        self.qfrc_applied = np.zeros(m.nv)
        self.xfrc_applied = np.zeros((m.nbody, 6))
        self.eq_active = np.array(m.eq_active0, dtype=bool)     # equality constraints switched on
        self.mocap_pos = np.zeros((m.nmocap, 3))
        self.mocap_quat = np.tile([1.0, 0.0, 0.0, 0.0], (m.nmocap, 1))
        for b in range(m.nbody):
            if m.body_mocapid[b] >= 0:
                self.mocap_pos[m.body_mocapid[b]] = m.body_pos[b]
                self.mocap_quat[m.body_mocapid[b]] = m.body_quat[b]
        # kinematics
        self.xpos = np.zeros((m.nbody, 3))
        self.xquat = np.tile([1.0, 0.0, 0.0, 0.0], (m.nbody, 1))
        self.xmat = np.tile(np.eye(3), (m.nbody, 1, 1))
        self.xipos = np.zeros((m.nbody, 3))
        self.ximat = np.tile(np.eye(3), (m.nbody, 1, 1))
        self.xanchor = np.zeros((m.njnt, 3))
        self.xaxis = np.zeros((m.njnt, 3))
        self.geom_xpos = np.zeros((m.ngeom, 3))
        self.geom_xmat = np.tile(np.eye(3), (m.ngeom, 1, 1))
        self.site_xpos = np.zeros((m.nsite, 3))
        self.site_xmat = np.tile(np.eye(3), (m.nsite, 1, 1))
        self.cam_xpos, self.cam_xmat = np.zeros((m.ncam, 3)), np.tile(np.eye(3), (m.ncam, 1, 1))
        # com frames, tendons, mass matrix, transmission
        self.subtree_com = np.zeros((m.nbody, 3))
        self.cdof = np.zeros((m.nv, 6))
        self.cvel, self.cacc = np.zeros((m.nbody, 6)), np.zeros((m.nbody, 6))
        self.ten_length, self.ten_velocity = np.zeros(m.ntendon), np.zeros(m.ntendon)
        self.ten_J = np.zeros((m.ntendon, m.nv))
        self.ten_wrapadr, self.ten_wrapnum = np.zeros(m.ntendon, dtype=int), np.zeros(m.ntendon, dtype=int)
        self.wrap_obj, self.wrap_xpos = np.zeros(2 * m.nwrap, dtype=int), np.zeros((2 * m.nwrap, 3))
        self.qM = np.zeros((m.nv, m.nv))
        self.qLD = np.zeros(m.nM)          # its tree-sparse L^T D L factor
        self.qH = np.zeros(m.nM)           # implicitfast's M - hD, factored as qLD (if the smooth half computes it)
        self.actuator_length, self.actuator_velocity = np.zeros(m.nout), np.zeros(m.nout)
        self.actuator_moment = np.zeros((m.nout, m.nv))
        # collision and constraint rows
        self.contact = []
        self.ne = self.nf = self.nl = self.nefc = 0
        self.efc_type, self.efc_id = np.zeros(0, dtype=int), np.zeros(0, dtype=int)
        self.efc_J = np.zeros((0, m.nv))
        for name in ("pos", "margin", "frictionloss", "diagA", "R", "D", "vel", "aref", "b", "force"):
            setattr(self, "efc_" + name, np.zeros(0))
        self.efc_KBIP, self.efc_state = np.zeros((0, 4)), np.zeros(0, dtype=int)
        self.qacc_warmstart = np.zeros(m.nv)
        self.solver_niter, self.solver = 0, []
        # forces and accelerations
        self.qfrc_bias = np.zeros(m.nv)
        self.qfrc_spring, self.qfrc_damper = np.zeros(m.nv), np.zeros(m.nv)
        self.qfrc_gravcomp, self.qfrc_fluid = np.zeros(m.nv), np.zeros(m.nv)
        self.qfrc_adhesion = np.zeros(m.nv)
        self.qfrc_passive = np.zeros(m.nv)
        self.act_dot, self.actuator_force = np.zeros(m.na), np.zeros(m.nout)
        self.qfrc_actuator = np.zeros(m.nv)
        self.qfrc_smooth, self.qacc_smooth = np.zeros(m.nv), np.zeros(m.nv)
        self.qfrc_constraint, self.qfrc_inverse = np.zeros(m.nv), np.zeros(m.nv)
        self.qacc = np.zeros(m.nv)
        # sleep (<flag sleep="enable"/>): per tree, -(1 + MINAWAKE) .. -1 awake (counting the steps
        # at rest up to -1), >= 0 asleep (the next tree of its island's cycle)
        self.tree_asleep = np.full(int(np.sum(m.dof_parentid < 0)), AWAKE)     # a tree per root dof
        # trees with sleep="init" are put to sleep by the first forward (MuJoCo: by mj_makeData)
        self.sleep_init_pending = bool(np.any(m.body_sleep == SLEEP_INIT))
        # sensors
        self.sensordata = np.zeros(m.nsensordata)
        self.subtree_linvel, self.subtree_angmom = np.zeros((m.nbody, 3)), np.zeros((m.nbody, 3))
        self.cfrc_int, self.cfrc_ext = np.zeros((m.nbody, 6)), np.zeros((m.nbody, 6))
        self.energy = np.zeros(2)
        self.warning = WarningLog()
        # the user's contact filter (MuJoCo's mjcb_contactfilter), per simulation, not global
        self.contact_filter = None

    #: the inputs a user assigns, with their shapes in the model's sizes: an assignment is
    #: copied into a float64 array of that shape (as MuJoCo's bindings copy into ``mjData``),
    #: so ``data.ctrl = np.zeros(nu, int)`` cannot leave ``ctrl`` an int array that drops 0.7
    INPUTS = {"qpos": ("nq",), "qvel": ("nv",), "act": ("na",), "ctrl": ("nu",), "qacc": ("nv",),
              "qacc_warmstart": ("nv",), "qfrc_applied": ("nv",), "xfrc_applied": ("nbody", 6),
              "mocap_pos": ("nmocap", 3), "mocap_quat": ("nmocap", 4)}

    def __repr__(self):
        return f"Data(time={self.time}, qpos={self.qpos}, qvel={self.qvel})"

    @property
    def ncon(self) -> int:
        """The number of contacts, ``len(contact)``."""
        return len(self.contact)

    # -- named access: records of copies -------------------------------------------------------
    # (rbdl_edu.model.records: data.joint("hip").qpos reads a copy, data.joint("hip").qpos = 0.5
    # writes into data.qpos; a name or an integer id)
    def joint(self, x):
        """Joint ``x``'s ``qpos``, ``qvel``, ``qacc``, ``qfrc_applied``, ``qfrc_bias``, ...
        (its dofs' entries), ``xanchor``, ``xaxis``, ``cdof``; ``id``, ``name``."""
        return data_record(self, "joint", x)

    def body(self, x):
        """Body ``x``'s ``xpos``, ``xquat``, ``xmat``, ``xipos``, ``ximat``, ``xfrc_applied``,
        ``cvel``, ``cacc``, ``subtree_com``, ``subtree_linvel``, ``subtree_angmom``,
        ``cfrc_int``, ``cfrc_ext``."""
        return data_record(self, "body", x)

    def geom(self, x):
        """Geom ``x``'s ``xpos`` and ``xmat``."""
        return data_record(self, "geom", x)

    def site(self, x):
        """Site ``x``'s ``xpos`` and ``xmat``."""
        return data_record(self, "site", x)

    def actuator(self, x):
        """Actuator ``x``'s ``ctrl``, ``force``, ``length``, ``velocity``, ``moment (nv,)``
        and its activation ``act`` (empty if it has none)."""
        return data_record(self, "actuator", x)

    def tendon(self, x):
        """Tendon ``x``'s ``length``, ``velocity``, ``wrapadr``, ``wrapnum``."""
        return data_record(self, "tendon", x)

    def sensor(self, x):
        """Sensor ``x``'s numbers ``.data (sensor_dim,)``: ``sensordata`` from ``sensor_adr``.
        (Sensors are in XML order; their addresses are ``model.sensor_adr``.) An unknown name
        raises a ``KeyError`` that lists the model's sensor names."""
        return data_record(self, "sensor", x)

    jnt, ten = joint, tendon                  # the bindings' short names


class _Input:
    """How ``Data`` holds one of its :attr:`Data.INPUTS`: an assignment goes through
    :func:`_as_input`; a read is the value itself, straight from the instance (no ``__get__``,
    so reading ``data.qpos`` costs no Python call, and the stages' own fields are plain
    attributes)."""

    def __init__(self, name):
        self.name = name

    def __set__(self, data, value):
        shape = input_shapes(data.model)[self.name]
        if type(value) is np.ndarray and value.dtype is FLOAT64 and value.shape == shape:
            data.__dict__[self.name] = value.copy()     # the common case (a stage's result): a copy, at once
        else:
            data.__dict__[self.name] = _as_input(data.model, self.name, Data.INPUTS[self.name], value)


for _name in Data.INPUTS:
    setattr(Data, _name, _Input(_name))


@per_model
def input_shapes(model):
    """The shape of each of :attr:`Data.INPUTS` in ``model``'s sizes, a dict."""
    return {name: tuple(s if isinstance(s, int) else getattr(model, s) for s in shape)
            for name, shape in Data.INPUTS.items()}


def _as_input(model, name, shape, value):
    """``value`` as a new float64 array of the input's shape (a scalar or a broadcastable
    array fills it); a ValueError names the field and both shapes."""
    shape = tuple(s if isinstance(s, int) else getattr(model, s) for s in shape)
    if type(value) is np.ndarray and value.dtype == FLOAT64 and value.shape == shape:
        return value.copy()                 # the common case (a stage's result): a copy, at once
    if is_jax(value):                       # traced by rbdl_edu.compiled: immutable, kept as it is
        if value.shape != shape:
            raise ValueError(f"data.{name} has shape {shape}; cannot assign an array of shape {value.shape}")
        return value
    try:
        x = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"data.{name} takes numbers, shape {shape}; got {type(value).__name__}") from None
    try:
        return np.array(np.broadcast_to(x, shape), dtype=float)
    except ValueError:
        raise ValueError(f"data.{name} has shape {shape}; cannot assign an array of shape {x.shape}") from None
