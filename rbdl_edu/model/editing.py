"""Editing a compiled model: turning a frozen :class:`~rbdl_edu.model.Model` back into a
:class:`~rbdl_edu.model.spec.ModelSpec` (:meth:`ModelSpec.from_model
<rbdl_edu.model.spec.ModelSpec.from_model>`), and giving a spec's top-level bodies a
floating base (:meth:`ModelSpec.with_floating_base
<rbdl_edu.model.spec.ModelSpec.with_floating_base>`). The reverse of
:mod:`rbdl_edu.model.compiler`: what the compiler derives (addresses, ``qpos0``'s free
joints, the sizes) is left out, and the spec compiles back to the same model.

>>> from rbdl_edu.model.spec import ModelSpec
>>> from rbdl_edu.models import double_pendulum
>>> spec_from_model(ModelSpec(), double_pendulum()).compile().jnt_names
('shoulder', 'elbow')
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.controls import control_attributes
from rbdl_edu.model.enums import GEOM_NAMES, HFIELD, JOINT_NAMES


def spec_from_model(spec, model):
    """Fill the empty ``spec`` so that it compiles back to ``model``."""
    m = model
    o = m.opt
    spec.option = {k: getattr(o, k) for k in o.__dataclass_fields__}
    spec.name = m.name
    for i in range(1, m.nbody):
        spec.add_body(int(m.body_parentid[i]), m.body_names[i], m.body_pos[i], m.body_quat[i],
                      m.body_mass[i], m.body_ipos[i], m.body_iquat[i], m.body_inertia[i],
                      gravcomp=m.body_gravcomp[i], mocap=m.body_mocapid[i] >= 0,
                      sleep=int(m.body_sleep[i]))
    for j in range(m.njnt):
        a, d = m.jnt_qposadr[j], m.jnt_dofadr[j]
        spec.add_joint(int(m.jnt_bodyid[j]), JOINT_NAMES[m.jnt_type[j]], m.jnt_names[j], m.jnt_axis[j],
                       m.jnt_pos[j], ref=m.qpos0[a], range=m.jnt_range[j], limited=m.jnt_limited[j],
                       armature=m.dof_armature[d], damping=[m.dof_damping[d], *m.dof_dampingpoly[d]],
                       stiffness=[m.jnt_stiffness[j], *m.jnt_stiffnesspoly[j]], springref=m.qpos_spring[a],
                       frictionloss=m.dof_frictionloss[d], margin=m.jnt_margin[j], group=m.jnt_group[j],
                       solref=m.jnt_solref[j], solimp=m.jnt_solimp[j], solreffriction=m.dof_solref[d],
                       solimpfriction=m.dof_solimp[d], actfrclimited=m.jnt_actfrclimited[j],
                       actfrcrange=m.jnt_actfrcrange[j], actgravcomp=m.jnt_actgravcomp[j],
                       springdamper=m.jnt_springdamper[j])
    for k in range(m.nmesh):
        v, f = m.mesh_vertadr[k], m.mesh_faceadr[k]
        spec.add_mesh(m.mesh_names[k], m.mesh_vert[v:v + m.mesh_vertnum[k]],
                      m.mesh_face[f:f + m.mesh_facenum[k]], m.mesh_pos[k], m.mesh_quat[k])
    for k in range(m.nhfield):
        a = m.hfield_adr[k]
        spec.add_hfield(m.hfield_names[k], m.hfield_size[k], m.hfield_nrow[k], m.hfield_ncol[k],
                        m.hfield_data[a:a + m.hfield_nrow[k] * m.hfield_ncol[k]])
    for k in range(m.nmat):
        spec.add_material(m.mat_names[k], m.mat_rgba[k])
    for g in range(m.ngeom):
        hfield = int(m.geom_dataid[g]) if m.geom_type[g] == HFIELD else None
        spec.add_geom(int(m.geom_bodyid[g]), GEOM_NAMES[m.geom_type[g]], m.geom_size[g], m.geom_names[g],
                      m.geom_pos[g], m.geom_quat[g], m.geom_rgba[g], m.geom_contype[g],
                      m.geom_conaffinity[g], m.geom_condim[g], m.geom_priority[g], m.geom_friction[g],
                      m.geom_solmix[g], m.geom_solref[g], m.geom_solimp[g], m.geom_margin[g],
                      m.geom_gap[g], -1 if hfield is not None else int(m.geom_dataid[g]), m.geom_group[g],
                      int(m.geom_matid[g]), m.geom_fluid[g], hfield=hfield,
                      surfacevel=m.geom_surfacevel[g], adhesion=m.geom_adhesion[g])
    for s in range(m.nsite):
        spec.add_site(int(m.site_bodyid[s]), m.site_names[s], m.site_pos[s], m.site_quat[s],
                      m.site_size[s], int(m.site_type[s]), m.site_group[s], m.site_rgba[s],
                      int(m.site_matid[s]))
    # the other objects are copied record by record: their keys are the field suffixes
    for kind, prefix, n in (("cam", "cam_", m.ncam), ("pair", "pair_", m.npair), ("eq", "eq_", m.neq),
                            ("actuator", "actuator_", m.nactuator), ("sensor", "sensor_", m.nsensor)):
        derived = {"signature", "actadr", "actnum", "dim", "adr", "datatype", "needstage",
                   "acc0", "length0", "pos0", "poscom0", "mat0", "ctrladr", "ctrlnum", "ctrllimited", "ctrlrange",
                   "outadr", "outnum"}
        for k in range(n):
            rec = {f[len(prefix):]: getattr(m, f)[k] for f in m.__dataclass_fields__
                   if f.startswith(prefix) and f != prefix + "names" and f[len(prefix):] not in derived}
            if kind == "actuator":                # a block of controls: the attributes that made it
                rec.update(control_attributes(m, k))
                out = m.actuator_outadr[k]        # (per output: an SO(3) servo's three are the same)
                rec.update(gear=m.actuator_gear[out], lengthrange=m.actuator_lengthrange[out])
            spec._add(kind, dict(rec, name=getattr(m, prefix + "names")[k]))
    for k in range(m.nexclude):
        sig = int(m.exclude_signature[k])
        spec.add_exclude(sig >> 16, sig & 0xFFFF, m.exclude_names[k])
    for t in range(m.ntendon):
        a, n = m.tendon_adr[t], m.tendon_num[t]
        rec = {f[len("tendon_"):]: getattr(m, f)[t] for f in m.__dataclass_fields__
               if f.startswith("tendon_") and f not in ("tendon_names", "tendon_adr", "tendon_num",
                                                        "tendon_length0", "tendon_invweight0",
                                                        "tendon_stiffnesspoly", "tendon_dampingpoly")}
        for key in ("stiffness", "damping"):
            rec[key] = np.concatenate([[rec[key]], getattr(m, f"tendon_{key}poly")[t]])
        path = [(int(m.wrap_type[w]), int(m.wrap_objid[w]), float(m.wrap_prm[w])) for w in range(a, a + n)]
        spec._add("tendon", dict(rec, name=m.tendon_names[t], path=path))
    for k in range(m.nkey):
        spec.add_key(m.key_names[k], m.key_time[k], m.key_qpos[k], m.key_qvel[k], m.key_act[k],
                     m.key_ctrl[k], m.key_mpos[k], m.key_mquat[k])
    return spec


def floating_base_spec(spec, new):
    """Into the empty spec ``new``: ``spec`` with every top-level body hung, welded, from a
    new massless ``<name>_base`` body that carries a free joint (at the old body's pose)."""
    new_id = {0: 0}
    for i, b in enumerate(spec.bodies[1:], start=1):
        parent = new_id[b["parent"]]
        if b["parent"] == 0:
            base = new.add_body(0, (b["name"] or f"body{i}") + "_base", pos=b["pos"], quat=b["quat"])
            new.add_joint(base, "free", (b["name"] or f"body{i}") + "_free")
            parent, b = base, dict(b, pos=np.zeros(3), quat=np.array([1.0, 0, 0, 0]))
        new_id[i] = new._add("body", dict(b, parent=parent))
        for j in spec.joints:
            if j["body"] == i:
                new._add("joint", dict(j, body=new_id[i]))
    for kind in ("geom", "site"):
        for r in spec.objects[kind]:
            new._add(kind, dict(r, body=new_id[r["body"]]))
    for r in spec.objects["cam"]:
        new._add("cam", dict(r, bodyid=new_id[r["bodyid"]],
                             targetbodyid=new_id[r["targetbodyid"]] if r.get("targetbodyid", -1) >= 0 else -1))
    for kind in ("mesh", "hfield", "mat"):
        for r in spec.objects[kind]:
            new._add(kind, dict(r))
    for kind in ("pair", "exclude", "eq", "tendon", "actuator", "sensor", "key"):
        if spec.objects[kind]:
            raise ValueError(f"with_floating_base: the spec has {kind} objects, whose ids would change")
    return new
