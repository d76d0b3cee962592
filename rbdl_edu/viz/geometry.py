r"""pythreejs objects for one model: geoms of every type, frames, joint axes, inertia boxes, arrows.

Conventions. The world is z-up, as in MuJoCo. three.js quaternions are ``(x, y, z, w)``;
ours are ``(w, x, y, z)`` (:func:`three_quat` converts). Cylinders and cones of three.js
run along their local y axis; MuJoCo's run along z, so they are turned by +90° about x.

Nothing here changes a model; these helpers only read ``geom_*`` and ``body_*`` fields.
Where the camera goes and what it must show (numbers, no pythreejs) is
:mod:`rbdl_edu.viz.framing`.
"""
from __future__ import annotations

import numpy as np
import pythreejs as three

from rbdl_edu.collision.hfield import hfield_grid
from rbdl_edu.model.defaults import GEOM_RGBA
from rbdl_edu.model.enums import (BALL, BOX, CAPSULE, CYLINDER, ELLIPSOID, FREE, HFIELD, HINGE, MESH, PLANE,
                                  SLIDE, SPHERE)
from rbdl_edu.rotation import mat_to_quat
from rbdl_edu.viz.framing import mesh_data

_Y_TO_Z = [float(np.sin(np.pi / 4)), 0.0, 0.0, float(np.cos(np.pi / 4))]   # +90° about x, three order


def three_quat(q_wxyz):
    """A ``(w, x, y, z)`` quaternion as the ``(x, y, z, w)`` list three.js wants.

    >>> three_quat([1.0, 0.0, 0.0, 0.0])
    [0.0, 0.0, 0.0, 1.0]
    """
    w, x, y, z = (float(c) for c in q_wxyz)
    return [x, y, z, w]


def hex_color(rgba):
    """``'#rrggbb'`` from an RGBA (or RGB) tuple in [0, 1].

    >>> hex_color((1.0, 0.5, 0.0, 1.0))
    '#ff8000'
    """
    r, g, b = (int(round(255 * min(max(float(c), 0.0), 1.0))) for c in rgba[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def material(rgba, opacity=None):
    """A lit material for a geom of colour ``rgba``; ``opacity`` overrides the alpha."""
    alpha = float(rgba[3]) if len(rgba) > 3 and opacity is None else (1.0 if opacity is None else opacity)
    return three.MeshStandardMaterial(color=hex_color(rgba), roughness=0.6, metalness=0.1,
                                      transparent=True, opacity=alpha, side="DoubleSide")


def _cylinder(radius, half_length, mat, segments=24):
    """A cylinder along local z (MuJoCo's convention)."""
    geo = three.CylinderGeometry(radiusTop=radius, radiusBottom=radius, height=2 * half_length,
                                 radialSegments=segments)
    return three.Mesh(geo, mat, quaternion=_Y_TO_Z)


def hfield_mesh(model, g, mat):
    """A height field geom as a solid (a :class:`pythreejs.Mesh` in the geom's frame): its
    surface, two flat-shaded triangles per grid cell cut along the diagonal its collision
    prisms use (:mod:`rbdl_edu.collision.hfield`), walls down to the base's bottom
    ``z = -base_z`` all round, and the bottom (a 3 x 4 grid: 12 + 20 + 10 triangles): a
    closed surface, every triangle facing out.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); _ = s.add_hfield("h", [1, 1, 0.2, 0.1], 3, 4); _ = s.add_geom(0, "hfield", None, hfield="h")
    >>> hfield_mesh(s.compile(), 0, material((1, 1, 1, 1))).geometry.attributes["position"].array.shape
    (126, 3)
    """
    h = int(model.geom_dataid[g])
    x, y, z = hfield_grid(model, h)
    base = float(model.hfield_size[h][3])

    def top(i, j):                                              # grid vertex (row i, column j)
        return [x[j], y[i], z[i, j]]

    def bottom(i, j):                                           # below it, on the base's bottom
        return [x[j], y[i], -base]
    tri = []
    for i in range(len(y) - 1):                                 # the surface, cell by cell
        for j in range(1, len(x)):
            tri += [[top(i + 1, j - 1), top(i, j - 1), top(i + 1, j)], [top(i, j - 1), top(i, j), top(i + 1, j)]]
    # the border, counterclockwise seen from above: a wall on each segment, and a fan from
    # the bottom's center
    nr, nc = len(y) - 1, len(x) - 1
    ring = [(0, j) for j in range(nc + 1)] + [(i, nc) for i in range(1, nr + 1)] + \
        [(nr, j) for j in range(nc - 1, -1, -1)] + [(i, 0) for i in range(nr - 1, -1, -1)]
    for p, q in zip(ring[:-1], ring[1:]):
        tri += [[top(*p), bottom(*p), bottom(*q)], [top(*p), bottom(*q), top(*q)],
                [[0.0, 0.0, -base], bottom(*q), bottom(*p)]]
    tri = np.array(tri, dtype=float)                            # (m, 3, 3), outward normals
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    geo = three.BufferGeometry(attributes={
        "position": three.BufferAttribute(tri.reshape(-1, 3).astype(np.float32), normalized=False),
        "normal": three.BufferAttribute(np.repeat(n, 3, axis=0).astype(np.float32), normalized=False)})
    return three.Mesh(geo, mat)


def geom_rgba(model, g):
    """The colour MuJoCo's renderer gives geom ``g``: its ``rgba``, or its material's colour
    (``mat_rgba[geom_matid[g]]``) when the geom keeps the default grey.

    >>> from rbdl_edu.models import cart_pole
    >>> geom_rgba(cart_pole(), 0)
    array([0.3, 0.5, 0.8, 1. ])
    """
    rgba = np.asarray(model.geom_rgba[g], dtype=float)
    k = model.geom_matid[g]
    if k >= 0 and np.allclose(rgba, GEOM_RGBA):
        return np.asarray(model.mat_rgba[k], dtype=float)
    return rgba


def geom_object(model, g, opacity=None, plane_size=5.0):
    """The pythreejs object of geom ``g`` in its body's frame, or ``None`` if it cannot be drawn
    (meshes whose vertices the model does not carry).

    Sizes follow MuJoCo: sphere ``r``; capsule and cylinder ``r, half-length``; ellipsoid
    and box half-sizes; plane half-sizes (0: drawn ``plane_size`` wide); a height field
    its ``hfield_size`` (:func:`hfield_mesh`).

    >>> from rbdl_edu.models import cart_pole
    >>> type(geom_object(cart_pole(), 0)).__name__
    'Group'
    """
    t, size = int(model.geom_type[g]), np.asarray(model.geom_size[g], dtype=float)
    mat = material(geom_rgba(model, g), opacity)
    kids = []
    if t == SPHERE:
        kids.append(three.Mesh(three.SphereGeometry(radius=size[0], widthSegments=24, heightSegments=16), mat))
    elif t == ELLIPSOID:
        kids.append(three.Mesh(three.SphereGeometry(radius=1.0, widthSegments=24, heightSegments=16), mat,
                               scale=[float(s) for s in size]))
    elif t == BOX:
        kids.append(three.Mesh(three.BoxGeometry(width=2 * size[0], height=2 * size[1], depth=2 * size[2]), mat))
    elif t == CYLINDER:
        kids.append(_cylinder(size[0], size[1], mat))
    elif t == CAPSULE:
        kids.append(_cylinder(size[0], size[1], mat))
        for z in (-size[1], size[1]):
            kids.append(three.Mesh(three.SphereGeometry(radius=size[0], widthSegments=24, heightSegments=12),
                                   mat, position=[0.0, 0.0, float(z)]))
    elif t == PLANE:
        w = 2 * size[0] if size[0] > 0 else plane_size
        h = 2 * size[1] if size[1] > 0 else plane_size
        kids.append(three.Mesh(three.PlaneGeometry(width=w, height=h), mat))
        grid = three.GridHelper(size=max(w, h), divisions=10, colorCenterLine="#888888", colorGrid="#bbbbbb",
                                quaternion=_Y_TO_Z, position=[0.0, 0.0, 1e-3])
        kids.append(grid)
    elif t == MESH:
        data = mesh_data(model, g)
        if data is None:
            return None
        v, f = data
        # flat shading: every triangle gets its own three corners and its face normal
        tri = v[f]                                              # (m, 3, 3)
        n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
        geo = three.BufferGeometry(attributes={
            "position": three.BufferAttribute(tri.reshape(-1, 3).astype(np.float32), normalized=False),
            "normal": three.BufferAttribute(np.repeat(n, 3, axis=0).astype(np.float32), normalized=False)})
        kids.append(three.Mesh(geo, mat))
    elif t == HFIELD:
        kids.append(hfield_mesh(model, g, mat))
    else:
        return None
    return three.Group(children=kids, position=[float(c) for c in model.geom_pos[g]],
                       quaternion=three_quat(model.geom_quat[g]), name=f"geom{g}")


def inertia_box_size(mass, inertia):
    r"""Half-sizes of the uniform box with the same mass and principal moments:
    :math:`a_x = \sqrt{3 (I_y + I_z - I_x) / (2m)}` and cyclically (as MuJoCo draws them).

    >>> inertia_box_size(12.0, [2.0, 2.0, 2.0]).round(6)       # a unit cube: I = m (1+1)/12
    array([0.5, 0.5, 0.5])
    """
    I = np.asarray(inertia, dtype=float)
    sums = np.array([I[1] + I[2] - I[0], I[0] + I[2] - I[1], I[0] + I[1] - I[2]])
    return np.sqrt(np.maximum(sums, 0.0) * 3.0 / (2.0 * max(float(mass), 1e-12)))


def inertia_box(model, i):
    """A translucent box at body ``i``'s center of mass, along its principal axes, with the
    body's mass and principal moments (``None`` for a massless body)."""
    if float(model.body_mass[i]) <= 0:
        return None
    half = np.maximum(inertia_box_size(model.body_mass[i], model.body_inertia[i]), 1e-3)
    mat = three.MeshBasicMaterial(color="#7a3fbf", transparent=True, opacity=0.25, depthWrite=False)
    box = three.Mesh(three.BoxGeometry(width=2 * half[0], height=2 * half[1], depth=2 * half[2]), mat)
    edges = three.LineSegments(three.EdgesGeometry(box.geometry), three.LineBasicMaterial(color="#7a3fbf"))
    return three.Group(children=[box, edges], position=[float(c) for c in model.body_ipos[i]],
                       quaternion=three_quat(model.body_iquat[i]), name=f"inertia{i}")


def arrow(origin, vec, color, scale=1.0, radius=None, name=""):
    """A solid arrow (shaft and cone) from ``origin`` along ``vec * scale``; ``None`` if it has
    no length. Drawn in the coordinates of the object it is added to.

    >>> arrow([0, 0, 0], [0, 0, 0], "#ff0000") is None
    True
    """
    v = np.asarray(vec, dtype=float) * scale
    length = float(np.linalg.norm(v))
    if length < 1e-9:
        return None
    r = radius if radius is not None else 0.02 * max(length, 0.25) ** 0.5 * 0.5
    head = min(0.3 * length, 6 * r)
    mat = three.MeshStandardMaterial(color=color, roughness=0.5)
    shaft = three.Mesh(three.CylinderGeometry(radiusTop=r, radiusBottom=r, height=length - head, radialSegments=12),
                       mat, position=[0.0, (length - head) / 2, 0.0])
    cone = three.Mesh(three.ConeGeometry(radius=2.5 * r, height=head, radialSegments=16), mat,
                      position=[0.0, length - head / 2, 0.0])
    # rotate +y (three's cylinder axis) onto v
    d = v / length
    axis = np.cross([0.0, 1.0, 0.0], d)
    s, c = np.linalg.norm(axis), d[1]
    if s < 1e-12:
        q = [0.0, 0.0, 0.0, 1.0] if c > 0 else [1.0, 0.0, 0.0, 0.0]
    else:
        half = np.arctan2(s, c) / 2
        q = [*(axis / s * np.sin(half)), np.cos(half)]
    return three.Group(children=[shaft, cone], position=[float(x) for x in origin],
                       quaternion=[float(x) for x in q], name=name)


def frame_axes(size):
    """Body frame: red x, green y, blue z lines of length ``size``."""
    return three.AxesHelper(size=float(size))


def joint_axes(model, i, length):
    """Arrows along the axes of body ``i``'s hinge (orange) and slide (cyan) joints, at their
    anchors, in the body frame; balls and free joints get a small sphere at the anchor."""
    out = []
    for j in range(int(model.body_jntadr[i]), int(model.body_jntadr[i]) + int(model.body_jntnum[i])):
        jt, p, a = int(model.jnt_type[j]), np.asarray(model.jnt_pos[j], float), np.asarray(model.jnt_axis[j], float)
        if jt in (HINGE, SLIDE):
            color = "#ff8c00" if jt == HINGE else "#00b5c8"
            ar = arrow(p - 0.5 * length * a, a, color, scale=length, radius=0.01 * length, name=f"joint{j}")
            if ar is not None:
                out.append(ar)
        elif jt in (BALL, FREE) and jt == BALL:
            out.append(three.Mesh(three.SphereGeometry(radius=0.06 * length),
                                  three.MeshStandardMaterial(color="#ff8c00"), position=[float(c) for c in p]))
    return out


def pose_lists(xpos, xmat):
    """Per-body ``position`` and three.js ``quaternion`` lists from world poses."""
    return ([[float(c) for c in p] for p in xpos],
            [three_quat(mat_to_quat(R)) for R in xmat])


def bones(model, i, radius):
    """For a body with no geoms: a sphere at its origin and a grey rod to each child's
    origin (``body_pos``, where the child sits at its reference pose), or to its center of
    mass if it has no children; in body ``i``'s frame."""
    mat = three.MeshStandardMaterial(color="#8c8c8c", roughness=0.7)
    out = [three.Mesh(three.SphereGeometry(radius=2 * radius, widthSegments=16, heightSegments=12), mat)]
    ends = [np.asarray(model.body_pos[c], float) for c in range(i + 1, model.nbody) if model.body_parentid[c] == i]
    if not ends:
        ends = [np.asarray(model.body_ipos[i], float)]
    for e in ends:
        n = float(np.linalg.norm(e))
        if n < 1e-9:
            continue
        rod = arrow([0.0, 0.0, 0.0], e, "#8c8c8c", radius=radius)
        rod.children = rod.children[:1]                # the shaft only
        rod.children[0].geometry = three.CylinderGeometry(radiusTop=radius, radiusBottom=radius, height=n,
                                                          radialSegments=12)
        rod.children[0].position = [0.0, n / 2, 0.0]
        out.append(rod)
    return out
