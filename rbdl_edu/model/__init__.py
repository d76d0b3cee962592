"""The model and its data (MuJoCo's ``mjModel``, ``mjData`` and ``mjSpec``).

=====================  ==========================================================================
:mod:`.enums`          MuJoCo's integer kinds (joint, geom, actuator, sensor, constraint types)
:mod:`.defaults`       the default values of every attribute that MJCF may leave out
:mod:`.model`          :class:`Model`, frozen, every field with MuJoCo's name and shape
:mod:`.data`           :class:`Data`, the state and everything the pipeline computes from it
:mod:`.spec`           :class:`ModelSpec`, a model under construction (builders, MJCF, URDF)
:mod:`.compiler`       a spec's addresses, trees and sizes: what makes it a :class:`Model`
=====================  ==========================================================================
"""
from rbdl_edu.model.data import Data
from rbdl_edu.model.model import DISABLE_FLAGS, ENABLE_FLAGS, SIZES, Model, Option
from rbdl_edu.model.spec import ModelSpec

__all__ = ["Model", "Option", "Data", "ModelSpec", "SIZES", "DISABLE_FLAGS", "ENABLE_FLAGS"]
