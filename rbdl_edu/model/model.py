"""The frozen ``Model``: everything that does not change while simulating (MuJoCo's ``mjModel``).

Every field has MuJoCo's name (``object_attribute``), shape and meaning, so a reader who
knows MuJoCo finds everything where she expects it, and a test compares field by field.
The shapes are written in terms of the model's sizes (``body_pos (nbody, 3)``); the
table at the end of :class:`Model`'s docstring lists them all, and the model checks its
arrays against that table when it is made.

Body 0 is the world; bodies come in MJCF document order, so ``body_parentid[i] < i``;
the world's parent is ``-1``. Objects refer to each other by id (``-1``: none). Kinds
(``jnt_type``, ``actuator_trntype``, ``sensor_type``, ...) are MuJoCo's integers, named in
:mod:`rbdl_edu.model.enums`. A symbolic model (``symbolic=True`` in the builders) holds
``dtype=object`` arrays of SymPy symbols in its inertial and geometric fields.

Named access is the bindings': ``model.body("torso").mass`` is the row of ``body_mass``
(:mod:`rbdl_edu.model.records`); ``model.id("body", "torso")`` is MuJoCo's ``mj_name2id``.

Build a model with :class:`rbdl_edu.model.spec.ModelSpec` (the builders and the MJCF/URDF
compiler do), not by hand. The state and the results live in :class:`rbdl_edu.model.data.Data`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.model.frozen import frozen
from rbdl_edu.model.option import Option
from rbdl_edu.model.records import ModelRecords


def _a(shape, doc, dtype=float):
    """A model array: its shape in the model's sizes (``("nbody", 3)``), meaning and dtype."""
    return field(default=None, metadata=dict(shape=shape, doc=doc, dtype=dtype))


def _names(size):
    return field(default=None, metadata=dict(shape=(size,), doc="names ('' if unnamed)", dtype=str))


I, B = int, bool
SIZES = ("nq", "nv", "nbody", "njnt", "ngeom", "nsite", "ncam", "nmesh", "nmeshvert", "nmeshface", "nhfield",
         "nhfielddata", "nmat",
         "npair", "nexclude", "neq", "ntendon", "nwrap", "nactuator", "nu", "na", "nout", "nsensor", "nsensordata",
         "nkey", "nmocap")


@dataclass(frozen=True, eq=False)
class Model(ModelRecords):
    """A compiled model: sizes, options and arrays with MuJoCo's names (shapes below).

    Sizes: ``nq`` positions, ``nv`` velocities (DOFs), ``nbody`` bodies with the world,
    ``njnt`` joints, ``ngeom`` geoms, ``nsite`` sites, ``nmesh`` meshes (``nmeshvert``
    vertices, ``nmeshface`` triangles), ``nhfield`` height fields (``nhfielddata``
    elevation samples), ``nmat`` materials, ``npair``/``nexclude`` explicit
    contact pairs/excludes, ``neq`` equality constraints, ``ntendon`` tendons (``nwrap``
    path elements), ``nactuator`` actuators with ``nu`` controls in all (MuJoCo 4.0: a
    ``<pid>`` or a DC motor may take several; ``na`` activation states; ``nout`` force outputs,
    three for an ``<orientation>`` servo, one for every other actuator), ``nsensor``
    sensors (``nsensordata`` numbers), ``nkey`` keyframes, ``nmocap`` mocap bodies.
    """
    nq: int = 0
    nv: int = 0
    nbody: int = 1
    njnt: int = 0
    ngeom: int = 0
    nsite: int = 0
    ncam: int = 0
    nmesh: int = 0
    nmeshvert: int = 0
    nmeshface: int = 0
    nhfield: int = 0
    nhfielddata: int = 0
    nmat: int = 0
    npair: int = 0
    nexclude: int = 0
    neq: int = 0
    ntendon: int = 0
    nwrap: int = 0
    nactuator: int = 0
    nu: int = 0
    na: int = 0
    nout: int = 0
    nsensor: int = 0
    nsensordata: int = 0
    nkey: int = 0
    nmocap: int = 0
    opt: Option = field(default_factory=Option)
    name: str = ""
    #: what computed the constants at ``qpos0`` (:func:`rbdl_edu.setconst.set_const`, for a
    #: loaded model), so that :meth:`replace` can compute them again; ``None`` for a model
    #: compiled from a spec alone
    set_const: object = field(default=None, repr=False, compare=False)
    # positions ---------------------------------------------------------------------------
    qpos0: np.ndarray = _a(("nq",), "reference configuration (joint ref)")
    qpos_spring: np.ndarray = _a(("nq",), "spring rest configuration (springref)")
    # bodies ------------------------------------------------------------------------------
    body_names: tuple = _names("nbody")
    body_parentid: np.ndarray = _a(("nbody",), "parent body, -1 for the world", I)
    body_rootid: np.ndarray = _a(("nbody",), "top-level ancestor (a child of the world)", I)
    body_weldid: np.ndarray = _a(("nbody",), "nearest ancestor-or-self that moves", I)
    body_mocapid: np.ndarray = _a(("nbody",), "mocap index, -1 if not a mocap body", I)
    body_jntnum: np.ndarray = _a(("nbody",), "number of joints", I)
    body_jntadr: np.ndarray = _a(("nbody",), "first joint, -1 if none", I)
    body_dofnum: np.ndarray = _a(("nbody",), "number of dofs", I)
    body_dofadr: np.ndarray = _a(("nbody",), "first dof, -1 if none", I)
    body_geomnum: np.ndarray = _a(("nbody",), "number of geoms", I)
    body_geomadr: np.ndarray = _a(("nbody",), "first geom, -1 if none", I)
    body_pos: np.ndarray = _a(("nbody", 3), "position in the parent frame")
    body_quat: np.ndarray = _a(("nbody", 4), "orientation in the parent frame")
    body_ipos: np.ndarray = _a(("nbody", 3), "center of mass in the body frame")
    body_iquat: np.ndarray = _a(("nbody", 4), "principal axes of inertia in the body frame")
    body_mass: np.ndarray = _a(("nbody",), "mass")
    body_subtreemass: np.ndarray = _a(("nbody",), "mass of the body and all below it")
    body_inertia: np.ndarray = _a(("nbody", 3), "principal moments about the center of mass")
    body_invweight0: np.ndarray = _a(("nbody", 2), "mean inverse inertia at qpos0 (translation, rotation)")
    body_gravcomp: np.ndarray = _a(("nbody",), "gravity compensation (1: weightless)")
    body_sleep: np.ndarray = _a(("nbody",), "sleep policy of the tree it roots (SLEEP_AUTO, _NEVER, ...)", I)
    # joints ------------------------------------------------------------------------------
    jnt_names: tuple = _names("njnt")
    jnt_type: np.ndarray = _a(("njnt",), "FREE, BALL, SLIDE or HINGE", I)
    jnt_qposadr: np.ndarray = _a(("njnt",), "first qpos entry", I)
    jnt_dofadr: np.ndarray = _a(("njnt",), "first dof", I)
    jnt_bodyid: np.ndarray = _a(("njnt",), "the body it moves", I)
    jnt_group: np.ndarray = _a(("njnt",), "group (for drawing)", I)
    jnt_limited: np.ndarray = _a(("njnt",), "has a range", B)
    jnt_actfrclimited: np.ndarray = _a(("njnt",), "actuator force on it is clamped", B)
    jnt_actgravcomp: np.ndarray = _a(("njnt",), "gravity compensation counts as actuation", B)
    jnt_solref: np.ndarray = _a(("njnt", 2), "limit softness: solref")
    jnt_solimp: np.ndarray = _a(("njnt", 5), "limit softness: solimp")
    jnt_pos: np.ndarray = _a(("njnt", 3), "anchor in the body frame")
    jnt_axis: np.ndarray = _a(("njnt", 3), "unit axis in the body frame")
    jnt_stiffness: np.ndarray = _a(("njnt",), "spring stiffness")
    jnt_stiffnesspoly: np.ndarray = _a(("njnt", 2), "spring's x^2, x^3 coefficients (nonlinear spring)")
    jnt_springdamper: np.ndarray = _a(("njnt", 2), "(timeconst, dampratio): set_const's stiffness and damping")
    jnt_range: np.ndarray = _a(("njnt", 2), "limits (a ball joint: (0, max angle))")
    jnt_actfrcrange: np.ndarray = _a(("njnt", 2), "range of the actuator force on it")
    jnt_margin: np.ndarray = _a(("njnt",), "limit becomes active this far from the range")
    # dofs --------------------------------------------------------------------------------
    dof_bodyid: np.ndarray = _a(("nv",), "the body it moves", I)
    dof_jntid: np.ndarray = _a(("nv",), "its joint", I)
    dof_parentid: np.ndarray = _a(("nv",), "previous dof on the path to the root, -1 if none", I)
    dof_Madr: np.ndarray = _a(("nv",), "start of its row in the tree-sparse M", I)
    dof_solref: np.ndarray = _a(("nv", 2), "friction loss softness: solref")
    dof_solimp: np.ndarray = _a(("nv", 5), "friction loss softness: solimp")
    dof_frictionloss: np.ndarray = _a(("nv",), "dry friction force")
    dof_armature: np.ndarray = _a(("nv",), "rotor inertia added to M's diagonal")
    dof_damping: np.ndarray = _a(("nv",), "viscous damping")
    dof_dampingpoly: np.ndarray = _a(("nv", 2), "damping's v|v|, v^3 coefficients (nonlinear damper)")
    dof_invweight0: np.ndarray = _a(("nv",), "inverse inertia at qpos0")
    dof_M0: np.ndarray = _a(("nv",), "diagonal of M at qpos0")
    # geoms -------------------------------------------------------------------------------
    geom_names: tuple = _names("ngeom")
    geom_type: np.ndarray = _a(("ngeom",), "PLANE, SPHERE, CAPSULE, ... (enums)", I)
    geom_contype: np.ndarray = _a(("ngeom",), "contact type bits", I)
    geom_conaffinity: np.ndarray = _a(("ngeom",), "contact affinity bits", I)
    geom_condim: np.ndarray = _a(("ngeom",), "contact dimension: 1, 3, 4 or 6", I)
    geom_bodyid: np.ndarray = _a(("ngeom",), "its body", I)
    geom_dataid: np.ndarray = _a(("ngeom",), "its mesh or height field, -1 if none", I)
    geom_matid: np.ndarray = _a(("ngeom",), "its material, -1 if none", I)
    geom_group: np.ndarray = _a(("ngeom",), "group (MuJoCo models draw groups 0-2)", I)
    geom_priority: np.ndarray = _a(("ngeom",), "contact parameter priority", I)
    geom_solmix: np.ndarray = _a(("ngeom",), "weight when mixing solref/solimp")
    geom_solref: np.ndarray = _a(("ngeom", 2), "contact softness: solref")
    geom_solimp: np.ndarray = _a(("ngeom", 5), "contact softness: solimp")
    geom_size: np.ndarray = _a(("ngeom", 3), "sizes, MuJoCo's convention per type")
    geom_pos: np.ndarray = _a(("ngeom", 3), "position in the body frame")
    geom_quat: np.ndarray = _a(("ngeom", 4), "orientation in the body frame")
    geom_friction: np.ndarray = _a(("ngeom", 3), "sliding, torsional, rolling friction")
    geom_margin: np.ndarray = _a(("ngeom",), "contacts are active closer than this")
    geom_gap: np.ndarray = _a(("ngeom",), "contacts are generated but inactive within the gap")
    geom_adhesion: np.ndarray = _a(("ngeom",), "adhesive pull of its contacts (a force; pairs sum them)")
    geom_fluid: np.ndarray = _a(("ngeom", 12), "ellipsoid fluid model: flag and coefficients")
    geom_surfacevel: np.ndarray = _a(("ngeom", 6), "velocity of the surface seen by contacts: "
                                     "linear, angular, in the geom frame")
    geom_rgba: np.ndarray = _a(("ngeom", 4), "color")
    # sites -------------------------------------------------------------------------------
    site_names: tuple = _names("nsite")
    site_type: np.ndarray = _a(("nsite",), "shape for drawing (geom types)", I)
    site_bodyid: np.ndarray = _a(("nsite",), "its body", I)
    site_matid: np.ndarray = _a(("nsite",), "its material, -1 if none", I)
    site_group: np.ndarray = _a(("nsite",), "group (for drawing)", I)
    site_size: np.ndarray = _a(("nsite", 3), "sizes (for drawing)")
    site_pos: np.ndarray = _a(("nsite", 3), "position in the body frame")
    site_quat: np.ndarray = _a(("nsite", 4), "orientation in the body frame")
    site_rgba: np.ndarray = _a(("nsite", 4), "color")
    # cameras (for the sensors that look through them) ----------------------------------
    cam_names: tuple = _names("ncam")
    cam_bodyid: np.ndarray = _a(("ncam",), "its body", I)
    cam_pos: np.ndarray = _a(("ncam", 3), "position in the body frame")
    cam_quat: np.ndarray = _a(("ncam", 4), "orientation in the body frame (looks along -z)")
    cam_mode: np.ndarray = _a(("ncam",), "0 fixed, 1 track, 2 trackcom, 3 targetbody, 4 targetbodycom", I)
    cam_targetbodyid: np.ndarray = _a(("ncam",), "the body a targeting camera looks at, -1 if none", I)
    cam_pos0: np.ndarray = _a(("ncam", 3), "offset from its body at qpos0 (track)")
    cam_poscom0: np.ndarray = _a(("ncam", 3), "offset from the (target's) subtree com at qpos0 (trackcom)")
    cam_mat0: np.ndarray = _a(("ncam", 3, 3), "world orientation at qpos0 (track, trackcom)")
    cam_fovy: np.ndarray = _a(("ncam",), "vertical field of view (degrees; orthographic: a length)")
    cam_resolution: np.ndarray = _a(("ncam", 2), "width, height in pixels", I)
    cam_sensorsize: np.ndarray = _a(("ncam", 2), "sensor size (0: use fovy)")
    cam_intrinsic: np.ndarray = _a(("ncam", 4), "focal lengths, principal point (length units)")
    cam_projection: np.ndarray = _a(("ncam",), "0 perspective, 1 orthographic", I)
    # meshes and materials ----------------------------------------------------------------
    mesh_names: tuple = _names("nmesh")
    mesh_vertadr: np.ndarray = _a(("nmesh",), "first vertex in mesh_vert", I)
    mesh_vertnum: np.ndarray = _a(("nmesh",), "number of vertices", I)
    mesh_faceadr: np.ndarray = _a(("nmesh",), "first triangle in mesh_face", I)
    mesh_facenum: np.ndarray = _a(("nmesh",), "number of triangles", I)
    mesh_pos: np.ndarray = _a(("nmesh", 3), "principal frame's origin in the file's frame")
    mesh_quat: np.ndarray = _a(("nmesh", 4), "principal frame's axes in the file's frame")
    mesh_vert: np.ndarray = _a(("nmeshvert", 3), "vertices in the mesh's principal frame")
    mesh_face: np.ndarray = _a(("nmeshface", 3), "triangles: vertex indices within the mesh", I)
    # height fields: elevation samples on a regular grid over [-radius_x, radius_x] x
    # [-radius_y, radius_y]; row r lies at y = -radius_y + 2 radius_y r / (nrow - 1), column c at
    # x = -radius_x + 2 radius_x c / (ncol - 1); sample (r, c) is hfield_data[adr + r ncol + c]
    hfield_names: tuple = _names("nhfield")
    hfield_size: np.ndarray = _a(("nhfield", 4), "radius_x, radius_y, elevation_z, base_z")
    hfield_nrow: np.ndarray = _a(("nhfield",), "number of rows (along y)", I)
    hfield_ncol: np.ndarray = _a(("nhfield",), "number of columns (along x)", I)
    hfield_adr: np.ndarray = _a(("nhfield",), "first sample in hfield_data", I)
    hfield_data: np.ndarray = _a(("nhfielddata",), "elevations in [0, 1] (times elevation_z), row-major")
    mat_names: tuple = _names("nmat")
    mat_rgba: np.ndarray = _a(("nmat", 4), "color")
    # explicit contact pairs and excludes -------------------------------------------------
    pair_names: tuple = _names("npair")
    pair_dim: np.ndarray = _a(("npair",), "contact dimension", I)
    pair_geom1: np.ndarray = _a(("npair",), "first geom (of the lower body)", I)
    pair_geom2: np.ndarray = _a(("npair",), "second geom", I)
    pair_signature: np.ndarray = _a(("npair",), "(body1 << 16) + body2", I)
    pair_solref: np.ndarray = _a(("npair", 2), "normal softness: solref")
    pair_solreffriction: np.ndarray = _a(("npair", 2), "friction softness: solref (0: as normal)")
    pair_solimp: np.ndarray = _a(("npair", 5), "softness: solimp")
    pair_margin: np.ndarray = _a(("npair",), "margin")
    pair_gap: np.ndarray = _a(("npair",), "gap")
    pair_adhesion: np.ndarray = _a(("npair",), "adhesive pull (replaces the geoms')")
    pair_friction: np.ndarray = _a(("npair", 5), "slide, slide, spin, roll, roll")
    exclude_names: tuple = _names("nexclude")
    exclude_signature: np.ndarray = _a(("nexclude",), "(body1 << 16) + body2", I)
    # equality constraints ----------------------------------------------------------------
    eq_names: tuple = _names("neq")
    eq_type: np.ndarray = _a(("neq",), "CONNECT, WELD, JOINT or TENDON", I)
    eq_obj1id: np.ndarray = _a(("neq",), "first object", I)
    eq_obj2id: np.ndarray = _a(("neq",), "second object (-1: none; the world for bodies)", I)
    eq_objtype: np.ndarray = _a(("neq",), "OBJ_BODY, OBJ_SITE, OBJ_JOINT or OBJ_TENDON", I)
    eq_active0: np.ndarray = _a(("neq",), "active at reset", B)
    eq_solref: np.ndarray = _a(("neq", 2), "softness: solref")
    eq_solimp: np.ndarray = _a(("neq", 5), "softness: solimp")
    eq_data: np.ndarray = _a(("neq", 12), "anchors, relative pose, torque scale or polycoef")
    # tendons -----------------------------------------------------------------------------
    tendon_names: tuple = _names("ntendon")
    tendon_adr: np.ndarray = _a(("ntendon",), "first element of its path in wrap_*", I)
    tendon_num: np.ndarray = _a(("ntendon",), "number of path elements", I)
    tendon_limited: np.ndarray = _a(("ntendon",), "has a length range", B)
    tendon_actfrclimited: np.ndarray = _a(("ntendon",), "actuator force on it is clamped", B)
    tendon_solref_lim: np.ndarray = _a(("ntendon", 2), "limit softness: solref")
    tendon_solimp_lim: np.ndarray = _a(("ntendon", 5), "limit softness: solimp")
    tendon_solref_fri: np.ndarray = _a(("ntendon", 2), "friction loss softness: solref")
    tendon_solimp_fri: np.ndarray = _a(("ntendon", 5), "friction loss softness: solimp")
    tendon_range: np.ndarray = _a(("ntendon", 2), "length limits")
    tendon_actfrcrange: np.ndarray = _a(("ntendon", 2), "range of the actuator force on it")
    tendon_margin: np.ndarray = _a(("ntendon",), "limit margin")
    tendon_stiffness: np.ndarray = _a(("ntendon",), "spring stiffness")
    tendon_stiffnesspoly: np.ndarray = _a(("ntendon", 2), "spring's x^2, x^3 coefficients")
    tendon_damping: np.ndarray = _a(("ntendon",), "damping")
    tendon_dampingpoly: np.ndarray = _a(("ntendon", 2), "damping's v|v|, v^3 coefficients")
    tendon_armature: np.ndarray = _a(("ntendon",), "inertia of the tendon's length")
    tendon_frictionloss: np.ndarray = _a(("ntendon",), "dry friction force")
    tendon_lengthspring: np.ndarray = _a(("ntendon", 2), "spring rest length (a dead band)")
    tendon_length0: np.ndarray = _a(("ntendon",), "length at qpos0")
    tendon_invweight0: np.ndarray = _a(("ntendon",), "inverse inertia at qpos0")
    wrap_type: np.ndarray = _a(("nwrap",), "JOINT, PULLEY, SITE, SPHERE or CYLINDER", I)
    wrap_objid: np.ndarray = _a(("nwrap",), "the joint, site or geom", I)
    wrap_prm: np.ndarray = _a(("nwrap",), "coefficient, divisor or side site")
    # actuators ---------------------------------------------------------------------------
    actuator_names: tuple = _names("nactuator")
    actuator_trntype: np.ndarray = _a(("nactuator",), "transmission: TRN_JOINT, TRN_TENDON, ...", I)
    actuator_dyntype: np.ndarray = _a(("nactuator",), "activation dynamics: DYN_NONE, ...", I)
    actuator_gaintype: np.ndarray = _a(("nactuator",), "gain: GAIN_FIXED or GAIN_AFFINE", I)
    actuator_biastype: np.ndarray = _a(("nactuator",), "bias: BIAS_NONE or BIAS_AFFINE", I)
    actuator_trnid: np.ndarray = _a(("nactuator", 2), "transmission target and its ref/slider site", I)
    actuator_actadr: np.ndarray = _a(("nactuator",), "first activation in act, -1 if none", I)
    actuator_actnum: np.ndarray = _a(("nactuator",), "number of activations", I)
    actuator_group: np.ndarray = _a(("nactuator",), "group", I)
    actuator_ctrladr: np.ndarray = _a(("nactuator",), "first control in ctrl", I)
    actuator_ctrlnum: np.ndarray = _a(("nactuator",), "number of controls (pid: its inputs)", I)
    actuator_outadr: np.ndarray = _a(("nactuator",), "first force output (actuator_force, ...)", I)
    actuator_outnum: np.ndarray = _a(("nactuator",), "number of force outputs (so3: 3)", I)
    actuator_ctrllimited: np.ndarray = _a(("nu",), "control is clamped to ctrlrange (per control)", B)
    actuator_forcelimited: np.ndarray = _a(("nactuator",), "force is clamped to forcerange", B)
    actuator_actlimited: np.ndarray = _a(("nactuator",), "activation is clamped to actrange", B)
    actuator_dynprm: np.ndarray = _a(("nactuator", 10), "dynamics parameters")
    actuator_gainprm: np.ndarray = _a(("nactuator", 10), "gain parameters")
    actuator_biasprm: np.ndarray = _a(("nactuator", 10), "bias parameters")
    actuator_actearly: np.ndarray = _a(("nactuator",), "use the next activation in the force", B)
    actuator_ctrlspec: np.ndarray = _a(("nactuator",), "its inputs: bits 1 pos, 2 vel, 4 ff, 8 voltage; 16 none", I)
    actuator_ctrlrange: np.ndarray = _a(("nu", 2), "control range (per control)")
    actuator_forcerange: np.ndarray = _a(("nactuator", 2), "force range")
    actuator_actrange: np.ndarray = _a(("nactuator", 2), "activation range")
    actuator_gear: np.ndarray = _a(("nout", 6), "gear: length and moment scale (per output)")
    actuator_cranklength: np.ndarray = _a(("nactuator",), "slider-crank rod length")
    actuator_acc0: np.ndarray = _a(("nout",), "acceleration from a unit force at qpos0 (per output)")
    actuator_length0: np.ndarray = _a(("nout",), "length at qpos0 (per output)")
    actuator_lengthrange: np.ndarray = _a(("nout", 2), "feasible length range (per output)")
    # sensors -----------------------------------------------------------------------------
    sensor_names: tuple = _names("nsensor")
    sensor_type: np.ndarray = _a(("nsensor",), "mjtSensor (enums.SENSORS)", I)
    sensor_datatype: np.ndarray = _a(("nsensor",), "REAL, POSITIVE, AXIS or QUATERNION", I)
    sensor_needstage: np.ndarray = _a(("nsensor",), "stage it is computed after", I)
    sensor_objtype: np.ndarray = _a(("nsensor",), "kind of object read (mjtObj)", I)
    sensor_objid: np.ndarray = _a(("nsensor",), "the object, -1 if none", I)
    sensor_reftype: np.ndarray = _a(("nsensor",), "kind of reference frame (mjtObj)", I)
    sensor_refid: np.ndarray = _a(("nsensor",), "the reference frame, -1 if none", I)
    sensor_dim: np.ndarray = _a(("nsensor",), "number of numbers", I)
    sensor_adr: np.ndarray = _a(("nsensor",), "first number in sensordata", I)
    sensor_cutoff: np.ndarray = _a(("nsensor",), "clamp to +-cutoff (0: none)")
    sensor_noise: np.ndarray = _a(("nsensor",), "noise standard deviation (not simulated)")
    sensor_intprm: np.ndarray = _a(("nsensor", 3), "contact, rangefinder: data bits, reduction, slots", I)
    # keyframes ---------------------------------------------------------------------------
    key_names: tuple = _names("nkey")
    key_time: np.ndarray = _a(("nkey",), "time")
    key_qpos: np.ndarray = _a(("nkey", "nq"), "positions")
    key_qvel: np.ndarray = _a(("nkey", "nv"), "velocities")
    key_act: np.ndarray = _a(("nkey", "na"), "activations")
    key_mpos: np.ndarray = _a(("nkey", "3*nmocap"), "mocap positions")
    key_mquat: np.ndarray = _a(("nkey", "4*nmocap"), "mocap orientations")
    key_ctrl: np.ndarray = _a(("nkey", "nu"), "controls")


    def __post_init__(self):
        """Fill the arrays a builder left out with zeros, and check every shape."""
        for f in fields(self):
            if "shape" not in f.metadata:
                continue
            shape = self.shape_of(f.name)
            value = getattr(self, f.name)
            if f.metadata["dtype"] is str:
                value = tuple("" for _ in range(shape[0])) if value is None else tuple(value)
            elif value is None:
                value = np.zeros(shape, dtype=f.metadata["dtype"])
            elif not isinstance(value, np.ndarray):
                value = np.asarray(value, dtype=f.metadata["dtype"])
            if np.shape(value) != shape:
                raise ValueError(f"Model.{f.name} has shape {np.shape(value)}; expected {shape} = "
                                 f"({', '.join(map(str, f.metadata['shape']))})")
            object.__setattr__(self, f.name, value if f.metadata["dtype"] is str else frozen(value))

    def shape_of(self, name) -> tuple:
        """The shape field ``name`` must have, from the sizes (``"body_pos"`` -> ``(nbody, 3)``).

        >>> Model(nbody=3).shape_of("body_pos")
        (3, 3)
        """
        def size(s):
            if isinstance(s, int):
                return s
            k, _, n = s.rpartition("*")
            return (int(k) if k else 1) * getattr(self, n)
        return tuple(size(s) for s in self.__dataclass_fields__[name].metadata["shape"])

    @property
    def nM(self) -> int:
        """The number of entries of the tree-sparse mass matrix (MuJoCo's ``nM``): each dof's
        row holds the dof and its ancestors, from ``dof_Madr``."""
        if not self.nv:
            return 0
        depth, i = 0, self.nv - 1
        while i >= 0:
            depth, i = depth + 1, int(self.dof_parentid[i])
        return int(self.dof_Madr[-1]) + depth

    @property
    def flg_adhesion(self) -> bool:
        """True if a geom or a pair has adhesion (MuJoCo's ``flg_adhesion``)."""
        return bool(np.any(self.geom_adhesion != 0) or np.any(self.pair_adhesion != 0))

    @property
    def is_symbolic(self) -> bool:
        """True if any inertial or geometric field holds SymPy symbols (asked on every call of
        an algorithm: answered once per model)."""
        return _symbolic(self)

    def __repr__(self):
        return (f"Model(nbody={self.nbody}, njnt={self.njnt}, nq={self.nq}, nv={self.nv}, "
                f"ngeom={self.ngeom}, joints={list(self.jnt_names)})")

    def __getstate__(self):
        """What a copy or a pickle of the model holds: its fields, not its caches (they are
        computed again on first use, for the copy's own identity)."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_per_")}

    def replace(self, **changes) -> "Model":
        """A model with some fields changed; the model itself never changes (its arrays are
        read-only). Everything that depends on the changed fields is right in the new model:
        the constants at ``qpos0`` are computed again (``set_const``: ``dof_M0``,
        ``body_invweight0``, ``actuator_acc0``, ...) unless only ``opt`` or ``name`` changed,
        and per-model caches belong to each model object, so none holds the old numbers.

        Domain randomization, one model per episode (unchanged arrays are shared, not copied):

        >>> import rbdl_edu as rbd
        >>> model = rbd.load_model("models/double_pendulum.xml")
        >>> rng = np.random.default_rng(0)
        >>> episode = model.replace(body_mass=model.body_mass * rng.uniform(0.8, 1.2, model.nbody))
        >>> bool(np.all(episode.dof_M0 != model.dof_M0))      # the constants follow the masses
        True
        >>> Model(nbody=2).replace(body_mass=[0.0, 2.0]).body_mass
        array([0., 2.])
        """
        kw = {f.name: getattr(self, f.name) for f in fields(self)}
        kw.update(changes)
        new = Model(**kw)
        if self.set_const is None or set(changes) <= {"opt", "name"}:
            return new
        return dataclasses.replace(self.set_const(new), **changes)


@per_model
def _symbolic(model):
    return any(getattr(model, f).dtype == object for f in
               ("body_mass", "body_pos", "body_ipos", "body_inertia", "jnt_pos", "jnt_axis"))


def check_not_mujoco(*objects):
    """A ``TypeError`` if one of ``objects`` is MuJoCo's (a ``mujoco.MjModel`` or
    ``MjData`` passed where rbdl_edu's own is expected); cheap, as it runs on every call.

    >>> check_not_mujoco(Model())
    """
    for x in objects:
        module = type(x).__module__
        if module == "mujoco" or module.startswith("mujoco."):
            kind = type(x).__name__
            fix = ("load the file with rbd.load_model(...)" if "Model" in kind else
                   "make rbdl_edu's with rbd.Data(model), the model from rbd.load_model(...)")
            raise TypeError(f"this is a mujoco.{kind}; rbdl_edu needs its own: {fix}")


def _field_table():
    rows = []
    for f in fields(Model):
        if "shape" in f.metadata:
            shape = "(" + ", ".join(map(str, f.metadata["shape"])) + ("," if len(f.metadata["shape"]) == 1 else "") + ")"
            rows.append(f"    {f.name:<24} {shape:<18} {f.metadata['doc']}")
    return "\n".join(rows)


Model.__doc__ += "\n    Fields (name, shape, meaning)::\n\n" + _field_table() + "\n"
