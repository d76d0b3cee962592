"""rbdl_edu: rigid-body dynamics you can read, run and check.

>>> import rbdl_edu as rbd
>>> model = rbd.models.double_pendulum()
>>> M = rbd.crba(model, [0.1, 0.2])
>>> M.shape
(2, 2)
"""
from rbdl_edu import collision, io, models
from rbdl_edu.aba import aba
from rbdl_edu.configuration import integrate_pos, random_qpos
from rbdl_edu.crba import crba
from rbdl_edu.io import ModelError
from rbdl_edu.kinematics import (body_jacobian, body_velocities, center_of_mass, com_positions,
                                 forward_kinematics, kinetic_energy, momentum, point_jacobian,
                                 potential_energy)
from rbdl_edu.loading import load_mjcf, load_model, load_urdf
from rbdl_edu.model.data import Data
from rbdl_edu.model.model import Model
from rbdl_edu.model.option import Option
from rbdl_edu.model.spec import ModelSpec
from rbdl_edu.rnea import bias, rnea
from rbdl_edu.setconst import set_const
from rbdl_edu.simulation.forward import forward
from rbdl_edu.simulation.inverse import inverse
from rbdl_edu.simulation.rollout import Trajectory, rollout
from rbdl_edu.simulation.step import reset, step

__all__ = ["Model", "Data", "Option", "ModelSpec", "models", "rnea", "bias", "crba", "aba",
           "integrate_pos", "random_qpos", "forward_kinematics", "com_positions", "center_of_mass",
           "body_velocities", "body_jacobian", "point_jacobian", "kinetic_energy",
           "potential_energy", "momentum", "load_model", "load_mjcf", "load_urdf", "set_const", "ModelError",
           "collision", "io", "forward", "step", "reset", "inverse", "rollout", "Trajectory"]
