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
4. add actuators, sensors, contact pairs, equalities, tendons and keyframes
   (:mod:`~rbdl_edu.io.mjcf_objects`);
5. let :meth:`~rbdl_edu.model.spec.ModelSpec.compile` compute every address.

What depends on the dynamics (a position actuator's ``dampratio`` becomes a damping from
the mass matrix at ``qpos0``; ``*_invweight0``, ``actuator_acc0``, ...) is computed
afterwards by :func:`rbdl_edu.setconst.set_const`, as MuJoCo's ``mj_setConst``: the
compiler imports no algorithm. :func:`rbdl_edu.load_model` does both.

Anything the compiler cannot honour raises :class:`~rbdl_edu.io.errors.ModelError` naming
the file, line, element and attribute.

>>> model = read_mjcf('''<mujoco><worldbody><body pos="0 0 1">
...   <joint name="hinge" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0 0 -1" size="0.05"/>
... </body></worldbody></mujoco>''')
>>> model.jnt_names, round(float(model.body_mass[1]), 6)
(('hinge',), 8.37758)
"""
from __future__ import annotations

import os
import sys

import numpy as np

from rbdl_edu.io import mjcf_objects
from rbdl_edu.io.added_mass import added_mass
from rbdl_edu.io.errors import ModelError, remember_sources
from rbdl_edu.io.inertia import geom_mass_inertia
from rbdl_edu.io.mjcf_actuators import read_limited
from rbdl_edu.io.mjcf_defaults import IGNORED, Defaults, check_attributes, expand_includes
from rbdl_edu.io.mjcf_hfield import hfield_geom, load_hfields
from rbdl_edu.io.mjcf_inertial import body_inertia, check_moving_bodies, set_total_mass
from rbdl_edu.io.mjcf_mesh import load_meshes
from rbdl_edu.io.mjcf_replicate import expand_replicates
from rbdl_edu.io.mjcf_settings import read_compiler, read_option
from rbdl_edu.io.orientation import read_orientation, z_to_quat
from rbdl_edu.io.xmlread import (FileAccess, Node, degrees_to_radians, is_xml_text, located, parse_xml,
                                 read_file)
from rbdl_edu.model import defaults as D
from rbdl_edu.model.defaults import SOLIMP, SOLREF
from rbdl_edu.model.enums import MINVAL, MJEPS
from rbdl_edu.model.spec import ModelSpec
from rbdl_edu.rotation import quat_mul, quat_to_mat

GEOM_TYPES = ("plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh")
# how many size numbers each geom type needs (they must be positive)
SIZE_NEEDED = {"sphere": 1, "capsule": 2, "cylinder": 2, "ellipsoid": 3, "box": 3}
TOP_LEVEL = {"compiler", "option", "size", "default", "asset", "worldbody", "actuator", "sensor",
             "contact", "equality", "tendon", "keyframe"} | IGNORED


def read_mjcf(source, file=None, base_dir=None, allowed_dirs=()):
    """Read and compile an MJCF model from a file path or from XML text: the model before the
    constants that need its dynamics (:func:`rbdl_edu.setconst.set_const`). Load models with
    :func:`rbdl_edu.load_model`, which does both.

    Parameters
    ----------
    source : str or os.PathLike
        A path to a ``.xml`` file, or the XML text itself (anything starting with ``<``).
    file : str, optional
        A name for error messages when ``source`` is text.
    base_dir : str or os.PathLike, optional
        The folder the files the model names (includes, meshes) are read from: the model
        file's folder by default; for XML text, no file is read unless it is given.
    allowed_dirs : sequence of paths, optional
        Other folders the model may read files from (a shared mesh folder, say). Files
        anywhere else (absolute paths, ``../`` chains, symbolic links out) are refused.

    Returns
    -------
    Model

    Raises
    ------
    ModelError
        For anything that cannot be loaded, with file, line, element and attribute.

    >>> read_mjcf('<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>').nq
    7
    """
    if is_xml_text(source):
        text, base = source, base_dir
    else:
        file = os.fspath(source)
        text = read_file(file)
        base = base_dir if base_dir is not None else os.path.dirname(os.path.abspath(file))
    files = FileAccess(base, allowed_dirs)
    root = parse_xml(text, file)
    if root.tag != "mujoco":
        raise root.error(f"the root element must be <mujoco>, not <{root.tag}>")
    # the tree is walked recursively: allow deep chains (ropes), refuse absurd ones
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        expand_includes(root, files)
        # absurd numbers may overflow on the way; every inertia is checked to be finite
        with np.errstate(over="ignore", invalid="ignore"):
            return MJCFCompiler(root, files).compile()
    except RecursionError:
        raise ModelError("the model is nested too deeply", file) from None
    finally:
        sys.setrecursionlimit(limit)


class MJCFCompiler:
    """Turns a parsed ``<mujoco>`` tree into a :class:`~rbdl_edu.model.spec.ModelSpec`, then a Model."""

    def __init__(self, root: Node, files: FileAccess):
        self.root, self.files = root, files
        self.base_dir = files.base_dir or ""      # (read files through self.files.resolve)
        check_attributes(root)
        for child in root.children:
            if child.tag not in TOP_LEVEL:
                raise child.error(f"<{child.tag}> is not supported")
            if child.tag == "size":
                check_attributes(child)
        self.settings = read_compiler(self._sections("compiler"))
        expand_replicates(root, self.settings.degrees, self.settings.eulerseq)
        self.defaults = Defaults(root)
        self.spec = ModelSpec(**read_option(self._sections("option")), name=root.get("model", ""))
        self.materials = mjcf_objects.add_materials(self)
        self.meshes, self.mesh_id = load_meshes(self)
        self.hfield_id = load_hfields(self)
        self.names = {"body": {"world": 0}, "joint": {}, "geom": {}, "site": {}}
        self.body_mass_nodes = {0: root}   # body id -> its element (for error messages)
        self.joint_nodes = []              # joint id -> its element
        self.body_has_joint = [False]

    # -- helpers ---------------------------------------------------------------------------------
    def _sections(self, tag):
        """All top-level elements ``tag`` (MJCF allows several, e.g. from includes)."""
        return [c for c in self.root.children if c.tag == tag]

    def angle(self, x):
        """An MJCF angle in radians (degrees unless ``angle="radian"``)."""
        return degrees_to_radians(x) if self.settings.degrees else np.asarray(x, dtype=float)

    def orientation(self, node):
        """The element's orientation as a unit quaternion (see :mod:`~rbdl_edu.io.orientation`)."""
        return read_orientation(node, self.settings.degrees, self.settings.eulerseq)

    def vector(self, raw, cls, name, base, tag=None):
        """A vector attribute that may be given partly (``friction="1"``): the values fill
        ``base`` from the front: first each default class's (outermost first), then the
        element's own. ``tag`` is the element's name in ``<default>`` if it differs."""
        v = np.array(base, dtype=float)
        for attrib in self.defaults.chain(cls, tag or raw.tag) + [raw.attrib]:
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
            elif child.tag in ("camera", "light"):                # visual only; no children
                if child.children:
                    raise child.children[0].error(f"<{child.children[0].tag}> cannot be inside <{child.tag}>")
                continue
            elif child.tag in ("body", "joint", "freejoint", "geom", "site", "inertial"):
                if child.tag in ("joint", "freejoint", "inertial") and child.parent is not node:
                    raise child.error(f"<{child.tag}> cannot be inside a <frame>")
                yield child, cls, fpos, fquat
            else:
                raise child.error(f"<{child.tag}> is not supported inside <{node.tag}>")

    # -- the tree --------------------------------------------------------------------------------
    def compile(self):
        """The :class:`~rbdl_edu.model.Model`: the world's geoms and sites, then every body
        depth first, then the checks and the objects of :mod:`~rbdl_edu.io.mjcf_objects`."""
        worlds = self._sections("worldbody")
        for w in worlds:
            if w.attrib:
                raise w.error(f"unknown attribute {next(iter(w.attrib))!r} for <worldbody>")
        identity = np.array([1.0, 0, 0, 0])
        items = [it for w in worlds for it in self.contents(w, "main", np.zeros(3), identity)]
        for child, cls, fpos, fquat in items:
            if child.tag in ("joint", "freejoint", "inertial"):
                raise child.error(f"<{child.tag}> cannot be in <worldbody>")
        self._add_geoms_and_sites(0, items)
        for child, cls, fpos, fquat in items:
            if child.tag == "body":
                self._add_body(child, 0, cls, fpos, fquat)
        check_moving_bodies(self)
        set_total_mass(self)
        mjcf_objects.add_objects(self)
        with located(self.root):                     # should not happen: checked above
            model = self.spec.compile()
        return remember_sources(model, {"body": [self.body_mass_nodes[i] for i in range(model.nbody)],
                                        "joint": self.joint_nodes})

    def _add_body(self, node, parent, cls, fpos, fquat):
        check_attributes(node)
        cls = self.defaults.check_class(node) or cls
        pos = fpos + quat_to_mat(fquat) @ node.floats("pos", 3, default=np.zeros(3))
        quat = quat_mul(fquat, self.orientation(node))
        items = list(self.contents(node, cls, np.zeros(3), np.array([1.0, 0, 0, 0])))
        geoms = [self._read_geom(c, k, fp, fq) for c, k, fp, fq in items if c.tag == "geom"]
        mass, ipos, iquat, inertia = body_inertia(self, node, pos, quat, items, geoms)
        name = self.unique_name("body", node)
        mocap = node.bool("mocap", False)
        if mocap and parent != 0:
            raise node.error("a mocap body must be a child of the world", "mocap")
        with located(node):
            bid = self.spec.add_body(parent, name, pos, quat, mass, ipos, iquat, inertia,
                                     gravcomp=node.float("gravcomp", 0.0), mocap=mocap)
        self.names["body"][name or f"#{bid}"] = bid
        self.body_mass_nodes[bid] = node
        joints = [(child, k) for child, k, _, _ in items if child.tag in ("joint", "freejoint")]
        njnt = len(joints)
        for child, k in joints:
            self._add_joint(child, k, bid, parent, alone=njnt == 1)
        if njnt and mocap:
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
    def _add_joint(self, raw, cls, bid, parent, alone=True):
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
        if kind == "free" and not alone:
            raise raw.error("a free joint must be the only joint of its body",
                            "type" if raw.tag == "joint" else None)
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
        axis = j.floats("axis", 3, default=[0.0, 0.0, 1.0])
        if np.linalg.norm(axis) < 1e-14:
            raise j.error("axis has zero length", "axis")
        ref = j.float("ref", 0.0)
        springref = j.float("springref", 0.0)
        if kind == "hinge":
            ref, springref = float(self.angle(ref)), float(self.angle(springref))
        values = {}
        for key in ("armature", "frictionloss"):
            values[key] = j.float(key, 0.0)
            if values[key] < 0:
                raise j.error(f"{key} must not be negative", key)
        jcls = raw.get("class", cls)
        # a spring and a damper: a linear coefficient and two nonlinear ones (a <freejoint>
        # takes none of them from the defaults, as in MuJoCo)
        for key in ("stiffness", "damping"):
            values[key] = self.vector(raw, jcls, key, np.zeros(3)) if raw.tag == "joint" else np.zeros(3)
            if values[key][0] < 0:
                raise j.error(f"{key} must not be negative", key)
        if j.float("springyield", 0.0) != 0:
            raise j.error("springyield (an elasto-plastic spring) is not supported", "springyield")
        # springdamper = (time constant, damping ratio): set_const turns it into the
        # stiffness and damping of the joint's inertia at qpos0, as MuJoCo's compiler does
        values["springdamper"] = self.vector(raw, jcls, "springdamper", np.zeros(2)) \
            if raw.tag == "joint" else np.zeros(2)
        if np.any(values["springdamper"] != 0) and not np.all(values["springdamper"] > 0):
            raise j.error("springdamper needs a positive time constant and damping ratio", "springdamper")
        for key, attr, base in (("solref", "solreflimit", SOLREF), ("solimp", "solimplimit", SOLIMP),
                                ("solreffriction", "solreffriction", SOLREF),
                                ("solimpfriction", "solimpfriction", SOLIMP)):
            values[key] = self.vector(raw, jcls, attr, base)
        if kind in ("ball", "free"):
            # MuJoCo limits the actuator force only on scalar joints: it keeps a ball's or a
            # free joint's range but never applies it
            actfrclimited = False
            actfrcrange = tuple(float(x) for x in j.floats("actuatorfrcrange", 2, default=[0.0, 0.0]))
        else:
            actfrclimited, actfrcrange = read_limited(self, j, "actuatorfrclimited", "actuatorfrcrange")
        name = self.unique_name("joint", j)
        with located(raw):
            self.spec.add_joint(bid, kind, name, axis=axis if kind in ("hinge", "slide") else [0.0, 0.0, 1.0],
                                pos=j.floats("pos", 3, default=np.zeros(3)), ref=ref, range=rng,
                                limited=limited, springref=springref, margin=j.float("margin", 0.0),
                                group=j.int("group", 0), actfrclimited=actfrclimited,
                                actfrcrange=actfrcrange, actgravcomp=j.bool("actuatorgravcomp", False),
                                **values)
        self.names["joint"][name or f"#{len(self.spec.joints) - 1}"] = len(self.spec.joints) - 1
        self.joint_nodes.append(raw)

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
            dataid, size = hfield_geom(self, g)
        elif g.has("hfield"):
            raise g.error(f"hfield given for a geom of type {kind!r}", "hfield")
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
        else:                     # a height field weighs as the box of its geom size, as in MuJoCo
            m, inertia = geom_mass_inertia("box" if kind == "hfield" else kind, size, density, mass)
        condim = g.int("condim", D.GEOM_CONDIM)
        if condim not in (1, 3, 4, 6):
            raise g.error("condim must be 1, 3, 4 or 6", "condim")
        group = g.int("group", 0)
        spec = dict(type=kind, size=size, name=g.get("name"), pos=pos, quat=quat,
                    rgba=g.floats("rgba", 4, default=D.GEOM_RGBA),
                    contype=g.int("contype", D.GEOM_CONTYPE),
                    conaffinity=g.int("conaffinity", D.GEOM_CONAFFINITY), condim=condim,
                    priority=g.int("priority", 0),
                    friction=self.vector(raw, geom_cls, "friction", D.GEOM_FRICTION),
                    solmix=g.float("solmix", D.GEOM_SOLMIX),
                    solref=self.vector(raw, geom_cls, "solref", SOLREF),
                    solimp=self.vector(raw, geom_cls, "solimp", SOLIMP),
                    margin=g.float("margin", 0.0), gap=g.float("gap", 0.0), group=group,
                    mesh=dataid if kind == "mesh" else None, hfield=dataid if kind == "hfield" else None,
                    material=self.material(g), fluid=self._fluid(g, geom_cls, raw, kind, size))
        lo, hi = self.settings.inertiagrouprange
        part = (m, pos, quat, inertia) if lo <= group <= hi and m > MJEPS else None
        return dict(node=g, spec=spec, part=part)

    def material(self, node):
        """The id of the element's ``material`` (-1 if none); an unknown one is an error."""
        name = node.get("material")
        if name is None:
            return -1
        if name not in self.materials:
            raise node.error(f"unknown material {name!r}", "material")
        return self.materials[name]

    def _fluid(self, g, cls, raw, kind, size):
        """``geom_fluid``: ``fluidshape="ellipsoid"`` (1), ``fluidcoef`` (blunt drag, slender
        drag, angular drag, Kutta lift, Magnus lift), and the fluid's virtual mass and
        inertia per unit density (:func:`~rbdl_edu.io.added_mass.added_mass`)."""
        fluid = np.zeros(12)
        if g.keyword("fluidshape", ("none", "ellipsoid"), "none") == "ellipsoid":
            fluid[0] = 1.0
            fluid[1:6] = self.vector(raw, cls, "fluidcoef", [0.5, 0.25, 1.5, 1.0, 1.0])
            # a flat geom (a plane, a flat mesh) has no ellipsoid: NaN, as in MuJoCo, which
            # is harmless on the world and refused on a body (_add_geom)
            with np.errstate(divide="ignore", invalid="ignore"):
                fluid[6:9], fluid[9:12] = added_mass(kind, size)
        return fluid

    def _fromto(self, g, kind, size):
        """``fromto="x1 y1 z1 x2 y2 z2"``: the geom's center is the midpoint, its z axis points
        along the segment (from the second point to the first, as MuJoCo), its half-length is
        half the distance; a box or ellipsoid gets ``size[0]`` as both other half-sizes."""
        if kind not in ("capsule", "cylinder", "box", "ellipsoid"):
            raise g.error(f"fromto cannot be used with a {kind}", "fromto")
        if g.has("pos") and np.any(g.floats("pos", 3) != 0):
            raise g.error("give pos or fromto, not both", "fromto")
        v = g.floats("fromto", 6)
        d = v[:3] - v[3:]
        length = float(np.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]))
        if length / 2 < MJEPS:
            raise g.error("fromto points coincide", "fromto")
        size = size.copy()
        if kind in ("capsule", "cylinder"):
            size[1] = length / 2
        else:
            size[1], size[2] = size[0], length / 2
        return (v[:3] + v[3:]) / 2, z_to_quat(d / length), size

    def _add_geom(self, bid, g):
        spec = g["spec"]
        if bid and not np.all(np.isfinite(spec["fluid"])):
            raise g["node"].error(f"a flat {spec['type']} has no ellipsoid for the fluid model", "fluidshape")
        name = spec["name"]
        if name:
            if name in self.names["geom"]:
                raise g["node"].error(f"repeated geom name {name!r}", "name")
            self.names["geom"][name] = len(self.spec.geoms)
        with located(g["node"]):
            self.spec.add_geom(bid, **spec)

    def _add_site(self, bid, raw, cls, fpos, fquat):
        check_attributes(raw)
        s = self.defaults.resolve(raw, cls)
        kind = s.keyword("type", ("sphere", "capsule", "ellipsoid", "cylinder", "box"), "sphere")
        size = self.vector(raw, raw.get("class", cls), "size", D.SITE_SIZE)
        pos, quat = s.floats("pos", 3, default=np.zeros(3)), self.orientation(s)
        if s.has("fromto"):
            pos, quat, size = self._fromto(s, kind, size)
        name = self.unique_name("site", s)
        if name:
            self.names["site"][name] = len(self.spec.sites)
        with located(raw):
            self.spec.add_site(bid, name, fpos + quat_to_mat(fquat) @ pos, quat_mul(fquat, quat), size,
                               type=kind, group=s.int("group", 0), rgba=s.floats("rgba", 4, default=D.SITE_RGBA),
                               material=self.material(s))
