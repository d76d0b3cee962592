"""The MJCF compiler: a MuJoCo XML file becomes a :class:`~rbdl_edu.model.Model` (book chapter
on models).

The steps, as MuJoCo's own compiler takes them:

1. parse safely (:mod:`~rbdl_edu.io.xmlread`), splice in ``<include>`` files, read the
   ``<default>`` classes and the ``<compiler>`` settings (:mod:`~rbdl_edu.io.mjcf_defaults`);
2. walk ``<worldbody>`` depth first, so bodies get ids in document order
   (``body_parentid[i] < i``); each body's joints (:mod:`~rbdl_edu.io.mjcf_joints`), geoms
   and sites (:mod:`~rbdl_edu.io.mjcf_geoms`) are read before its children;
3. give each body its mass and inertia, from ``<inertial>`` or inferred from its geoms
   (:mod:`~rbdl_edu.io.inertia`), then apply ``boundmass``/``boundinertia``/
   ``balanceinertia`` and ``settotalmass``;
4. add actuators, sensors, contact pairs, equalities, tendons and keyframes
   (:mod:`~rbdl_edu.io.mjcf_objects`);
5. let :meth:`~rbdl_edu.model.spec.ModelSpec.compile` compute every address.

What depends on the dynamics (a position actuator's ``dampratio`` becomes a damping from
the mass matrix at ``qpos0``; ``*_invweight0``, ``actuator_acc0``, ...) is computed
afterwards by :func:`rbdl_edu.setconst.set_const`, as MuJoCo's ``mj_setConst``, and the
actuator length ranges that ``<compiler><lengthrange>`` asks for (a muscle's, by default)
by simulating the model (:mod:`rbdl_edu.simulation.lengthrange`, MuJoCo's
``mj_setLengthRange``): the compiler imports no algorithm. :func:`rbdl_edu.load_model`
does all three.

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
from rbdl_edu.io.errors import ModelError, remember_sources
from rbdl_edu.io.mjcf_camera import add_camera, resolve_targets
from rbdl_edu.io.mjcf_defaults import IGNORED, Defaults, check_attributes, expand_includes
from rbdl_edu.io.mjcf_geoms import add_geom, add_site, read_geom
from rbdl_edu.io.mjcf_hfield import load_hfields
from rbdl_edu.io.mjcf_inertial import body_inertia, check_moving_bodies, set_total_mass
from rbdl_edu.io.mjcf_joints import add_joint
from rbdl_edu.io.mjcf_mesh import load_meshes
from rbdl_edu.io.mjcf_replicate import expand_replicates
from rbdl_edu.io.mjcf_settings import read_compiler, read_option, remember_lengthrange
from rbdl_edu.io.orientation import read_orientation
from rbdl_edu.io.xmlread import (FileAccess, Node, degrees_to_radians, is_xml_text, located, parse_xml,
                                 read_file)
from rbdl_edu.model.spec import ModelSpec
from rbdl_edu.rotation import quat_mul, quat_to_mat

#: MuJoCo features this project leaves out, refused by name (README, "MJCF support")
OUT_OF_SCOPE = {"extension": "plugins are out of scope", "plugin": "plugins are out of scope",
                "deformable": "flex deformables are out of scope", "flex": "flex deformables are out of scope",
                "flexcomp": "flex deformables are out of scope",
                "composite": "MuJoCo's composite objects are out of scope",
                "attach": "models composed from other files are out of scope",
                "model": "models composed from other files are out of scope"}
TOP_LEVEL = {"compiler", "option", "size", "default", "asset", "worldbody", "actuator", "sensor",
             "contact", "equality", "tendon", "keyframe"} | IGNORED


def read_mjcf(source, file=None, base_dir=None, allowed_dirs=()):
    """Read and compile an MJCF model from a file path or from XML text: the model before the
    constants that need its dynamics (:func:`rbdl_edu.setconst.set_const`) and before the
    actuator length ranges found by simulation (a muscle without ``lengthrange`` still has
    ``(0, 0)``: :func:`rbdl_edu.simulation.lengthrange.set_length_ranges`). Load models with
    :func:`rbdl_edu.load_model`, which does all of it.

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
        self.camera_targets = []                  # (camera, its node) with a target body
        self.base_dir = files.base_dir or ""      # (read files through self.files.resolve)
        check_attributes(root)
        for child in root.children:
            if child.tag not in TOP_LEVEL:
                why = f": {OUT_OF_SCOPE[child.tag]}" if child.tag in OUT_OF_SCOPE else ""
                raise child.error(f"<{child.tag}> is not supported{why}")
            if child.tag == "size":
                check_attributes(child)
        self.settings = read_compiler(self._sections("compiler"))
        expand_replicates(root, self.settings.degrees, self.settings.eulerseq)
        self.defaults = Defaults(root)
        self.spec = ModelSpec(**read_option(self._sections("option")), name=root.get("model", ""))
        self.materials = mjcf_objects.add_materials(self)
        self.meshes, self.mesh_id = load_meshes(self)
        self.hfield_id = load_hfields(self)
        self.names = {"body": {"world": 0}, "joint": {}, "geom": {}, "site": {}, "camera": {}}
        self.body_mass_nodes = {0: root}   # body id -> its element (for error messages)
        self.joint_nodes = []              # joint id -> its element
        self.actuator_nodes = []           # actuator id -> its element
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
            elif child.tag == "light":                            # visual only; no children
                if child.children:
                    raise child.children[0].error(f"<{child.children[0].tag}> cannot be inside <{child.tag}>")
                continue
            elif child.tag in ("body", "joint", "freejoint", "geom", "site", "camera", "inertial"):
                if child.tag in ("joint", "freejoint", "inertial") and child.parent is not node:
                    raise child.error(f"<{child.tag}> cannot be inside a <frame>")
                yield child, cls, fpos, fquat
            else:
                why = f": {OUT_OF_SCOPE[child.tag]}" if child.tag in OUT_OF_SCOPE else ""
                raise child.error(f"<{child.tag}> is not supported inside <{node.tag}>{why}")

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
        resolve_targets(self)
        set_total_mass(self)
        mjcf_objects.add_objects(self)
        with located(self.root):                     # should not happen: checked above
            model = self.spec.compile()
        remember_lengthrange(model, self.settings.lengthrange)
        return remember_sources(model, {"body": [self.body_mass_nodes[i] for i in range(model.nbody)],
                                        "joint": self.joint_nodes, "actuator": self.actuator_nodes})

    def _add_body(self, node, parent, cls, fpos, fquat):
        check_attributes(node)
        cls = self.defaults.check_class(node) or cls
        pos = fpos + quat_to_mat(fquat) @ node.floats("pos", 3, default=np.zeros(3))
        quat = quat_mul(fquat, self.orientation(node))
        items = list(self.contents(node, cls, np.zeros(3), np.array([1.0, 0, 0, 0])))
        geoms = [read_geom(self, c, k, fp, fq) for c, k, fp, fq in items if c.tag == "geom"]
        mass, ipos, iquat, inertia = body_inertia(self, node, pos, quat, items, geoms)
        name = self.unique_name("body", node)
        mocap = node.bool("mocap", False)
        if mocap and parent != 0:
            raise node.error("a mocap body must be a child of the world", "mocap")
        with located(node):
            bid = self.spec.add_body(parent, name, pos, quat, mass, ipos, iquat, inertia,
                                     gravcomp=node.float("gravcomp", 0.0), mocap=mocap,
                                     sleep=node.keyword("sleep", ("auto", "never", "allowed", "init"), "auto"))
        self.names["body"][name or f"#{bid}"] = bid
        self.body_mass_nodes[bid] = node
        joints = [(child, k) for child, k, _, _ in items if child.tag in ("joint", "freejoint")]
        njnt = len(joints)
        for child, k in joints:
            add_joint(self, child, k, bid, parent, alone=njnt == 1)
        if njnt and mocap:
            raise node.error("a mocap body cannot have joints", "mocap")
        self.body_has_joint.append(njnt > 0)
        for g in geoms:
            add_geom(self, bid, g)
        self._add_geoms_and_sites(bid, items, geoms_done=True)
        for child, k, fp, fq in items:
            if child.tag == "body":
                self._add_body(child, bid, k, fp, fq)

    def _add_geoms_and_sites(self, bid, items, geoms_done=False):
        for child, cls, fpos, fquat in items:
            if child.tag == "geom" and not geoms_done:
                add_geom(self, bid, read_geom(self, child, cls, fpos, fquat))
            elif child.tag == "site":
                add_site(self, bid, child, cls, fpos, fquat)
            elif child.tag == "camera":
                add_camera(self, bid, child, cls, fpos, fquat)

