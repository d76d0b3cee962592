"""The robot-mouse lab (book, chapter 11): a quadruped mouse, its trot, its sensors, and a
``gymnasium`` environment for reinforcement learning.

=====================================  ==========================================================
:mod:`~rbdl_edu.lab.legs`              a leg's forward and inverse kinematics (law of cosines),
                                       its reachable workspace
:mod:`~rbdl_edu.lab.mouse`             oval foot paths, the trot's phases, :class:`TrotController`
:mod:`~rbdl_edu.lab.log`               :class:`SensorLog`: sensors over time as arrays (copies),
                                       CSV and NPZ files that load back exactly
:mod:`~rbdl_edu.lab.engine`            the simulator interface the lab is written against, its
                                       two engines (``"rbdl_edu"``, ``"mujoco"``), the check for
                                       contacts, :func:`run`
:mod:`~rbdl_edu.lab.mujoco_engine`     MuJoCo 4.0 behind that interface (needs ``mujoco``)
:mod:`~rbdl_edu.lab.env`               :class:`MouseEnv`, a ``gymnasium.Env`` (needs ``gymnasium``;
                                       ``from rbdl_edu.lab import MouseEnv`` imports it on first use)
:mod:`~rbdl_edu.lab.registration`      ``"rbdl_edu/Mouse-v0"`` in gymnasium's registry (done by
                                       ``import rbdl_edu.lab`` when gymnasium is installed)
:mod:`~rbdl_edu.lab.search`            CMA-ES over the trot's parameters, obstacle trials (``cma``)
:mod:`~rbdl_edu.lab.sweep`             the search and its sweeps as Ray tasks (``ray``)
:mod:`~rbdl_edu.lab.ppo`               PPO from skrl with its JAX backend (``skrl``, ``flax``)
=====================================  ==========================================================

In a fresh interpreter ``gymnasium.make("rbdl_edu.lab:rbdl_edu/Mouse-v0")`` imports this package
(and so registers the mouse) before making it; after ``import rbdl_edu.lab``,
``gymnasium.make("rbdl_edu/Mouse-v0")`` is enough.

The model and its scenes are MJCF files in ``models/mouse/`` (:data:`SCENES`); the undulating
terrain is a height field.

>>> from rbdl_edu.lab import SCENES, scene_path
>>> sorted(SCENES)
['arc', 'boards', 'capsules', 'ellipsoids', 'flat', 'slope', 'terrain']
>>> scene_path("flat").name
'scene_flat.xml'
"""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import NamedTuple

from rbdl_edu.lab.engine import ENGINES, get_engine, require_contacts, run, simulates_contacts
from rbdl_edu.lab.legs import LEG, Leg, leg_fk, leg_ik, workspace
from rbdl_edu.lab.log import SensorLog
from rbdl_edu.lab.mouse import LEGS, Gait, Oval, TrotController, foot_target
from rbdl_edu.lab.registration import ENV_ID, register_envs

#: where the mouse's MJCF files are
MODEL_DIR = Path(__file__).resolve().parents[2] / "models" / "mouse"
#: scene name -> file in MODEL_DIR (each includes ``mouse.xml``)
SCENES = {
    "flat": "scene_flat.xml",               # flat ground
    "boards": "scene_boards.xml",           # planks 10, 15, 20 mm high across the path
    "slope": "scene_slope.xml",             # a 10 degree ramp up to a plateau
    "terrain": "scene_terrain.xml",         # undulating ground: a height field
    "arc": "scene_arc.xml",                 # a circular hump (a sunk cylinder)
    "ellipsoids": "scene_ellipsoids.xml",   # flat ellipsoid humps
    "capsules": "scene_capsules.xml",       # round bars (capsules) across the path
}



class Obstacle(NamedTuple):
    """One obstacle of a scene: the scene, the geom, where it begins and ends along x (m)."""
    scene: str
    geom: str
    near: float
    far: float
    what: str


#: the tallest obstacle of each scene with one (``tests/test_lab_engines.py`` checks the
#: numbers against the scene files); ``MouseEnv(obstacle=...)`` starts the mouse before one
OBSTACLES = {
    "plank": Obstacle("boards", "board3", 1.59, 1.61, "plank 20 mm high"),
    "bar": Obstacle("capsules", "bar3", 1.034, 1.066, "round bar 16 mm high"),
    "hump": Obstacle("ellipsoids", "hump3", 1.00, 1.10, "flat hump 14 mm high"),
    "arc": Obstacle("arc", "arc", 0.383, 0.617, "circular hump 40 mm high"),
    "ramp": Obstacle("slope", "ramp", 0.302, 0.40, "foot of the 10 degree ramp"),
    "waves": Obstacle("terrain", "terrain", 0.20, 0.60, "two waves, up to 12.5 mm"),
}


def scene_path(name):
    """The file of scene ``name`` (a key of :data:`SCENES`), or of the mouse alone (``"mouse"``)."""
    if name == "mouse":
        return MODEL_DIR / "mouse.xml"
    if name not in SCENES:
        raise KeyError(f"no scene {name!r}; the scenes are {sorted(SCENES)} (and 'mouse')")
    return MODEL_DIR / SCENES[name]


if importlib.util.find_spec("gymnasium") is not None:     # an optional dependency (the lab extra)
    register_envs()


def __getattr__(name):
    """``MouseEnv`` on first use: :mod:`rbdl_edu.lab.env` needs ``gymnasium``, which the rest
    of the lab does not. (It is not in ``__all__``, so that ``from rbdl_edu.lab import *``
    works without gymnasium.)"""
    if name == "MouseEnv":
        from rbdl_edu.lab.env import MouseEnv
        return MouseEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ENV_ID", "register_envs", "SCENES", "OBSTACLES", "Obstacle", "MODEL_DIR", "scene_path", "Leg", "LEG", "leg_fk", "leg_ik",
           "workspace", "LEGS", "Oval", "Gait", "foot_target", "TrotController", "SensorLog",
           "ENGINES", "get_engine", "simulates_contacts", "require_contacts", "run"]
