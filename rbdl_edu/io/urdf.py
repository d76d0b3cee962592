"""The URDF reader: a ROS robot description becomes a :class:`~rbdl_edu.model.Model`.

URDF describes a tree of ``<link>`` elements joined by ``<joint>`` elements. Each joint
places its child link in the parent link's frame (``<origin xyz rpy>``, roll-pitch-yaw
meaning :math:`R = R_z(y)\\,R_y(p)\\,R_x(r)`) and moves it about or along ``<axis>``
(given in the child's frame). So every link is a body whose ``body_pos``/``body_quat``
is its joint's origin, and the joint sits at the body origin:

=============== =====================================================================
``revolute``     hinge with ``<limit lower upper>`` (limited)
``continuous``   hinge without limits
``prismatic``    slide with limits
``fixed``        no joint: the child is welded to the parent
``floating``     free joint (only for a link hanging from the world)
``planar``       not supported (a clear :class:`ModelError`)
=============== =====================================================================

The root link (the one no joint names as child) is welded to the world, unless
``floating_base=True`` gives it a free joint; a root link named ``world`` *is* the world.
``<inertial>`` gives mass, center of mass and the inertia tensor in the ``<origin>``
frame; it is diagonalized into ``body_ipos``/``body_iquat``/``body_inertia``.
``<dynamics damping friction>`` become ``dof_damping``/``dof_frictionloss``.
``<collision>`` boxes, cylinders, spheres and meshes become (massless) geoms; a mesh's
``package://NAME/PATH`` is looked up in ``package_dirs=[...]`` and ``ROS_PACKAGE_PATH``, as
ROS and Pinocchio do (:mod:`rbdl_edu.io.urdf_mesh`). With ``fusestatic=True`` a link on a
fixed joint is merged into its parent, mass, inertia and geoms, as MuJoCo's URDF import
does (its ``<compiler fusestatic>``, on for URDF): the bodies are then MuJoCo's, and a
root link welded to the world is merged into the world. A ``<mimic>``
becomes a joint equality constraint ``q_joint = offset + multiplier * q_mimicked``, as
MuJoCo's URDF importer makes it (the rigid-body algorithms treat both joints as free, as
Pinocchio does by default; the constraint acts once the simulation has constraints).

What a ROS user would want to hear about rather than have ignored:

* a second ``<origin>``, ``<inertial>``, ``<mass>``, ``<parent>``, ``<axis>``, ``<limit>``,
  ... where URDF allows one is an error (ROS's parser silently keeps the first);
* ``<limit lower upper>`` with ``lower > upper`` is an error (``lower == upper`` means no
  limit, as before);
* an attribute of an element the dynamics reads that is one or two typing slips from one
  it has (``<dynamics dampng="1"/>``, ``<axis xzy>``) is an error: a typo there changes the physics; another
  unknown attribute (``<limit command_effort>``, a vendor's) gets a warning. Attributes
  with an XML namespace prefix (``xacro:``) pass;
* an unknown element inside ``<joint>``, ``<link>`` or ``<inertial>`` (``<dynamix>``) gets a
  warning, not an error: URDF is extended that way by simulators (Gazebo, PyBullet).

>>> model = read_urdf('''<robot name="r">
...   <link name="base"/>
...   <link name="arm"><inertial><mass value="2"/><origin xyz="0 0 0.5"/>
...     <inertia ixx="0.1" iyy="0.1" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
...   <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
...     <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
... </robot>''')
>>> model.jnt_names, model.body_names
(('shoulder',), ('world', 'base', 'arm'))
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np

from rbdl_edu.io.errors import remember_sources
from rbdl_edu.io.inertia import combine
from rbdl_edu.io.urdf_elements import check, child, ignored, inertial, origin, positive
from rbdl_edu.io.urdf_mesh import CollisionMeshes, package_folders
from rbdl_edu.io.xmlread import FileAccess, is_xml_text, located, parse_xml, read_file
from rbdl_edu.model.enums import MINVAL
from rbdl_edu.model.spec import ModelSpec
from rbdl_edu.rotation import quat_mul, quat_to_mat

JOINT_TYPES = {"revolute": "hinge", "continuous": "hinge", "prismatic": "slide", "fixed": None,
               "floating": "free", "planar": None}


def _check_moving_links(spec, links, joints, parent_of):
    """A link that moves on its own joint must carry something: it, or some link below it,
    needs a positive mass or inertia, else the mass matrix is singular. (Pinocchio accepts
    such models and its forward dynamics divides by zero. URDF often uses massless
    "virtual" links between the hinges of a multi-DOF joint; those are fine, so this is
    weaker than MuJoCo's rule for MJCF, which looks only at welded links.)"""
    B = spec.bodies
    moving = {j["body"] for j in spec.joints}
    # carries[i]: body i or a body below it has mass or inertia (children come after parents)
    carries = [B[i]["mass"] >= MINVAL or np.any(np.asarray(B[i]["inertia"]) >= MINVAL)
               for i in range(len(B))]
    for k in range(len(B) - 1, 0, -1):
        carries[B[k]["parent"]] = carries[B[k]["parent"]] or carries[k]
    for i in sorted(moving):
        if not carries[i]:
            name = B[i]["name"]
            node = joints[parent_of[name][1]] if name in parent_of else links[name]
            raise node.error(f"link {name!r} moves on this joint but neither it nor any link below it "
                             "has mass or inertia: the mass matrix would be singular")


def read_urdf(source, floating_base=False, file=None, base_dir=None, allowed_dirs=(), package_dirs=(),
              fusestatic=False):
    """Read and compile a URDF robot from a file path or XML text, before the constants that
    need its dynamics (:func:`rbdl_edu.setconst.set_const`); :func:`rbdl_edu.load_urdf` does both.

    Parameters
    ----------
    source : str or os.PathLike
        A ``.urdf`` path, or the XML text.
    floating_base : bool
        Give the root link a free joint (for legged robots, humanoids, drones).
    file : str, optional
        A name for error messages when ``source`` is text.
    base_dir, allowed_dirs : optional
        The folders mesh files may be read from besides the package folders, as for
        :func:`~rbdl_edu.io.mjcf.read_mjcf` (``base_dir``: the URDF's folder by default).
    package_dirs : list of folders, optional
        Where ``package://NAME/...`` is looked for (``DIR/NAME/...``), before the entries
        of ``ROS_PACKAGE_PATH``, as Pinocchio's ``buildGeomFromUrdf(..., package_dirs)`` and
        ``RobotWrapper.BuildFromURDF(path, package_dirs)``.
    fusestatic : bool
        Merge each link on a fixed joint into its parent, as MuJoCo's URDF import does
        (default False: such a link is a body of its own, welded to its parent).

    Returns
    -------
    Model

    Raises
    ------
    ModelError
        Malformed XML, unknown links, cycles, several roots, planar joints, bad numbers,
        negative masses or inertias that are not positive semi-definite, mesh files or
        packages not found.

    >>> model = read_urdf("models/arm2.urdf", floating_base=True)
    >>> model.nq, model.nv, model.jnt_names
    (9, 8, ('base_freejoint', 'shoulder', 'elbow'))
    """
    if is_xml_text(source):
        text = source
    else:
        file = os.fspath(source)
        text = read_file(file)
        if base_dir is None:
            base_dir = os.path.dirname(os.path.abspath(file))
    root = parse_xml(text, file)
    ignored.clear()
    if root.tag != "robot":
        raise root.error(f"the root element of a URDF must be <robot>, not <{root.tag}>")
    links = {}
    for node in root.children:
        if node.tag == "link":
            check(node)
            name = node.get("name")
            if not name:
                raise node.error("a link needs a name", "name")
            if name in links:
                raise node.error(f"repeated link name {name!r}", "name")
            links[name] = node
    if not links:
        raise root.error("a robot needs at least one <link>")
    for node in links.values():
        child(node, "inertial")                   # (at most one)
    joints, parent_of, children = {}, {}, {name: [] for name in links}
    for node in root.children:
        if node.tag != "joint":
            continue
        name = node.get("name")
        if not name or name in joints:
            raise node.error(f"a joint needs a unique name (got {name!r})", "name")
        kind = node.get("type")
        if kind not in JOINT_TYPES:
            raise node.error(f"unknown joint type {kind!r}; expected one of {sorted(JOINT_TYPES)}", "type")
        if kind == "planar":
            raise node.error("planar joints are not supported", "type")
        check(node)
        p = child(node, "parent", required=True).get("link")
        c = child(node, "child", required=True).get("link")
        for which, link in (("parent", p), ("child", c)):
            if link not in links:
                raise child(node, which).error(f"unknown link {link!r}", "link")
        if c in parent_of:
            raise node.error(f"link {c!r} has two parent joints", "name")
        joints[name] = node
        parent_of[c] = (p, name)
        children[p].append(c)
    roots = [n for n in links if n not in parent_of]
    if len(roots) != 1:
        raise root.error(f"a URDF needs exactly one root link, found {len(roots)}: {roots[:5]}")

    materials = {n.get("name"): n for n in root.children if n.tag == "material" and n.get("name")}
    spec = ModelSpec(name=root.get("name", ""))
    body_of = {}
    folders = package_folders(package_dirs)
    if isinstance(allowed_dirs, (str, os.PathLike)):
        allowed_dirs = (allowed_dirs,)
    meshes = CollisionMeshes(spec, FileAccess(base_dir, [*allowed_dirs, *folders]), folders)
    geoms, mimic = [], []                        # geoms: (body, keywords), added in body order
    body_nodes, joint_nodes = [root], []        # where each body and joint is written
    is_world = roots[0] == "world" and not floating_base

    def add_link(link, parent_body, joint_node, frame=(np.zeros(3), np.array([1.0, 0, 0, 0]))):
        """Add ``link`` under ``parent_body``, in which its parent link's frame is ``frame``."""
        node = links[link]
        mass, ipos, iquat, inertia = inertial(node)
        pos, quat = origin(joint_node) if joint_node is not None else (np.zeros(3), np.array([1.0, 0, 0, 0]))
        pos, quat = frame[0] + quat_to_mat(frame[1]) @ pos, quat_mul(frame[1], quat)
        welded = joint_node.get("type") == "fixed" if joint_node is not None else not floating_base
        if fusestatic and welded:                # merged into the parent body, at (pos, quat)
            bid, frame = parent_body, (pos, quat)
            if bid > 0:                          # (the world keeps no mass)
                b = spec.bodies[bid]
                m, c, I, q = combine([(b["mass"], b["ipos"], b["iquat"], b["inertia"]),
                                      (mass, pos + quat_to_mat(quat) @ ipos, quat_mul(quat, iquat), inertia)])
                b.update(mass=np.float64(m), ipos=c, iquat=q, inertia=np.maximum(I, 0.0))
        else:
            with located(node):
                bid = spec.add_body(parent_body, link, pos, quat, mass, ipos, iquat, inertia)
            frame = (np.zeros(3), np.array([1.0, 0, 0, 0]))
            body_nodes.append(node)
            if joint_node is None and floating_base:
                spec.add_joint(bid, "free", f"{link}_freejoint")
                joint_nodes.append(node)
            elif joint_node is not None:
                add_joint(joint_node, bid, parent_body)
        body_of[link] = bid
        add_geoms(node, bid, frame)
        for c in children[link]:
            add_link(c, bid, joints[parent_of[c][1]], frame)

    def add_joint(j, bid, parent_body):
        kind = JOINT_TYPES[j.get("type")]
        if kind is None:
            return
        if kind == "free":
            if parent_body != 0:
                raise j.error("a floating joint is only supported on a link hanging from the world", "type")
            spec.add_joint(bid, "free", j.get("name"))
            joint_nodes.append(j)
            return
        ax = child(j, "axis")
        axis = ax.floats("xyz", 3, default=[1.0, 0, 0]) if ax is not None else np.array([1.0, 0, 0])
        if np.linalg.norm(axis) < 1e-12:
            raise (ax or j).error("axis has zero length", "xyz")
        lim, limited, rng = child(j, "limit"), False, np.zeros(2)
        if j.get("type") in ("revolute", "prismatic"):
            if lim is None:
                raise j.error(f"a {j.get('type')} joint needs <limit>")
            rng = np.array([lim.float("lower", 0.0), lim.float("upper", 0.0)])
            if rng[0] > rng[1]:
                raise lim.error("lower is larger than upper", "lower")
            limited = bool(rng[0] < rng[1])          # (lower == upper: no limit)
        dyn = child(j, "dynamics")
        damping = dyn.float("damping", 0.0) if dyn is not None else 0.0
        friction = dyn.float("friction", 0.0) if dyn is not None else 0.0
        if damping < 0 or friction < 0:
            raise dyn.error("damping and friction must not be negative",
                            "damping" if damping < 0 else "friction")
        mim = child(j, "mimic")
        if mim is not None:
            mimic.append((mim, j.get("name"), mim.get("joint"), mim.float("offset", 0.0),
                          mim.float("multiplier", 1.0)))
        with located(j):
            spec.add_joint(bid, kind, j.get("name"), axis=axis, range=rng, limited=limited,
                           damping=damping, frictionloss=friction)
        joint_nodes.append(j)

    def link_color(node):
        """The rgba of the link's first visual material (named or inline), else grey."""
        for vis in (c for c in node.children if c.tag == "visual"):
            mat = child(vis, "material")
            if mat is None:
                continue
            color = child(mat, "color") or child(materials.get(mat.get("name"), mat), "color")
            if color is not None and color.has("rgba"):
                return color.floats("rgba", 4)
        return np.array([0.5, 0.5, 0.5, 1.0])

    def add_geoms(node, bid, frame):
        rgba = link_color(node)
        for col in (c for c in node.children if c.tag == "collision"):
            check(col)
            geo = child(col, "geometry", required=True)
            pos, quat = origin(col)
            pos, quat = frame[0] + quat_to_mat(frame[1]) @ pos, quat_mul(frame[1], quat)
            if len(geo.children) != 1:
                raise geo.error("<geometry> needs exactly one shape")
            for g in geo.children:
                check(g)
                if g.tag == "box":
                    size = g.floats("size", 3)
                    if size is None or np.any(size <= 0):
                        raise g.error("a box needs a positive size", "size")
                    geoms.append((bid, g, dict(type="box", size=size / 2, pos=pos, quat=quat, rgba=rgba)))
                elif g.tag == "cylinder":
                    size = [positive(g, "radius"), positive(g, "length") / 2]
                    geoms.append((bid, g, dict(type="cylinder", size=size, pos=pos, quat=quat, rgba=rgba)))
                elif g.tag == "sphere":
                    geoms.append((bid, g, dict(type="sphere", size=[positive(g, "radius")], pos=pos,
                                               quat=quat, rgba=rgba)))
                elif g.tag == "mesh":
                    kw = meshes.geom(g, pos, quat)
                    if kw is not None:
                        geoms.append((bid, g, dict(kw, rgba=rgba)))
                else:
                    raise g.error(f"unknown geometry <{g.tag}>")

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))                    # long chains are walked recursively
    try:
        with np.errstate(over="ignore", invalid="ignore"):       # inertias are checked finite
            if is_world:
                body_of["world"] = 0
                for c in children["world"]:
                    add_link(c, 0, joints[parent_of[c][1]])
            else:
                add_link(roots[0], 0, None)
    except RecursionError:
        raise root.error("the link tree is too deep") from None
    except (TypeError, ValueError) as e:       # a missing number deep in an element
        raise root.error(f"invalid URDF: {e}") from None
    finally:
        sys.setrecursionlimit(limit)
    for bid, g, kw in sorted(geoms, key=lambda x: x[0]):     # (stable: in file order per body)
        with located(g):
            spec.add_geom(bid, **kw)
    _check_moving_links(spec, links, joints, parent_of)
    for node, joint, mimicked, offset, multiplier in mimic:
        if mimicked in spec._ids["joint"]:
            spec.add_equality("joint", joint, mimicked, data=[offset, multiplier])
        else:       # ROS's own parser accepts this too; say so rather than fail the whole robot
            warnings.warn(f"{node.file or 'URDF'}:{node.line}: <mimic joint={mimicked!r}>: no such moving "
                          f"joint; joint {joint!r} is left free", stacklevel=3)
    if ignored:
        warnings.warn(f"{file or 'URDF'}: {len(ignored)} unknown URDF attribute(s) or element(s) ignored, "
                      f"at lines {'; '.join(ignored[:3])}{' ...' if len(ignored) > 3 else ''}", stacklevel=3)
        ignored.clear()
    if meshes.skipped:
        uri, why = meshes.skipped[0]
        warnings.warn(f"{file or 'URDF'}: {len(meshes.skipped)} collision mesh(es) not loaded, e.g. "
                      f"{uri!r}: {why}", stacklevel=3)
    with located(root):
        model = spec.compile()
    return remember_sources(model, {"body": body_nodes, "joint": joint_nodes})
