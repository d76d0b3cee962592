"""The model and its data (MuJoCo's ``mjModel``, ``mjData`` and ``mjSpec``).

=====================  ==========================================================================
:mod:`.enums`          MuJoCo's integer kinds (joint, geom, actuator, sensor, constraint types)
:mod:`.defaults`       the default values of every attribute that MJCF may leave out
:mod:`.option`         :class:`Option`, the simulation options, and the flags they switch
:mod:`.model`          :class:`Model`, frozen, every field with MuJoCo's name and shape
:mod:`.data`           :class:`Data`, the state and everything the pipeline computes from it
:mod:`.spec`           :class:`ModelSpec`, a model under construction (builders, MJCF, URDF)
:mod:`.semiaxes`       the ellipsoid that stands for a geom in the fluid model
:mod:`.compiler`       a spec's addresses, trees and sizes: what makes it a :class:`Model`
:mod:`.editing`        a :class:`Model` back into a spec (to edit it); a floating base
:mod:`.printing`       a :class:`Model` as text, object by object (MuJoCo's ``mj_printModel``)
=====================  ==========================================================================
"""
from rbdl_edu.model.data import Data
from rbdl_edu.model.model import SIZES, Model
from rbdl_edu.model.option import DISABLE_FLAGS, ENABLE_FLAGS, Option
from rbdl_edu.model.printing import model_text, object_text, print_model
from rbdl_edu.model.spec import ModelSpec

__all__ = ["Model", "Option", "Data", "ModelSpec", "SIZES", "DISABLE_FLAGS", "ENABLE_FLAGS", "print_model",
           "model_text", "object_text"]
