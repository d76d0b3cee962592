"""The touch sensors in one pass over the contacts (:mod:`rbdl_edu.simulation.touch`) read what
each contact's own force says (:func:`rbdl_edu.constraint.rows.contact_force`, checked against
MuJoCo in tests/test_constraint.py and tests/test_geom_adhesion.py; the touch readings
themselves against MuJoCo in tests/test_constraint.py and tests/test_sensors.py): pyramids
and elliptic cones, contacts of dim 1, 3, 4 and 6, adhesion; and the ray test of the zones,
spheres on numbers, is :func:`rbdl_edu.collision.ray.ray_geom`'s."""
from __future__ import annotations

import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.collision.ray import ray_geom
from rbdl_edu.constraint.rows import contact_force
from rbdl_edu.simulation.touch import normal_force, ray_meets_site, touch

#: four bodies on a floor pulled sideways, one per contact dimension, one of them adhesive, with
#: touch zones of several shapes and sizes (some miss the contact point's ray)
BALLS = """<mujoco><option cone="{cone}" gravity="1 -2 -9.81"/><worldbody>
  <geom type="plane" size="5 5 .1" friction="1 .05 .01"/>
  <body pos="0 0 .1"><freejoint/><geom size=".1" condim="1"/><site size=".12"/><site size=".05"/></body>
  <body pos=".5 0 .1"><freejoint/><geom size=".1" condim="3"/><site type="box" size=".11 .11 .11"/></body>
  <body pos="1 0 .1"><freejoint/><geom type="box" size=".1 .1 .1" condim="4" adhesion="2"/>
    <site size=".2"/><site type="capsule" size=".02 .3" pos="0 .05 0"/></body>
  <body pos="1.5 0 .049"><freejoint/><geom type="capsule" size=".05 .1" euler="0 90 0" condim="6"/>
    <site type="cylinder" size=".06 .12" euler="0 90 0"/><site size=".04" pos=".1 0 0"/></body>
</worldbody></mujoco>"""


def touch_by_contact_force(model, data, s):
    """A touch reading as the sum over contacts of ``contact_force`` (the oracle)."""
    body, total = model.site_bodyid[s], 0.0
    for k, con in enumerate(data.contact):
        bodies = model.geom_bodyid[con.geom1], model.geom_bodyid[con.geom2]
        if con.efc_address < 0 or body not in bodies or contact_force(model, data, k)[0] <= 0:
            continue
        ray = con.frame[0] * (-1 if body == bodies[1] else 1)
        pose = data.site_xpos[s], data.site_xmat[s], model.site_size[s]
        if ray_geom(*pose, con.pos, ray, model.site_type[s]) >= 0:
            total += contact_force(model, data, k)[0]
    return total


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_touch_reads_each_contacts_force(cone):
    model = rbd.load_model(BALLS.format(cone=cone))
    data = rbd.Data(model)
    data.qvel[:] = 0.3 * np.random.default_rng(0).normal(size=model.nv)
    sites = np.arange(model.nsite)
    dims, felt, missed = set(), 0, 0
    for _ in range(20):
        rbd.step(model, data)
        for k, con in enumerate(data.contact):
            if con.efc_address >= 0:
                dims.add(con.dim)
                assert normal_force(model, con, data.efc_force.tolist()) == contact_force(model, data, k)[0]
        ours = touch(model, data, sites)
        theirs = [touch_by_contact_force(model, data, s) for s in sites]
        assert list(ours) == theirs
        felt += np.count_nonzero(ours)
        missed += np.count_nonzero(ours == 0)
    assert dims == {1, 3, 4, 6}, "every contact dimension should have rows"
    assert felt > 20 and missed > 20, "the zones should both feel and miss contacts"


def test_no_contacts_no_touch():
    lowered = BALLS.format(cone="pyramidal").replace('<geom type="plane"', '<geom type="plane" pos="0 0 -1"')
    model = rbd.load_model(lowered)
    data = rbd.Data(model)
    rbd.forward(model, data)
    assert list(touch(model, data, np.arange(model.nsite))) == [0.0] * model.nsite


def test_ray_meets_site_as_ray_geom():
    """Sphere zones on numbers, the other shapes by ``ray_geom``: the same verdicts as
    ``ray_geom`` for rays from inside, from outside toward and away from the zone."""
    model = rbd.load_model("""<mujoco><worldbody><body pos=".1 .2 .3" euler="10 20 30">
      <site type="sphere" size=".2"/><site type="box" size=".1 .2 .3"/><site type="capsule" size=".1 .2"/>
      <site type="ellipsoid" size=".1 .2 .3"/><site type="cylinder" size=".2 .1"/></body></worldbody></mujoco>""")
    data = rbd.Data(model)
    rbd.forward(model, data)
    rng = np.random.default_rng(1)
    n = 400
    sites = rng.integers(0, model.nsite, n)
    sites[:200] = 0                                              # half of them spheres
    pnt = data.site_xpos[sites] + rng.normal(scale=0.3, size=(n, 3))
    vec = rng.normal(scale=0.2, size=(n, 3)) + (data.site_xpos[sites] - pnt) * rng.choice([-1, 1], (n, 1))
    ours = [ray_meets_site(model, data, s, p, v) for s, p, v in zip(sites, pnt, vec)]
    theirs = [ray_geom(data.site_xpos[s], data.site_xmat[s], model.site_size[s], p, v, model.site_type[s]) >= 0
              for s, p, v in zip(sites, pnt, vec)]
    assert ours == theirs
    assert 0.2 < np.mean(ours[:200]) < 0.8, "the rays should both meet and miss the spheres"
