"""The dynamics core against MuJoCo 4.0.0 on random trees (book: "Checking against MuJoCo").

Each random tree (hinge, slide and ball joints, several joints on some bodies, armature,
a free-floating root on half of them) is written to MJCF with ``to_mjcf`` and loaded by
MuJoCo; then at random states

* ``crba``            equals MuJoCo's ``M``  (``mj_fullM``),
* ``bias``            equals ``qfrc_bias``,
* ``rnea`` with ``xfrc_applied`` equals ``M q̈ + qfrc_bias − Σ Jᵀf`` (``mj_applyFT``),
* ``aba``             equals ``qacc`` with constraints, actuation, springs and dampers off,
* body poses          equal ``xpos``/``xmat``.

MuJoCo is the oracle: if it is missing, these tests fail (they are not skipped).
"""
import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.configuration import random_qpos
from rbdl_edu.io.export import to_mjcf
from rbdl_edu.models import auto_tree

CASES = [dict(nb=nb, bf=bf, skew=0.5, seed=seed, root_joint="free" if seed % 2 else None)
         for seed, (nb, bf) in enumerate([(4, 1.0), (5, 1.0), (7, 1.5), (8, 2.0), (10, 3.0),
                                          (6, 1.2), (9, 2.5), (12, 1.7)])]


def relerr(a, b):
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(1.0, np.max(np.abs(b)))


@pytest.fixture(params=range(len(CASES)), ids=lambda k: f"tree{k}")
def pair(request):
    model = auto_tree(**CASES[request.param], joint_types=("hinge", "slide", "ball"),
                      multi_joint=True, armature=0.3)
    mj = mujoco.MjModel.from_xml_string(to_mjcf(model))
    mj.opt.disableflags |= (mujoco.mjtDisableBit.mjDSBL_CONSTRAINT | mujoco.mjtDisableBit.mjDSBL_ACTUATION
                            | mujoco.mjtDisableBit.mjDSBL_SPRING | mujoco.mjtDisableBit.mjDSBL_DAMPER)
    return model, mj


def test_compiled_layout_matches(pair):
    model, mj = pair
    assert (model.nq, model.nv, model.nbody) == (mj.nq, mj.nv, mj.nbody)
    np.testing.assert_array_equal(model.body_parentid[1:], mj.body_parentid[1:])
    np.testing.assert_array_equal(model.jnt_qposadr, mj.jnt_qposadr)
    np.testing.assert_array_equal(model.jnt_dofadr, mj.jnt_dofadr)
    np.testing.assert_array_equal(model.dof_parentid, mj.dof_parentid)
    assert relerr(model.qpos0, mj.qpos0) < 1e-12


@pytest.mark.parametrize("seed", range(3))
def test_dynamics_match_mujoco(pair, seed):
    model, mj = pair
    d = mujoco.MjData(mj)
    rng = np.random.default_rng(seed)
    q, qd, qdd = random_qpos(model, rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    xfrc = rng.normal(size=(model.nbody, 6))
    xfrc[0] = 0.0                                           # nothing pushes the world
    d.qpos[:], d.qvel[:] = q, qd
    mujoco.mj_forward(mj, d)

    M = np.zeros((mj.nv, mj.nv))
    mujoco.mj_fullM(mj, d, M)
    assert relerr(rbd.crba(model, q), M) < 1e-10
    assert relerr(rbd.bias(model, q, qd), d.qfrc_bias) < 1e-10
    xpos, xmat = rbd.forward_kinematics(model, q)
    assert relerr(xpos, d.xpos) < 1e-10
    assert relerr(xmat.reshape(-1, 9), d.xmat) < 1e-10

    # Σ Jᵀ f of the applied wrenches, each at its body's center of mass
    qfrc_ext = np.zeros(mj.nv)
    for b in range(1, mj.nbody):
        mujoco.mj_applyFT(mj, d, xfrc[b, :3], xfrc[b, 3:], d.xipos[b], b, qfrc_ext)
    expected_tau = M @ qdd + d.qfrc_bias - qfrc_ext
    assert relerr(rbd.rnea(model, q, qd, qdd, xfrc), expected_tau) < 1e-10

    # forward dynamics with the same wrenches and random joint forces
    tau = rng.normal(size=model.nv)
    d.xfrc_applied[:] = xfrc
    d.qfrc_applied[:] = tau
    mujoco.mj_forward(mj, d)
    assert relerr(rbd.aba(model, q, qd, tau, xfrc), d.qacc) < 1e-10
