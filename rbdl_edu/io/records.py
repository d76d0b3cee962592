"""Typed records for what a model file holds beyond the kinematic tree (``model.extras``).

The compiler keeps these faithfully for the chapters that simulate them; the dynamics
algorithms (RNEA, CRBA, ABA) do not read them. Field names are MuJoCo's without the
object prefix: ``Actuator.gear`` is ``actuator_gear[i]``. Every reference to another
object is by id (``trnid``, ``geom1``, ``body1``, ...) with ``-1`` for none, exactly as in
``mjModel``.

``model.extras`` keys written by the MJCF compiler:

============== =================================================================
``nu``          number of actuators (``Data.ctrl`` has this length)
``actuators``   tuple of :class:`Actuator`
``sensors``     tuple of :class:`Sensor`
``pairs``       tuple of :class:`ContactPair` (``<contact><pair>``)
``excludes``    tuple of :class:`ContactExclude` (``<contact><exclude>``)
``equalities``  tuple of :class:`Equality`
``tendons``     tuple of :class:`FixedTendon` and :class:`SpatialTendon` (document order)
``keyframes``   tuple of :class:`Keyframe`
``meshes``      tuple of :class:`Mesh` (``geom_dataid`` indexes it)
``na``          number of actuators with their own state (``dyntype`` not ``"none"``)
``body_gravcomp`` ``(nbody,)`` gravity compensation factor of each body
``body_mocap``  ``(nbody,)`` bool: the body is a mocap body
``geom_group``  ``(ngeom,)`` each geom's ``group`` (MuJoCo models often put visual geoms in
                group 2 and collision geoms in group 3)
``geom_material_rgba`` ``(ngeom, 4)`` the color of each geom's material (NaN if none)
``model_name``  the ``<mujoco model=...>`` name
``option_more`` ``<option>`` values ``Option`` has no field for (``magnetic``, ``jacobian``, ...)
============== =================================================================

>>> Actuator(name="a", trntype="joint", trnid=(0, -1)).gear
(1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Actuator:
    """One actuator: ``force = gain * ctrl + bias`` (MuJoCo's general actuator).

    ``gainprm``/``biasprm`` (10,) and ``dynprm`` (10,) as MuJoCo: a ``position`` actuator
    has ``gaintype="fixed"``, ``gainprm[0] = kp``, ``biastype="affine"``,
    ``biasprm[:3] = (0, -kp, -kv)``. ``trntype`` is ``"joint"``, ``"jointinparent"``,
    ``"tendon"``, ``"site"``, ``"body"`` or ``"slidercrank"``; ``trnid`` the target's id
    (and the ref site; for a slider-crank the crank site and the slider site).
    """
    name: str
    trntype: str
    trnid: tuple
    kind: str = "general"                 # the element that declared it: motor, position, ...
    gear: tuple = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    dyntype: str = "none"
    gaintype: str = "fixed"
    biastype: str = "none"
    dynprm: tuple = (1.0,) + (0.0,) * 9
    gainprm: tuple = (1.0,) + (0.0,) * 9
    biasprm: tuple = (0.0,) * 10
    ctrllimited: bool = False
    ctrlrange: tuple = (0.0, 0.0)
    forcelimited: bool = False
    forcerange: tuple = (0.0, 0.0)
    actlimited: bool = False
    actrange: tuple = (0.0, 0.0)
    group: int = 0
    cranklength: float = 0.0              # slider-crank: the rod's length


@dataclass(frozen=True)
class Sensor:
    """One sensor: its ``type`` (the MJCF element name, e.g. ``"jointpos"``), the object it
    reads (``objtype`` and ``objid``) and its ``noise`` and ``cutoff``."""
    name: str
    type: str
    objtype: str = ""
    objid: int = -1
    reftype: str = ""
    refid: int = -1
    noise: float = 0.0
    cutoff: float = 0.0


@dataclass(frozen=True)
class ContactPair:
    """An explicit contact pair between geoms ``geom1``, ``geom2`` with its own parameters
    (``friction`` has 5 entries: slide, slide, spin, roll, roll)."""
    name: str
    geom1: int
    geom2: int
    condim: int
    friction: tuple
    solref: tuple
    solreffriction: tuple
    solimp: tuple
    margin: float
    gap: float


@dataclass(frozen=True)
class ContactExclude:
    """No contacts between any geom of ``body1`` and any geom of ``body2``."""
    name: str
    body1: int
    body2: int


@dataclass(frozen=True)
class Equality:
    """An equality constraint: ``type`` is ``"connect"``, ``"weld"``, ``"joint"`` or
    ``"tendon"``; ``obj1``/``obj2`` are body, joint or tendon ids (``-1``: the world or
    none); ``data`` holds MuJoCo's ``eq_data`` (anchor, relpose, torquescale or polycoef)."""
    name: str
    type: str
    obj1: int
    obj2: int
    active: bool = True
    solref: tuple = (0.02, 1.0)
    solimp: tuple = (0.9, 0.95, 0.001, 0.5, 2.0)
    data: tuple = ()
    objtype: str = "body"                 # "body" or "site" for connect/weld


@dataclass(frozen=True)
class FixedTendon:
    """A fixed tendon: length ``sum_k coef[k] * q[jnt[k]]`` (the joints' qpos)."""
    name: str
    joints: tuple
    coefs: tuple
    limited: bool = False
    range: tuple = (0.0, 0.0)
    stiffness: float = 0.0
    damping: float = 0.0
    frictionloss: float = 0.0
    armature: float = 0.0
    springlength: tuple = (-1.0, -1.0)
    margin: float = 0.0


@dataclass(frozen=True)
class SpatialTendon:
    """A spatial tendon: a string through sites, wrapping around sphere/cylinder geoms,
    split by pulleys. ``path`` holds MuJoCo's ``wrap_type``/``wrap_objid``/``wrap_prm`` as
    ``(type, objid, prm)``: ``("site", site, 0)``, ``("sphere"|"cylinder", geom, sidesite or
    -1)``, ``("pulley", -1, divisor)``. The length is computed by the chapters that use it."""
    name: str
    path: tuple
    limited: bool = False
    range: tuple = (0.0, 0.0)
    stiffness: float = 0.0
    damping: float = 0.0
    frictionloss: float = 0.0
    armature: float = 0.0
    springlength: tuple = (-1.0, -1.0)
    margin: float = 0.0


@dataclass(frozen=True)
class Keyframe:
    """A named state (``<key>``): ``qpos (nq,)``, ``qvel (nv,)``, ``act``, ``ctrl (nu,)``,
    ``mpos``/``mquat`` (mocap bodies)."""
    name: str
    time: float
    qpos: np.ndarray
    qvel: np.ndarray
    act: np.ndarray
    ctrl: np.ndarray
    mpos: np.ndarray = field(default_factory=lambda: np.zeros(0))
    mquat: np.ndarray = field(default_factory=lambda: np.zeros(0))


@dataclass(frozen=True)
class Mesh:
    """A triangle mesh in its own principal frame (as MuJoCo stores it): ``vert (n, 3)``,
    ``face (m, 3)``; ``pos``/``quat`` place that frame in the file's mesh frame;
    ``volume`` (``0`` if the mesh has no mass)."""
    name: str
    file: str
    vert: np.ndarray
    face: np.ndarray
    pos: np.ndarray
    quat: np.ndarray
    volume: float
    inertia: np.ndarray                   # (3,) principal moments per unit density
