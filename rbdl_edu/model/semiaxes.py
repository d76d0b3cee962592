"""The ellipsoid that stands for a geom in MuJoCo's ellipsoid fluid model: its semi-axes
(MuJoCo's ``mju_geomSemiAxes``). Two floors use it: the compiler's added-mass constants
(:mod:`rbdl_edu.io.added_mass`, stored in ``geom_fluid[6:12]``) and the fluid's forces
and their derivatives (:mod:`rbdl_edu.smooth.fluid`,
:mod:`rbdl_edu.simulation.fluid_derivatives`), so it lives with the model, below both.
"""
from __future__ import annotations

import numpy as np


def geom_semiaxes(geom_type, size):
    """The semi-axes ``(3,)`` of the ellipsoid that stands for a geom (MuJoCo's
    ``mju_geomSemiAxes``): a sphere's radius thrice; a capsule's radius, radius, half-length
    plus radius; a cylinder's radius, radius, half-length; otherwise ``size`` itself.

    >>> geom_semiaxes("capsule", [0.1, 0.5, 0.0])
    array([0.1, 0.1, 0.6])
    """
    r = size[0]
    return np.array({"sphere": (r, r, r), "capsule": (r, r, size[1] + r),
                     "cylinder": (r, r, size[1])}.get(geom_type, tuple(size[:3])), dtype=float)
