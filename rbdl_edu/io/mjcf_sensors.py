"""MJCF sensors that name more than one object or carry a data layout: ``contact``
(MuJoCo 4.0's contact sensor), ``rangefinder`` (its ``data`` fields; on a site or a
camera), ``camprojection``, ``insidesite`` and the geom-pair sensors ``distance``,
``normal``, ``fromto``.

Each is read into MuJoCo's encoding: ``sensor_objtype/objid`` the first object,
``sensor_reftype/refid`` the second, ``sensor_intprm`` the data bits (in the order of
:data:`~rbdl_edu.model.enums.CONDATA` or :data:`~rbdl_edu.model.enums.RAYDATA`), the
reduction and the number of slots. What is not reproduced is refused by name
(``insidesite enclosed="true"``, ...).

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><geom name="floor" type="plane" size="1 1 1"/>
...   <body name="b"><freejoint/><geom size=".1"/></body></worldbody>
...   <sensor><contact body1="b" data="found force pos" num="2" reduce="mindist"/></sensor></mujoco>''')
>>> m.sensor_intprm, m.sensor_dim, m.sensor_objtype, m.sensor_needstage
(array([[19,  1,  2]]), array([14]), array([1]), array([3]))
"""
from __future__ import annotations

from rbdl_edu.io.mjcf_actuators import lookup
from rbdl_edu.model.enums import CONDATA, CONTACT_REDUCE, HFIELD, RAYDATA

__all__ = ["special_sensor", "SPECIAL"]

#: the sensors this module reads
SPECIAL = ("contact", "rangefinder", "insidesite", "distance", "normal", "fromto", "camprojection")
_FRAMES = {"body": "body", "xbody": "body", "geom": "geom", "site": "site"}


def _bits(raw, fields, default):
    """The ``data`` keywords as bits, refusing unknown ones and any out of the listed order."""
    words = raw.get("data", default).split()
    order = list(fields)
    bits, last = 0, -1
    for w in words:
        if w not in fields:
            raise raw.error(f"unknown data field {w!r}; expected some of {' '.join(order)}", "data")
        if order.index(w) <= last:
            raise raw.error(f"data fields must be in the order {' '.join(order)} (without repeats)", "data")
        last = order.index(w)
        bits |= 1 << last
    if not bits:
        raise raw.error("data needs at least one field", "data")
    return bits


def _one_of(c, raw, choices, required=True):
    """The single object named by one of ``choices`` (attribute -> (objtype, kind)), as
    ``(objtype, id)``; ``("", -1)`` when none is given and none is required."""
    given = [a for a in choices if raw.has(a)]
    if len(given) > 1 or (required and not given):
        raise raw.error(f"<{raw.tag}> needs exactly one of {', '.join(choices)}", given[-1] if given else None)
    if not given:
        return "", -1
    objtype, kind = choices[given[0]]
    return objtype, lookup(c, raw, kind, given[0])


def _contact(c, raw):
    side1 = _one_of(c, raw, {"geom1": ("geom", "geom"), "body1": ("body", "body"),
                             "subtree1": ("xbody", "body"), "site": ("site", "site")}, required=False)
    side2 = _one_of(c, raw, {"geom2": ("geom", "geom"), "body2": ("body", "body"),
                             "subtree2": ("xbody", "body")}, required=False)
    bits = _bits(raw, CONDATA, "found")
    reduce = CONTACT_REDUCE.index(raw.keyword("reduce", CONTACT_REDUCE, "none"))
    if reduce == 3 and bits & 0b110000000:
        raise raw.error('linvel and angvel cannot be combined with reduce="netforce"', "data")
    num = raw.int("num", 1)
    if num <= 0:
        raise raw.error("num must be positive", "num")
    return side1, side2, (bits, reduce, 1 if reduce == 3 else num)


def _geompair(c, raw):
    """The sensor's two sides: a geom or a body (all its geoms) each; no height field (as
    MuJoCo 4.0)."""
    side1 = _one_of(c, raw, {"geom1": ("geom", "geom"), "body1": ("body", "body")})
    side2 = _one_of(c, raw, {"geom2": ("geom", "geom"), "body2": ("body", "body")})
    geoms = c.spec.geoms
    for objtype, i in (side1, side2):
        mine = [i] if objtype == "geom" else [k for k, g in enumerate(geoms) if g["body"] == i]
        if any(geoms[k]["type"] == HFIELD for k in mine):
            raise raw.error(f"<{raw.tag}>: height fields are not supported in geom distance sensors (as MuJoCo)")
    return side1, side2


def _camera(c, raw, positive, attribute="camera"):
    """The id of the camera the sensor's ``attribute`` names, with a positive resolution if
    ``positive``."""
    k = lookup(c, raw, "camera", attribute)
    cam = c.spec.objects["cam"][k]
    if positive and min(cam["resolution"]) <= 0:
        raise raw.error("the camera's resolution must be positive", "camera")
    return k


def special_sensor(c, raw):
    """``(objtype, obj, reftype, ref, intprm)`` of a sensor in :data:`SPECIAL`."""
    if raw.tag == "contact":
        (t1, o1), (t2, o2), intprm = _contact(c, raw)
        return t1, o1, t2, o2, intprm
    if raw.tag in ("distance", "normal", "fromto"):
        (t1, o1), (t2, o2) = _geompair(c, raw)
        return t1, o1, t2, o2, (0, 0, 0)
    if raw.tag == "camprojection":
        return "site", lookup(c, raw, "site", "site"), "camera", _camera(c, raw, positive=True), (0, 0, 0)
    if raw.tag == "rangefinder":
        bits = _bits(raw, RAYDATA, "dist")
        if raw.has("site") == raw.has("camera"):
            raise raw.error("a <rangefinder> needs exactly one of site, camera")
        if raw.has("camera"):
            return "camera", _camera(c, raw, positive=True), "", -1, (bits, 0, 0)
        return "site", lookup(c, raw, "site", "site"), "", -1, (bits, 0, 0)
    # insidesite: is the frame origin of objtype/objname inside the site's volume?
    if raw.bool("enclosed", False):
        raise raw.error('insidesite enclosed="true" (the directed Hausdorff distance) is not supported',
                        "enclosed")
    objtype = raw.keyword("objtype", tuple(_FRAMES) + ("camera",))
    if objtype is None:
        raise raw.error("an <insidesite> sensor needs objtype body, xbody, geom, site or camera", "objtype")
    obj = _camera(c, raw, positive=False, attribute="objname") if objtype == "camera" else \
        lookup(c, raw, _FRAMES[objtype], "objname")
    return objtype, obj, "site", lookup(c, raw, "site", "site"), (0, 0, 0)
