"""The integrators' per-model shortcuts change no number: each is taken only where the work it
skips is a no-op.

* :func:`smooth_vel` skips the mask to ``M``'s pattern when no term can couple two branches
  (:func:`couples_branches` false): then the unmasked ``qDeriv`` has no entry outside it.
* :func:`actuator_slope` reads no controls and no gain inputs where no gain has a velocity
  slope: it equals the full formula :math:`g_2 w + b_2` (zeroed where saturated).
* :func:`integrate_pos` of hinges and slides only is ``q + q̇ dt``; with free and ball joints
  the free positions move with the hinges: both equal joint-by-joint integration.
* ``factor_ltdl``/``solve_ltdl`` from their per-model tables equal a dense solve.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.factor import factor_ltdl, solve_ltdl, to_tree_sparse, tree_pattern
from rbdl_edu.lab import scene_path
from rbdl_edu.model.enums import BALL, FREE
from rbdl_edu.rotation import quat_integrate
from rbdl_edu.simulation import velocity_derivatives as vd
from rbdl_edu.smooth.actuation import clamped_ctrl, gain_input

BRANCHES = """<mujoco><option viscosity="0.2" integrator="implicitfast"/><worldbody>
<body pos="0 0 1"><freejoint/><geom type="capsule" size=".05 .2"/>
  <body pos=".2 0 0"><joint name="a" type="ball" damping=".3"/><geom size=".06"/><site name="s" pos="0 .1 0"/>
    <body pos="0 0 -.3"><joint name="b" axis="0 1 0" damping=".5"/><geom type="box" size=".05 .05 .1"/></body></body>
  <body pos="-.2 0 0"><joint name="c" axis="1 0 0" damping=".2"/><geom size=".05"/><site name="r" pos="0 0 .1"/>
    <body pos="0 0 -.2"><joint name="d" type="slide" axis="0 0 1" damping="1"/><geom size=".04"/></body></body>
</body></worldbody>
<actuator><position joint="b" kp="3" kv=".4" forcelimited="true" forcerange="-.05 .05"/>
  <velocity joint="c" kv=".7"/><general joint="d" gaintype="affine" gainprm="2 0 -.3" biastype="affine"
  biasprm="0 -1 -.2"/>{extra}</actuator></mujoco>"""
JOINTS_ONLY = BRANCHES.format(extra='<motor joint="a" gear="0 1 0"/>')
SITE = BRANCHES.format(extra='<general site="s" refsite="r" gear="1 1 0 0 0 0" biastype="affine" biasprm="0 0 -.5"/>')


def at_random_state(model, seed=0):
    data = rbd.Data(model)
    rng = np.random.default_rng(seed)
    data.qpos[:] = rbd.random_qpos(model, rng, 0.5)
    data.qvel[:] = rng.normal(size=model.nv)
    data.ctrl[:] = rng.uniform(-1, 1, size=model.nu)
    rbd.forward(model, data)
    return data


@pytest.mark.parametrize("xml", [JOINTS_ONLY, SITE], ids=["joint actuators", "a site actuator"])
def test_smooth_vel_mask_skipped_only_where_nothing_leaves_the_pattern(xml):
    model = rbd.load_model(xml)
    data = at_random_state(model)
    D = vd.passive_vel(model, data) + vd.actuator_vel(model, data)        # before any mask
    outside = D[~tree_pattern(model)]
    assert vd.couples_branches(model) == (xml is SITE)
    assert np.any(outside != 0) == (xml is SITE)            # the sites' arm spans both branches
    assert np.array_equal(vd.smooth_vel(model, data), np.where(tree_pattern(model), D, 0.0))


def test_the_mouse_takes_the_shortcuts():
    model = rbd.load_model(str(scene_path("flat")))
    assert not vd.couples_branches(model) and not vd.reads_controls(model) and not vd.gain_slopes(model)


@pytest.mark.parametrize("xml", [JOINTS_ONLY, str(scene_path("flat"))], ids=["affine gains", "servos"])
def test_actuator_slope_is_g2_w_plus_b2(xml):
    model = rbd.load_model(xml)
    data = at_random_state(model, seed=1)
    gain_vel, bias_vel = vd.affine_slopes(model)
    u = clamped_ctrl(model, data)
    full = gain_vel * gain_input(model, data, u) + bias_vel
    full = np.where(vd._saturated(model, data, u), 0.0, full)
    assert vd.gain_slopes(model) == (xml is JOINTS_ONLY)
    assert np.array_equal(vd.actuator_slope(model, data), full)
    if xml is JOINTS_ONLY:
        assert vd._saturated(model, data, u)[0]             # the position servo at its force range


def joint_by_joint(model, q, qd, dt):
    """``integrate_pos`` as the joint types' rules, one joint at a time."""
    out = np.array(q, dtype=float)
    for j in range(model.njnt):
        a, d = model.jnt_qposadr[j], model.jnt_dofadr[j]
        if model.jnt_type[j] == FREE:
            out[a:a + 3] = q[a:a + 3] + qd[d:d + 3] * dt
            a, d = a + 3, d + 3
        if model.jnt_type[j] in (FREE, BALL):
            out[a:a + 4] = quat_integrate(q[a:a + 4], qd[d:d + 3], dt)
        else:
            out[a] = q[a] + qd[d] * dt
    return out


@pytest.mark.parametrize("xml", [JOINTS_ONLY, "double_pendulum"])
def test_integrate_pos_equals_joint_by_joint(xml):
    model = rbd.load_model(xml if xml.startswith("<") else f"models/{xml}.xml")
    rng = np.random.default_rng(2)
    qs = np.array([rbd.random_qpos(model, rng) for _ in range(3)])
    qds = rng.normal(size=(3, model.nv))
    batch = rbd.integrate_pos(model, qs, qds, 0.01)
    for q, qd, b in zip(qs, qds, batch):
        one = rbd.integrate_pos(model, q, qd, 0.01)
        assert np.array_equal(one, joint_by_joint(model, q, qd, 0.01))
        assert np.array_equal(b, one)


def test_tables_factor_and_solve():
    model = rbd.load_model(JOINTS_ONLY)
    model = model.replace(opt=dataclasses.replace(model.opt, integrator="Euler"))
    data = at_random_state(model, seed=3)
    b = np.arange(model.nv, dtype=float)
    x = solve_ltdl(model, factor_ltdl(model, to_tree_sparse(model, data.qM)), b)
    assert np.allclose(data.qM @ x, b, rtol=1e-12, atol=1e-12)
