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
    :func:`rbdl_edu.io.load_model` (``base_dir=``, ``allowed_dirs=``: the folders the model
    may read files from; ``floating_base=`` for URDF)."""
    return _set_const(io.load_model(path_or_xml_text, **kwargs), path_or_xml_text)


def load_mjcf(source, file=None, **kwargs):
    """Compile an MJCF model (file path or XML text); see :func:`rbdl_edu.io.load_mjcf`."""
    return _set_const(io.load_mjcf(source, file, **kwargs), source, file)


def load_urdf(source, floating_base=False, file=None, **kwargs):
    """Compile a URDF robot (file path or XML text); see :func:`rbdl_edu.io.load_urdf`."""
    return _set_const(io.load_urdf(source, floating_base, file, **kwargs), source, file)


def _set_const(model, source, file=None):
    """:func:`set_const`; a model it refuses (a mass matrix that is singular or not finite at
    ``qpos0``) is a :class:`~rbdl_edu.io.errors.ModelError` that names the file."""
    try:
        return set_const(model)
    except io.ModelError as e:
        if e.file is None and not io.is_xml_text(source):
            file = str(source)
        if e.file is None and file:
            raise io.ModelError(e.reason, file, e.line, e.element, e.attribute) from None
        raise
