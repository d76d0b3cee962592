"""``ModelError``: the one error a model file can raise, saying what is wrong and where.

>>> raise ModelError("mass must not be negative", file="arm.xml", line=12,
...                  element="inertial", attribute="mass")
Traceback (most recent call last):
    ...
rbdl_edu.io.errors.ModelError: arm.xml:12: <inertial mass=...>: mass must not be negative
"""
from __future__ import annotations


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
