"""Tendon lengths, Jacobians, velocities and path points against ``mujoco==4.0.0``.

At states along MuJoCo trajectories with random controls (``tests/actuation_oracle.py``):
``ten_length``, ``ten_J``, ``ten_velocity`` and the drawn path (``ten_wrapadr``,
``ten_wrapnum``, ``wrap_obj``, ``wrap_xpos``) equal MuJoCo's to 1e-8 on every gymnasium
asset, every model in ``models/`` and small scenes with fixed tendons, spatial tendons
through sites, pulleys, and wrapping around spheres and cylinders with and without side
sites, and through a geom whose side site is inside it (lengths to round-off, the touching
point and the Jacobian to 1e-7, see ``INSIDE_TOL``); the tendon paths MuJoCo refuses are
refused.
"""
from __future__ import annotations

import mujoco
import numpy as np
import pytest
from actuation_oracle import TOL, compare, load_both, mujoco_states, ours_at
from mujoco_oracle import compare_fields
from test_mjcf import GYM, MODELS

import rbdl_edu as rbd
from rbdl_edu.smooth.comframe import com_pos
from rbdl_edu.io import ModelError
from rbdl_edu.kinematics import kinematics
from rbdl_edu.smooth.tendon import tendon

TENDON_FIELDS = ("ten_length", "ten_J", "ten_velocity")

# a three-body arm on a cart with a free body beside it; tendons through sites, pulleys and
# wrapping geoms; {side} is filled with side-site attributes
WRAP_SCENE = """<mujoco><option timestep="0.005"/><worldbody>
  <site name="anchor" pos="0 0 1.2"/><site name="x0" pos="-0.4 0.3 0.6"/>
  <body name="cart" pos="0 0 0.5"><joint name="slide" type="slide" axis="1 0 0"/>
    <geom type="box" size=".2 .1 .05"/><site name="c0" pos="0.15 0.05 0.05"/>
    <body name="arm" pos="0 0 0.1"><joint name="hinge" axis="0 1 0"/><joint name="twist" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.5" size=".04"/>
      <geom name="wheel" type="cylinder" size=".08 .05" pos="0 0 .25" zaxis="0 1 0"/>
      <site name="a0" pos="0.1 0 0.45"/><site name="aside" pos="0.3 0 0.25"/>
      <body name="tip" pos="0 0 0.5"><joint name="ball" type="ball"/>
        <geom name="knob" type="sphere" size=".07"/><geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
        <site name="t0" pos="0.3 0 0.02"/><site name="t1" pos="0.2 0.05 -0.05"/></body></body></body>
  <body name="float" pos="0.8 0 1"><freejoint/><geom type="box" size=".1 .1 .1"/>
    <site name="f0" pos="0.1 0.05 0"/></body></worldbody>
  <tendon>
    <fixed name="couple"><joint joint="slide" coef="1"/><joint joint="hinge" coef="-0.5"/>
      <joint joint="twist" coef="0.25"/></fixed>
    <spatial name="straight"><site site="c0"/><site site="a0"/><site site="t0"/><site site="f0"/></spatial>
    <spatial name="pulleys"><site site="anchor"/><site site="t1"/><pulley divisor="2"/><site site="c0"/>
      <site site="f0"/><pulley divisor="3"/><site site="a0"/><site site="t0"/></spatial>
    <spatial name="wrapped"><site site="anchor"/><geom geom="knob" {knob}/><site site="t0"/>
      <pulley divisor="2"/><site site="c0"/><geom geom="wheel" {wheel}/><site site="t1"/></spatial>
    <spatial name="starts_with_pulley"><pulley divisor="4"/><site site="x0"/><geom geom="wheel"/>
      <site site="t1"/><site site="f0"/></spatial>
  </tendon>
  <actuator><motor joint="slide" ctrlrange="-5 5"/><motor joint="hinge"/><motor joint="twist"/>
    <motor tendon="pulleys" gear="3"/></actuator></mujoco>"""

SCENES = {
    "no_side_sites": WRAP_SCENE.format(knob="", wheel=""),
    "side_sites": WRAP_SCENE.format(knob='sidesite="x0"', wheel='sidesite="aside"'),
}
# side sites inside the geoms: the string goes through them (one on the geom's body, one in
# the world that the wheel passes as the cart slides)
INSIDE = WRAP_SCENE.format(knob='sidesite="inner"', wheel='sidesite="x0"').replace(
    '<site name="t0" pos="0.3 0 0.02"/>', '<site name="t0" pos="0.3 0 0.02"/><site name="inner" pos=".02 0 .01"/>')
# where the string touches the geom from inside, MuJoCo 4.0's point and ours differ by up to
# ~2e-8 (a Newton iteration stopped at |f| < 1e-6; 4.0's differs from the one in the source
# we read by that much); the length is stationary there, so it still agrees to round-off
INSIDE_TOL = 1e-7


def _path_fields(data, m, d):
    """Our and MuJoCo's drawn paths, the points in use only."""
    n = int(d.ten_wrapnum.sum())
    return [("ten_wrapadr", data.ten_wrapadr, d.ten_wrapadr), ("ten_wrapnum", data.ten_wrapnum, d.ten_wrapnum),
            ("wrap_obj", data.wrap_obj[:n], d.wrap_obj.reshape(-1)[:n]),
            ("wrap_xpos", data.wrap_xpos[:n], d.wrap_xpos.reshape(-1, 3)[:n])]


@pytest.mark.parametrize("name", sorted(SCENES))
def test_spatial_tendons_match_mujoco(name):
    """Sites, pulleys (also first in a path) and wrapping around a sphere and a cylinder;
    with side sites the tendon may take the long way round (MuJoCo 4.0's rule)."""
    model, m = load_both(SCENES[name])
    wrapped = 0
    for d in mujoco_states(m, nstate=6, nskip=10, seed=3):
        compare(model, m, d, TENDON_FIELDS)
        data = ours_at(model, d)
        for field, ours, theirs in _path_fields(data, m, d):
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=TOL, err_msg=field)
        wrapped += int((d.wrap_obj.reshape(-1) >= 0).sum())
    assert wrapped > 0, "no state wrapped a geom: the test would not test wrapping"


def test_wrapping_over_many_configurations():
    """Random configurations (not just a trajectory): whether and which way the tendon
    wraps, its length and Jacobian, equal MuJoCo's, with and without side sites."""
    rng = np.random.default_rng(7)
    for name in ("no_side_sites", "side_sites"):
        model, m = load_both(SCENES[name])
        d = mujoco.MjData(m)
        counts = np.zeros(2, dtype=int)
        for _ in range(60):
            d.qpos[:] = m.qpos0 + rng.normal(size=m.nq)
            mujoco.mj_normalizeQuat(m, d.qpos)
            mujoco.mj_forward(m, d)
            compare(model, m, d, ("ten_length", "ten_J"))
            data = ours_at(model, d)
            np.testing.assert_array_equal(data.ten_wrapnum, d.ten_wrapnum)
            counts += [d.ten_wrapnum[3] > 5, d.ten_wrapnum[3] == 5]      # tendon "wrapped": 5 points unwrapped
        assert counts.min() > 0, counts


@pytest.mark.parametrize("path", [p for p in MODELS + GYM if b"<tendon" in p.read_bytes()] or [None],
                         ids=lambda p: p.name if p else "none")
def test_assets_with_tendons_match_mujoco(path):
    """The gymnasium humanoids' fixed tendons (and any model file with tendons)."""
    assert path is not None, "no model file with tendons: the oracle is missing"
    model, m = load_both(path)
    for d in mujoco_states(m, seed=len(path.name)):
        compare(model, m, d, TENDON_FIELDS)


@pytest.mark.parametrize("name", sorted(SCENES))
def test_compiled_scenes_match_mujoco(name):
    """Every compiled field (tendon paths, ``tendon_length0``, ``tendon_lengthspring``, ...)."""
    compare_fields(*load_both(SCENES[name]))


def test_tendon_lengths_at_qpos0_and_spring_lengths():
    """``tendon_length0`` and ``tendon_lengthspring`` (``-1`` becomes the length at
    ``qpos_spring``) equal MuJoCo's compiled values."""
    xml = SCENES["side_sites"].replace('<joint name="hinge" axis="0 1 0"/>',
                                       '<joint name="hinge" axis="0 1 0" springref="20" ref="10"/>')
    xml = xml.replace('<spatial name="straight">', '<spatial name="straight" springlength="0.3 0.7">')
    xml = xml.replace('<fixed name="couple">', '<fixed name="couple" springlength="0.2">')
    model, m = load_both(xml)
    np.testing.assert_allclose(model.tendon_length0, m.tendon_length0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(model.tendon_lengthspring, m.tendon_lengthspring, rtol=0, atol=1e-12)
    assert not np.allclose(model.tendon_length0, model.tendon_lengthspring[:, 0])   # springref matters


def test_side_site_inside_the_geom_threads_the_string_through():
    """A side site inside the wrapped geom: the string touches the circle from inside at
    one point (both path points equal, no arc), as MuJoCo's; also when a side site of
    another body comes inside as the cart slides."""
    model, m = load_both(INSIDE)
    d = mujoco.MjData(m)
    rng = np.random.default_rng(11)
    through = 0
    for k in range(80):
        d.qpos[:] = m.qpos0 + rng.normal(size=m.nq) * 0.6
        d.qpos[model.jnt_qposadr[model.id("joint", "slide")]] = rng.uniform(-0.5, 0.6)
        mujoco.mj_normalizeQuat(m, d.qpos)
        mujoco.mj_forward(m, d)
        compare(model, m, d, ("ten_length",))
        compare(model, m, d, ("ten_J",), tol=INSIDE_TOL)
        data = ours_at(model, d)
        for field, ours, theirs in _path_fields(data, m, d):
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=INSIDE_TOL, err_msg=field)
        obj, x = d.wrap_obj.reshape(-1), d.wrap_xpos.reshape(-1, 3)
        for i in range(int(d.ten_wrapnum.sum()) - 1):
            through += bool(obj[i] >= 0 and obj[i + 1] == obj[i] and np.allclose(x[i], x[i + 1]))
    assert through > 5, through


@pytest.mark.parametrize("path_xml, message", [
    ('<fixed name="t"><joint joint="ball" coef="1"/></fixed>', "only use hinge and slide joints"),
    ('<fixed name="t"><joint joint="slide" coef="1"/><joint joint="slide" coef="2"/></fixed>', "appears twice"),
    ('<spatial><site site="c0"/><site site="a0"/><pulley divisor="2"/><pulley divisor="2"/><site site="t0"/>'
     '<site site="f0"/></spatial>',
     "cannot follow another pulley"),
    ('<spatial><site site="c0"/><site site="a0"/><pulley divisor="2"/></spatial>', "end the path"),
    ('<spatial><site site="c0"/><site site="a0"/><pulley divisor="2"/><site site="t0"/></spatial>',
     "needs a neighbor that is not a pulley"),
    ('<spatial><site site="c0"/><site site="c0"/></spatial>', "the same site twice"),
    ('<spatial><site site="c0"/><geom geom="knob"/><geom geom="wheel"/><site site="a0"/></spatial>',
     "between two sites"),
    ('<spatial armature="0.1"><site site="c0"/><geom geom="knob"/><site site="a0"/></spatial>', "armature"),
    ('<spatial><site site="c0"/></spatial>', "at least two"),
])
def test_tendon_paths_mujoco_refuses_are_refused(path_xml, message):
    """The paths MuJoCo 4.0's compiler refuses raise ``ModelError`` naming the element."""
    xml = SCENES["no_side_sites"]
    xml = xml[:xml.index("<tendon>")] + "<tendon>" + path_xml + "</tendon></mujoco>"
    with pytest.raises(Exception):
        mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(ModelError, match=message):
        rbd.load_model(xml)
