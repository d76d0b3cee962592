"""Loading a model file, as MuJoCo's ``mj_loadXML`` does: compile it (:mod:`rbdl_edu.io`,
which imports no algorithm), then compute the constants that need the dynamics at
``qpos0`` (:func:`rbdl_edu.setconst.set_const`).

>>> model = load_model('<mujoco><worldbody><body><joint/><geom size="0.1"/></body></worldbody></mujoco>')
>>> model.nv, model.dof_M0.round(6)
(1, array([0.016755]))
"""
from __future__ import annotations

from . import io
from .setconst import set_const


def load_model(path_or_xml_text, **kwargs):
    """Load an MJCF (``.xml``) or URDF (``.urdf``) model from a file path or XML text; see
    :func:`rbdl_edu.io.load_model` (``**kwargs`` go to :func:`rbdl_edu.io.load_urdf`)."""
    return set_const(io.load_model(path_or_xml_text, **kwargs))


def load_mjcf(source, file=None):
    """Compile an MJCF model (file path or XML text); see :func:`rbdl_edu.io.load_mjcf`."""
    return set_const(io.load_mjcf(source, file))


def load_urdf(source, floating_base=False, file=None):
    """Compile a URDF robot (file path or XML text); see :func:`rbdl_edu.io.load_urdf`."""
    return set_const(io.load_urdf(source, floating_base, file))
