"""Collision detection the way MuJoCo does it.

Pipeline (one module per stage):

* :mod:`~rbdl_edu.collision.geometry`: geom poses, bounding spheres and boxes;
* :mod:`~rbdl_edu.collision.broadphase`: sweep and prune along principal axes;
* :mod:`~rbdl_edu.collision.filters`: weld/parent/bitmask/exclude/pair/bounding-sphere rules;
* :mod:`~rbdl_edu.collision.primitives`, :mod:`~rbdl_edu.collision.box`,
  :mod:`~rbdl_edu.collision.convex`, :mod:`~rbdl_edu.collision.hfield`: the narrowphase
  colliders;
* :mod:`~rbdl_edu.collision.mixing`: contact parameters;
* :mod:`~rbdl_edu.collision.driver`: ``collision(model, data)`` ties them together.

Checked against MuJoCo 4.0.0 (``tests/test_collision_*.py``). Where we knowingly differ:

* convex pairs (GJK/EPA) return one contact, the deepest; MuJoCo may add up to 4 more
  ("multi-CCD": perturbed re-runs, or polygon clipping for box/mesh pairs);
* capsule-box: the deepest contact is exact (EPA on the segment); MuJoCo's heuristic picks
  other points when the segment passes through the box, and its second point differs;
* plane-mesh: extra vertices are searched among all vertices, MuJoCo's among the
  neighbours of the deepest one (on meshes with a vertex graph);
* height field against a box or a mesh with zero margin: MuJoCo's EPA stops early on this
  "discrete" pair (it tells repeated support points by vertex indices, which its prisms
  do not set), so its depth is a lower bound and its normal not the optimal one; ours is
  the exact penetration of each prism (with any margin MuJoCo's agrees with ours);
* SDFs and flexes are not supported; ``<flag nativeccd="disable"/>`` (MuJoCo's older
  libccd path) is not reproduced: the convex colliders compute what the native one does,
  whatever the flag.

This package is also the pipeline stage itself: ``rbd.collision(model, data)`` calls
:func:`~rbdl_edu.collision.driver.collision` (the package is callable), and its modules
import as usual (``import rbdl_edu.collision.box as box``).
"""
import sys
import types

from .contact import Contact, make_frame
from .driver import COLLIDERS, candidate_pairs, collide, collision, narrowphase

__all__ = ["Contact", "make_frame", "collision", "collide", "candidate_pairs", "narrowphase", "COLLIDERS"]


class _Stage(types.ModuleType):
    """The package, callable as the stage ``collision(model, data)``."""

    def __call__(self, model, data):
        return collision(model, data)


sys.modules[__name__].__class__ = _Stage
