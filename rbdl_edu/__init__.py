"""rbdl_edu: rigid-body dynamics you can read, run and check.

>>> import rbdl_edu as rbd
>>> model = rbd.models.double_pendulum()
>>> M = rbd.crba(model, [0.1, 0.2])
>>> M.shape
(2, 2)
"""
from . import collision, io, models
from .aba import aba
from .crba import crba
from .data import Data
from .forward import forward, inverse, reset, step
from .integrate import integrate_pos, random_qpos
from .io import ModelError
from .kinematics import (body_jacobian, body_velocities, center_of_mass, com_positions,
                         forward_kinematics, kinetic_energy, momentum, point_jacobian,
                         potential_energy)
from .loading import load_mjcf, load_model, load_urdf
from .model import Model, Option
from .rnea import bias, rnea
from .rollout import Trajectory, rollout
from .spec import ModelSpec

__all__ = ["Model", "Data", "Option", "ModelSpec", "models", "rnea", "bias", "crba", "aba",
           "integrate_pos", "random_qpos", "forward_kinematics", "com_positions", "center_of_mass",
           "body_velocities", "body_jacobian", "point_jacobian", "kinetic_energy",
           "potential_energy", "momentum", "load_model", "load_mjcf", "load_urdf", "ModelError",
           "collision", "io", "forward", "step", "reset", "inverse", "rollout", "Trajectory"]
