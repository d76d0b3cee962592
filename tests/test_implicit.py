"""The ``implicit`` integrator against MuJoCo 4.0's ``mj_step``: :math:`(M - hD)\\,\\ddot q = f`
with :math:`D` the derivative of every smooth force with respect to the velocity, the bias
force's (Coriolis, centrifugal, gyroscopic) included, to round-off; constraints off and on."""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest
from test_mjcf import GYM
from test_step_fields import FIELDS, _same

import rbdl_edu as rbd
from rbdl_edu.simulation.velocity_derivatives import bias_vel

# a pendulum, a free body with a ball-jointed arm in a fluid, dampers, a damped tendon and
# velocity servos: every term of D
SCENE = """<mujoco><option integrator="implicit" density="1.2" viscosity="0.02" wind="1 0 0"/>
  <worldbody><geom type="plane" size="3 3 .1"/>
    <body pos="0 0 2"><joint name="swing" axis="0 1 0" damping=".3"/><geom type="capsule" fromto="0 0 0 .6 0 0" size=".05"/>
      <site name="a" pos=".6 0 0"/></body>
    <body pos="1 0 .5"><freejoint/><geom type="box" size=".2 .1 .05" fluidshape="ellipsoid"/><site name="b"/>
      <body pos=".3 0 0"><joint name="ball" type="ball" damping=".1"/><geom type="capsule" fromto="0 0 0 .4 0 0" size=".04"/>
        <body pos=".4 0 0"><joint name="hinge" axis="0 0 1" damping=".05"/><geom size=".06"/></body></body></body>
  </worldbody>
  <tendon><spatial damping="2"><site site="a"/><site site="b"/></spatial></tendon>
  <actuator><velocity joint="swing" kv="2"/><position joint="hinge" kp="3" kv=".5"/></actuator></mujoco>"""


def _both(m, model, constraint):
    if not constraint:
        m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_IMPLICIT
    flags = model.opt.disableflags | (set() if constraint else {"constraint"})
    return m, model.replace(opt=dataclasses.replace(model.opt, integrator="implicit", disableflags=flags))


CASES = [("scene", False), ("scene", True), ("humanoid.xml", False), ("humanoid.xml", True), ("ant.xml", True)]


@pytest.mark.parametrize("name,constraint", CASES)
def test_implicit_steps_as_mujoco(name, constraint):
    if name == "scene":
        m, model = mujoco.MjModel.from_xml_string(SCENE), rbd.load_model(SCENE)
    else:
        path = next((p for p in GYM if p.name == name), None)
        assert path is not None, f"gymnasium's {name} is missing"
        m, model = mujoco.MjModel.from_xml_path(str(path)), rbd.load_model(path)
    m, model = _both(m, model, constraint)
    d, data = mujoco.MjData(m), rbd.Data(model)
    rng = np.random.default_rng(2)
    d.qvel[:] = rng.normal(size=m.nv) * 2
    for k in range(8):
        d.ctrl[:] = rng.uniform(-1, 1, m.nu)
        data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:], data.time = d.qpos, d.qvel, d.act, d.ctrl, d.time
        data.qacc_warmstart[:] = d.qacc_warmstart
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        wrong = [f for f in FIELDS + ("qpos", "qvel", "act") if not _same(f, getattr(data, f), getattr(d, f))]
        assert not wrong, f"{name}, step {k}: {wrong} differ from mj_step's"


def test_bias_derivative_is_exact_and_matters():
    """:func:`bias_vel` equals a fine finite difference of ``qfrc_bias`` (to its rounding),
    and the step with it differs from ``implicitfast``'s (which leaves it out)."""
    model = rbd.load_model(SCENE)
    data = rbd.Data(model)
    rng = np.random.default_rng(3)
    data.qvel[:] = rng.normal(size=model.nv) * 3
    rbd.forward(model, data)
    D = bias_vel(model, data)
    eps = 1e-6
    for k in range(model.nv):
        plus, minus = rbd.Data(model), rbd.Data(model)
        for x, sign in ((plus, 1), (minus, -1)):
            x.qpos[:], x.qvel[:] = data.qpos, data.qvel
            x.qvel[k] += sign * eps
            rbd.forward(model, x)
        np.testing.assert_allclose(D[:, k], (plus.qfrc_bias - minus.qfrc_bias) / (2 * eps), atol=1e-7)
    fast = model.replace(opt=dataclasses.replace(model.opt, integrator="implicitfast"))
    a, b = rbd.Data(model), rbd.Data(fast)
    for x in (a, b):
        x.qvel[:] = data.qvel
    rbd.step(model, a)
    rbd.step(fast, b)
    assert np.abs(a.qvel - b.qvel).max() > 1e-6
