"""``ModelSpec``: a mutable description of a kinematic tree that compiles to a ``Model``.

The builders in :mod:`rbdl_edu.models` and the MJCF/URDF compilers in :mod:`rbdl_edu.io`
fill a spec body by body, then :meth:`ModelSpec.compile` computes every address
(``jnt_qposadr``, ``body_dofadr``, ``dof_parentid``, ...) exactly as MuJoCo's compiler
does, so no one computes them by hand.

>>> spec = ModelSpec()
>>> b = spec.add_body(0, "link", pos=[0, 0, 1], mass=1.0, ipos=[0, 0, -0.5], inertia=[0.1, 0.1, 0.01])
>>> j = spec.add_joint(b, "hinge", "shoulder", axis=[0, 1, 0])
>>> spec.compile()
Model(nbody=2, njnt=1, nq=1, nv=1, ngeom=0, joints=['shoulder'])
"""
from __future__ import annotations

import numpy as np

from .model import (BALL, FREE, GEOM_NAMES, HINGE, JOINT_NAMES, JOINT_NQ, JOINT_NV, SLIDE, Model,
                    Option)
from .scalar import asarray, is_symbolic

_JOINT_TYPES = {v: k for k, v in JOINT_NAMES.items()}
_GEOM_TYPES = {v: k for k, v in GEOM_NAMES.items()}
_TYPE_NAMES = JOINT_NAMES


def _vec(x, n):
    a = asarray(x if x is not None else np.zeros(n))
    if a.shape != (n,):
        raise ValueError(f"expected a vector of length {n}, got shape {a.shape}")
    return a


def _unit(a):
    a = asarray(a)
    if is_symbolic(a):
        return a
    n = np.linalg.norm(a)
    if n < 1e-14:
        raise ValueError(f"zero-length axis {a}")
    return a / n


class ModelSpec:
    """Bodies, joints, geoms and sites added in document order, compiled by :meth:`compile`."""

    def __init__(self, gravity=(0.0, 0.0, -9.81), timestep=0.002, **option):
        self.option = dict(gravity=asarray(gravity), timestep=timestep, **option)
        self.bodies = [dict(name="world", parent=-1, pos=np.zeros(3), quat=np.array([1.0, 0, 0, 0]),
                            mass=0.0, ipos=np.zeros(3), iquat=np.array([1.0, 0, 0, 0]),
                            inertia=np.zeros(3))]
        self.joints, self.geoms, self.sites = [], [], []
        self.extras = {}

    # -- adding things -------------------------------------------------------------
    def add_body(self, parent, name=None, pos=None, quat=None, mass=0.0, ipos=None,
                 iquat=None, inertia=None):
        """Add a body under ``parent`` (an id); returns its id. ``inertia`` holds the principal
        moments about the center of mass ``ipos``, along the axes ``iquat``."""
        if not 0 <= parent < len(self.bodies):
            raise ValueError(f"parent body {parent} does not exist (there are {len(self.bodies)} bodies)")
        self.bodies.append(dict(
            name=name or f"body{len(self.bodies)}", parent=parent, pos=_vec(pos, 3),
            quat=_vec(quat if quat is not None else [1.0, 0, 0, 0], 4), mass=asarray(mass)[()],
            ipos=_vec(ipos, 3), iquat=_vec(iquat if iquat is not None else [1.0, 0, 0, 0], 4),
            inertia=_vec(inertia, 3)))
        return len(self.bodies) - 1

    def add_joint(self, body, type="hinge", name=None, axis=(0.0, 0.0, 1.0), pos=None, ref=0.0,
                  range=None, limited=False, armature=0.0, damping=0.0, stiffness=0.0,
                  springref=0.0, frictionloss=0.0):
        """Add a joint (``"hinge"``, ``"slide"``, ``"ball"``, ``"free"``) to ``body``; returns its id.

        ``ref`` (hinge/slide, radians or length) is the joint value at which the body
        sits where the file puts it: ``qpos0 = ref``."""
        if type not in _JOINT_TYPES:
            raise ValueError(f"unknown joint type {type!r}; expected one of {sorted(_JOINT_TYPES)}")
        if not 1 <= body < len(self.bodies):
            raise ValueError(f"joint {name!r}: body {body} does not exist or is the world")
        jtype = _JOINT_TYPES[type]
        if jtype == FREE and any(j["body"] == body for j in self.joints):
            raise ValueError(f"joint {name!r}: a free joint must be the only joint of its body")
        if any(j["body"] == body and j["type"] == FREE for j in self.joints):
            raise ValueError(f"joint {name!r}: body {body} already has a free joint")
        if any(j["body"] > body for j in self.joints):
            raise ValueError("joints must be added in body order")
        self.joints.append(dict(
            name=name or f"joint{len(self.joints)}", type=jtype, body=body,
            axis=_unit(_vec(axis, 3)), pos=_vec(pos, 3), ref=ref,
            range=np.asarray(range if range is not None else [0.0, 0.0], dtype=float),
            limited=bool(limited), armature=armature, damping=damping, stiffness=stiffness,
            springref=springref, frictionloss=frictionloss))
        return len(self.joints) - 1

    def add_geom(self, body, type, size, name=None, pos=None, quat=None, rgba=(0.5, 0.5, 0.5, 1.0),
                 contype=1, conaffinity=1, condim=3, priority=0, friction=(1.0, 0.005, 0.0001),
                 solmix=1.0, solref=(0.02, 1.0), solimp=(0.9, 0.95, 0.001, 0.5, 2.0),
                 margin=0.0, gap=0.0, dataid=-1):
        """Add a geom (``"plane"``, ``"sphere"``, ``"capsule"``, ``"ellipsoid"``,
        ``"cylinder"``, ``"box"``, ``"mesh"``) with MuJoCo's ``size`` convention; returns its id.
        Geoms here carry no mass: the body's inertial fields are what the dynamics uses."""
        if type not in _GEOM_TYPES:
            raise ValueError(f"unknown geom type {type!r}; expected one of {sorted(_GEOM_TYPES)}")
        size = np.zeros(3) if size is None else np.asarray(size, dtype=float)
        self.geoms.append(dict(
            name=name or f"geom{len(self.geoms)}", type=_GEOM_TYPES[type], body=body,
            size=np.pad(size, (0, 3 - len(size))), pos=_vec(pos, 3),
            quat=_vec(quat if quat is not None else [1.0, 0, 0, 0], 4), rgba=np.asarray(rgba, float),
            contype=contype, conaffinity=conaffinity, condim=condim, priority=priority,
            friction=np.asarray(friction, float), solmix=solmix, solref=np.asarray(solref, float),
            solimp=np.asarray(solimp, float), margin=margin, gap=gap, dataid=dataid))
        return len(self.geoms) - 1

    def add_site(self, body, name=None, pos=None, quat=None, size=(0.01, 0.0, 0.0)):
        """Add a site (a named frame on a body); returns its id."""
        self.sites.append(dict(name=name or f"site{len(self.sites)}", body=body, pos=_vec(pos, 3),
                               quat=_vec(quat if quat is not None else [1.0, 0, 0, 0], 4),
                               size=np.pad(np.asarray(size, float), (0, 3 - len(size)))))
        return len(self.sites) - 1

    # -- editing a compiled model ---------------------------------------------------
    @classmethod
    def from_model(cls, model: Model) -> "ModelSpec":
        """A spec that compiles back to ``model`` (to edit a loaded or built model)."""
        o = model.opt
        spec = cls(**{k: getattr(o, k) for k in o.__dataclass_fields__})
        spec.bodies = spec.bodies[:1]
        for i in range(1, model.nbody):
            spec.add_body(int(model.body_parentid[i]), model.body_names[i], model.body_pos[i],
                          model.body_quat[i], model.body_mass[i], model.body_ipos[i],
                          model.body_iquat[i], model.body_inertia[i])
        for j in range(model.njnt):
            a, d = model.jnt_qposadr[j], model.jnt_dofadr[j]
            spec.add_joint(int(model.jnt_bodyid[j]), _TYPE_NAMES[model.jnt_type[j]], model.jnt_names[j],
                           model.jnt_axis[j], model.jnt_pos[j], ref=model.qpos0[a],
                           range=model.jnt_range[j], limited=model.jnt_limited[j],
                           armature=model.dof_armature[d], damping=model.dof_damping[d],
                           stiffness=model.jnt_stiffness[j], springref=model.qpos_spring[a],
                           frictionloss=model.dof_frictionloss[d])
        for g in range(model.ngeom):
            spec.add_geom(int(model.geom_bodyid[g]), GEOM_NAMES[model.geom_type[g]], model.geom_size[g],
                          model.geom_names[g], model.geom_pos[g], model.geom_quat[g], model.geom_rgba[g],
                          model.geom_contype[g], model.geom_conaffinity[g], model.geom_condim[g],
                          model.geom_priority[g], model.geom_friction[g], model.geom_solmix[g],
                          model.geom_solref[g], model.geom_solimp[g], model.geom_margin[g],
                          model.geom_gap[g], model.geom_dataid[g])
        for s in range(model.nsite):
            spec.add_site(int(model.site_bodyid[s]), model.site_names[s], model.site_pos[s],
                          model.site_quat[s], model.site_size[s])
        spec.extras = dict(model.extras)
        return spec

    def with_floating_base(self) -> "ModelSpec":
        """A new spec in which every top-level body hangs, welded, from a new massless
        ``<name>_base`` body that carries a free joint (at the old body's pose)."""
        new = ModelSpec(**self.option)
        new.bodies = new.bodies[:1]
        new_id = {0: 0}
        for i, b in enumerate(self.bodies[1:], start=1):
            parent = new_id[b["parent"]]
            if b["parent"] == 0:
                base = new.add_body(0, b["name"] + "_base", pos=b["pos"], quat=b["quat"])
                new.add_joint(base, "free", b["name"] + "_free")
                parent, b = base, dict(b, pos=np.zeros(3), quat=np.array([1.0, 0, 0, 0]))
            new.bodies.append(dict(b, parent=parent))
            new_id[i] = len(new.bodies) - 1
            for j in self.joints:
                if j["body"] == i:
                    new.joints.append(dict(j, body=new_id[i]))
        new.geoms = [dict(g, body=new_id[g["body"]]) for g in self.geoms]
        new.sites = [dict(s, body=new_id[s["body"]]) for s in self.sites]
        new.extras = dict(self.extras)
        return new

    # -- compiling -----------------------------------------------------------------
    def compile(self) -> Model:
        """Compute every address and return the frozen :class:`~rbdl_edu.model.Model`."""
        B, J = self.bodies, self.joints
        nbody, njnt = len(B), len(J)
        parent = np.array([b["parent"] for b in B], dtype=int)

        # joint and dof addresses, in body order (as MuJoCo's compiler)
        jnt_qposadr, jnt_dofadr, nq, nv = [], [], 0, 0
        for j in J:
            jnt_qposadr.append(nq)
            jnt_dofadr.append(nv)
            nq += JOINT_NQ[j["type"]]
            nv += JOINT_NV[j["type"]]
        jnt_body = np.array([j["body"] for j in J], dtype=int)
        body_jntnum = np.array([(jnt_body == i).sum() for i in range(nbody)], dtype=int)
        body_jntadr = np.array([int(np.argmax(jnt_body == i)) if body_jntnum[i] else -1
                                for i in range(nbody)], dtype=int)
        dof_bodyid, dof_jntid = [], []
        for k, j in enumerate(J):
            dof_bodyid += [j["body"]] * JOINT_NV[j["type"]]
            dof_jntid += [k] * JOINT_NV[j["type"]]
        dof_bodyid = np.array(dof_bodyid, dtype=int)
        body_dofnum = np.array([(dof_bodyid == i).sum() for i in range(nbody)], dtype=int)
        body_dofadr = np.array([int(np.argmax(dof_bodyid == i)) if body_dofnum[i] else -1
                                for i in range(nbody)], dtype=int)

        # dof_parentid: the previous dof of the same body, else the last dof of the
        # nearest ancestor that has dofs (the tree of dofs that makes M tree-sparse)
        dof_parentid = np.full(nv, -1, dtype=int)
        last_dof = np.full(nbody, -1, dtype=int)          # last dof on the path root..i
        for i in range(1, nbody):
            prev = last_dof[parent[i]]
            for d in range(body_dofnum[i]):
                dof_parentid[body_dofadr[i] + d] = prev
                prev = body_dofadr[i] + d
            last_dof[i] = prev

        weld = np.zeros(nbody, dtype=int)
        root = np.zeros(nbody, dtype=int)
        for i in range(1, nbody):
            weld[i] = i if body_jntnum[i] else weld[parent[i]]
            root[i] = i if parent[i] == 0 else root[parent[i]]

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

        def stack(items, key, shape, dtype=None):
            vals = [it[key] for it in items]
            if not vals:
                return np.zeros((0,) + shape, dtype=dtype or float)
            a = np.array(vals, dtype=object).reshape((len(vals),) + shape)
            return a.astype(dtype) if dtype is not None else (a if symbolic else _maybe_float(a))

        symbolic = any(is_symbolic(x) for b in B for x in (b["mass"], b["pos"], b["ipos"], b["inertia"])) \
            or is_symbolic(self.option["gravity"])
        if symbolic:
            # a symbolic model keeps every number exact (0.5 -> 1/2), so that its
            # equations of motion simplify to exactly zero, never to 1e-17
            B = [{k: (_exact(v) if k != "name" and k != "parent" else v) for k, v in b.items()} for b in B]
            J = [{k: (_exact(v) if k in ("axis", "pos", "ref", "armature", "springref") else v)
                  for k, v in j.items()} for j in J]
            self.option = dict(self.option, gravity=_exact(self.option["gravity"]))
            for j, a in zip(J, jnt_qposadr):
                if j["type"] in (HINGE, SLIDE):
                    qpos0[a] = j["ref"]
        dof_of = lambda key: np.array([J[k][key] for k in dof_jntid], dtype=object).reshape(nv)
        G, S = self.geoms, self.sites
        return Model(
            nq=nq, nv=nv, nbody=nbody, njnt=njnt, opt=Option(**self.option),
            body_names=tuple(b["name"] for b in B), body_parentid=parent,
            body_rootid=root, body_weldid=weld, body_jntnum=body_jntnum, body_jntadr=body_jntadr,
            body_dofnum=body_dofnum, body_dofadr=body_dofadr,
            body_pos=stack(B, "pos", (3,)), body_quat=stack(B, "quat", (4,)),
            body_ipos=stack(B, "ipos", (3,)), body_iquat=stack(B, "iquat", (4,)),
            body_mass=stack(B, "mass", ()), body_inertia=stack(B, "inertia", (3,)),
            jnt_names=tuple(j["name"] for j in J), jnt_type=np.array([j["type"] for j in J], dtype=int),
            jnt_bodyid=jnt_body, jnt_qposadr=np.array(jnt_qposadr, dtype=int),
            jnt_dofadr=np.array(jnt_dofadr, dtype=int), jnt_axis=stack(J, "axis", (3,)),
            jnt_pos=stack(J, "pos", (3,)), jnt_range=stack(J, "range", (2,), float),
            jnt_limited=np.array([j["limited"] for j in J], dtype=bool),
            jnt_stiffness=stack(J, "stiffness", ()),
            dof_bodyid=dof_bodyid, dof_jntid=np.array(dof_jntid, dtype=int), dof_parentid=dof_parentid,
            dof_armature=dof_of("armature") if symbolic else _maybe_float(dof_of("armature")), dof_damping=_maybe_float(dof_of("damping")),
            dof_frictionloss=_maybe_float(dof_of("frictionloss")),
            qpos0=qpos0 if symbolic else _maybe_float(qpos0), qpos_spring=_maybe_float(qpos_spring),
            ngeom=len(G), geom_names=tuple(g["name"] for g in G),
            geom_type=np.array([g["type"] for g in G], dtype=int),
            geom_bodyid=np.array([g["body"] for g in G], dtype=int),
            geom_size=stack(G, "size", (3,), float), geom_pos=stack(G, "pos", (3,), float),
            geom_quat=stack(G, "quat", (4,), float), geom_rgba=stack(G, "rgba", (4,), float),
            geom_contype=np.array([g["contype"] for g in G], dtype=int),
            geom_conaffinity=np.array([g["conaffinity"] for g in G], dtype=int),
            geom_condim=np.array([g["condim"] for g in G], dtype=int),
            geom_priority=np.array([g["priority"] for g in G], dtype=int),
            geom_friction=stack(G, "friction", (3,), float), geom_solmix=stack(G, "solmix", (), float),
            geom_solref=stack(G, "solref", (2,), float), geom_solimp=stack(G, "solimp", (5,), float),
            geom_margin=stack(G, "margin", (), float), geom_gap=stack(G, "gap", (), float),
            geom_dataid=np.array([g["dataid"] for g in G], dtype=int),
            nsite=len(S), site_names=tuple(s["name"] for s in S),
            site_bodyid=np.array([s["body"] for s in S], dtype=int),
            site_pos=stack(S, "pos", (3,), float), site_quat=stack(S, "quat", (4,), float),
            site_size=stack(S, "size", (3,), float), extras=dict(self.extras))


def _exact(x):
    """Floats as exact SymPy rationals (``0.5 -> 1/2``), symbols unchanged; arrays entrywise."""
    import sympy as sp
    if isinstance(x, np.ndarray) or isinstance(x, (list, tuple)):
        return np.array([_exact(v) for v in np.asarray(x, dtype=object).ravel()],
                        dtype=object).reshape(np.shape(x))
    if isinstance(x, (float, np.floating, int, np.integer)):
        return sp.nsimplify(float(x), rational=True)
    return x


def _maybe_float(a):
    """An object array as float if every entry is a number, else left symbolic."""
    try:
        return a.astype(float)
    except TypeError:
        return a
