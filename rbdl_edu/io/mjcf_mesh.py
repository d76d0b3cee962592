"""``<asset><mesh>``: triangle meshes read from STL/OBJ files (with :mod:`trimesh`) or written
inline, moved into their principal frame as MuJoCo does.

MuJoCo stores mesh vertices in single precision and re-centres every mesh: the origin at
its center of mass and the axes along its principal axes of inertia. A mesh geom's
``pos``/``quat`` are then moved by the same amount, so the geom does not move in space.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><asset><mesh name="tet" vertex="0 0 0  1 0 0  0 1 0  0 0 1"/></asset>
...   <worldbody><body><joint/><geom type="mesh" mesh="tet"/></body></worldbody></mujoco>''')
>>> round(float(m.body_mass[1]), 6)          # 1000 kg/m^3 * 1/6 m^3
166.666667
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass

import numpy as np
import trimesh

from rbdl_edu.io.inertia import convex_hull, eig3, mesh_mass_properties
from rbdl_edu.io.mjcf_builtin import builtin_mesh
from rbdl_edu.io.mjcf_defaults import check_attributes
from rbdl_edu.io.xmlread import MAX_ABS, located, read_bytes
from rbdl_edu.model.enums import MINVAL
from rbdl_edu.rotation import quat_to_mat

MESH_FILES = (".stl", ".obj")


@dataclass(frozen=True)
class Mesh:
    """What the compiler knows of a mesh while it works: vertices ``vert (n, 3)`` in the
    mesh's principal frame, the frame's ``pos``/``quat`` in the file's mesh frame, and the
    ``volume`` and principal ``inertia (3,)`` per unit density (for geoms that get their mass
    from it). The model keeps ``mesh_vert``/``mesh_face``/``mesh_pos``/``mesh_quat``."""
    vert: np.ndarray
    pos: np.ndarray
    quat: np.ndarray
    volume: float
    inertia: np.ndarray


def _merge_duplicates(vert, face):
    """An STL file repeats each vertex in every triangle that uses it; MuJoCo keeps one copy
    of each (in the order they first appear, compared in single precision)."""
    key = vert.astype(np.float32)
    _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)                     # unique vertices by first appearance
    rank = np.empty(len(order), dtype=int)
    rank[order] = np.arange(len(order))
    return vert[first[order]], rank[inverse.reshape(-1)][face]


def _check_vertices(node, vert, attribute):
    """Vertices must be finite and at most ``MAX_ABS`` in magnitude (a single-precision file
    can hold infinities, and 3.4e38 overflows once squared)."""
    if not np.all(np.isfinite(vert)):
        raise node.error("mesh vertices hold a NaN or an infinity", attribute)
    if np.any(np.abs(vert) > MAX_ABS):
        raise node.error(f"mesh vertices larger than {MAX_ABS:g} in magnitude", attribute)


def _obj_vertices(data, name, node, attribute):
    """The ``v x y z`` lines of an OBJ file that has no faces (a point cloud: MuJoCo then
    uses the convex hull of the points)."""
    rows = [line.split()[1:4] for line in data.decode("utf-8", "replace").splitlines()
            if line.split()[:1] == ["v"]]
    try:
        return np.array(rows, dtype=float).reshape(-1, 3)
    except ValueError:
        raise node.error(f"cannot read mesh {name!r}: a vertex line of the OBJ file is not three numbers",
                         attribute) from None


def read_mesh_file(path, name, node, attribute):
    """Vertices ``(n, 3)`` and triangles ``(m, 3)`` of the mesh file ``path`` (read with
    :mod:`trimesh`; ``name`` is how the model wrote it, for messages), checked; an STL
    file's repeated vertices merged, as MuJoCo does."""
    data = read_bytes(path, node, attribute)
    kind = os.path.splitext(name)[1].lower()[1:]
    try:
        mesh = trimesh.load(io.BytesIO(data), file_type=kind, force="mesh", process=False)
        vert, face = np.asarray(mesh.vertices, dtype=float), np.asarray(mesh.faces, dtype=int)
        if vert.ndim != 2 or vert.shape[1:] != (3,) or face.ndim != 2 or face.shape[1:] != (3,):
            raise ValueError("not a triangle mesh")
    except Exception as e:           # any parser failure of a foreign file format
        # (the parser's own message may quote the file: name only the kind of failure)
        raise node.error(f"cannot read mesh {name!r} ({type(e).__name__}): not a valid "
                         f"{kind.upper()} triangle mesh", attribute) from None
    if kind == "obj" and len(face) == 0:
        vert = _obj_vertices(data, name, node, attribute)   # (trimesh drops unused vertices)
    if len(face) and (face.min() < 0 or face.max() >= len(vert)):
        raise node.error(f"mesh {name!r}: a face names a vertex that does not exist", attribute)
    _check_vertices(node, vert, attribute)
    if kind == "stl":
        vert, face = _merge_duplicates(vert, face)
    return vert, face


def principal_frame(node, vert, face, mode="legacy", attribute="file"):
    """``(volume, com, quat, inertia, local)``: the mesh's volume, center and principal
    axes (``inertia`` per unit density) and its vertices in that frame,
    :math:`v' = R^T (v - c)` (a mesh with no volume keeps its own frame)."""
    if len(face) == 0:
        raise node.error("mesh has no triangles", attribute)
    try:
        volume, com, I = mesh_mass_properties(vert, face, mode)
    except Exception as e:       # qhull (inertia="convex") refuses degenerate meshes
        raise node.error(f"cannot compute the mesh volume: {str(e).strip().splitlines()[0]}",
                         "inertia") from None
    if volume > MINVAL:
        inertia, quat = eig3(I)
    else:
        inertia, quat, com = np.zeros(3), np.array([1.0, 0, 0, 0]), np.zeros(3)
    return max(volume, 0.0), com, quat, inertia, (vert - com) @ quat_to_mat(quat)


def _read_vertices_faces(compiler, node):
    """Vertices ``(n, 3)`` and triangles ``(m, 3)`` of a ``<mesh>`` (file or inline)."""
    if node.get("builtin", "none").strip() != "none":
        vert, face = builtin_mesh(node)
        if len(face) == 0:                   # a cone: points, whose hull MuJoCo takes
            vert, face = _hull(node, vert, "builtin")
        return vert, face, ""
    if node.has("file"):
        name = node.get("file")
        if not name.lower().endswith(MESH_FILES):
            raise node.error(f"mesh file {name!r}: only {', '.join(MESH_FILES)} are supported", "file")
        s = compiler.settings
        path = compiler.files.resolve(name, node, "file", s.meshdir or s.assetdir)
        vert, face = read_mesh_file(path, name, node, "file")
        if len(face) == 0:                   # only vertices: MuJoCo uses the convex hull
            vert, face = _hull(node, vert, "file")
        return vert, face, path
    if not node.has("vertex"):
        raise node.error("a <mesh> needs a file or vertex data", "file")
    vert = node.floats("vertex", at_least=12)
    if len(vert) % 3:
        raise node.error("vertex needs a multiple of 3 numbers", "vertex")
    vert = vert.reshape(-1, 3)
    if node.has("face"):
        f = node.floats("face", at_least=3)
        if len(f) % 3 or np.any(f != np.round(f)) or f.min() < 0 or f.max() >= len(vert):
            raise node.error("face must hold triples of vertex indices", "face")
        face = f.reshape(-1, 3).astype(int)
    else:                                # no faces: MuJoCo uses the convex hull
        vert, face = _hull(node, vert, "vertex")
    return vert, face, ""


def _hull(node, vert, attribute):
    """The points and the triangles of their convex hull."""
    try:
        return convex_hull(vert)
    except Exception as e:               # qhull refuses flat or degenerate point sets
        raise node.error(f"cannot build the convex hull of the vertices: {str(e).strip().splitlines()[0]}",
                         attribute) from None


def load_meshes(compiler):
    """Add every ``<asset><mesh>`` to the spec; returns their :class:`Mesh` records and a
    name -> id map."""
    meshes, ids = [], {}
    for asset in (c for c in compiler.root.children if c.tag == "asset"):
        for node in asset.children:
            if node.tag in ("texture", "material", "skin", "hfield"):    # hfield: mjcf_hfield
                continue
            if node.tag == "model":
                raise node.error("<model> assets are not supported: models composed from other files are "
                                 "out of scope")
            if node.tag != "mesh":
                raise node.error(f"<{node.tag}> assets are not supported")
            check_attributes(node)
            if node.has("class"):
                node = compiler.defaults.resolve(node, node.get("class"))
            else:
                node = compiler.defaults.resolve(node, "main")
            vert, face, path = _read_vertices_faces(compiler, node)
            name = node.get("name") or os.path.splitext(os.path.basename(path))[0]
            if not name:
                raise node.error("an inline mesh needs a name", "name")
            if name in ids:
                raise node.error(f"repeated mesh name {name!r}", "name")
            # single precision, as MuJoCo stores vertices; then (in double) the reference
            # frame, the rotation and the scale, in MuJoCo's order
            vert = vert.astype(np.float32).astype(float)
            refpos = node.floats("refpos", 3, default=np.zeros(3))
            refquat = node.floats("refquat", 4, default=[1.0, 0, 0, 0])
            if np.linalg.norm(refquat) < 1e-15:
                raise node.error("refquat has zero length", "refquat")
            vert = (vert - refpos) @ quat_to_mat(refquat / np.linalg.norm(refquat))
            scale = node.floats("scale", 3, default=[1.0, 1.0, 1.0])
            vert = vert * scale
            _check_vertices(node, vert, "scale")
            if np.prod(scale) < 0:                   # a mirror: keep the triangles outward
                face = face[:, [0, 2, 1]]
            mode = node.keyword("inertia", ("legacy", "exact", "convex", "shell"), "legacy")
            if mode == "shell":
                raise node.error('inertia="shell" is not supported', "inertia")
            volume, com, quat, inertia, local = principal_frame(node, vert, face, mode,
                                                                "file" if path else "face")
            with located(node):
                ids[name] = compiler.spec.add_mesh(name, local, face, com, quat)
            meshes.append(Mesh(vert=local, pos=com, quat=quat, volume=volume, inertia=inertia))
    return meshes, ids
