"""Resting contacts stay at rest: a box on the floor and a stack of three boxes, simulated for
10⁴ steps (20 s), settle within their first 0.2 s and then drift less than 1 mm, with no
warning (no divergence).

This test is long (about a minute and a half of CPU for both scenes); with the environment
variable ``RBDL_EDU_FAST=1`` (set by ``make test``) it shortens itself to 2000 steps (4 s).
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from test_constraint import CONTACTS

import rbdl_edu as rbd

NSTEP = 2000 if os.environ.get("RBDL_EDU_FAST") else 10_000


@pytest.mark.parametrize("name", ["box", "stack"])
def test_resting_boxes_stay_put(name):
    model = rbd.load_model(CONTACTS[name])
    data = rbd.Data(model)
    for _ in range(100):                             # settle into the floor's soft layer
        rbd.step(model, data)
    settled = data.qpos.copy()
    drift = 0.0
    for _ in range(NSTEP - 100):
        rbd.step(model, data)
        drift = max(drift, np.abs(data.qpos - settled).max())
    assert not data.warning, data.warning
    assert drift < 1e-3, f"{name} drifted {drift:.3g} in {NSTEP} steps"
    assert np.abs(data.qvel).max() < 1e-3
    assert data.ncon == 4 * (3 if name == "stack" else 1)
