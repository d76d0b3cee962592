"""A URDF's collision meshes: ``<mesh filename="package://NAME/PATH" scale="sx sy sz"/>``.

Where the file is, as ROS and Pinocchio look for it (:func:`mesh_path`):

* ``package://NAME/PATH`` is ``DIR/NAME/PATH`` for the first folder ``DIR`` where that file
  exists, among the ``package_dirs=[...]`` the caller names, then the entries of the
  ``ROS_PACKAGE_PATH`` environment variable (``os.pathsep``-separated)
  (:func:`package_folders`); these folders may be read (:class:`~rbdl_edu.io.xmlread.FileAccess`);
* ``file:///abs/path`` is that path; any other name is relative to the URDF's folder.

A package or file that is not there is a :class:`~rbdl_edu.io.errors.ModelError` naming
the URI, the file and line, and the folders searched; with no package folder at all (no
``package_dirs``, no ``ROS_PACKAGE_PATH``) ``package://`` meshes are left out, with a warning,
so that a ROS robot still loads for its dynamics, as with Pinocchio's ``buildModelFromUrdf``. STL and OBJ files (and DAE where
:mod:`trimesh` reads it, i.e. with ``pycollada`` installed) are read with :mod:`trimesh`,
scaled, and become mesh geoms in their principal frame, as in MJCF; they carry no mass
(a URDF's ``<inertial>`` is the link's mass). A mesh that may not be read (outside the
allowed folders; a URDF given as text without ``base_dir=``) or whose format is not read
is left out, and the reader warns once, naming it.

>>> p = mesh_path("package://arm/meshes/link.stl", ["/opt/none"], None, check=False)
>>> p.replace(os.sep, "/")
'/opt/none/arm/meshes/link.stl'
"""
from __future__ import annotations

import os

import numpy as np
import trimesh

from rbdl_edu.io.mjcf_mesh import principal_frame, read_mesh_file
from rbdl_edu.io.xmlread import located
from rbdl_edu.rotation import quat_mul, quat_to_mat

# the formats read (DAE only where trimesh can: it needs pycollada)
FORMATS = ("stl", "obj") + (("dae",) if "dae" in trimesh.available_formats() else ())


def package_folders(package_dirs=()):
    """The folders ``package://`` URIs are looked up in: ``package_dirs``, then the entries
    of ``ROS_PACKAGE_PATH``."""
    if isinstance(package_dirs, (str, os.PathLike)):
        package_dirs = (package_dirs,)
    env = os.environ.get("ROS_PACKAGE_PATH", "")
    return [os.fspath(d) for d in package_dirs] + [d for d in env.split(os.pathsep) if d]


def mesh_path(uri, folders, node, check=True):
    """The path that ``<mesh filename=uri>`` names (see the module's text); with ``check``,
    a ``package://`` file that is in none of ``folders`` is a ModelError at ``node``."""
    if uri.startswith("package://"):
        package, _, rest = uri[len("package://"):].partition("/")
        if package in ("", ".", "..") or not rest:
            raise node.error(f"{uri!r}: a package URI reads package://NAME/PATH", "filename")
        for folder in folders:
            path = os.path.normpath(os.path.join(folder, package, rest))
            if not path.startswith(os.path.normpath(os.path.join(folder, package)) + os.sep):
                raise node.error(f"{uri!r} leaves its package's folder", "filename")
            if not check or os.path.isfile(path):
                return path
        raise node.error(f"{uri!r}: no file {package}/{rest} in the package folders searched "
                         f"{folders} (package_dirs=[...], then ROS_PACKAGE_PATH)", "filename")
    if uri.startswith("file://"):
        return uri[len("file://"):]
    return uri


class CollisionMeshes:
    """The mesh geoms of one URDF: each file (at each scale) becomes one mesh of ``spec``."""

    def __init__(self, spec, access, folders):
        self.spec, self.access, self.folders = spec, access, folders
        self.loaded, self.skipped = {}, []        # (path, scale) -> (id, pos, quat, size); (uri, why)

    def geom(self, g, pos, quat):
        """``add_geom`` keywords for the ``<mesh>`` element ``g`` placed at ``pos``/``quat``
        in its body, or None if it is left out (and noted in :attr:`skipped`)."""
        uri = g.get("filename")
        if not uri:
            raise g.error("a <mesh> needs a filename", "filename")
        scale = g.floats("scale", 3, default=[1.0, 1.0, 1.0])
        if uri.startswith("package://") and not self.folders:
            self.skipped.append((uri, "no package folders to look in (pass package_dirs=[...] or set "
                                      "ROS_PACKAGE_PATH)"))
            return None
        path = mesh_path(uri, self.folders, g)
        if self.access.base_dir is None and not os.path.isabs(path):
            self.skipped.append((uri, "a URDF given as text reads meshes only with base_dir=..."))
            return None
        path = os.path.join(self.access.base_dir or "", path)
        if not self.access.allows(path):
            self.skipped.append((uri, "outside the folders the model may read (pass allowed_dirs=[...] "
                                      "or package_dirs=[...])"))
            return None
        if not os.path.exists(path):
            raise g.error(f"{uri!r}: file {path!r} not found", "filename")
        real = self.access.resolve(path, g, "filename")          # (a regular file)
        if os.path.splitext(uri)[1].lower()[1:] not in FORMATS:
            self.skipped.append((uri, f"only {', '.join(FORMATS)} meshes are read"))
            return None
        key = (real, tuple(scale))
        if key not in self.loaded:
            vert, face = read_mesh_file(real, uri, g, "filename")
            vert = vert.astype(np.float32).astype(float) * scale     # single precision, as MuJoCo
            if np.prod(scale) < 0:                       # a mirror: keep the triangles outward
                face = face[:, [0, 2, 1]]
            _, com, mquat, _, local = principal_frame(g, vert, face, attribute="filename")
            stem = os.path.splitext(os.path.basename(uri))[0] or "mesh"
            name, k = stem, 1
            while name in self.spec._ids["mesh"]:
                name, k = f"{stem}_{k}", k + 1
            with located(g, "filename"):
                mid = self.spec.add_mesh(name, local, face, com, mquat)
            size = np.abs(local).max(0) if len(local) else np.zeros(3)
            self.loaded[key] = (mid, com, mquat, size)
        mid, com, mquat, size = self.loaded[key]
        # the geom's frame is the mesh's principal frame, as MuJoCo places mesh geoms
        return dict(type="mesh", size=size, pos=pos + quat_to_mat(quat) @ com,
                    quat=quat_mul(quat, mquat), mesh=mid)
