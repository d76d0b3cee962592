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
