"""Reading and writing models: MJCF and URDF files into a compiled model, and MJCF export.

The readers (:func:`rbdl_edu.io.mjcf.read_mjcf`, :func:`rbdl_edu.io.urdf.read_urdf`) stop
before the constants that need the model's dynamics; :mod:`rbdl_edu.loading` is the one
loader (``rbd.load_model``: read, compile, ``set_const``, the actuator length ranges found
by simulation), so this package imports no algorithm. Every failure is a :class:`ModelError` that names the file, line, element and
attribute.
"""
from __future__ import annotations

from rbdl_edu.io.errors import ModelError
from rbdl_edu.io.export import to_mjcf
from rbdl_edu.io.xmlread import FileAccess, is_xml_text, read_file

_MOVED = {"load_model": "rbd.load_model", "load_mjcf": "rbd.load_model (or rbd.load_mjcf)",
          "load_urdf": "rbd.load_model (or rbd.load_urdf)"}


def __getattr__(name):
    """``rbd.io.load_model`` and its siblings are gone: there is one loader (it also computes
    the constants at ``qpos0`` that contacts and actuators need)."""
    if name in _MOVED:
        raise AttributeError(f"rbdl_edu.io.{name} is gone: load models with {_MOVED[name]}, "
                             "the one loader (read, compile and set_const)")
    raise AttributeError(f"module 'rbdl_edu.io' has no attribute {name!r}")


__all__ = ["FileAccess", "ModelError", "is_xml_text", "read_file", "to_mjcf"]
