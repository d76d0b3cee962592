"""MJCF ``<camera>``: a frame on a body that looks along its -z axis (x right, y up), read
for the sensors that look through it (``camprojection``, a rangefinder on a camera); it
does not change the dynamics. ``mode`` fixes it to its body or makes it track the body or
look at a ``target`` body (:mod:`rbdl_edu.smooth.camera`).

The field of view is ``fovy`` (degrees whatever ``compiler/angle`` says; for an
orthographic camera a length), unless a ``sensorsize`` is given: then the focal lengths
and principal point (``focal``/``focalpixel``, ``principal``/``principalpixel``) are
kept in length units in ``cam_intrinsic`` (single precision, as MuJoCo stores them) and
``fovy`` follows from the sensor height and the vertical focal length.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><camera name="eye" pos="0 0 1" resolution="4 3"
...   sensorsize=".004 .003" focalpixel="10 12"/></worldbody></mujoco>''')
>>> m.cam_intrinsic.round(6), round(float(m.cam_fovy[0]), 4)
(array([[0.01 , 0.012, 0.   , 0.   ]]), 14.25)
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.mjcf_defaults import check_attributes
from rbdl_edu.io.xmlread import located
from rbdl_edu.rotation import quat_mul, quat_to_mat

__all__ = ["add_camera", "resolve_targets", "MODES"]

MODES = ("fixed", "track", "trackcom", "targetbody", "targetbodycom")


def _f32(x):
    return np.asarray(x, dtype=np.float32)


def _znear(c):
    """``<visual><map znear>`` (0.01 if not given), which MuJoCo stores as the focal lengths
    of a camera without a sensor size."""
    znear = 0.01
    for visual in (s for s in c.root.children if s.tag == "visual"):
        for node in (n for n in visual.children if n.tag == "map"):
            znear = node.float("znear", znear)
    return znear


def add_camera(c, bid, raw, cls, fpos, fquat):
    """Add camera element ``raw`` (class ``cls``, in the frame ``fpos, fquat``) to body ``bid``."""
    check_attributes(raw)
    if raw.children:
        raise raw.children[0].error(f"<{raw.children[0].tag}> cannot be inside <camera>")
    s = c.defaults.resolve(raw, cls)
    mode = MODES.index(s.keyword("mode", MODES, "fixed"))
    projection = ("perspective", "orthographic").index(s.keyword("projection", ("perspective", "orthographic"),
                                                                 "perspective"))
    fovy = s.float("fovy", 45.0)
    if fovy >= 180:
        raise s.error("fovy too large (at least 180 degrees)", "fovy")
    resolution = [int(r) for r in s.floats("resolution", 2, default=[1, 1])]
    sensorsize = _f32(s.floats("sensorsize", 2, default=[0.0, 0.0]))
    lengths = {k: _f32(s.floats(k, 2, default=[0.0, 0.0])) for k in ("focal", "focalpixel", "principal",
                                                                     "principalpixel")}
    has_intrinsic = any(np.any(v != 0) for v in lengths.values())
    znear = _znear(c)                                         # MuJoCo's default: unused without a sensor size
    intrinsic = _f32([znear, znear, 0.0, 0.0])
    if has_intrinsic and not np.all(sensorsize > 0):
        raise s.error("focal/principal require sensorsize", "sensorsize")
    if np.all(sensorsize > 0):
        if min(resolution) <= 0:
            raise s.error("sensorsize requires a positive resolution", "resolution")
        density = _f32(resolution) / sensorsize              # pixels per length unit
        pick = [lambda k, a: lengths[k + "pixel"][a] / density[a] if lengths[k + "pixel"][a] else lengths[k][a]]
        intrinsic = _f32([pick[0]("focal", 0), pick[0]("focal", 1), pick[0]("principal", 0),
                          pick[0]("principal", 1)])
        # (in single precision, as MuJoCo)
        fovy = float(np.float32(np.arctan2(float(sensorsize[1] / np.float32(2)), float(intrinsic[1])))) * 360.0 / np.pi
    name = c.unique_name("camera", s)
    if name:
        c.names["camera"][name] = len(c.spec.objects["cam"])
    pos, quat = s.floats("pos", 3, default=np.zeros(3)), c.orientation(s)
    with located(raw):
        k = c.spec.add_camera(bid, name, fpos + quat_to_mat(fquat) @ pos, quat_mul(fquat, quat), mode=mode,
                              fovy=fovy, resolution=resolution, sensorsize=sensorsize.astype(float),
                              intrinsic=intrinsic.astype(float), projection=projection)
    if s.has("target"):                          # (the body may come later in the file)
        c.camera_targets.append((k, s))


def resolve_targets(c):
    """Give each camera with a ``target`` its ``targetbodyid``, once every body is known."""
    for k, node in c.camera_targets:
        target = node.get("target")
        if target not in c.names["body"]:
            raise node.error(f"unknown target body {target!r}", "target")
        c.spec.objects["cam"][k]["targetbodyid"] = c.names["body"][target]
