"""Transmissions, activation dynamics, gains, biases and clamping against ``mujoco==4.0.0``.

At states along MuJoCo trajectories with random controls, some beyond ``ctrlrange``
(``tests/actuation_oracle.py``): ``actuator_length``, ``actuator_moment``,
``actuator_velocity``, ``act_dot``, ``actuator_force`` and ``qfrc_actuator`` equal MuJoCo's
to 1e-8 on every gymnasium asset, every model in ``models/``, and a scene written to use
every transmission (joint on hinge/slide/ball/free, jointinparent, tendon, site with and
without refsite, slidercrank), dyntype, gaintype, biastype and shortcut, the clamping rules
(ctrlrange with ctrllimited and autolimits, forcerange, actrange, a tendon's and a joint's
actuatorfrcrange), actearly, and gravity compensation as actuation -- with the flags
clampctrl, actuation and gravity switched off too. ``next_act`` equals what ``mj_step``
does to ``act``; ``actuator_length0`` and ``actuator_acc0`` equal MuJoCo's compiled values.
"""
from __future__ import annotations

import copy

import mujoco
import numpy as np
import pytest
from actuation_oracle import compare, load_both, mujoco_states, ours_at
from mujoco_oracle import compare_fields
from test_mjcf import GYM, MODELS

import rbdl_edu as rbd
from rbdl_edu.smooth.actuation import actuation, next_act
from rbdl_edu.model.enums import (DYN_FILTER, DYN_FILTEREXACT, DYN_INTEGRATOR, DYN_NONE, TRN_JOINT,
                            TRN_JOINTINPARENT, TRN_SITE, TRN_SLIDERCRANK, TRN_TENDON)
from rbdl_edu.io import ModelError

FIELDS = ("actuator_length", "actuator_moment", "actuator_velocity", "act_dot", "actuator_force",
          "qfrc_actuator")

SCENE = """<mujoco model="every actuator"><compiler autolimits="true"/>
  <option timestep="0.004"/>{flags}
  <worldbody>
    <site name="anchor" pos="0 0 1.3"/>
    <body name="cart" pos="0 0 0.5"><joint name="slide" type="slide" axis="1 0 0" actuatorfrcrange="-3 3"/>
      <geom type="box" size=".2 .1 .05"/><site name="cart_site" pos="0.1 0 0.05" euler="10 20 30"/>
      <site name="slider" pos="0.3 0 0.2" zaxis="1 0 0.2"/>
      <body name="arm" pos="0 0 0.1"><joint name="hinge" axis="0 1 0" actuatorgravcomp="true"/>
        <geom type="capsule" fromto="0 0 0 0 0 0.5" size=".04"/>
        <site name="arm_tip" pos="0 0.02 0.5" euler="0 0 30"/><site name="crank" pos="0.05 0 0.3"/>
        <body name="head" pos="0 0 0.5" gravcomp="0.7"><joint name="ball" type="ball" actuatorfrcrange="-1 1"/>
          <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
          <site name="head_tip" pos="0.3 0 0" euler="0 30 0"/></body></body></body>
    <body name="float" pos="1 0 1" gravcomp="0.3"><freejoint name="free"/><geom type="box" size=".1 .1 .1"/>
      <site name="float_site" pos="0.1 0 0" euler="5 -10 15"/></body>
  </worldbody>
  <tendon>
    <fixed name="couple" actuatorfrcrange="-0.5 0.8" armature="0.05">
      <joint joint="slide" coef="1"/><joint joint="hinge" coef="-0.5"/></fixed>
    <spatial name="rope"><site site="anchor"/><site site="head_tip"/><pulley divisor="2"/>
      <site site="cart_site"/><site site="float_site"/></spatial>
  </tendon>
  <actuator>
    <motor name="motor" joint="slide" ctrlrange="-1 1" gear="2"/>
    <position name="pd" joint="hinge" kp="10" kv="1" ctrlrange="-1 1" forcerange="-5 5"/>
    <position name="critical" joint="hinge" kp="5" dampratio="1"/>
    <position name="lagged" joint="slide" kp="20" timeconst="0.05" ctrlrange="-0.5 0.5"/>
    <velocity name="vel" joint="hinge" kv="2"/>
    <intvelocity name="intvel" joint="hinge" kp="3" actrange="-1 1"/>
    <intvelocity name="intvel_critical" tendon="couple" kp="2" dampratio="0.7" actrange="-0.3 0.3"/>
    <damper name="damper" joint="slide" kv="0.5" ctrlrange="0 1"/>
    <general name="ball_filter" joint="ball" gear="0.3 -0.2 0.5" dyntype="filter" dynprm="0.1"
      gaintype="affine" gainprm="1 0.5 0.1" biastype="affine" biasprm="0.1 -0.2 -0.3" actrange="-0.1 0.1"/>
    <general name="ball_parent" jointinparent="ball" gear="0.1 0.2 0.3" ctrllimited="false"/>
    <motor name="free" joint="free" gear="1 2 3 0.1 0.2 0.3"/>
    <motor name="free_parent" jointinparent="free" gear="1 0 0 0.3 0.2 0.1" ctrlrange="-2 2"/>
    <motor name="tendon_a" tendon="couple" gear="2" ctrlrange="-1 1"/>
    <general name="tendon_b" tendon="couple" dyntype="integrator" actrange="-0.01 0.02" actearly="true"/>
    <general name="rope" tendon="rope" dyntype="filterexact" dynprm="0.02" gainprm="3" forcerange="-1 2"
      actearly="true"/>
    <motor name="site" site="head_tip" gear="1 2 3 0.4 0.5 0.6"/>
    <motor name="site_ref" site="float_site" refsite="cart_site" gear="1 0 0.5 0 0.3 0.2"/>
    <motor name="site_shared" site="head_tip" refsite="arm_tip" gear="0.5 0.5 0 0.2 0 0.4" ctrlrange="-1 1"/>
    <motor name="site_turn" site="head_tip" refsite="arm_tip" gear="0 0 0 0.2 -0.1 0.4"/>
    <general name="crank" cranksite="crank" slidersite="slider" cranklength="0.3" gear="1.5"
      dyntype="filter" dynprm="0.05" actearly="true" biastype="affine" biasprm="0 -1 -0.2"/>
  </actuator>
</mujoco>"""

FLAGS = {
    "all_on": "",
    "clampctrl_off": '<option><flag clampctrl="disable"/></option>',
    "actuation_off": '<option><flag actuation="disable"/></option>',
    "gravity_off": '<option><flag gravity="disable"/></option>',
}


def scene(flags="all_on"):
    return SCENE.format(flags=FLAGS[flags])


def test_scene_uses_every_kind():
    """The scene really has every transmission, dynamics type, shortcut and clamp."""
    model = rbd.load_model(scene())
    assert set(model.actuator_trntype) == {TRN_JOINT, TRN_JOINTINPARENT, TRN_TENDON, TRN_SITE, TRN_SLIDERCRANK}
    assert set(model.actuator_dyntype) == {DYN_NONE, DYN_INTEGRATOR, DYN_FILTER, DYN_FILTEREXACT}
    assert set(model.actuator_gaintype) == {0, 1} and set(model.actuator_biastype) == {0, 1}
    for flag in ("actuator_ctrllimited", "actuator_forcelimited", "actuator_actlimited", "actuator_actearly",
                 "jnt_actfrclimited", "jnt_actgravcomp", "tendon_actfrclimited"):
        values = set(getattr(model, flag).tolist())
        assert values == {False, True}, flag
    assert model.body_gravcomp.any()


@pytest.mark.parametrize("flags", sorted(FLAGS))
def test_every_actuator_matches_mujoco(flags):
    """Every field of the transmission and actuation stages, at states along a trajectory."""
    model, m = load_both(scene(flags))
    for d in mujoco_states(m, nstate=4, nskip=12, seed=1):
        fields = FIELDS if flags != "actuation_off" else ("actuator_velocity", "actuator_force", "qfrc_actuator")
        compare(model, m, d, fields)


def test_clamps_are_active_along_the_trajectory():
    """The clamping rules are exercised, not just present: at the compared states some
    control, force, activation, tendon total and joint total is at its limit."""
    model, m = load_both(scene())
    lo_hi = dict(ctrl=model.actuator_ctrlrange, force=model.actuator_forcerange)
    hits = dict(ctrl=0, force=0, act=0, tendon=0, joint=0)
    couple = np.flatnonzero((model.actuator_trntype == TRN_TENDON)
                            & (model.actuator_trnid[:, 0] == model.id("tendon", "couple")))
    slide = model.jnt_dofadr[model.id("joint", "slide")]
    for d in mujoco_states(m, nstate=8, nskip=12, seed=1):
        data = ours_at(model, d)
        outside = (d.ctrl < lo_hi["ctrl"][:, 0]) | (d.ctrl > lo_hi["ctrl"][:, 1])
        hits["ctrl"] += int(np.any(model.actuator_ctrllimited & outside))
        f = data.actuator_force
        hits["force"] += int(np.any(model.actuator_forcelimited & np.any(f[:, None] == lo_hi["force"], axis=1)))
        hits["act"] += int(np.any(np.isin(d.act, model.actuator_actrange[model.actuator_actlimited])))
        total = f[couple].sum()                      # the couple tendon's actuators, scaled together
        hits["tendon"] += int(np.any(np.isclose(total, model.tendon_actfrcrange[model.id("tendon", "couple")])))
        hits["joint"] += int(abs(data.qfrc_actuator[slide]) == 3)
    assert min(hits.values()) > 0, hits


def test_slider_crank_beyond_reach_matches_mujoco():
    """When the rod cannot reach the slider's axis (the square root's argument is
    negative) MuJoCo takes the length ``a . v``; so do we."""
    model, m = load_both(scene())
    d = mujoco.MjData(m)
    d.qpos[m.jnt_qposadr[model.id("joint", "hinge")]] = 2.5          # crank far from the slider axis
    mujoco.mj_forward(m, d)
    i = model.id("actuator", "crank")
    crank, slider = model.actuator_trnid[i]
    v = d.site_xpos[crank] - d.site_xpos[slider]
    a = d.site_xmat[slider].reshape(3, 3)[:, 2]
    assert (a @ v) ** 2 + model.actuator_cranklength[i] ** 2 - v @ v <= 0, "not beyond reach"
    compare(model, m, d, ("actuator_length", "actuator_moment"))


@pytest.mark.parametrize("path", MODELS + GYM, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_assets_match_mujoco(path):
    """Every model file: motors with ctrlrange and gear (gymnasium's ant, humanoid, walker,
    ..., our arm7's ball shoulder); no actuator, no force on the others."""
    model, m = load_both(path)
    for d in mujoco_states(m, nstate=3, nskip=10, seed=len(path.name)):
        compare(model, m, d, FIELDS)


def test_asset_list_is_complete():
    """The oracle is there: most gymnasium assets have actuators."""
    assert sum(b"<actuator" in p.read_bytes() for p in GYM) >= 10


@pytest.mark.parametrize("flags", ["all_on", "actuation_off"])
def test_next_act_is_what_mj_step_does(flags):
    """``next_act`` (Euler for integrators and filters, exact for filterexact, clamped to
    actrange) equals ``act`` after MuJoCo's Euler step."""
    model, m = load_both(scene(flags))
    for d in mujoco_states(m, nstate=4, nskip=12, seed=2):
        data = ours_at(model, d)
        after = copy.copy(d)
        mujoco.mj_step(m, after)
        np.testing.assert_allclose(next_act(model, data), after.act, rtol=0, atol=1e-12)


def test_compiled_scene_matches_mujoco():
    """Every compiled field of the scene equals MuJoCo's: the ctrllimited/autolimits rules,
    ``actuator_length0``, ``actuator_acc0`` (``|M^-1 moment|`` at qpos0), the damping a
    ``dampratio`` becomes (``2 sqrt(kp m)``, ``m = (J M^-1 J^T)^-1``), and no actuator force
    limit on a ball joint even with a range (MuJoCo ignores it)."""
    model, m = load_both(scene())
    compare_fields(model, m)
    for name in ("critical", "intvel_critical"):
        assert model.actuator_biasprm[model.id("actuator", name), 2] < 0
    assert not model.jnt_actfrclimited[model.id("joint", "ball")]


# -- bad input ------------------------------------------------------------------------------
def _at_qpos0(xml):
    model = rbd.load_model(xml)
    data = rbd.Data(model)
    return model, data


def test_ctrl_of_the_wrong_length_is_a_value_error():
    model, data = _at_qpos0(scene())
    with pytest.raises(ValueError, match=rf"data.ctrl has shape \({model.nu},\); cannot assign an array of shape \({model.nu + 1},\)"):
        data.ctrl = np.zeros(model.nu + 1)


def test_nan_control_is_a_value_error_naming_the_actuator():
    """MuJoCo warns and zeroes every control; we refuse (a silent zero would hide the bug)."""
    model, data = _at_qpos0(scene())
    data.ctrl[model.id("actuator", "vel")] = np.nan
    with pytest.raises(ValueError, match=r"bad control for actuator\(s\) vel"):
        actuation(model, data)


def test_infinite_control_is_clamped_when_limited_and_refused_otherwise():
    """As MuJoCo: an infinite control on a limited actuator is clamped to its range; on an
    unlimited one (or with clampctrl disabled) it is bad."""
    model, data = _at_qpos0(scene())
    data.ctrl[model.id("actuator", "motor")] = np.inf
    actuation(model, data)
    assert data.actuator_force[model.id("actuator", "motor")] == 1.0
    data.ctrl[model.id("actuator", "vel")] = -np.inf
    with pytest.raises(ValueError, match="vel"):
        actuation(model, data)


@pytest.mark.parametrize("attributes, message", [
    ('joint="j" dyntype="user"', 'dyntype="user" is not supported'),
    ('joint="j" gaintype="so3"', "gaintype and biastype must both be 'so3'"),      # (as MuJoCo)
    ('joint="j" biastype="so3"', "gaintype and biastype must both be 'so3'"),
    ('joint="j" dyntype="pid"', "dyntype 'pid' requires gaintype 'pid'"),
    ('joint="j" biastype="user"', 'biastype="user" is not supported'),
    ('joint="j" dyntype="filter" actdim="2"', "actdim"),
    ('joint="j" delay="0.01"', "delayed controls"),
])
def test_unsupported_actuators_are_refused_at_load(attributes, message):
    xml = f"""<mujoco><worldbody><body name="b"><joint name="j"/><geom size=".1"/></body></worldbody>
      <actuator><general {attributes}/></actuator></mujoco>"""
    with pytest.raises(ModelError, match=message) as info:
        rbd.load_model(xml)
    assert info.value.line == 2 and info.value.element == "general"


@pytest.mark.parametrize("autolimits, attributes", [
    ("true", 'ctrlrange="-1 1" forcerange="-2 2" actrange="0 1"'),
    ("true", 'ctrllimited="false" ctrlrange="-1 1" forcelimited="false" forcerange="-2 2"'),
    ("false", 'ctrllimited="true" ctrlrange="-1 1" actlimited="true" actrange="0 1"'),
    ("false", 'ctrlrange="-1 1"'),
    ("false", 'forcerange="-1 1"'),
    ("true", 'ctrllimited="true"'),
    ("true", 'ctrlrange="1 -1" forcerange="2 2"'),
    ("false", 'ctrlrange="0 0"'),
    ("false", 'ctrllimited="true" ctrlrange="1 -1"'),
])
def test_limited_rules_match_mujoco(autolimits, attributes):
    """MuJoCo's ``*limited`` rules: ``auto`` with a range given (not zeros) is an error
    without ``autolimits``, and limits only an increasing range; ``true`` needs an
    increasing range. Where MuJoCo compiles the actuator so do we, with the same flags;
    where it refuses so do we."""
    xml = f"""<mujoco><compiler autolimits="{autolimits}"/><worldbody><body><joint name="j"/>
      <geom size=".1"/></body></worldbody><actuator><general joint="j" dyntype="integrator" {attributes}/>
      </actuator></mujoco>"""
    try:
        m = mujoco.MjModel.from_xml_string(xml)
    except ValueError:
        with pytest.raises(ModelError):
            rbd.load_model(xml)
        return
    model = rbd.load_model(xml)
    for name in ("ctrllimited", "forcelimited", "actlimited", "ctrlrange", "forcerange", "actrange"):
        np.testing.assert_array_equal(getattr(model, "actuator_" + name), getattr(m, "actuator_" + name), name)


@pytest.mark.parametrize("tag, attributes", [
    ("position", 'inheritrange="0.5"'), ("intvelocity", 'inheritrange="0.5"'), ("intvelocity", ""),
    ("position", 'inheritrange="0.5" ctrlrange="-1 1"'), ("intvelocity", 'inheritrange="0.5" actrange="-1 1"'),
    ("intvelocity", 'inheritrange="0.5" ctrlrange="-1 1"')])
def test_inheritrange_matches_mujoco(tag, attributes):
    """``inheritrange`` scales the joint's range into a position servo's ``ctrlrange`` and
    an integrated-velocity servo's ``actrange``; giving that range as well is an error."""
    xml = f"""<mujoco><worldbody><body><joint name="j" range="-30 60"/><geom size=".1"/></body></worldbody>
      <actuator><{tag} joint="j" kp="3" {attributes}/></actuator></mujoco>"""
    try:
        m = mujoco.MjModel.from_xml_string(xml)
    except ValueError:
        with pytest.raises(ModelError, match="inheritrange"):
            rbd.load_model(xml)
        return
    model = rbd.load_model(xml)
    for name in ("ctrllimited", "ctrlrange", "actlimited", "actrange", "dyntype", "biasprm"):
        np.testing.assert_allclose(getattr(model, "actuator_" + name), getattr(m, "actuator_" + name),
                                   rtol=0, atol=1e-12, err_msg=name)
