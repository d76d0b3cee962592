"""The MJCF compiler: a MuJoCo XML file becomes a :class:`~rbdl_edu.model.Model` (book chapter
on models).

The steps, as MuJoCo's own compiler takes them:

1. parse safely (:mod:`~rbdl_edu.io.xmlread`), splice in ``<include>`` files, read the
   ``<default>`` classes and the ``<compiler>`` settings (:mod:`~rbdl_edu.io.mjcf_defaults`);
2. walk ``<worldbody>`` depth first, so bodies get ids in document order
   (``body_parentid[i] < i``); each body's joints, geoms and sites are read before its
   children;
3. give each body its mass and inertia, from ``<inertial>`` or inferred from its geoms
   (:mod:`~rbdl_edu.io.inertia`), then apply ``boundmass``/``boundinertia``/
   ``balanceinertia`` and ``settotalmass``;
4. keep actuators, sensors, contact pairs, equalities, tendons and keyframes as typed
   records (:mod:`~rbdl_edu.io.mjcf_extras`);
5. let :meth:`~rbdl_edu.spec.ModelSpec.compile` compute every address.

Anything the compiler cannot honour raises :class:`~rbdl_edu.io.errors.ModelError` naming
the file, line, element and attribute.

>>> model = load_mjcf('''<mujoco><worldbody><body pos="0 0 1">
...   <joint name="hinge" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0 0 -1" size="0.05"/>
... </body></worldbody></mujoco>''')
>>> model.jnt_names, round(float(model.body_mass[1]), 6)
(('hinge',), 8.37758)
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..rotation import quat_mul, quat_to_mat
from ..spec import ModelSpec
from . import mjcf_extras
from .errors import ModelError
from .inertia import MINVAL, combine, eig3, geom_mass_inertia
from .mjcf_defaults import IGNORED, SCHEMA, Defaults, check_attributes, expand_includes
from .mjcf_mesh import load_meshes
from .orientation import check_eulerseq, read_orientation, z_to_quat
from .xmlread import Node, degrees_to_radians, is_xml_text, parse_xml, read_file

MJEPS = 1e-14               # MuJoCo's mjEPS: geoms lighter than this add no mass
GEOM_TYPES = ("plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh")
# how many size numbers each geom type needs (they must be positive)
SIZE_NEEDED = {"sphere": 1, "capsule": 2, "cylinder": 2, "ellipsoid": 3, "box": 3}
TOP_LEVEL = {"compiler", "option", "size", "default", "asset", "worldbody", "actuator", "sensor",
             "contact", "equality", "tendon", "keyframe"} | IGNORED
# MuJoCo's option flags: those that are on by default can be disabled, the others enabled
DISABLE_FLAGS = {"constraint", "equality", "frictionloss", "limit", "contact", "spring", "damper",
                 "gravity", "clampctrl", "warmstart", "filterparent", "actuation", "refsafe",
                 "sensor", "midphase", "eulerdamp", "autoreset", "nativeccd", "passive"}
ENABLE_FLAGS = {"override", "energy", "fwdinv", "invdiscrete", "multiccd", "island", "sleep"}


@dataclass
class CompilerSettings:
    """The ``<compiler>`` attributes that change the compiled model."""
    degrees: bool = True                 # angle="degree" (MJCF's default)
    eulerseq: str = "xyz"
    inertiafromgeom: str = "auto"        # "true", "false", "auto": only bodies without <inertial>
    inertiagrouprange: tuple = (0, 5)    # geom groups that count for inertia
    autolimits: bool = True              # a range given means limited="true"
    boundmass: float = 0.0
    boundinertia: float = 0.0
    balanceinertia: bool = False
    settotalmass: float = -1.0
    meshdir: str = ""
    assetdir: str = ""


def load_mjcf(source, file=None):
    """Compile an MJCF model from a file path or from XML text.

    Parameters
    ----------
    source : str or os.PathLike
        A path to a ``.xml`` file, or the XML text itself (anything starting with ``<``).
    file : str, optional
        A name for error messages when ``source`` is text.

    Returns
    -------
    Model

    Raises
    ------
    ModelError
        For anything that cannot be loaded, with file, line, element and attribute.

    >>> load_mjcf('<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>').nq
    7
    """
    if is_xml_text(source):
        text, base = source, os.getcwd()
    else:
        file = os.fspath(source)
        text, base = read_file(file), os.path.dirname(os.path.abspath(file))
    root = parse_xml(text, file)
    if root.tag != "mujoco":
        raise root.error(f"the root element must be <mujoco>, not <{root.tag}>")
    expand_includes(root, base)
    return MJCFCompiler(root, base).compile()


class MJCFCompiler:
    """Turns a parsed ``<mujoco>`` tree into a :class:`~rbdl_edu.spec.ModelSpec`, then a Model."""

    def __init__(self, root: Node, base_dir: str):
        self.root, self.base_dir = root, base_dir
        check_attributes(root)
        for child in root.children:
            if child.tag not in TOP_LEVEL:
                raise child.error(f"<{child.tag}> is not supported")
        self.settings = self._read_compiler()
        self.defaults = Defaults(root)
        self.spec = ModelSpec(**self._read_option())
        self.meshes, self.mesh_id = load_meshes(self)
        self.names = {"body": {"world": 0}, "joint": {}, "geom": {}, "site": {}}
        self.body_mass_nodes = {}          # body id -> its element (for error messages)
        self.body_has_joint = [False]
        self.gravcomp, self.mocap = [0.0], [False]

    # -- <compiler> and <option> ---------------------------------------------------------------
    def _sections(self, tag):
        return [c for c in self.root.children if c.tag == tag]

    def _read_compiler(self):
        s = CompilerSettings()
        for node in self._sections("compiler"):
            check_attributes(node)
            if node.children:
                raise node.children[0].error(f"<{node.children[0].tag}> inside <compiler> is not supported")
            s.degrees = node.keyword("angle", ("degree", "radian"), "degree" if s.degrees else "radian") == "degree"
            if node.has("eulerseq"):
                s.eulerseq = check_eulerseq(node, node.get("eulerseq"))
            s.inertiafromgeom = node.keyword("inertiafromgeom", ("true", "false", "auto"), s.inertiafromgeom)
            if node.has("inertiagrouprange"):
                s.inertiagrouprange = tuple(int(v) for v in node.floats("inertiagrouprange", 2))
            s.autolimits = node.bool("autolimits", s.autolimits)
            s.boundmass = node.float("boundmass", s.boundmass)
            s.boundinertia = node.float("boundinertia", s.boundinertia)
            s.balanceinertia = node.bool("balanceinertia", s.balanceinertia)
            s.settotalmass = node.float("settotalmass", s.settotalmass)
            s.meshdir = node.get("meshdir", s.meshdir)
            s.assetdir = node.get("assetdir", s.assetdir)
            if node.keyword("coordinate", ("local", "global"), "local") == "global":
                raise node.error("global coordinates are not supported (nor by MuJoCo >= 2.3.3)",
                                 "coordinate")
            # settings that would change the tree or its inertias in ways not reproduced here
            for flag in ("fusestatic", "discardvisual", "alignfree"):
                if node.bool(flag, False):
                    raise node.error(f'{flag}="true" is not supported', flag)
        return s

    def _read_option(self):
        opt = dict(gravity=np.array([0.0, 0.0, -9.81]), timestep=0.002)
        disabled, enabled, more = set(), set(), {}
        for node in self._sections("option"):
            check_attributes(node)
            for key in ("timestep", "impratio", "tolerance", "density", "viscosity", "o_margin"):
                if node.has(key):
                    opt[key] = node.float(key)
            for key in ("iterations", "ls_iterations", "noslip_iterations"):
                if node.has(key):
                    opt[key] = node.int(key)
            for key in ("gravity", "wind"):
                if node.has(key):
                    opt[key] = node.floats(key, 3)
            if node.has("timestep") and opt["timestep"] <= 0:
                raise node.error("timestep must be positive", "timestep")
            opt["integrator"] = node.keyword("integrator", ("Euler", "RK4", "implicit", "implicitfast"),
                                             opt.get("integrator", "Euler"))
            opt["cone"] = node.keyword("cone", ("pyramidal", "elliptic"), opt.get("cone", "pyramidal"))
            opt["solver"] = node.keyword("solver", ("PGS", "CG", "Newton"), opt.get("solver", "Newton"))
            more["jacobian"] = node.keyword("jacobian", ("dense", "sparse", "auto"), more.get("jacobian", "auto"))
            for key, n in (("magnetic", 3), ("o_solref", 2), ("o_solimp", 5), ("o_friction", 5)):
                if node.has(key):
                    more[key] = node.floats(key, n)
            for key in ("ls_tolerance", "noslip_tolerance", "ccd_tolerance"):
                if node.has(key):
                    more[key] = node.float(key)
            for flag in node.children:
                if flag.tag != "flag":
                    raise flag.error(f"<{flag.tag}> inside <option> is not supported")
                check_attributes(flag)
                for name in flag.attrib:
                    value = flag.keyword(name, ("enable", "disable"))
                    if name in DISABLE_FLAGS:
                        (disabled.add if value == "disable" else disabled.discard)(name)
                    else:
                        (enabled.add if value == "enable" else enabled.discard)(name)
        opt["disableflags"], opt["enableflags"] = frozenset(disabled), frozenset(enabled)
        self.option_more = more
        return opt

    # -- helpers ---------------------------------------------------------------------------------
    def angle(self, x):
        """An MJCF angle in radians (degrees unless ``angle="radian"``)."""
        return degrees_to_radians(x) if self.settings.degrees else np.asarray(x, dtype=float)

    def orientation(self, node):
        return read_orientation(node, self.settings.degrees, self.settings.eulerseq)

    def vector(self, raw, cls, name, base):
        """A vector attribute that may be given partly (``friction="1"``): the values fill
        ``base`` from the front: first each default class's (outermost first), then the
        element's own."""
        v = np.array(base, dtype=float)
        for attrib in self.defaults.chain(cls, raw.tag) + [raw.attrib]:
            if name in attrib:
                vals = Node(raw.tag, {name: attrib[name]}, raw.file, raw.line).floats(name)
                if len(vals) > len(v):
                    raise raw.error(f"{name} takes at most {len(v)} numbers, got {len(vals)}", name)
                v[:len(vals)] = vals
        return v

    def unique_name(self, kind, node):
        """The element's name (None if it has none); a repeated name is an error."""
        name = node.get("name")
        if name and name in self.names[kind]:
            raise node.error(f"repeated {kind} name {name!r}", "name")
        return name or None

    def contents(self, node, cls, fpos, fquat):
        """The children of a body in document order, looking through ``<frame>`` elements:
        yields ``(child, class, pos, quat)`` where ``pos, quat`` is the frame the child's own
        pose is written in (relative to the body)."""
        for child in node.children:
            if child.tag == "frame":
                check_attributes(child)
                sub_cls = self.defaults.check_class(child) or cls
                pos = fpos + quat_to_mat(fquat) @ child.floats("pos", 3, default=np.zeros(3))
                quat = quat_mul(fquat, self.orientation(child))
                yield from self.contents(child, sub_cls, pos, quat)
            elif child.tag in ("camera", "light"):
                continue
            elif child.tag in ("body", "joint", "freejoint", "geom", "site", "inertial"):
                if child.tag in ("joint", "freejoint", "inertial") and child.parent is not node:
                    raise child.error(f"<{child.tag}> cannot be inside a <frame>")
                yield child, cls, fpos, fquat
            else:
                raise child.error(f"<{child.tag}> is not supported inside <{node.tag}>")

    # -- the tree --------------------------------------------------------------------------------
    def compile(self):
        worlds = self._sections("worldbody")
        for w in worlds:
            if w.attrib:
                raise w.error(f"unknown attribute {next(iter(w.attrib))!r} for <worldbody>")
        items = [it for w in worlds for it in self.contents(w, "main", np.zeros(3), np.array([1.0, 0, 0, 0]))]
        for child, cls, fpos, fquat in items:
            if child.tag in ("joint", "freejoint", "inertial"):
                raise child.error(f"<{child.tag}> cannot be in <worldbody>")
        self._add_geoms_and_sites(0, items)
        for child, cls, fpos, fquat in items:
            if child.tag == "body":
                self._add_body(child, 0, cls, fpos, fquat)
        self._check_moving_bodies()
        self._set_total_mass()
        self.spec.extras.update(mjcf_extras.read_extras(self))
        try:
            return self.spec.compile()
        except ValueError as e:                      # should not happen: checked above
            raise ModelError(str(e), self.root.file) from None

    def _add_body(self, node, parent, cls, fpos, fquat):
        check_attributes(node)
        cls = self.defaults.check_class(node) or cls
        pos = fpos + quat_to_mat(fquat) @ node.floats("pos", 3, default=np.zeros(3))
        quat = quat_mul(fquat, self.orientation(node))
        items = list(self.contents(node, cls, np.zeros(3), np.array([1.0, 0, 0, 0])))
        geoms = [self._read_geom(c, k, fp, fq) for c, k, fp, fq in items if c.tag == "geom"]
        mass, ipos, iquat, inertia = self._body_inertia(node, pos, quat, items, geoms)
        name = self.unique_name("body", node)
        bid = self.spec.add_body(parent, name, pos, quat, mass, ipos, iquat, inertia)
        self.names["body"][name or f"#{bid}"] = bid
        self.body_mass_nodes[bid] = node
        self.gravcomp.append(node.float("gravcomp", 0.0))
        self.mocap.append(node.bool("mocap", False))
        if self.mocap[-1] and parent != 0:
            raise node.error("a mocap body must be a child of the world", "mocap")
        njnt = 0
        for child, k, _, _ in items:
            if child.tag in ("joint", "freejoint"):
                self._add_joint(child, k, bid, parent)
                njnt += 1
        if njnt and self.mocap[-1]:
            raise node.error("a mocap body cannot have joints", "mocap")
        self.body_has_joint.append(njnt > 0)
        for g in geoms:
            self._add_geom(bid, g)
        self._add_geoms_and_sites(bid, items, geoms_done=True)
        for child, k, fp, fq in items:
            if child.tag == "body":
                self._add_body(child, bid, k, fp, fq)

    def _add_geoms_and_sites(self, bid, items, geoms_done=False):
        for child, cls, fpos, fquat in items:
            if child.tag == "geom" and not geoms_done:
                self._add_geom(bid, self._read_geom(child, cls, fpos, fquat))
            elif child.tag == "site":
                self._add_site(bid, child, cls, fpos, fquat)

    # -- joints ----------------------------------------------------------------------------------
    def _add_joint(self, raw, cls, bid, parent):
        if raw.tag == "freejoint":
            check_attributes(raw)
            j = Node("joint", {"type": "free", **{k: v for k, v in raw.attrib.items() if k == "name"}},
                     raw.file, raw.line)
            if raw.get("align", "auto") == "true":
                raise raw.error('align="true" is not supported', "align")
        else:
            check_attributes(raw)
            j = self.defaults.resolve(raw, cls)
        kind = j.keyword("type", ("hinge", "slide", "ball", "free"), "hinge")
        if kind == "free" and parent != 0:
            raise raw.error("a free joint is only supported on a child of the world", "type")
        angular = kind in ("hinge", "ball")
        rng = j.floats("range", 2, default=[0.0, 0.0])
        limited = j.tristate("limited")
        if limited == "auto":
            if "range" in j.attrib and not self.settings.autolimits:
                raise j.error('range given but not limited: set limited, or <compiler autolimits="true"/>',
                              "range")
            limited = "true" if ("range" in j.attrib and kind != "free") else "false"
        limited = limited == "true"
        if angular:
            rng = self.angle(rng)
        if limited and kind != "ball" and not rng[0] < rng[1]:
            raise j.error("range[0] must be smaller than range[1]", "range")
        if limited and kind == "ball" and not (rng[0] == 0 and rng[1] > 0):
            raise j.error("a ball joint range must be 0 and a positive angle", "range")
        if j.has("springdamper") and np.any(j.floats("springdamper", 2) != 0):
            raise j.error("springdamper is not supported; give stiffness and damping", "springdamper")
        axis = j.floats("axis", 3, default=[0.0, 0.0, 1.0])
        if np.linalg.norm(axis) < 1e-14:
            raise j.error("axis has zero length", "axis")
        ref = j.float("ref", 0.0)
        springref = j.float("springref", 0.0)
        if kind == "hinge":
            ref, springref = float(self.angle(ref)), float(self.angle(springref))
        values = {}
        for key in ("armature", "damping", "stiffness", "frictionloss"):
            values[key] = j.float(key, 0.0)
            if values[key] < 0:
                raise j.error(f"{key} must not be negative", key)
        name = self.unique_name("joint", j)
        self.spec.add_joint(bid, kind, name, axis=axis if kind in ("hinge", "slide") else [0.0, 0.0, 1.0],
                            pos=j.floats("pos", 3, default=np.zeros(3)), ref=ref, range=rng,
                            limited=limited, springref=springref, **values)
        self.names["joint"][name or f"#{len(self.spec.joints) - 1}"] = len(self.spec.joints) - 1

    # -- geoms -----------------------------------------------------------------------------------
    def _read_geom(self, raw, cls, fpos, fquat):
        """A geom's spec fields and its mass part ``(mass, pos, quat, inertia)``, all in the
        body frame."""
        check_attributes(raw)
        g = self.defaults.resolve(raw, cls)
        kind = g.keyword("type", GEOM_TYPES, "sphere")
        geom_cls = raw.get("class", cls)
        size = self.vector(raw, geom_cls, "size", np.zeros(3))
        pos = g.floats("pos", 3, default=np.zeros(3))
        quat = self.orientation(g)
        if g.has("fromto"):
            pos, quat, size = self._fromto(g, kind, size)
        dataid = -1
        if kind == "hfield":
            raise g.error("height fields are not supported", "type")
        if kind == "mesh":
            mesh_name = g.get("mesh")
            if mesh_name not in self.mesh_id:
                raise g.error(f"unknown mesh {mesh_name!r}", "mesh")
            dataid = self.mesh_id[mesh_name]
            mesh = self.meshes[dataid]
            # MuJoCo moves a mesh geom's frame to the mesh's principal frame
            pos = pos + quat_to_mat(quat) @ mesh.pos
            quat = quat_mul(quat, mesh.quat)
            size = np.abs(mesh.vert).max(0) if len(mesh.vert) else np.zeros(3)
        elif g.has("mesh"):
            raise g.error(f"mesh given for a geom of type {kind!r}", "mesh")
        for k in range(SIZE_NEEDED.get(kind, 0)):
            if not size[k] > 0:
                raise g.error(f"size[{k}] of a {kind} must be positive", "size")
        pos = fpos + quat_to_mat(fquat) @ pos
        quat = quat_mul(fquat, quat)
        if g.bool("shellinertia", False):
            raise g.error('shellinertia="true" is not supported', "shellinertia")
        density = g.float("density", 1000.0)
        mass = g.float("mass", None)
        if (mass is not None and mass < 0) or density < 0:
            raise g.error("mass and density must not be negative", "mass" if mass is not None else "density")
        if kind == "mesh":
            m = mass if mass is not None else density * mesh.volume
            inertia = m / mesh.volume * mesh.inertia if mesh.volume > MINVAL else np.zeros(3)
        else:
            m, inertia = geom_mass_inertia(kind, size, density, mass)
        condim = g.int("condim", 3)
        if condim not in (1, 3, 4, 6):
            raise g.error("condim must be 1, 3, 4 or 6", "condim")
        spec = dict(type=kind, size=size, name=g.get("name"), pos=pos, quat=quat,
                    rgba=g.floats("rgba", 4, default=[0.5, 0.5, 0.5, 1.0]),
                    contype=g.int("contype", 1), conaffinity=g.int("conaffinity", 1), condim=condim,
                    priority=g.int("priority", 0),
                    friction=self.vector(raw, geom_cls, "friction", [1.0, 0.005, 0.0001]),
                    solmix=g.float("solmix", 1.0),
                    solref=self.vector(raw, geom_cls, "solref", [0.02, 1.0]),
                    solimp=self.vector(raw, geom_cls, "solimp", [0.9, 0.95, 0.001, 0.5, 2.0]),
                    margin=g.float("margin", 0.0), gap=g.float("gap", 0.0), dataid=dataid)
        group = g.int("group", 0)
        lo, hi = self.settings.inertiagrouprange
        part = (m, pos, quat, inertia) if lo <= group <= hi and m > MJEPS else None
        return dict(node=g, spec=spec, part=part)

    def _fromto(self, g, kind, size):
        """``fromto="x1 y1 z1 x2 y2 z2"``: the geom's center is the midpoint, its z axis points
        from the first point to the second, and its half-length is half the distance."""
        if kind not in ("capsule", "cylinder", "box", "ellipsoid"):
            raise g.error(f"fromto cannot be used with a {kind}", "fromto")
        v = g.floats("fromto", 6)
        d = v[:3] - v[3:]      # MuJoCo points the z axis from "to" back to "from"
        length = np.linalg.norm(d)
        if length < 1e-14:
            raise g.error("fromto points coincide", "fromto")
        size = size.copy()
        size[1 if kind in ("capsule", "cylinder") else 2] = length / 2
        return (v[:3] + v[3:]) / 2, z_to_quat(d / length), size

    def _add_geom(self, bid, g):
        spec = g["spec"]
        name = spec["name"]
        if name:
            if name in self.names["geom"]:
                raise g["node"].error(f"repeated geom name {name!r}", "name")
            self.names["geom"][name] = len(self.spec.geoms)
        self.spec.add_geom(bid, **spec)

    def _add_site(self, bid, raw, cls, fpos, fquat):
        check_attributes(raw)
        s = self.defaults.resolve(raw, cls)
        kind = s.keyword("type", ("sphere", "capsule", "ellipsoid", "cylinder", "box"), "sphere")
        size = self.vector(raw, raw.get("class", cls), "size", [0.005, 0.005, 0.005])
        pos, quat = s.floats("pos", 3, default=np.zeros(3)), self.orientation(s)
        if s.has("fromto"):
            pos, quat, size = self._fromto(s, kind, size)
        name = self.unique_name("site", s)
        if name:
            self.names["site"][name] = len(self.spec.sites)
        self.spec.add_site(bid, name, fpos + quat_to_mat(fquat) @ pos, quat_mul(fquat, quat), size)

    # -- mass and inertia ------------------------------------------------------------------------
    def _body_inertia(self, node, pos, quat, items, geoms):
        """``(mass, ipos, iquat, inertia)`` of a body, as MuJoCo's compiler sets them."""
        inertials = [c for c, _, _, _ in items if c.tag == "inertial"]
        if len(inertials) > 1:
            raise inertials[1].error("a body can have only one <inertial>")
        mass, ipos, iquat, inertia = 0.0, None, np.array([1.0, 0, 0, 0]), np.zeros(3)
        if inertials:
            mass, ipos, iquat, inertia = self._read_inertial(inertials[0])
        mode = self.settings.inertiafromgeom
        if mode == "true" or (mode == "auto" and not inertials):
            parts = [g["part"] for g in geoms if g["part"] is not None]
            if parts:
                mass, ipos, inertia, iquat = combine(parts)
        if ipos is None:
            # no inertial frame at all: MuJoCo copies the body frame into it (mass is zero)
            ipos, iquat = pos.copy(), quat.copy()
        if not (np.isfinite(mass) and np.all(np.isfinite(inertia)) and np.all(np.isfinite(ipos))):
            raise node.error("mass or inertia is not a finite number (sizes or densities too large)")
        s = self.settings
        mass = max(mass, s.boundmass)
        inertia = np.maximum(inertia, s.boundinertia)
        if mass < 0 or np.any(inertia < 0):
            raise node.error("mass and inertia cannot be negative")
        A, B, C = inertia
        if A + B < C or A + C < B or B + C < A:
            if not s.balanceinertia:
                where = inertials[0] if inertials else node
                raise where.error("inertia must satisfy A + B >= C (triangle inequality); "
                                  'use <compiler balanceinertia="true"/> to fix')
            inertia = np.full(3, inertia.sum() / 3)
        return mass, ipos, iquat, inertia

    def _read_inertial(self, node):
        check_attributes(node)
        if not node.has("pos"):
            raise node.error("<inertial> needs pos", "pos")
        if not node.has("mass"):
            raise node.error("<inertial> needs mass", "mass")
        mass = node.float("mass")
        if mass < 0:
            raise node.error("mass must not be negative", "mass")
        if node.has("fullinertia"):
            if node.has("diaginertia"):
                raise node.error("give diaginertia or fullinertia, not both", "fullinertia")
            if any(node.has(a) for a in ("quat", "axisangle", "euler", "xyaxes", "zaxis")):
                raise node.error("fullinertia and an orientation cannot both be given", "fullinertia")
            # "Ixx Iyy Izz Ixy Ixz Iyz" -> its principal moments and axes
            f = node.floats("fullinertia", 6)
            I = np.array([[f[0], f[3], f[4]], [f[3], f[1], f[5]], [f[4], f[5], f[2]]])
            if np.linalg.eigvalsh(I).min() < -1e-12 * max(1.0, abs(f[:3]).max()):
                raise node.error("fullinertia is not positive semi-definite", "fullinertia")
            inertia, iquat = eig3(I)
        else:
            if not node.has("diaginertia"):
                raise node.error("<inertial> needs diaginertia or fullinertia", "diaginertia")
            inertia, iquat = node.floats("diaginertia", 3), self.orientation(node)
        if np.any(inertia < 0):
            raise node.error("inertia must not be negative",
                             "fullinertia" if node.has("fullinertia") else "diaginertia")
        return mass, node.floats("pos", 3), iquat, np.asarray(inertia, dtype=float)

    def _check_moving_bodies(self):
        """MuJoCo's rule: a body with a joint needs mass and inertia (at least
        ``mjMINVAL``), or a jointless descendant (welded to it) that has them."""
        B = self.spec.bodies
        children = {i: [] for i in range(len(B))}
        for i in range(1, len(B)):
            children[B[i]["parent"]].append(i)

        def has_mass(i):
            if B[i]["mass"] >= MINVAL and np.all(np.asarray(B[i]["inertia"]) >= MINVAL):
                return True
            return any(has_mass(c) for c in children[i] if not self.body_has_joint[c])

        for i in range(1, len(B)):
            if self.body_has_joint[i] and not has_mass(i):
                raise self.body_mass_nodes[i].error(
                    "a body with a joint must have positive mass and inertia (give <inertial> or geoms)")

    def _set_total_mass(self):
        """``<compiler settotalmass>``: scale every mass and inertia so the masses add up to it."""
        target = self.settings.settotalmass
        if target <= 0:
            return
        total = sum(b["mass"] for b in self.spec.bodies[1:])
        scale = target / max(MINVAL, total)
        for b in self.spec.bodies[1:]:
            b["mass"] = b["mass"] * scale
            b["inertia"] = np.asarray(b["inertia"]) * scale
