"""General convex narrowphase: support functions, GJK (distance) and EPA (penetration).

Every convex shape :math:`A` is known only through its **support function**
:math:`s_A(d) = \\arg\\max_{a\\in A} d\\cdot a`. The two shapes collide exactly when the
origin lies in the Minkowski difference :math:`D = A - B = \\{a - b\\}`, whose support is
:math:`s_D(d) = s_A(d) - s_B(-d)`, and the signed distance is

.. math:: \\mathrm{dist}(A, B) = -\\min_{|n| = 1} h_D(n),\\qquad h_D(n) = n\\cdot s_D(n),

attained at the contact normal :math:`n` (from A towards B).

* **GJK** (Gilbert-Johnson-Keerthi) walks a simplex of support points of :math:`D` towards the
  origin: if the point :math:`v` of :math:`D` closest to the origin is not the origin, the
  shapes are apart by :math:`|v|` and :math:`n = -v/|v|`.
* **EPA** (expanding polytope) starts from GJK's tetrahedron around the origin and keeps
  adding the support point along the normal of the polytope face nearest the origin, until
  that face lies on :math:`\\partial D` (to a tolerance): its distance is the depth and its
  normal is :math:`n`.

In both cases the witness points :math:`a\\in A`, :math:`b\\in B` come from the barycentric
coordinates of the closest point, and the contact point is their midpoint. This gives one
contact, the deepest; :func:`convex` then adds MuJoCo 4.0's other contacts (face clipping,
small tilts). A mesh collides as its convex hull: the support point over all its vertices
is the support point of the hull, so GJK and EPA need no hull (the tests check contact
points against the hull from ``scipy.spatial.ConvexHull``; the face clipping builds it,
:mod:`~rbdl_edu.collision.polytope`).
"""
from __future__ import annotations

import math

import numpy as np

from rbdl_edu.collision.clipping import face_contacts, plane_face
from rbdl_edu.collision.geometry import mesh_vertices
from rbdl_edu.collision.multiccd import perturbed_contacts
from rbdl_edu.collision.polytope import geom_polytope
from rbdl_edu.collision.simplex import closest_on_simplex
from rbdl_edu.model.enums import BOX, CAPSULE, CYLINDER, ELLIPSOID, MESH, SPHERE
from rbdl_edu.model.frozen import plain

TOL = 1e-12          # GJK: distance below which the origin counts as inside
GJK_TOL = 1e-12      # GJK: relative gap between |v| and the separation along v
MAX_ITER = 500
EPA_TOL = 1e-10      # EPA: gap between polytope and shape (relative above 1)
EPA_ITER = 150
ROUGH_GJK_TOL, ROUGH_EPA_TOL = 1e-6, 1e-6         # curved pairs: a start for polish
POLYTOPE_CORES = {SPHERE, CAPSULE, BOX, MESH}     # a point, a segment, polytopes


# --------------------------------------------------------------------- support functions --
def core_radius(model, g):
    r"""Radius by which a sphere (a point) or a capsule (a segment) rounds its *core*; 0 else.

    GJK/EPA run on the cores and the radii are subtracted afterwards: a rounded shape is
    its core swept by a ball, so :math:`\mathrm{dist}(A, B) = \mathrm{dist}(\mathrm{core}_A,
    \mathrm{core}_B) - r_A - r_B` with the same normal -- exact, and faster than running
    EPA on a curved surface.
    """
    return float(model.geom_size[g][0]) if model.geom_type[g] in (SPHERE, CAPSULE) else 0.0


def support(model, gpos, gmat, g, d, core=False):
    """Support point of geom ``g`` in world direction ``d``: the point farthest along ``d``.

    Computed in the geom frame (``l = R^T d``) and mapped back (``p + R x``):
    sphere ``r l̂``; capsule ``r l̂ ± h z``; ellipsoid ``S² l / |S l|`` (``S = diag(size)``);
    cylinder ``r (l_x, l_y)/|…| ± h z``; box ``sign(l) ∘ size``; mesh: the vertex with the
    largest ``l·v``.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); _ = s.add_geom(0, "box", [1, 2, 3])
    >>> support(s.compile(), np.zeros((1, 3)), np.eye(3)[None], 0, np.array([1., -1, 1]))
    array([ 1., -2.,  3.])
    """
    return support_of(model, gpos, gmat, g, core)(d)


def support_of(model, gpos, gmat, g, core=False):
    """:func:`support` of geom ``g`` as a function of the direction alone: the geom's type,
    size and pose are read once (GJK and EPA ask dozens of times per pair)."""
    m = plain(model)
    t, s, R, p = m.geom_type[g], m.geom_size[g], gmat[g], gpos[g]
    Rt, rad = R.T, 0.0 if core else s[0]
    if t == SPHERE:
        def local(lo, n):
            return lo / n * rad if n > 0 else np.array([rad, 0, 0])
    elif t == CAPSULE:
        def local(lo, n):
            return (lo / n * rad if n > 0 else np.zeros(3)) + [0, 0, s[1] if lo[2] >= 0 else -s[1]]
    elif t == ELLIPSOID:
        def local(lo, n):
            sl = s * lo
            norm = math.sqrt(sl @ sl)
            return s * sl / norm if norm > 0 else np.array([s[0], 0, 0])
    elif t == CYLINDER:
        def local(lo, n):
            r = np.hypot(lo[0], lo[1])
            return np.array([lo[0] / r * s[0] if r > 0 else 0, lo[1] / r * s[0] if r > 0 else 0,
                             s[1] if lo[2] >= 0 else -s[1]])
    elif t == BOX:
        def local(lo, n):
            return np.where(lo >= 0, s, -s)
    elif t == MESH:
        v = mesh_vertices(model, g)

        def local(lo, n):
            return v[np.argmax(v @ lo)]
    else:
        raise ValueError(f"geom {g}: type {t} has no support function")

    def farthest(d):
        lo = Rt @ d
        return p + R @ local(lo, math.sqrt(lo @ lo))
    return farthest


# --------------------------------------------------------------------------------- GJK ----
def gjk(supp, d0, cutoff=np.inf, tol=GJK_TOL, start=None):
    r"""GJK on the Minkowski difference with support ``supp(d) -> (w, a, b)``, from the
    support point along ``d0`` or from ``start``, the ``(v, simplex)`` of a rougher run.

    Returns ``(v, simplex)`` where ``v`` is the closest point of :math:`D` to the origin
    (zero if the origin is inside) and ``simplex`` the list of ``(w, a, b)`` around it; or
    ``None`` as soon as the distance is known to exceed ``cutoff`` (MuJoCo's early exit:
    every point :math:`x` of :math:`D` has :math:`x\cdot v \ge w\cdot v` for the support
    point :math:`w = s_D(-v)`, so :math:`\mathrm{dist} \ge w\cdot v/|v|`).
    """
    if start is None:
        simplex = [supp(d0)]
        v = simplex[0][0]
    else:
        v, simplex = start
    vv = v @ v                                      # |v|²
    for _ in range(MAX_ITER):
        if vv < TOL ** 2:
            return np.zeros(3), simplex
        w = supp(-v)
        vw = v @ w[0]
        if vw > cutoff * np.sqrt(vv):               # separated by more than the cutoff
            return None
        # stop when the new support point does not get closer: |v|² - v·w ≤ ε |v|²,
        # or is one we already have (GJK would cycle)
        if vv - vw <= tol * vv or any(_norm2(w[0] - s[0]) < 1e-28 for s in simplex):
            return v, simplex
        simplex.append(w)
        v_old, vv_old = v, vv
        v, idx, lam = closest_on_simplex(np.array([s[0] for s in simplex]))
        vv = v @ v
        if vv >= vv_old:                            # no progress (rounding): done
            return v_old if vv > vv_old else v, simplex
        simplex = [simplex[i] for i in idx]
        if len(simplex) == 4:                      # tetrahedron around the origin
            return np.zeros(3), simplex
    return v, simplex


def _witness(simplex, lam):
    a = sum(l * s[1] for l, s in zip(lam, simplex))
    b = sum(l * s[2] for l, s in zip(lam, simplex))
    return a, b


# --------------------------------------------------------------------------------- EPA ----
def _cross(a, b):
    """``a × b`` of two 3-vectors (``np.cross`` without its general-shape plumbing)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _face(P, i, j, k):
    """Outward normal and distance of triangle (i, j, k) of the polytope ``P``."""
    n = _cross(P[j] - P[i], P[k] - P[i])
    length = math.sqrt(n @ n)
    if length < 1e-14:                            # degenerate sliver: never the nearest face
        return np.zeros(3), np.inf
    n = n / length
    return n, n @ P[i]


def _blow_up(supp, simplex):
    """Grow a GJK simplex that touches the origin into a tetrahedron around it."""
    pts = list(simplex)
    axes = list(np.eye(3)) + list(-np.eye(3))
    while len(pts) < 4:
        W = np.array([p[0] for p in pts])
        if len(pts) == 1:
            dirs = axes
        elif len(pts) == 2:
            e = W[1] - W[0]
            u = np.cross(e, np.eye(3)[np.argmin(np.abs(e))])
            dirs = [u, -u, np.cross(e, u), -np.cross(e, u)]
        else:
            u = np.cross(W[1] - W[0], W[2] - W[0])
            dirs = [u, -u]
        for d in dirs:
            p = supp(d / np.linalg.norm(d))
            if min(np.linalg.norm(p[0] - q[0]) for q in pts) > 1e-10:
                newW = np.array([q[0] for q in pts] + [p[0]])
                if np.linalg.matrix_rank(newW[1:] - newW[0], tol=1e-12) == len(pts):
                    pts.append(p)
                    break
        else:
            return None
    return pts


def epa(supp, simplex, tol=EPA_TOL):
    """Penetration depth, normal (from A to B) and witness points, starting from a simplex
    that holds the origin, to the gap ``tol`` between polytope and shape. Returns
    ``(depth, n, a, b)`` or ``None`` if degenerate."""
    pts = _blow_up(supp, simplex) if len(simplex) < 4 else list(simplex)
    if pts is None:
        return None
    P = [p[0] for p in pts]
    faces = []
    for i, j, k, l in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
        if _cross(P[j] - P[i], P[k] - P[i]) @ (P[l] - P[i]) > 0:
            j, k = k, j                           # orient each face away from the 4th vertex
        faces.append((i, j, k))
    data = {f: _face(P, *f) for f in faces}
    for _ in range(EPA_ITER):
        f = min(data, key=lambda f: data[f][1])
        n, dist = data[f]
        w = supp(n)
        # stop when the support along the face normal is no farther than the face itself
        if w[0] @ n - dist <= tol * max(1.0, abs(dist)):
            break
        gaps = np.array(P) - w[0]
        if np.min(np.einsum("ij,ij->i", gaps, gaps)) < 1e-26:     # nothing new to add
            break
        pts.append(w)
        P.append(w[0])
        new = len(P) - 1
        # remove every face that sees the new point; its boundary (horizon) edges are
        # those used by exactly one removed face; connect them to the new point
        seen = [g for g in data if data[g][0] @ (P[new] - P[g[0]]) > 1e-14]
        edges = {}
        for g in seen:
            for e in ((g[0], g[1]), (g[1], g[2]), (g[2], g[0])):
                if (e[1], e[0]) in edges:
                    del edges[(e[1], e[0])]
                else:
                    edges[e] = True
            del data[g]
        for a, b in edges:
            data[(a, b, new)] = _face(P, a, b, new)
        if not edges or not data:                 # numerically broken: keep the last face
            return _face_result(pts, P, f, n, dist)
    f = min(data, key=lambda f: data[f][1])
    return _face_result(pts, P, f, *data[f])


def _face_result(pts, P, f, n, dist):
    """Depth, normal and witness points of polytope face ``f`` at distance ``dist``."""
    # barycentric coordinates of the origin's projection dist·n on the face
    T = np.array([P[i] for i in f])
    lam = np.linalg.lstsq(np.vstack([T.T, np.ones(3)]), np.append(dist * n, 1.0), rcond=None)[0]
    a, b = _witness([pts[i] for i in f], lam)
    return dist, n, a, b


# --------------------------------------------------------------------------- colliders ----
def signed_distance(model, gpos, gmat, g1, g2, smooth=True, cutoff=np.inf):
    """``(dist, n, a, b)``: signed distance, normal from ``g1`` to ``g2``, witness points
    (``smooth=False``: GJK/EPA's answer, not polished); ``None`` if the distance exceeds
    ``cutoff`` (or EPA degenerates)."""
    support1, support2 = support_of(model, gpos, gmat, g1, core=True), support_of(model, gpos, gmat, g2, core=True)

    def supp(d):
        a, b = support1(d), support2(-d)
        return (a - b, a, b)
    # round the cores: dist - r1 - r2, so the cores' cutoff is cutoff + r1 + r2
    r1, r2 = core_radius(model, g1), core_radius(model, g2)
    out = core_distance(supp, gpos[g1] - gpos[g2], smooth, cutoff + r1 + r2)
    if out is None:
        return None
    dist, n, a, b = out
    # witness points pushed out along the normal
    return dist - r1 - r2, n, a + r1 * n, b - r2 * n


def core_distance(supp, d0, smooth=True, cutoff=np.inf):
    """``(dist, n, a, b)`` of two convex sets given the support ``supp`` of their difference.
    ``smooth=False`` says both are polytopes: GJK/EPA are then exact and :func:`polish` is
    skipped (it would find nothing to improve). ``None`` when they are farther apart than
    ``cutoff`` (or EPA degenerates).

    A curved pair runs GJK/EPA to a rough tolerance only (their convergence on a curved
    surface is slow) and :func:`polish` from there (quadratic); where polish finds no
    stationary point (a flat feature), GJK goes on to its full tolerance and EPA runs again."""
    if d0 @ d0 < 1e-20:
        d0 = np.array([1.0, 0, 0])
    out = found = None
    if smooth:
        found = gjk(supp, d0, cutoff, ROUGH_GJK_TOL)
        if found is None:
            return None
        rough = closest_or_deepest(supp, *found, ROUGH_EPA_TOL)
        out = polish(supp, *rough) if rough is not None else None
    if out is None:                        # (a curved pair: GJK goes on from its rough answer)
        found = gjk(supp, d0, cutoff, GJK_TOL, start=found)
        out = closest_or_deepest(supp, *found, EPA_TOL) if found is not None else None
    return out if out is not None and out[0] <= cutoff else None


def closest_or_deepest(supp, v, simplex, epa_tol):
    """From GJK's ``v`` and simplex: ``(|v|, -v/|v|, a, b)`` if apart, else EPA's
    ``(-depth, n, a, b)`` to ``epa_tol`` (``None``: a degenerate EPA)."""
    if v @ v > TOL ** 2:                           # apart: dist = |v|, n = -v/|v|
        _, idx, lam = closest_on_simplex(np.array([s[0] for s in simplex]))
        a, b = _witness([simplex[i] for i in idx], lam)
        dist = np.linalg.norm(v)
        return dist, -v / dist, a, b
    out = epa(supp, simplex, epa_tol)
    if out is None:
        return None
    depth, n, a, b = out
    return -depth, n, a, b


def polish(supp, dist, n, a, b, iters=40):
    r"""Sharpen the normal where the surfaces are smooth (damped Newton on :math:`h_D`).

    GJK and EPA approximate a curved :math:`D` by a polytope; the distance error is then
    the square of the normal error, and on nearly round shapes EPA converges slowly. The
    signed distance is :math:`-\min_{|n|=1} h_D(n)`; on the sphere of directions the
    gradient of :math:`h_D` is the tangential part of the support point :math:`s_D(n)`
    (Danskin), so at the optimum :math:`s_D(n) \parallel n`. We minimize :math:`h_D` by
    Newton steps in the tangent plane (finite-difference Jacobian; a gradient step when the
    Jacobian is not positive definite), halving a step until :math:`h_D` decreases. Where a
    support is flat (a face), the gradient jumps, no stationary point is reached, and
    ``None`` is returned: GJK/EPA's answer is exact for flat features.
    """
    def h_and_g(m, t1, t2):
        w = supp(m)[0]
        hm = w @ m
        return hm, np.array([t1 @ w, t2 @ w]) - hm * np.array([t1 @ m, t2 @ m])

    def basis(m):
        t1 = _cross(m, np.eye(3)[np.argmin(np.abs(m))])
        t1 /= math.sqrt(t1 @ t1)
        return t1, _cross(m, t1)

    m = n.copy()
    h0 = supp(m)[0] @ m
    hm = h0
    for _ in range(iters):
        t1, t2 = basis(m)
        hm, G = h_and_g(m, t1, t2)
        if np.linalg.norm(G) < 1e-14:
            break
        eps = 1e-7
        J = np.column_stack([(h_and_g(_unit(m + eps * t), t1, t2)[1] - G) / eps for t in (t1, t2)])
        (a, b), (_, c) = ((J + J.T) / 2).tolist()
        det = a * c - b * b                         # a 2x2: positive definite iff a > 0, det > 0
        g1, g2 = G.tolist()
        du = -np.array([(c * g1 - b * g2) / det, (a * g2 - b * g1) / det]) if a > 0 and det > 0 else -G
        while du @ du > 1e-28:                       # backtrack until h_D decreases, down
            m_new = _unit(m + du[0] * t1 + du[1] * t2)   # to a turn of 1e-14 rad
            h_new = supp(m_new)[0] @ m_new
            if h_new < hm:
                break
            du = du / 2
        else:
            break
        m, hm = m_new, h_new
    w, wa, wb = supp(m)
    stationary = np.linalg.norm(w - (w @ m) * m) <= 1e-9 * max(1.0, np.linalg.norm(w))
    # -h_D(m) is a separation along m, a lower bound of the signed distance; GJK's |v| and
    # EPA's face distance are upper bounds: accept a stationary point between them
    if not stationary or -(w @ m) > dist + 1e-12 or np.linalg.norm(m - n) > 0.1:
        return None
    return -(w @ m), m, wa, wb


def _norm2(v):
    return v @ v


def _unit(v):
    return v / math.sqrt(v @ v)


def convex(model, gpos, gmat, g1, g2, margin):
    """Convex-convex contacts: GJK if apart, EPA if penetrating, then MuJoCo 4.0's extra
    points: face clipping for two boxes or meshes (no margin,
    :mod:`~rbdl_edu.collision.clipping`), small tilts for the other pairs
    (:mod:`~rbdl_edu.collision.multiccd`), unless ``<flag multiccd="disable"/>``.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec()
    >>> _ = s.add_geom(0, "ellipsoid", [0.3, 0.2, 0.1]); _ = s.add_geom(0, "cylinder", [0.1, 0.2], pos=[0.35, 0, 0])
    >>> m = s.compile()
    >>> dist, pos, n, _ = convex(m, m.geom_pos, np.tile(np.eye(3), (2, 1, 1)), 0, 1, 0.0)[0]
    >>> round(dist, 9), np.round(n, 9) + 0.0
    (-0.05, array([1., 0., 0.]))
    """
    # cores that are polytopes (a point, a segment, a box, a mesh): GJK/EPA are exact
    smooth = not POLYTOPE_CORES >= {model.geom_type[g1], model.geom_type[g2]}
    out = signed_distance(model, gpos, gmat, g1, g2, smooth, cutoff=margin)
    if out is None:
        return []
    dist, n, a, b = out
    if dist > margin:
        return []
    first = (float(dist), (a + b) / 2, n)
    cons = [first]
    if not model.opt.disabled("multiccd"):
        polytopes = {BOX, MESH} >= {model.geom_type[g1], model.geom_type[g2]}
        if polytopes and margin <= 0:
            P1, P2 = geom_polytope(model, g1), geom_polytope(model, g2)
            cons = face_contacts(P1, gpos[g1], gmat[g1], P2, gpos[g2], gmat[g2], n) or cons
        else:
            cons = perturbed_contacts(model, gpos, gmat, g1, g2, margin, first,
                                      lambda P, R: signed_distance(model, P, R, g1, g2, smooth=False))
    return [(d, pos, m, np.zeros(3)) for d, pos, m in cons]


def plane_convex(model, gpos, gmat, g1, g2, margin):
    """Plane and a convex geom (ellipsoid, mesh): the support point along ``-n`` is the
    deepest point, :math:`d = n\\cdot(s(-n) - p_1)`. A mesh adds the other vertices
    below ``margin``: the rest of the face at the deepest vertex
    (:func:`~rbdl_edu.collision.clipping.plane_face`, MuJoCo 4.0).

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec()
    >>> _ = s.add_geom(0, "plane", [0, 0, 1]); _ = s.add_geom(0, "ellipsoid", [0.3, 0.2, 0.1], pos=[0, 0, 0.08])
    >>> m = s.compile()
    >>> round(plane_convex(m, m.geom_pos, np.tile(np.eye(3), (2, 1, 1)), 0, 1, 0.0)[0][0], 12)
    -0.02
    """
    n, p1 = gmat[g1][:, 2], gpos[g1]
    s = support(model, gpos, gmat, g2, -n)
    dist = n @ (s - p1)
    if dist > margin:
        return []
    out = []
    if model.geom_type[g2] == MESH:
        P = geom_polytope(model, g2)
        deepest = int(np.argmax(P.vert @ (gmat[g2].T @ -n)))
        out = plane_face(P, gpos[g2], gmat[g2], p1, n, margin, deepest)
    return [(d, x, m, np.zeros(3)) for d, x, m in out or [(float(dist), s - n * dist / 2, n)]]
