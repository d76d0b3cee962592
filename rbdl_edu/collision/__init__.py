"""Collision detection the way MuJoCo does it.

Pipeline (one module per stage):

* :mod:`~rbdl_edu.collision.geometry`: geom poses, bounding spheres and boxes;
* :mod:`~rbdl_edu.collision.broadphase`: sweep and prune along principal axes;
* :mod:`~rbdl_edu.collision.filters`: weld/parent/bitmask/exclude/pair/bounding-sphere rules;
* :mod:`~rbdl_edu.collision.midphase`: a tree of boxes per body; :mod:`~rbdl_edu.collision.batch`:
  the tests of a pass on arrays of pairs;
* :mod:`~rbdl_edu.collision.primitives`, :mod:`~rbdl_edu.collision.box`,
  :mod:`~rbdl_edu.collision.capsule_box`, :mod:`~rbdl_edu.collision.capsule_cylinder`,
  :mod:`~rbdl_edu.collision.convex` (with
  :mod:`~rbdl_edu.collision.polytope`, :mod:`~rbdl_edu.collision.clipping`,
  :mod:`~rbdl_edu.collision.multiccd`), :mod:`~rbdl_edu.collision.ellipsoid`,
  :mod:`~rbdl_edu.collision.hfield`: the narrowphase colliders;
* :mod:`~rbdl_edu.collision.colliders`: which collider a geom pair goes to, contacts from
  its points; :mod:`~rbdl_edu.collision.pair_params`: contact parameters;
* :mod:`~rbdl_edu.collision.driver`: ``collide(model, data)`` ties them together.

Checked against MuJoCo 4.0.0 (``tests/test_collision_*.py``). Where we knowingly differ:

* convex pairs: the deepest contact is exact (GJK/EPA, polished on curved surfaces; a sphere
  against an ellipsoid by the nearest point in closed form), MuJoCo's EPA stops at
  ``ccd_tolerance``. The extra contacts of MuJoCo 4.0's multi-contact path are
  reproduced (face clipping for box/mesh pairs, :mod:`~rbdl_edu.collision.clipping`; tilts
  for the others, :mod:`~rbdl_edu.collision.multiccd`), with two known differences: where
  a clipped patch has more than four corners, the four kept depend on where MuJoCo's mesh
  polygon starts (ours starts at its lowest vertex index, as MuJoCo's often does); and
  where a tilted pair's contact is a line or a disk, the points found match MuJoCo's in
  number, but on a disk not in place (its first point is wherever its EPA stopped);
* capsule-cylinder: on the cylinder's curved side a closed form, one contact, as MuJoCo 4.0's
  single-shot multi-contact path gives; off the side (caps, rims) GJK/EPA and the tilts, whose
  count differs from MuJoCo 4.0's where a capsule lies on a cap (MuJoCo: two points, each at
  its own depth; ours: one) and in a few poses across a rim;
* plane-mesh: the mesh face at the deepest vertex, its corners within the margin (MuJoCo
  4.0; the 3.x rule of up to three neighbouring vertices is gone);
* height field against a box or a mesh with zero margin: MuJoCo's EPA stops early on this
  "discrete" pair (it tells repeated support points by vertex indices, which its prisms
  do not set), so its depth is a lower bound and its normal not the optimal one; ours is
  the exact penetration of each prism (with any margin MuJoCo's agrees with ours);
* SDFs and flexes are not supported; ``<flag nativeccd="disable"/>`` (MuJoCo's older
  libccd path) is not reproduced: the convex colliders compute what the native one does,
  whatever the flag.

The pipeline stage is :func:`~rbdl_edu.collision.driver.collide` (MuJoCo's ``mj_collision``,
at the poses already in ``data``); :func:`~rbdl_edu.collision.driver.detect` computes the
poses at ``data.qpos`` first and returns the contacts, for a look at one configuration.
A user contact filter (MuJoCo's ``mjcb_contactfilter``) is ``data.contact_filter``
(:func:`~rbdl_edu.collision.filters.user_contact_filter`).
"""
from rbdl_edu.collision.contact import Contact, make_frame
from rbdl_edu.collision.driver import COLLIDERS, candidate_pairs, collide, detect, narrowphase
from rbdl_edu.collision.filters import ContactFilterError

__all__ = ["Contact", "make_frame", "detect", "collide", "candidate_pairs", "narrowphase", "COLLIDERS",
           "ContactFilterError"]

