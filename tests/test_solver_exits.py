"""The constraint solvers stop where MuJoCo's do, whatever ``iterations`` and ``tolerance``
ask: ``iterations=10**6, tolerance=0`` once ran for minutes on one contact step (MuJoCo 4.0
stops when the cost stops improving), ``tolerance=-1`` ran every iteration (MuJoCo: one)."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd

BOX = """<mujoco><option solver="{solver}" iterations="{iterations}" tolerance="{tolerance}"/><worldbody>
    <geom type="plane" size="1 1 .1"/><body pos="0 0 .099"><freejoint/><geom type="box" size=".1 .1 .1" mass="1"/>
    </body></worldbody></mujoco>"""


@pytest.mark.parametrize("solver", ["Newton", "CG"])
@pytest.mark.parametrize("iterations,tolerance", [(10**6, 0), (100, -1)])
def test_the_solver_stops_when_the_cost_stops_improving(solver, iterations, tolerance):
    xml = BOX.format(solver=solver, iterations=iterations, tolerance=tolerance)
    model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
    data, d = rbd.Data(model), mujoco.MjData(m)
    for _ in range(3):
        rbd.step(model, data)
        mujoco.mj_step(m, d)
        # Newton takes MuJoCo's exit exactly; CG stops once a step no longer changes q̈ in
        # floating point (MuJoCo's CG goes on a few steps below round-off)
        assert data.solver_niter == d.solver_niter[0] if solver == "Newton" else 1 <= data.solver_niter <= 10
        np.testing.assert_allclose(data.qacc, d.qacc, atol=1e-8)
        np.testing.assert_allclose(data.qpos, d.qpos, atol=1e-10)


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("noslip_iterations", [10**6, 10**6 + 1])
def test_noslip_with_a_million_sweeps_ends_where_mujoco_does(cone, noslip_iterations):
    """``noslip_tolerance=0``: round-off leaves the friction forces cycling through all the
    sweeps, in MuJoCo too (17 s a step here once, MuJoCo 0.1 s); the loop recognizes the cycle
    and lands on its phase at the last sweep, so an odd and an even count both give MuJoCo's
    forces."""
    xml = f"""<mujoco><option noslip_iterations="{noslip_iterations}" noslip_tolerance="0" cone="{cone}"/>
        <worldbody><geom type="plane" size="1 1 .1"/><body pos="0 0 .099" euler="0 3 0"><freejoint/>
        <geom type="box" size=".1 .1 .1" mass="1"/></body></worldbody></mujoco>"""
    model, m = rbd.load_model(xml), mujoco.MjModel.from_xml_string(xml)
    data, d = rbd.Data(model), mujoco.MjData(m)
    for _ in range(3):
        rbd.step(model, data)
        mujoco.mj_step(m, d)
        assert data.solver_niter <= noslip_iterations + model.opt.iterations and len(data.solver) < 10**4
        np.testing.assert_allclose(data.efc_force, d.efc_force, atol=1e-10)
        np.testing.assert_allclose(data.qacc, d.qacc, atol=1e-10)
        np.testing.assert_allclose(data.qvel, d.qvel, atol=1e-13)
