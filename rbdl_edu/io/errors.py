"""``ModelError``: the one error a model file can raise, saying what is wrong and where.

>>> raise ModelError("mass must not be negative", file="arm.xml", line=12,
...                  element="inertial", attribute="mass")
Traceback (most recent call last):
    ...
rbdl_edu.io.errors.ModelError: arm.xml:12: <inertial mass=...>: mass must not be negative
"""
from __future__ import annotations

import weakref


class ModelError(Exception):
    """A model file (MJCF or URDF) that cannot be loaded.

    The message starts with ``file:line: <element attribute=...>:`` so an editor can jump
    to the spot; the parts are also kept as attributes ``file``, ``line``, ``element``,
    ``attribute`` and ``reason`` for programs.
    """

    def __init__(self, reason, file=None, line=None, element=None, attribute=None):
        self.reason, self.file, self.line = reason, file, line
        self.element, self.attribute = element, attribute
        where = f"{file or '<string>'}:{line if line is not None else '?'}"
        if element:
            where += f": <{element}" + (f" {attribute}=...>" if attribute else ">")
        super().__init__(f"{where}: {reason}")


# model -> {"body": [(file, line, tag), ...], "joint": [...]}: where each body and joint of a
# compiled model was written, so that an error found after compiling (set_const's singular
# mass matrix) still names the file, line and element
_SOURCES = weakref.WeakKeyDictionary()


def remember_sources(model, sources):
    """Record where ``model``'s objects come from (``{"body": [node, ...], "joint": [...]}``,
    elements with ``file``/``line``/``tag``); returns ``model``."""
    _SOURCES[model] = {kind: [(n.file, n.line, n.tag) for n in nodes] for kind, nodes in sources.items()}
    return model


def keep_sources(source, model):
    """``model`` (computed from ``source``, with the same objects) remembers where
    ``source``'s objects come from; returns ``model``."""
    if source in _SOURCES:
        _SOURCES[model] = _SOURCES[source]
    return model


def error_at(model, kind, index, reason):
    """A :class:`ModelError` located at the element that wrote ``model``'s ``kind`` object
    ``index`` (``"body"``, ``"joint"`` or ``"actuator"``), if the model came from a file."""
    where = _SOURCES.get(model, {}).get(kind, [])
    if 0 <= index < len(where):
        file, line, tag = where[index]
        return ModelError(reason, file, line, tag)
    return ModelError(reason)
