"""Collision detection the way MuJoCo does it.

Pipeline (one module per stage):

* :mod:`~rbdl_edu.collision.geometry`: geom poses, bounding spheres and boxes;
* :mod:`~rbdl_edu.collision.broadphase`: sweep and prune along principal axes;
* :mod:`~rbdl_edu.collision.filters`: weld/parent/bitmask/exclude/pair/bounding-sphere rules;
* :mod:`~rbdl_edu.collision.primitives`, :mod:`~rbdl_edu.collision.box`,
  :mod:`~rbdl_edu.collision.convex`: the narrowphase colliders;
* :mod:`~rbdl_edu.collision.mixing`: contact parameters;
* :mod:`~rbdl_edu.collision.driver`: ``collision(model, data)`` ties them together.
"""
from .contact import Contact, make_frame
from .driver import COLLIDERS, candidate_pairs, collision, narrowphase

__all__ = ["Contact", "make_frame", "collision", "candidate_pairs", "narrowphase", "COLLIDERS"]
