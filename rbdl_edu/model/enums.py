"""MuJoCo's enumerations, numbered as in ``mjmodel.h``, so a ``Model`` array such as
``actuator_trntype`` holds the same integers as ``mjModel``'s and a test can compare them.

Each kind has its constants and a ``*_NAMES`` table from number to the name the MJCF file
uses (``TRN_NAMES[TRN_JOINT] == "joint"``). ``tests/test_enums.py`` checks every number
against the ``mujoco`` package.

>>> JOINT_NAMES[HINGE], SENSORS["framepos"].dim
('hinge', 3)
"""
from __future__ import annotations

from typing import NamedTuple

# mjtJoint: how a body moves relative to its parent
FREE, BALL, SLIDE, HINGE = 0, 1, 2, 3
JOINT_NAMES = {FREE: "free", BALL: "ball", SLIDE: "slide", HINGE: "hinge"}
JOINT_NQ = {FREE: 7, BALL: 4, SLIDE: 1, HINGE: 1}      # qpos entries
JOINT_NV = {FREE: 6, BALL: 3, SLIDE: 1, HINGE: 1}      # qvel entries (degrees of freedom)

# mjtGeom: the shapes that collide and draw
PLANE, HFIELD, SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH = range(8)
GEOM_NAMES = {PLANE: "plane", HFIELD: "hfield", SPHERE: "sphere", CAPSULE: "capsule",
              ELLIPSOID: "ellipsoid", CYLINDER: "cylinder", BOX: "box", MESH: "mesh"}

# mjtObj: the kinds of object a sensor or an equality refers to
OBJ_UNKNOWN, OBJ_BODY, OBJ_XBODY, OBJ_JOINT, OBJ_DOF, OBJ_GEOM, OBJ_SITE = range(7)
OBJ_CAMERA, OBJ_MESH, OBJ_TENDON, OBJ_ACTUATOR = 7, 10, 18, 19
OBJ_NAMES = {OBJ_UNKNOWN: "", OBJ_BODY: "body", OBJ_XBODY: "xbody", OBJ_JOINT: "joint",
             OBJ_DOF: "dof", OBJ_GEOM: "geom", OBJ_SITE: "site", OBJ_CAMERA: "camera",
             OBJ_MESH: "mesh", OBJ_TENDON: "tendon", OBJ_ACTUATOR: "actuator"}

# mjtTrn: what an actuator pulls on (its transmission)
TRN_JOINT, TRN_JOINTINPARENT, TRN_SLIDERCRANK, TRN_TENDON, TRN_SITE, TRN_BODY, TRN_SO3 = range(7)
TRN_NAMES = {TRN_JOINT: "joint", TRN_JOINTINPARENT: "jointinparent",
             TRN_SLIDERCRANK: "slidercrank", TRN_TENDON: "tendon", TRN_SITE: "site",
             TRN_BODY: "body", TRN_SO3: "so3"}      # so3: a ball joint's or a site's orientation

# mjtDyn, mjtGain, mjtBias: an actuator's activation dynamics, gain and bias
DYN_NONE, DYN_INTEGRATOR, DYN_FILTER, DYN_FILTEREXACT, DYN_MUSCLE, DYN_DCMOTOR, DYN_PID = range(7)
DYN_NAMES = {DYN_NONE: "none", DYN_INTEGRATOR: "integrator", DYN_FILTER: "filter",
             DYN_FILTEREXACT: "filterexact", DYN_MUSCLE: "muscle", DYN_DCMOTOR: "dcmotor", DYN_PID: "pid"}
GAIN_FIXED, GAIN_AFFINE, GAIN_MUSCLE, GAIN_DCMOTOR, GAIN_SO3, GAIN_PID = range(6)
GAIN_NAMES = {GAIN_FIXED: "fixed", GAIN_AFFINE: "affine", GAIN_MUSCLE: "muscle", GAIN_DCMOTOR: "dcmotor",
              GAIN_SO3: "so3", GAIN_PID: "pid"}
# mjtInput: an actuator's controls, in this order ("input"; actuator_ctrlspec holds the bits)
INPUT_POS, INPUT_VEL, INPUT_FF, INPUT_VOLTAGE, INPUT_NONE, INPUT_PRESSURE = 1, 2, 4, 8, 16, 32
BIAS_NONE, BIAS_AFFINE, BIAS_MUSCLE, BIAS_DCMOTOR, BIAS_SO3 = range(5)
BIAS_NAMES = {BIAS_NONE: "none", BIAS_AFFINE: "affine", BIAS_MUSCLE: "muscle", BIAS_DCMOTOR: "dcmotor",
              BIAS_SO3: "so3"}
# mjtCtrlChart: what an SO(3) servo's controls are (its actuator_ctrlspec)
CHART_EXPMAP, CHART_QUAT = 1, 2   # a rotation vector (3 controls), a quaternion (4)

# mjtEq: equality constraints
EQ_CONNECT, EQ_WELD, EQ_JOINT, EQ_TENDON = range(4)
EQ_NAMES = {EQ_CONNECT: "connect", EQ_WELD: "weld", EQ_JOINT: "joint", EQ_TENDON: "tendon"}

# mjtConstraint: the kind of a constraint row (efc_type), in the order rows are made
(CNSTR_EQUALITY, CNSTR_FRICTION_DOF, CNSTR_FRICTION_TENDON, CNSTR_LIMIT_JOINT, CNSTR_LIMIT_TENDON,
 CNSTR_CONTACT_FRICTIONLESS, CNSTR_CONTACT_PYRAMIDAL, CNSTR_CONTACT_ELLIPTIC) = range(8)
CNSTR_NAMES = {CNSTR_EQUALITY: "equality", CNSTR_FRICTION_DOF: "friction_dof",
               CNSTR_FRICTION_TENDON: "friction_tendon", CNSTR_LIMIT_JOINT: "limit_joint",
               CNSTR_LIMIT_TENDON: "limit_tendon", CNSTR_CONTACT_FRICTIONLESS: "contact_frictionless",
               CNSTR_CONTACT_PYRAMIDAL: "contact_pyramidal", CNSTR_CONTACT_ELLIPTIC: "contact_elliptic"}
# mjtConstraintState: which piece of its cost a row is on (efc_state)
CNSTRSTATE_SATISFIED, CNSTRSTATE_QUADRATIC, CNSTRSTATE_LINEARNEG, CNSTRSTATE_LINEARPOS, CNSTRSTATE_CONE = range(5)

# mjtWrap: the elements of a tendon's path
WRAP_NONE, WRAP_JOINT, WRAP_PULLEY, WRAP_SITE, WRAP_SPHERE, WRAP_CYLINDER = range(6)
WRAP_NAMES = {WRAP_NONE: "none", WRAP_JOINT: "joint", WRAP_PULLEY: "pulley", WRAP_SITE: "site",
              WRAP_SPHERE: "sphere", WRAP_CYLINDER: "cylinder"}

# mjtStage: the pipeline stage after which a sensor can be computed
STAGE_NONE, STAGE_POS, STAGE_VEL, STAGE_ACC = range(4)
# mjtDataType: what a sensor's numbers are
DATATYPE_REAL, DATATYPE_POSITIVE, DATATYPE_AXIS, DATATYPE_QUATERNION = range(4)


class SensorKind(NamedTuple):
    """One row of :data:`SENSORS`: MuJoCo's ``mjtSensor`` number, the length of its output,
    its data type, the stage it needs, and the kind of object it reads (its MJCF
    attribute names that object; ``"frame"``: ``objtype``/``objname``)."""
    type: int
    dim: int
    datatype: int
    needstage: int
    obj: str


_R, _P, _A, _Q = DATATYPE_REAL, DATATYPE_POSITIVE, DATATYPE_AXIS, DATATYPE_QUATERNION
_POS, _VEL, _ACC = STAGE_POS, STAGE_VEL, STAGE_ACC
#: every sensor the compiler reads, by its MJCF element name
SENSORS = {
    "touch": SensorKind(0, 1, _P, _ACC, "site"),
    "accelerometer": SensorKind(1, 3, _R, _ACC, "site"),
    "velocimeter": SensorKind(2, 3, _R, _VEL, "site"),
    "gyro": SensorKind(3, 3, _R, _VEL, "site"),
    "force": SensorKind(4, 3, _R, _ACC, "site"),
    "torque": SensorKind(5, 3, _R, _ACC, "site"),
    "magnetometer": SensorKind(6, 3, _R, _POS, "site"),
    "rangefinder": SensorKind(7, 1, _R, _POS, "site"),       # dim: by its data and rays (sensor_dim)
    "camprojection": SensorKind(8, 2, _R, _POS, "site"),
    "jointpos": SensorKind(9, 1, _R, _POS, "joint"),
    "jointvel": SensorKind(10, 1, _R, _VEL, "joint"),
    "tendonpos": SensorKind(11, 1, _R, _POS, "tendon"),
    "tendonvel": SensorKind(12, 1, _R, _VEL, "tendon"),
    "actuatorpos": SensorKind(13, 1, _R, _POS, "actuator"),
    "actuatorvel": SensorKind(14, 1, _R, _VEL, "actuator"),
    "actuatorfrc": SensorKind(15, 1, _R, _ACC, "actuator"),
    "jointactuatorfrc": SensorKind(16, 1, _R, _ACC, "joint"),
    "tendonactuatorfrc": SensorKind(17, 1, _R, _ACC, "tendon"),
    "ballquat": SensorKind(18, 4, _Q, _POS, "joint"),
    "ballangvel": SensorKind(19, 3, _R, _VEL, "joint"),
    "jointlimitpos": SensorKind(20, 1, _R, _POS, "joint"),
    "jointlimitvel": SensorKind(21, 1, _R, _VEL, "joint"),
    "jointlimitfrc": SensorKind(22, 1, _R, _ACC, "joint"),
    "tendonlimitpos": SensorKind(23, 1, _R, _POS, "tendon"),
    "tendonlimitvel": SensorKind(24, 1, _R, _VEL, "tendon"),
    "tendonlimitfrc": SensorKind(25, 1, _R, _ACC, "tendon"),
    "framepos": SensorKind(26, 3, _R, _POS, "frame"),
    "framequat": SensorKind(27, 4, _Q, _POS, "frame"),
    "framexaxis": SensorKind(28, 3, _A, _POS, "frame"),
    "frameyaxis": SensorKind(29, 3, _A, _POS, "frame"),
    "framezaxis": SensorKind(30, 3, _A, _POS, "frame"),
    "framelinvel": SensorKind(31, 3, _R, _VEL, "frame"),
    "frameangvel": SensorKind(32, 3, _R, _VEL, "frame"),
    "framelinacc": SensorKind(33, 3, _R, _ACC, "frame"),
    "frameangacc": SensorKind(34, 3, _R, _ACC, "frame"),
    "subtreecom": SensorKind(35, 3, _R, _POS, "body"),
    "subtreelinvel": SensorKind(36, 3, _R, _VEL, "body"),
    "subtreeangmom": SensorKind(37, 3, _R, _VEL, "body"),
    "insidesite": SensorKind(38, 1, _P, _POS, "frame"),
    "distance": SensorKind(39, 1, _R, _POS, "geompair"),
    "normal": SensorKind(40, 3, _A, _POS, "geompair"),
    "fromto": SensorKind(41, 6, _R, _POS, "geompair"),
    "contact": SensorKind(42, 1, _R, _POS, "contact"),       # dim, stage: by its data (sensor_dim)
    "e_potential": SensorKind(43, 1, _R, _POS, ""),
    "e_kinetic": SensorKind(44, 1, _R, _POS, ""),
    "clock": SensorKind(45, 1, _R, _POS, ""),
}
SENSOR_NAMES = {s.type: name for name, s in SENSORS.items()}

#: sensors MuJoCo has that :mod:`rbdl_edu.simulation.sensors` does not compute, with the reason; the
#: compiler refuses them (an MJCF sensor type not in :data:`SENSORS` is refused as well)
SENSORS_NOT_SIMULATED = {}

#: ``sensor_intprm[0]`` of a contact sensor: bits of the fields it reports (``mjtConData``), and
#: each field's length; ``sensor_intprm[1]`` its reduction, ``[2]`` its number of slots
CONDATA = {"found": 1, "force": 3, "torque": 3, "dist": 1, "pos": 3, "normal": 3, "tangent": 3,
           "linvel": 3, "angvel": 3}
CONTACT_REDUCE = ("none", "mindist", "maxforce", "netforce")
#: ``sensor_intprm[0]`` of a rangefinder: bits of the fields it reports (``mjtRayData``), lengths
RAYDATA = {"dist": 1, "dir": 3, "origin": 3, "point": 3, "normal": 3, "depth": 1}


def sensor_dim(name, intprm, nray=1):
    """The number of a sensor's outputs: a contact sensor's ``num`` slots of its data fields,
    a rangefinder's data fields for each of its ``nray`` rays (a camera's pixels), else
    :data:`SENSORS`' ``dim``."""
    fields = CONDATA if name == "contact" else RAYDATA if name == "rangefinder" else None
    if fields is None:
        return SENSORS[name].dim
    size = sum(n for k, (field, n) in enumerate(fields.items()) if int(intprm[0]) >> k & 1)
    return size * (int(intprm[2]) if name == "contact" else nray)


def sensor_stage(name, intprm):
    """The stage a sensor needs: for a contact sensor, acceleration if it reports forces or
    reduces by them, velocity if it reports velocities, else position (as MuJoCo)."""
    if name != "contact":
        return SENSORS[name].needstage
    bits, reduce = int(intprm[0]), int(intprm[1])
    if bits & 0b110 or reduce in (2, 3):
        return STAGE_ACC
    return STAGE_VEL if bits & 0b110000000 else STAGE_POS

# MuJoCo's numerical constants (mjmodel.h), one owner for the whole engine
MINVAL = 1e-15    #: mjMINVAL: a smaller mass, pivot, norm or time constant counts as zero
MAXVAL = 1e10     #: mjMAXVAL: a larger position, velocity, acceleration or control has diverged
MINMU = 1e-5      #: mjMINMU: the smallest friction coefficient of a contact
MJEPS = 1e-14     #: mjEPS: a geom lighter than this adds no mass
MINAWAKE = 10     #: mjMINAWAKE: steps a tree must be at rest before it may sleep
AWAKE = -(1 + MINAWAKE)   #: a moving tree's ``tree_asleep``: it counts up to -1 at rest, then may sleep

# sleep policies of a tree (mjtSleepPolicy): MJCF's body sleep="auto|never|allowed|init"; the
# compiler turns auto into AUTO_NEVER (an actuated tree) or AUTO_ALLOWED
SLEEP_AUTO, SLEEP_AUTO_NEVER, SLEEP_AUTO_ALLOWED, SLEEP_NEVER, SLEEP_ALLOWED, SLEEP_INIT = range(6)
SLEEP_NAMES = {SLEEP_AUTO: "auto", SLEEP_NEVER: "never", SLEEP_ALLOWED: "allowed", SLEEP_INIT: "init"}
