"""Geom and pair ``adhesion`` (MuJoCo 4.0): contacts that pull, against ``mujoco==4.0.0``.

A contact's adhesion is the sum of its two geoms' (the higher-priority geom's alone, an
explicit ``<pair>``'s instead); an adhesive contact keeps a normal-only row in the ``gap``;
``qfrc_adhesion`` pulls along each adhesive contact's normal, its rows' ``efc_aref`` gain
``R adhesion``, and the contact force reported is the net one."""
from __future__ import annotations

import os

import mujoco
import numpy as np
import pytest
from feature_oracle import check
from mujoco_oracle import compare_fields

import rbdl_edu as rbd
from rbdl_edu.constraint.rows import contact_force
from rbdl_edu.io.errors import ModelError
from rbdl_edu.io.export import to_mjcf
from rbdl_edu.simulation.accelerated import accelerate
from rbdl_edu.simulation.rne_post import rne_post_constraint

FAST = bool(os.environ.get("RBDL_EDU_FAST"))

BALL = """<mujoco><option cone="{cone}"/>{default}<worldbody>
  <geom name="floor" type="plane" size="1 1 .1" {floor}/>
  <body pos="0 0 {z}"><freejoint/><geom name="ball" size=".1" {ball}/></body>
  <body pos=".5 0 .1"><freejoint/><geom name="box" type="box" size=".1 .1 .1" {box}/></body>
  </worldbody>{contact}</mujoco>"""

#: (name, attributes): the floor's, the ball's, the box's, a <default>, a <contact>, the ball's height
CASES = {
    "floor only": dict(floor='adhesion="2"'),
    "sum of both": dict(floor='adhesion="2"', ball='adhesion="3"', box='adhesion="-.5"'),
    "priority wins": dict(floor='adhesion="2" priority="1"', ball='adhesion="3"'),
    "ball's priority": dict(floor='adhesion="2"', ball='adhesion="3" priority="2"'),
    "default class": dict(default='<default><geom adhesion="1.5"/><default class="s">'
                                  '<geom adhesion="4"/></default></default>', ball='class="s"'),
    "pair overrides": dict(floor='adhesion="2"', ball='adhesion="3"',
                           contact='<contact><pair geom1="floor" geom2="ball" adhesion=".7"/></contact>'),
    "default pair": dict(default='<default><pair adhesion=".4"/></default>', box='adhesion="9"',
                         contact='<contact><pair geom1="ball" geom2="floor" gap=".05"/></contact>', z=".12"),
    "hovering in the gap": dict(floor='adhesion="2" gap=".05" margin=".01"', z=".12"),
    "gap, no adhesion": dict(floor='gap=".05"', z=".12"),
    "repulsive": dict(floor='adhesion="-2"'),
    "cancelling": dict(floor='adhesion="2"', ball='adhesion="-2"'),
}


def _xml(cone, floor="", ball="", box="", default="", contact="", z=".099"):
    return BALL.format(cone=cone, floor=floor, ball=ball, box=box, default=default, contact=contact, z=z)


def _mujoco_contact_force(m, d, k):
    f = np.zeros(6)
    mujoco.mj_contactForce(m, d, k, f)
    return f


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_forward_matches_mujoco(case, cone):
    """Every contact field, every row and the accelerations at a resting or hovering state."""
    xml = _xml(cone, **CASES[case])
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    model = rbd.load_model(xml)
    compare_fields(model, m)                                  # geom_adhesion, pair_adhesion
    assert model.flg_adhesion == bool(m.flg_adhesion)
    data = rbd.Data(model)
    rbd.forward(model, data)
    assert len(data.contact) == d.ncon and data.nefc == d.nefc
    for k, con in enumerate(data.contact):
        theirs = d.contact[k]
        assert (con.geom1, con.geom2, con.dim) == (theirs.geom[0], theirs.geom[1], theirs.dim)
        assert con.adhesion == pytest.approx(theirs.adhesion, abs=1e-15)
        assert bool(con.exclude) == bool(theirs.exclude)
        assert con.efc_address == theirs.efc_address
        np.testing.assert_allclose(contact_force(model, data, k), _mujoco_contact_force(m, d, k), atol=1e-9)
    for name in ("efc_pos", "efc_margin", "efc_R", "efc_aref", "efc_force", "qfrc_adhesion", "qfrc_passive",
                 "qacc"):
        np.testing.assert_allclose(getattr(data, name), getattr(d, name), atol=1e-9, err_msg=name)


def test_adhesion_is_what_the_brief_says():
    """Independent of MuJoCo: the floor's 2 N and the ball's 3 N add up, the ball is pulled
    down by them, the resting rows' forces grow by exactly the adhesion while the net normal
    force does not change, and a hovering ball in the gap gets one normal row pulling it."""
    def run(**kw):
        model = rbd.load_model(_xml("pyramidal", **kw))
        data = rbd.Data(model)
        rbd.forward(model, data)
        return model, data
    model0, plain_ = run()
    model1, sticky = run(floor='adhesion="2"', ball='adhesion="3"')
    ball = [k for k, c in enumerate(sticky.contact) if model1.geom_names[c.geom2] == "ball"][0]
    assert sticky.contact[ball].adhesion == 5.0
    np.testing.assert_allclose(sticky.qfrc_adhesion[:6], [0, 0, -5, 0, 0, 0], atol=1e-12)
    a = sticky.contact[ball].efc_address
    assert sticky.efc_force[a:a + 4].sum() == pytest.approx(plain_.efc_force[a:a + 4].sum() + 5.0, rel=1e-9)
    assert contact_force(model1, sticky, ball)[0] == pytest.approx(contact_force(model0, plain_, ball)[0], rel=1e-9)
    np.testing.assert_allclose(sticky.qacc[:6], plain_.qacc[:6], atol=1e-9)   # resting: the pull is held
    # the box just touching (dist 0): no contact rows without adhesion, one normal row with it
    box = [c for c in sticky.contact if model1.geom_names[c.geom2] == "box"][0]
    assert box.dim == 1 and box.efc_address >= 0 and plain_.qacc[8] == pytest.approx(-9.81)
    _, hover = run(floor='adhesion="2" gap=".05"', z=".12")
    con = [c for c in hover.contact if c.dist > 0][0]
    assert not con.exclude and con.dim == 1 and con.efc_address >= 0
    assert hover.qacc[2] < -9.81 - 1e-3                      # pulled down harder than gravity


CEILING = """<mujoco><option integrator="{integrator}"/><worldbody>
  <geom name="ceiling" type="plane" size="1 1 .1" pos="0 0 1" euler="180 0 0" adhesion="{adhesion}"
        gap=".005"/>
  <body pos="0 0 .9005"><freejoint/><geom size=".1" density="1000" adhesion="{ball}"/></body>
  </worldbody></mujoco>"""


@pytest.mark.parametrize("integrator", ["Euler", "implicitfast", "RK4"])
def test_ball_stuck_under_a_ceiling(integrator):
    """A 4.2 kg ball under a ceiling: with 30 + 20 N of adhesion it hangs there, as in
    MuJoCo (every field at a few states, then a trajectory), a fraction of a millimetre
    below it: a pull needs a stretch, so the ceiling has a ``gap`` (without one the contact
    is lost as soon as the surfaces part, and the ball falls, in MuJoCo too); with no
    adhesion it falls."""
    xml = CEILING.format(integrator=integrator, adhesion=30, ball=20)
    check(xml, integrator, nstate=2, nskip=10, qvel=0.05)
    m = mujoco.MjModel.from_xml_string(xml)
    m.opt.integrator = {"Euler": 0, "RK4": 1, "implicitfast": 3}[integrator]
    d = mujoco.MjData(m)
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    for _ in range(60 if FAST else 250):
        mujoco.mj_step(m, d)
        rbd.step(model, data)
    np.testing.assert_allclose(data.qpos, d.qpos, atol=1e-8)
    assert abs(data.qpos[2] - 0.9) < 1e-3 and data.ncon == 1          # still hanging
    loose = rbd.load_model(CEILING.format(integrator=integrator, adhesion=0, ball=0))
    data = rbd.Data(loose)
    rbd.step(loose, data, 60)
    assert data.qpos[2] < 0.88                                        # falls without it


BOX = """<mujoco><option integrator="{integrator}" cone="{cone}"/><worldbody>
  <geom name="floor" type="plane" size="1 1 .1" adhesion="{adhesion}" gap=".005"/>
  <body pos="0 0 .0999"><joint name="x" type="slide" axis="1 0 0"/><joint name="z" type="slide" axis="0 0 1"/>
  <joint name="tilt" axis="0 1 0"/><geom type="box" size=".1 .1 .1" mass="1"/></body></worldbody>
  <actuator><motor joint="z" gear="40"/><motor joint="x" gear="5"/></actuator></mujoco>"""


@pytest.mark.parametrize("integrator,cone", [("Euler", "pyramidal"), ("implicitfast", "elliptic"),
                                             ("implicitfast", "pyramidal")])
def test_box_pulled_off_a_sticky_floor(integrator, cone):
    """A 1 kg box on a floor whose 4 contacts each pull with 5 N: random pulls and shoves
    match MuJoCo field by field; a lift ramping up to 40 N tears it off when MuJoCo's does,
    later than off a floor without adhesion."""
    xml = BOX.format(integrator=integrator, cone=cone, adhesion=5)
    check(xml, integrator, nstate=2, nskip=15, qvel=0.05)

    def lift_off(xml):
        m = mujoco.MjModel.from_xml_string(xml)
        m.opt.integrator = {"Euler": 0, "implicitfast": 3}[integrator]
        d = mujoco.MjData(m)
        model = rbd.load_model(xml)
        data = rbd.Data(model)
        for k in range(300):
            d.ctrl[:] = data.ctrl[:] = [k / 300, 0.0]
            mujoco.mj_step(m, d)
            rbd.step(model, data)
            np.testing.assert_allclose(data.qpos, d.qpos, atol=1e-7, err_msg=f"step {k}")
            if data.qpos[1] > 0.01:
                return k
        return None
    sticky, loose = lift_off(xml), lift_off(BOX.format(integrator=integrator, cone=cone, adhesion=0))
    assert loose is not None and sticky is not None and sticky > loose + 20


def test_export_writes_adhesion():
    """``to_mjcf`` writes geom and pair adhesion: MuJoCo reads the same numbers back."""
    xml = _xml("pyramidal", floor='adhesion="2"', ball='adhesion="-3"',
               contact='<contact><pair geom1="floor" geom2="ball" adhesion=".7"/></contact>')
    model = rbd.load_model(xml)
    m = mujoco.MjModel.from_xml_string(to_mjcf(model))
    np.testing.assert_array_equal(m.geom_adhesion, model.geom_adhesion)
    np.testing.assert_array_equal(m.pair_adhesion, model.pair_adhesion)
    again = rbd.load_model(to_mjcf(model))
    np.testing.assert_array_equal(again.geom_adhesion, model.geom_adhesion)
    np.testing.assert_array_equal(again.pair_adhesion, model.pair_adhesion)


def test_bad_adhesion_is_refused():
    """Not a number: an error naming the attribute; the accelerated pipeline refuses it by name."""
    with pytest.raises(ModelError, match="adhesion"):
        rbd.load_model(_xml("pyramidal", floor='adhesion="sticky"'))
    with pytest.raises(ValueError, match="adhesion"):
        spec = rbd.ModelSpec()
        spec.add_geom(0, "plane", [1, 1, 0.1], adhesion=float("nan"))
    with pytest.raises(ValueError, match="adhesion"):
        accelerate(rbd.load_model(_xml("pyramidal", floor='adhesion="2"')))


SENSED = """<mujoco><option cone="{cone}"/><worldbody>
  <geom name="floor" type="plane" size="1 1 .1" adhesion="2" gap=".05"/>
  <body name="ball" pos="0 0 {z}"><freejoint/><geom size=".1" adhesion="1"/><site name="s" size=".2"/></body>
  <body name="box" pos=".5 0 .0995"><freejoint/><geom type="box" size=".1 .1 .1"/><site name="t" size=".3"/></body>
  </worldbody><sensor><touch site="s"/><touch site="t"/>
  <contact geom1="floor" data="found force torque dist normal" num="2"/></sensor></mujoco>"""


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("z", [".099", ".12"])
def test_sensors_inverse_and_cfrc_ext_see_the_net_force(cone, z):
    """Touch and contact sensors, ``cfrc_ext`` and ``mj_inverse`` read the net contact force
    (the solver's less the adhesion) as MuJoCo's: a ball pulled across the gap touches
    nothing and feels a pull of 3 N."""
    xml = SENSED.format(cone=cone, z=z)
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    mujoco.mj_rnePostConstraint(m, d)
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    rbd.forward(model, data)
    rne_post_constraint(model, data)
    np.testing.assert_allclose(data.sensordata, d.sensordata, atol=1e-9)
    np.testing.assert_allclose(data.cfrc_ext, d.cfrc_ext, atol=1e-9)
    if z == ".12":
        assert data.sensordata[0] == 0 and data.cfrc_ext[1, 5] == pytest.approx(-3.0)
    mujoco.mj_inverse(m, d)
    rbd.inverse(model, data)
    np.testing.assert_allclose(data.qfrc_inverse, d.qfrc_inverse, atol=1e-9)


MIXED = """<mujoco><option cone="{cone}" solver="{solver}" noslip_iterations="{noslip}"/><worldbody>
  <geom name="floor" type="plane" size="1 1 .1" adhesion="3" gap=".01" condim="{condim}"/>
  <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .08 .1" condim="{condim}" adhesion="1"/></body>
  <body name="c" pos=".5 0 .12"><freejoint/><geom type="capsule" size=".05 .1" euler="0 90 0" condim="{condim}"/></body>
  </worldbody><actuator><adhesion body="c" ctrlrange="0 1" gain="10"/></actuator></mujoco>"""


@pytest.mark.parametrize("cone,solver,noslip,condim,integrator", [
    ("pyramidal", "Newton", 0, 6, "Euler"), ("elliptic", "Newton", 0, 6, "implicitfast"),
    ("pyramidal", "PGS", 0, 3, "implicitfast"), ("elliptic", "CG", 0, 4, "Euler"),
    ("pyramidal", "Newton", 5, 3, "Euler"), ("elliptic", "PGS", 3, 3, "implicitfast")])
def test_every_cone_solver_and_condim(cone, solver, noslip, condim, integrator):
    """A box with 4 sticky contacts and a capsule held by an adhesion actuator across the gap
    of an adhesive floor: pyramid edges share the bias, every solver and noslip take it, and
    the actuator's moment reads the gap contacts' normal rows, as MuJoCo 4.0."""
    check(MIXED.format(cone=cone, solver=solver, noslip=noslip, condim=condim), integrator, nstate=2, nskip=10,
          qvel=0.1, ctrl=lambda rng, m: rng.uniform(0, 1, m.nu))


def test_a_sleeping_box_keeps_its_pull():
    """With ``<flag sleep="enable"/>`` a box on a sticky floor falls asleep (its contacts are
    left out); its dofs keep the passive forces of their last awake step (MuJoCo's passive
    stage skips them): ``qfrc_adhesion`` still holds the 4 contacts' 12 N, as MuJoCo's."""
    xml = """<mujoco><option><flag sleep="enable"/></option><worldbody>
      <geom type="plane" size="1 1 .1" adhesion="2" gap=".01"/>
      <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1" adhesion="1"/></body></worldbody></mujoco>"""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    for _ in range(60):
        mujoco.mj_step(m, d)
        rbd.step(model, data)
    assert d.tree_asleep[0] >= 0 and data.tree_asleep[0] >= 0 and data.ncon == d.ncon == 0
    np.testing.assert_allclose(data.qpos, d.qpos, atol=1e-12)
    for name in ("qfrc_adhesion", "qfrc_passive"):
        np.testing.assert_allclose(getattr(data, name), getattr(d, name), atol=1e-12, err_msg=name)
    assert data.qfrc_adhesion[2] == pytest.approx(-12.0)
