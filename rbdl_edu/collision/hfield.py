r"""Height fields against convex geoms (MuJoCo's ``mjc_ConvexHField``).

A height field is not convex, but it is a union of convex pieces. Its grid of
``nrow x ncol`` samples makes ``(nrow - 1)(ncol - 1)`` cells; each cell is cut along a
diagonal into two triangles, and each triangle, extended straight down to the bottom of
the base, is a **triangular prism** with six vertices:

.. math:: P = \mathrm{conv}\{(x_k, y_k, -d),\ (x_k, y_k, e\,h_k)\}_{k=1,2,3},

with ``hfield_size = (a, b, e, d)`` (half-extents, elevation, base depth), the samples
:math:`h_k \in [0, 1]` and grid vertex ``(r, c)`` at :math:`x = -a + 2a\,c/(n_{col}-1)`,
:math:`y = -b + 2b\,r/(n_{row}-1)`. Cell ``(r, c)`` (between columns ``c - 1`` and ``c``)
holds the triangles ``(c-1, r+1), (c-1, r), (c, r+1)`` and ``(c-1, r), (c, r+1), (c, r)``.

Collision with a convex geom ``g2`` then takes three steps, in the height field's frame
(a quick look at ``g2``'s oriented bounding box first: where even the box's sub-grid (step 2)
has no vertex high enough, there is nothing to do):

1. **Bounds.** ``g2``'s bounding box along the height field's axes comes from its support
   function, :math:`[e_k\cdot s(-e_k),\ e_k\cdot s(e_k)]`; if it misses the height field's
   box (grown by the margin), there is no contact.
2. **Sub-grid.** Only the cells under that box (grown by the margin) can touch; a prism
   whose three top vertices all lie lower than the box's bottom minus the margin is
   skipped too.
3. **Prism by prism**, the signed distance of the prism and ``g2`` (:func:`prism_distance`):
   each prism closer than the margin gives one contact, its point midway between the two
   witness points and its normal from the height field towards ``g2``. At most
   ``MAXCONPAIR = 50`` contacts, in the order rows, columns, triangles.

The margin enters as in the MuJoCo 4.0.0 binary, found by probing it: the true distance
of every prism closer than the margin is reported, and both culling steps grow by the
margin. (MuJoCo's engine source of August 2026 raises the prisms by the margin and swells
the geom by half of it instead, which would report other distances; the binary is the
oracle.)

Each contact is the exact distance (or penetration) of one prism alone. A sphere resting
on a flat patch gets one contact per prism it overlaps, all with the same normal; near a
prism's vertical wall the shortest way out of that prism may be sideways, through the
wall, and a geom over an edge that two prisms share gets a contact from each. MuJoCo
reports them the same way (``tests/test_hfield_collision.py``, which also says where
MuJoCo's box and mesh contacts are not exact and ours are).

A sphere is its center swollen by its radius, and the distance from a point to a prism
has a short closed form (:func:`point_prism`); boxes, meshes, ellipsoids and cylinders go
through GJK/EPA (:func:`~rbdl_edu.collision.convex.core_distance`). A capsule (a swollen
segment) goes through GJK/EPA too, unless one of two exact shortcuts settles it first: its
segment lies farther than the margin along a separating axis (the prism's five face
normals, :func:`prism_distance`, or the segment's direction crossed with the prism's
edges, :func:`edge_gap`): no contact; or it lies wholly above the top face's plane with
its lower end right over the face: the distance is that end's height
(:func:`segment_over_top`). Both give GJK's answer (to round-off) without its iterations.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision.convex import core_distance, core_radius, support, support_of
from rbdl_edu.collision.geometry import geom_aabb
from rbdl_edu.model.enums import BOX, CAPSULE, MESH, SPHERE

MAXCONPAIR = 50      # MuJoCo's mjMAXCONPAIR: contacts kept per geom pair


@per_model
def hfield_grid(model, h):
    """Grid vertices of height field ``h`` in its geom frame: ``x (ncol,)``, ``y (nrow,)``
    and the top elevations ``z (nrow, ncol)`` (once per model).

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); _ = s.add_hfield("h", [1, 0.5, 0.2, 0.1], 2, 3, [0, 1, 0, 0, 2, 0])
    >>> x, y, z = hfield_grid(s.compile(), 0)
    >>> x, y, z
    (array([-1.,  0.,  1.]), array([-0.5,  0.5]), array([[0. , 0.1, 0. ],
           [0. , 0.2, 0. ]]))
    """
    a, b, e, _ = model.hfield_size[h]
    nrow, ncol, adr = model.hfield_nrow[h], model.hfield_ncol[h], model.hfield_adr[h]
    # x = -a + c (2a / (ncol - 1)), as MuJoCo computes it
    x = (2 * a / (ncol - 1)) * np.arange(ncol) - a
    y = (2 * b / (nrow - 1)) * np.arange(nrow) - b
    z = model.hfield_data[adr:adr + nrow * ncol].reshape(nrow, ncol) * e
    return x, y, z


@per_model
def hfield_dims(model, h):
    """``(a, b, e, d, nrow, ncol)`` of height field ``h`` as Python numbers (once per model)."""
    return (*(float(v) for v in model.hfield_size[h]), int(model.hfield_nrow[h]), int(model.hfield_ncol[h]))


def local_bounds(model, gpos, gmat, g1, g2):
    """Bounding box ``(lo, hi)`` of geom ``g2`` along the axes of geom ``g1``, in ``g1``'s
    frame: :math:`hi_k = e_k\\cdot(s(R_1 e_k) - x_1)`, :math:`lo_k = e_k\\cdot(s(-R_1 e_k) - x_1)`.
    A sphere or a capsule in closed form: its center :math:`c = R_1^T(x_2 - x_1)` plus or minus
    :math:`r + h\\,|R_1^T R_2 e_z|` (a sphere: ``h = 0``)."""
    R1, x1 = gmat[g1], gpos[g1]
    if model.geom_type[g2] in (SPHERE, CAPSULE):
        r, h = model.geom_size[g2][0], (model.geom_size[g2][1] if model.geom_type[g2] == CAPSULE else 0.0)
        c = (gpos[g2] - x1) @ R1
        half = r + h * np.abs(gmat[g2][:, 2] @ R1)
        return c - half, c + half
    hi = np.array([R1[:, k] @ (support(model, gpos, gmat, g2, R1[:, k]) - x1) for k in range(3)])
    lo = np.array([R1[:, k] @ (support(model, gpos, gmat, g2, -R1[:, k]) - x1) for k in range(3)])
    return lo, hi


def box_bounds(model, gpos, gmat, g1, g2):
    r"""Bounds ``(lo, hi)`` of geom ``g2``'s oriented bounding box
    (:func:`~rbdl_edu.collision.geometry.geom_aabb`) along the axes of geom ``g1``, in
    ``g1``'s frame, a hair wider: the box holds the geom, so they hold :func:`local_bounds`.
    With the box's center :math:`c` and half-sizes :math:`h`: :math:`R_1^T(c - x_1) \mp |R_1^T R_2|\,h`."""
    R1, R2, box = gmat[g1], gmat[g2], geom_aabb(model)[g2]
    center = (gpos[g2] + R2 @ box[:3] - gpos[g1]) @ R1
    half = np.abs(R1.T @ R2) @ box[3:] + 1e-9 * (1 + np.abs(center))       # (round-off: wider)
    return center - half, center + half


def subgrid(model, h, lo, hi, margin):
    """Rows ``rmin..rmax`` and columns ``cmin..cmax`` of the grid vertices under the box
    ``[lo, hi]`` grown by ``margin`` (clipped to the grid)."""
    a, b, _, _, nrow, ncol = hfield_dims(model, h)
    (x0, y0), (x1, y1) = lo[:2].tolist(), hi[:2].tolist()
    cmin = math.floor((x0 - margin + a) / (2 * a) * (ncol - 1))
    cmax = math.ceil((x1 + margin + a) / (2 * a) * (ncol - 1))
    rmin = math.floor((y0 - margin + b) / (2 * b) * (nrow - 1))
    rmax = math.ceil((y1 + margin + b) / (2 * b) * (nrow - 1))
    return max(0, rmin), min(nrow - 1, rmax), max(0, cmin), min(ncol - 1, cmax)


def prism_distance(model, gpos, gmat, g1, prism, g2, cutoff=np.inf):
    """``(dist, n, a, b)``: signed distance of geom ``g2`` and a prism of height field geom
    ``g1`` (a :class:`Prism`, in ``g1``'s frame), the normal from the prism towards ``g2``
    and the witness points on each, in the world; ``None`` once the distance is known to
    exceed ``cutoff``. A sphere is its center swollen by its radius (:func:`point_prism`), a
    capsule its segment swollen (:func:`segment_over_top` where it applies); both are first
    held against the prism's five planes (:func:`core_points`). Other geoms (and other
    capsules) go through GJK/EPA on their cores (exact for polytopes, which need no
    polishing)."""
    R1, x1 = gmat[g1], gpos[g1]
    r2 = core_radius(model, g2)
    core = core_points(model, gpos, gmat, g1, g2)
    over = None
    if core is not None:
        # the prism lies in each half-space n_f·x ≤ c_f: no nearer to the core than its
        # points' least height s_f = n_f·p - c_f over any of its five planes
        S = core @ prism.normals.T - prism.offsets
        if S.min(axis=0).max() - r2 >= cutoff or (len(core) == 2 and edge_gap(core, prism) - r2 >= cutoff):
            return None
        over = segment_over_top(core, S[:, 0], prism) if len(core) == 2 else None
    if model.geom_type[g2] == SPHERE:
        dist, n, q = point_prism(core[0], prism)
        n, a, b = R1 @ n, x1 + R1 @ q, gpos[g2]
    elif over is not None:                          # a capsule right over the top face
        dist, n, q, p = over
        n, a, b = R1 @ n, x1 + R1 @ q, x1 + R1 @ p
    else:
        P = x1 + prism.corners @ R1.T
        support2 = support_of(model, gpos, gmat, g2, core=True)

        def supp(d):
            a, b = P[np.argmax(P @ d)], support2(-d)
            return (a - b, a, b)
        polytope = model.geom_type[g2] in (CAPSULE, BOX, MESH)          # a segment or a polytope
        out = core_distance(supp, P.mean(axis=0) - gpos[g2], smooth=not polytope, cutoff=cutoff + r2)
        if out is None:
            return None
        dist, n, a, b = out
    # round the core: dist - r, the witness point pushed out along the normal
    return dist - r2, n, a, b - r2 * n


def edge_gap(ends, prism):
    r"""A lower bound of the signed distance between a segment (``ends (2, 3)``) and a :class:`Prism`:
    their largest gap along the axes :math:`u = d\times e` across the segment's direction
    :math:`d` and the prism's edge directions :math:`e` (top, bottom, vertical); along any unit
    axis, the gap between the two shadows (negative: their overlap) is no more than it."""
    U = _cross_rows(ends[1] - ends[0], prism.E[:7])
    length = np.sqrt(np.einsum("ij,ij->i", U, U))
    U = U[length > 1e-12] / length[length > 1e-12, None]
    c, P = ends @ U.T, prism.corners @ U.T
    gaps = np.maximum(c.min(axis=0) - P.max(axis=0), P.min(axis=0) - c.max(axis=0))
    return np.max(gaps, initial=-np.inf)


def _cross_rows(d, E):
    """``d × e`` for each row ``e`` of ``E``."""
    return np.array([d[1] * E[:, 2] - d[2] * E[:, 1], d[2] * E[:, 0] - d[0] * E[:, 2],
                     d[0] * E[:, 1] - d[1] * E[:, 0]]).T


def core_points(model, gpos, gmat, g1, g2):
    """The core of a sphere (its center, ``(1, 3)``) or of a capsule (its segment's two ends,
    ``(2, 3)``) in geom ``g1``'s frame; ``None`` for other geoms."""
    t = model.geom_type[g2]
    if t not in (SPHERE, CAPSULE):
        return None
    c = (gpos[g2] - gpos[g1]) @ gmat[g1]
    if t == SPHERE:
        return c[None]
    half = model.geom_size[g2][1] * (gmat[g2][:, 2] @ gmat[g1])
    return np.array([c + half, c - half])


class Prism(NamedTuple):
    r"""What a prism's distance tests need, from its top triangle alone (:func:`make_prism`):
    ``top (3, 3)``, ``corners (6, 3)`` (bottom, then top), its five planes
    :math:`n_f\cdot x \le c_f` (top, bottom, three walls) ``normals (5, 3)``, ``offsets (5,)``,
    its nine edges :math:`a + t e`: ``A (9, 3)``, ``E (9, 3)``, ``EE (9,)`` (:math:`e\cdot e`), and
    ``base`` (its bottom at ``z = -base``)."""
    top: np.ndarray
    corners: np.ndarray
    normals: np.ndarray
    offsets: np.ndarray
    A: np.ndarray
    E: np.ndarray
    EE: np.ndarray
    base: float


def make_prism(top, base):
    """The :class:`Prism` under the triangle ``top (3, 3)``, down to ``z = -base`` (in the
    height field's frame)."""
    bottom = top * [1.0, 1.0, 0.0] - [0.0, 0.0, base]
    # outward normals and offsets of the five planes
    u, v = top[1] - top[0], top[2] - top[0]
    n_top = np.array([u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]])
    n_top = n_top / np.linalg.norm(n_top) * np.sign(n_top[2])
    normals, offsets = [n_top, np.array([0.0, 0.0, -1.0])], [n_top @ top[0], base]
    for i, j, k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
        e = top[j] - top[i]
        n = np.array([e[1], -e[0], 0.0]) / np.hypot(e[0], e[1])
        n = -n if n @ (top[k] - top[i]) > 0 else n              # away from the third corner
        normals.append(n)
        offsets.append(n @ top[i])
    # the nine edges: three on top, three at the bottom, three walls' corners
    A = np.concatenate([top, bottom, bottom])
    E = np.concatenate([np.roll(top, -1, axis=0) - top, np.roll(bottom, -1, axis=0) - bottom, top - bottom])
    return Prism(top, np.concatenate([bottom, top]), np.array(normals), np.array(offsets), A, E,
                 np.einsum("ij,ij->i", E, E), float(base))


def cell_triangles(r, c):
    """The grid vertices ``(row, column)`` of the two top triangles of cell ``(r, c)``."""
    return (((r + 1, c - 1), (r, c - 1), (r + 1, c)), ((r, c - 1), (r + 1, c), (r, c)))


@per_model
def cell_prism(model, h, r, c, k):
    """The :class:`Prism` under triangle ``k`` (0, 1) of cell ``(r, c)`` of height field ``h``
    (once per model and prism)."""
    x, y, z = hfield_grid(model, h)
    top = np.array([[x[j], y[i], z[i, j]] for i, j in cell_triangles(r, c)[k]])
    return make_prism(top, model.hfield_size[h][3])


def _in_triangle_xy(q, T):
    """True if the point ``q`` lies over the triangle ``T (3, 3)`` (in x, y; edges included)."""
    s = [(T[j, 0] - T[i, 0]) * (q[1] - T[i, 1]) - (T[j, 1] - T[i, 1]) * (q[0] - T[i, 0])
         for i, j in ((0, 1), (1, 2), (2, 0))]
    return min(s) >= 0 or max(s) <= 0


def point_prism(p, prism):
    r"""Signed distance from the point ``p`` to a :class:`Prism` (both in the height field's
    frame). Returns ``(dist, n, q)``: the distance (negative inside), the unit normal from the
    prism towards ``p`` and the point ``q`` of the prism's surface that attains it
    (:math:`p = q + \mathrm{dist}\; n`).

    The prism is the intersection of five half-spaces :math:`n_f\cdot x \le c_f` (top,
    bottom, three vertical walls). With :math:`s_f = n_f\cdot p - c_f`: inside (all
    :math:`s_f \le 0`), the nearest face is the one of largest :math:`s_f` and
    :math:`\mathrm{dist} = s_f`; outside, the nearest point is on a face (where ``p``
    projects into it) or on one of the nine edges.

    >>> top = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]])
    >>> point_prism(np.array([0.2, 0.2, 0.5]), make_prism(top, 1.0))[:2]
    (0.5, array([0., 0., 1.]))
    >>> point_prism(np.array([0.2, 0.2, -0.1]), make_prism(top, 1.0))[0]     # inside: 0.1 below the top
    -0.1
    """
    top, normals, base = prism.top, prism.normals, prism.base
    s = normals @ p - prism.offsets
    q = p - s[0] * normals[0]
    if s[0] > 0 and _in_triangle_xy(q, top):                   # above the top face: its plane
        return float(s[0]), normals[0], q
    f = int(np.argmax(s))
    if s[f] <= 0:                                               # inside: out through face f
        return float(s[f]), normals[f], p - s[f] * normals[f]
    # outside: the nearest of the faces p projects into ...
    candidates = [q for q in (p - s[0] * normals[0], p - s[1] * normals[1]) if _in_triangle_xy(q, top)]
    for w, (i, j) in enumerate(((0, 1), (1, 2), (2, 0))):
        q = p - s[2 + w] * normals[2 + w]                       # on the plane of wall (i, j)
        e = top[j] - top[i]
        t = (q - top[i])[:2] @ e[:2] / (e[:2] @ e[:2])
        if 0 <= t <= 1 and -base <= q[2] <= top[i, 2] + t * e[2]:
            candidates.append(q)
    # ... and of the nine edges a + t e, with t = (p - a)·e / e·e clamped to [0, 1]
    A, E = prism.A, prism.E
    t = np.clip(np.einsum("ij,ij->i", p - A, E) / prism.EE, 0.0, 1.0)
    Q = np.concatenate([np.reshape(candidates, (-1, 3)), A + t[:, None] * E])
    q = Q[np.argmin(np.linalg.norm(Q - p, axis=1))]
    dist = float(np.linalg.norm(p - q))
    return dist, ((p - q) / dist if dist > 0 else normals[f]), q


def segment_over_top(ends, s, prism):
    r"""A segment (ends ``(2, 3)``, their heights ``s (2,)`` over the top plane) against a
    :class:`Prism` in closed form, where it applies: ``(dist, n, q, p)`` (``q`` on the prism,
    ``p`` on the segment), or ``None`` (then GJK decides).

    The prism lies below the plane of its top face, :math:`n_0\cdot x \le c_0`. If both ends
    :math:`p_{1,2}` of the segment lie above it, at heights :math:`s_i = n_0\cdot p_i - c_0 > 0`,
    the lower end :math:`p` is the segment's point nearest that half-space; if its foot
    :math:`q = p - s\,n_0` lies on the top face (a point of the prism), :math:`(p, q)` is also
    the nearest pair of segment and prism: ``dist = s`` along :math:`n_0`. (Ends at about the
    same height have no single nearest pair: left to GJK, whose answer is then its own.)

    >>> top = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0]])
    >>> ends = np.array([[0.2, 0.2, 0.5], [0.2, 0.2, 1.5]])
    >>> segment_over_top(ends, ends[:, 2], make_prism(top, 1.0))
    (0.5, array([0., 0., 1.]), array([0.2, 0.2, 0. ]), array([0.2, 0.2, 0.5]))
    """
    k = int(s[1] < s[0])
    if s[k] <= 0 or abs(s[0] - s[1]) <= 1e-6 * s[k]:
        return None
    n0, p = prism.normals[0], ends[k]
    q = p - s[k] * n0
    return (float(s[k]), n0, q, p) if _in_triangle_xy(q, prism.top) else None


def hfield_convex(model, gpos, gmat, g1, g2, margin):
    """Contacts of height field geom ``g1`` with convex geom ``g2`` closer than ``margin``:
    one per prism under ``g2`` (see the module docstring), at most :data:`MAXCONPAIR`.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); _ = s.add_hfield("flat", [1, 1, 0.1, 0.1], 3, 3)
    >>> _ = s.add_geom(0, "hfield", None, hfield="flat"); _ = s.add_geom(0, "sphere", [0.1], pos=[0.5, 0.4, 0.09])
    >>> m = s.compile()
    >>> [(round(d, 9), n.round(9) + 0.0) for d, _, n, _ in hfield_convex(m, m.geom_pos, np.tile(np.eye(3), (2, 1, 1)), 0, 1, 0.0)]
    [(-0.01, array([0., 0., 1.]))]
    """
    h = int(model.geom_dataid[g1])
    a, b, e, d = hfield_dims(model, h)[:4]
    z = hfield_grid(model, h)[2]
    # 0. first the geom's oriented box (cheap): where even its cells (step 2) have no corner
    # high enough, the geom's own (within the box's) have none either: no prism to visit
    # (a sphere's or a capsule's own bounds are as cheap, and they are step 1's)
    exact = model.geom_type[g2] in (SPHERE, CAPSULE)
    box_lo, box_hi = (local_bounds if exact else box_bounds)(model, gpos, gmat, g1, g2)
    rmin, rmax, cmin, cmax = subgrid(model, h, box_lo, box_hi, margin)
    if rmax <= rmin or cmax <= cmin or z[rmin:rmax + 1, cmin:cmax + 1].max() + margin < box_lo[2]:
        return []
    lo, hi = (box_lo, box_hi) if exact else local_bounds(model, gpos, gmat, g1, g2)
    # 1. the bounding boxes, grown by the margin, must overlap
    (x0, y0, z0), (x1, y1, z1) = lo.tolist(), hi.tolist()
    if x0 - margin > a or y0 - margin > b or z0 - margin > e or x1 + margin < -a or y1 + margin < -b \
            or z1 + margin < -d:
        return []
    if not exact:
        rmin, rmax, cmin, cmax = subgrid(model, h, lo, hi, margin)
    # 2. a prism wholly below the geom's box (grown by the margin) cannot touch: only the
    # prisms with a corner at least that high are visited, in the order rows, columns,
    # triangles (cell (r, c)'s triangles: cell_triangles)
    H = z[rmin:rmax + 1, cmin:cmax + 1] + margin >= lo[2]
    up = np.array([H[1:, :-1] | H[:-1, :-1] | H[1:, 1:], H[:-1, :-1] | H[1:, 1:] | H[:-1, 1:]]).transpose(1, 2, 0)
    out = []
    for i, j, k in zip(*np.nonzero(up)):
        # 3. the prism against the geom
        prism = cell_prism(model, h, rmin + int(i), cmin + 1 + int(j), int(k))
        res = prism_distance(model, gpos, gmat, g1, prism, g2, cutoff=margin)
        if res is None or res[0] >= margin:
            continue
        dist, n, wa, wb = res
        out.append((float(dist), (wa + wb) / 2, n, np.zeros(3)))
        if len(out) == MAXCONPAIR:
            return out
    return out
