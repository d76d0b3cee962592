"""Compare a URDF model loaded by rbdl_edu with the one Pinocchio (``pin``) builds.

Joints are matched by name; Pinocchio's ``continuous`` joints hold ``(cos q, sin q)`` in
its configuration vector, which is converted here. Used by ``tests/test_urdf.py``; if
``pinocchio`` is missing the import fails and so do the tests.
"""
from __future__ import annotations

import numpy as np
import pinocchio as pin

import rbdl_edu as rbd

TOL = 1e-10


def joint_maps(model, pm):
    """For each of our DOFs, Pinocchio's velocity index; and a function that turns our ``q``
    into Pinocchio's."""
    ours = {name: j for j, name in enumerate(model.jnt_names)}
    pin_names = [pm.names[j] for j in range(1, pm.njoints)]
    assert sorted(pin_names) == sorted(model.jnt_names), (pin_names, model.jnt_names)
    v_index = np.zeros(model.nv, dtype=int)
    conversions = []
    for jp in range(1, pm.njoints):
        j = ours[pm.names[jp]]
        joint = pm.joints[jp]
        assert joint.nv == 1 and model.jnt_type[j] in (rbd.model.HINGE, rbd.model.SLIDE)
        v_index[model.jnt_dofadr[j]] = joint.idx_v
        conversions.append((model.jnt_qposadr[j], joint.idx_q, joint.nq))

    def to_pin(q):
        qp = np.zeros(pm.nq)
        for a, b, n in conversions:
            qp[b:b + n] = q[a] if n == 1 else (np.cos(q[a]), np.sin(q[a]))
        return qp
    return v_index, to_pin


def compare_with_pinocchio(model, pm, seed=0, trials=3):
    """``crba``, ``rnea`` and ``aba`` equal Pinocchio's at random states (relative 1e-10)."""
    data = pm.createData()
    v_index, to_pin = joint_maps(model, pm)
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        q = rng.uniform(-1.5, 1.5, model.nq)
        qd, qdd, tau = rng.normal(size=(3, model.nv))
        qp = to_pin(q)
        # ours in Pinocchio's DOF order: x_pin[v_index[k]] = x_ours[k]
        def perm(x):
            out = np.zeros(pm.nv)
            out[v_index] = x
            return out
        M = pin.crba(pm, data, qp)
        M = np.triu(M) + np.triu(M, 1).T
        Mo = np.zeros((pm.nv, pm.nv))
        Mo[np.ix_(v_index, v_index)] = rbd.crba(model, q)
        checks = [("crba", Mo, M),
                  ("rnea", perm(rbd.rnea(model, q, qd, qdd)), pin.rnea(pm, data, qp, perm(qd), perm(qdd))),
                  ("aba", perm(rbd.aba(model, q, qd, tau)), pin.aba(pm, data, qp, perm(qd), perm(tau)))]
        for name, ours, theirs in checks:
            err = np.abs(ours - theirs).max(initial=0.0)
            assert err <= TOL * max(1.0, np.abs(theirs).max(initial=0.0)), f"{name} differs from Pinocchio by {err:.3g}"
