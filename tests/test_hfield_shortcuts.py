"""The height field's exact shortcuts for a capsule (``rbdl_edu.collision.hfield``) against
GJK/EPA on the same segment and prism.

* :func:`segment_over_top` (a segment over a prism's top face), where it answers, gives
  GJK's distance, normal and witness points to round-off (1e-12);
* the culls it rests on are lower bounds: the largest least height of the segment over the
  prism's five planes and :func:`edge_gap` never exceed GJK/EPA's signed distance;
* :func:`point_prism` (with its top-face shortcut) gives GJK's answer to round-off.

Random prisms (a top triangle of random heights over a random base) and random segments
near them, seeded; a few hundred cases, each case both ways.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.collision.convex import core_distance
from rbdl_edu.collision.hfield import edge_gap, make_prism, point_prism, segment_over_top


def random_prism(rng):
    xy = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]) @ (np.eye(2) + 0.3 * rng.standard_normal((2, 2)))
    top = np.column_stack([xy, rng.uniform(0.0, 0.5, 3)])
    u, v = top[1, :2] - top[0, :2], top[2, :2] - top[0, :2]
    if abs(u[0] * v[1] - u[1] * v[0]) < 1e-3:                 # (a sliver: widen it)
        top[2, 0] += 0.1
    return make_prism(top, rng.uniform(0.05, 0.5))


def gjk_segment_prism(ends, prism):
    """GJK/EPA's ``(dist, n, q, p)`` of the segment and the prism (both polytopes)."""
    def supp(d):
        a = prism.corners[np.argmax(prism.corners @ d)]
        b = ends[np.argmax(ends @ -d)]
        return a - b, a, b
    return core_distance(supp, prism.corners.mean(axis=0) - ends.mean(axis=0), smooth=False)


def cases(n=300, seed=7):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        prism = random_prism(rng)
        center = np.append(prism.top[:, :2].mean(axis=0) + rng.uniform(-0.6, 0.6, 2), rng.uniform(-0.3, 0.9))
        half = rng.standard_normal(3) * rng.uniform(0.0, 0.4)
        if rng.random() < 0.3:
            half[2] *= 0.01                                     # nearly level
        yield prism, np.stack([center + half, center - half])


def test_segment_over_top_is_gjk():
    answered = 0
    for prism, ends in cases():
        s = ends @ prism.normals[0] - prism.offsets[0]
        over = segment_over_top(ends, s, prism)
        if over is None:
            continue
        answered += 1
        dist, n, q, p = over
        ref_dist, ref_n, ref_q, ref_p = gjk_segment_prism(ends, prism)
        assert abs(dist - ref_dist) < 1e-12
        np.testing.assert_allclose(n, ref_n, atol=1e-12)
        np.testing.assert_allclose(q, ref_q, atol=1e-12)
        np.testing.assert_allclose(p, ref_p, atol=1e-12)
    assert answered > 30                    # the shortcut is exercised, not just skipped


def test_culls_are_lower_bounds():
    culled = 0
    for prism, ends in cases(seed=11):
        dist = gjk_segment_prism(ends, prism)[0]
        planes = (ends @ prism.normals.T - prism.offsets).min(axis=0).max()
        gap = edge_gap(ends, prism)
        assert planes <= dist + 1e-12 and gap <= dist + 1e-12
        culled += gap > planes
    assert culled > 10                      # the edge axes see gaps the face planes miss


def test_point_prism_is_gjk():
    over = 0
    for prism, ends in cases(200, seed=5):
        p = ends[0]
        dist, n, q = point_prism(p, prism)
        s = prism.normals @ p - prism.offsets
        if s.max() <= 0:
            continue                           # (inside: no GJK distance to compare)
        over += s[0] > 0 and s.max() == s[0]
        ref_dist, ref_n, ref_q, _ = gjk_segment_prism(np.stack([p, p]), prism)
        assert abs(dist - ref_dist) < 1e-12
        np.testing.assert_allclose(q, ref_q, atol=1e-12)
        np.testing.assert_allclose(n, ref_n, atol=1e-9)
    assert over > 20
