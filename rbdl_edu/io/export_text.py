"""How :mod:`~rbdl_edu.io.export` spells numbers, flags and names in MJCF text: every float
with ``repr`` (so it reads back bit for bit), and a made-up name (``geom3``) for an unnamed
object, since the other elements refer to objects by name.

>>> f([1, 0.1]), b(True)
('1.0 0.1', 'true')
>>> from rbdl_edu.models import pendulum
>>> name_of(pendulum(), "geom", 0), name_of(pendulum(), "body", 0)
('geom0', 'world')
"""
from __future__ import annotations

from xml.sax.saxutils import escape

import numpy as np


def f(x) -> str:
    """Numbers, space-separated, each exactly as stored."""
    return " ".join(repr(float(v)) for v in np.atleast_1d(np.asarray(x, dtype=float)).reshape(-1))


def b(x) -> str:
    """An MJCF boolean."""
    return "true" if bool(x) else "false"


def name_of(model, kind, i) -> str:
    """The name of object ``i`` of ``kind`` (``"body"``, ``"jnt"``, ``"geom"``, ...), or
    ``kindI`` (with ``_`` added while another object has that name), escaped for an attribute."""
    if kind == "body" and i == 0:
        return "world"
    names = getattr(model, f"{kind}_names")
    name = names[i]
    if not name:
        name = f"{kind}{i}"
        while name in names:
            name += "_"
    return escape(name, {'"': "&quot;"})
