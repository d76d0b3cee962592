"""MJCF beyond the tree: actuators (:mod:`~rbdl_edu.io.mjcf_actuators`), sensors, contact
pairs/excludes, equalities, fixed and spatial tendons and keyframes, read into the typed
records of :mod:`~rbdl_edu.io.records` and gathered in ``model.extras``.

>>> from rbdl_edu.io.mjcf import load_mjcf
>>> m = load_mjcf('''<mujoco><worldbody><body name="b"><joint name="j"/><geom size=".1"/></body></worldbody>
...   <sensor><jointpos joint="j"/></sensor><contact><exclude body1="world" body2="b"/></contact></mujoco>''')
>>> m.extras["sensors"][0].type, m.extras["excludes"][0].body2
('jointpos', 1)
"""
from __future__ import annotations

import numpy as np

from .mjcf_actuators import lookup, read_actuators, read_limited
from .mjcf_defaults import SENSORS, check_attributes
from .records import (ContactExclude, ContactPair, Equality, FixedTendon, Keyframe, Sensor,
                      SpatialTendon)


def read_extras(c):
    """Everything after ``<worldbody>``, as a dict for ``model.extras``."""
    tendons = _tendons(c)
    c.names["tendon"] = {t.name: k for k, t in enumerate(tendons) if t.name}
    actuators = read_actuators(c)
    c.names["actuator"] = {a.name: k for k, a in enumerate(actuators) if a.name}
    pairs, excludes = _contacts(c)
    out = dict(nu=len(actuators), actuators=tuple(actuators), sensors=tuple(_sensors(c)),
               pairs=tuple(pairs), excludes=tuple(excludes), equalities=tuple(_equalities(c)),
               tendons=tuple(tendons), meshes=tuple(c.meshes),
               body_gravcomp=np.array(c.gravcomp), body_mocap=np.array(c.mocap, dtype=bool),
               model_name=c.root.get("model", ""), option_more=dict(c.option_more),
               geom_group=np.array(c.geom_group, dtype=int),
               geom_material_rgba=_material_colors(c))
    na = sum(a.dyntype != "none" for a in actuators)
    out["na"] = na
    out["keyframes"] = tuple(_keyframes(c, len(actuators), na))
    return out


def _sections(c, tag):
    return [n for s in c.root.children if s.tag == tag for n in s.children]


def material_colors(c):
    """Name -> ``rgba`` of every ``<asset><material>`` (white unless it says otherwise)."""
    colors = {}
    for asset in (s for s in c.root.children if s.tag == "asset"):
        for node in asset.children:
            if node.tag == "material" and node.get("name"):
                m = c.defaults.resolve(node, node.get("class", "main"))
                colors[node.get("name")] = m.floats("rgba", 4, default=[1.0, 1.0, 1.0, 1.0])
    return colors


def _material_colors(c):
    """``(ngeom, 4)``: the ``rgba`` of each geom's ``<material>`` (NaN where it has none), so
    a renderer can show what MuJoCo's renderer shows (a material's color is used when the
    geom gives no ``rgba`` of its own)."""
    out = np.full((len(c.geom_material), 4), np.nan)
    for g, name in enumerate(c.geom_material):
        if name is not None:
            out[g] = c.material_rgba[name]
    return out


# sensor type -> the attribute naming its object, and that object's kind
_SENSOR_OBJECT = {}
for _t in ("touch", "accelerometer", "velocimeter", "gyro", "force", "torque", "magnetometer",
           "rangefinder", "insidesite"):
    _SENSOR_OBJECT[_t] = ("site", "site")
for _t in ("jointpos", "jointvel", "ballquat", "ballangvel", "jointlimitpos", "jointlimitvel",
           "jointlimitfrc", "jointactuatorfrc"):
    _SENSOR_OBJECT[_t] = ("joint", "joint")
for _t in ("tendonpos", "tendonvel", "tendonlimitpos", "tendonlimitvel", "tendonlimitfrc",
           "tendonactuatorfrc"):
    _SENSOR_OBJECT[_t] = ("tendon", "tendon")
for _t in ("actuatorpos", "actuatorvel", "actuatorfrc"):
    _SENSOR_OBJECT[_t] = ("actuator", "actuator")
for _t in ("subtreecom", "subtreelinvel", "subtreeangmom"):
    _SENSOR_OBJECT[_t] = ("body", "body")
_FRAME_KINDS = {"body": "body", "xbody": "body", "geom": "geom", "site": "site"}


def _sensors(c):
    out = []
    for raw in _sections(c, "sensor"):
        if raw.tag not in SENSORS:
            raise raw.error(f"<{raw.tag}> sensors are not supported")
        check_attributes(raw)
        objtype, objid, reftype, refid = "", -1, "", -1
        if raw.tag in _SENSOR_OBJECT:
            attribute, objtype = _SENSOR_OBJECT[raw.tag]
            objid = lookup(c, raw, objtype, attribute)
        elif raw.tag.startswith("frame"):
            objtype = raw.keyword("objtype", tuple(_FRAME_KINDS) + ("camera",))
            if objtype is None or objtype == "camera":
                raise raw.error("a frame sensor needs objtype body, xbody, geom or site", "objtype")
            objid = lookup(c, raw, _FRAME_KINDS[objtype], "objname")
            if raw.has("reftype"):
                reftype = raw.keyword("reftype", tuple(_FRAME_KINDS))
                refid = lookup(c, raw, _FRAME_KINDS[reftype], "refname")
        elif raw.tag not in ("clock", "e_potential", "e_kinetic"):
            raise raw.error(f"<{raw.tag}> sensors are not supported")
        noise = raw.float("noise", 0.0)
        if noise < 0:
            raise raw.error("noise must not be negative", "noise")
        out.append(Sensor(name=raw.get("name", ""), type=raw.tag, objtype=objtype, objid=objid,
                          reftype=reftype, refid=refid, noise=noise, cutoff=raw.float("cutoff", 0.0)))
    return out


def _contacts(c):
    pairs, excludes = [], []
    G = c.spec.geoms
    for raw in _sections(c, "contact"):
        check_attributes(raw)
        if raw.tag == "exclude":
            excludes.append(ContactExclude(raw.get("name", ""), lookup(c, raw, "body", "body1"),
                                           lookup(c, raw, "body", "body2")))
        elif raw.tag == "pair":
            p = c.defaults.resolve(raw, "main")
            g1, g2 = lookup(c, p, "geom", "geom1"), lookup(c, p, "geom", "geom2")
            # MuJoCo lists the geom of the lower body first
            if (G[g1]["body"], g1) > (G[g2]["body"], g2):
                g1, g2 = g2, g1
            friction = c.vector(raw, raw.get("class", "main"), "friction", [1.0, 1.0, 0.005, 0.0001, 0.0001])
            condim = p.int("condim", 3)
            if condim not in (1, 3, 4, 6):
                raise p.error("condim must be 1, 3, 4 or 6", "condim")
            pairs.append(ContactPair(
                name=p.get("name", ""), geom1=g1, geom2=g2, condim=condim,
                friction=tuple(float(x) for x in friction),
                solref=tuple(float(x) for x in p.floats("solref", 2, default=[0.02, 1.0])),
                solreffriction=tuple(float(x) for x in p.floats("solreffriction", 2, default=[0.0, 0.0])),
                solimp=tuple(float(x) for x in p.floats("solimp", 5, default=[0.9, 0.95, 0.001, 0.5, 2.0])),
                margin=p.float("margin", 0.0), gap=p.float("gap", 0.0)))
        else:
            raise raw.error(f"<{raw.tag}> is not supported inside <contact>")
    return pairs, excludes


def _equalities(c):
    out = []
    for raw in _sections(c, "equality"):
        kind = raw.tag
        if kind not in ("connect", "weld", "joint", "tendon"):
            raise raw.error(f"<{kind}> equality constraints are not supported")
        check_attributes(raw, {"joint": "equality_joint", "tendon": "equality_tendon"}.get(kind, kind))
        e = c.defaults.resolve(raw, "main", tag="equality")
        objtype, data = "body", ()
        if kind in ("connect", "weld"):
            if e.has("site1") or e.has("site2"):
                objtype = "site"
                o1, o2 = lookup(c, e, "site", "site1"), lookup(c, e, "site", "site2")
            else:
                o1 = lookup(c, e, "body", "body1")
                o2 = lookup(c, e, "body", "body2", required=False)
                o2 = 0 if o2 == -1 else o2             # the world by default
            if kind == "connect":
                data = tuple(e.floats("anchor", 3, default=np.zeros(3)) if objtype == "body" else ())
                if objtype == "body" and not e.has("anchor"):
                    raise e.error("a connect constraint between bodies needs anchor", "anchor")
            else:
                data = tuple(np.concatenate([e.floats("anchor", 3, default=np.zeros(3)),
                                             e.floats("relpose", 7, default=[0, 0, 0, 1, 0, 0, 0]),
                                             [e.float("torquescale", 1.0)]]))
        else:
            o1 = lookup(c, e, kind, f"{kind}1")
            o2 = lookup(c, e, kind, f"{kind}2", required=False)
            data = tuple(_poly(e))
        out.append(Equality(name=e.get("name", ""), type=kind, obj1=o1, obj2=o2,
                            active=e.bool("active", True),
                            solref=tuple(e.floats("solref", 2, default=[0.02, 1.0])),
                            solimp=tuple(e.floats("solimp", 5, default=[0.9, 0.95, 0.001, 0.5, 2.0])),
                            data=data, objtype=objtype))
    return out


def _poly(e):
    v = np.array([0.0, 1.0, 0.0, 0.0, 0.0])
    if e.has("polycoef"):
        given = e.floats("polycoef")
        if len(given) > 5:
            raise e.error("polycoef takes at most 5 numbers", "polycoef")
        v[:len(given)] = given
    return [float(x) for x in v]


def _tendons(c):
    """Fixed tendons (joints and coefficients) and spatial tendons (a path of sites, wrapping
    geoms and pulleys), in document order as MuJoCo numbers them."""
    out = []
    for raw in _sections(c, "tendon"):
        if raw.tag not in ("fixed", "spatial"):
            raise raw.error(f"<{raw.tag}> tendons are not supported")
        check_attributes(raw)
        t = c.defaults.resolve(raw, "main", tag="tendon")
        limited, rng = read_limited(c, t, "limited", "range")
        sl = t.floats("springlength", at_least=1) if t.has("springlength") else np.array([-1.0, -1.0])
        common = dict(name=t.get("name", ""), limited=limited, range=rng,
                      stiffness=t.float("stiffness", 0.0), damping=t.float("damping", 0.0),
                      frictionloss=t.float("frictionloss", 0.0), armature=t.float("armature", 0.0),
                      springlength=tuple(float(x) for x in np.resize(sl, 2)),   # one number: both
                      margin=t.float("margin", 0.0))
        if raw.tag == "fixed":
            joints, coefs = [], []
            for j in raw.children:
                if j.tag != "joint":
                    raise j.error(f"<{j.tag}> cannot be inside a fixed tendon")
                check_attributes(j, "tendon_joint")
                joints.append(lookup(c, j, "joint", "joint"))
                if not j.has("coef"):
                    raise j.error("<joint> in a fixed tendon needs coef", "coef")
                coefs.append(j.float("coef"))
            if not joints:
                raise raw.error("a fixed tendon needs at least one joint")
            out.append(FixedTendon(joints=tuple(joints), coefs=tuple(coefs), **common))
        else:
            out.append(SpatialTendon(path=tuple(_spatial_path(c, raw)), **common))
    return out


def _spatial_path(c, raw):
    path = []
    for w in raw.children:
        if w.tag not in ("site", "geom", "pulley"):
            raise w.error(f"<{w.tag}> cannot be inside a spatial tendon")
        check_attributes(w, "tendon_" + w.tag)
        if w.tag == "site":
            path.append(("site", lookup(c, w, "site", "site"), 0.0))
        elif w.tag == "geom":
            g = lookup(c, w, "geom", "geom")
            kind = {2: "sphere", 5: "cylinder"}.get(c.spec.geoms[g]["type"])
            if kind is None:
                raise w.error("a tendon can only wrap around a sphere or a cylinder", "geom")
            path.append((kind, g, float(lookup(c, w, "site", "sidesite", required=False))))
        else:
            divisor = w.float("divisor", None)
            if divisor is None or divisor <= 0:
                raise w.error("a pulley needs a positive divisor", "divisor")
            path.append(("pulley", -1, divisor))
    sites = [p for p in path if p[0] == "site"]
    if len(sites) < 2 or path[0][0] != "site" or path[-1][0] != "site":
        raise raw.error("a spatial tendon must start and end at a site (at least two sites)")
    return path


def _keyframes(c, nu, na):
    out = []
    nq = sum({"free": 7, "ball": 4}.get(_jtype(j), 1) for j in c.spec.joints)
    nv = sum({"free": 6, "ball": 3}.get(_jtype(j), 1) for j in c.spec.joints)
    qpos0 = None
    for raw in _sections(c, "keyframe"):
        if raw.tag != "key":
            raise raw.error(f"<{raw.tag}> is not supported inside <keyframe>")
        check_attributes(raw)
        if qpos0 is None:
            qpos0 = c.spec.compile().qpos0
        fields = {}
        for name, n, default in (("qpos", nq, qpos0), ("qvel", nv, np.zeros(nv)), ("act", na, np.zeros(na)),
                                 ("ctrl", nu, np.zeros(nu))):
            v = raw.floats(name, default=default) if raw.has(name) else np.array(default, dtype=float)
            if len(v) != n:
                raise raw.error(f"{name} needs {n} numbers, got {len(v)}", name)
            fields[name] = v
        # quaternions of ball and free joints are normalized, as MuJoCo does
        adr = 0
        for j in c.spec.joints:
            kind = _jtype(j)
            if kind in ("ball", "free"):
                k = adr + (3 if kind == "free" else 0)
                norm = np.linalg.norm(fields["qpos"][k:k + 4])
                if norm < 1e-15:
                    raise raw.error("a quaternion in qpos has zero length", "qpos")
                fields["qpos"][k:k + 4] /= norm
            adr += {"free": 7, "ball": 4}.get(kind, 1)
        nmocap = int(np.sum(c.mocap))
        mpos = raw.floats("mpos") if raw.has("mpos") else np.zeros(3 * nmocap)
        mquat = raw.floats("mquat") if raw.has("mquat") else np.tile([1.0, 0, 0, 0], nmocap)
        out.append(Keyframe(name=raw.get("name", ""), time=raw.float("time", 0.0), mpos=mpos,
                            mquat=mquat, **fields))
    # <size nkey="n"> asks for at least n keyframes: the missing ones hold the defaults
    nkey = max([s.int("nkey", 0) for s in c.root.children if s.tag == "size"] + [0])
    if len(out) < nkey:
        qpos0 = c.spec.compile().qpos0 if qpos0 is None else qpos0
        nmocap = int(np.sum(c.mocap))
        out += [Keyframe(name="", time=0.0, qpos=np.array(qpos0, dtype=float), qvel=np.zeros(nv),
                         act=np.zeros(na), ctrl=np.zeros(nu), mpos=np.zeros(3 * nmocap),
                         mquat=np.tile([1.0, 0, 0, 0], nmocap)) for _ in range(nkey - len(out))]
    return out


def _jtype(j):
    from ..model import JOINT_NAMES
    return JOINT_NAMES[j["type"]]
