"""Write a numeric :class:`~rbdl_edu.model.Model` as MJCF text, so MuJoCo can load the same tree.

Used by the book's "Checking against MuJoCo" page and by the cross-check tests on
random trees. Only what the dynamics needs is written (bodies, inertials, joints,
geoms with ``contype``/``conaffinity``, height fields with their elevation, gravity,
timestep).

>>> from rbdl_edu.models import pendulum
>>> print(to_mjcf(pendulum()).splitlines()[0])
<mujoco model="rbdl_edu">
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import GEOM_NAMES, JOINT_NAMES


def _f(x):
    return " ".join(repr(float(v)) for v in np.atleast_1d(x))


def to_mjcf(model, name="rbdl_edu") -> str:
    """MJCF text of ``model`` (angles in radians, every joint ``ref`` kept)."""
    if model.is_symbolic:
        raise ValueError("to_mjcf needs a numeric model; substitute numbers for the symbols first")
    children = {i: [] for i in range(model.nbody)}
    for i in range(1, model.nbody):
        children[model.body_parentid[i]].append(i)
    lines = [f'<mujoco model="{name}">', '  <compiler angle="radian" autolimits="true"/>',
             f'  <option gravity="{_f(model.opt.gravity)}" timestep="{model.opt.timestep!r}"/>',
             *_hfield_assets(model), "  <worldbody>"]

    def geoms(i, ind):
        for g in np.flatnonzero(model.geom_bodyid == i):
            size = model.geom_size[g]
            n = {"sphere": 1, "capsule": 2, "cylinder": 2}.get(GEOM_NAMES[model.geom_type[g]], 3)
            hfield = f' hfield="{_hfield_name(model, model.geom_dataid[g])}"' \
                if GEOM_NAMES[model.geom_type[g]] == "hfield" else ""
            lines.append(f'{ind}<geom name="{_geom_name(model, g)}" type="{GEOM_NAMES[model.geom_type[g]]}"{hfield} '
                         f'size="{_f(size[:n])}" pos="{_f(model.geom_pos[g])}" quat="{_f(model.geom_quat[g])}" '
                         f'contype="{model.geom_contype[g]}" conaffinity="{model.geom_conaffinity[g]}" '
                         f'rgba="{_f(model.geom_rgba[g])}" mass="0"{_contact_attrs(model, g)}/>')

    def body(i, ind):
        lines.append(f'{ind}<body name="{_body_name(model, i)}" pos="{_f(model.body_pos[i])}" '
                     f'quat="{_f(model.body_quat[i])}">')
        if model.body_mass[i] > 0:
            lines.append(f'{ind}  <inertial pos="{_f(model.body_ipos[i])}" quat="{_f(model.body_iquat[i])}" '
                         f'mass="{float(model.body_mass[i])!r}" diaginertia="{_f(model.body_inertia[i])}"/>')
        for j in range(model.body_jntadr[i], model.body_jntadr[i] + model.body_jntnum[i]):
            d, a = model.jnt_dofadr[j], model.jnt_qposadr[j]
            kind = JOINT_NAMES[model.jnt_type[j]]
            attrs = f'name="{model.jnt_names[j]}" type="{kind}" armature="{float(model.dof_armature[d])!r}"'
            if kind in ("hinge", "slide"):
                attrs += f' axis="{_f(model.jnt_axis[j])}" ref="{float(model.qpos0[a])!r}"'
            if kind in ("hinge", "ball"):
                attrs += f' pos="{_f(model.jnt_pos[j])}"'
            lines.append(f"{ind}  <joint {attrs}/>")
        geoms(i, ind + "  ")
        for k in children[i]:
            body(k, ind + "  ")
        lines.append(f"{ind}</body>")

    geoms(0, "    ")
    for k in children[0]:
        body(k, "    ")
    lines += ["  </worldbody>"] + _contact_section(model) + ["</mujoco>"]
    return "\n".join(lines) + "\n"


# -- contact parameters (added for the collision chapter) -------------------------------------
def _contact_attrs(model, g):
    """Geom contact attributes: ``condim priority friction solmix solref solimp margin gap
    surfacevel``."""
    return (f' condim="{int(model.geom_condim[g])}" priority="{int(model.geom_priority[g])}"'
            f' friction="{_f(model.geom_friction[g])}" solmix="{float(model.geom_solmix[g])!r}"'
            f' solref="{_f(model.geom_solref[g])}" solimp="{_f(model.geom_solimp[g])}"'
            f' margin="{float(model.geom_margin[g])!r}" gap="{float(model.geom_gap[g])!r}"'
            f' surfacevel="{_f(model.geom_surfacevel[g])}"')


def _contact_section(model):
    """``<contact>`` with the model's explicit ``<pair>`` s and ``<exclude>`` s."""
    if not model.npair and not model.nexclude:
        return []
    out = ["  <contact>"]
    for p in range(model.npair):
        g1, g2 = model.pair_geom1[p], model.pair_geom2[p]
        out.append(f'    <pair geom1="{_geom_name(model, g1)}" geom2="{_geom_name(model, g2)}" '
                   f'condim="{int(model.pair_dim[p])}" friction="{_f(model.pair_friction[p])}" '
                   f'solref="{_f(model.pair_solref[p])}" solreffriction="{_f(model.pair_solreffriction[p])}" '
                   f'solimp="{_f(model.pair_solimp[p])}" margin="{float(model.pair_margin[p])!r}" '
                   f'gap="{float(model.pair_gap[p])!r}"/>')
    for sig in model.exclude_signature:
        b1, b2 = int(sig) >> 16, int(sig) & 0xFFFF
        out.append(f'    <exclude body1="{_body_name(model, b1)}" body2="{_body_name(model, b2)}"/>')
    return out + ["  </contact>"]


def _hfield_assets(model):
    """``<asset>`` with the model's height fields; ``elevation`` lists the rows from the last
    (``y = +radius_y``) to row 0, as MJCF writes them."""
    if not model.nhfield:
        return []
    out = ["  <asset>"]
    for k in range(model.nhfield):
        nrow, ncol, a = int(model.hfield_nrow[k]), int(model.hfield_ncol[k]), model.hfield_adr[k]
        rows = np.asarray(model.hfield_data[a:a + nrow * ncol], dtype=float).reshape(nrow, ncol)[::-1]
        out.append(f'    <hfield name="{_hfield_name(model, k)}" nrow="{nrow}" ncol="{ncol}" '
                   f'size="{_f(model.hfield_size[k])}" elevation="{_f(rows.reshape(-1))}"/>')
    return out + ["  </asset>"]


def _hfield_name(model, k):
    return model.hfield_names[k] or f"hfield{k}"


def _geom_name(model, g):
    return model.geom_names[g] or f"geom{g}"


def _body_name(model, b):
    return model.body_names[b] or f"body{b}"
