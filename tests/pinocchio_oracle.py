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
        assert joint.nv == 1 and model.jnt_type[j] in (rbd.model.enums.HINGE, rbd.model.enums.SLIDE)
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


def compare_floating_with_pinocchio(model, pm, seed=0, trials=2):
    r"""Like :func:`compare_with_pinocchio` for a model whose first joint is free and a
    Pinocchio model built with ``JointModelFreeFlyer``.

    The conventions differ: ours (MuJoCo's) holds the base's linear velocity in the world
    frame, :math:`v_w`, Pinocchio's in the base frame, :math:`v_b = R^T v_w` (the angular
    velocity is in the base frame for both). So :math:`\dot q_{pin} = T \dot q` with
    :math:`T = \mathrm{diag}(R^T, I)`, accelerations
    :math:`a_b = R^T a_w - \omega \times v_b`, and forces transform with :math:`T^T`:
    :math:`\tau = T^T \tau_{pin}`, :math:`M = T^T M_{pin} T`.
    """
    from rbdl_edu.rotation import quat_to_mat
    data = pm.createData()
    assert model.jnt_type[0] == rbd.model.enums.FREE and pm.joints[1].nq == 7
    ours = {name: j for j, name in enumerate(model.jnt_names)}
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        q = rng.uniform(-1, 1, model.nq)
        q[3:7] /= np.linalg.norm(q[3:7])
        qd, qdd, tau = rng.normal(size=(3, model.nv))
        R = quat_to_mat(q[3:7])
        # configuration: position, quaternion (x, y, z, w), then joints by name
        qp = np.zeros(pm.nq)
        qp[:3], qp[3:6], qp[6] = q[:3], q[4:7], q[3]
        v_index = np.zeros(model.nv, dtype=int)
        v_index[:6] = np.arange(6)
        for jp in range(2, pm.njoints):
            j, joint = ours[pm.names[jp]], pm.joints[jp]
            v_index[model.jnt_dofadr[j]] = joint.idx_v
            a, b = model.jnt_qposadr[j], joint.idx_q
            qp[b:b + joint.nq] = q[a] if joint.nq == 1 else (np.cos(q[a]), np.sin(q[a]))
        P = np.zeros((pm.nv, model.nv))
        P[v_index, np.arange(model.nv)] = 1                  # ours -> Pinocchio's order
        T = np.eye(model.nv)
        T[:3, :3] = R.T
        A = P @ T                                            # v_pin = A v
        vp = A @ qd
        ap = A @ qdd
        ap[:3] -= np.cross(qd[3:6], vp[:3])                   # a_b = R^T a_w - w x v_b
        M = pin.crba(pm, data, qp)
        M = np.triu(M) + np.triu(M, 1).T
        checks = [("crba", rbd.crba(model, q), A.T @ M @ A),
                  ("rnea", rbd.rnea(model, q, qd, qdd), A.T @ pin.rnea(pm, data, qp, vp, ap))]
        # forward dynamics: Pinocchio's acceleration for the same forces, mapped back
        a_pin = pin.aba(pm, data, qp, vp, np.linalg.solve(A.T, tau))
        a_pin[:3] += np.cross(qd[3:6], vp[:3])
        checks.append(("aba", rbd.aba(model, q, qd, tau), np.linalg.solve(A, a_pin)))
        for name, o, t in checks:
            err = np.abs(o - t).max(initial=0.0)
            assert err <= TOL * max(1.0, np.abs(t).max(initial=0.0)), f"{name} differs from Pinocchio by {err:.3g}"
