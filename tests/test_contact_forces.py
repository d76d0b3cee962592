"""Every contact's force at once (:func:`rbdl_edu.simulation.contact_forces.contact_forces`) is
each contact's own (:func:`rbdl_edu.constraint.rows.contact_force`, itself checked against
MuJoCo in tests/test_constraint.py and tests/test_geom_adhesion.py): pyramids and elliptic
cones, contacts of dim 1, 3, 4 and 6, adhesion; and the ray test of the touch sensors'
zones, all at once, is :func:`rbdl_edu.collision.ray.ray_geom`'s."""
from __future__ import annotations

import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.collision.ray import ray_geom
from rbdl_edu.constraint.rows import contact_force
from rbdl_edu.simulation.contact_forces import contact_forces, rays_meet_sites

#: four bodies on a tilted floor, one per contact dimension, one of them adhesive
BALLS = """<mujoco><option cone="{cone}" gravity="1 -2 -9.81"/><worldbody>
  <geom type="plane" size="5 5 .1" friction="1 .05 .01"/>
  <body pos="0 0 .1"><freejoint/><geom size=".1" condim="1"/></body>
  <body pos=".5 0 .1"><freejoint/><geom size=".1" condim="3"/></body>
  <body pos="1 0 .1"><freejoint/><geom type="box" size=".1 .1 .1" condim="4" adhesion="2"/></body>
  <body pos="1.5 0 .049"><freejoint/><geom type="capsule" size=".05 .1" euler="0 90 0" condim="6"/></body>
</worldbody></mujoco>"""


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_every_contact_force_at_once_is_each_ones(cone):
    model = rbd.load_model(BALLS.format(cone=cone))
    data = rbd.Data(model)
    rng = np.random.default_rng(0)
    data.qvel[:] = 0.3 * rng.normal(size=model.nv)
    dims = set()
    for _ in range(20):
        rbd.step(model, data)
        forces = contact_forces(model, data)
        live = [k for k, con in enumerate(data.contact) if con.efc_address >= 0]
        assert len(forces.force) == len(live)
        for row, k in enumerate(live):
            con = data.contact[k]
            dims.add(con.dim)
            np.testing.assert_allclose(forces.force[row], contact_force(model, data, k), rtol=1e-14, atol=1e-14)
            assert np.array_equal(forces.pos[row], con.pos) and np.array_equal(forces.frame[row], con.frame)
            assert list(forces.bodies[row]) == [model.geom_bodyid[con.geom1], model.geom_bodyid[con.geom2]]
    assert dims == {1, 3, 4, 6}, "every contact dimension should have rows"


def test_no_contacts_no_forces():
    model = rbd.load_model(BALLS.format(cone="pyramidal").replace('<geom type="plane"', '<geom type="plane" pos="0 0 -1"'))
    data = rbd.Data(model)
    rbd.forward(model, data)
    assert contact_forces(model, data).force.shape == (0, 6)


def test_rays_meet_sites_as_ray_geom():
    """Sphere zones all at once, the other shapes one by one: the same verdicts as ``ray_geom``
    for rays from inside, from outside toward and away from the zone, and grazing it."""
    model = rbd.load_model("""<mujoco><worldbody><body pos=".1 .2 .3" euler="10 20 30">
      <site type="sphere" size=".2"/><site type="box" size=".1 .2 .3"/><site type="capsule" size=".1 .2"/>
      <site type="ellipsoid" size=".1 .2 .3"/><site type="cylinder" size=".2 .1"/></body></worldbody></mujoco>""")
    data = rbd.Data(model)
    rbd.forward(model, data)
    rng = np.random.default_rng(1)
    n = 400
    sites = rng.integers(0, model.nsite, n)
    sites[:200] = 0                                              # half of them spheres: the array path
    pnt = data.site_xpos[sites] + rng.normal(scale=0.3, size=(n, 3))
    vec = rng.normal(scale=0.2, size=(n, 3)) + (data.site_xpos[sites] - pnt) * rng.choice([-1, 1], (n, 1))
    vec /= np.linalg.norm(vec, axis=1)[:, None]
    ours = rays_meet_sites(model, data, sites, pnt, vec)
    theirs = [ray_geom(data.site_xpos[s], data.site_xmat[s], model.site_size[s], p, v, model.site_type[s]) >= 0
              for s, p, v in zip(sites, pnt, vec)]
    assert list(ours) == theirs
    assert 0.2 < ours[:200].mean() < 0.8, "the rays should both meet and miss the spheres"
    assert list(rays_meet_sites(model, data, sites[:200], pnt[:200], vec[:200])) == theirs[:200]
