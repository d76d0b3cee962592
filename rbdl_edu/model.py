"""The frozen ``Model`` (what does not change while simulating) and the ``Data`` (what does).

Field names follow MuJoCo's ``mjModel`` / ``mjData`` (``object_attribute``), so a reader
who knows MuJoCo can find everything, and a test can compare field by field.
Body 0 is the world; bodies come in MJCF document order, so ``body_parentid[i] < i``;
the world's parent is ``-1``. Numeric models hold float arrays; a symbolic model
(``symbolic=True`` in the builders) holds ``dtype=object`` arrays of SymPy symbols in
its inertial and geometric fields.

Build a model with :class:`rbdl_edu.spec.ModelSpec` (the builders and the MJCF/URDF
compiler do), not by hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

# joint types, numbered as MuJoCo's mjtJoint
FREE, BALL, SLIDE, HINGE = 0, 1, 2, 3
JOINT_NQ = {FREE: 7, BALL: 4, SLIDE: 1, HINGE: 1}
JOINT_NV = {FREE: 6, BALL: 3, SLIDE: 1, HINGE: 1}
JOINT_NAMES = {FREE: "free", BALL: "ball", SLIDE: "slide", HINGE: "hinge"}

# geom types, numbered as MuJoCo's mjtGeom
PLANE, HFIELD, SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH = range(8)
GEOM_NAMES = {PLANE: "plane", HFIELD: "hfield", SPHERE: "sphere", CAPSULE: "capsule",
              ELLIPSOID: "ellipsoid", CYLINDER: "cylinder", BOX: "box", MESH: "mesh"}


@dataclass(frozen=True)
class Option:
    """Simulation options (MuJoCo's ``mjOption``): ``timestep``, ``gravity (3,)``, and the
    solver and integrator settings read from ``<option>``."""
    timestep: float = 0.002
    gravity: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, -9.81]))
    integrator: str = "Euler"
    cone: str = "pyramidal"
    impratio: float = 1.0
    solver: str = "Newton"
    iterations: int = 100
    tolerance: float = 1e-8
    ls_iterations: int = 50
    noslip_iterations: int = 0
    wind: np.ndarray = field(default_factory=lambda: np.zeros(3))
    density: float = 0.0
    viscosity: float = 0.0
    o_margin: float = 0.0
    disableflags: frozenset = frozenset()
    enableflags: frozenset = frozenset()


def _arr(*shape, dtype=float):
    return field(default_factory=lambda: np.zeros(shape, dtype=dtype))


@dataclass(frozen=True, eq=False)
class Model:
    """A compiled kinematic tree; every array's shape is given beside it.

    Sizes: ``nq`` (positions), ``nv`` (velocities = DOFs), ``nbody`` (with the world),
    ``njnt``, ``ngeom``, ``nsite``, ``nu`` (actuators).
    """
    nq: int
    nv: int
    nbody: int
    njnt: int
    opt: Option
    # bodies -------------------------------------------------------------------
    body_names: tuple                  # (nbody,)  "world" first
    body_parentid: np.ndarray          # (nbody,)  -1 for the world
    body_rootid: np.ndarray            # (nbody,)  top-level ancestor (child of the world)
    body_weldid: np.ndarray            # (nbody,)  nearest ancestor-or-self with a joint
    body_jntnum: np.ndarray            # (nbody,)
    body_jntadr: np.ndarray            # (nbody,)  first joint, -1 if none
    body_dofnum: np.ndarray            # (nbody,)
    body_dofadr: np.ndarray            # (nbody,)  first dof, -1 if none
    body_pos: np.ndarray               # (nbody, 3)  position in the parent frame
    body_quat: np.ndarray              # (nbody, 4)  orientation in the parent frame
    body_ipos: np.ndarray              # (nbody, 3)  center of mass in the body frame
    body_iquat: np.ndarray             # (nbody, 4)  principal axes in the body frame
    body_mass: np.ndarray              # (nbody,)
    body_inertia: np.ndarray           # (nbody, 3)  principal moments about the COM
    # joints -------------------------------------------------------------------
    jnt_names: tuple                   # (njnt,)
    jnt_type: np.ndarray               # (njnt,)  FREE, BALL, SLIDE, HINGE
    jnt_bodyid: np.ndarray             # (njnt,)
    jnt_qposadr: np.ndarray            # (njnt,)
    jnt_dofadr: np.ndarray             # (njnt,)
    jnt_axis: np.ndarray               # (njnt, 3)  unit axis in the body frame
    jnt_pos: np.ndarray                # (njnt, 3)  anchor in the body frame
    jnt_range: np.ndarray              # (njnt, 2)
    jnt_limited: np.ndarray            # (njnt,)  bool
    jnt_stiffness: np.ndarray          # (njnt,)
    # dofs ---------------------------------------------------------------------
    dof_bodyid: np.ndarray             # (nv,)
    dof_jntid: np.ndarray              # (nv,)
    dof_parentid: np.ndarray           # (nv,)  previous dof on the path to the root, -1 if none
    dof_armature: np.ndarray           # (nv,)  added to M's diagonal
    dof_damping: np.ndarray            # (nv,)
    dof_frictionloss: np.ndarray       # (nv,)
    # positions ----------------------------------------------------------------
    qpos0: np.ndarray                  # (nq,)  reference configuration (joint ``ref``)
    qpos_spring: np.ndarray            # (nq,)  spring rest configuration (``springref``)
    # geoms (collision and drawing) --------------------------------------------
    ngeom: int = 0
    geom_names: tuple = ()             # (ngeom,)
    geom_type: np.ndarray = _arr(0, dtype=int)        # (ngeom,)
    geom_bodyid: np.ndarray = _arr(0, dtype=int)      # (ngeom,)
    geom_size: np.ndarray = _arr(0, 3)                # (ngeom, 3)
    geom_pos: np.ndarray = _arr(0, 3)                 # (ngeom, 3)  in the body frame
    geom_quat: np.ndarray = _arr(0, 4)                # (ngeom, 4)  in the body frame
    geom_rgba: np.ndarray = _arr(0, 4)                # (ngeom, 4)
    geom_contype: np.ndarray = _arr(0, dtype=int)     # (ngeom,)
    geom_conaffinity: np.ndarray = _arr(0, dtype=int)  # (ngeom,)
    geom_condim: np.ndarray = _arr(0, dtype=int)      # (ngeom,)
    geom_priority: np.ndarray = _arr(0, dtype=int)    # (ngeom,)
    geom_friction: np.ndarray = _arr(0, 3)            # (ngeom, 3)  slide, spin, roll
    geom_solmix: np.ndarray = _arr(0)                 # (ngeom,)
    geom_solref: np.ndarray = _arr(0, 2)              # (ngeom, 2)
    geom_solimp: np.ndarray = _arr(0, 5)              # (ngeom, 5)
    geom_margin: np.ndarray = _arr(0)                 # (ngeom,)
    geom_gap: np.ndarray = _arr(0)                    # (ngeom,)
    geom_dataid: np.ndarray = _arr(0, dtype=int)      # (ngeom,)  mesh id, -1 if none
    # sites --------------------------------------------------------------------
    nsite: int = 0
    site_names: tuple = ()
    site_bodyid: np.ndarray = _arr(0, dtype=int)      # (nsite,)
    site_pos: np.ndarray = _arr(0, 3)                 # (nsite, 3)
    site_quat: np.ndarray = _arr(0, 4)                # (nsite, 4)
    site_size: np.ndarray = _arr(0, 3)                # (nsite, 3)
    # everything the compiler keeps for later chapters (meshes, actuators, sensors,
    # contact pairs/excludes, equality, tendons, keyframes), as read from the file
    extras: dict = field(default_factory=dict)

    @property
    def is_symbolic(self) -> bool:
        """True if any inertial or geometric field holds SymPy symbols."""
        return any(getattr(self, f).dtype == object for f in
                   ("body_mass", "body_pos", "body_ipos", "body_inertia", "jnt_pos", "jnt_axis"))

    def __repr__(self):
        return (f"Model(nbody={self.nbody}, njnt={self.njnt}, nq={self.nq}, nv={self.nv}, "
                f"ngeom={self.ngeom}, joints={list(self.jnt_names)})")

    def replace(self, **changes) -> "Model":
        """A copy with some fields changed (the model itself is frozen)."""
        kw = {f.name: getattr(self, f.name) for f in fields(self)}
        kw.update(changes)
        return Model(**kw)


class Data:
    """The state and the results of a model (MuJoCo's ``mjData``).

    State: ``time``, ``qpos (nq,)``, ``qvel (nv,)``, ``act``, ``ctrl (nu,)``,
    ``qfrc_applied (nv,)``, ``xfrc_applied (nbody, 6)`` (``[force, torque]`` in world
    coordinates at each body's center of mass). Results filled by the pipeline:
    ``xpos (nbody, 3)``, ``xquat (nbody, 4)``, ``xmat (nbody, 3, 3)``, ``xipos``,
    ``ximat``, ``qacc (nv,)``, ``qfrc_bias (nv,)``, ``contact`` (list).

    >>> from rbdl_edu.models import pendulum
    >>> Data(pendulum()).qpos
    array([0.])
    """

    def __init__(self, model: Model):
        self.model = model
        nb = model.nbody
        self.time = 0.0
        self.qpos = np.array(model.qpos0, dtype=float)
        self.qvel = np.zeros(model.nv)
        self.qacc = np.zeros(model.nv)
        self.ctrl = np.zeros(model.extras.get("nu", 0))
        self.act = np.zeros(0)
        self.qfrc_applied = np.zeros(model.nv)
        self.xfrc_applied = np.zeros((nb, 6))
        self.qfrc_bias = np.zeros(model.nv)
        self.xpos = np.zeros((nb, 3))
        self.xquat = np.tile([1.0, 0, 0, 0], (nb, 1))
        self.xmat = np.tile(np.eye(3), (nb, 1, 1))
        self.xipos = np.zeros((nb, 3))
        self.ximat = np.tile(np.eye(3), (nb, 1, 1))
        self.contact = []

    def __repr__(self):
        return f"Data(time={self.time}, qpos={self.qpos}, qvel={self.qvel})"
