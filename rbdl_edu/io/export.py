"""Write a numeric :class:`~rbdl_edu.model.Model` as MJCF text, so MuJoCo can load the same model.

Used by the book's "Checking against MuJoCo" page and by the cross-check tests. Everything the
compiled model holds that changes the physics is written, as explicit numbers:

- the options, every number of ``mjOption`` and each flag;
- the tree: bodies (inertial, gravity compensation, mocap), joints (ref, springref, stiffness
  and damping with their nonlinear terms, springdamper, armature, friction loss, limits,
  margin, the softness of both, actuator force range, group), geoms (every contact parameter,
  the fluid model, ``mass="0"`` as the ``<inertial>`` holds the mass), sites and cameras
  (fixed, tracking, or looking at their target body);
- the assets geoms use: meshes (back in their file's frame) and height fields;
- in :mod:`~rbdl_edu.io.export_objects`: contact pairs and excludes, equalities, tendons,
  actuators, sensors and keyframes.

What cannot be written raises a :class:`ValueError` naming it (a symbolic model); nothing
is dropped silently. Drawing-only data (materials, lights,
textures) is left out, but each geom's and site's ``rgba`` is kept.

>>> from rbdl_edu.models import pendulum
>>> print(to_mjcf(pendulum()).splitlines()[0])
<mujoco model="rbdl_edu">
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.io.export_objects import object_sections
from rbdl_edu.io.export_text import b, f, name_of
from rbdl_edu.io.mjcf_camera import MODES
from rbdl_edu.model.enums import GEOM_NAMES, JOINT_NAMES, SLEEP_NAMES
from rbdl_edu.model.option import CHOICES
from rbdl_edu.rotation import quat_conj, quat_mul, quat_to_mat


def to_mjcf(model, name="rbdl_edu") -> str:
    """MJCF text of ``model`` (angles in radians, every joint ``ref`` kept)."""
    if model.is_symbolic:
        raise ValueError("to_mjcf needs a numeric model; substitute numbers for the symbols first")
    children = {i: [] for i in range(model.nbody)}
    for i in range(1, model.nbody):
        children[model.body_parentid[i]].append(i)
    lines = [f'<mujoco model="{name}">', '  <compiler angle="radian" autolimits="true"/>',
             *_option(model.opt), *_znear(model), *_assets(model), "  <worldbody>"]

    def body(i, ind):
        mocap = ' mocap="true"' if model.body_mocapid[i] >= 0 else ""
        mocap += f' sleep="{SLEEP_NAMES[int(model.body_sleep[i])]}"' if model.body_sleep[i] else ""
        lines.append(f'{ind}<body name="{name_of(model, "body", i)}" pos="{f(model.body_pos[i])}" '
                     f'quat="{f(model.body_quat[i])}" gravcomp="{f(model.body_gravcomp[i])}"{mocap}>')
        if model.body_mass[i] > 0:
            lines.append(f'{ind}  <inertial pos="{f(model.body_ipos[i])}" quat="{f(model.body_iquat[i])}" '
                         f'mass="{f(model.body_mass[i])}" diaginertia="{f(model.body_inertia[i])}"/>')
        lines.extend(ind + "  " + _joint(model, j)
                     for j in range(model.body_jntadr[i], model.body_jntadr[i] + model.body_jntnum[i]))
        contents(i, ind + "  ")
        lines.append(f"{ind}</body>")

    def contents(i, ind):
        lines.extend(ind + _geom(model, g) for g in np.flatnonzero(model.geom_bodyid == i))
        lines.extend(ind + _site(model, s) for s in np.flatnonzero(model.site_bodyid == i))
        lines.extend(ind + _camera(model, k) for k in np.flatnonzero(model.cam_bodyid == i))
        for k in children[i]:
            body(k, ind)

    contents(0, "    ")
    lines += ["  </worldbody>", *object_sections(model), "</mujoco>"]
    return "\n".join(lines) + "\n"


# -- options: every number of mjOption, and each flag that differs from its default ----------
_OPTION_NUMBERS = ("timestep", "gravity", "wind", "magnetic", "density", "viscosity", "impratio", "o_margin",
                   "o_solref", "o_solimp", "o_friction", "iterations", "tolerance", "ls_iterations",
                   "ls_tolerance", "noslip_iterations", "noslip_tolerance", "ccd_iterations", "ccd_tolerance",
                   "sleep_tolerance")


def _option(opt):
    attrs = " ".join(f'{k}="{_number(getattr(opt, k))}"' for k in _OPTION_NUMBERS)
    attrs += "".join(f' {k}="{getattr(opt, k)}"' for k in CHOICES)
    if opt.actuatorgroupdisable:
        attrs += f' actuatorgroupdisable="{" ".join(str(g) for g in sorted(opt.actuatorgroupdisable))}"'
    flags = {**{k: "disable" for k in sorted(opt.disableflags)}, **{k: "enable" for k in sorted(opt.enableflags)}}
    if not flags:
        return [f"  <option {attrs}/>"]
    return [f"  <option {attrs}>", "    <flag " + " ".join(f'{k}="{v}"' for k, v in flags.items()) + "/>",
            "  </option>"]


def _number(x):
    return str(x) if isinstance(x, (int, np.integer)) else f(x)


# -- the tree's elements ---------------------------------------------------------------------
def _joint(model, j):
    """``<joint>`` with every per-joint and per-dof number: ``stiffness`` and ``damping`` carry
    their nonlinear coefficients, ``solreffriction``/``solimpfriction`` are the dof's."""
    d, a, kind = model.jnt_dofadr[j], model.jnt_qposadr[j], JOINT_NAMES[model.jnt_type[j]]
    attrs = (f'name="{name_of(model, "jnt", j)}" type="{kind}" pos="{f(model.jnt_pos[j])}" '
             f'group="{int(model.jnt_group[j])}" '
             f'stiffness="{f([model.jnt_stiffness[j], *model.jnt_stiffnesspoly[j]])}" '
             f'damping="{f([model.dof_damping[d], *model.dof_dampingpoly[d]])}" '
             f'armature="{f(model.dof_armature[d])}" frictionloss="{f(model.dof_frictionloss[d])}" '
             f'limited="{b(model.jnt_limited[j])}" range="{f(model.jnt_range[j])}" margin="{f(model.jnt_margin[j])}" '
             f'solreflimit="{f(model.jnt_solref[j])}" solimplimit="{f(model.jnt_solimp[j])}" '
             f'solreffriction="{f(model.dof_solref[d])}" solimpfriction="{f(model.dof_solimp[d])}" '
             f'actuatorgravcomp="{b(model.jnt_actgravcomp[j])}"')
    if np.any(model.jnt_springdamper[j] != 0):
        attrs += f' springdamper="{f(model.jnt_springdamper[j])}"'
    if kind in ("hinge", "slide"):
        attrs += (f' axis="{f(model.jnt_axis[j])}" ref="{f(model.qpos0[a])}" springref="{f(model.qpos_spring[a])}"'
                  f' actuatorfrclimited="{b(model.jnt_actfrclimited[j])}"'
                  f' actuatorfrcrange="{f(model.jnt_actfrcrange[j])}"')
    elif np.any(model.jnt_actfrcrange[j] != 0):
        attrs += f' actuatorfrcrange="{f(model.jnt_actfrcrange[j])}"'
    return f"<joint {attrs}/>"




def _geom(model, g):
    """``<geom>`` with ``mass="0"`` (the body's ``<inertial>`` holds the mass) and every contact
    parameter; a mesh geom's pose is given in its file's frame (see :func:`_mesh_assets`)."""
    kind = GEOM_NAMES[model.geom_type[g]]
    pos, quat, data = model.geom_pos[g], model.geom_quat[g], ""
    if kind == "hfield":
        data = f' hfield="{name_of(model, "hfield", model.geom_dataid[g])}"'
    if kind == "mesh":
        k = model.geom_dataid[g]
        data = f' mesh="{name_of(model, "mesh", k)}"'
        # MuJoCo moves a mesh geom by its mesh's principal frame: pose = given ∘ (mesh_pos, mesh_quat)
        quat = quat_mul(quat, quat_conj(model.mesh_quat[k]))
        pos = pos - quat_to_mat(quat) @ model.mesh_pos[k]
    fluid = model.geom_fluid[g]
    fluid = f' fluidshape="ellipsoid" fluidcoef="{f(fluid[1:6])}"' if fluid[0] > 0 else ""
    if np.any(model.geom_surfacevel[g]):                 # a conveyor's surface (MuJoCo 4.0)
        fluid += f' surfacevel="{f(model.geom_surfacevel[g])}"'
    if model.geom_adhesion[g]:                           # sticky contacts (MuJoCo 4.0)
        fluid += f' adhesion="{f(model.geom_adhesion[g])}"'
    return (f'<geom name="{name_of(model, "geom", g)}" type="{kind}"{data} '
            f'size="{f(model.geom_size[g])}" pos="{f(pos)}" quat="{f(quat)}" '
            f'contype="{model.geom_contype[g]}" conaffinity="{model.geom_conaffinity[g]}" '
            f'group="{int(model.geom_group[g])}" rgba="{f(model.geom_rgba[g])}" mass="0" '
            f'condim="{int(model.geom_condim[g])}" priority="{int(model.geom_priority[g])}" '
            f'friction="{f(model.geom_friction[g])}" solmix="{f(model.geom_solmix[g])}" '
            f'solref="{f(model.geom_solref[g])}" solimp="{f(model.geom_solimp[g])}" '
            f'margin="{f(model.geom_margin[g])}" gap="{f(model.geom_gap[g])}"{fluid}/>')


def _site(model, s):
    kind = GEOM_NAMES[model.site_type[s]]
    return (f'<site name="{name_of(model, "site", s)}" type="{kind}" size="{f(model.site_size[s])}" '
            f'pos="{f(model.site_pos[s])}" quat="{f(model.site_quat[s])}" group="{int(model.site_group[s])}" '
            f'rgba="{f(model.site_rgba[s])}"/>')


def _znear(model):
    """``<visual><map znear>``, which MuJoCo keeps as the focal lengths of a camera without a
    sensor size."""
    plain = np.flatnonzero(~np.all(model.cam_sensorsize > 0, axis=1)) if model.ncam else []
    return [f'  <visual><map znear="{f(model.cam_intrinsic[plain[0], 0])}"/></visual>'] if len(plain) else []


def _camera(model, k):
    """A ``<camera>`` (sensors may look through one): fixed, tracking its body or looking at
    its target body, with a sensor size, its focal lengths and principal point, otherwise its
    ``fovy``."""
    mode, t = MODES[int(model.cam_mode[k])], int(model.cam_targetbodyid[k])
    target = f' target="{name_of(model, "body", t)}"' if t >= 0 else ""
    lens = f'fovy="{f(model.cam_fovy[k])}"'
    if np.all(model.cam_sensorsize[k] > 0):
        lens = (f'sensorsize="{f(model.cam_sensorsize[k])}" focal="{f(model.cam_intrinsic[k][:2])}" '
                f'principal="{f(model.cam_intrinsic[k][2:])}"')
    projection = ("perspective", "orthographic")[int(model.cam_projection[k])]
    return (f'<camera name="{name_of(model, "cam", k)}" mode="{mode}"{target} pos="{f(model.cam_pos[k])}" quat="{f(model.cam_quat[k])}" '
            f'projection="{projection}" resolution="{" ".join(str(int(r)) for r in model.cam_resolution[k])}" '
            f'{lens}/>')


# -- assets: meshes and height fields --------------------------------------------------------
def _assets(model):
    out = _mesh_assets(model) + _hfield_assets(model)
    return ["  <asset>", *out, "  </asset>"] if out else []


def _mesh_assets(model):
    """Each mesh, its vertices put back in the file's frame (``mesh_pos + R(mesh_quat) v``), so
    MuJoCo finds the same principal frame again."""
    out = []
    for k in range(model.nmesh):
        v0, nv, f0, nf = (int(x[k]) for x in (model.mesh_vertadr, model.mesh_vertnum, model.mesh_faceadr,
                                              model.mesh_facenum))
        vert = model.mesh_vert[v0:v0 + nv] @ quat_to_mat(model.mesh_quat[k]).T + model.mesh_pos[k]
        face = " ".join(str(int(i)) for i in np.asarray(model.mesh_face[f0:f0 + nf]).reshape(-1))
        out.append(f'    <mesh name="{name_of(model, "mesh", k)}" vertex="{f(vert.reshape(-1))}"'
                   + (f' face="{face}"' if nf else "") + "/>")
    return out


def _hfield_assets(model):
    """The height fields; ``elevation`` lists the rows from the last (``y = +radius_y``) to
    row 0, as MJCF writes them."""
    out = []
    for k in range(model.nhfield):
        nrow, ncol, a = int(model.hfield_nrow[k]), int(model.hfield_ncol[k]), model.hfield_adr[k]
        rows = np.asarray(model.hfield_data[a:a + nrow * ncol], dtype=float).reshape(nrow, ncol)[::-1]
        out.append(f'    <hfield name="{name_of(model, "hfield", k)}" nrow="{nrow}" ncol="{ncol}" '
                   f'size="{f(model.hfield_size[k])}" elevation="{f(rows.reshape(-1))}"/>')
    return out
