"""The constraint model against MuJoCo 4.0: rows, softness, forces, accelerations, the
sensors and inverse dynamics that read them.

At states taken along MuJoCo trajectories, on canonical scenes (spheres, boxes and capsules
resting and sliding on a plane and an incline, each cone, condim 1/3/4/6, stacked boxes,
joint limits with a ball cone, tendon limits, friction loss, connect and weld loops between
bodies and sites, explicit pairs with their own softness, margins and gaps, a sphere, a
capsule and a box on a height field) and on every
gymnasium asset, both engines make the same contacts and rows (``ncon``, ``efc_type``,
``efc_id``; ``efc_J``, ``efc_pos``, ``efc_margin``, ``efc_diagA``, ``efc_R``, ``efc_D``,
``efc_KBIP``, ``efc_aref``, ``efc_b`` to 1e-9) and reach the same optimum (``qacc``,
``efc_force`` per row type, ``qfrc_constraint`` to 1e-6 relative, both solvers run at
tolerance 1e-12). See ``tests/constraint_oracle.py``.

Where we knowingly differ (and what the tests do):

* ``efc_state``: when MuJoCo solves island by island (its default) it leaves ``efc_state``
  as the warm start computed it; ours is the state at the solution. States are compared
  with islands switched off in both engines.
* height fields: a box (or mesh) on a height field without margin, MuJoCo's EPA stops early
  and reports a shallower contact than the exact one we compute
  (``tests/test_hfield_collision.py``); the terrain scene gives its box a 1e-9 margin, which
  sends MuJoCo down its exact path, and a tight ``ccd_tolerance``.
* gymnasium's ``point.xml``: its sphere rests exactly on the floor, ``dist = 0`` to the last
  bit, and whether it is a contact (``dist < margin = 0``) depends on the rounding of the
  pose (MuJoCo turns the hinge's quaternion into a matrix differently). States where the
  contact sets differ are skipped (and counted: at most half of them may be).
"""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest
from constraint_oracle import both, check, copy_state, forward_both, relerr
from test_mjcf import GYM

import rbdl_edu as rbd
from rbdl_edu.constraint.rows import ball_rotation, contact_force

FLOOR = '<geom name="floor" type="plane" size="5 5 .1" {}/>'


def scene(bodies, option="", floor=""):
    return f"<mujoco><option {option}/><worldbody>{FLOOR.format(floor)}{bodies}</worldbody></mujoco>"


BOX3 = "".join(f'<body pos="{0.02 * i} 0 {0.1 + 0.2 * i}"><freejoint/><geom type="box" size=".1 .1 .1"/></body>'
               for i in range(3))
#: contact scenes: a body (or three) on the floor
CONTACTS = {
    "sphere": scene('<body pos="0 0 .1"><freejoint/><geom size=".1"/></body>'),
    "box": scene('<body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .15 .1"/></body>'),
    "capsule": scene('<body pos="0 0 .05" euler="0 90 0"><freejoint/><geom type="capsule" size=".05 .2"/></body>'),
    "box_incline_elliptic": scene('<body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1" friction=".3"/></body>',
                                  'cone="elliptic"', 'euler="0 20 0"'),
    "box_incline_pyramidal": scene('<body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1" friction=".3"/></body>',
                                   "", 'euler="0 20 0"'),
    "capsule_condim4_elliptic": scene('<body pos="0 0 .05" euler="90 0 0"><freejoint/>'
                                      '<geom type="capsule" size=".05 .2" condim="4"/></body>', 'cone="elliptic"',
                                      'euler="0 15 0"'),
    "sphere_condim6": scene('<body pos="0 0 .1"><freejoint/><geom size=".1" condim="6"/></body>', "", 'euler="0 15 0"'),
    "sphere_condim6_elliptic": scene('<body pos="0 0 .1"><freejoint/><geom size=".1" condim="6"/></body>',
                                     'cone="elliptic" impratio="3"', 'euler="0 15 0"'),
    "sphere_condim1": scene('<body pos="0 0 .1"><freejoint/><geom size=".1" condim="1"/></body>', "",
                            'condim="1" euler="0 15 0"'),
    "stack": scene(BOX3),
    "stack_elliptic": scene(BOX3, 'cone="elliptic"'),
    # explicit pairs: their own condim, friction, solref, solreffriction, solimp, margin, gap;
    # priority and solmix between the geoms of a mixed contact
    "pairs": """<mujoco><option cone="elliptic"/><worldbody><geom name="floor" type="plane" size="5 5 .1"
        priority="1" friction=".7 .01 .001" solref=".03 1.2"/>
      <body pos="0 0 .1"><freejoint/><geom name="a" size=".1" margin=".01" gap=".005" solmix="3"/></body>
      <body pos=".5 0 .1"><freejoint/><geom name="b" type="box" size=".1 .1 .1" solref="-5000 -50"/></body>
      <body pos="1 0 .1"><freejoint/><geom name="c" size=".1" solmix=".5" solimp=".8 .9 .002 .3 3"/></body>
      <body pos="1.15 0 .3"><freejoint/><geom name="d" size=".1" solmix="2" condim="4" friction="1 .02 .01"/></body>
      </worldbody><contact>
      <pair geom1="floor" geom2="a" condim="6" friction=".5 .4 .02 .001 .002" solref=".04 .8" solreffriction=".1 2"
        solimp=".95 .99 .003 .4 4" margin=".02" gap=".01"/>
      <pair geom1="floor" geom2="b" condim="3" solreffriction="-3000 -30"/>
      </contact></mujoco>""",
}

#: joints and tendons with limits and friction loss, equality loops between bodies and sites
MECHANISM = """<mujoco><option cone="elliptic"/><worldbody>{floor}
  <body name="a" pos="0 0 .2" euler="10 20 30"><freejoint/><geom type="box" size=".1 .2 .05"/>
    <site name="sa" pos=".1 0 0" type="box" size=".3 .3 .3"/>
    <body name="b" pos=".3 0 0" euler="0 40 0"><joint name="h1" range="-30 30" frictionloss=".3"/>
      <geom type="capsule" size=".05 .1"/><site name="sb" pos="0 .1 0" size=".2"/>
      <body name="bb" pos=".3 0 0"><joint name="ball" type="ball" range="0 40" frictionloss=".1"/>
        <geom size=".05"/><site name="s3" pos=".1 0 0"/></body></body></body>
  <body name="c" pos="1 0 .15"><freejoint/><geom size=".1"/><site name="sc" pos="0 0 .1" type="capsule" size=".2 .2"/></body>
  <body name="e" pos="-1 0 .15"><joint name="sl" type="slide" axis="0 0 1" range="-.1 .1"/><joint name="h2" axis="1 0 0"/>
    <geom size=".1"/><site name="se" type="cylinder" size=".2 .3"/></body>
  </worldbody>
  <tendon><fixed name="t1" limited="true" range="-.2 .2" frictionloss=".2"><joint joint="h1" coef="1"/>
    <joint joint="h2" coef="-.5"/></fixed>
    <spatial name="t2" limited="true" range=".1 .5" frictionloss=".05" margin=".01"><site site="sa"/><site site="s3"/></spatial>
    <spatial name="t3" limited="true" range=".1 .5"><site site="sb"/><site site="se"/></spatial></tendon>
  <equality><connect body1="a" body2="c" anchor=".1 .2 .3"/><weld body1="a" body2="c" torquescale="2"/>
    <weld body1="bb" anchor=".1 0 0" relpose="1 2 3 1 0 0 0" solref=".05 .7"/><weld site1="sa" site2="sc"/>
    <connect site1="sb" site2="sc" solimp=".8 .95 .01"/><joint joint1="h1" joint2="h2" polycoef=".1 .5 .2 .1 .05"/>
    <joint joint1="sl" polycoef=".05"/><tendon tendon1="t3" tendon2="t2" polycoef="0 1 .3"/></equality>
  <sensor><touch site="sa"/><touch site="sb"/><touch site="sc"/><touch site="se"/><force site="sa"/>
    <torque site="sa"/><force site="sb"/><torque site="sb"/><force site="s3"/><torque site="s3"/>
    <force site="sc"/><torque site="sc"/><force site="se"/><torque site="se"/>
    <jointlimitpos joint="h1"/><jointlimitvel joint="ball"/><jointlimitfrc joint="sl"/><jointlimitfrc joint="ball"/>
    <tendonlimitpos tendon="t2"/><tendonlimitvel tendon="t3"/><tendonlimitfrc tendon="t1"/></sensor></mujoco>"""
#: a terrain: a sphere, a capsule and a box on a height field (tight ccd tolerance; the box with a
#: 1e-9 margin, see below)
TERRAIN = """<mujoco><option {} ccd_tolerance="1e-11" ccd_iterations="2000"/><asset>
  <hfield name="h" nrow="4" ncol="5" size="1 1 .2 .1"
    elevation="0 .2 .4 .1 0  .3 .5 .2 .1 0  .1 .2 .6 .3 .2  0 .1 .2 .1 0"/></asset><worldbody>
  <geom type="hfield" hfield="h"/><body pos=".1 .1 .35"><freejoint/><geom size=".1"/></body>
  <body pos="-.4 .2 .35"><freejoint/><geom type="capsule" size=".05 .1"/></body>
  <body pos=".4 -.3 .35"><freejoint/><geom type="box" size=".08 .08 .08" margin="1e-9"/></body>
  </worldbody></mujoco>"""
CONTACTS.update(terrain=TERRAIN.format(""), terrain_elliptic=TERRAIN.format('cone="elliptic"'))
SCENES = dict(CONTACTS, mechanism=MECHANISM.format(floor=FLOOR.format("")),
              mechanism_pyramidal=MECHANISM.format(floor=FLOOR.format("")).replace('cone="elliptic"', ""))


def states(xml, rng, nstep=60, every=20, qvel=0.5, random_qpos=0.0):
    """MuJoCo states along a trajectory of ``xml`` at its own settings (an initial random
    velocity; positions perturbed by ``random_qpos`` first)."""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    d.qpos[:] += random_qpos * rng.normal(size=m.nq)
    mujoco.mj_normalizeQuat(m, d.qpos)
    d.qvel[:] = qvel * rng.normal(size=m.nv)
    for k in range(nstep):
        mujoco.mj_step(m, d)
        if k % every == every - 1:
            yield d


@pytest.mark.parametrize("name", sorted(SCENES))
def test_scene_matches_mujoco(name):
    xml = SCENES[name]
    m, model = both(xml)
    rng = np.random.default_rng(len(name))
    compared = 0
    mechanism = "mechanism" in name
    for d in states(xml, rng, nstep=100, qvel=0.5 if mechanism else 0.2, random_qpos=0.2 if mechanism else 0.0):
        data = forward_both(m, d, model)
        check(m, d, model, data, what=f"{name} at t={d.time:.3f}")
        compared += data.nefc > 0
    assert compared >= 2, "the scene should have constraints"


@pytest.mark.parametrize("name", ["stack_elliptic", "mechanism", "pairs", "box_incline_pyramidal"])
def test_states_without_islands(name):
    """With islands off in both engines, ``efc_state`` too (and with CG, the same optimum)."""
    for solver in ("Newton", "CG"):
        m, model = both(SCENES[name], island=False, solver=solver)
        for d in states(SCENES[name], np.random.default_rng(7), nstep=40, random_qpos=0.2 if "mech" in name else 0):
            data = forward_both(m, d, model)
            check(m, d, model, data, states=solver == "Newton", what=f"{name} {solver}")


@pytest.mark.parametrize("path", GYM, ids=lambda p: p.name)
def test_gymnasium_assets(path):
    """Every gymnasium asset at states along a MuJoCo trajectory with random controls."""
    m_run = mujoco.MjModel.from_xml_path(str(path))
    m, model = both(path)
    rng = np.random.default_rng(len(path.name))
    d_run = mujoco.MjData(m_run)
    compared = skipped = 0
    for k in range(150):
        d_run.ctrl[:] = rng.uniform(-1, 1, m_run.nu)
        mujoco.mj_step(m_run, d_run)
        if k % 15 != 14:
            continue
        d = mujoco.MjData(m)
        d.qpos[:], d.qvel[:], d.act[:], d.ctrl[:] = d_run.qpos, d_run.qvel, d_run.act, d_run.ctrl
        d.qacc_warmstart[:] = d_run.qacc_warmstart
        data = forward_both(m, d, model)
        if path.name == "point.xml" and (data.ncon, data.nefc) != (d.ncon, d.nefc):
            skipped += 1                           # the sphere's dist is 0 to the last bit
            continue
        check(m, d, model, data, what=f"{path.name} step {k}")
        compared += 1
    assert skipped <= compared


def test_sensors_and_body_forces_match_mujoco():
    """``touch`` (contacts in the site's zone: box, sphere, capsule, cylinder sites), ``force``
    and ``torque`` (the joint wrench with contacts, connect/weld forces and tendon limits,
    friction loss and equalities), the joint and tendon limit sensors, ``cfrc_ext`` and
    ``cfrc_int``."""
    xml = MECHANISM.format(floor=FLOOR.format(""))
    m, model = both(xml)
    rng = np.random.default_rng(3)
    touched = 0
    for d in states(xml, rng, nstep=200, every=10, random_qpos=0.2):
        data = forward_both(m, d, model)
        touched += np.any(data.sensordata[:4] > 0)
        mujoco.mj_rnePostConstraint(m, d)
        scale = max(1.0, np.abs(d.cfrc_int).max())
        for name in ("sensordata", "cfrc_ext", "cfrc_int"):
            assert np.abs(getattr(data, name) - getattr(d, name)).max() <= 1e-6 * scale, name
    assert touched >= 3, "touch sensors should feel contacts"


def test_inverse_dynamics():
    """``inverse`` equals ``mj_inverse`` at the same ``qacc``, and ``inverse(forward(x))``
    gives back the applied forces (to the solver's tolerance: 1e-12 here)."""
    xml = MECHANISM.format(floor=FLOOR.format(""))
    m, model = both(xml)
    rng = np.random.default_rng(4)
    for d in states(xml, rng, nstep=60, every=20, random_qpos=0.2):
        d.qfrc_applied[:] = rng.normal(size=m.nv)
        d.xfrc_applied[1:] = rng.normal(size=(m.nbody - 1, 6))
        data = forward_both(m, d, model)
        # what forward was given: qfrc_applied + qfrc_actuator + J^T xfrc_applied
        given = data.qfrc_smooth - data.qfrc_passive + data.qfrc_bias
        rbd.inverse(model, data)
        assert relerr(data.qfrc_inverse, given) <= 1e-7
        d.qacc[:] = data.qacc
        mujoco.mj_inverse(m, d)
        assert relerr(data.qfrc_inverse, d.qfrc_inverse) <= 1e-8


def test_contact_forces_lie_in_their_cones():
    """Pyramid edges push (>= 0); an elliptic contact's friction is inside its ellipse,
    :math:`\\sum_j (f_j/\\mu_j)^2 \\le f_n^2`; the normal force is never a pull."""
    for name in ("stack", "stack_elliptic", "sphere_condim6_elliptic", "capsule_condim4_elliptic", "pairs"):
        m, model = both(SCENES[name])
        for d in states(SCENES[name], np.random.default_rng(5), nstep=100, every=10, qvel=2.0):
            data = forward_both(m, d, model)
            for k, con in enumerate(data.contact):
                if con.efc_address < 0:
                    continue
                f = contact_force(model, data, k)
                assert f[0] >= -1e-9
                if model.opt.cone == "elliptic":
                    friction = f[1:con.dim] / con.friction[:con.dim - 1]
                    assert friction @ friction <= f[0] ** 2 * (1 + 1e-9) + 1e-12, name
                else:
                    n = 2 * (con.dim - 1)
                    assert np.all(data.efc_force[con.efc_address:con.efc_address + n] >= 0), name


def test_flags_switch_rows_off():
    """``<flag>`` disables as MuJoCo does: each kind of row, all of them, the warm start, and
    the time-constant floor ``refsafe`` (rows and the optimum compared with MuJoCo's)."""
    xml = MECHANISM.format(floor=FLOOR.format('solref=".001 1"'))
    for flag in ("contact", "limit", "equality", "frictionloss", "constraint", "warmstart", "refsafe"):
        flagged = xml.replace('<option cone="elliptic"/>', f'<option cone="elliptic"><flag {flag}="disable"/></option>')
        m, model = both(flagged)
        for d in states(flagged, np.random.default_rng(6), nstep=20, every=10, random_qpos=0.2):
            data = forward_both(m, d, model)
            check(m, d, model, data, what=flag)
        kinds = set(data.efc_type.tolist())
        assert not kinds & {"contact": {5, 6, 7}, "limit": {3, 4}, "equality": {0}, "frictionloss": {1, 2},
                            "constraint": set(range(8))}.get(flag, set()), flag


def test_override_flag():
    """``<flag override="enable"/>``: the option's ``o_solref``, ``o_solimp``, ``o_friction``
    and ``o_margin`` replace every contact's."""
    xml = CONTACTS["pairs"].replace('<option cone="elliptic"/>', '<option cone="elliptic" o_margin=".02" '
                                    'o_solref=".05 .5" o_solimp=".7 .8 .01 .5 2" o_friction=".2 .2 .01 .001 .001">'
                                    '<flag override="enable"/></option>')
    m, model = both(xml)
    for d in states(xml, np.random.default_rng(8), nstep=40, every=20):
        check(m, d, model, forward_both(m, d, model), what="override")


def test_resting_sphere_penetration_is_the_predicted_one():
    """A sphere at rest on a frictionless contact sinks until the impedance's spring holds its
    weight: :func:`rbdl_edu.constraint.impedance.resting_penetration` (``solref``, ``solimp``, ``g``)."""
    from rbdl_edu.constraint.impedance import resting_penetration
    for solref, solimp in (("0.02 1", "0.9 0.95 0.001 0.5 2"), ("0.05 1", "0.5 0.99 0.01 0.3 3")):
        soft = f'condim="1" solref="{solref}" solimp="{solimp}"'       # both geoms: nothing to mix
        model = rbd.load_model(scene(f'<body pos="0 0 .1"><freejoint/><geom size=".1" {soft}/></body>', floor=soft))
        data = rbd.Data(model)
        for _ in range(600):
            rbd.step(model, data)
        depth = 0.1 - data.qpos[2]
        predicted = resting_penetration([float(x) for x in solref.split()], [float(x) for x in solimp.split()])
        assert depth == pytest.approx(predicted, rel=1e-6), (solref, solimp)
        assert abs(data.qvel).max() < 1e-9


def test_ball_joint_rotation():
    """The ball limit's angle and axis (MuJoCo's ``mju_quat2Vel``): more than π turns the other way."""
    axis, angle = ball_rotation(np.array([np.cos(2.0), np.sin(2.0), 0, 0]))       # 4 rad about x
    assert angle == pytest.approx(2 * np.pi - 4.0) and np.allclose(axis, [-1, 0, 0])
    axis, angle = ball_rotation(np.array([1.0, 0, 0, 0]))
    assert angle == 0 and np.allclose(axis, [1, 0, 0])


def test_bad_softness_is_refused():
    """A solref mixing the two forms names the object (MuJoCo warns and uses the default)."""
    model = rbd.load_model(scene('<body pos="0 0 .09"><freejoint/><geom size=".1" solref=".02 -1"/></body>',
                                 floor='solref=".02 -1"'))
    with pytest.raises(ValueError, match="contact of geoms 0 and 1: solref .* mixes"):
        rbd.forward(model, rbd.Data(model))


def test_copy_state_is_complete():
    """The oracle's state copy carries what forward reads (a guard for the tests above)."""
    m, model = both(SCENES["sphere"])
    d = mujoco.MjData(m)
    d.qpos[2] = 0.05
    mujoco.mj_step(m, d)
    data = rbd.Data(model)
    copy_state(d, data)
    assert np.array_equal(data.qacc_warmstart, d.qacc_warmstart) and data.time == d.time
    assert dataclasses.is_dataclass(model.opt)


def test_limit_sensors_need_a_limit():
    """As MuJoCo's compiler: a ``jointlimit*``/``tendonlimit*`` sensor on an unlimited joint or
    tendon is an error."""
    xml = """<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
      <tendon><fixed name="t"><joint joint="j" coef="1"/></fixed></tendon><sensor>{}</sensor></mujoco>"""
    with pytest.raises(rbd.ModelError, match="jointlimitfrc> sensor needs a limited joint"):
        rbd.load_model(xml.format('<jointlimitfrc joint="j"/>'))
    with pytest.raises(rbd.ModelError, match="tendonlimitpos> sensor needs a limited tendon"):
        rbd.load_model(xml.format('<tendonlimitpos tendon="t"/>'))


@pytest.mark.parametrize("integrator", ["Euler", "implicitfast"])
def test_discrete_inverse_dynamics(integrator):
    """``<flag invdiscrete="enable"/>``: ``qacc`` is read as the integrator's (implicit joint
    damping; implicitfast's velocity derivatives, a free body's own block) as MuJoCo does."""
    xml = f"""<mujoco><option integrator="{integrator}"><flag invdiscrete="enable"/></option><worldbody>
      <geom type="plane" size="5 5 .1"/><body pos="0 0 .12"><joint name="s" type="slide" axis="0 0 1" damping="3"/>
      <joint axis="0 1 0" damping="2" range="-30 30"/><geom type="box" size=".2 .1 .1"/>
      <body pos=".3 0 0"><joint axis="0 1 0" damping="1" frictionloss=".5"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".05"/></body></body>
      <body pos="1 0 .1"><freejoint/><geom size=".1"/></body></worldbody>
      <actuator><motor joint="s"/><velocity joint="s" kv="3"/></actuator></mujoco>"""
    m, model = both(xml)
    rng = np.random.default_rng(9)
    for d in states(xml, rng, nstep=60, every=20):
        data = forward_both(m, d, model)
        assert d.ncon > 0
        d.qacc[:] = data.qacc = rng.normal(size=m.nv)
        mujoco.mj_inverse(m, d)
        rbd.inverse(model, data)
        assert relerr(data.qfrc_inverse, d.qfrc_inverse) <= 1e-9
