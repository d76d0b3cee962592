"""MJCF ``<joint>`` and ``<freejoint>``: one joint of a body, read with its defaults.

The :class:`~rbdl_edu.io.mjcf.MJCFCompiler` (``c``) calls :func:`add_joint` for each joint
of a body, in document order. What is checked here, with the element and attribute in the
message: the type (a free joint only on a child of the world, and alone on its body), the
range (``limited``/``autolimits``; a ball's range is ``0`` and a positive angle), a
nonzero axis, non-negative armature, friction loss, stiffness and damping, and a
``springdamper`` with both numbers positive. Angles (``range``, ``ref``, ``springref`` of
a hinge) are in degrees unless ``<compiler angle="radian">``.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> read_mjcf('''<mujoco><worldbody><body><joint name="j" limited="true" range="90 -90"/>
...   <geom size="0.1"/></body></worldbody></mujoco>''')
Traceback (most recent call last):
    ...
rbdl_edu.io.errors.ModelError: <string>:1: <joint range=...>: range[0] must be smaller than range[1]

(With ``limited="auto"``, the default, such a range leaves the joint unlimited, as MuJoCo 4.0.)
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.mjcf_actuators import read_limited
from rbdl_edu.io.mjcf_defaults import check_attributes
from rbdl_edu.io.xmlread import Node, located
from rbdl_edu.model.defaults import SOLIMP, SOLREF


def add_joint(c, raw, cls, bid, parent, alone=True):
    """Add joint element ``raw`` (class ``cls``) of body ``bid``, whose parent is ``parent``;
    ``alone``: it is the body's only joint."""
    if raw.tag == "freejoint":
        check_attributes(raw)
        j = Node("joint", {"type": "free", **{k: v for k, v in raw.attrib.items() if k == "name"}},
                 raw.file, raw.line)
        if raw.get("align", "auto") == "true":
            raise raw.error('align="true" is not supported', "align")
    else:
        check_attributes(raw)
        j = c.defaults.resolve(raw, cls)
    kind = j.keyword("type", ("hinge", "slide", "ball", "free"), "hinge")
    if kind == "free" and parent != 0:
        raise raw.error("a free joint is only supported on a child of the world", "type")
    if kind == "free" and not alone:
        raise raw.error("a free joint must be the only joint of its body",
                        "type" if raw.tag == "joint" else None)
    angular = kind in ("hinge", "ball")
    rng = j.floats("range", 2, default=[0.0, 0.0])
    limited = j.tristate("limited")
    if kind == "free":
        limited = "false"
    elif limited == "auto":
        # MuJoCo 4.0: a range given (not both zero) needs autolimits, and then limits only
        # if it is increasing; an empty (equal ends) or inverted range leaves the joint free
        given = "range" in j.attrib and bool(np.any(rng != 0))
        if given and not c.settings.autolimits:
            raise j.error('range given but not limited: set limited, or <compiler autolimits="true"/>',
                          "range")
        limited = "true" if given and rng[0] < rng[1] else "false"
    limited = limited == "true"
    if limited and kind != "ball" and not rng[0] < rng[1]:
        raise j.error("range[0] must be smaller than range[1]", "range")
    if limited and kind == "ball" and rng[0] != 0:
        raise j.error("a ball joint range must start at 0", "range")
    if angular and limited:                       # MuJoCo converts a range only where it limits
        rng = c.angle(rng)
    axis = j.floats("axis", 3, default=[0.0, 0.0, 1.0])
    if np.linalg.norm(axis) < 1e-14:
        raise j.error("axis has zero length", "axis")
    ref = j.float("ref", 0.0)
    springref = j.float("springref", 0.0)
    if kind == "hinge":
        ref, springref = float(c.angle(ref)), float(c.angle(springref))
    values = {}
    for key in ("armature", "frictionloss"):
        values[key] = j.float(key, 0.0)
        if values[key] < 0:
            raise j.error(f"{key} must not be negative", key)
    jcls = raw.get("class", cls)
    # a spring and a damper: a linear coefficient and two nonlinear ones (a <freejoint>
    # takes none of them from the defaults, as in MuJoCo)
    for key in ("stiffness", "damping"):
        values[key] = c.vector(raw, jcls, key, np.zeros(3)) if raw.tag == "joint" else np.zeros(3)
        if values[key][0] < 0:
            raise j.error(f"{key} must not be negative", key)
    if j.float("springyield", 0.0) != 0:
        raise j.error("springyield (an elasto-plastic spring) is not supported", "springyield")
    # springdamper = (time constant, damping ratio): set_const turns it into the
    # stiffness and damping of the joint's inertia at qpos0, as MuJoCo's compiler does
    values["springdamper"] = c.vector(raw, jcls, "springdamper", np.zeros(2)) \
        if raw.tag == "joint" else np.zeros(2)
    if np.any(values["springdamper"] != 0) and not np.all(values["springdamper"] > 0):
        raise j.error("springdamper needs a positive time constant and damping ratio", "springdamper")
    for key, attr, base in (("solref", "solreflimit", SOLREF), ("solimp", "solimplimit", SOLIMP),
                            ("solreffriction", "solreffriction", SOLREF),
                            ("solimpfriction", "solimpfriction", SOLIMP)):
        values[key] = c.vector(raw, jcls, attr, base)
    if kind in ("ball", "free"):
        # MuJoCo limits the actuator force only on scalar joints: it keeps a ball's or a
        # free joint's range but never applies it
        actfrclimited = False
        actfrcrange = tuple(float(x) for x in j.floats("actuatorfrcrange", 2, default=[0.0, 0.0]))
    else:
        actfrclimited, actfrcrange = read_limited(c, j, "actuatorfrclimited", "actuatorfrcrange")
    name = c.unique_name("joint", j)
    with located(raw):
        c.spec.add_joint(bid, kind, name, axis=axis if kind in ("hinge", "slide") else [0.0, 0.0, 1.0],
                         pos=j.floats("pos", 3, default=np.zeros(3)), ref=ref, range=rng,
                         limited=limited, springref=springref, margin=j.float("margin", 0.0),
                         group=j.int("group", 0), actfrclimited=actfrclimited,
                         actfrcrange=actfrcrange, actgravcomp=j.bool("actuatorgravcomp", False),
                         **values)
    c.names["joint"][name or f"#{len(c.spec.joints) - 1}"] = len(c.spec.joints) - 1
    c.joint_nodes.append(raw)
