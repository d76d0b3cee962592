"""MJCF beyond the tree: materials, actuators (:mod:`~rbdl_edu.io.mjcf_actuators`), sensors,
contact pairs/excludes, equalities, fixed and spatial tendons and keyframes, added to the
spec in document order (their ids are MuJoCo's).

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><body name="b"><joint name="j"/><geom size=".1"/></body></worldbody>
...   <sensor><jointpos joint="j"/></sensor><contact><exclude body1="world" body2="b"/></contact></mujoco>''')
>>> m.sensor_type, m.sensor_objid, m.exclude_signature
(array([9]), array([0]), array([1]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.mjcf_actuators import lookup, read_actuators, read_limited
from rbdl_edu.io.mjcf_defaults import check_attributes
from rbdl_edu.io.mjcf_sensors import SPECIAL, special_sensor
from rbdl_edu.io.xmlread import located
from rbdl_edu.model import defaults as D
from rbdl_edu.model.compiler import actuator_actnum
from rbdl_edu.model.controls import control_block
from rbdl_edu.model.enums import (DATATYPE_AXIS, DATATYPE_QUATERNION, GEOM_NAMES, JOINT_NAMES, JOINT_NQ,
                                  JOINT_NV, SENSORS, SENSORS_NOT_SIMULATED)


def add_objects(c):
    """Add everything after ``<worldbody>`` to ``c.spec``, in MuJoCo's order."""
    c.names["tendon"] = _tendons(c)
    read_actuators(c)
    _sensors(c)
    _contacts(c)
    _equalities(c)
    _keyframes(c)


def _sections(c, tag):
    return [n for s in c.root.children if s.tag == tag for n in s.children]


def add_materials(c):
    """Add every ``<asset><material>`` (white unless it says otherwise); name -> id."""
    ids = {}
    for asset in (s for s in c.root.children if s.tag == "asset"):
        for node in asset.children:
            if node.tag == "material" and node.get("name"):
                m = c.defaults.resolve(node, node.get("class", "main"))
                with located(node):
                    ids[node.get("name")] = c.spec.add_material(node.get("name"),
                                                            m.floats("rgba", 4, default=[1.0, 1.0, 1.0, 1.0]))
    return ids


# a sensor's object: the attribute that names it, by the kind SENSORS gives
_OBJ_ATTRIBUTE = {"site": "site", "joint": "joint", "tendon": "tendon", "actuator": "actuator",
                  "body": "body"}
_FRAME_KINDS = {"body": "body", "xbody": "body", "geom": "geom", "site": "site"}
# the sensors that can measure in another frame (reftype, refname), as MuJoCo's schema
_RELATIVE = {"framepos", "framequat", "framexaxis", "frameyaxis", "framezaxis", "framelinvel",
             "frameangvel"}


def _sensors(c):
    for raw in _sections(c, "sensor"):
        check_attributes(raw)
        if raw.tag not in SENSORS:
            raise raw.error(f"<{raw.tag}> sensors are not supported")
        if raw.tag in SENSORS_NOT_SIMULATED:
            raise raw.error(f"<{raw.tag}> sensors are not supported: {SENSORS_NOT_SIMULATED[raw.tag]}")
        for key in ("nsample", "delay", "interval"):     # MuJoCo's sensor history buffers
            if raw.has(key) and raw.floats(key).any():
                raise raw.error(f"{key}: sensor history (delayed or sampled readings) is not supported", key)
        kind = SENSORS[raw.tag].obj
        obj, objtype, ref, reftype, intprm = None, kind, None, None, None
        if raw.tag in SPECIAL:                   # two objects, or a data layout
            objtype, obj, reftype, ref, intprm = special_sensor(c, raw)
            objtype, reftype = objtype or None, reftype or None
            obj, ref = (obj if obj >= 0 else None), (ref if ref >= 0 else None)
        elif kind == "frame":                      # frame sensors name any frame
            objtype = raw.keyword("objtype", tuple(_FRAME_KINDS) + ("camera",))
            if objtype is None or objtype == "camera":
                raise raw.error(f"a <{raw.tag}> sensor needs objtype body, xbody, geom or site", "objtype")
            obj = lookup(c, raw, _FRAME_KINDS[objtype], "objname")
        elif kind:
            obj = lookup(c, raw, kind, _OBJ_ATTRIBUTE[kind])
        if raw.tag.startswith(("jointlimit", "tendonlimit")):
            limited = c.spec.objects[kind][obj]["limited"]
            if not limited:
                raise raw.error(f"a <{raw.tag}> sensor needs a limited {kind}", _OBJ_ATTRIBUTE[kind])
        if raw.has("reftype") or raw.has("refname"):      # measured in another frame
            if raw.tag not in _RELATIVE:
                raise raw.error(f"a <{raw.tag}> sensor has no reference frame",
                                "reftype" if raw.has("reftype") else "refname")
            if not (raw.has("reftype") and raw.has("refname")):
                raise raw.error("reftype and refname must be given together",
                                "refname" if raw.has("reftype") else "reftype")
            reftype = raw.keyword("reftype", tuple(_FRAME_KINDS))
            ref = lookup(c, raw, _FRAME_KINDS[reftype], "refname")
        noise = raw.float("noise", 0.0)
        if noise < 0:
            raise raw.error("noise must not be negative", "noise")
        cutoff = raw.float("cutoff", 0.0)
        if cutoff < 0:
            raise raw.error("cutoff must not be negative", "cutoff")
        # (a normal sensor's cutoff is its search distance, as MuJoCo's collision sensors)
        if cutoff > 0 and SENSORS[raw.tag].datatype in (DATATYPE_AXIS, DATATYPE_QUATERNION) and raw.tag != "normal":
            raise raw.error(f"a <{raw.tag}> sensor gives a unit vector or quaternion: no cutoff", "cutoff")
        with located(raw):
            c.spec.add_sensor(raw.tag, obj, raw.get("name"), objtype=objtype or None, ref=ref,
                              reftype=reftype, noise=noise, cutoff=cutoff, intprm=intprm)


def _contacts(c):
    for raw in _sections(c, "contact"):
        check_attributes(raw)
        if raw.tag == "exclude":
            with located(raw):
                c.spec.add_exclude(lookup(c, raw, "body", "body1"), lookup(c, raw, "body", "body2"),
                                   raw.get("name"))
        elif raw.tag == "pair":
            p = c.defaults.resolve(raw, "main")
            cls = raw.get("class", "main")
            condim = p.int("condim", D.GEOM_CONDIM)
            if condim not in (1, 3, 4, 6):
                raise p.error("condim must be 1, 3, 4 or 6", "condim")
            with located(raw):
                c.spec.add_pair(lookup(c, p, "geom", "geom1"), lookup(c, p, "geom", "geom2"), p.get("name"),
                                condim=condim, friction=c.vector(raw, cls, "friction", D.PAIR_FRICTION),
                                solref=c.vector(raw, cls, "solref", D.SOLREF),
                                solreffriction=c.vector(raw, cls, "solreffriction", [0.0, 0.0]),
                                solimp=c.vector(raw, cls, "solimp", D.SOLIMP),
                                margin=p.float("margin", 0.0), gap=p.float("gap", 0.0),
                                adhesion=p.float("adhesion", 0.0))
        else:
            raise raw.error(f"<{raw.tag}> is not supported inside <contact>")


def _equalities(c):
    for raw in _sections(c, "equality"):
        kind = raw.tag
        if kind not in ("connect", "weld", "joint", "tendon"):
            raise raw.error(f"<{kind}> equality constraints are not supported")
        check_attributes(raw, {"joint": "equality_joint", "tendon": "equality_tendon"}.get(kind, kind))
        e = c.defaults.resolve(raw, "main", tag="equality")
        cls = raw.get("class", "main")
        objtype, data = kind, np.array(D.EQ_DATA)
        if kind in ("connect", "weld"):
            if e.has("site1") or e.has("site2"):
                objtype = "site"
                o1, o2 = lookup(c, e, "site", "site1"), lookup(c, e, "site", "site2")
            else:
                objtype = "body"
                o1 = lookup(c, e, "body", "body1")
                o2 = lookup(c, e, "body", "body2", required=False)
                o2 = 0 if o2 == -1 else o2             # the world by default
            if kind == "connect" and objtype == "body":
                if not e.has("anchor"):
                    raise e.error("a connect constraint between bodies needs anchor", "anchor")
                data[:6] = 0.0
                data[:3] = e.floats("anchor", 3)
            elif kind == "weld" and objtype == "body":
                data[:3] = e.floats("anchor", 3, default=np.zeros(3))
                data[3:10] = e.floats("relpose", 7, default=np.zeros(7))
                # 1: the pose at qpos0 (set_const), when no relpose or one with a zero quaternion
                data[11] = 0.0 if np.any(data[6:10] != 0) else 1.0
            if kind == "weld":
                data[10] = e.float("torquescale", 1.0)
        else:
            o1 = lookup(c, e, kind, f"{kind}1")
            o2 = lookup(c, e, kind, f"{kind}2", required=False)
            data[:5] = c.vector(raw, cls, "polycoef", D.EQ_POLYCOEF, tag="equality")
        with located(raw):
            c.spec.add_equality(kind, o1, o2, e.get("name"), objtype=objtype, active=e.bool("active", True),
                                solref=c.vector(raw, cls, "solref", D.SOLREF, tag="equality"),
                                solimp=c.vector(raw, cls, "solimp", D.SOLIMP, tag="equality"), data=data)


def _tendons(c):
    """Fixed tendons (joints and coefficients) and spatial tendons (a path of sites, wrapping
    geoms and pulleys), in document order as MuJoCo numbers them; name -> id."""
    names = {}
    for raw in _sections(c, "tendon"):
        if raw.tag not in ("fixed", "spatial"):
            raise raw.error(f"<{raw.tag}> tendons are not supported")
        check_attributes(raw)
        t = c.defaults.resolve(raw, "main", tag="tendon")
        cls = raw.get("class", "main")
        limited, rng = read_limited(c, t, "limited", "range")
        actfrclimited, actfrcrange = read_limited(c, t, "actuatorfrclimited", "actuatorfrcrange")
        if actfrclimited and not actfrcrange[0] <= 0 <= actfrcrange[1]:
            raise t.error("a tendon's actuatorfrcrange must contain 0", "actuatorfrcrange")
        sl = t.floats("springlength", at_least=1) if t.has("springlength") else np.array(D.TENDON_SPRINGLENGTH)
        if len(sl) > 2:
            raise t.error("springlength takes 1 or 2 numbers", "springlength")
        values = dict(limited=limited, range=rng, actfrclimited=actfrclimited, actfrcrange=actfrcrange,
                      springlength=np.resize(sl, 2),               # one number: both ends of the band
                      solref_lim=c.vector(raw, cls, "solreflimit", D.SOLREF, tag="tendon"),
                      solimp_lim=c.vector(raw, cls, "solimplimit", D.SOLIMP, tag="tendon"),
                      solref_fri=c.vector(raw, cls, "solreffriction", D.SOLREF, tag="tendon"),
                      solimp_fri=c.vector(raw, cls, "solimpfriction", D.SOLIMP, tag="tendon"))
        for key in ("frictionloss", "armature", "margin"):
            values[key] = t.float(key, 0.0)
            if values[key] < 0:
                raise t.error(f"{key} must not be negative", key)
        for key in ("stiffness", "damping"):          # linear and two nonlinear coefficients
            values[key] = c.vector(raw, cls, key, np.zeros(3), tag="tendon")
            if values[key][0] < 0:
                raise t.error(f"{key} must not be negative", key)
        if t.float("springyield", 0.0) != 0:
            raise t.error("springyield (an elasto-plastic spring) is not supported", "springyield")
        path = _fixed_path(c, raw) if raw.tag == "fixed" else _spatial_path(c, raw, values["armature"])
        with located(raw):
            k = c.spec.add_tendon(path, t.get("name"), **values)
        names[t.get("name") or f"#{k}"] = k
    return names


def _fixed_path(c, raw):
    path = []
    for j in raw.children:
        if j.tag != "joint":
            raise j.error(f"<{j.tag}> cannot be inside a fixed tendon")
        check_attributes(j, "tendon_joint")
        if not j.has("coef"):
            raise j.error("<joint> in a fixed tendon needs coef", "coef")
        k = lookup(c, j, "joint", "joint")
        # L = sum coef q: only scalar joints, each once (as MuJoCo 4.0 requires)
        if JOINT_NAMES[c.spec.joints[k]["type"]] not in ("hinge", "slide"):
            raise j.error("a fixed tendon can only use hinge and slide joints", "joint")
        if any(p[1] == k for p in path):
            raise j.error("a joint appears twice in this fixed tendon", "joint")
        path.append(("joint", k, j.float("coef")))
    if not path:
        raise raw.error("a fixed tendon needs at least one joint")
    return path


def _spatial_path(c, raw, armature):
    """A spatial tendon's path, checked with MuJoCo's rules: a site needs a neighbor that is
    not a pulley, a geom sits between two sites, pulleys are never consecutive nor last."""
    path, nodes = [], []
    for w in raw.children:
        if w.tag not in ("site", "geom", "pulley"):
            raise w.error(f"<{w.tag}> cannot be inside a spatial tendon")
        check_attributes(w, "tendon_" + w.tag)
        if w.tag == "site":
            path.append(("site", lookup(c, w, "site", "site"), 0.0))
        elif w.tag == "geom":
            g = lookup(c, w, "geom", "geom")
            kind = GEOM_NAMES[c.spec.geoms[g]["type"]]
            if kind not in ("sphere", "cylinder"):
                raise w.error("a tendon can only wrap around a sphere or a cylinder", "geom")
            side = lookup(c, w, "site", "sidesite", required=False)
            path.append((kind, g, float(side)))
        else:
            divisor = w.float("divisor", None)
            if divisor is None or divisor <= 0:
                raise w.error("a pulley needs a positive divisor", "divisor")
            path.append(("pulley", -1, divisor))
        nodes.append(w)
    if len(path) < 2:
        raise raw.error("a spatial tendon needs at least two path elements (two sites)")
    kinds = [p[0] for p in path] + ["pulley"]            # a virtual pulley after the end
    for i, (kind, w) in enumerate(zip(kinds, nodes)):
        before = kinds[i - 1] if i > 0 else "pulley"
        if kind == "pulley" and (before == "pulley" and i > 0 or i == len(path) - 1):
            raise w.error("a pulley cannot follow another pulley or end the path")
        if kind == "site" and before == "pulley" and kinds[i + 1] == "pulley":
            raise w.error("a site in a spatial tendon needs a neighbor that is not a pulley")
        if kind == "site" and kinds[i + 1] == "site" and path[i][1] == path[i + 1][1]:
            raise w.error("the same site twice in a row", "site")
        if kind in ("sphere", "cylinder") and (before != "site" or kinds[i + 1] != "site"):
            raise w.error("a wrapped geom must be between two sites")
    if armature > 0 and any(p[0] in ("sphere", "cylinder") for p in path):
        raise raw.error("a tendon with armature cannot wrap geoms (as in MuJoCo)", "armature")
    return path


MAX_KEYS = 10_000              # keyframes a model may declare (<size nkey>)
MAX_KEY_NUMBERS = 10_000_000   # numbers in all keyframes together


def _keyframes(c):
    """``<key>`` elements, checked here so that errors name the line; ``<size nkey="n">``
    asks for at least ``n`` keyframes (the missing ones hold the defaults)."""
    spec = c.spec
    kinds = [JOINT_NAMES[j["type"]] for j in spec.joints]
    nmocap = sum(b["mocap"] for b in spec.bodies)
    n = dict(qpos=sum(JOINT_NQ[j["type"]] for j in spec.joints),
             qvel=sum(JOINT_NV[j["type"]] for j in spec.joints),
             act=sum(actuator_actnum(a) for a in spec.objects["actuator"]),
             ctrl=sum(len(control_block(a)[1]) for a in spec.objects["actuator"]), mpos=3 * nmocap,
             mquat=4 * nmocap)
    count = 0
    for raw in _sections(c, "keyframe"):
        if raw.tag != "key":
            raise raw.error(f"<{raw.tag}> is not supported inside <keyframe>")
        check_attributes(raw)
        given = {}
        for name, size in n.items():
            if raw.has(name):
                given[name] = raw.floats(name, at_least=0)
                # fewer numbers are completed with the defaults (MuJoCo 4.0 does so)
                if len(given[name]) > size:
                    raise raw.error(f"{name} takes {size} numbers, got {len(given[name])}", name)
        if "qpos" in given:                      # quaternions must have a length to normalize
            adr = 0
            for kind in kinds:
                if kind in ("ball", "free"):
                    k = adr + (3 if kind == "free" else 0)
                    if k + 4 <= len(given["qpos"]) and not np.linalg.norm(given["qpos"][k:k + 4]) > 1e-15:
                        raise raw.error("a quaternion in qpos has zero length", "qpos")
                adr += {"free": 7, "ball": 4}.get(kind, 1)
        with located(raw):
            spec.add_key(raw.get("name"), raw.float("time", 0.0), **given)
        count += 1
    nkey, where = 0, None
    for size in (s for s in c.root.children if s.tag == "size"):
        if size.int("nkey", 0) > nkey:
            nkey, where = size.int("nkey", 0), size
    # a size the file declares: bounded, so a few bytes cannot ask for gigabytes
    if nkey > MAX_KEYS or nkey * max(1, sum(n.values())) > MAX_KEY_NUMBERS:
        raise where.error(f"nkey={nkey}: at most {MAX_KEYS} keyframes and {MAX_KEY_NUMBERS:g} numbers "
                          "in all of them", "nkey")
    for _ in range(nkey - count):
        spec.add_key()
