"""Compiling a :class:`~rbdl_edu.model.spec.ModelSpec` into a frozen :class:`~rbdl_edu.model.Model`.

What MuJoCo's compiler computes so that no one else has to:

* the tree's addresses: ``jnt_qposadr``/``jnt_dofadr`` (joints in body order),
  ``body_jntadr``/``body_dofadr``/``body_geomadr``, ``dof_parentid`` (the tree of dofs that
  makes ``M`` tree-sparse), ``dof_Madr``, ``body_weldid``, ``body_rootid``, ``body_mocapid``;
* ``qpos0`` (joint ``ref``; a free joint's body pose) and ``qpos_spring`` (``springref``);
* the packed arrays of variable-length objects: mesh vertices and faces, height field
  samples (``hfield_adr``), tendon paths
  (``wrap_*``), actuator activations (``actuator_actadr``), sensor outputs (``sensor_adr``);
* keyframes completed with ``qpos0``/zeros, and explicit pairs ordered by body signature.

Every loop here is linear in the number of objects.

>>> from rbdl_edu.model.spec import ModelSpec
>>> s = ModelSpec(); b = s.add_body(0, mass=1, inertia=[1, 1, 1]); _ = s.add_joint(b, "ball")
>>> _ = s.add_sensor("ballquat", 0); _ = s.add_sensor("jointvel", 0)
>>> m = s.compile()
>>> m.nq, m.nv, m.sensor_adr, m.nsensordata
(4, 3, array([0, 4]), 5)
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from rbdl_edu.arrays import is_symbolic
from rbdl_edu.model.controls import control_block, pid_states
from rbdl_edu.model.enums import (BALL, DYN_DCMOTOR, DYN_NONE, DYN_PID, FREE, HINGE, JOINT_NQ, JOINT_NV,
                                  OBJ_CAMERA, SENSOR_NAMES, SENSORS, SLIDE, TRN_SO3, sensor_dim, sensor_stage)
from rbdl_edu.model.model import Model
from rbdl_edu.model.option import Option


def _stack(records, key, shape=(), dtype=float):
    """``records[k][key]`` for every record, as one array ``(len(records),) + shape``."""
    if not records:
        return np.zeros((0,) + shape, dtype=float if dtype is object else dtype)
    a = np.array([r[key] for r in records], dtype=object).reshape((len(records),) + shape)
    return a.astype(dtype) if dtype is not object else a


def _exact(x):
    """Floats as exact SymPy rationals (``0.5 -> 1/2``), symbols unchanged; arrays entrywise."""
    if isinstance(x, (np.ndarray, list, tuple)):
        return np.array([_exact(v) for v in np.asarray(x, dtype=object).ravel()],
                        dtype=object).reshape(np.shape(x))
    if isinstance(x, (float, np.floating, int, np.integer)) and not isinstance(x, bool):
        return sp.nsimplify(float(x), rational=True)
    return x


def compile_spec(spec) -> Model:
    """The :class:`~rbdl_edu.model.Model` of ``spec`` (see the module docstring)."""
    O = spec.objects
    B, J = O["body"], O["joint"]
    option = dict(spec.option)
    symbolic = any(is_symbolic(b[k]) for b in B for k in ("mass", "pos", "ipos", "inertia")) \
        or any(is_symbolic(j[k]) for j in J for k in ("stiffness", "damping", "springref")) \
        or is_symbolic(option["gravity"])
    if symbolic:
        # a symbolic model keeps every number exact (0.5 -> 1/2), so that its equations of
        # motion simplify to exactly zero, never to 1e-17
        B = [{k: (_exact(v) if k in ("pos", "quat", "mass", "ipos", "iquat", "inertia") else v)
              for k, v in b.items()} for b in B]
        J = [{k: (_exact(v) if k in ("axis", "pos", "ref", "armature", "springref", "stiffness", "damping")
                  else v)
              for k, v in j.items()} for j in J]
        option["gravity"] = _exact(option["gravity"])
    kw = dict(name=spec.name, opt=Option(**option))
    kw.update(_tree(B, J, symbolic))
    kw.update(_geoms_sites(O["geom"], O["site"], len(B)), **_cameras(O["cam"]))
    kw.update(_meshes(O["mesh"]), **_hfields(O["hfield"]), nmat=len(O["mat"]),
              mat_names=[m["name"] for m in O["mat"]], mat_rgba=_stack(O["mat"], "rgba", (4,)))
    for part in (_pairs(O["pair"], O["geom"]), _excludes(O["exclude"]), _equalities(O["eq"]),
                 _tendons(O["tendon"]), _actuators(O["actuator"]), _sensors(O["sensor"], O["cam"], O["actuator"])):
        kw.update(part)
    kw.update(_keys(O["key"], kw, B))
    return Model(**kw)


def _tree(B, J, symbolic):
    """Bodies, joints and dofs: every address, ``qpos0`` and ``qpos_spring``."""
    nbody, njnt = len(B), len(J)
    parent = np.array([b["parent"] for b in B], dtype=int)
    jnt_type = np.array([j["type"] for j in J], dtype=int)
    jnt_body = np.array([j["body"] for j in J], dtype=int)
    # joint and dof addresses, in body order (as MuJoCo's compiler)
    nq_j = np.array([JOINT_NQ[t] for t in jnt_type], dtype=int)
    nv_j = np.array([JOINT_NV[t] for t in jnt_type], dtype=int)
    jnt_qposadr = np.concatenate([[0], np.cumsum(nq_j)[:-1]]).astype(int) if njnt else np.zeros(0, int)
    jnt_dofadr = np.concatenate([[0], np.cumsum(nv_j)[:-1]]).astype(int) if njnt else np.zeros(0, int)
    nq, nv = int(nq_j.sum()), int(nv_j.sum())
    dof_jntid = np.repeat(np.arange(njnt), nv_j).astype(int)
    dof_bodyid = jnt_body[dof_jntid] if nv else np.zeros(0, int)
    body_jntnum, body_jntadr = _count_and_first(jnt_body, nbody)
    body_dofnum, body_dofadr = _count_and_first(dof_bodyid, nbody)

    # dof_parentid: the previous dof of the same body, else the last dof of the nearest
    # ancestor that has dofs; a dof's row of M starts at dof_Madr (its depth in this tree)
    dof_parentid = np.full(nv, -1, dtype=int)
    depth = np.zeros(nv, dtype=int)
    last_dof = np.full(nbody, -1, dtype=int)          # last dof on the path root..i
    weld, root, mocapid = np.zeros(nbody, int), np.zeros(nbody, int), np.full(nbody, -1, int)
    nmocap = 0
    for i in range(1, nbody):
        prev = last_dof[parent[i]]
        for d in range(body_dofadr[i], body_dofadr[i] + body_dofnum[i]):
            dof_parentid[d], depth[d] = prev, (depth[prev] + 1 if prev >= 0 else 1)
            prev = d
        last_dof[i] = prev
        if B[i]["mocap"]:
            mocapid[i], nmocap = nmocap, nmocap + 1
        # a mocap body is moved by the user, so it starts its own weld group
        weld[i] = i if (body_jntnum[i] or B[i]["mocap"]) else weld[parent[i]]
        root[i] = i if parent[i] == 0 else root[parent[i]]
    dof_Madr = np.concatenate([[0], np.cumsum(depth)[:-1]]).astype(int) if nv else np.zeros(0, int)
    for i in range(1, nbody):     # a sleep policy belongs to a tree: given on the body that roots it
        if B[i].get("sleep", 0) and not (body_dofnum[i] and weld[parent[i]] == 0):
            raise ValueError(f"body {B[i]['name'] or i!r}: a sleep policy is only allowed on a movable root body "
                             "(one with joints, welded to the world above)")

    # reference and spring configurations
    qpos0, qpos_spring = np.zeros(nq, dtype=object), np.zeros(nq, dtype=object)
    for j, a in zip(J, jnt_qposadr):
        if j["type"] in (HINGE, SLIDE):
            qpos0[a], qpos_spring[a] = j["ref"], j["springref"]
        elif j["type"] == BALL:
            qpos0[a:a + 4] = qpos_spring[a:a + 4] = [1.0, 0.0, 0.0, 0.0]
        else:   # FREE: the body's pose as written in the file
            b = B[j["body"]]
            qpos0[a:a + 7] = qpos_spring[a:a + 7] = np.concatenate([b["pos"], b["quat"]])

    num = object if symbolic else float        # the dtype of the fields that may hold symbols
    mass = _stack(B, "mass", (), num)
    subtree = np.array(mass, dtype=object)
    for i in range(nbody - 1, 0, -1):
        subtree[parent[i]] = subtree[parent[i]] + subtree[i]
    per_dof = [J[k] for k in dof_jntid]
    # a spring or damper: the linear coefficient and the two nonlinear ones
    stiffness, damping = _stack(J, "stiffness", (3,), num), _stack(per_dof, "damping", (3,), num)
    return dict(
        nq=nq, nv=nv, nbody=nbody, njnt=njnt, nmocap=nmocap,
        qpos0=qpos0.astype(num), qpos_spring=qpos_spring.astype(num),
        body_names=[b["name"] for b in B], body_parentid=parent, body_rootid=root,
        body_weldid=weld, body_mocapid=mocapid, body_jntnum=body_jntnum, body_jntadr=body_jntadr,
        body_dofnum=body_dofnum, body_dofadr=body_dofadr,
        body_pos=_stack(B, "pos", (3,), num), body_quat=_stack(B, "quat", (4,), num),
        body_ipos=_stack(B, "ipos", (3,), num), body_iquat=_stack(B, "iquat", (4,), num),
        body_mass=mass, body_subtreemass=subtree.astype(num),
        body_inertia=_stack(B, "inertia", (3,), num), body_gravcomp=_stack(B, "gravcomp"),
        body_sleep=_stack(B, "sleep", (), int),
        jnt_names=[j["name"] for j in J], jnt_type=jnt_type, jnt_qposadr=jnt_qposadr,
        jnt_dofadr=jnt_dofadr, jnt_bodyid=jnt_body, jnt_group=_stack(J, "group", (), int),
        jnt_limited=_stack(J, "limited", (), bool), jnt_actfrclimited=_stack(J, "actfrclimited", (), bool),
        jnt_actgravcomp=_stack(J, "actgravcomp", (), bool), jnt_solref=_stack(J, "solref", (2,)),
        jnt_solimp=_stack(J, "solimp", (5,)), jnt_pos=_stack(J, "pos", (3,), num),
        jnt_axis=_stack(J, "axis", (3,), num), jnt_stiffness=stiffness[:, 0],
        jnt_stiffnesspoly=stiffness[:, 1:], jnt_springdamper=_stack(J, "springdamper", (2,)),
        jnt_range=_stack(J, "range", (2,)), jnt_actfrcrange=_stack(J, "actfrcrange", (2,)),
        jnt_margin=_stack(J, "margin"),
        dof_bodyid=dof_bodyid, dof_jntid=dof_jntid, dof_parentid=dof_parentid, dof_Madr=dof_Madr,
        dof_solref=_stack(per_dof, "solreffriction", (2,)), dof_solimp=_stack(per_dof, "solimpfriction", (5,)),
        dof_frictionloss=_stack(per_dof, "frictionloss"),
        dof_armature=_stack(per_dof, "armature", (), num),
        dof_damping=damping[:, 0], dof_dampingpoly=damping[:, 1:])


def _cameras(C):
    out = dict(ncam=len(C), cam_names=[c["name"] for c in C])
    for key, shape, dtype in (("bodyid", (), int), ("pos", (3,), float), ("quat", (4,), float), ("mode", (), int),
                              ("fovy", (), float), ("resolution", (2,), int), ("sensorsize", (2,), float),
                              ("intrinsic", (4,), float), ("projection", (), int), ("targetbodyid", (), int)):
        out["cam_" + key] = _stack(C, key, shape, dtype)
    return out


def _count_and_first(owner, n):
    """For each of ``n`` owners: how many items it owns and its first item (-1 if none);
    ``owner`` lists the items' owners in order (items of one owner are contiguous)."""
    num, adr = np.zeros(n, dtype=int), np.full(n, -1, dtype=int)
    for k, o in enumerate(owner):
        if num[o] == 0:
            adr[o] = k
        num[o] += 1
    return num, adr


def _geoms_sites(G, S, nbody):
    geom_bodyid = _stack(G, "body", (), int)
    body_geomnum, body_geomadr = _count_and_first(geom_bodyid, nbody)
    out = dict(ngeom=len(G), geom_names=[g["name"] for g in G], geom_bodyid=geom_bodyid,
               body_geomnum=body_geomnum, body_geomadr=body_geomadr,
               nsite=len(S), site_names=[s["name"] for s in S], site_bodyid=_stack(S, "body", (), int))
    for key, shape, dtype in (("type", (), int), ("contype", (), int), ("conaffinity", (), int),
                              ("condim", (), int), ("dataid", (), int), ("matid", (), int),
                              ("group", (), int), ("priority", (), int), ("solmix", (), float),
                              ("solref", (2,), float), ("solimp", (5,), float), ("size", (3,), float),
                              ("pos", (3,), float), ("quat", (4,), float), ("friction", (3,), float),
                              ("margin", (), float), ("gap", (), float), ("adhesion", (), float), ("fluid", (12,), float),
                              ("rgba", (4,), float), ("surfacevel", (6,), float)):
        out["geom_" + key] = _stack(G, key, shape, dtype)
    for key, shape, dtype in (("type", (), int), ("matid", (), int), ("group", (), int),
                              ("size", (3,), float), ("pos", (3,), float), ("quat", (4,), float),
                              ("rgba", (4,), float)):
        out["site_" + key] = _stack(S, key, shape, dtype)
    return out


def _meshes(M):
    vertnum = np.array([len(m["vert"]) for m in M], dtype=int)
    facenum = np.array([len(m["face"]) for m in M], dtype=int)
    return dict(nmesh=len(M), nmeshvert=int(vertnum.sum()), nmeshface=int(facenum.sum()),
                mesh_names=[m["name"] for m in M], mesh_vertnum=vertnum, mesh_facenum=facenum,
                mesh_vertadr=np.concatenate([[0], np.cumsum(vertnum)[:-1]]).astype(int) if M else np.zeros(0, int),
                mesh_faceadr=np.concatenate([[0], np.cumsum(facenum)[:-1]]).astype(int) if M else np.zeros(0, int),
                mesh_pos=_stack(M, "pos", (3,)), mesh_quat=_stack(M, "quat", (4,)),
                mesh_vert=np.concatenate([m["vert"] for m in M]) if M else np.zeros((0, 3)),
                mesh_face=np.concatenate([m["face"] for m in M]).astype(int) if M else np.zeros((0, 3), int))


def _hfields(H):
    """Height fields: their samples packed one after the other into ``hfield_data``."""
    n = np.array([h["nrow"] * h["ncol"] for h in H], dtype=int)
    return dict(nhfield=len(H), nhfielddata=int(n.sum()), hfield_names=[h["name"] for h in H],
                hfield_size=_stack(H, "size", (4,)), hfield_nrow=_stack(H, "nrow", (), int),
                hfield_ncol=_stack(H, "ncol", (), int),
                hfield_adr=np.concatenate([[0], np.cumsum(n)[:-1]]).astype(int) if H else np.zeros(0, int),
                hfield_data=np.concatenate([h["data"] for h in H]) if H else np.zeros(0))


def _pairs(P, G):
    """Explicit pairs, the geom of the lower body first, ordered (stably) by body signature."""
    rows = []
    for p in P:
        g1, g2 = p["geom1"], p["geom2"]
        if G[g1]["body"] > G[g2]["body"]:
            g1, g2 = g2, g1
        rows.append(dict(p, geom1=g1, geom2=g2, signature=(G[g1]["body"] << 16) + G[g2]["body"]))
    rows.sort(key=lambda r: r["signature"])
    out = dict(npair=len(rows), pair_names=[r["name"] for r in rows])
    for key, shape, dtype in (("dim", (), int), ("geom1", (), int), ("geom2", (), int),
                              ("signature", (), int), ("solref", (2,), float),
                              ("solreffriction", (2,), float), ("solimp", (5,), float),
                              ("margin", (), float), ("gap", (), float), ("adhesion", (), float),
                              ("friction", (5,), float)):
        out["pair_" + key] = _stack(rows, key, shape, dtype)
    return out


def _excludes(E):
    sig = [(min(e["body1"], e["body2"]) << 16) + max(e["body1"], e["body2"]) for e in E]
    return dict(nexclude=len(E), exclude_names=[e["name"] for e in E],
                exclude_signature=np.array(sig, dtype=int))


def _equalities(E):
    out = dict(neq=len(E), eq_names=[e["name"] for e in E])
    for key, shape, dtype in (("type", (), int), ("obj1id", (), int), ("obj2id", (), int),
                              ("objtype", (), int), ("active0", (), bool), ("solref", (2,), float),
                              ("solimp", (5,), float), ("data", (12,), float)):
        out["eq_" + key] = _stack(E, key, shape, dtype)
    return out


def _tendons(T):
    num = np.array([len(t["path"]) for t in T], dtype=int)
    wraps = [w for t in T for w in t["path"]]
    out = dict(ntendon=len(T), nwrap=len(wraps), tendon_names=[t["name"] for t in T], tendon_num=num,
               tendon_adr=np.concatenate([[0], np.cumsum(num)[:-1]]).astype(int) if T else np.zeros(0, int),
               wrap_type=np.array([w[0] for w in wraps], dtype=int),
               wrap_objid=np.array([w[1] for w in wraps], dtype=int),
               wrap_prm=np.array([w[2] for w in wraps], dtype=float))
    for key, shape, dtype in (("limited", (), bool), ("actfrclimited", (), bool),
                              ("solref_lim", (2,), float), ("solimp_lim", (5,), float),
                              ("solref_fri", (2,), float), ("solimp_fri", (5,), float),
                              ("range", (2,), float), ("actfrcrange", (2,), float),
                              ("margin", (), float), ("armature", (), float), ("frictionloss", (), float),
                              ("lengthspring", (2,), float)):
        out["tendon_" + key] = _stack(T, key, shape, dtype)
    for key in ("stiffness", "damping"):          # the linear coefficient and the nonlinear ones
        coef = _stack(T, key, (3,), float)
        out["tendon_" + key], out[f"tendon_{key}poly"] = coef[:, 0], coef[:, 1:]
    return out


def _dcmotor_states(a):
    dynprm, gainprm = a["dynprm"], a["gainprm"]
    return sum(int(x > 0) for x in (dynprm[7], gainprm[5], dynprm[2], dynprm[5], dynprm[0]))


def actuator_actnum(a):
    """How many states in ``act`` the actuator record ``a`` keeps: one with activation
    dynamics; a DC motor one per state it models (controller slew and integral,
    temperature, bristle, current: the slots of rbdl_edu.smooth.dcmotor), a PID one per
    controller state (slew, integral)."""
    if a["dyntype"] == DYN_DCMOTOR:
        return _dcmotor_states(a)
    if a["trntype"] == TRN_SO3 and a["dyntype"] != DYN_NONE:
        return 3                              # an SO(3) servo integrates its rotation vector
    return pid_states(a) if a["dyntype"] == DYN_PID else int(a["dyntype"] != DYN_NONE)


def _actuators(A):
    actnum = np.array([actuator_actnum(a) for a in A], dtype=int)
    actadr = np.where(actnum > 0, np.cumsum(actnum) - actnum, -1).astype(int)
    # the controls: one block per actuator (several for a PID or a multi-input DC motor)
    blocks = [control_block(a) for a in A]
    ctrlnum = np.array([len(b[1]) for b in blocks], dtype=int)
    # the force outputs: three for an SO(3) servo (a torque vector), one for the others
    outnum = np.array([3 if a["trntype"] == TRN_SO3 else 1 for a in A], dtype=int)
    out = dict(nactuator=len(A), nu=int(ctrlnum.sum()), na=int(actnum.sum()), nout=int(outnum.sum()),
               actuator_names=[a["name"] for a in A],
               actuator_actnum=actnum, actuator_actadr=actadr, actuator_ctrlnum=ctrlnum,
               actuator_outnum=outnum, actuator_outadr=(np.cumsum(outnum) - outnum).astype(int),
               actuator_ctrladr=(np.cumsum(ctrlnum) - ctrlnum).astype(int),
               actuator_ctrlspec=np.array([b[0] for b in blocks], dtype=int),
               actuator_ctrllimited=np.array([x for b in blocks for x in b[1]], dtype=bool),
               actuator_ctrlrange=np.array([x for b in blocks for x in b[2]], dtype=float).reshape(-1, 2))
    for key, shape, dtype in (("trntype", (), int), ("dyntype", (), int), ("gaintype", (), int),
                              ("biastype", (), int), ("trnid", (2,), int), ("group", (), int),
                              ("forcelimited", (), bool),
                              ("actlimited", (), bool), ("dynprm", (10,), float),
                              ("gainprm", (10,), float), ("biasprm", (10,), float),
                              ("actearly", (), bool),
                              ("forcerange", (2,), float), ("actrange", (2,), float),
                              ("cranklength", (), float)):
        out["actuator_" + key] = _stack(A, key, shape, dtype)
    for key, width in (("gear", 6), ("lengthrange", 2)):        # per output (an SO(3) servo's, repeated)
        out["actuator_" + key] = np.array([a[key] for a, n in zip(A, outnum) for _ in range(n)],
                                          dtype=float).reshape(-1, width)
    return out


def _sensors(S, C, A):
    kinds = [SENSORS[SENSOR_NAMES[s["type"]]] for s in S]
    names = [SENSOR_NAMES[s["type"]] for s in S]
    # a rangefinder on a camera casts a ray through each pixel
    nray = [int(np.prod(C[s["objid"]]["resolution"])) if s["objtype"] == OBJ_CAMERA else 1 for s in S]
    dim = np.array([sensor_dim(n, s["intprm"], r) for n, s, r in zip(names, S, nray)], dtype=int)
    # an actuator sensor reads each of its actuator's outputs (an SO(3) servo's three)
    dim = np.array([3 if n in ("actuatorpos", "actuatorvel", "actuatorfrc") and A[s["objid"]]["trntype"] == TRN_SO3
                    else d for n, s, d in zip(names, S, dim)], dtype=int)
    out = dict(nsensor=len(S), nsensordata=int(dim.sum()), sensor_names=[s["name"] for s in S],
               sensor_dim=dim, sensor_adr=np.concatenate([[0], np.cumsum(dim)[:-1]]).astype(int) if S else np.zeros(0, int),
               sensor_datatype=np.array([k.datatype for k in kinds], dtype=int),
               sensor_needstage=np.array([sensor_stage(n, s["intprm"]) for n, s in zip(names, S)], dtype=int),
               sensor_intprm=_stack(S, "intprm", (3,), int))
    for key, dtype in (("type", int), ("objtype", int), ("objid", int), ("reftype", int),
                       ("refid", int), ("cutoff", float), ("noise", float)):
        out["sensor_" + key] = _stack(S, key, (), dtype)
    return out


GROUP = dict(mpos=3, mquat=4)        # numbers per mocap body in a keyframe's mpos, mquat


def _keys(K, kw, B):
    """Keyframes, completed: ``qpos0``, zero velocities/activations/controls, the mocap
    bodies where the file puts them (a shorter vector fills the front of these); ball and
    free quaternions normalized."""
    n = dict(qpos=kw["nq"], qvel=kw["nv"], act=kw["na"], ctrl=kw["nu"], mpos=3 * kw["nmocap"],
             mquat=4 * kw["nmocap"])
    mocap = [b for b in B if b["mocap"]]
    default = dict(qpos=np.asarray(kw["qpos0"], dtype=float), qvel=np.zeros(n["qvel"]),
                   act=np.zeros(n["act"]), ctrl=np.zeros(n["ctrl"]),
                   mpos=np.array([b["pos"] for b in mocap], dtype=float).reshape(-1),
                   mquat=np.array([b["quat"] for b in mocap], dtype=float).reshape(-1))
    rows = []
    for k in K:
        row = {}
        for key, size in n.items():
            # a vector shorter than its size overwrites the front of the default, as MuJoCo
            # 4.0's reader does (mpos and mquat only whole mocap bodies: 3 or 4 numbers each)
            v = np.array(default[key], dtype=float).reshape(-1)
            if k[key] is not None:
                given = np.asarray(k[key], dtype=float).reshape(-1)
                if given.size > size:
                    raise ValueError(f"keyframe {k['name']!r}: {key} takes {size} numbers, got {given.size}")
                used = given.size - given.size % GROUP.get(key, 1)
                v[:used] = given[:used]
            row[key] = v
        for t, a in zip(kw["jnt_type"], kw["jnt_qposadr"]):
            if t in (BALL, FREE):
                s = a + (3 if t == FREE else 0)
                norm = np.linalg.norm(row["qpos"][s:s + 4])
                if not norm > 1e-15:
                    raise ValueError(f"keyframe {k['name']!r}: a quaternion in qpos has zero length")
                row["qpos"][s:s + 4] /= norm
        mquat = row["mquat"].reshape(-1, 4)          # MuJoCo normalizes the mocap quaternions too
        norm = np.linalg.norm(mquat, axis=1, keepdims=True)
        row["mquat"] = np.where(norm > 1e-15, mquat / np.where(norm > 1e-15, norm, 1), mquat).reshape(-1)
        rows.append(row)
    out = dict(nkey=len(K), key_names=[k["name"] for k in K],
               key_time=np.array([k["time"] for k in K], dtype=float))
    for key, size in n.items():
        out["key_" + key] = np.array([r[key] for r in rows], dtype=float).reshape(len(K), size)
    return out
