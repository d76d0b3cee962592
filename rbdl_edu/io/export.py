"""Write a numeric :class:`~rbdl_edu.model.Model` as MJCF text, so MuJoCo can load the same tree.

Used by the book's "Checking against MuJoCo" page and by the cross-check tests on
random trees. Only what the dynamics needs is written (bodies, inertials, joints,
geoms with ``contype``/``conaffinity``, gravity, timestep).

>>> from rbdl_edu.models import pendulum
>>> print(to_mjcf(pendulum()).splitlines()[0])
<mujoco model="rbdl_edu">
"""
from __future__ import annotations

import numpy as np

from ..model import GEOM_NAMES, JOINT_NAMES


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
             "  <worldbody>"]

    def geoms(i, ind):
        for g in np.flatnonzero(model.geom_bodyid == i):
            size = model.geom_size[g]
            n = {"sphere": 1, "capsule": 2, "cylinder": 2}.get(GEOM_NAMES[model.geom_type[g]], 3)
            lines.append(f'{ind}<geom name="{model.geom_names[g]}" type="{GEOM_NAMES[model.geom_type[g]]}" '
                         f'size="{_f(size[:n])}" pos="{_f(model.geom_pos[g])}" quat="{_f(model.geom_quat[g])}" '
                         f'contype="{model.geom_contype[g]}" conaffinity="{model.geom_conaffinity[g]}" '
                         f'rgba="{_f(model.geom_rgba[g])}" mass="0"{_contact_attrs(model, g)}/>')

    def body(i, ind):
        lines.append(f'{ind}<body name="{model.body_names[i]}" pos="{_f(model.body_pos[i])}" '
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
    """Geom contact attributes: ``condim priority friction solmix solref solimp margin gap``."""
    return (f' condim="{int(model.geom_condim[g])}" priority="{int(model.geom_priority[g])}"'
            f' friction="{_f(model.geom_friction[g])}" solmix="{float(model.geom_solmix[g])!r}"'
            f' solref="{_f(model.geom_solref[g])}" solimp="{_f(model.geom_solimp[g])}"'
            f' margin="{float(model.geom_margin[g])!r}" gap="{float(model.geom_gap[g])!r}"')


def _contact_section(model):
    """``<contact>`` with the ``<pair>`` and ``<exclude>`` of ``model.extras`` (ids or names)."""
    keys = ("geom1", "geom2", "condim", "friction", "solref", "solimp", "margin", "gap")
    pairs = list(model.extras.get("pair", [])) + [{k: getattr(r, k) for k in keys}
                                                   for r in model.extras.get("pairs", ())]
    excludes = list(model.extras.get("exclude", [])) + [(e.body1, e.body2)
                                                         for e in model.extras.get("excludes", ())]
    if not pairs and not excludes:
        return []
    gname = lambda x: x if isinstance(x, str) else model.geom_names[x]
    bname = lambda x: x if isinstance(x, str) else model.body_names[x]
    out = ["  <contact>"]
    for p in pairs:
        attrs = f'geom1="{gname(p["geom1"])}" geom2="{gname(p["geom2"])}"'
        for key in ("condim", "friction", "solref", "solimp", "margin", "gap"):
            if key in p:
                attrs += f' {key}="{_f(p[key]) if key != "condim" else int(p[key])}"'
        out.append(f"    <pair {attrs}/>")
    for b1, b2 in excludes:
        out.append(f'    <exclude body1="{bname(b1)}" body2="{bname(b2)}"/>')
    return out + ["  </contact>"]
