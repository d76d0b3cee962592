"""MJCF ``<geom>`` and ``<site>``: a body's shapes, read with their defaults, in the body frame.

:func:`read_geom` reads a geom without adding it: the body needs every geom's mass part
(``mass, pos, quat, inertia``, from the type, size and ``density`` or ``mass``) to infer
its inertia (:mod:`~rbdl_edu.io.mjcf_inertial`) before the geoms are added
(:func:`add_geom`). Along the way: ``fromto`` (a segment instead of ``pos``/``quat``/the
half-length, :func:`fromto`), mesh geoms moved to their mesh's principal frame, height
fields (:mod:`~rbdl_edu.io.mjcf_hfield`), materials (:func:`material`) and the ellipsoid
fluid model's constants (:func:`fluid_constants`). Sites (:func:`add_site`) take a type,
size, pose and ``fromto`` the same way, and weigh nothing.

The compiler (``c``, an :class:`~rbdl_edu.io.mjcf.MJCFCompiler`) passes itself to each
function: the defaults, the settings, the names seen so far and the spec being filled.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><body><joint/>
...   <geom type="capsule" fromto="0 0 0 0 0 1" size="0.1"/></body></worldbody></mujoco>''')
>>> m.geom_pos[0], m.geom_size[0]
(array([0. , 0. , 0.5]), array([0.1, 0.5, 0. ]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.added_mass import added_mass
from rbdl_edu.io.inertia import geom_mass_inertia
from rbdl_edu.io.mjcf_defaults import check_attributes
from rbdl_edu.io.mjcf_hfield import hfield_geom
from rbdl_edu.io.orientation import z_to_quat
from rbdl_edu.io.xmlread import located
from rbdl_edu.model import defaults as D
from rbdl_edu.model.defaults import SOLIMP, SOLREF
from rbdl_edu.model.enums import MINVAL, MJEPS
from rbdl_edu.rotation import quat_mul, quat_to_mat

GEOM_TYPES = ("plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh")
# how many size numbers each geom type needs (they must be positive)
SIZE_NEEDED = {"sphere": 1, "capsule": 2, "cylinder": 2, "ellipsoid": 3, "box": 3}


def read_geom(c, raw, cls, fpos, fquat):
    """A geom's spec fields and its mass part ``(mass, pos, quat, inertia)``, all in the
    body frame."""
    check_attributes(raw)
    g = c.defaults.resolve(raw, cls)
    if g.get("type", "").strip() == "sdf":
        raise g.error('type="sdf" is not supported: SDF geoms (defined by plugins) are out of scope', "type")
    kind = g.keyword("type", GEOM_TYPES, "sphere")
    geom_cls = raw.get("class", cls)
    size = c.vector(raw, geom_cls, "size", np.zeros(3))
    pos = g.floats("pos", 3, default=np.zeros(3))
    quat = c.orientation(g)
    if g.has("fromto"):
        pos, quat, size = fromto(g, kind, size)
    dataid = -1
    if kind == "hfield":
        dataid, size = hfield_geom(c, g)
    elif g.has("hfield"):
        raise g.error(f"hfield given for a geom of type {kind!r}", "hfield")
    if kind == "mesh":
        mesh_name = g.get("mesh")
        if mesh_name not in c.mesh_id:
            raise g.error(f"unknown mesh {mesh_name!r}", "mesh")
        dataid = c.mesh_id[mesh_name]
        mesh = c.meshes[dataid]
        # MuJoCo moves a mesh geom's frame to the mesh's principal frame
        pos = pos + quat_to_mat(quat) @ mesh.pos
        quat = quat_mul(quat, mesh.quat)
        size = np.abs(mesh.vert).max(0) if len(mesh.vert) else np.zeros(3)
    elif g.has("mesh"):
        raise g.error(f"mesh given for a geom of type {kind!r}", "mesh")
    for k in range(SIZE_NEEDED.get(kind, 0)):
        if not size[k] > 0:
            raise g.error(f"size[{k}] of a {kind} must be positive", "size")
    pos = fpos + quat_to_mat(fquat) @ pos
    quat = quat_mul(fquat, quat)
    if g.bool("shellinertia", False):
        raise g.error('shellinertia="true" is not supported', "shellinertia")
    density = g.float("density", 1000.0)
    mass = g.float("mass", None)
    if (mass is not None and mass < 0) or density < 0:
        raise g.error("mass and density must not be negative", "mass" if mass is not None else "density")
    if kind == "mesh":
        m = mass if mass is not None else density * mesh.volume
        inertia = m / mesh.volume * mesh.inertia if mesh.volume > MINVAL else np.zeros(3)
    else:                     # a height field weighs as the box of its geom size, as in MuJoCo
        m, inertia = geom_mass_inertia("box" if kind == "hfield" else kind, size, density, mass)
    condim = g.int("condim", D.GEOM_CONDIM)
    if condim not in (1, 3, 4, 6):
        raise g.error("condim must be 1, 3, 4 or 6", "condim")
    group = g.int("group", 0)
    spec = dict(type=kind, size=size, name=g.get("name"), pos=pos, quat=quat,
                rgba=g.floats("rgba", 4, default=D.GEOM_RGBA),
                contype=g.int("contype", D.GEOM_CONTYPE),
                conaffinity=g.int("conaffinity", D.GEOM_CONAFFINITY), condim=condim,
                priority=g.int("priority", 0),
                friction=c.vector(raw, geom_cls, "friction", D.GEOM_FRICTION),
                solmix=g.float("solmix", D.GEOM_SOLMIX),
                solref=c.vector(raw, geom_cls, "solref", SOLREF),
                solimp=c.vector(raw, geom_cls, "solimp", SOLIMP),
                margin=g.float("margin", 0.0), gap=g.float("gap", 0.0), group=group,
                mesh=dataid if kind == "mesh" else None, hfield=dataid if kind == "hfield" else None,
                material=material(c, g), fluid=fluid_constants(c, g, geom_cls, raw, kind, size),
                surfacevel=c.vector(raw, geom_cls, "surfacevel", np.zeros(6)),
                adhesion=g.float("adhesion", 0.0))
    lo, hi = c.settings.inertiagrouprange
    part = (m, pos, quat, inertia) if lo <= group <= hi and m > MJEPS else None
    return dict(node=g, spec=spec, part=part)

def material(c, node):
    """The id of the element's ``material`` (-1 if none); an unknown one is an error."""
    name = node.get("material")
    if name is None:
        return -1
    if name not in c.materials:
        raise node.error(f"unknown material {name!r}", "material")
    return c.materials[name]

def fluid_constants(c, g, cls, raw, kind, size):
    """``geom_fluid``: ``fluidshape="ellipsoid"`` (1), ``fluidcoef`` (blunt drag, slender
    drag, angular drag, Kutta lift, Magnus lift), and the fluid's virtual mass and
    inertia per unit density (:func:`~rbdl_edu.io.added_mass.added_mass`)."""
    fluid = np.zeros(12)
    if g.keyword("fluidshape", ("none", "ellipsoid"), "none") == "ellipsoid":
        fluid[0] = 1.0
        fluid[1:6] = c.vector(raw, cls, "fluidcoef", [0.5, 0.25, 1.5, 1.0, 1.0])
        # a flat geom (a plane, a flat mesh) has no ellipsoid: NaN, as in MuJoCo, which
        # is harmless on the world and refused on a body (add_geom)
        with np.errstate(divide="ignore", invalid="ignore"):
            fluid[6:9], fluid[9:12] = added_mass(kind, size)
    return fluid

def fromto(g, kind, size):
    """``fromto="x1 y1 z1 x2 y2 z2"``: the geom's center is the midpoint, its z axis points
    along the segment (from the second point to the first, as MuJoCo), its half-length is
    half the distance; a box or ellipsoid gets ``size[0]`` as both other half-sizes."""
    if kind not in ("capsule", "cylinder", "box", "ellipsoid"):
        raise g.error(f"fromto cannot be used with a {kind}", "fromto")
    if g.has("pos") and np.any(g.floats("pos", 3) != 0):
        raise g.error("give pos or fromto, not both", "fromto")
    v = g.floats("fromto", 6)
    d = v[:3] - v[3:]
    length = float(np.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]))
    if length / 2 < MJEPS:
        raise g.error("fromto points coincide", "fromto")
    size = size.copy()
    if kind in ("capsule", "cylinder"):
        size[1] = length / 2
    else:
        size[1], size[2] = size[0], length / 2
    return (v[:3] + v[3:]) / 2, z_to_quat(d / length), size

def _moving(c, bid):
    """True if body ``bid`` or one of its ancestors has a joint (it is not welded to the world)."""
    while bid > 0:
        if c.body_has_joint[bid]:
            return True
        bid = c.spec.bodies[bid]["parent"]
    return False


def add_geom(c, bid, g):
    """Add geom ``g`` (what :func:`read_geom` returned) to body ``bid``."""
    spec = g["spec"]
    if bid and not np.all(np.isfinite(spec["fluid"])):
        raise g["node"].error(f"a flat {spec['type']} has no ellipsoid for the fluid model", "fluidshape")
    if spec["type"] == "plane" and _moving(c, bid):
        # MuJoCo's rule: planes are unbounded, the broadphase pairs them with every body
        raise g["node"].error("a plane geom must be in a static body (no joint in it or above it), "
                              "as MuJoCo requires", "type")
    name = spec["name"]
    if name:
        if name in c.names["geom"]:
            raise g["node"].error(f"repeated geom name {name!r}", "name")
        c.names["geom"][name] = len(c.spec.geoms)
    with located(g["node"]):
        c.spec.add_geom(bid, **spec)

def add_site(c, bid, raw, cls, fpos, fquat):
    """Add site element ``raw`` (class ``cls``, in the frame ``fpos, fquat``) to body ``bid``."""
    check_attributes(raw)
    s = c.defaults.resolve(raw, cls)
    kind = s.keyword("type", ("sphere", "capsule", "ellipsoid", "cylinder", "box"), "sphere")
    size = c.vector(raw, raw.get("class", cls), "size", D.SITE_SIZE)
    pos, quat = s.floats("pos", 3, default=np.zeros(3)), c.orientation(s)
    if s.has("fromto"):
        pos, quat, size = fromto(s, kind, size)
    name = c.unique_name("site", s)
    if name:
        c.names["site"][name] = len(c.spec.sites)
    with located(raw):
        c.spec.add_site(bid, name, fpos + quat_to_mat(fquat) @ pos, quat_mul(fquat, quat), size,
                        type=kind, group=s.int("group", 0), rgba=s.floats("rgba", 4, default=D.SITE_RGBA),
                        material=material(c, s))
