"""Sleeping (``<flag sleep="enable"/>``) against MuJoCo 4.0: which trees fall asleep and at
which step, the trajectory while awake and after, waking by contact (a ball on a sleeping
box, a mocap body), by an equality, by the user's pokes, the policies, the motor that keeps
its tree awake, and the sensors that hold while asleep (rbdl_edu/simulation/sleep.py)."""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np
import pytest

import rbdl_edu as rbd
from rbdl_edu.model import enums
from rbdl_edu.simulation import sleep
from rbdl_edu.simulation.sleep import dof_length, tree_sleep_policy

PILE = '''<mujoco><option integrator="{integrator}"><flag sleep="enable"/></option><worldbody>
  <geom type="plane" size="5 5 .1"/>
  <body pos="0 0 .1" {policy}><freejoint/><geom type="box" size=".1 .1 .1"/>
    <site name="s" type="box" size=".1 .1 .1"/></body>
  <body pos=".03 0 .32"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
  <body pos="-.02 .01 .54" euler="0 0 20"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
  <body pos="1 0 .3" euler="10 20 0"><freejoint/><geom type="box" size=".1 .1 .05"/></body>
  <body pos="2 0 .5"><joint type="hinge" axis="0 1 0" range="-30 30" damping=".1"/>
    <geom type="capsule" fromto="0 0 0 .3 0 0" size=".05"/></body>
  <body pos="3 0 .5"><joint name="m" type="hinge" axis="0 1 0" damping="1"/>
    <geom type="capsule" fromto="0 0 0 .3 0 0" size=".05"/></body>
  {extra}
</worldbody><actuator><position joint="m" kp="100"/></actuator>
<sensor><accelerometer site="s"/><framepos objtype="site" objname="s"/><velocimeter site="s"/></sensor></mujoco>'''
BALL = '<body pos=".05 .02 2"><freejoint/><geom type="sphere" size=".05" density="3000"/></body>'


def pile(integrator="Euler", policy="", extra=""):
    return PILE.format(integrator=integrator, policy=policy, extra=extra)


def simulate(xml, nstep, poke=None):
    """Step MuJoCo and rbdl_edu side by side; assert the same sleep counters after every step,
    and the same trajectory, accelerations and sensors. Returns MuJoCo's counters."""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    counters = []
    for k in range(nstep):
        if poke:
            poke(k, d)
            poke(k, data)
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        assert np.array_equal(data.tree_asleep, d.tree_asleep), (k + 1, data.tree_asleep, d.tree_asleep)
        assert data.ncon == d.ncon, (k + 1, data.ncon, d.ncon)
        assert np.abs(data.qpos - d.qpos).max() <= 1e-9 * max(1.0, np.abs(d.qpos).max()), k + 1
        for name in ("qvel", "qacc", "qacc_smooth", "sensordata"):
            np.testing.assert_allclose(getattr(data, name), getattr(d, name), rtol=1e-6, atol=1e-6,
                                       err_msg=f"{name} after step {k + 1}")
        counters.append(d.tree_asleep.copy())
    return np.array(counters)


def fell_asleep(counters):
    """The step at which each tree first fell asleep (0: never)."""
    asleep = counters >= 0
    return np.where(asleep.any(0), asleep.argmax(0) + 1, 0)


def test_pile_falls_asleep_as_mujoco():
    """A stack of three boxes and a tilted box settle and sleep at MuJoCo's steps, the stack
    as one island; the hinge resting on its limit sleeps too; the motor's tree stays awake;
    asleep, qvel reads 0, qacc the smooth acceleration at rest, and the accelerometer holds."""
    counters = simulate(pile(), 300)
    steps = fell_asleep(counters)
    assert steps[:3].min() > 0 and len(set(steps[:3])) == 1          # the stack sleeps together
    assert steps[3] > 0 and steps[4] > 0 and steps[5] == 0           # the motor's tree never does
    assert np.all(counters[-1][:5] >= 0)


def test_integrators():
    """implicitfast's sleep, as MuJoCo's; RK4 with sleep is refused by name."""
    simulate(pile("implicitfast"), 160)
    model = rbd.load_model(pile("RK4"))
    with pytest.raises(NotImplementedError, match="sleep with the RK4 integrator"):
        rbd.step(model, rbd.Data(model))


def test_ball_wakes_the_box():
    """A ball dropped on the sleeping stack wakes its whole island (the three boxes) with the
    ball's counter, at MuJoCo's step."""
    counters = simulate(pile(extra=BALL), 280)
    asleep = counters[:, 0] >= 0
    woke = np.flatnonzero(asleep[:-1] & ~asleep[1:]) + 1      # the first step it is awake again
    assert len(woke) == 1
    after = counters[woke[0]]
    # the stack took the moving ball's counter, -11, then counted its step at rest: -10
    assert after[6] == -11 and np.all(after[:3] == -10)


def test_pokes_wake():
    """An applied force, a velocity or a moved pose given by the user wakes a sleeper."""
    def poke(k, d):                               # all asleep but the motor's tree from step 221
        if k == 230:
            d.xfrc_applied[4, 0] = 5.0            # the tilted box (tree 3)
        if k == 240:
            d.xfrc_applied[4, 0] = 0.0
        if k == 250:
            d.qvel[0] = 0.5                       # the bottom box of the stack (trees 0-2)
        if k == 270:
            d.qpos[28] += 0.01                    # the hinge on its limit (tree 4)
    counters = simulate(pile(), 290, poke)
    assert counters[229, 3] >= 0 and counters[230, 3] < 0
    assert np.all(counters[249, :3] >= 0) and np.all(counters[250, :3] < 0)
    assert counters[269, 4] >= 0 and counters[270, 4] < 0


def test_mocap_and_equality_wake():
    """A mocap body pushed into a sleeping box wakes it; an equality switched on between two
    sleeping trees of different islands wakes both (MuJoCo's mj_wakeEquality)."""
    xml = '''<mujoco><option><flag sleep="enable"/></option><worldbody><geom type="plane" size="5 5 .1"/>
      <body name="mc" mocap="true" pos="-1 0 .1"><geom type="box" size=".05 .05 .05"/></body>
      <body name="a" pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body name="b" pos="1 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body name="c" pos="2 0 .5"><joint name="j1" type="hinge" axis="0 1 0" range="-10 10"/>
        <geom type="capsule" fromto="0 0 0 .3 0 0" size=".05"/></body></worldbody>
      <equality><connect body1="b" body2="c" anchor="1.5 0 .3" active="false"/></equality></mujoco>'''

    def poke(k, d):
        if 150 <= k < 400:
            d.mocap_pos[0, 0] = -1 + (k - 150) * 0.004
        if k == 450:
            d.eq_active[0] = 1
    counters = simulate(xml, 470, poke)
    assert counters[300, 0] >= 0 and np.any(counters[300:400, 0] < 0)      # the mocap body woke box a
    assert np.all(counters[449, 1:] >= 0) and np.all(counters[450, 1:] < 0)   # the equality woke b and c


def test_policies_and_lengths():
    """The trees' policies (never, allowed, auto: never for the actuated tree) and the dofs'
    length scales are MuJoCo's; a policy on a body that roots no tree, sleep="init" and an
    actuated tree allowed to sleep are refused by name."""
    for policy in ('sleep="never"', 'sleep="allowed"', ""):
        xml = pile(policy=policy)
        m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
        np.testing.assert_array_equal(tree_sleep_policy(model), m.tree_sleep_policy)
        np.testing.assert_allclose(dof_length(model), m.dof_length, rtol=1e-12)
    simulate(pile(policy='sleep="never"'), 140)
    with pytest.raises(rbd.ModelError, match="only allowed on a movable root body"):
        rbd.load_model('<mujoco><worldbody><body sleep="never"><geom size=".1"/></body></worldbody></mujoco>')
    model = rbd.load_model('''<mujoco><option><flag sleep="enable"/></option><worldbody>
      <geom type="plane" size="5 5 .1"/><body pos="0 0 .1" sleep="init"><freejoint/><geom type="box" size=".1 .1 .1"/>
      </body><body pos="0 0 .3"><freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody></mujoco>''')
    with pytest.raises(ValueError, match='sleep="init" cannot sleep: body 1'):      # in an island with body 2
        rbd.step(model, rbd.Data(model))
    model = rbd.load_model(pile().replace('<joint name="m"', '<joint name="m"').replace(
        '<body pos="3 0 .5">', '<body pos="3 0 .5" sleep="allowed">'))
    with pytest.raises(NotImplementedError, match="actuator 0 drives a tree"):
        rbd.step(model, rbd.Data(model))


def test_init_starts_asleep():
    """``sleep="init"``: the stack starts asleep (its qacc and qacc_smooth read zero, as
    MuJoCo's), the other trees count a step at rest at reset; a box dropped on it wakes it; a
    keyframe moves the sleepers put to sleep at qpos0, which wakes them (as MuJoCo)."""
    init = 'sleep="init"'
    xml = f'''<mujoco><option><flag sleep="enable"/></option><worldbody><geom type="plane" size="5 5 .1"/>
      <body pos="0 0 .1" {init}><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body pos="0 0 .3" {init}><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body pos="1 0 .1" {init}><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body pos=".02 0 .8" euler="10 20 30"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body pos="2 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody>
      <keyframe><key qpos="0 0 .1 1 0 0 0  0 0 .3 1 0 0 0  1 0 .12 1 0 0 0  .02 0 .8 1 0 0 0  2 0 .1 1 0 0 0"/>
      </keyframe></mujoco>'''
    counters = simulate(xml, 200)
    # the stack a cycle 0 -> 1 -> 0, box 2 alone; the others at rest at qpos0 count the reset and a step
    assert np.array_equal(counters[0], [1, 0, 2, -9, -9])
    assert np.any(counters[:, 0] < 0)                                    # the dropped box woke the stack
    m, model = mujoco.MjModel.from_xml_string(xml), rbd.load_model(xml)
    d, data = mujoco.MjData(m), rbd.Data(model)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    rbd.reset(model, data, key=0)
    for _ in range(3):
        mujoco.mj_step(m, d)
        rbd.step(model, data)
        assert np.array_equal(data.tree_asleep, d.tree_asleep) and np.allclose(data.qpos, d.qpos, atol=1e-12)


def test_disabled_wakes_everything():
    """Switching sleep off wakes every tree at the next step, as MuJoCo."""
    model = rbd.load_model(pile())
    data = rbd.Data(model)
    rbd.step(model, data, 150)
    assert np.any(data.tree_asleep >= 0)
    rbd.step(model.replace(opt=dataclasses.replace(model.opt, enableflags=frozenset())), data)
    assert np.all(data.tree_asleep < 0)


def test_numbers_are_mujocos():
    """The policies, the sleep states and the steps at rest are MuJoCo's numbers."""
    for name in ("AUTO", "AUTO_NEVER", "AUTO_ALLOWED", "NEVER", "ALLOWED", "INIT"):
        assert getattr(enums, "SLEEP_" + name) == getattr(mujoco.mjtSleepPolicy, "mjSLEEP_" + name)
    assert (sleep.STATIC, sleep.ASLEEP, sleep.ALIVE) == tuple(int(s) for s in (
        mujoco.mjtSleepState.mjS_STATIC, mujoco.mjtSleepState.mjS_ASLEEP, mujoco.mjtSleepState.mjS_AWAKE))
    assert enums.MINAWAKE == mujoco.mjMINAWAKE and enums.AWAKE == mujoco.MjData(
        mujoco.MjModel.from_xml_string(pile())).tree_asleep[0]


def test_trees_are_mujocos():
    """A tree per dof without a parent dof, as MuJoCo's ``body_treeid``: a hinged body under a
    mocap body starts a tree of its own, and sleeps as MuJoCo's does."""
    from rbdl_edu.constraint.island import body_treeid
    xml = '''<mujoco><option><flag sleep="enable"/></option><worldbody><geom type="plane" size="5 5 .1"/>
      <body mocap="true" pos="0 0 1"><geom size=".05"/>
        <body><joint type="hinge" axis="0 1 0" damping="2"/><geom type="capsule" fromto="0 0 0 0 0 -.5" size=".05"/>
          <body><joint type="slide" axis="1 0 0" range="-.1 .1"/><geom size=".06" pos="0 0 -.5"/></body></body></body>
      <body pos="1 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/><body><geom size=".1" pos="0 0 .2"/></body></body>
    </worldbody></mujoco>'''
    m = mujoco.MjModel.from_xml_string(xml)
    np.testing.assert_array_equal(body_treeid(rbd.load_model(xml)), m.body_treeid)
    counters = simulate(xml, 120)
    assert np.all(counters[-1] >= 0)


def test_tendon_wakes_across_trees():
    """A box asleep from the start hangs by a limited tendon from a falling box: the tendon
    reaching its limit wakes it (MuJoCo's mj_wakeTendon); a tendon spring across trees keeps
    them awake (AUTO_NEVER), and on a tree allowed to sleep is refused, as MuJoCo's compiler."""
    xml = '''<mujoco><option><flag sleep="enable"/></option><worldbody><geom type="plane" size="2 2 .01"/>
      <body pos=".3 0 1" sleep="init"><freejoint/><geom type="box" size=".1 .1 .1"/><site name="a" pos="-.1 -.1 -.1"/></body>
      <body pos="-.3 0 1" euler="10 20 30"><freejoint/><geom type="box" size=".1 .1 .1"/><site name="b" pos=".1 -.1 .1"/></body>
      <body pos="1 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody>
      <tendon><spatial range="0 .6" {extra}><site site="a"/><site site="b"/></spatial></tendon></mujoco>'''
    counters = simulate(xml.format(extra=""), 200)
    assert counters[0, 0] >= 0 and np.any(counters[:, 0] < 0)              # asleep, then pulled awake
    springy = xml.format(extra='stiffness="10"').replace('sleep="init"', "")
    m, model = mujoco.MjModel.from_xml_string(springy), rbd.load_model(springy)
    np.testing.assert_array_equal(tree_sleep_policy(model), m.tree_sleep_policy)
    assert list(m.tree_sleep_policy) == [enums.SLEEP_AUTO_NEVER, enums.SLEEP_AUTO_NEVER, enums.SLEEP_AUTO_ALLOWED]
    model = rbd.load_model(xml.format(extra='stiffness="10"'))
    with pytest.raises(ValueError, match="tree 0 is joined by tendon 0"):
        rbd.step(model, rbd.Data(model))
